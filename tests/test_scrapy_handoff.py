"""The page (and the fingerprint) reach the pipelines when another component replaced the
item object, and the book lets go of each page once its items have left.

Real crawls of the bundled site on loopback (``conftest.run_crawls``). A user pipeline
before MaincPipeline returns ``dict(item)``, converts each item to another item class, or
drops some; one after it fails some items; the spider yields several items per response,
with a request among them. :class:`BookProbe`, the last pipeline, looks at the book after
every item has left (its signal handlers run after the book's) and compares it with the
items the spider yielded and that have not left yet.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest
import scrapy
from conftest import CrawlResult, run_crawls
from scrapy import signals
from scrapy.exceptions import DropItem
from scrapy.http import Response
from test_scrapy_crawl import ADDON, ArticleItem, PagesSpider
from test_scrapy_faults import ALL_ARTICLES

from scrapy_mainc.integration._page_handoff import book_of

#: Items the spider yields per article page (with a request among them).
PARTS = 3


class PartsSpider(PagesSpider):
    """Every article page yields PARTS items and a request for the front page."""

    name = "parts"
    pages = ALL_ARTICLES

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.seen: list[dict[str, Any]] = []  # BookProbe's records, returned by the crawl
        self.yielded: Counter[str] = Counter()

    def parse(self, response: Response) -> Iterator[Any]:
        for part in range(PARTS):
            self.yielded[response.url] += 1
            yield {"url": response.url, "part": part}
            if part == 0:
                yield scrapy.Request(f"{self.base}/en/index.html", callback=self.parse_front)

    def parse_front(self, response: Response) -> Iterator[Any]:
        return iter(())


class NoUrlSpider(PartsSpider):
    name = "no_url"

    def parse(self, response: Response) -> Iterator[Any]:
        self.yielded[response.url] += 1
        yield {"headline": response.css("h1::text").get()}


class CopyPipeline:
    """Returns a copy of every item, as ``dict(item)`` does."""

    def process_item(self, item: Any) -> Any:
        return dict(item)


class PartItem(ArticleItem):
    part = scrapy.Field()


class ConvertPipeline:
    """Converts every item to another item class."""

    def process_item(self, item: Any) -> Any:
        return PartItem(**item)


class DropPartOnePipeline:
    def process_item(self, item: Any) -> Any:
        if item.get("part") == 1:
            raise DropItem("part 1 is not wanted")
        return item


class FailPartTwoPipeline:
    """After MaincPipeline: fails every part 2 (Scrapy's item_error)."""

    def process_item(self, item: Any) -> Any:
        if item.get("part") == 2:
            raise ValueError("part 2 fails here")
        return item


class BookProbe:
    """The last pipeline: records the book's size after each item has left, beside the
    number of items (and of their responses) the spider yielded that have not left yet."""

    def __init__(self, crawler: Any) -> None:
        self.crawler = crawler
        self.left: Counter[str] = Counter()
        for signal in (signals.item_scraped, signals.item_dropped, signals.item_error):
            crawler.signals.connect(self.item_left, signal=signal)

    @classmethod
    def from_crawler(cls, crawler: Any) -> BookProbe:
        return cls(crawler)

    def process_item(self, item: Any) -> Any:
        return item

    def item_left(self, item: Any, response: Any = None, **kwargs: Any) -> None:
        spider = self.crawler.spider
        if response is not None:
            self.left[response.url] += 1
        in_flight = {url: count - self.left[url] for url, count in spider.yielded.items()}
        book = book_of(self.crawler)
        spider.seen.append(
            {
                "pages": book.pages,
                "trails": book.trails,
                "responses_in_flight": sum(1 for count in in_flight.values() if count > 0),
                "items_in_flight": sum(in_flight.values()),
            }
        )


def pipelines(**extra: int) -> dict[str, Any]:
    here = __name__
    return {
        **ADDON,
        "MAINC_WORKER_MODE": "inline",
        "ITEM_PIPELINES": {
            **{f"{here}.{name}": order for name, order in extra.items()},
            f"{here}.BookProbe": 999,
        },
    }


@pytest.fixture(scope="module")
def crawls(site_server: Any, tmp_path_factory: pytest.TempPathFactory) -> dict[str, CrawlResult]:
    parts = {"spider": f"{__name__}:PartsSpider", "args": {"base": site_server.url}}
    dedup = {"MAINC_DEDUP_ENABLED": True, "MAINC_DEDUP_FINGERPRINT_FIELD": None}
    scenarios = [
        {"name": "copy", **parts, "settings": pipelines(CopyPipeline=50)},
        {
            "name": "copy-process",
            **parts,
            "settings": {**pipelines(CopyPipeline=50), "MAINC_WORKER_MODE": "process"},
        },
        {"name": "convert", **parts, "settings": pipelines(ConvertPipeline=50)},
        {
            "name": "drop-and-fail",
            **parts,
            "settings": pipelines(DropPartOnePipeline=40, CopyPipeline=50, FailPartTwoPipeline=200),
        },
        {"name": "dedup-copy-between", **parts, "settings": {**pipelines(CopyPipeline=105), **dedup}},
        {
            "name": "no-url",
            "spider": f"{__name__}:NoUrlSpider",
            "args": {"base": site_server.url},
            "settings": pipelines(CopyPipeline=50),
        },
    ]
    results, warnings = run_crawls(scenarios, tmp_path_factory.mktemp("handoff"), timeout=300)
    assert warnings == []
    return results


def assert_book_follows_the_items(result: CrawlResult) -> None:
    """Never more in the book than items (and responses) in flight; empty at the end."""
    records = result.spider_output
    assert records, "the probe saw no item leave"
    for record in records:
        assert record["pages"] <= record["responses_in_flight"], record
        assert record["trails"] <= record["items_in_flight"], record
    assert records[-1] == {"pages": 0, "trails": 0, "responses_in_flight": 0, "items_in_flight": 0}


@pytest.mark.parametrize("name", ["copy", "copy-process", "convert"])
def test_the_page_reaches_an_item_another_pipeline_replaced(
    crawls: dict[str, CrawlResult], name: str
) -> None:
    result = crawls[name]
    assert result.stats["finish_reason"] == "finished"
    assert len(result.items) == PARTS * len(ALL_ARTICLES)
    assert all(item["main_text"] and item["mainc"]["reason"] == "" for item in result.items)
    assert result.stats["mainc/extracted"] == PARTS * len(ALL_ARTICLES)
    assert {item["_type"] for item in result.items} == {"PartItem" if name == "convert" else "dict"}
    assert_book_follows_the_items(result)
    assert result.errors == [] and result.warnings_logged == []


def test_pages_of_dropped_and_failed_items_are_let_go(crawls: dict[str, CrawlResult]) -> None:
    result = crawls["drop-and-fail"]
    assert result.stats["item_dropped_count"] == len(ALL_ARTICLES)
    assert len(result.errors) == len(ALL_ARTICLES)  # Scrapy's "Error processing", one per part 2
    assert [item["part"] for item in result.items] == [0] * len(ALL_ARTICLES)
    assert all(item["main_text"] for item in result.items)
    assert_book_follows_the_items(result)


def test_the_fingerprint_reaches_the_dedup_pipeline_past_a_replacing_pipeline(
    crawls: dict[str, CrawlResult],
) -> None:
    result = crawls["dedup-copy-between"]
    stats = result.stats
    assert stats["mainc/extracted"] == PARTS * len(ALL_ARTICLES)
    assert "mainc/dedup/fingerprinted" not in stats  # every fingerprint came from a worker
    assert stats["mainc/dedup/unique"] + stats.get("mainc/dedup/duplicates", 0) + stats.get(
        "mainc/dedup/recrawled", 0
    ) == PARTS * len(ALL_ARTICLES)
    assert all("fingerprint" not in item for item in result.items)
    assert_book_follows_the_items(result)


def test_an_item_that_cannot_be_matched_says_what_replaced_it(crawls: dict[str, CrawlResult]) -> None:
    result = crawls["no-url"]
    here = __name__
    reasons = {item["mainc"]["reason"] for item in result.items}
    assert reasons == {
        "no page: the item came from no response, or a component before MaincPipeline replaced "
        f"the object the spider yielded ({here}.CopyPipeline (50); returning dict(item) or another "
        "item class does that) and it has no 'url' field to find its page by; it has no 'raw_html' field"
    }
    (warning,) = [message for message in result.warnings_logged if message.startswith("mainc")]
    assert "enable the add-on" not in warning and f"{here}.CopyPipeline (50)" in warning
    assert_book_follows_the_items(result)
