"""Crawls where things go wrong: worker processes killed mid-crawl, a page over budget.

Also a crawl on a non-asyncio reactor, where results come back through a Deferred.
"""

from __future__ import annotations

import multiprocessing
import os
import sys
import threading
from collections.abc import Iterator
from concurrent.futures import Future
from pathlib import Path
from typing import Any

import pytest
import scrapy
from conftest import CrawlResult, run_crawls
from scrapy.http import Response
from test_scrapy_crawl import ADDON, PagesSpider

from scrapy_mainc.integration.pipeline import MaincPipeline

ALL_ARTICLES = (
    "en/harbour-bridge-reopens.html",
    "en/wire/harbour-bridge-reopens.html",
    "en/print/harbour-bridge-reopens.html",
    "en/library-robots.html",
    "en/river-festival.html",
    "en/school-gardens.html",
    "en/night-tram-timetable.html",
    "zh/shuiku-kuorong.html",
    "zh/chuncha-kaicai.html",
    "zh/yejian-gongjiao.html",
)
#: The item at which KillWorkersPipeline kills every worker process.
KILL_AT = 3
WORKERS = 2


class ArticlesSpider(PagesSpider):
    name = "articles"
    pages = ALL_ARTICLES


class SlowPageSpider(PagesSpider):
    name = "slow_page"
    pages = ("slow/big.html", ALL_ARTICLES[0])

    def parse(self, response: Response) -> Iterator[Any]:
        yield {"url": response.url}


class SlowFirstSpider(PagesSpider):
    """The slow page first; the other pages only once its item is on its way."""

    name = "slow_first"

    async def start(self) -> Any:
        yield scrapy.Request(f"{self.base}/slow/big.html", callback=self.parse_slow)

    def parse_slow(self, response: Response) -> Iterator[Any]:
        yield {"url": response.url}
        for page in ALL_ARTICLES[:3]:
            yield scrapy.Request(f"{self.base}/{page}")


#: CPU seconds after which a worker is surely inside the slow page: a worker forked from the
#: forkserver is ready after milliseconds of CPU, the 7 MB page takes about a second.
BUSY_CPU_SECONDS = 0.2


def cpu_seconds(pid: int) -> float:
    """User plus system CPU time used by ``pid`` so far (Linux)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class KillBusyWorkerPipeline:
    """Before MaincPipeline: once the slow page's item passes, kill the worker mid-page.

    It polls the worker's CPU time every 10 ms and kills it once the worker has clearly
    been extracting for a while: CPU time, unlike wall time, does not depend on the load.
    """

    def __init__(self) -> None:
        self.poll: Any = None

    def process_item(self, item: Any) -> Any:
        if item["url"].endswith("slow/big.html"):
            from twisted.internet.task import LoopingCall

            self.poll = LoopingCall(self._kill_when_busy)
            self.poll.start(0.01)
        return item

    def _kill_when_busy(self) -> None:
        for child in multiprocessing.active_children():
            if child.name == "mainc-worker" and cpu_seconds(child.pid) > BUSY_CPU_SECONDS:
                child.kill()
                self.poll.stop()
                return


class KillWorkersPipeline:
    """Runs before MaincPipeline: numbers the items, kills the workers at item KILL_AT."""

    def __init__(self) -> None:
        self.seen = 0

    def process_item(self, item: Any) -> Any:
        self.seen += 1
        item["seq"] = self.seen
        if self.seen == KILL_AT:
            for child in multiprocessing.active_children():
                if child.name == "mainc-worker":
                    child.kill()
        return item


@pytest.fixture(scope="module")
def faults(site_server: Any, tmp_path_factory: pytest.TempPathFactory) -> dict[str, CrawlResult]:
    here = __name__
    scenarios = [
        {
            "name": "kill-workers",
            "spider": f"{here}:ArticlesSpider",
            "args": {"base": site_server.url},
            "settings": {
                **ADDON,
                "MAINC_WORKERS": WORKERS,
                "ITEM_PIPELINES": {f"{here}.KillWorkersPipeline": 50},
                "CONCURRENT_REQUESTS": 2,
            },
        },
        {
            "name": "kill-busy-worker",
            "spider": f"{here}:SlowFirstSpider",
            "args": {"base": site_server.url},
            "settings": {
                **ADDON,
                "MAINC_WORKERS": 1,
                "MAINC_MAX_PAGE_SIZE": 10_000_000,
                "ITEM_PIPELINES": {f"{here}.KillBusyWorkerPipeline": 50},
            },
        },
        {
            "name": "timeout",
            "spider": f"{here}:SlowPageSpider",
            "args": {"base": site_server.url},
            "settings": {
                **ADDON,
                "MAINC_WORKERS": 1,
                "MAINC_TIMEOUT": 0.25,  # the 7 MB page takes seconds to extract
                "MAINC_MAX_PAGE_SIZE": 10_000_000,
            },
        },
    ]
    results, warnings = run_crawls(scenarios, tmp_path_factory.mktemp("faults"))
    assert warnings == []
    return results


def test_killed_workers_cost_their_pages_only(faults: dict[str, CrawlResult]) -> None:
    result = faults["kill-workers"]
    assert result.stats["finish_reason"] == "finished"
    assert len(result.items) == len(ALL_ARTICLES)  # no item lost
    lost = [item for item in result.items if not item["main_text"]]
    assert len(lost) <= WORKERS  # at most the page each killed worker had
    for item in lost:
        assert item["mainc"]["reason"].startswith("worker died"), item["mainc"]
    assert result.stats.get("mainc/failed/worker_died", 0) == len(lost)
    assert result.stats["mainc/extracted"] == len(ALL_ARTICLES) - len(lost)
    after_kill = [item for item in result.items if item["seq"] > KILL_AT + WORKERS]
    assert after_kill and all(item["main_text"] for item in after_kill)  # workers replaced
    assert result.children_after == 0
    assert result.errors == []


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_a_worker_killed_mid_page_costs_that_page_only(faults: dict[str, CrawlResult]) -> None:
    result = faults["kill-busy-worker"]
    assert result.stats["finish_reason"] == "finished"
    items = {item["url"].split("/", 3)[-1]: item for item in result.items}
    assert sorted(items) == sorted(["slow/big.html", *ALL_ARTICLES[:3]])
    slow = items.pop("slow/big.html")
    assert slow["main_text"] == ""
    assert slow["mainc"]["reason"].startswith("worker died")
    assert all(item["main_text"] for item in items.values())  # done by the replacement
    assert result.stats["mainc/failed/worker_died"] == 1
    assert result.stats["mainc/extracted"] == 3
    assert result.children_after == 0


def test_a_page_over_the_time_budget_goes_through(faults: dict[str, CrawlResult]) -> None:
    result = faults["timeout"]
    assert result.stats["finish_reason"] == "finished"
    items = {item["url"].split("/", 3)[-1]: item for item in result.items}
    assert sorted(items) == sorted(SlowPageSpider.pages)
    slow = items["slow/big.html"]
    assert slow["main_text"] == "" and slow["main_html"] == ""
    assert slow["mainc"]["reason"].startswith("timeout")
    assert result.stats["mainc/failed/timeout"] == 1
    assert result.children_after == 0
    assert result.errors == []


#: The page whose extraction CancellingPipeline cancels while the pipeline waits for it.
CANCELLED_PAGE = ALL_ARTICLES[1]


class CancellingPool:
    """Wraps a pipeline's worker pool; the extraction of CANCELLED_PAGE is cancelled (from
    another thread, as a Deferred's canceller would) while the pipeline awaits it."""

    def __init__(self, pool: Any) -> None:
        self.pool = pool

    def submit(self, task: Any) -> Any:
        if not str(task.url).endswith(CANCELLED_PAGE):
            return self.pool.submit(task)
        future: Future[Any] = Future()
        threading.Timer(0.2, future.cancel).start()
        return future

    def close(self, wait_seconds: float = 0.0) -> None:
        self.pool.close(wait_seconds)


class CancellingPipeline(MaincPipeline):
    def open_spider(self, spider: Any = None) -> None:
        super().open_spider(spider)
        self.pool = CancellingPool(self.pool)  # type: ignore[assignment]


@pytest.fixture(scope="module")
def select_reactor(site_server: Any, tmp_path_factory: pytest.TempPathFactory) -> Any:
    scenarios = [
        {
            "name": mode,
            "spider": f"{__name__}:ArticlesSpider",
            "args": {"base": site_server.url},
            "settings": {**ADDON, "MAINC_WORKER_MODE": mode, "MAINC_WORKERS": 2},
        }
        for mode in ("thread", "process")
    ]
    scenarios.append(
        {
            "name": "cancelled",
            "spider": f"{__name__}:ArticlesSpider",
            "args": {"base": site_server.url},
            "settings": {
                **ADDON,
                "ITEM_PIPELINES": {"scrapy_mainc.MaincPipeline": None, f"{__name__}.CancellingPipeline": 100},
            },
        }
    )
    return run_crawls(scenarios, tmp_path_factory.mktemp("select"), reactor="select", timeout=240)


def test_crawls_on_a_non_asyncio_reactor(select_reactor: Any) -> None:
    results, warnings = select_reactor
    assert warnings == []
    for result in (results["thread"], results["process"]):
        assert result.stats["finish_reason"] == "finished"
        assert len(result.items) == len(ALL_ARTICLES)
        assert all(item["main_text"] and item["mainc"]["reason"] == "" for item in result.items)
    strip = lambda result: sorted(  # noqa: E731
        (item["url"], item["main_text"], item["mainc"]["xpath"]) for item in result.items
    )
    assert strip(results["thread"]) == strip(results["process"])


def test_a_cancelled_extraction_settles_on_a_non_asyncio_reactor(select_reactor: Any) -> None:
    """The pipeline's await of a cancelled future fires (Scrapy reports the item's error)
    instead of waiting for ever, which kept the crawl from finishing."""
    results, _ = select_reactor
    result = results["cancelled"]
    assert result.stats["finish_reason"] == "finished"
    urls = sorted(item["url"].split("/", 3)[-1] for item in result.items)
    assert urls == sorted(page for page in ALL_ARTICLES if page != CANCELLED_PAGE)
    assert all(item["main_text"] for item in result.items)
    (error,) = result.errors
    assert error.startswith("Error processing") and error.endswith("CancelledError: ")
