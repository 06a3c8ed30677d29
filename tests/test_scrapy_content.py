"""The Scrapy side of issue 21's settings: MAINC_MARKDOWN_FIELD, MAINC_INCLUDE_*,
MAINC_FAVOR, MAINC_LANGUAGES and MAINC_ARTICLES_ONLY, through MaincPipeline (inline mode)
on pages of the bundled site."""

from __future__ import annotations

import asyncio
import json
import logging
from typing import Any

import pytest
from conftest import EXAMPLE
from scrapy.exceptions import DropItem
from scrapy.http import HtmlResponse
from scrapy.settings import Settings
from scrapy.utils.test import get_crawler

import scrapy_mainc.config._output_and_filters as content_module
from scrapy_mainc import extract
from scrapy_mainc.archive import FileSummary
from scrapy_mainc.config._mainc_config import MaincConfig
from scrapy_mainc.integration._page_handoff import book_of
from scrapy_mainc.integration._startup import StartupError
from scrapy_mainc.integration.pipeline import MaincPipeline
from scrapy_mainc.items._page import Page

SITE = EXAMPLE / "site"
KINDS = json.loads((EXAMPLE / "site_src" / "page_kinds.json").read_text(encoding="utf-8"))
BRIDGE = "/en/harbour-bridge-reopens.html"


def run_pipeline(paths: list[str], **settings: Any) -> tuple[dict[str, Any], dict[str, str], dict[str, Any]]:
    """Items kept (by path), items dropped (path -> reason) and the stats."""
    crawler = get_crawler(settings_dict={"MAINC_WORKER_MODE": "inline", **settings})
    pipeline = MaincPipeline(crawler)
    pipeline.open_spider()
    kept: dict[str, Any] = {}
    dropped: dict[str, str] = {}

    async def process() -> None:
        for path in paths:
            item: dict[str, Any] = {}
            url = f"http://127.0.0.1:8000{path}"
            body = (SITE / path.lstrip("/")).read_bytes()
            response = HtmlResponse(url, body=body)  # the book holds a page while its response lives
            book_of(crawler).file(item, response, Page(body, url), [url])
            try:
                kept[path] = await pipeline.process_item(item)
            except DropItem as drop:
                dropped[path] = str(drop)

    asyncio.run(process())
    pipeline.close_spider()
    assert crawler.stats is not None
    return kept, dropped, crawler.stats.get_stats()


def test_markdown_field_and_output_switches() -> None:
    kept, _, _ = run_pipeline([BRIDGE], MAINC_MARKDOWN_FIELD="markdown")
    page = (SITE / BRIDGE.lstrip("/")).read_bytes()
    expected = extract(page, url=f"http://127.0.0.1:8000{BRIDGE}", markdown=True)
    assert kept[BRIDGE]["markdown"] == expected.markdown and expected.markdown.startswith("Cyclists")
    kept, _, _ = run_pipeline([BRIDGE])
    assert "markdown" not in kept[BRIDGE]  # off by default
    kept, _, _ = run_pipeline([BRIDGE], MAINC_INCLUDE_LINKS=False, MAINC_INCLUDE_IMAGES=False)
    assert "<a " not in kept[BRIDGE]["main_html"] and "<img" not in kept[BRIDGE]["main_html"]


def test_favor_reaches_the_extraction() -> None:
    path = "/en/school-gardens.html"
    for favor in ("precision", "recall"):
        kept, _, _ = run_pipeline([path], MAINC_FAVOR=favor)
        page = (SITE / path.lstrip("/")).read_bytes()
        assert kept[path]["main_text"] == extract(page, url=f"http://127.0.0.1:8000{path}", favor=favor).text


def test_languages_drop_other_languages_and_say_so_once(caplog: pytest.LogCaptureFixture) -> None:
    paths = [BRIDGE, "/zh/shuiku-kuorong.html", "/zh/yejian-gongjiao.html", "/en/library-robots.html"]
    with caplog.at_level(logging.INFO, logger="scrapy_mainc"):
        kept, dropped, stats = run_pipeline(paths, MAINC_LANGUAGES=["en", "de"])
    assert sorted(kept) == [BRIDGE, "/en/library-robots.html"]
    assert all(item["mainc"]["lang"] == "en" for item in kept.values())
    assert sorted(dropped) == ["/zh/shuiku-kuorong.html", "/zh/yejian-gongjiao.html"]
    assert stats["mainc/dropped/language"] == 2
    said = [record.getMessage() for record in caplog.records if "MAINC_LANGUAGES" in record.getMessage()]
    assert said == ["mainc: dropping items in 'zh': not in MAINC_LANGUAGES (de, en); said once per language, "
                    "counted in mainc/dropped/language"]  # fmt: skip
    kept, _, _ = run_pipeline(paths, MAINC_LANGUAGES="zh")  # -s MAINC_LANGUAGES=zh
    assert sorted(kept) == ["/zh/shuiku-kuorong.html", "/zh/yejian-gongjiao.html"]


def test_articles_only() -> None:
    paths = sorted(KINDS)
    kept, dropped, stats = run_pipeline(paths, MAINC_ARTICLES_ONLY=True)
    assert sorted(kept) == sorted(path for path in paths if KINDS[path]["article"])
    assert sorted(dropped) == sorted(path for path in paths if not KINDS[path]["article"])
    assert stats["mainc/dropped/not_article"] == len(dropped)
    kept, dropped, _ = run_pipeline(paths)
    assert not dropped and {path: item["mainc"]["article"] for path, item in kept.items()} == {
        path: kind["article"] for path, kind in KINDS.items()
    }


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ({"MAINC_FAVOR": "speed"}, "MAINC_FAVOR must be one of precision, balanced, recall; got 'speed'"),
        ({"MAINC_LANGUAGES": ["english"]}, "MAINC_LANGUAGES: 'english' is not a language code"),
        ({"MAINC_LANGUAGES": 5}, "MAINC_LANGUAGES must be a list of language codes"),
    ],
)
def test_bad_values(settings: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        MaincConfig.from_settings(Settings(settings))


def test_languages_without_the_identifier_stop_the_crawl(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr(content_module, "identifier_available", lambda: False)
    crawler = get_crawler(settings_dict={"MAINC_LANGUAGES": ["en"]})
    with pytest.raises(StartupError):
        MaincPipeline(crawler)
    assert [record.getMessage() for record in caplog.records if record.levelno == logging.ERROR] == [
        "mainc: MAINC_LANGUAGES needs the language identifier, pycld2, which is not installed: "
        "pip install pycld2 (or the package's 'lang' extra, scrapy-mainc[lang])"
    ]


def test_the_summed_extraction_time_is_kept_to_the_microsecond() -> None:
    crawler = get_crawler(settings_dict={"MAINC_WORKER_MODE": "inline"})
    pipeline = MaincPipeline(crawler)
    for milliseconds in (0.1, 0.2, 2.0004):  # as floats, 0.1 + 0.2 is 0.30000000000000004
        pipeline.runner.stats.add_milliseconds("mainc/ms/total", milliseconds)
    assert crawler.stats is not None and crawler.stats.get_value("mainc/ms/total") == 2.3
    summary = FileSummary("run")  # the archive mode's, the same way
    for milliseconds in (0.1, 0.2, 2.0004):
        summary.add_milliseconds("mainc/ms/total", milliseconds)
    assert summary.stats["mainc/ms/total"] == 2.3
    _, _, stats = run_pipeline([BRIDGE, "/en/school-gardens.html"])
    assert stats["mainc/ms/total"] == round(stats["mainc/ms/total"], 3) > 0
