"""What a user would write without scrapy_mainc: trafilatura in an item pipeline.

``python -m benchmarks.speed.crawl --modes trafilatura-inline,trafilatura-pool`` crawls with these instead
of the add-on, to put the plugin's throughput beside them (issue 20):

- ``HtmlToItem``, a spider middleware, copies each response's text into its items
  (``raw_html``), as a user's spider would;
- ``TrafilaturaInline`` calls ``trafilatura.extract(html, with_metadata=True)`` in
  ``process_item``, in the crawler's thread;
- ``TrafilaturaPool`` sends the same call to a ``concurrent.futures.ProcessPoolExecutor``
  of ``MAINC_WORKERS`` processes (the CPU count by default) and awaits it: the plain
  way to keep the reactor free.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import AsyncIterator, Iterable
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from scrapy.crawler import Crawler
from scrapy.http import Response


def extract_with_trafilatura(html: str, url: str) -> str:
    import trafilatura

    return trafilatura.extract(html, url=url, with_metadata=True, output_format="json") or ""


class HtmlToItem:
    """Spider middleware: every dict item gets the text of its response."""

    async def process_spider_output_async(self, response: Response, result: AsyncIterator[Any]) -> Any:
        async for item in result:
            yield _with_html(item, response)

    def process_spider_output(self, response: Response, result: Iterable[Any]) -> Any:
        for item in result:
            yield _with_html(item, response)


def _with_html(item: Any, response: Response) -> Any:
    if isinstance(item, dict):
        item["raw_html"] = response.text
    return item


class TrafilaturaInline:
    """Extracts in ``process_item``, in the crawler's thread."""

    def __init__(self, crawler: Crawler) -> None:
        self.crawler = crawler

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> TrafilaturaInline:
        return cls(crawler)

    def process_item(self, item: Any) -> Any:
        if "raw_html" in item:
            item["main"] = extract_with_trafilatura(item.pop("raw_html"), item.get("url", ""))
            self.crawler.stats.inc_value("mainc/extracted")  # type: ignore[union-attr]
        return item


class TrafilaturaPool(TrafilaturaInline):
    """Extracts in a process pool and awaits the result."""

    def __init__(self, crawler: Crawler) -> None:
        super().__init__(crawler)
        workers = crawler.settings.getint("MAINC_WORKERS") or os.cpu_count() or 1
        self.pool = ProcessPoolExecutor(workers)

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> TrafilaturaPool:
        return cls(crawler)

    async def process_item(self, item: Any) -> Any:  # type: ignore[override]
        if "raw_html" in item:
            future = self.pool.submit(extract_with_trafilatura, item.pop("raw_html"), item.get("url", ""))
            item["main"] = await asyncio.wrap_future(future)
            self.crawler.stats.inc_value("mainc/extracted")  # type: ignore[union-attr]
        return item

    def close_spider(self) -> None:
        self.pool.shutdown(wait=True)


#: The crawl benchmark's modes (``benchmarks.speed.crawl``): the settings each adds to the crawl.
SETTINGS: dict[str, dict[str, Any]] = {
    "trafilatura-inline": {
        "SPIDER_MIDDLEWARES": {HtmlToItem: 500},
        "ITEM_PIPELINES": {TrafilaturaInline: 300},
    },
    "trafilatura-pool": {
        "SPIDER_MIDDLEWARES": {HtmlToItem: 500},
        "ITEM_PIPELINES": {TrafilaturaPool: 300},
    },
}
