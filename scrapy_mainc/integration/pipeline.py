"""``MaincPipeline``: extract each item's page off the reactor and attach the results.

An item never gets lost here: an extraction that fails, times out or finds nothing still
lets the item through, with empty fields and ``mainc["reason"]`` saying why. Dropping
items without text is opt-in (``MAINC_DROP_EMPTY``).

With near-duplicate clustering on (``MAINC_DEDUP_ENABLED``), the worker also fingerprints
the main text, with the parameters ``NearDuplicatePipeline`` uses, and this pipeline hands
it on in the fingerprint field (``MAINC_DEDUP_FINGERPRINT_FIELD``), together with the page
URL in the URL field (``MAINC_DEDUP_URL_FIELD``) when the item has none there. Either is
skipped for a typed item that does not declare the field; ``NearDuplicatePipeline`` then
fingerprints the text itself (stat ``mainc/dedup/fingerprinted``).

The page's metadata (publication date, authors, site name, canonical URL, description,
lead image, section, tags) goes into flat fields of their own, written only where the
item's field is empty and optional on typed items: see ``_itemfields`` for the design,
``_tally`` for the ``mainc/metadata/*`` stats, ``MAINC_METADATA_ENABLED`` to switch it off.
"""

from __future__ import annotations

import asyncio
import logging
from concurrent.futures import Future
from typing import TYPE_CHECKING, Any

from itemadapter import ItemAdapter
from scrapy.exceptions import DropItem, NotConfigured

from ..dedup._config import CLUSTER_FIELDS, DedupConfig
from ._config import MaincConfig, spider_algorithm
from ._itemfields import ItemFields, MissingFieldError, undeclared_metadata_message
from ._looppool import LoopProcessPool
from ._pages import AttachedPage, pages_of
from ._tally import OutcomeTally, metadata_stats
from ._workers import (
    FINGERPRINT_MODULES,
    ExtractionOutcome,
    ExtractionTask,
    WorkerPool,
    failed,
)

if TYPE_CHECKING:
    from collections.abc import Awaitable

    from scrapy import Spider
    from scrapy.crawler import Crawler
    from typing_extensions import Self

logger = logging.getLogger(__name__)

#: Order in ITEM_PIPELINES used by the add-on: early, before pipelines that store items.
PIPELINE_ORDER = 100
#: How long closing the spider waits for idle workers to exit.
CLOSE_WAIT = 2.0


class MaincPipeline:
    """Attach ``main_text``, ``main_html``, ``title``, ``mainc`` and the metadata fields
    (``published``, ``authors``...) to every item."""

    def __init__(self, crawler: Crawler) -> None:
        self.config = MaincConfig.from_settings(crawler.settings)
        if not self.config.enabled:
            raise NotConfigured("MAINC_ENABLED is False")
        self.crawler = crawler
        self.dedup = DedupConfig.from_settings(crawler.settings)
        self.pages = pages_of(crawler)
        self.fields = ItemFields(self.config, CLUSTER_FIELDS if self.dedup.enabled else ())
        self.reported_classes: set[type] = set()
        #: Item classes already told (at INFO) that they lack metadata fields.
        self.told_undeclared: set[type] = set()
        self.tally = OutcomeTally(self.config.worker_mode)
        self.spider_algorithm: str | None = None
        self.pool: WorkerPool | LoopProcessPool | None = None

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        return cls(crawler)

    def open_spider(self, spider: Spider | None = None) -> None:
        self.spider_algorithm = spider_algorithm(self.crawler.spider)
        self.pool = make_pool(self.config, FINGERPRINT_MODULES if self.dedup.enabled else ())
        if self.config.worker_mode == "inline":
            logger.info(
                "mainc: inline mode: extraction runs in the reactor thread, MAINC_TIMEOUT is not enforced"
            )

    def close_spider(self, spider: Spider | None = None) -> None:
        if self.pool is not None:
            self.pool.close(CLOSE_WAIT)
        warning = self.tally.all_failed_warning()
        if warning:
            logger.warning("%s", warning)

    async def process_item(self, item: Any, spider: Spider | None = None) -> Any:
        attached = self.pages.take(item)
        try:
            item = self.fields.prepare(item)
        except MissingFieldError as error:
            return self._pass_unfit(item, error)
        adapter = ItemAdapter(item)
        in_item = self.fields.page_in(adapter)
        page = in_item if in_item is not None else _page_of(attached)
        url = attached.url if attached else _item_url(adapter)
        fetched = attached.fetched if attached else None
        outcome = await self._extract(page, url, self.fields.takes_metadata(item), fetched)
        found = self.fields.attach(adapter, outcome.extraction, _info(outcome, attached))
        self.fields.settle_page(adapter, page)
        if self.dedup.enabled:
            _hand_to_dedup(adapter, self.dedup, outcome, url)
        self._count(outcome, url)
        self._count_metadata(item, found)
        if self.config.drop_empty and not outcome.extraction.text:
            self._inc("mainc/dropped")
            raise _drop(f"mainc: no main text ({outcome.extraction.reason})")
        return item

    async def _extract(
        self, page: str | bytes | None, url: str | None, metadata: bool, fetched: str | None = None
    ) -> ExtractionOutcome:
        task = ExtractionTask(
            page=page if page is not None else "",
            url=url,
            algorithm=self.config.algorithm_for(url, self.spider_algorithm),
            strip_comments=self.config.strip_comments,
            metadata=metadata,
            fingerprint=self.dedup.fingerprint_params if self.dedup.enabled else None,
            fetched=fetched or None,
        )
        if page is None:
            reason = "no page: the item did not come from a response and has no page field"
            return failed(task, "no_page", reason)
        if len(page) > self.config.max_page_size:
            limit = self.config.max_page_size
            reason = f"page too large: {len(page):,} > MAINC_MAX_PAGE_SIZE ({limit:,})"
            return failed(task, "too_large", reason)
        if self.pool is None:  # process_item before open_spider: not in a crawl
            self.pool = WorkerPool("inline", 1, self.config.timeout)
        submitted = self.pool.submit(task)
        if not isinstance(submitted, Future):  # an asyncio future: already on the loop
            return await submitted
        if submitted.done():  # inline mode: no need to go round the event loop
            return submitted.result()
        return await _on_reactor(submitted)

    def _pass_unfit(self, item: Any, error: MissingFieldError) -> Any:
        """A typed item that cannot take the fields goes on unchanged: the error is logged
        once per item class (with the fix), every such item is counted."""
        self._inc("mainc/failed")
        self._inc("mainc/failed/missing_field")
        self.tally.add("missing_field", str(error))
        if type(item) not in self.reported_classes:
            self.reported_classes.add(type(item))
            logger.error("%s (items of this class pass through without extraction)", error)
        return item

    def _count(self, outcome: ExtractionOutcome, url: str | None) -> None:
        extraction = outcome.extraction
        self.tally.add(outcome.failure, extraction.reason)
        if outcome.failure:
            self._inc("mainc/failed")
            self._inc(f"mainc/failed/{outcome.failure}")
            if outcome.failure == "timeout":
                warning = self.tally.thread_timeout_warning(url, self.config.timeout)
                if warning:
                    logger.warning("%s", warning)
        else:
            self._inc("mainc/extracted" if extraction.text else "mainc/empty")
            self._inc(f"mainc/algorithm/{extraction.algorithm}")
            self._inc("mainc/ms/total", round(extraction.milliseconds, 3))
        if not logger.isEnabledFor(logging.DEBUG):
            return
        logger.debug(
            "mainc: %s: %s, %d characters in %.1f ms%s",
            url or "(no URL)",
            extraction.algorithm,
            len(extraction.text),
            extraction.milliseconds,
            f", {extraction.reason}" if extraction.reason else "",
        )

    def _count_metadata(self, item: Any, found: tuple[str, ...]) -> None:
        """The item's metadata stats; the INFO line for its class if it lacks fields."""
        skipped = self.fields.skipped_metadata(item)
        for key in metadata_stats(found, bool(skipped)):
            self._inc(key)
        if skipped and type(item) not in self.told_undeclared:
            self.told_undeclared.add(type(item))
            logger.info("%s", undeclared_metadata_message(type(item), skipped))

    def _inc(self, key: str, count: float = 1) -> None:
        if self.crawler.stats is not None:
            self.crawler.stats.inc_value(key, count)  # type: ignore[arg-type]  # sums ms too


def make_pool(config: MaincConfig, preload: tuple[str, ...] = ()) -> WorkerPool | LoopProcessPool:
    """The worker pool for ``config``: process workers driven by the asyncio loop when
    Scrapy runs on one (no threads between the loop and the workers), else slot threads.
    Worker processes import ``preload`` before their first page."""
    if config.worker_mode == "process" and _asyncio_available():
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            loop = None
        if loop is not None:
            return LoopProcessPool(loop, config.workers, config.timeout, preload=preload)
    return WorkerPool(config.worker_mode, config.workers, config.timeout, preload=preload)


def _hand_to_dedup(
    adapter: ItemAdapter, dedup: DedupConfig, outcome: ExtractionOutcome, url: str | None
) -> None:
    """Store the worker's fingerprint and, where the item has none, the page URL."""
    if outcome.fingerprint is not None:
        _set_if_declared(adapter, dedup.fingerprint_field, outcome.fingerprint.to_dict())
    if url and not adapter.get(dedup.url_field):
        _set_if_declared(adapter, dedup.url_field, url)


def _set_if_declared(adapter: ItemAdapter, field: str, value: object) -> None:
    """Set ``field`` unless the item class declares its fields and not this one."""
    try:
        adapter[field] = value
    except KeyError:
        logger.debug("mainc: %s has no %r field", type(adapter.item).__name__, field)


def _drop(message: str) -> DropItem:
    """A DropItem logged at DEBUG (a per-item message), where Scrapy supports that."""
    try:
        return DropItem(message, log_level="DEBUG")
    except TypeError:  # a Scrapy without DropItem(log_level=...)
        return DropItem(message)


def _info(outcome: ExtractionOutcome, attached: AttachedPage | None) -> dict[str, Any]:
    extraction = outcome.extraction
    info: dict[str, Any] = {
        "algorithm": extraction.algorithm,
        "xpath": extraction.xpath,
        "score": extraction.score,
        "lang": extraction.lang,
        "milliseconds": round(extraction.milliseconds, 3),
        "reason": extraction.reason,
    }
    if attached is not None and attached.annotations:
        info["page"] = attached.annotations
    return info


def _page_of(attached: AttachedPage | None) -> str | bytes | None:
    return attached.page if attached is not None else None


def _item_url(adapter: ItemAdapter) -> str | None:
    url = adapter.get("url")
    return url if isinstance(url, str) else None


def _on_reactor(future: Future[ExtractionOutcome]) -> Awaitable[ExtractionOutcome]:
    """Await a future completed in another thread without blocking the event loop."""
    if _asyncio_available():
        return asyncio.wrap_future(future, loop=asyncio.get_running_loop())
    from twisted.internet import reactor
    from twisted.internet.defer import Deferred

    deferred: Deferred[ExtractionOutcome] = Deferred()

    def done(finished: Future[ExtractionOutcome]) -> None:
        reactor.callFromThread(deferred.callback, finished.result())

    future.add_done_callback(done)
    return deferred


def _asyncio_available() -> bool:
    try:
        from scrapy.utils.asyncio import is_asyncio_available
    except ImportError:  # Scrapy < 2.14
        from scrapy.utils.reactor import is_asyncio_reactor_installed

        return is_asyncio_reactor_installed()
    return is_asyncio_available()
