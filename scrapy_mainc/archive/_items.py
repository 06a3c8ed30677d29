"""Items from WARC records: each record holding an HTML page becomes the item ``mainc crawl``
makes of that page, with the same fields, clusters and drops.

A record is taken as the crawl's response: its URL is the ``WARC-Target-URI``, its HTTP
headers and body are decoded as the crawl's middleware decodes a response
(``integration._decoding``), and its fetch time is the ``WARC-Date``, handed to the
extraction as the crawl hands the response's ``Date`` header, so that relative dates
("3 hours ago") are read against the day the page was archived. The item is made by the
pipeline's own steps (``integration._itembuild``), the extraction runs in the pipeline's
worker pool (``MAINC_WORKER_MODE``, ``MAINC_WORKERS``, ``MAINC_TIMEOUT``), and with
clustering on each item is put in the index the crawl uses (:class:`_clusters.Clusters`).

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

from itemadapter import ItemAdapter

from ..integration._decoding import decoded_page
from ..integration._itembuild import ItemBuilder, page_item
from ..integration._offline import OfflineConfig
from ..integration._pool import WorkerPool
from ..integration._tally import extraction_stats
from ..integration._workers import FINGERPRINT_MODULES, ExtractionOutcome, leave_unguarded_script
from ._clusters import Clusters
from ._reader import ArchiveRecord, Damage
from ._summary import FileSummary

#: Pages in the pool at once, per worker: enough to keep each busy, few enough to stream.
PAGES_IN_FLIGHT = 4


@dataclass(slots=True)
class _Pending:
    """A page on its way through the extraction."""

    item: dict[str, Any]
    record: ArchiveRecord
    page: str
    annotations: dict[str, Any]
    outcome: Future[ExtractionOutcome]


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
        self.builder = ItemBuilder(config.mainc, config.dedup, self._stat)
        # the index first: one that cannot be opened (IndexUnavailable) leaves no workers behind
        self._clusters = Clusters(config.dedup, self.summary) if config.dedup.enabled else None
        mainc = config.mainc
        mode = worker_mode or mainc.worker_mode
        workers = 1 if mode != "process" else mainc.workers
        preload = FINGERPRINT_MODULES if config.dedup.enabled else ()
        self._pool = WorkerPool(mode, workers, mainc.timeout, preload=preload)
        self._depth = workers * PAGES_IN_FLIGHT

    def begin(self, summary: FileSummary) -> None:
        """Count what follows (the next file) in ``summary``."""
        self.summary = summary
        if self._clusters is not None:
            self._clusters.summary = summary

    def _stat(self, name: str) -> None:
        self.summary.count(name)

    def __enter__(self) -> ArchiveExtractor:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def close(self) -> None:
        self._pool.close(2.0)
        if self._clusters is not None:
            self._clusters.close()

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
            summary.count("mainc/redecoded")
        page, annotations = (decoded.text, decoded.annotations) if decoded is not None else ("", {})
        item = self.builder.fields.prepare(page_item(entry.url))
        metadata = self.builder.fields.takes_metadata(item)
        task = self.builder.task(page, entry.url, metadata, http_date(entry.date))
        refused = self.builder.too_large(task, entry.size if oversized else None)
        outcome = _settled(refused) if refused is not None else self._pool.submit(task)
        return _Pending(item, entry, page, annotations, outcome)

    @property
    def _redecode(self) -> bool:
        return self.config.mainc.redecode

    def _finish(self, pending: _Pending) -> dict[str, Any] | None:
        """Write the outcome into the item: None when it is dropped."""
        outcome, url = pending.outcome.result(), pending.record.url
        adapter = ItemAdapter(pending.item)
        self.builder.fill(adapter, outcome, pending.page, pending.annotations)
        if self.config.dedup.enabled:
            self.builder.hand_on(adapter, outcome, url)
        self._count(outcome, pending.record)
        dropped = self.builder.drop_reason(outcome)
        if not dropped and self._clusters is not None:
            dropped = self._clusters.place(adapter, outcome, url)
        if dropped:
            return None
        self.summary.items += 1
        return pending.item

    def _count(self, outcome: ExtractionOutcome, record: ArchiveRecord) -> None:
        """The pipeline's extraction stats of one page; a failure is a problem too."""
        count, extraction = self.summary.count, outcome.extraction
        if outcome.failure:
            count("mainc/failed")
            count(f"mainc/failed/{outcome.failure}")
            reason = f"{record.url}: {extraction.reason}"
            self.summary.problem(record.offset, f"extraction {outcome.failure}", reason)
        else:
            for key in extraction_stats(extraction):
                count(key)


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
