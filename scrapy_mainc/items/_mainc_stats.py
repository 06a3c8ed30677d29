"""Every ``mainc/*`` stat: its key and what it counts, and the one interface the steps count
through (:class:`Stats`): the crawler's stats collector in a crawl
(:class:`CollectorStats`), the archive summary's counter in archive mode, so that both
report the same stats of the same pages. docs/stats.md is the user's table of them.

Per page, counted by the runner (``_runner``):

- ``mainc/extracted`` or ``mainc/empty`` (the extraction ran; its text, or none), else
  ``mainc/failed`` and ``mainc/failed/<kind>`` (``_workers.FAILURE_KINDS``, and
  ``missing_field`` for a typed item that cannot take the fields): every item counts once
  in one of the three (:func:`outcome_stats`);
- ``mainc/algorithm/<name>`` and ``mainc/page_type/<type>`` (``article``, ``forum``,
  ``listing``, ``collection``, ``product``, ``documentation``, ``service``:
  ``Extraction.page_type``) for an extraction that ran, counted before any drop; none for a
  page of no type (empty, or not HTML); :func:`page_type_counts` words them for the closing
  summaries;
- ``mainc/ms/total``: the extraction time, milliseconds, summed (to the microsecond);
- ``mainc/metadata/<field>`` (``published``, ``modified``, ``authors``, ``site_name``,
  ``canonical_url``, ``description``, ``image``, ``section``, ``tags``...: the record's
  names, whatever the item field is called): items whose page gave a non-empty value for
  the field, among the items that take the field (a switched-off or undeclared field is not
  counted; a spider's own value, which is kept, is counted when the page had one too);
  ``mainc/metadata/undeclared``: items of a typed class that does not declare some of the
  metadata fields (:func:`metadata_stats`);
- ``mainc/dropped`` (``MAINC_DROP_EMPTY``), ``mainc/dropped/language``,
  ``mainc/dropped/page_type``, ``mainc/dropped/not_article``, ``mainc/dropped/quality``:
  the drops (``_drops``);
- ``mainc/fallback/used``, ``mainc/fallback/empty``, ``mainc/fallback/failed``: the pages
  the fallback ran on (``MAINC_FALLBACK``), by what it gave (:func:`fallback_stats`);
  :func:`fallback_counts` words them.

By the page's decoding: ``mainc/redecoded`` (the downloader middleware in a crawl, the
archive reader in archive mode). By the clustering (``_clusters``): ``mainc/dedup/*``,
listed in ``integration/dedup_pipeline.py``; :func:`near_duplicate_counts` words them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Protocol

from ..core._pagetype import PAGE_TYPES
from ..core._types import Extraction

#: Extractions that did not run to the end; ``FAILED + "/" + kind`` by kind.
FAILED = "mainc/failed"
#: The summed extraction time, milliseconds.
MILLISECONDS = "mainc/ms/total"
#: Prefix of the stats of extractions by algorithm (``mainc/algorithm/auto``...).
ALGORITHM_STATS = "mainc/algorithm/"
#: Prefix of the stats of extractions by page type (``mainc/page_type/forum``...).
PAGE_TYPE_STATS = "mainc/page_type/"
#: Prefix of the metadata stats.
METADATA_STATS = "mainc/metadata/"
#: Items that went without some metadata fields their class does not declare.
UNDECLARED_STAT = METADATA_STATS + "undeclared"
#: Prefix of the near-duplicate clustering's stats.
DEDUP_STATS = "mainc/dedup/"
#: Prefix of the fallback's stats (``MAINC_FALLBACK``): ``used``, ``empty``, ``failed``.
FALLBACK_STATS = "mainc/fallback/"


class Stats(Protocol):
    """Where the steps count: a crawl's stats collector, or an archive summary."""

    def inc(self, key: str, count: int = 1) -> None:
        """Add ``count`` to the stat ``key``."""

    def add_milliseconds(self, key: str, milliseconds: float) -> None:
        """Add to a sum of milliseconds, kept to the microsecond (a float sum would show
        its rounding: 385.17699999999996)."""


class Collector(Protocol):
    """The methods of a stats collector (Scrapy's ``StatsCollector``) that are used."""

    def inc_value(self, key: str, count: int = 1, start: int = 0) -> None: ...

    def get_value(self, key: str, default: Any = None) -> Any: ...

    def set_value(self, key: str, value: Any) -> None: ...


class CollectorStats:
    """:class:`Stats` kept in a stats collector, found by ``collector`` at each count (a
    crawler's ``stats``; None: nothing is counted)."""

    def __init__(self, collector: Callable[[], Collector | None]) -> None:
        self._collector = collector

    def inc(self, key: str, count: int = 1) -> None:
        stats = self._collector()
        if stats is not None:
            stats.inc_value(key, count)

    def add_milliseconds(self, key: str, milliseconds: float) -> None:
        stats = self._collector()
        if stats is not None:
            stats.set_value(key, round(stats.get_value(key, 0) + milliseconds, 3))


def failure_stats(kind: str) -> list[str]:
    """The stats of a page whose extraction failed (or never ran): ``mainc/failed`` and
    ``mainc/failed/<kind>``."""
    return [FAILED, f"{FAILED}/{kind}"]


def outcome_stats(failure: str, extraction: Extraction) -> list[str]:
    """The stats one page's outcome increases: its failure and the failure's kind, or what
    the extraction found, its page type and its algorithm (see the module docstring)."""
    if failure:
        return failure_stats(failure)
    keys = ["mainc/extracted" if extraction.text else "mainc/empty"]
    if extraction.page_type:
        keys.append(PAGE_TYPE_STATS + extraction.page_type)
    keys.append(ALGORITHM_STATS + extraction.algorithm)
    return keys


def fallback_stats(outcome: str) -> list[str]:
    """The stat of a page the fallback ran on: its outcome (``_fallback.FALLBACK_OUTCOMES``)."""
    return [FALLBACK_STATS + outcome]


def fallback_counts(stats: Mapping[str, int]) -> str:
    """What the fallback did among ``stats`` (``3 texts used, 1 none, 0 failed``); "" when
    it never ran."""
    counts = [stats.get(FALLBACK_STATS + key, 0) for key in ("used", "empty", "failed")]
    if not any(counts):
        return ""
    used, empty, failed = counts
    return f"{used} texts used, {empty} none, {failed} failed"


def metadata_stats(found: tuple[str, ...], skipped: bool) -> list[str]:
    """The stats to increase for one item: a ``mainc/metadata/<field>`` for each field of
    ``found`` (the page gave a value), ``mainc/metadata/undeclared`` if ``skipped``."""
    keys = [METADATA_STATS + name for name in found]
    if skipped:
        keys.append(UNDECLARED_STAT)
    return keys


#: The drop stats, and what the summaries of ``mainc crawl`` and ``mainc warc`` call them.
DROP_NAMES = {
    "mainc/dropped/language": "language",
    "mainc/dropped/not_article": "not an article",
    "mainc/dropped/page_type": "page type",
    "mainc/dropped/quality": "quality",
    "mainc/dropped": "no text",
    "mainc/dedup/dropped": "duplicate",
}


def drop_counts(stats: Mapping[str, int]) -> str:
    """The items dropped among ``stats``, by why (``language: 4, not an article: 18``); ""
    when none was."""
    return ", ".join(f"{name}: {stats[key]}" for key, name in DROP_NAMES.items() if stats.get(key))


def outcome_lines(stats: Mapping[str, int]) -> list[str]:
    """The summary lines of the pages' outcomes that ``mainc crawl`` and ``mainc warc``
    share: the page types, then the fallback's and the clusters' lines when they ran."""
    fallback, clustered = fallback_counts(stats), near_duplicate_counts(stats)
    return [
        f"  page types: {page_type_counts(stats) or 'none'}",
        *([f"  fallback: {fallback}"] if fallback else []),
        *([f"  near-duplicates: {clustered}"] if clustered else []),
    ]


def page_type_counts(stats: Mapping[str, int]) -> str:
    """The extractions by page type among ``stats``, in :data:`PAGE_TYPES` order
    (``article: 12, listing: 4``); "" when none was counted."""
    counts = ((kind, stats.get(PAGE_TYPE_STATS + kind, 0)) for kind in PAGE_TYPES)
    return ", ".join(f"{kind}: {count}" for kind, count in counts if count)


#: The clustering's stats a summary gives, and what it calls them.
_DEDUP_COUNTS = (
    ("unique", "new clusters"),
    ("duplicates", "duplicates"),
    ("recrawled", "re-crawls"),
    ("skipped_short", "too short to cluster"),
    ("errors", "not clustered (index errors)"),
)


def near_duplicate_counts(stats: Mapping[str, int]) -> str:
    """The clustering's outcomes among ``stats`` (``12 new clusters, 30 duplicates, 2
    re-crawls, 0 too short to cluster``; index errors only when there were any); "" when
    nothing was clustered (clustering off)."""
    if not any(name.startswith(DEDUP_STATS) for name in stats):
        return ""
    counts = ((name, stats.get(DEDUP_STATS + key, 0)) for key, name in _DEDUP_COUNTS)
    return ", ".join(f"{count} {name}" for name, count in counts if count or "errors" not in name)
