"""The settings registry: every MAINC_ setting the package reads is registered, and the
configuration objects take their defaults from it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from scrapy.settings import Settings

import scrapy_mainc
from helpers import repository_module
from scrapy_mainc.config._dedup_config import DedupConfig
from scrapy_mainc.config._mainc_config import SETTINGS, MaincConfig, default_workers
from scrapy_mainc.config._registry import DEFAULTS, REGISTRY, unknown_settings
from scrapy_mainc.dedup import FingerprintParams, IndexParams

PACKAGE = Path(scrapy_mainc.__file__).parent


def test_every_setting_named_in_the_package_is_registered() -> None:
    named = set()
    for path in PACKAGE.rglob("*.py"):
        named |= set(re.findall(r"\bMAINC_[A-Z][A-Z_]*[A-Z]\b", path.read_text(encoding="utf-8")))
    assert "MAINC_TIMEOUT" in named and "MAINC_DEDUP_URL_FIELD" in named
    assert sorted(named - set(DEFAULTS)) == []


def test_names_are_unique_and_documented() -> None:
    names = [setting.name for setting in REGISTRY]
    assert len(names) == len(set(names))
    for setting in REGISTRY:
        assert setting.name.startswith("MAINC_") and setting.kind and setting.meaning
        assert setting.group in {"extraction", "output", "filters", "fields", "workers", "dedup"}
        assert setting.group == "dedup" if setting.name.startswith("MAINC_DEDUP_") else True


def test_the_settings_tables_of_the_documentation_are_the_registrys() -> None:
    # plain Markdown tables (readable where the pages are not built), written from the
    # registry by scripts/settings_docs.py: run it after changing a setting
    settings_docs = repository_module("scripts", "settings_docs")
    assert settings_docs.main(["--check"]) == 0
    page = (Path(__file__).resolve().parents[1] / "docs" / "settings.md").read_text(encoding="utf-8")
    assert '| `MAINC_ALGORITHM` | str | `"auto"` |' in page
    assert settings_docs.groups_in(page) == ["extraction", "output", "filters", "fields", "workers", "dedup"]
    stale = page.replace('| `MAINC_ALGORITHM` | str | `"auto"` |', '| `MAINC_ALGORITHM` | str | `"nce"` |')
    assert settings_docs.rendered(stale) == page  # a stale row is written back from the registry
    with pytest.raises(ValueError, match="no settings in group 'nope'"):
        settings_docs.table("nope")


def test_the_config_objects_default_to_the_registry() -> None:
    config = MaincConfig.from_settings(Settings())
    assert config.algorithm == DEFAULTS["MAINC_ALGORITHM"]
    assert config.timeout == DEFAULTS["MAINC_TIMEOUT"]
    assert config.max_page_size == DEFAULTS["MAINC_MAX_PAGE_SIZE"]
    assert config.workers == default_workers() and DEFAULTS["MAINC_WORKERS"] is None
    assert config.fields.text == DEFAULTS["MAINC_TEXT_FIELD"]
    assert config.fields.page == DEFAULTS["MAINC_PAGE_FIELD"]
    dedup = DedupConfig.from_settings(Settings())
    assert dedup == DedupConfig()
    assert dedup.threshold == DEFAULTS["MAINC_DEDUP_THRESHOLD"]
    assert dedup.min_words == DEFAULTS["MAINC_DEDUP_MIN_WORDS"]
    assert dedup.num_perm == DEFAULTS["MAINC_DEDUP_NUM_PERM"]
    assert dedup.text_field == DEFAULTS["MAINC_DEDUP_TEXT_FIELD"]
    assert dedup.fingerprint_field == DEFAULTS["MAINC_DEDUP_FINGERPRINT_FIELD"]
    assert dedup.url_field == DEFAULTS["MAINC_DEDUP_URL_FIELD"]
    assert dedup.redis_url == DEFAULTS["MAINC_DEDUP_REDIS_URL"]
    assert dedup.redis_required == DEFAULTS["MAINC_DEDUP_REDIS_REQUIRED"]
    assert dedup.redis_timeout == DEFAULTS["MAINC_DEDUP_REDIS_TIMEOUT"]
    assert dedup.containment == DEFAULTS["MAINC_DEDUP_CONTAINMENT"]
    assert dedup.min_size_ratio == DEFAULTS["MAINC_DEDUP_MIN_SIZE_RATIO"]
    assert dedup.redis_buckets == DEFAULTS["MAINC_DEDUP_REDIS_BUCKETS"]
    assert dedup.redis_cluster == DEFAULTS["MAINC_DEDUP_REDIS_CLUSTER"]
    assert dedup.redis_key == DEFAULTS["MAINC_DEDUP_REDIS_KEY"]
    assert dedup.redis_params == DEFAULTS["MAINC_DEDUP_REDIS_PARAMS"]
    assert (dedup.enabled, dedup.drop) == (DEFAULTS["MAINC_DEDUP_ENABLED"], DEFAULTS["MAINC_DEDUP_DROP"])


def test_the_clustering_defaults_are_the_parameter_records_own() -> None:
    index, fingerprint = IndexParams(), FingerprintParams()
    assert DedupConfig().index_params == index
    assert DedupConfig().fingerprint_params == fingerprint
    assert DEFAULTS["MAINC_DEDUP_CONTAINMENT"] == index.containment
    assert DEFAULTS["MAINC_DEDUP_MIN_WORDS"] == fingerprint.min_words


#: The item layer's messages, which name settings to the user (they read none), and the
#: Scrapy side of ``mainc crawl`` (Scrapy's own settings: the reactor's).
MESSAGES = ("items/_failure_warnings.py", "items/_field_messages.py", "cli/_crawl_job.py")


def test_settings_are_read_in_the_configuration_layer_only() -> None:
    """Only ``config`` reads settings (and the Scrapy layer, which hands them to it)."""
    for path in PACKAGE.rglob("*.py"):
        where = path.relative_to(PACKAGE)
        if {"config", "integration"} & set(where.parts) or where.as_posix() in MESSAGES:
            continue
        code = path.read_text(encoding="utf-8")
        assert not re.search(r"\bsettings\.get|\bBaseSettings\b|[\"']MAINC_", code), path


def test_the_addon_writes_every_setting_but_the_dedup_ones() -> None:
    assert set(SETTINGS) == {setting.name for setting in REGISTRY if setting.group != "dedup"}


def test_unknown_names_are_found_with_the_nearest_registered_name() -> None:
    names = ["MAINC_ALGORITM", "MAINC_ALGORITHM", "DOWNLOAD_DELAY", "MAINC_TEXT_FILED", "MAINC_QUUX"]
    assert unknown_settings(names) == [
        ("MAINC_ALGORITM", "MAINC_ALGORITHM"),
        ("MAINC_TEXT_FILED", "MAINC_TEXT_FIELD"),
        ("MAINC_QUUX", ""),
    ]


@pytest.mark.parametrize("name", sorted(DEFAULTS))
def test_every_name_with_a_letter_dropped_or_swapped_suggests_itself(name: str) -> None:
    dropped = name[:-1]
    swapped = name[:-2] + name[-1] + name[-2]
    assert unknown_settings([dropped, swapped]) == [(dropped, name), (swapped, name)]
