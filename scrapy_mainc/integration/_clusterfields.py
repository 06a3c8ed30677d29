"""The cluster fields of an item, written the same way by ``NearDuplicatePipeline`` and by
the archive mode's clustering (:mod:`scrapy_mainc.archive`). Scrapy-free, and free of
datasketch: the fingerprint and index types are only named for type checking."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from itemadapter import ItemAdapter

    from ..dedup._fingerprint import Fingerprint
    from ..dedup._index import Assignment
    from ..dedup._params import FingerprintParams


def clusterable(fingerprint: Fingerprint | None, params: FingerprintParams) -> Fingerprint | None:
    """``fingerprint`` when its text is long enough to cluster (``MAINC_DEDUP_MIN_WORDS``)."""
    if fingerprint is None or fingerprint.words < params.min_words:
        return None
    return fingerprint


def write_cluster(adapter: ItemAdapter, assignment: Assignment | None) -> None:
    """``cluster_id`` and ``duplicate_of`` of ``assignment``; both "" for an item that was
    not clustered (too short, or the index failed)."""
    adapter["cluster_id"] = assignment.cluster_id if assignment else ""
    adapter["duplicate_of"] = assignment.duplicate_of if assignment else ""


def assignment_kind(assignment: Assignment) -> str:
    """The ``mainc/dedup/<kind>`` stat of an assignment: duplicates, recrawled or unique."""
    if assignment.is_duplicate:
        return "duplicates"
    return "recrawled" if assignment.is_recrawl else "unique"
