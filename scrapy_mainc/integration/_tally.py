"""What became of a crawl's extractions: the stats by outcome and page type, the metadata
stats, and the warnings ``MaincPipeline`` gives once.

Stats of an extraction that ran (:func:`extraction_stats`; the crawl and the archive mode
count them alike): ``mainc/extracted`` or ``mainc/empty``, and ``mainc/page_type/<type>``
(``article``, ``forum``, ``listing``, ``collection``, ``product``, ``documentation``,
``service``: ``Extraction.page_type``), counted before any drop, none for a page of no type
(empty, or not HTML). :func:`page_type_counts` words the latter for the closing summaries.

Metadata stats, one per item (:func:`metadata_stats`):

- ``mainc/metadata/<field>`` (``published``, ``modified``, ``authors``, ``site_name``,
  ``canonical_url``, ``description``, ``image``, ``section``, ``tags``: the record's names,
  whatever the item field is called): items whose page gave a non-empty value for the
  field, among the items that take the field (a switched-off or undeclared field is not
  counted; a spider's own value, which is kept, is counted when the page had one too);
- ``mainc/metadata/undeclared``: items of a typed class that does not declare some of the
  metadata fields (they go without them).

Each item's failure is logged at DEBUG only (its reason is in the item). Two situations
deserve a WARNING all the same, once per crawl:

- every item failed: said when the spider closes, with the counts by kind and the likely
  cause of each kind (worker processes that cannot start, pages that never reach the
  pipeline, ...);
- a page overran ``MAINC_TIMEOUT`` in ``thread`` mode: the thread cannot be stopped and
  runs on in the background, competing for the GIL with the crawl and other extractions.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping

from ..core._pagetype import PAGE_TYPES
from ..core._types import Extraction

#: At most this much of a failure's reason is quoted in a warning.
REASON_CHARS = 240

#: The likely cause of each kind of failure, when every item failed that way.
CAUSES = {
    "worker_died": (
        "the worker processes could not start or kept dying (the first reason says how); "
        'where processes cannot be started, set MAINC_WORKER_MODE = "thread"'
    ),
    "no_page": (
        "the items came without their page: with ITEM_PIPELINES alone the spider must put "
        "each page's HTML in the item's MAINC_PAGE_FIELD ('raw_html'); enable the add-on "
        '(ADDONS = {"scrapy_mainc.Addon": 0}) or MaincSpiderMiddleware to have the response '
        "of each item attached"
    ),
    #: ``no_page`` where the spider middleware attaches the pages: the reason says why not.
    "no_page_attaching": "the items' pages could not be matched to them",
    "timeout": "MAINC_TIMEOUT may be too short for these pages, or the machine too busy",
    "missing_field": "the item classes lack fields (see the error logged for each class)",
    "too_large": "the pages are larger than MAINC_MAX_PAGE_SIZE",
}


#: Prefix of the stats of extractions by page type (``mainc/page_type/forum``...).
PAGE_TYPE_STATS = "mainc/page_type/"


def extraction_stats(extraction: Extraction) -> list[str]:
    """The stats to increase for an extraction that ran (see the module docstring)."""
    keys = ["mainc/extracted" if extraction.text else "mainc/empty"]
    if extraction.page_type:
        keys.append(PAGE_TYPE_STATS + extraction.page_type)
    return keys


def page_type_counts(stats: Mapping[str, int]) -> str:
    """The extractions by page type among ``stats``, in :data:`PAGE_TYPES` order
    (``article: 12, listing: 4``); "" when none was counted."""
    counts = ((kind, stats.get(PAGE_TYPE_STATS + kind, 0)) for kind in PAGE_TYPES)
    return ", ".join(f"{kind}: {count}" for kind, count in counts if count)


#: Prefix of the near-duplicate clustering's stats.
DEDUP_STATS = "mainc/dedup/"
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


#: Prefix of the metadata stats.
METADATA_STATS = "mainc/metadata/"
#: Items that went without some metadata fields their class does not declare.
UNDECLARED_STAT = METADATA_STATS + "undeclared"


def metadata_stats(found: tuple[str, ...], skipped: bool) -> list[str]:
    """The stats to increase for one item: a ``mainc/metadata/<field>`` for each field of
    ``found`` (the page gave a value), ``mainc/metadata/undeclared`` if ``skipped``."""
    keys = [METADATA_STATS + name for name in found]
    if skipped:
        keys.append(UNDECLARED_STAT)
    return keys


class OutcomeTally:
    """Counts extractions by failure kind ("" for none) and keeps each kind's first reason."""

    def __init__(self, worker_mode: str) -> None:
        self.worker_mode = worker_mode
        self.counts: Counter[str] = Counter()
        self.first_reasons: dict[str, str] = {}
        self._told_thread_timeout = False

    def add(self, failure: str, reason: str) -> None:
        self.counts[failure] += 1
        if failure and failure not in self.first_reasons:
            self.first_reasons[failure] = " ".join(reason.split())[:REASON_CHARS]

    def thread_timeout_warning(self, url: str | None, budget: float) -> str:
        """The warning for a page abandoned in thread mode, the first time only ("" after)."""
        if self.worker_mode != "thread" or self._told_thread_timeout:
            return ""
        self._told_thread_timeout = True
        return (
            f"mainc: the extraction of {url or 'a page'} overran MAINC_TIMEOUT ({budget:g} s) "
            "in thread mode, where a time-out cannot be enforced: the item goes on without "
            "text, but its thread cannot be stopped and runs on in the background, holding "
            "the GIL against the crawl and other extractions (which may time out in turn). "
            'MAINC_WORKER_MODE = "process" enforces the time-out by killing the worker. '
            "(Said once; further time-outs are counted in mainc/failed/timeout.)"
        )

    def all_failed_warning(self, attaching: bool = False, info_field: str = "mainc") -> str:
        """The warning for a crawl whose every item failed; "" for any other crawl.
        ``attaching``: the spider middleware attached pages (no_page has another cause);
        ``info_field``: ``MAINC_INFO_FIELD``, where a failed item's reason goes ("": none)."""
        total = sum(self.counts.values())
        if not total or self.counts[""]:
            return ""
        kinds = sorted(self.counts.items(), key=lambda pair: (-pair[1], pair[0]))
        counts = ", ".join(f"{kind}: {count}" for kind, count in kinds)
        causes = " ".join(f"{kind}: {self._cause(kind, attaching)}." for kind, _ in kinds)
        return (
            f"mainc: all {total} items failed extraction ({counts}); {self._what_became(info_field)}. "
            f"Likely cause: {causes}"
        )

    def _what_became(self, info_field: str) -> str:
        """What became of the failed items: those of a class that lacks the fields went on
        unchanged (see ``MaincPipeline._pass_unfit``), the others with empty fields."""
        unchanged, total = self.counts["missing_field"], sum(self.counts.values())
        emptied = (
            f"with empty fields and the reason in {info_field}['reason']"
            if info_field
            else "with empty fields (no reason: MAINC_INFO_FIELD is off)"
        )
        if not unchanged:
            return f"they went on {emptied}"
        if unchanged == total:
            return "they went on unchanged, without the fields their classes lack"
        return (
            f"the {unchanged} of classes that lack the fields went on unchanged, without them, "
            f"the {total - unchanged} others {emptied}"
        )

    def _cause(self, kind: str, attaching: bool) -> str:
        cause = CAUSES.get(f"{kind}_attaching" if attaching and kind == "no_page" else kind, "")
        first = self.first_reasons.get(kind, "")
        return f"{cause} (first: {first})" if cause and first else cause or first
