"""``MaincPipeline``: extract each item's page off the reactor and attach the results.

An item never gets lost here: an extraction that fails, times out or finds nothing still
lets the item through, with empty fields and ``mainc["reason"]`` saying why. Dropping
items without text is opt-in (``MAINC_DROP_EMPTY``).

With near-duplicate clustering on (``MAINC_DEDUP_ENABLED``), the worker also fingerprints
the main text, with the parameters ``NearDuplicatePipeline`` uses, and this pipeline hands
it on in the fingerprint field (``MAINC_DEDUP_FINGERPRINT_FIELD``; when that is None,
beside the item, in the crawler's book of ``_page_handoff``), together with the page
URL in the URL field (``MAINC_DEDUP_URL_FIELD``) when the item has none there. Either is
skipped for a typed item that does not declare the field; ``NearDuplicatePipeline`` then
fingerprints the text itself (stat ``mainc/dedup/fingerprinted``). Without
``NearDuplicatePipeline`` in ``ITEM_PIPELINES`` there are fingerprints and no clusters,
which is said once at WARNING.

The page's metadata (publication date, authors, site name, canonical URL, description,
lead image, section, tags) goes into flat fields of their own, written only where the
item's field is empty and optional on typed items: see ``items._fields`` for the design,
``items._mainc_stats`` for the ``mainc/metadata/*`` stats, ``MAINC_METADATA_ENABLED`` to
switch it off.

The steps from a page to its item are the per-page runner's (``items._runner``), which the
archive mode runs too; this pipeline finds each item's page (``_page_handoff``), runs the
extraction in its worker pool off the reactor, and hands each item's fingerprint on.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from itemadapter import ItemAdapter
from scrapy.exceptions import DropItem, NotConfigured

from ..config._dedup_config import DedupConfig
from ..config._mainc_config import MaincConfig, spider_algorithm
from ..items._fields import MissingFieldError
from ..items._mainc_stats import CollectorStats
from ..items._page import Page
from ..items._pool import WorkerPool
from ..items._runner import PageRunner
from ..items._workers import ExtractionOutcome, ExtractionTask, preload_for
from ._page_handoff import book_of
from ._reactor import asyncio_available, await_future
from ._startup import check_crawl, checked, enabled_before, enabled_order
from .middleware import MaincSpiderMiddleware

if TYPE_CHECKING:
    from scrapy import Spider
    from scrapy.crawler import Crawler
    from scrapy.settings import BaseSettings
    from typing_extensions import Self


logger = logging.getLogger(__name__)

#: Order in ITEM_PIPELINES used by the add-on: early, before pipelines that store items.
PIPELINE_ORDER = 100
#: ``NearDuplicatePipeline`` runs this much after ``MaincPipeline`` (110 by default).
DEDUP_PIPELINE_OFFSET = 10
#: How long closing the spider waits for idle workers to exit.
CLOSE_WAIT = 2.0


class MaincPipeline:
    """Attach ``main_text``, ``main_html``, ``title``, ``mainc``, ``page_type`` and the
    metadata fields (``published``, ``authors``...) to every item."""

    def __init__(self, crawler: Crawler) -> None:
        check_crawl(crawler)
        self.config = checked(MaincConfig.from_settings, crawler.settings)
        if not self.config.enabled:
            raise NotConfigured("MAINC_ENABLED is False")
        self.crawler = crawler
        self.dedup = checked(DedupConfig.from_settings, crawler.settings)
        clustered = self.dedup.enabled and _clustered(crawler.settings)
        #: Whether the workers' fingerprints go beside the items (not kept in them).
        self.handoff = clustered and not self.dedup.fingerprint_field
        self.book = book_of(crawler)
        #: Components that may hand this pipeline another object than the spider's item.
        self.replacers = _replacers(crawler.settings)
        #: The steps from a page to its item, shared with the archive mode.
        self.runner = PageRunner(
            self.config,
            self.dedup,
            CollectorStats(lambda: crawler.stats),
            checked(spider_algorithm, crawler.spider),
        )
        self.pool: WorkerPool | None = None

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        return cls(crawler)

    def open_spider(self, spider: Spider | None = None) -> None:
        self.pool = make_pool(self.config, preload_for(self.dedup.enabled, self.config.content.fallback))
        if self.config.worker_mode == "inline":
            logger.info(
                "mainc: inline mode: extraction runs in the reactor thread, MAINC_TIMEOUT is not enforced"
            )

    def close_spider(self, spider: Spider | None = None) -> None:
        if self.pool is not None:
            self.pool.close(CLOSE_WAIT)
        warning = self.runner.closing_warning(attaching=self.book.filing)
        if warning:
            logger.warning("%s", warning)

    async def process_item(self, item: Any, spider: Spider | None = None) -> Any:
        trail = self.book.claim(item, _item_url(ItemAdapter(item)))
        try:
            item = self.runner.prepare(item)
        except MissingFieldError:  # counted and said by the runner: the item goes on unchanged
            return item
        if trail is not None:
            self.book.bind(trail, item)  # converted to a dict: the dict is the item now
        run = self.runner.start(item, self._page(ItemAdapter(item), trail.page if trail else None))
        outcome = run.settled or await self._extract(run.task)
        result = self.runner.finish(run, outcome)
        if result.beside is not None and self.handoff:
            self.book.keep_fingerprint(trail, result.item, result.beside)
        if result.dropped:
            raise _drop(result.dropped)
        return item

    def _page(self, adapter: ItemAdapter, attached: Page | None) -> Page:
        """The item's page: the one the spider put in its page field, else its response's
        (an empty field too: ``""`` is an empty document, not a missing page)."""
        in_item = self.runner.fields.page_in(adapter)
        if attached is not None:
            return replace(attached, html=in_item) if in_item else attached
        url = _item_url(adapter)
        return Page(in_item, url, missing="" if in_item is not None else self._no_page_reason(url))

    async def _extract(self, task: ExtractionTask) -> ExtractionOutcome:
        if self.pool is None:  # process_item before open_spider: not in a crawl
            self.pool = WorkerPool("inline", 1, self.config.timeout)  # inline: no budget
        submitted = self.pool.submit(task)
        if submitted.done():  # inline mode: no need to go round the event loop
            return submitted.result()
        return await await_future(submitted)

    def _no_page_reason(self, url: str | None) -> str:
        """Why an item has no page: with the spider middleware off, it may well have come
        from a response; with it on, it came from none, or its object was replaced and its
        URL names no page in flight."""
        field = self.config.fields.page
        lacking = f"no {field!r} field" if field else "no page field (MAINC_PAGE_FIELD is None)"
        if not self.book.filing:
            return (
                "no page: MaincSpiderMiddleware, which attaches each item's response, is not "
                f"enabled (SPIDER_MIDDLEWARES, or the add-on), and the item has {lacking}"
            )
        if not self.replacers:
            return f"no page: the item did not come from a response and has {lacking}"
        by_url = (
            f"its 'url' field ({url!r}) is the URL of no response whose items are in flight"
            if url
            else "it has no 'url' field to find its page by"
        )
        return (
            "no page: the item came from no response, or a component before MaincPipeline "
            f"replaced the object the spider yielded ({', '.join(self.replacers)}; returning "
            f"dict(item) or another item class does that) and {by_url}; it has {lacking}"
        )


def make_pool(config: MaincConfig, preload: tuple[str, ...] = ()) -> WorkerPool:
    """The worker pool for ``config``, driven by Scrapy's asyncio loop when the crawl runs on
    one (no thread between the loop and the workers), else by a loop of its own. Worker
    processes import ``preload`` before their first page."""
    loop = None
    if config.worker_mode != "inline" and asyncio_available():
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # not called from the reactor: the pool runs its own loop
            loop = None
    return WorkerPool(
        config.worker_mode,
        config.workers,
        config.timeout,
        fallback_budget=config.fallback_timeout,
        preload=preload,
        loop=loop,
    )


def _clustered(settings: BaseSettings) -> bool:
    """Whether NearDuplicatePipeline is enabled; if not, say once (the pipeline is built once
    per crawl) that fingerprints without it make no clusters, and what to add."""
    from .dedup_pipeline import NearDuplicatePipeline  # datasketch: dedup is on

    if enabled_order(settings, "ITEM_PIPELINES", NearDuplicatePipeline) is not None:
        return True
    order = enabled_order(settings, "ITEM_PIPELINES", MaincPipeline)
    order = PIPELINE_ORDER if order is None else order
    logger.warning(
        "mainc: MAINC_DEDUP_ENABLED is True but NearDuplicatePipeline is not enabled: items "
        "get fingerprints and no clusters. Add it after MaincPipeline: ITEM_PIPELINES = "
        '{"scrapy_mainc.MaincPipeline": %d, "scrapy_mainc.NearDuplicatePipeline": %d} (the '
        'add-on, ADDONS = {"scrapy_mainc.Addon": 0}, does it)',
        order,
        order + DEDUP_PIPELINE_OFFSET,
    )
    return False


def _replacers(settings: BaseSettings) -> tuple[str, ...]:
    """The enabled components that may hand MaincPipeline another object than the one the
    spider yielded: item pipelines before it, spider middlewares nearer the engine than
    MaincSpiderMiddleware (whose output it does not see)."""
    return (
        *enabled_before(settings, "ITEM_PIPELINES", MaincPipeline, PIPELINE_ORDER),
        *enabled_before(settings, "SPIDER_MIDDLEWARES", MaincSpiderMiddleware, None),
    )


def _drop(message: str) -> DropItem:
    """A DropItem logged at DEBUG (a per-item message), where Scrapy supports that."""
    try:
        return DropItem(message, log_level="DEBUG")
    except TypeError:  # a Scrapy without DropItem(log_level=...)
        return DropItem(message)


def _item_url(adapter: ItemAdapter) -> str | None:
    url = adapter.get("url")
    return url if isinstance(url, str) else None
