"""The warnings about failed extractions, said once: :class:`OutcomeTally` counts the
outcomes by failure kind and words them.

Each item's failure is logged at DEBUG only (its reason is in the item; its stats are
``mainc/failed/<kind>``, ``_mainc_stats``). Two situations deserve a WARNING all the same,
once per crawl:

- every item failed: said when the spider closes, with the counts by kind and the likely
  cause of each kind (worker processes that cannot start, pages that never reach the
  pipeline, ...);
- a page overran ``MAINC_TIMEOUT`` in ``thread`` mode: the thread cannot be stopped and
  runs on in the background, competing for the GIL with the crawl and other extractions.
"""

from __future__ import annotations

from collections import Counter
from textwrap import shorten

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
            self.first_reasons[failure] = shorten(reason, REASON_CHARS, placeholder=" ...")

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
        unchanged (see ``PageRunner.prepare``), the others with empty fields."""
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
