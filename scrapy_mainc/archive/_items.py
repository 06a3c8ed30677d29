"""Items from WARC records: each record holding an HTML page becomes the item ``mainc crawl``
makes of that page, with the same fields, stats, clusters and drops.

A record is taken as the crawl's response: its URL is the ``WARC-Target-URI``, its HTTP
headers and body are decoded as the crawl's downloader middleware decodes a response
(``integration.middleware.decoded_page``), and its fetch time is the ``WARC-Date``, handed
to the extraction as the crawl hands the response's ``Date`` header, so that relative
dates ("3 hours ago") are read against the day the page was archived. The item is made by
the per-page runner ``MaincPipeline`` runs (``items._runner.PageRunner``: fields, stats,
drops), the extraction runs in the pipeline's worker pool (``MAINC_WORKER_MODE``,
``MAINC_WORKERS``, ``MAINC_TIMEOUT``), and with clustering on each item is placed by the
cluster step ``NearDuplicatePipeline`` runs (``items._clusters.ClusterStep``), in the index
the crawl uses. Every stat is counted in the file's summary under the crawl's name.

Records that are no page (request, metadata, revisit records; other media; HTTP errors and
redirects) are counted by reason; truncated records (``WARC-Truncated``, or shorter than
stated) are extracted as they are and counted.
"""

from __future__ import annotations

import collections
from collections.abc import Iterable, Iterator
from concurrent.futures import Future
from dataclasses import dataclass
from datetime import datetime, timezone
from email.utils import format_datetime
from typing import Any

from ..config._offline import OfflineConfig
from ..integration.middleware import decoded_page
from ..items._clusters import ClusterStep
from ..items._page import Page
from ..items._pool import WorkerPool
from ..items._runner import PageRun, PageRunner, page_item
from ..items._workers import ExtractionOutcome, leave_unguarded_script, preload_for
from ._reader import ArchiveRecord, Damage
from ._summary import FileSummary

#: Pages in the pool at once, per worker: enough to keep each busy, few enough to stream.
PAGES_IN_FLIGHT = 4


@dataclass(slots=True)
class _Pending:
    """A page on its way through the extraction."""

    run: PageRun
    record: ArchiveRecord
    outcome: Future[ExtractionOutcome]


class _SummaryStats:
    """The runner's and the cluster step's :class:`~scrapy_mainc.items._mainc_stats.Stats`:
    the summary the extractor counts in now (it changes with each file)."""

    def __init__(self, extractor: ArchiveExtractor) -> None:
        self._extractor = extractor

    def inc(self, key: str, count: int = 1) -> None:
        self._extractor.summary.inc(key, count)

    def add_milliseconds(self, key: str, milliseconds: float) -> None:
        self._extractor.summary.add_milliseconds(key, milliseconds)


class ArchiveExtractor:
    """Makes the items of records, the crawl's way (see the module docstring).

    ``config`` is the crawl's configuration (:meth:`OfflineConfig.from_settings`); counts
    and problems go to ``summary``. ``worker_mode`` overrides ``MAINC_WORKER_MODE`` (the
    Dask job runs its pages in a thread of its worker). Close it (or use it as a context
    manager) to stop the workers and the index. Made at the top level of a script without
    the ``if __name__ == "__main__":`` guard, the worker processes (which import the script
    again) cannot start: the pages run in this process, and a WARNING says what to add.
    """

    def __init__(
        self, config: OfflineConfig, summary: FileSummary | None = None, worker_mode: str = ""
    ) -> None:
        leave_unguarded_script()  # a script without its __main__ guard, run again in a worker
        self.config = config
        self.summary = summary if summary is not None else FileSummary("")
        stats = _SummaryStats(self)
        clusters = None
        if config.dedup.enabled:
            clusters = ClusterStep(config.dedup, stats, unclustered=self._unclustered)
            # the index first: one that cannot be opened (IndexUnavailable) leaves no workers behind
            clusters.open()
        self.runner = PageRunner(config.mainc, config.dedup, stats, clusters=clusters)
        mainc = config.mainc
        mode = worker_mode or mainc.worker_mode
        workers = 1 if mode != "process" else mainc.workers
        preload = preload_for(config.dedup.enabled, mainc.content.fallback)
        self._pool = WorkerPool(
            mode, workers, mainc.timeout, fallback_budget=mainc.fallback_timeout, preload=preload
        )
        self._depth = workers * PAGES_IN_FLIGHT

    def begin(self, summary: FileSummary) -> None:
        """Count what follows (the next file) in ``summary``."""
        self.summary = summary

    def __enter__(self) -> ArchiveExtractor:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def close(self) -> None:
        self._pool.close(2.0)
        if self.runner.clusters is not None:
            self.runner.clusters.close()

    def items(self, entries: Iterable[ArchiveRecord | Damage]) -> Iterator[dict[str, Any]]:
        """The items of ``entries`` (records and the reader's damage), in record order."""
        window: collections.deque[_Pending] = collections.deque()
        for entry in entries:
            pending = self._start(entry)
            if pending is not None:
                window.append(pending)
            while window and (len(window) > self._depth or window[0].outcome.done()):
                item = self._finish(window.popleft())
                if item is not None:
                    yield item
        while window:
            item = self._finish(window.popleft())
            if item is not None:
                yield item

    def _start(self, entry: ArchiveRecord | Damage) -> _Pending | None:
        summary = self.summary
        if isinstance(entry, Damage):
            summary.problem(entry.offset, entry.kind, entry.reason)
            return None
        summary.records[entry.kind] += 1
        if entry.skipped:
            summary.skipped[entry.skipped] += 1
            return None
        oversized = entry.size > self.config.mainc.max_page_size
        decoded = None if oversized else decoded_page(entry.url, entry.headers, entry.body, self._redecode)
        if decoded is None and not oversized:
            summary.skipped["not HTML"] += 1
            return None
        if entry.truncated or entry.short:
            summary.truncated[entry.truncated or "shorter than stated"] += 1
        if decoded is not None and decoded.redecoded:
            summary.inc("mainc/redecoded")
        page = Page(
            decoded.text if decoded is not None else "",
            entry.url,
            decoded.annotations if decoded is not None else {},
            http_date(entry.date) or "",
            size=entry.size if oversized else None,
        )
        run = self.runner.start(self.runner.prepare(page_item(entry.url)), page)
        outcome = _settled(run.settled) if run.settled is not None else self._pool.submit(run.task)
        return _Pending(run, entry, outcome)

    @property
    def _redecode(self) -> bool:
        return self.config.mainc.redecode

    def _finish(self, pending: _Pending) -> dict[str, Any] | None:
        """Write the outcome into the item: None when it is dropped. A failed extraction is
        a problem of the file too."""
        outcome, record = pending.outcome.result(), pending.record
        result = self.runner.finish(pending.run, outcome)
        if outcome.failure:
            reason = f"{record.url}: {outcome.extraction.reason}"
            self.summary.problem(record.offset, f"extraction {outcome.failure}", reason)
        if result.dropped:
            return None
        self.summary.items += 1
        item: dict[str, Any] = result.item
        return item

    def _unclustered(self, url: str, why: str) -> None:
        self.summary.problem(0, "index error", f"{url}: not clustered: {why}")


def _settled(outcome: ExtractionOutcome) -> Future[ExtractionOutcome]:
    future: Future[ExtractionOutcome] = Future()
    future.set_result(outcome)
    return future


def http_date(warc_date: str) -> str | None:
    """A ``WARC-Date`` (ISO 8601: ``2024-05-01T08:12:31Z``, with fractions of a second in
    WARC 1.1; 14 digits in WARC 0.17) as an HTTP date, the form of the crawl's ``Date``
    header; None when it cannot be read."""
    text = warc_date.strip()
    try:
        if text.isdigit() and len(text) == 14:
            moment = datetime.strptime(text, "%Y%m%d%H%M%S")
        else:
            moment = datetime.fromisoformat(text.replace("Z", "+00:00").replace("z", "+00:00"))
    except ValueError:
        return None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=timezone.utc)
    return format_datetime(moment.astimezone(timezone.utc), usegmt=True)
