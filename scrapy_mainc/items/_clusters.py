"""The cluster step: an item placed in a near-duplicate cluster, the same way in a crawl
(``NearDuplicatePipeline``) and in archive mode (the runner's last step).

Per item: its fingerprint (the one its extraction worker made, from the fingerprint field
or handed on beside the item, when made with the same parameters; else one of its text,
``mainc/dedup/fingerprinted``); a text under ``MAINC_DEDUP_MIN_WORDS`` is not clustered
(``mainc/dedup/skipped_short``); else the index puts it in a cluster, unless the index is
failing (:class:`~._cluster_index.IndexHealth`; ``mainc/dedup/errors``); the cluster
fields are written (``cluster_id``, ``duplicate_of``: ``_fields.write_cluster``) and the
assignment counted (``mainc/dedup/unique``, ``duplicates``, ``recrawled``); a duplicate is
dropped with ``MAINC_DEDUP_DROP`` (``mainc/dedup/dropped``). Index losses are counted as
``mainc/dedup/index_lost``.

:class:`ClusterStep` makes every decision and every count. Its two blocking calls,
fingerprinting a text and the index's ``assign``, are made by the caller between its
methods: :meth:`ClusterStep.place` makes them at once (the archive mode), the pipeline in
its threads, with a time-out on the index.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..dedup._fingerprint import Fingerprint, coerce_fingerprint, fingerprint_text
from ._cluster_index import IndexHealth, describe_error, index_location, open_shared_index
from ._fields import MissingFieldError, cluster_fields_policy, set_if_declared, write_cluster
from ._mainc_stats import DEDUP_STATS, Stats

if TYPE_CHECKING:
    from itemadapter import ItemAdapter

    from ..config._dedup_config import DedupConfig
    from ..dedup._index import Assignment, ClusterIndex

logger = logging.getLogger(__name__)

#: Told of an item that passed unclustered because of the index: its URL, and why.
Unclustered = Callable[[str, str], None]


def assignment_kind(assignment: Assignment) -> str:
    """The ``mainc/dedup/<kind>`` stat of an assignment: duplicates, recrawled or unique."""
    if assignment.is_duplicate:
        return "duplicates"
    return "recrawled" if assignment.is_recrawl else "unique"


class ClusterStep:
    """Places items in clusters of ``config``'s index, counting in ``stats`` (see the module
    docstring). ``convert_items``: ``MAINC_CONVERT_ITEMS``; ``unclustered`` is told of each
    item that passed unclustered because the index failed."""

    def __init__(
        self,
        config: DedupConfig,
        stats: Stats,
        convert_items: bool = False,
        unclustered: Unclustered | None = None,
    ) -> None:
        self.config = config
        self.stats = stats
        self.fields = cluster_fields_policy(convert_items)
        #: Where the index is, for messages (memory, or the redacted Redis URL).
        self.where = index_location(config)
        self.index: ClusterIndex | None = None
        self.health = IndexHealth(self.where, config.redis_timeout)
        self._unclustered = unclustered
        self._losses = 0

    # --- the index ----------------------------------------------------------------------

    def open(self, fallback: bool = True) -> ClusterIndex:
        """The index, opened unless it is open (``IndexUnavailable`` when it cannot be;
        ``fallback``: in memory when an unreachable Redis is not required)."""
        if self.index is None:
            self.index, self.where = open_shared_index(self.config, fallback)
        return self.index

    def close(self) -> None:
        if self.index is not None:
            self.count_losses()
            self.index.close()
            self.index = None

    def count_losses(self) -> None:
        """Count the index's losses of its data since the last count (``index_lost``)."""
        losses = self.index.losses if self.index is not None else 0
        if losses > self._losses:
            self._count("index_lost", losses - self._losses)
            self._losses = losses

    # --- one item -----------------------------------------------------------------------

    def fit(self, item: Any) -> tuple[Any, bool]:
        """``item`` ready for the cluster fields (maybe converted), and whether it is; a
        class that cannot take them is reported once, its items counted (``missing_field``)."""
        try:
            return self.fields.prepare(item), True
        except MissingFieldError as error:
            if self.fields.first_report(type(item)):
                logger.error("%s", error)
            self._count("missing_field")
            return item, False

    def url_of(self, adapter: ItemAdapter) -> str:
        return str(adapter.get(self.config.url_field) or "")

    def stored(self, adapter: ItemAdapter, beside: object = None) -> object:
        """The fingerprint the item brings: its fingerprint field's value, or (no field)
        ``beside``, the one handed on beside it."""
        field = self.config.fingerprint_field
        return adapter.get(field) if field else beside

    def usable(self, stored: object) -> Fingerprint | None:
        """``stored`` when it was made with this index's parameters."""
        return coerce_fingerprint(stored, self.config.fingerprint_params)

    def text_of(self, adapter: ItemAdapter) -> str:
        """The item's main text, to fingerprint when it brings no usable fingerprint."""
        return str(adapter.get(self.config.text_field) or "")

    def made(self, adapter: ItemAdapter, fingerprint: Fingerprint | None, stored: object) -> None:
        """The caller fingerprinted the item's text: counted, and kept in the fingerprint
        field when the item brought nothing there."""
        if fingerprint is None:
            return
        self._count("fingerprinted")
        field = self.config.fingerprint_field
        if stored is None and field:
            set_if_declared(adapter, field, fingerprint.to_dict())

    def clusterable(self, fingerprint: Fingerprint | None, url: str) -> Fingerprint | None:
        """``fingerprint`` when its text is long enough to cluster; else None (counted)."""
        if fingerprint is not None and fingerprint.words >= self.config.min_words:
            return fingerprint
        self._count("skipped_short")
        logger.debug("mainc dedup: %s not clustered: under %d words", url, self.config.min_words)
        return None

    def may_try(self, url: str) -> bool:
        """Whether the item should use the index now; if not (it is failing), the item
        passes unclustered, counted."""
        if self.health.may_try():
            return True
        self.health.skipped(url)
        self._passed(url, "the index is failing")
        return False

    def failed(self, error: BaseException, url: str) -> None:
        """The index failed the item (or did not answer in time): it passes unclustered."""
        self.health.failed(error, url)
        self._passed(url, describe_error(error))

    def record(self, adapter: ItemAdapter, url: str, assignment: Assignment | None) -> str:
        """Write the cluster fields of ``assignment`` (None: not clustered) and count it;
        returns why the item is dropped (a duplicate, with ``MAINC_DEDUP_DROP``), or ""."""
        if assignment is not None:
            self.health.worked()
        write_cluster(adapter, assignment)
        if assignment is None:
            return ""
        kind = assignment_kind(assignment)
        self._count(kind)
        logger.debug(
            "mainc dedup: %s: %s of cluster %s%s (Jaccard %.3f, containment %.3f)",
            url,
            kind,
            assignment.cluster_id,
            f", duplicate of {assignment.duplicate_of}" if assignment.is_duplicate else "",
            assignment.similarity,
            assignment.containment,
        )
        if assignment.is_duplicate and self.config.drop:
            self._count("dropped")
            return f"near-duplicate of {assignment.duplicate_of}"
        return ""

    def place(self, adapter: ItemAdapter, url: str, beside: object = None) -> str:
        """Every step for one item, the blocking calls at once (the archive mode): returns
        why the item is dropped, or ""."""
        stored = self.stored(adapter, beside)
        fingerprint = self.usable(stored)
        text = self.text_of(adapter) if fingerprint is None else ""
        if text:
            fingerprint = fingerprint_text(text, self.config.fingerprint_params)
            self.made(adapter, fingerprint, stored)
        fingerprint = self.clusterable(fingerprint, url)
        assignment = None
        if fingerprint is not None and self.may_try(url):
            index = self.open()
            try:
                assignment = index.assign(fingerprint, url)
            except index.service_errors as exc:
                self.failed(exc, url)
            finally:
                self.count_losses()
        return self.record(adapter, url, assignment)

    def _passed(self, url: str, why: str) -> None:
        self._count("errors")
        if self._unclustered is not None:
            self._unclustered(url, why)

    def _count(self, name: str, count: int = 1) -> None:
        self.stats.inc(DEDUP_STATS + name, count)
