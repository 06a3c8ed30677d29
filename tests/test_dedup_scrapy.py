"""Near-duplicate clustering through the Scrapy integration: the add-on, fingerprints made by
the extraction workers (identical in every worker mode), the page URL handed on to
``NearDuplicatePipeline``, and real crawls of the bundled site in every worker mode.
"""

from __future__ import annotations

import asyncio
import pickle
import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import pytest
import scrapy
from conftest import EXAMPLE, CrawlResult, run_crawls
from probes import extract_and_list_modules
from scrapy.http import HtmlResponse
from scrapy.settings import Settings
from scrapy.utils.test import get_crawler
from test_scrapy_crawl import MANUAL

import scrapy_mainc
from scrapy_mainc.config._dedup_config import DedupConfig
from scrapy_mainc.dedup import cluster_id_for, fingerprint_text
from scrapy_mainc.integration._page_handoff import book_of
from scrapy_mainc.integration.addon import Addon
from scrapy_mainc.integration.dedup_pipeline import NearDuplicatePipeline
from scrapy_mainc.integration.pipeline import MaincPipeline
from scrapy_mainc.items._page import Page
from scrapy_mainc.items._pool import WorkerPool
from scrapy_mainc.items._workers import (
    FINGERPRINT_MODULES,
    ExtractionOutcome,
    ExtractionTask,
    run_extraction,
)

SITE = EXAMPLE / "site"
BRIDGE = "harbour-bridge-reopens.html"
#: The bridge story in three templates, two other stories, and a listing page (short text).
PAGES = {
    **{
        name: (SITE / name).read_bytes()
        for name in (
            f"en/{BRIDGE}", f"en/wire/{BRIDGE}", f"en/print/{BRIDGE}",
            "en/river-festival.html", "zh/shuiku-kuorong.html",
        )
    },
    # a notice of a dozen words: under the fingerprint's 50
    "en/notice.html": b"<html><body><main><p>The archive is closed until Monday.</p></main></body></html>",
}  # fmt: skip
PARAMS = DedupConfig(enabled=True).fingerprint_params
MODES = ("process", "thread", "inline")


def addon_settings(values: dict[str, Any] | None = None) -> Settings:
    settings = Settings(values or {})
    Addon().update_settings(settings)
    return settings


def expected_fingerprint(outcome: ExtractionOutcome) -> Any:
    return fingerprint_text(outcome.extraction.text, PARAMS)


def fingerprint_dict(text: str) -> dict[str, Any]:
    """The JSON form of the fingerprint of ``text``, as the item field holds it."""
    fingerprint = fingerprint_text(text, PARAMS)
    assert fingerprint is not None
    return fingerprint.to_dict()


# --- The add-on ---------------------------------------------------------------------------


def test_the_addon_enables_the_dedup_pipeline_after_mainc() -> None:
    assert addon_settings().getdict("ITEM_PIPELINES") == {MaincPipeline: 100}
    enabled = addon_settings({"MAINC_DEDUP_ENABLED": True})
    assert enabled.getdict("ITEM_PIPELINES") == {MaincPipeline: 100, NearDuplicatePipeline: 110}
    by_spider = Settings()
    by_spider.set("MAINC_DEDUP_ENABLED", "true", priority="spider")  # custom_settings come first
    Addon().update_settings(by_spider)
    assert NearDuplicatePipeline in by_spider.getdict("ITEM_PIPELINES")


def test_the_dedup_pipeline_follows_a_moved_mainc_pipeline() -> None:
    moved = {"scrapy_mainc.MaincPipeline": 700}
    settings = addon_settings({"MAINC_DEDUP_ENABLED": True, "ITEM_PIPELINES": moved})
    expected: dict[Any, int] = {**moved, NearDuplicatePipeline: 710}
    assert settings.getdict("ITEM_PIPELINES") == expected


@pytest.mark.parametrize(
    "placed",
    [
        {"scrapy_mainc.NearDuplicatePipeline": 300},
        {"scrapy_mainc.integration.dedup_pipeline.NearDuplicatePipeline": None},
    ],
)
def test_a_placed_or_disabled_dedup_pipeline_stays(placed: dict[str, Any]) -> None:
    settings = addon_settings({"MAINC_DEDUP_ENABLED": True, "ITEM_PIPELINES": placed})
    expected: dict[Any, int | None] = {**placed, MaincPipeline: 100}
    assert settings.getdict("ITEM_PIPELINES") == expected


def test_the_dedup_text_field_follows_the_text_field() -> None:
    assert addon_settings()["MAINC_DEDUP_TEXT_FIELD"] == "main_text"
    moved = addon_settings({"MAINC_TEXT_FIELD": "body"})
    assert DedupConfig.from_settings(moved).text_field == "body"
    assert moved.getpriority("MAINC_DEDUP_TEXT_FIELD") == 15
    explicit = addon_settings({"MAINC_TEXT_FIELD": "body", "MAINC_DEDUP_TEXT_FIELD": "text"})
    assert DedupConfig.from_settings(explicit).text_field == "text"
    switched_off = addon_settings({"MAINC_TEXT_FIELD": None})
    assert DedupConfig.from_settings(switched_off).text_field == "main_text"


def test_the_pipeline_has_a_top_level_name() -> None:
    assert scrapy_mainc.NearDuplicatePipeline is NearDuplicatePipeline


def test_the_dedup_package_loads_its_parts_on_first_access() -> None:
    code = """
import sys
import scrapy_mainc, scrapy_mainc.items._workers
from scrapy_mainc.dedup import FingerprintParams, IndexParams
from scrapy_mainc.config._dedup_config import DedupConfig
loaded = lambda: [name for name in ("scrapy", "datasketch", "numpy") if name in sys.modules]
assert loaded() == [], loaded()
from scrapy_mainc.dedup import fingerprint_text, open_index
assert loaded() == ["datasketch", "numpy"], loaded()
"""
    subprocess.run([sys.executable, "-c", code], check=True, timeout=120)


# --- Fingerprints in the extraction workers --------------------------------------------


@pytest.fixture
def pools() -> Iterator[list[WorkerPool]]:
    created: list[WorkerPool] = []
    yield created
    for pool in created:
        pool.close(5)


def tasks(fingerprint: bool = True) -> list[ExtractionTask]:
    params = PARAMS if fingerprint else None
    return [ExtractionTask(page, url=name, fingerprint=params) for name, page in PAGES.items()]


@pytest.mark.parametrize("mode", MODES)
def test_workers_fingerprint_the_main_text(pools: list[WorkerPool], mode: str) -> None:
    pool = WorkerPool(mode, 1, 60.0, preload=FINGERPRINT_MODULES)
    pools.append(pool)
    outcomes = [pool.submit(task).result(120) for task in tasks()]
    assert [outcome.fingerprint for outcome in outcomes] == [
        expected_fingerprint(outcome) for outcome in outcomes
    ]
    fingerprints = dict(zip(PAGES, (outcome.fingerprint for outcome in outcomes)))
    assert fingerprints["en/notice.html"] is None  # under 50 words
    assert all(fingerprints[name] is not None for name in list(PAGES)[:5])


def test_the_loop_pool_fingerprints_alike() -> None:
    async def run() -> list[ExtractionOutcome]:
        loop = asyncio.get_running_loop()
        pool = WorkerPool("process", 1, 60.0, preload=FINGERPRINT_MODULES, loop=loop)
        try:
            return list(await asyncio.gather(*(asyncio.wrap_future(pool.submit(task)) for task in tasks())))
        finally:
            pool.close(5)

    outcomes = asyncio.run(run())
    assert [o.fingerprint for o in outcomes] == [expected_fingerprint(o) for o in outcomes]


def test_worker_processes_load_the_fingerprint_code_only_when_asked(
    pools: list[WorkerPool],
) -> None:
    plain = WorkerPool("process", 1, 60.0, function=extract_and_list_modules)
    asked = WorkerPool("process", 1, 60.0, function=extract_and_list_modules, preload=FINGERPRINT_MODULES)
    pools.extend((plain, asked))
    without = plain.submit(tasks(fingerprint=False)[0]).result(120)
    assert without.fingerprint is None
    assert without.extraction.reason == ""  # neither datasketch, numpy nor Scrapy loaded
    with_fingerprint = asked.submit(tasks()[0]).result(120)
    assert with_fingerprint.fingerprint == expected_fingerprint(with_fingerprint)
    assert with_fingerprint.extraction.reason == "datasketch,numpy"


def test_a_disabled_dedup_imports_no_fingerprint_code_in_the_crawler() -> None:
    code = """
import asyncio, pathlib, sys
from scrapy.settings import Settings
from scrapy.utils.reactor import install_reactor
from scrapy.utils.test import get_crawler
from scrapy_mainc.integration.addon import Addon
from scrapy_mainc.integration.pipeline import MaincPipeline

install_reactor("twisted.internet.asyncioreactor.AsyncioSelectorReactor")
settings = Settings({"MAINC_WORKER_MODE": "inline"})
Addon().update_settings(settings)
pipeline = MaincPipeline(get_crawler(settings_dict=settings.copy_to_dict()))
pipeline.open_spider()
item = {"url": "http://x/", "raw_html": pathlib.Path(sys.argv[1]).read_bytes()}
asyncio.run(pipeline.process_item(item))
assert item["main_text"] and "fingerprint" not in item
loaded = [name for name in ("datasketch", "numpy") if name in sys.modules]
assert not loaded, loaded
"""
    page = SITE / "en" / BRIDGE
    subprocess.run([sys.executable, "-c", code, str(page)], check=True, timeout=120)


# --- MaincPipeline hands fingerprint and URL on -------------------------------------------


class ClusteredItem(scrapy.Item):
    """Declares the cluster fields but no fingerprint field."""

    url = scrapy.Field()
    main_text = scrapy.Field()
    main_html = scrapy.Field()
    title = scrapy.Field()
    mainc = scrapy.Field()
    cluster_id = scrapy.Field()
    duplicate_of = scrapy.Field()


def through_both_pipelines(items: list[Any], urls: list[str], **settings: Any) -> dict[str, Any]:
    """Run ``items`` (each attached to its page at ``urls``) through MaincPipeline and
    NearDuplicatePipeline in inline mode; return the dedup stats."""
    pipelines = {MaincPipeline: 100, NearDuplicatePipeline: 110}
    crawler = get_crawler(
        settings_dict={
            "MAINC_DEDUP_ENABLED": True,
            "MAINC_WORKER_MODE": "inline",
            "ITEM_PIPELINES": pipelines,
            **settings,
        }
    )
    mainc, dedup = MaincPipeline(crawler), NearDuplicatePipeline.from_crawler(crawler)
    mainc.open_spider()
    dedup.open_spider()

    async def process() -> None:
        for item, url in zip(items, urls):
            page = PAGES[url.split("/", 3)[-1]]
            response = HtmlResponse(url, body=page, encoding="utf-8")
            book_of(crawler).file(item, response, Page(page.decode(), url), [url])
            await dedup.process_item(await mainc.process_item(item))

    asyncio.run(process())
    mainc.close_spider()
    dedup.close_spider()
    assert crawler.stats is not None
    return {
        key.removeprefix("mainc/dedup/"): value
        for key, value in crawler.stats.get_stats().items()
        if key.startswith("mainc/dedup/")
    }


def test_the_fingerprint_and_the_page_url_reach_the_dedup_pipeline() -> None:
    urls = [f"http://site/en/{BRIDGE}", f"http://site/en/wire/{BRIDGE}", "http://site/en/notice.html"]
    items: list[Any] = [{"headline": "no URL field"}, {"url": "http://canonical/"}, {}]
    stats = through_both_pipelines(items, urls)
    assert items[0]["url"] == urls[0]  # the page URL, for an item that had none
    assert items[1]["url"] == "http://canonical/"  # the item's own URL stays
    for item in items[:2]:
        assert item["fingerprint"] == fingerprint_dict(item["main_text"])
    assert (items[1]["cluster_id"], items[1]["duplicate_of"]) == (cluster_id_for(urls[0]), urls[0])
    assert "fingerprint" not in items[2] and items[2]["cluster_id"] == ""
    # The workers' fingerprints were used as they are: the dedup pipeline hashed nothing.
    assert stats == {"unique": 1, "duplicates": 1, "skipped_short": 1}


def test_without_a_fingerprint_field_the_fingerprint_is_handed_on_beside_the_item() -> None:
    urls = [f"http://site/en/{BRIDGE}", f"http://site/en/print/{BRIDGE}"]
    items: list[Any] = [{"url": urls[0]}, ClusteredItem(url=urls[1])]
    stats = through_both_pipelines(items, urls, MAINC_DEDUP_FINGERPRINT_FIELD=None)
    assert "fingerprint" not in items[0] and [item["duplicate_of"] for item in items] == ["", urls[0]]
    assert stats == {"unique": 1, "duplicates": 1}  # nothing fingerprinted again


def test_a_typed_item_without_a_fingerprint_field_is_fingerprinted_by_the_dedup_pipeline() -> None:
    urls = [f"http://site/en/{BRIDGE}", f"http://site/en/print/{BRIDGE}"]
    items = [ClusteredItem(url=url) for url in urls]
    stats = through_both_pipelines(items, urls)
    assert [item["duplicate_of"] for item in items] == ["", urls[0]]
    assert stats == {"unique": 1, "duplicates": 1, "fingerprinted": 2}


# --- Real crawls of the bundled site, in every worker mode --------------------------------


@pytest.fixture(scope="module")
def dedup_crawled(site_server: Any, tmp_path_factory: pytest.TempPathFactory) -> Any:
    news = {"spider": "newsdemo.spiders.news:NewsSpider", "args": {"start_url": site_server.url}}
    settings = {"ADDONS": {"scrapy_mainc.Addon": 0}, "MAINC_DEDUP_ENABLED": True, "MAINC_WORKERS": 1}
    scenarios = [
        {"name": mode, **news, "settings": {**settings, "MAINC_WORKER_MODE": mode}} for mode in MODES
    ]
    # Without the add-on, as getting-started lists the components, with and without the
    # dedup pipeline.
    manual = {**MANUAL, "MAINC_DEDUP_ENABLED": True, "MAINC_WORKER_MODE": "inline"}
    with_dedup = {**MANUAL["ITEM_PIPELINES"], "scrapy_mainc.NearDuplicatePipeline": 110}
    unkept = {**settings, "MAINC_WORKER_MODE": "inline", "MAINC_DEDUP_FINGERPRINT_FIELD": None}
    scenarios += [
        {"name": "no-fingerprint-field", **news, "settings": unkept},
        {"name": "manual", **news, "settings": manual},
        {"name": "manual-dedup", **news, "settings": {**manual, "ITEM_PIPELINES": with_dedup}},
    ]
    return run_crawls(scenarios, tmp_path_factory.mktemp("dedup-crawls"))


def clusters(result: CrawlResult) -> set[frozenset[str]]:
    """The clusters of a crawl, as sets of page paths."""
    members: dict[str, set[str]] = {}
    for item in result.items:
        members.setdefault(item["cluster_id"], set()).add(item["url"].split("/", 3)[-1])
    return {frozenset(paths) for paths in members.values()}


@pytest.mark.parametrize("mode", MODES)
def test_every_article_gets_a_fingerprint_and_a_cluster(dedup_crawled: Any, mode: str) -> None:
    result: CrawlResult = dedup_crawled[0][mode]
    assert result.stats["finish_reason"] == "finished" and result.errors == []
    assert len(result.items) == 10
    for item in result.items:
        assert item["fingerprint"] == fingerprint_dict(item["main_text"])
    bridge = [item for item in result.items if item["url"].endswith(BRIDGE)]
    (leader,) = [item for item in bridge if not item["duplicate_of"]]
    assert {item["cluster_id"] for item in bridge} == {cluster_id_for(leader["url"])}
    assert sorted(item["duplicate_of"] for item in bridge) == ["", leader["url"], leader["url"]]
    others = [item for item in result.items if not item["url"].endswith(BRIDGE)]
    assert all(item["duplicate_of"] == "" for item in others)
    assert len({item["cluster_id"] for item in others} | {leader["cluster_id"]}) == 8
    dedup_stats = {k: v for k, v in result.stats.items() if k.startswith("mainc/dedup/")}
    assert dedup_stats == {"mainc/dedup/unique": 8, "mainc/dedup/duplicates": 2}


def test_every_worker_mode_gives_the_same_fingerprints_and_clusters(dedup_crawled: Any) -> None:
    results: dict[str, CrawlResult] = dedup_crawled[0]

    def fingerprints(result: CrawlResult) -> dict[str, Any]:
        return {item["url"]: item["fingerprint"] for item in result.items}

    assert fingerprints(results["thread"]) == fingerprints(results["process"])
    assert fingerprints(results["inline"]) == fingerprints(results["process"])
    assert clusters(results["thread"]) == clusters(results["inline"]) == clusters(results["process"])
    assert len(clusters(results["process"])) == 8


def test_no_warnings_during_the_dedup_crawls(dedup_crawled: Any) -> None:
    assert dedup_crawled[1] == []
    for mode in (*MODES, "manual-dedup"):
        assert dedup_crawled[0][mode].warnings_logged == [], mode


def test_the_fingerprint_field_may_be_left_out_of_the_items(dedup_crawled: Any) -> None:
    result: CrawlResult = dedup_crawled[0]["no-fingerprint-field"]
    assert len(result.items) == 10 and all("fingerprint" not in item for item in result.items)
    assert clusters(result) == clusters(dedup_crawled[0]["inline"])
    # The workers' fingerprints reached the dedup pipeline beside the items: none was made again.
    assert "mainc/dedup/fingerprinted" not in result.stats
    assert result.warnings_logged == [] and result.errors == []


def test_clustering_on_without_the_dedup_pipeline_says_what_to_add(dedup_crawled: Any) -> None:
    result: CrawlResult = dedup_crawled[0]["manual"]
    assert result.warnings_logged == [
        "mainc: MAINC_DEDUP_ENABLED is True but NearDuplicatePipeline is not enabled: items get "
        "fingerprints and no clusters. Add it after MaincPipeline: ITEM_PIPELINES = "
        '{"scrapy_mainc.MaincPipeline": 100, "scrapy_mainc.NearDuplicatePipeline": 110} (the '
        'add-on, ADDONS = {"scrapy_mainc.Addon": 0}, does it)'
    ]
    assert len(result.items) == 10 and all("cluster_id" not in item for item in result.items)
    # Listed by hand, the dedup pipeline clusters as with the add-on.
    assert clusters(dedup_crawled[0]["manual-dedup"]) == clusters(dedup_crawled[0]["inline"])


def test_outcomes_with_fingerprints_survive_pickling() -> None:
    outcome = run_extraction(tasks()[0])
    assert outcome.fingerprint is not None
    assert pickle.loads(pickle.dumps(outcome)) == outcome
