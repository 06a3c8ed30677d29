"""Near-duplicate clusters of an archive's items: the crawl's fingerprints and index.

Each item is placed as ``NearDuplicatePipeline`` places a crawl's item, with the same
parameters (``MAINC_DEDUP_*``), the fingerprint the extraction worker made, and the same
index: in this process's memory, or in Redis (or a Redis Cluster) that any number of
processes share. The index makes a second run over the same files give the same clusters
and add nothing: a page whose own URL leads the cluster it matches is a re-crawl of it
(``mainc/dedup/recrawled``), not a duplicate, and founds nothing.

The index is opened as the crawl opens it (``integration._dedup_open``): one that cannot
be opened is an ``IndexUnavailable`` (with ``MAINC_DEDUP_REDIS_REQUIRED = False``, an
unreachable Redis leaves an index in memory, said at WARNING). An index that fails later is
the crawl's too (``IndexHealth``): the first failure said at WARNING, the items pass
unclustered without waiting while it fails (each counted, ``mainc/dedup/errors`` and an
``index error``), and one item tries it again every ``MAINC_DEDUP_REDIS_TIMEOUT`` seconds.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..dedup._fingerprint import fingerprint_text
from ..integration._clusterfields import assignment_kind, clusterable, write_cluster
from ..integration._dedup_config import DedupConfig
from ..integration._dedup_open import open_shared_index
from ..integration._dedup_state import IndexHealth, describe_error
from ._summary import FileSummary

if TYPE_CHECKING:
    from itemadapter import ItemAdapter

    from ..dedup._fingerprint import Fingerprint
    from ..dedup._index import Assignment
    from ..integration._workers import ExtractionOutcome

STATS_PREFIX = "mainc/dedup/"


class Clusters:
    """The index of one run (or of one file of a Dask job), and the counts in ``summary``."""

    def __init__(self, dedup: DedupConfig, summary: FileSummary) -> None:
        self.dedup = dedup
        self.summary = summary
        self.index, self.where = open_shared_index(dedup)
        self._health = IndexHealth(self.where, dedup.redis_timeout)

    def place(self, adapter: ItemAdapter, outcome: ExtractionOutcome, url: str) -> str:
        """Write the item's cluster fields; returns why it is dropped (a duplicate, with
        ``MAINC_DEDUP_DROP``), or ""."""
        params = self.dedup.fingerprint_params
        fingerprint = outcome.fingerprint
        text = str(adapter.get(self.dedup.text_field) or "")
        if fingerprint is None and text:
            fingerprint = fingerprint_text(text, params)
            if fingerprint is not None:
                self._count("fingerprinted")
        fingerprint = clusterable(fingerprint, params)
        if fingerprint is None:
            self._count("skipped_short")
            write_cluster(adapter, None)
            return ""
        assignment = self._assign(fingerprint, url)
        write_cluster(adapter, assignment)
        if assignment is None:
            return ""
        self._count(assignment_kind(assignment))
        if assignment.is_duplicate and self.dedup.drop:
            self._count("dropped")
            return f"near-duplicate of {assignment.duplicate_of}"
        return ""

    def _assign(self, fingerprint: Fingerprint, url: str) -> Assignment | None:
        """The item's cluster; None (counted, said) while the index fails."""
        if not self._health.may_try():
            self._health.skipped(url)
            self._unclustered(url, "the index is failing")
            return None
        try:
            assignment = self.index.assign(fingerprint, url)
        except self.index.service_errors as exc:
            self._health.failed(exc, url)
            self._unclustered(url, describe_error(exc))
            return None
        self._health.worked()
        return assignment

    def _unclustered(self, url: str, why: str) -> None:
        self._count("errors")
        self.summary.problem(0, "index error", f"{url}: not clustered: {why}")

    def close(self) -> None:
        if self.index.losses:
            self.summary.stats[STATS_PREFIX + "index_lost"] += self.index.losses
        self.index.close()

    def _count(self, name: str) -> None:
        self.summary.count(STATS_PREFIX + name)
