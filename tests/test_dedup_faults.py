"""Near-duplicate clustering in real crawls when things go wrong: typed items without the
cluster fields, items dropped or failed by a later pipeline, re-crawls of indexed URLs, and a
Redis server that is unreachable at start, stops answering or loses its data mid-crawl.

The crawls run in a subprocess (``conftest.run_crawls``) against the bundled site on
loopback, with real redis-servers: the session's for re-crawls, one of the test's own
(``own_redis``) for the server that the crawl freezes with SIGSTOP or empties (FLUSHALL).
"""

from __future__ import annotations

import os
import signal
from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest
import scrapy
from conftest import CrawlResult, run_crawls
from newsdemo.localredis import LocalRedis, free_port
from scrapy import signals
from scrapy.exceptions import DropItem
from scrapy.http import Response
from test_scrapy_crawl import ADDON, ArticleAttrs, ArticleData, ArticleItem, PagesSpider

from scrapy_mainc.dedup import cluster_id_for

redis = pytest.importorskip("redis", reason="redis-py is not installed (scrapy-mainc[test])")

BRIDGE = "harbour-bridge-reopens.html"
COPIES = (f"en/{BRIDGE}", f"en/wire/{BRIDGE}", f"en/print/{BRIDGE}")
DEDUP = {**ADDON, "MAINC_DEDUP_ENABLED": True, "MAINC_WORKERS": 1}
INLINE = {**DEDUP, "MAINC_WORKER_MODE": "inline"}


# --- Spiders and pipelines (imported by the crawl subprocess) -----------------------------


class TypedItemsSpider(PagesSpider):
    """Four items per page: three typed ones without the cluster fields, and a dict."""

    name = "typed_items"
    pages = (*COPIES, "en/river-festival.html", "zh/shuiku-kuorong.html")

    def parse(self, response: Response) -> Iterator[Any]:
        yield ArticleItem(url=response.url)
        yield ArticleData(url=response.url)
        yield ArticleAttrs(url=response.url)
        yield {"url": response.url}


class SequentialSpider(PagesSpider):
    """One page at a time: the next request goes out once the previous page's item has
    left the pipelines (scraped, dropped or failed), so items are clustered in page order."""

    name = "sequential"
    pages = COPIES

    @classmethod
    def from_crawler(cls, crawler: Any, *args: Any, **kwargs: Any) -> SequentialSpider:
        spider: SequentialSpider = super().from_crawler(crawler, *args, **kwargs)
        for signal_ in (signals.item_scraped, signals.item_dropped, signals.item_error):
            crawler.signals.connect(spider.next_page, signal=signal_)
        spider.done = 0
        return spider

    async def start(self) -> AsyncIterator[Any]:
        yield self.request(0)

    def request(self, number: int) -> scrapy.Request:
        return scrapy.Request(f"{self.base}/{self.pages[number]}", dont_filter=True)

    def next_page(self, item: Any, **kwargs: Any) -> None:
        self.done += 1
        if self.done < len(self.pages):
            assert self.crawler.engine is not None
            self.crawler.engine.crawl(self.request(self.done))


class LosePagePipeline:
    """After NearDuplicatePipeline: drops (or fails) the item of the spider's first page."""

    def __init__(self, crawler: Any, fail: bool) -> None:
        self.crawler = crawler
        self.fail = fail

    @classmethod
    def from_crawler(cls, crawler: Any) -> LosePagePipeline:
        return cls(crawler, crawler.settings.getbool("TEST_FAIL_INSTEAD"))

    def process_item(self, item: Any) -> Any:
        if item["url"].endswith("/" + self.crawler.spider.pages[0]):
            if self.fail:
                raise ValueError("storage failed")
            raise DropItem("rejected by a later pipeline")
        return item


class ActAtItemPipeline:
    """Before NearDuplicatePipeline: numbers the items (``seq``) and calls :meth:`act` when
    item TEST_ACT_AT arrives, before that item is clustered."""

    def __init__(self, settings: Any) -> None:
        self.settings, self.at, self.seen = settings, settings.getint("TEST_ACT_AT"), 0

    @classmethod
    def from_crawler(cls, crawler: Any) -> ActAtItemPipeline:
        return cls(crawler.settings)

    def process_item(self, item: Any) -> Any:
        self.seen += 1
        item["seq"] = self.seen
        if self.seen == self.at:
            self.act()
        return item

    def act(self) -> None:
        raise NotImplementedError


class FreezeRedisPipeline(ActAtItemPipeline):
    """Stops the redis-server whose pid is TEST_REDIS_PID (SIGSTOP). The test resumes it."""

    def act(self) -> None:
        os.kill(self.settings.getint("TEST_REDIS_PID"), signal.SIGSTOP)


class FlushRedisPipeline(ActAtItemPipeline):
    """Empties the Redis at TEST_REDIS_URL (FLUSHALL, as a restart without persistence would)."""

    def act(self) -> None:
        client = redis.Redis.from_url(self.settings.get("TEST_REDIS_URL"))
        client.flushall()
        client.close()


# --- Helpers ------------------------------------------------------------------------------


def page(item: dict[str, Any]) -> str:
    return str(item["url"]).split("/", 3)[-1]


def dangling(items: list[dict[str, Any]]) -> list[str]:
    """``duplicate_of`` values that name no item of the output leading the same cluster."""
    leaders = {
        (item["url"], item["cluster_id"])
        for item in items
        if item.get("cluster_id") and not item["duplicate_of"]
    }
    return [
        item["duplicate_of"]
        for item in items
        if item.get("duplicate_of") and (item["duplicate_of"], item["cluster_id"]) not in leaders
    ]


def sequential_crawl(
    site: str, pages: list[str], tmp_path: Any, act: str, at: int, **settings: Any
) -> CrawlResult:
    """One crawl of ``pages`` by SequentialSpider (an item at a time), with the pipeline
    ``act`` (an ActAtItemPipeline of this module) acting at item ``at`` and more
    ``settings``; it must finish without a Python warning."""
    pipeline = {"ITEM_PIPELINES": {f"{__name__}.{act}": 105}, "TEST_ACT_AT": at}
    scenario = {
        "name": "crawl",
        "spider": f"{__name__}:SequentialSpider",
        "args": {"base": site, "pages": pages},
        "settings": {**DEDUP, **pipeline, **settings},
    }
    results, warnings = run_crawls([scenario], tmp_path, timeout=240)
    assert warnings == []
    assert results["crawl"].stats["finish_reason"] == "finished"
    return results["crawl"]


def dedup_stats(result: CrawlResult) -> dict[str, Any]:
    prefix = "mainc/dedup/"
    return {key.removeprefix(prefix): value for key, value in result.stats.items() if key.startswith(prefix)}


# --- Crawls on the session's Redis and in memory -------------------------------------------


@pytest.fixture(scope="module")
def crawled(site_server: Any, redis_server: str, tmp_path_factory: pytest.TempPathFactory) -> Any:
    client = redis.Redis.from_url(redis_server)
    client.flushdb()
    client.close()
    here = __name__
    base = {"args": {"base": site_server.url}}
    news = {"spider": "newsdemo.spiders.news:NewsSpider", "args": {"start_url": site_server.url}}
    lose_first = {"ITEM_PIPELINES": {f"{here}.LosePagePipeline": 300}}
    shared = {**DEDUP, "MAINC_DEDUP_REDIS_URL": redis_server}
    nowhere = {**DEDUP, "MAINC_DEDUP_REDIS_URL": f"redis://127.0.0.1:{free_port()}/0"}
    scenarios = [
        {"name": "typed", "spider": f"{here}:TypedItemsSpider", **base, "settings": INLINE},
        {
            "name": "typed-converted",
            "spider": f"{here}:TypedItemsSpider",
            **base,
            "settings": {**INLINE, "MAINC_CONVERT_ITEMS": True},
        },
        {
            "name": "dropped-later",
            "spider": f"{here}:SequentialSpider",
            **base,
            "settings": {**INLINE, **lose_first},
        },
        {
            "name": "failed-later",
            "spider": f"{here}:SequentialSpider",
            **base,
            "settings": {**INLINE, **lose_first, "TEST_FAIL_INSTEAD": True},
        },
        {"name": "first-run", **news, "settings": shared},
        {"name": "re-crawl", **news, "settings": shared},
        {"name": "unreachable", **news, "settings": nowhere},
        {
            "name": "unreachable-optional",
            **news,
            "settings": {**nowhere, "MAINC_DEDUP_REDIS_REQUIRED": False},
        },
    ]
    return run_crawls(scenarios, tmp_path_factory.mktemp("dedup-faults"), timeout=300)


@pytest.fixture(scope="module")
def crawls(crawled: Any) -> dict[str, CrawlResult]:
    return crawled[0]


def test_no_python_warnings_in_the_crawls(crawled: Any) -> None:
    assert crawled[1] == []


def test_typed_items_without_the_cluster_fields_pass_with_one_error_per_class(
    crawls: dict[str, CrawlResult],
) -> None:
    result = crawls["typed"]
    assert result.stats["finish_reason"] == "finished"
    assert len(result.items) == 4 * len(TypedItemsSpider.pages)  # none lost
    typed = [item for item in result.items if item["_type"] != "dict"]
    assert len(typed) == 3 * len(TypedItemsSpider.pages)
    assert all(item["main_text"] and "cluster_id" not in item for item in typed)
    assert len(result.errors) == 3
    for name, message in zip(("ArticleAttrs", "ArticleData", "ArticleItem"), sorted(result.errors)):
        assert message.startswith(f"NearDuplicatePipeline cannot store clusters in {name} items")
        for needed in ("'cluster_id'", "'duplicate_of'", "MAINC_CONVERT_ITEMS", "mainc/dedup/missing_field"):
            assert needed in message
        assert " | " not in message  # no traceback
    # The dicts, alone in the index: the three bridge copies form one cluster.
    dicts = [item for item in result.items if item["_type"] == "dict"]
    assert dangling(dicts) == []
    assert len({item["cluster_id"] for item in dicts if page(item) in COPIES}) == 1
    stats = dedup_stats(result)
    assert stats == {"missing_field": 15, "unique": 3, "duplicates": 2}


def test_converted_typed_items_are_clustered_with_the_workers_fingerprints(
    crawls: dict[str, CrawlResult],
) -> None:
    result = crawls["typed-converted"]
    assert result.errors == []
    assert len(result.items) == 4 * len(TypedItemsSpider.pages)
    assert all(item["_type"] == "dict" and item["fingerprint"] for item in result.items)
    assert dangling(result.items) == []
    assert [item for item in result.items if item["duplicate_of"] == item["url"]] == []
    # Per story, the first item leads; the other three items of its page are re-crawls of
    # it (same cluster, not duplicates); the 8 items of the other two bridge pages are
    # duplicates. "fingerprinted" is absent: MaincPipeline converted the items before it
    # handed on the workers' fingerprints.
    assert dedup_stats(result) == {"unique": 3, "recrawled": 9, "duplicates": 8}
    for url in {item["url"] for item in result.items}:
        assert len({item["cluster_id"] for item in result.items if item["url"] == url}) == 1


@pytest.mark.parametrize("name", ["dropped-later", "failed-later"])
def test_an_item_lost_after_clustering_leaves_the_index(crawls: dict[str, CrawlResult], name: str) -> None:
    result = crawls[name]
    assert result.stats["finish_reason"] == "finished"
    items = {page(item): item for item in result.items}
    assert sorted(items) == sorted(COPIES[1:])  # the first copy was lost after clustering
    wire, printed = items[COPIES[1]], items[COPIES[2]]
    assert (wire["cluster_id"], wire["duplicate_of"]) == (cluster_id_for(wire["url"]), "")
    assert (printed["cluster_id"], printed["duplicate_of"]) == (wire["cluster_id"], wire["url"])
    assert dedup_stats(result) == {"unique": 2, "withdrawn": 1, "duplicates": 1}


def test_a_re_crawl_is_not_its_own_duplicate(crawls: dict[str, CrawlResult]) -> None:
    first, again = crawls["first-run"], crawls["re-crawl"]
    assert dedup_stats(first) == {"unique": 8, "duplicates": 2}
    assert len(again.items) == 10
    assert [item["url"] for item in again.items if item["duplicate_of"] == item["url"]] == []
    clusters = {item["url"]: (item["cluster_id"], item["duplicate_of"]) for item in first.items}
    assert {item["url"]: (item["cluster_id"], item["duplicate_of"]) for item in again.items} == clusters
    assert dangling(again.items) == []
    assert dedup_stats(again) == {"recrawled": 8, "duplicates": 2}


def test_an_unreachable_redis_stops_the_crawl_before_it_starts_with_one_line(
    crawls: dict[str, CrawlResult],
) -> None:
    result = crawls["unreachable"]
    assert result.start_error.startswith("StartupError: mainc dedup: cannot open the index")
    assert result.items == [] and result.stats == {}  # no engine, no request, no stats
    (message,) = result.errors
    assert message.startswith("mainc dedup: cannot open the index at redis://127.0.0.1:")
    assert "MAINC_DEDUP_REDIS_REQUIRED" in message and "Connection refused" in message
    assert " | " not in message and "\n" not in message
    assert result.warnings_logged == []
    assert result.children_after == 0


def test_an_unreachable_redis_may_fall_back_to_memory(crawls: dict[str, CrawlResult]) -> None:
    result = crawls["unreachable-optional"]
    assert result.stats["finish_reason"] == "finished" and result.errors == []
    assert len(result.items) == 10 and dangling(result.items) == []
    assert dedup_stats(result) == {"unique": 8, "duplicates": 2}
    (warning,) = [message for message in result.warnings_logged if "mainc dedup" in message]
    assert "in this process's memory" in warning and "MAINC_DEDUP_REDIS_REQUIRED" in warning


# --- A Redis server that stops answering mid-crawl ------------------------------------------

#: The item at which FreezeRedisPipeline stops the server.
FREEZE_AT = 4


def test_a_frozen_redis_lets_the_items_through_unclustered(
    site_server: Any, own_redis: LocalRedis, tmp_path: Any
) -> None:
    # One item at a time, so that the items after the freeze meet the frozen server one by
    # one; the time-out is only the liveness guard (with redis-py 4.6 this crawl hung).
    pages = [*TypedItemsSpider.pages, "en/school-gardens.html", "en/library-robots.html"]
    frozen = {"TEST_REDIS_PID": own_redis.process.pid, "MAINC_DEDUP_REDIS_TIMEOUT": 1.0}
    result = sequential_crawl(
        site_server.url,
        pages,
        tmp_path,
        "FreezeRedisPipeline",
        FREEZE_AT,
        MAINC_DEDUP_REDIS_URL=own_redis.url,
        **frozen,
    )
    assert len(result.items) == len(pages)
    before = [item for item in result.items if item["seq"] < FREEZE_AT]
    after = [item for item in result.items if item["seq"] >= FREEZE_AT]
    assert len(before) == FREEZE_AT - 1 and all(item["cluster_id"] for item in before)
    assert all((item["cluster_id"], item["duplicate_of"]) == ("", "") for item in after)
    stats = dedup_stats(result)
    assert stats["errors"] == len(after)
    assert result.errors == []
    (warning,) = [message for message in result.warnings_logged if "mainc dedup" in message]
    assert warning.startswith(f"mainc dedup: the index at {own_redis.url} failed")
    assert "TimeoutError" in warning


# --- A Redis server that loses its data mid-crawl ------------------------------------------

#: The item before whose clustering FlushRedisPipeline empties the server.
FLUSH_AT = 3


def test_an_index_lost_mid_crawl_is_counted_logged_once_and_the_crawl_goes_on(
    site_server: Any, own_redis: LocalRedis, tmp_path: Any
) -> None:
    # The first bridge copy is indexed before the loss, the other two after it.
    pages = [COPIES[0], "en/river-festival.html", COPIES[1], COPIES[2], "en/school-gardens.html"]
    result = sequential_crawl(
        site_server.url, pages, tmp_path, "FlushRedisPipeline", FLUSH_AT,
        MAINC_DEDUP_REDIS_URL=own_redis.url, TEST_REDIS_URL=own_redis.url,
    )  # fmt: skip
    items = sorted(result.items, key=lambda item: item["seq"])
    assert [page(item) for item in items] == pages  # every item reached the output
    assert all(item["cluster_id"] for item in items)  # clustered, the one in flight too
    assert dangling(items) == []
    # The copies after the loss make a cluster of their own: the index forgot the first.
    first, second, third = (item for item in items if page(item) in COPIES)
    assert (second["cluster_id"], second["duplicate_of"]) == (cluster_id_for(second["url"]), "")
    assert third["duplicate_of"] == second["url"]
    assert dedup_stats(result) == {"unique": 4, "duplicates": 1, "index_lost": 1}
    (error,) = result.errors
    assert error.startswith(f"mainc dedup: the index lost its data on {own_redis.url} (the server")
    assert "the clusters of the 2 texts this process assigned before are gone" in error
    assert not [message for message in result.warnings_logged if "mainc dedup" in message]


def test_clustering_on_a_non_asyncio_reactor(site_server: Any, tmp_path: Any) -> None:
    """Index calls are awaited through Deferreds there (with their time-out)."""
    news = {"spider": "newsdemo.spiders.news:NewsSpider", "args": {"start_url": site_server.url}}
    scenario = {"name": "select", **news, "settings": {**DEDUP, "MAINC_WORKER_MODE": "thread"}}
    results, warnings = run_crawls([scenario], tmp_path, reactor="select", timeout=300)
    assert warnings == []
    result = results["select"]
    assert result.stats["finish_reason"] == "finished" and result.errors == []
    assert len(result.items) == 10 and dangling(result.items) == []
    assert dedup_stats(result) == {"unique": 8, "duplicates": 2}
