"""``NearDuplicatePipeline``: the Scrapy layer over the near-duplicate core.

Per item: read the main text, the precomputed fingerprint (when the extraction worker made
one with the same parameters) and the URL; fingerprint the text when needed; put it in a
cluster; write ``cluster_id`` and ``duplicate_of``; drop the item when it is a duplicate and
``MAINC_DEDUP_DROP`` is true. Fingerprinting and every index access run in the pipeline's
threads, so a slow Redis never stalls the crawl, and an item waits for its cluster at most
``MAINC_DEDUP_REDIS_TIMEOUT`` seconds. The index is opened in ``from_crawler``, before the
engine starts: one that cannot be opened stops the crawl there (``_startup``), before any
request or feed. Every decision and count is the cluster step's (``items._clusters``),
which the archive mode runs too; this pipeline runs its blocking calls in threads.

Fields written: ``cluster_id`` (see ``scrapy_mainc.dedup.cluster_id_for``: a hash of the URL
of the cluster's first item; "" for texts too short to cluster), ``duplicate_of`` (that
first item's URL, or "" when the item is the first of its cluster, a re-crawl of that first
item's page, or was not clustered) and, when the item had none, the fingerprint field (its
``Fingerprint.to_dict()`` form).

An item is in the index only if its fields say so. A typed item class that does not declare
the cluster fields is reported once and its items pass unclustered (or are converted to
dicts with ``MAINC_CONVERT_ITEMS``); an item that stopped waiting for a slow index is not
left in it; and an item that founded a cluster but is then dropped or fails in a later
pipeline is withdrawn from the index (``item_dropped``/``item_error`` signals).

Stats: ``mainc/dedup/unique`` (items that founded a cluster), ``mainc/dedup/duplicates``
(duplicates found), ``mainc/dedup/recrawled`` (items whose own URL leads the cluster they
match: re-crawls, not duplicates), ``mainc/dedup/dropped`` (duplicates dropped),
``mainc/dedup/skipped_short`` (texts under ``MAINC_DEDUP_MIN_WORDS``, or no text),
``mainc/dedup/errors`` (items that passed unclustered because the index failed or did not
answer in time), ``mainc/dedup/missing_field`` (typed items without the cluster fields),
``mainc/dedup/withdrawn`` (founders taken out again because a later pipeline lost them),
``mainc/dedup/fingerprinted`` (texts this pipeline had to fingerprint itself because the
item brought no usable fingerprint: ``MaincPipeline`` makes them in its workers),
``mainc/dedup/index_lost`` (times the Redis index was found to have lost its data: a
restart without persistence, a FLUSHALL, an emptied cluster node; logged by the index).
"""

from __future__ import annotations

import logging
from concurrent.futures import Future, ThreadPoolExecutor, wait
from typing import TYPE_CHECKING, Any, TypeVar

from itemadapter import ItemAdapter
from scrapy import signals
from scrapy.exceptions import DropItem, NotConfigured

from ..config._dedup_config import DedupConfig
from ..config._mainc_config import MaincConfig
from ..dedup._fingerprint import Fingerprint, fingerprint_text
from ..dedup._index import Assignment
from ..items._cluster_index import IndexUnavailable, describe_error
from ..items._clusters import ClusterStep
from ..items._mainc_stats import DEDUP_STATS, CollectorStats
from ._dedup_state import Handoff, NewLeaders
from ._page_handoff import ItemBook, book_of
from ._reactor import await_future
from ._startup import check_crawl, checked, stop_crawl

if TYPE_CHECKING:
    from collections.abc import Callable

    from scrapy import Spider
    from scrapy.crawler import Crawler
    from scrapy.statscollectors import StatsCollector

logger = logging.getLogger(__name__)

_T = TypeVar("_T")
#: Threads for fingerprinting and index calls (Redis round trips, mostly waiting).
THREADS = 4


class NearDuplicatePipeline:
    """Marks (or drops) near-duplicate items; see the module docstring."""

    def __init__(
        self,
        config: DedupConfig,
        stats: StatsCollector | None = None,
        convert_items: bool = False,
        handoff: ItemBook | None = None,
    ) -> None:
        self.config = config
        #: The workers' fingerprints, when the items are not to keep them (see ``_page_handoff``).
        self._handoff = handoff
        #: Every decision and count, shared with the archive mode.
        self.step = ClusterStep(config, CollectorStats(lambda: stats), convert_items)
        self._threads: ThreadPoolExecutor | None = None
        self._in_flight: set[Future[Any]] = set()
        self._new_leaders: NewLeaders[tuple[str, Fingerprint]] = NewLeaders()  # cluster, founder

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> NearDuplicatePipeline:
        check_crawl(crawler)
        config = checked(DedupConfig.from_settings, crawler.settings)
        if not config.enabled:
            raise NotConfigured("near-duplicate clustering is off (MAINC_DEDUP_ENABLED)")
        convert = checked(MaincConfig.from_settings, crawler.settings).convert_items
        handoff = None if config.fingerprint_field else book_of(crawler)
        pipeline = cls(config, crawler.stats, convert, handoff)
        pipeline.open_index()  # before the engine starts: a failure stops the crawl there
        crawler.signals.connect(pipeline.item_scraped, signal=signals.item_scraped)
        crawler.signals.connect(pipeline.item_lost, signal=signals.item_dropped)
        crawler.signals.connect(pipeline.item_lost, signal=signals.item_error)
        return pipeline

    def open_index(self) -> None:
        """Open the index unless it is open (``from_crawler`` does it, before the engine
        starts); one that cannot be opened (in memory when an unreachable Redis is not
        required: ``items._cluster_index``) stops the crawl, in one ERROR line."""
        if self.step.index is not None:
            return
        try:
            self.step.open()
        except IndexUnavailable as exc:
            raise stop_crawl(f"mainc dedup: {exc}") from None
        where = self.step.where
        kind = "the Redis Cluster at " if self.config.redis_cluster and where != "memory" else ""
        logger.info("mainc dedup: index in %s%s, threshold %s", kind, where, self.config.threshold)

    def open_spider(self, spider: Spider | None = None) -> None:
        self._threads = ThreadPoolExecutor(THREADS, thread_name_prefix="mainc-dedup")
        self.open_index()

    def close_spider(self, spider: Spider | None = None) -> None:
        """Wait (at most the Redis time-out) for withdrawals under way, then let go."""
        if self._in_flight:
            wait(list(self._in_flight), timeout=self.config.redis_timeout)
        if self._threads is not None:
            self._threads.shutdown(wait=False, cancel_futures=True)
            self._threads = None
        self.step.close()
        self._new_leaders.clear()

    async def process_item(self, item: Any, spider: Spider | None = None) -> Any:
        if self._threads is None:
            raise RuntimeError("NearDuplicatePipeline.open_spider() was not called")
        item, fits = self.step.fit(item)
        if not fits or self.step.index is None:
            return item
        adapter = ItemAdapter(item)
        url = self.step.url_of(adapter)
        fingerprint = await self._fingerprint(adapter, url)
        assignment = None
        if fingerprint is not None and self.step.may_try(url):
            assignment = await self._assign(fingerprint, url)
        dropped = self._record(adapter, url, assignment, fingerprint)
        if dropped:
            raise DropItem(dropped, log_level="DEBUG")
        return item

    # --- signals: items that left the later pipelines -----------------------------------

    def item_scraped(self, item: Any, **kwargs: Any) -> None:
        if len(self._new_leaders):
            url = self._url_of(item)
            if self._new_leaders.take(item, url) is None:  # a later pipeline replaced it
                self._new_leaders.forget_url(url)

    def item_lost(self, item: Any, **kwargs: Any) -> None:
        """An item was dropped or failed after this pipeline: withdraw its cluster."""
        if not len(self._new_leaders):
            return
        founded = self._new_leaders.take(item, self._url_of(item))
        if founded is not None and self._threads is not None:
            self.step.stats.inc(DEDUP_STATS + "withdrawn")
            logger.debug("mainc dedup: cluster %s withdrawn: its first item was lost", founded[0])
            self._submit(self._withdraw, *founded)

    # --- the cluster step's blocking calls, in threads ----------------------------------

    async def _fingerprint(self, adapter: ItemAdapter, url: str) -> Fingerprint | None:
        """The item's fingerprint if usable, else one of its text (in a thread); None when
        too short to cluster."""
        stored = self.step.stored(adapter)
        if stored is None and self._handoff is not None:
            stored = self._handoff.take_fingerprint(adapter.item, url)
        fingerprint = self.step.usable(stored)
        text = self.step.text_of(adapter) if fingerprint is None else ""
        if text:
            fingerprint = await await_future(
                self._submit(fingerprint_text, text, self.config.fingerprint_params)
            )
            self.step.made(adapter, fingerprint, stored)
        return self.step.clusterable(fingerprint, url)

    async def _assign(self, fingerprint: Fingerprint, url: str) -> Assignment | None:
        """The item's cluster; None (counted, logged) when the index fails or is too slow."""
        index = self.step.index
        assert index is not None
        handoff: Handoff[Assignment] = Handoff()
        timeout = self.config.redis_timeout
        try:
            future = self._submit(self._assign_in_thread, fingerprint, url, handoff)
            return await await_future(future, timeout)
        except TimeoutError:
            late = handoff.abandon()  # the thread withdraws a cluster it founds after this
            if late is None:
                self.step.failed(
                    TimeoutError(f"no answer within {timeout:g} s (MAINC_DEDUP_REDIS_TIMEOUT)"), url
                )
            return late
        except index.service_errors as exc:
            self.step.failed(exc, url)
            return None
        finally:
            self.step.count_losses()

    def _assign_in_thread(
        self, fingerprint: Fingerprint, url: str, handoff: Handoff[Assignment]
    ) -> Assignment:
        index = self.step.index
        assert index is not None
        assignment = index.assign(fingerprint, url)
        if not handoff.deliver(assignment) and assignment.is_new:  # its item went on without it
            self._withdraw(assignment.cluster_id, fingerprint)
        return assignment

    def _record(
        self, adapter: ItemAdapter, url: str, assignment: Assignment | None, fingerprint: Fingerprint | None
    ) -> str:
        """The cluster fields written and the assignment counted (the step's); a cluster
        the item founded is remembered, to be withdrawn if a later pipeline loses the item,
        or at once if its fields cannot be written. Returns why the item is dropped."""
        try:
            dropped = self.step.record(adapter, url, assignment)
        except Exception:
            if assignment is not None and assignment.is_new:  # not in the index without them
                self._submit(self._withdraw, assignment.cluster_id, fingerprint)
            raise
        if assignment is not None and assignment.is_new:
            assert fingerprint is not None  # an assignment is of a fingerprint
            self._new_leaders.add(adapter.item, url, (assignment.cluster_id, fingerprint))
        return dropped

    def _withdraw(self, cluster_id: str, fingerprint: Fingerprint) -> None:
        """Take a founded cluster out of the index again (in a pipeline thread)."""
        index = self.step.index
        if index is None:
            return
        try:
            index.withdraw(cluster_id, fingerprint)
        except index.service_errors as exc:
            logger.warning(
                "mainc dedup: could not withdraw cluster %s of a lost item from %s: %s",
                cluster_id,
                self.step.where,
                describe_error(exc),
            )

    def _submit(self, function: Callable[..., _T], *args: Any) -> Future[_T]:
        assert self._threads is not None
        future = self._threads.submit(function, *args)
        self._in_flight.add(future)
        future.add_done_callback(self._in_flight.discard)
        return future

    def _url_of(self, item: Any) -> str:
        try:
            return self.step.url_of(ItemAdapter(item))
        except TypeError:  # not an item type ItemAdapter knows
            return ""
