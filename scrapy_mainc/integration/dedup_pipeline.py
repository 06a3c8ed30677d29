"""``NearDuplicatePipeline``: the Scrapy layer over the near-duplicate core.

Per item: read the main text, the precomputed fingerprint (when the extraction worker made
one with the same parameters) and the URL; fingerprint the text when needed; put it in a
cluster; write ``cluster_id`` and ``duplicate_of``; drop the item when it is a duplicate and
``MAINC_DEDUP_DROP`` is true. Fingerprinting and every index access run in the pipeline's
threads, so a slow Redis never stalls the crawl, and an item waits for its cluster at most
``MAINC_DEDUP_REDIS_TIMEOUT`` seconds. The index is opened in ``from_crawler``, before the
engine starts: one that cannot be opened stops the crawl there (``_startup``), before any
request or feed.

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

from ..dedup._fingerprint import Fingerprint, coerce_fingerprint, fingerprint_text
from ..dedup._index import Assignment, ClusterIndex
from ._clusterfields import assignment_kind, clusterable, write_cluster
from ._config import MaincConfig
from ._dedup_config import DedupConfig
from ._dedup_open import IndexUnavailable, index_location, open_shared_index
from ._dedup_state import Handoff, IndexHealth, NewLeaders, describe_error
from ._itemfields import MissingFieldError, cluster_fields_policy, set_if_declared
from ._pages import ItemBook, book_of
from ._reactor import await_future
from ._startup import check_crawl, checked, stop_crawl

if TYPE_CHECKING:
    from collections.abc import Callable

    from scrapy import Spider
    from scrapy.crawler import Crawler
    from scrapy.statscollectors import StatsCollector

logger = logging.getLogger(__name__)

_T = TypeVar("_T")
STATS_PREFIX = "mainc/dedup/"
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
        #: The workers' fingerprints, when the items are not to keep them (see ``_pages``).
        self._handoff = handoff
        self._stats = stats
        self._fields = cluster_fields_policy(convert_items)
        self._where = index_location(config)
        self._index: ClusterIndex | None = None
        self._threads: ThreadPoolExecutor | None = None
        self._in_flight: set[Future[Any]] = set()
        self._health = IndexHealth(self._where, config.redis_timeout)
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
        starts); one that cannot be opened stops the crawl (see ``_open_index``)."""
        if self._index is None:
            self._index = self._open_index()
            kind = "the Redis Cluster at " if self.config.redis_cluster and self._where != "memory" else ""
            logger.info("mainc dedup: index in %s%s, threshold %s", kind, self._where, self.config.threshold)

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
        if self._index is not None:
            self._index.close()
            self._index = None
        self._new_leaders.clear()

    async def process_item(self, item: Any, spider: Spider | None = None) -> Any:
        if self._threads is None:
            raise RuntimeError("NearDuplicatePipeline.open_spider() was not called")
        item, fits = self._fit(item)
        if not fits or self._index is None:
            return item
        adapter = ItemAdapter(item)
        url = str(adapter.get(self.config.url_field) or "")
        fingerprint = await self._fingerprint(adapter, url)
        assignment = None
        if fingerprint is None:
            self._inc("skipped_short")
            logger.debug("mainc dedup: %s not clustered: under %d words", url, self.config.min_words)
        else:
            assignment = await self._assign(fingerprint, url)
        self._record(adapter, url, assignment, fingerprint)
        if assignment is not None and assignment.is_duplicate and self.config.drop:
            self._inc("dropped")
            raise DropItem(f"near-duplicate of {assignment.duplicate_of}", log_level="DEBUG")
        return item

    # --- signals: items that left the later pipelines -----------------------------------

    def item_scraped(self, item: Any, **kwargs: Any) -> None:
        if len(self._new_leaders):
            self._new_leaders.take(item, self._url_of(item))

    def item_lost(self, item: Any, **kwargs: Any) -> None:
        """An item was dropped or failed after this pipeline: withdraw its cluster."""
        if not len(self._new_leaders):
            return
        founded = self._new_leaders.take(item, self._url_of(item))
        if founded is not None and self._threads is not None:
            self._inc("withdrawn")
            logger.debug("mainc dedup: cluster %s withdrawn: its first item was lost", founded[0])
            self._submit(self._withdraw, *founded)

    # --- steps --------------------------------------------------------------------------

    def _open_index(self) -> ClusterIndex:
        """The index (``_dedup_open``: in memory when an unreachable Redis is not required);
        one that cannot be opened stops the crawl, in one ERROR line."""
        try:
            index, self._where = open_shared_index(self.config)
        except IndexUnavailable as exc:
            raise stop_crawl(f"mainc dedup: {exc}") from None
        return index

    def _fit(self, item: Any) -> tuple[Any, bool]:
        """``item`` ready for the cluster fields (maybe converted), and whether it is; a
        class that cannot take them is reported once, its items counted."""
        try:
            return self._fields.prepare(item), True
        except MissingFieldError as error:
            if self._fields.first_report(type(item)):
                logger.error("%s", error)
            self._inc("missing_field")
            return item, False

    async def _fingerprint(self, adapter: ItemAdapter, url: str) -> Fingerprint | None:
        """The item's fingerprint if usable, else one of its text; None when too short."""
        params, field = self.config.fingerprint_params, self.config.fingerprint_field
        stored = adapter.get(field) if field else None
        if stored is None and self._handoff is not None:
            stored = self._handoff.take_fingerprint(adapter.item, url)
        fingerprint = coerce_fingerprint(stored, params)
        if fingerprint is None:
            text = str(adapter.get(self.config.text_field) or "")
            if text:
                fingerprint = await await_future(self._submit(fingerprint_text, text, params))
            if fingerprint is not None:
                self._inc("fingerprinted")
                if stored is None and field:
                    set_if_declared(adapter, field, fingerprint.to_dict())
        return clusterable(fingerprint, params)

    async def _assign(self, fingerprint: Fingerprint, url: str) -> Assignment | None:
        """The item's cluster; None (counted, logged) when the index fails or is too slow."""
        assert self._index is not None
        if not self._health.may_try():
            self._health.skipped(url)
            self._inc("errors")
            return None
        handoff: Handoff[Assignment] = Handoff()
        timeout = self.config.redis_timeout
        try:
            future = self._submit(self._assign_in_thread, fingerprint, url, handoff)
            assignment = await await_future(future, timeout)
        except TimeoutError:
            late = handoff.abandon()  # the thread withdraws a cluster it founds after this
            if late is None:
                self._failed(TimeoutError(f"no answer within {timeout:g} s (MAINC_DEDUP_REDIS_TIMEOUT)"), url)
                return None
            assignment = late
        except self._index.service_errors as exc:
            self._failed(exc, url)
            return None
        finally:
            if self._index.losses and self._stats is not None:
                self._stats.set_value(STATS_PREFIX + "index_lost", self._index.losses)
        self._health.worked()
        return assignment

    def _assign_in_thread(
        self, fingerprint: Fingerprint, url: str, handoff: Handoff[Assignment]
    ) -> Assignment:
        assert self._index is not None
        assignment = self._index.assign(fingerprint, url)
        if not handoff.deliver(assignment) and assignment.is_new:  # its item went on without it
            self._withdraw(assignment.cluster_id, fingerprint)
        return assignment

    def _failed(self, error: BaseException, url: str) -> None:
        self._health.failed(error, url)
        self._inc("errors")

    def _record(
        self, adapter: ItemAdapter, url: str, assignment: Assignment | None, fingerprint: Fingerprint | None
    ) -> None:
        """Write the cluster fields; count and log the assignment."""
        try:
            write_cluster(adapter, assignment)
        except Exception:
            if assignment is not None and assignment.is_new:  # not in the index without them
                self._submit(self._withdraw, assignment.cluster_id, fingerprint)
            raise
        if assignment is None:
            return
        if assignment.is_new:
            assert fingerprint is not None  # an assignment is of a fingerprint
            self._new_leaders.add(adapter.item, url, (assignment.cluster_id, fingerprint))
        kind = assignment_kind(assignment)
        self._inc(kind)
        logger.debug(
            "mainc dedup: %s: %s of cluster %s%s (Jaccard %.3f, containment %.3f)",
            url,
            kind,
            assignment.cluster_id,
            f", duplicate of {assignment.duplicate_of}" if assignment.is_duplicate else "",
            assignment.similarity,
            assignment.containment,
        )

    def _withdraw(self, cluster_id: str, fingerprint: Fingerprint) -> None:
        """Take a founded cluster out of the index again (in a pipeline thread)."""
        index = self._index
        if index is None:
            return
        try:
            index.withdraw(cluster_id, fingerprint)
        except index.service_errors as exc:
            logger.warning(
                "mainc dedup: could not withdraw cluster %s of a lost item from %s: %s",
                cluster_id,
                self._where,
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
            return str(ItemAdapter(item).get(self.config.url_field) or "")
        except TypeError:  # not an item type ItemAdapter knows
            return ""

    def _inc(self, name: str) -> None:
        if self._stats is not None:
            self._stats.inc_value(STATS_PREFIX + name)
