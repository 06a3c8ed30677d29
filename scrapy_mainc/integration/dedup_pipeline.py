"""``NearDuplicatePipeline``: the Scrapy layer over the near-duplicate core.

Per item: read the main text, the precomputed fingerprint (when the extraction worker made
one with the same parameters) and the URL; fingerprint the text when needed; put it in a
cluster; write ``cluster_id`` and ``duplicate_of``; drop the item when it is a duplicate and
``MAINC_DEDUP_DROP`` is true. Fingerprinting and every index access run in a thread, so a
slow Redis never stalls the crawl.

Fields written: ``cluster_id`` (see ``scrapy_mainc.dedup.cluster_id_for``: a hash of the URL
of the cluster's first item; "" for texts too short to cluster), ``duplicate_of`` (that
first item's URL, or "" when the item is the first of its cluster or was not clustered) and,
when the item had none, the fingerprint field (its ``Fingerprint.to_dict()`` form).

Stats: ``mainc/dedup/unique`` (first items of clusters), ``mainc/dedup/duplicates`` (all
duplicates found), ``mainc/dedup/dropped`` (of those, dropped), ``mainc/dedup/skipped_short``
(texts under ``MAINC_DEDUP_MIN_WORDS``, or no text), ``mainc/dedup/errors`` (index failures:
the error is logged and the item passes unclustered rather than being lost),
``mainc/dedup/fingerprinted`` (texts this pipeline had to fingerprint itself because the item
brought no usable fingerprint: ``MaincPipeline`` makes them in its workers, so with the
add-on this stays absent unless a typed item has no fingerprint field).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar, cast

from itemadapter import ItemAdapter
from scrapy.exceptions import DropItem, NotConfigured

from ..dedup._config import DedupConfig
from ..dedup._fingerprint import Fingerprint, coerce_fingerprint, fingerprint_text
from ..dedup._index import Assignment, ClusterIndex, open_index, redacted

if TYPE_CHECKING:
    from scrapy import Spider
    from scrapy.crawler import Crawler
    from scrapy.statscollectors import StatsCollector

logger = logging.getLogger(__name__)

_T = TypeVar("_T")
STATS_PREFIX = "mainc/dedup/"

try:  # Scrapy 2.15+
    from scrapy.utils.asyncio import run_in_thread as _scrapy_run_in_thread
except ImportError:  # Scrapy 2.13 and 2.14
    _scrapy_run_in_thread = None  # type: ignore[assignment]


async def _run_in_thread(func: Callable[..., _T], *args: Any) -> _T:
    """``func(*args)`` in a thread, awaited without blocking the reactor or event loop."""
    if _scrapy_run_in_thread is not None:
        return cast("_T", await _scrapy_run_in_thread(func, *args))
    from scrapy.utils.defer import maybe_deferred_to_future  # noqa: PLC0415
    from scrapy.utils.reactor import is_asyncio_reactor_installed  # noqa: PLC0415
    from twisted.internet.threads import deferToThread  # noqa: PLC0415

    if is_asyncio_reactor_installed():
        return await asyncio.to_thread(func, *args)
    return cast("_T", await maybe_deferred_to_future(deferToThread(func, *args)))


@dataclass(frozen=True, slots=True)
class _Outcome:
    """What the worker thread found for one item."""

    #: The cluster; None when the text was too short to cluster.
    assignment: Assignment | None = None
    #: A fingerprint computed here, to store on the item; None when the item had one.
    computed: Fingerprint | None = None
    #: The index failure, when there was one.
    error: Exception | None = None


class NearDuplicatePipeline:
    """Marks (or drops) near-duplicate items; see the module docstring."""

    def __init__(self, config: DedupConfig, stats: StatsCollector | None = None) -> None:
        self.config = config
        self._stats = stats
        self._index: ClusterIndex | None = None

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> NearDuplicatePipeline:
        config = DedupConfig.from_settings(crawler.settings)
        if not config.enabled:
            raise NotConfigured("near-duplicate clustering is off (MAINC_DEDUP_ENABLED)")
        return cls(config, crawler.stats)

    def open_spider(self, spider: Spider | None = None) -> None:
        """Open the index (connects to Redis before the first request is scheduled)."""
        self._index = open_index(self.config.index_params)
        where = redacted(self.config.redis_url) if self.config.redis_url else "memory"
        logger.info("mainc dedup: index in %s, threshold %s", where, self.config.threshold)

    def close_spider(self, spider: Spider | None = None) -> None:
        if self._index is not None:
            self._index.close()
            self._index = None

    async def process_item(self, item: Any, spider: Spider | None = None) -> Any:
        adapter = ItemAdapter(item)
        config = self.config
        text = adapter.get(config.text_field) or ""
        stored = adapter.get(config.fingerprint_field)
        url = str(adapter.get(config.url_field) or "")
        outcome = await _run_in_thread(self._cluster, str(text), stored, url)
        if outcome.computed is not None:
            self._inc("fingerprinted")
            if stored is None:
                _set_if_declared(adapter, config.fingerprint_field, outcome.computed.to_dict())
        self._record(adapter, outcome, url)
        assignment = outcome.assignment
        if assignment is not None and assignment.is_duplicate and config.drop:
            self._inc("dropped")
            raise DropItem(f"near-duplicate of {assignment.duplicate_of}", log_level="DEBUG")
        return item

    def _cluster(self, text: str, stored: object, url: str) -> _Outcome:
        """Fingerprint (unless ``stored`` is usable) and assign; runs in a worker thread."""
        if self._index is None:
            raise RuntimeError("NearDuplicatePipeline.open_spider() was not called")
        params = self.config.fingerprint_params
        fingerprint = coerce_fingerprint(stored, params)
        computed = None
        if fingerprint is None:
            fingerprint = computed = fingerprint_text(text, params)
        if fingerprint is None or fingerprint.words < params.min_words:
            return _Outcome(computed=computed)
        try:
            return _Outcome(self._index.assign(fingerprint, url), computed)
        except self._index.service_errors as exc:  # the item passes unclustered; see _record
            return _Outcome(computed=computed, error=exc)

    def _record(self, adapter: ItemAdapter, outcome: _Outcome, url: str) -> None:
        assignment = outcome.assignment
        try:
            adapter["cluster_id"] = assignment.cluster_id if assignment else ""
            adapter["duplicate_of"] = assignment.duplicate_of if assignment else ""
        except KeyError as exc:
            raise KeyError(
                f"{type(adapter.item).__name__} must declare the fields cluster_id and "
                "duplicate_of for NearDuplicatePipeline"
            ) from exc
        if outcome.error is not None:
            self._inc("errors")
            logger.error("mainc dedup: could not cluster %s: %r", url, outcome.error, exc_info=outcome.error)
        elif assignment is None:
            self._inc("skipped_short")
            logger.debug("mainc dedup: %s not clustered: under %d words", url, self.config.min_words)
        elif assignment.is_duplicate:
            self._inc("duplicates")
            logger.debug(
                "mainc dedup: %s duplicates %s (cluster %s, similarity %.3f)",
                url,
                assignment.duplicate_of,
                assignment.cluster_id,
                assignment.similarity,
            )
        else:
            self._inc("unique")
            logger.debug("mainc dedup: %s starts cluster %s", url, assignment.cluster_id)

    def _inc(self, name: str) -> None:
        if self._stats is not None:
            self._stats.inc_value(STATS_PREFIX + name)


def _set_if_declared(adapter: ItemAdapter, field: str, value: object) -> None:
    """Set ``field`` unless the item class declares fields and not this one."""
    try:
        adapter[field] = value
    except KeyError:
        logger.debug(
            "mainc dedup: %s has no %r field; fingerprint not stored",
            type(adapter.item).__name__,
            field,
        )
