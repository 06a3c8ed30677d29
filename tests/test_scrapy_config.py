"""Settings to ``MaincConfig``, the add-on (by diffing settings), lazy imports, NotConfigured."""

from __future__ import annotations

import re
import subprocess
import sys
from importlib.metadata import entry_points
from typing import Any

import pytest
from scrapy import Spider
from scrapy.exceptions import NotConfigured
from scrapy.settings import Settings
from scrapy.utils.test import get_crawler

import scrapy_mainc
from scrapy_mainc.config._dedup_config import DedupConfig
from scrapy_mainc.config._mainc_config import (
    SETTINGS,
    FieldNames,
    MaincConfig,
    default_workers,
    spider_algorithm,
)
from scrapy_mainc.config._registry import idle_settings
from scrapy_mainc.integration.addon import Addon
from scrapy_mainc.integration.middleware import MaincDownloaderMiddleware, MaincSpiderMiddleware
from scrapy_mainc.integration.pipeline import MaincPipeline

COMPONENT_SETTINGS = ("DOWNLOADER_MIDDLEWARES", "SPIDER_MIDDLEWARES", "ITEM_PIPELINES")


def test_defaults() -> None:
    config = MaincConfig.from_settings(Settings())
    assert config == MaincConfig(workers=default_workers())
    assert config.fields == FieldNames("main_text", "main_html", "title", "mainc", "raw_html")
    assert (config.algorithm, config.worker_mode, config.timeout) == ("auto", "process", 10.0)
    assert config.enabled and config.redecode and config.strip_comments
    assert not (config.keep_page or config.convert_items or config.drop_empty)


def test_every_setting_is_read() -> None:
    settings = Settings(
        {
            "MAINC_ENABLED": "false",
            "MAINC_ALGORITHM": "cetd-ds",
            "MAINC_DOMAIN_ALGORITHMS": {"Example.CN": "cectd-s", ".news.example.cn": "auto"},
            "MAINC_STRIP_COMMENTS": False,
            "MAINC_WORKER_MODE": "Thread",
            "MAINC_WORKERS": "3",
            "MAINC_TIMEOUT": "2.5",
            "MAINC_MAX_PAGE_SIZE": 1000,
            "MAINC_TEXT_FIELD": "body_text",
            "MAINC_HTML_FIELD": None,
            "MAINC_TITLE_FIELD": "",
            "MAINC_INFO_FIELD": "extraction",
            "MAINC_PAGE_FIELD": "html",
            "MAINC_KEEP_PAGE": True,
            "MAINC_CONVERT_ITEMS": True,
            "MAINC_DROP_EMPTY": True,
            "MAINC_REDECODE": False,
        }
    )
    assert MaincConfig.from_settings(settings) == MaincConfig(
        enabled=False,
        algorithm="cetd-ds",
        domain_algorithms=(("news.example.cn", "auto"), ("example.cn", "cectd-s")),
        strip_comments=False,
        worker_mode="thread",
        workers=3,
        timeout=2.5,
        max_page_size=1000,
        fields=FieldNames("body_text", "", "", "extraction", "html"),
        keep_page=True,
        convert_items=True,
        drop_empty=True,
        redecode=False,
    )


def test_none_from_the_command_line_is_none() -> None:
    """``-s NAME=None`` gives the text "None": for a setting whose value may be None, it is
    None (the tables say "`None`: leave the field out"), not a field named "None"."""
    settings = Settings(
        {
            "MAINC_HTML_FIELD": "None",
            "MAINC_MARKDOWN_FIELD": "None",
            "MAINC_AUTHORS_FIELD": "None",
            "MAINC_WORKERS": "None",
            "MAINC_MIN_QUALITY": "None",
            "MAINC_FALLBACK": "None",
        }
    )
    config = MaincConfig.from_settings(settings)
    assert (config.fields.html, config.fields.markdown) == ("", "")
    assert "authors" not in dict(config.fields.metadata)
    assert config.workers == default_workers()
    assert (config.content.min_quality, config.content.fallback) == (None, "")
    dedup = DedupConfig.from_settings(Settings({"MAINC_DEDUP_FINGERPRINT_FIELD": "None"}))
    assert dedup.fingerprint_field == ""
    assert idle_settings(["MAINC_FALLBACK_BELOW"], {"MAINC_FALLBACK": "None"}.get) == [
        ("MAINC_FALLBACK_BELOW", "MAINC_FALLBACK")
    ]


def test_domain_algorithms_from_the_command_line_as_json() -> None:
    settings = Settings({"MAINC_DOMAIN_ALGORITHMS": '{"example.cn": "cetd-ds"}'})
    assert MaincConfig.from_settings(settings).domain_algorithms == (("example.cn", "cetd-ds"),)


@pytest.mark.parametrize(
    ("name", "value", "message"),
    [
        ("MAINC_ALGORITHM", "nope", "MAINC_ALGORITHM: unknown algorithm 'nope'; valid: "),
        ("MAINC_DOMAIN_ALGORITHMS", {"a.cn": "nope"}, "MAINC_DOMAIN_ALGORITHMS['a.cn']"),
        ("MAINC_WORKER_MODE", "fork", "MAINC_WORKER_MODE must be one of process, thread, inline"),
        ("MAINC_WORKERS", 0, "MAINC_WORKERS must be a positive integer"),
        ("MAINC_WORKERS", 2.5, "MAINC_WORKERS must be a positive integer; got 2.5"),
        ("MAINC_WORKERS", "2.5", "MAINC_WORKERS must be a positive integer"),
        ("MAINC_TIMEOUT", "soon", "MAINC_TIMEOUT must be a positive number"),
        ("MAINC_TIMEOUT", "nan", "MAINC_TIMEOUT must be a positive number"),
        ("MAINC_WORKERS", True, "MAINC_WORKERS must be a positive integer"),
        ("MAINC_MAX_PAGE_SIZE", "inf", "MAINC_MAX_PAGE_SIZE must be a positive integer"),
        ("MAINC_MAX_PAGE_SIZE", -1, "MAINC_MAX_PAGE_SIZE must be a positive integer"),
        ("MAINC_TEXT_FIELD", 3, "must be a field name or None"),
        ("MAINC_ENABLED", "maybe", "MAINC_ENABLED must be True or False; got 'maybe'"),
        ("MAINC_DOMAIN_ALGORITHMS", "{a", "MAINC_DOMAIN_ALGORITHMS must be a dict (or its JSON text)"),
    ],
)
def test_bad_settings_are_named(name: str, value: Any, message: str) -> None:
    with pytest.raises(ValueError, match=re.escape(message)):
        MaincConfig.from_settings(Settings({name: value}))


def test_algorithm_choice_most_specific_first() -> None:
    config = MaincConfig.from_settings(
        Settings(
            {
                "MAINC_ALGORITHM": "cetd-ds",
                "MAINC_DOMAIN_ALGORITHMS": {"example.cn": "cectd-s", "news.example.cn": "cectd-ds"},
            }
        )
    )
    assert config.algorithm_for("https://example.cn/a") == "cectd-s"
    assert config.algorithm_for("https://www.EXAMPLE.cn:8080/a") == "cectd-s"
    assert config.algorithm_for("https://news.example.cn/a") == "cectd-ds"
    assert config.algorithm_for("https://a.news.example.cn/a", "auto") == "cectd-ds"
    assert config.algorithm_for("https://notexample.cn/a") == "cetd-ds"
    assert config.algorithm_for("https://other.org/a", "auto") == "auto"  # the spider's
    assert config.algorithm_for(None) == "cetd-ds"
    assert config.algorithm_for("http://[broken") == "cetd-ds"


def test_spider_attribute() -> None:
    class Chooser(Spider):
        name = "chooser"
        mainc_algorithm = "cectd-s"

    class Wrong(Spider):
        name = "wrong"
        mainc_algorithm = "nope"

    assert spider_algorithm(Chooser()) == "cectd-s"
    assert spider_algorithm(Spider(name="plain")) is None
    with pytest.raises(ValueError, match="Wrong.mainc_algorithm: unknown algorithm 'nope'"):
        spider_algorithm(Wrong())


def _flat(settings: Settings) -> dict[str, Any]:
    flat = settings.copy_to_dict()
    for name in COMPONENT_SETTINGS:
        flat[name] = {str(key): value for key, value in settings.getdict(name).items()}
    return flat


def test_the_addon_only_adds_mainc_settings_and_components() -> None:
    settings = Settings({"ITEM_PIPELINES": {"scrapy.pipelines.files.FilesPipeline": 300}})
    before = _flat(settings)
    Addon().update_settings(settings)
    after = _flat(settings)
    changed = {name for name in after if name not in before or after[name] != before[name]}
    written = {*SETTINGS, "MAINC_DEDUP_TEXT_FIELD"}  # the dedup text field follows the text field
    assert changed == written | set(COMPONENT_SETTINGS)
    assert {name: settings.getpriority(name) for name in written} == dict.fromkeys(written, 15)
    pipelines = settings.getdict("ITEM_PIPELINES")
    assert pipelines == {"scrapy.pipelines.files.FilesPipeline": 300, MaincPipeline: 100}
    assert settings.getdict("DOWNLOADER_MIDDLEWARES") == {MaincDownloaderMiddleware: 585}
    assert settings.getdict("SPIDER_MIDDLEWARES") == {MaincSpiderMiddleware: 10}


def test_project_settings_override_the_addon() -> None:
    settings = Settings(
        {
            "MAINC_ALGORITHM": "cetd-ds",
            "ITEM_PIPELINES": {"scrapy_mainc.MaincPipeline": 700},
            "SPIDER_MIDDLEWARES": {"scrapy_mainc.MaincSpiderMiddleware": None},
        }
    )
    Addon().update_settings(settings)
    assert settings["MAINC_ALGORITHM"] == "cetd-ds"
    assert settings.getdict("ITEM_PIPELINES") == {"scrapy_mainc.MaincPipeline": 700}
    assert settings.getdict("SPIDER_MIDDLEWARES") == {"scrapy_mainc.MaincSpiderMiddleware": None}
    settings.set("MAINC_WORKERS", 1, priority="spider")
    assert MaincConfig.from_settings(settings).workers == 1


def test_the_addon_gives_the_same_config_as_no_addon() -> None:
    with_addon = Settings({"MAINC_TIMEOUT": 3})
    Addon().update_settings(with_addon)
    without_addon = Settings({"MAINC_TIMEOUT": 3})
    assert MaincConfig.from_settings(with_addon) == MaincConfig.from_settings(without_addon)


@pytest.mark.parametrize("component", [MaincDownloaderMiddleware, MaincSpiderMiddleware, MaincPipeline])
def test_disabled_components_are_not_configured(component: Any) -> None:
    crawler = get_crawler(Spider, {"MAINC_ENABLED": False})
    with pytest.raises(NotConfigured, match="MAINC_ENABLED is False"):
        component.from_crawler(crawler)
    assert isinstance(component.from_crawler(get_crawler(Spider)), component)


def test_scrapy_names_load_lazily() -> None:
    code = (
        "import sys, scrapy_mainc, scrapy_mainc.items._workers\n"
        "assert 'scrapy' not in sys.modules, 'the core imported Scrapy'\n"
        "assert scrapy_mainc.MaincPipeline.__name__ == 'MaincPipeline'\n"
        "assert 'scrapy' in sys.modules\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, timeout=120)
    assert scrapy_mainc.Addon is Addon
    assert scrapy_mainc.MaincDownloaderMiddleware is MaincDownloaderMiddleware
    assert scrapy_mainc.MaincSpiderMiddleware is MaincSpiderMiddleware
    with pytest.raises(AttributeError, match="no attribute 'Nothing'"):
        scrapy_mainc.Nothing  # noqa: B018


def test_the_command_is_registered() -> None:
    commands = {entry.name: entry.value for entry in entry_points(group="scrapy.commands")}
    assert commands.get("mainc") == "scrapy_mainc.integration.command:Command"
