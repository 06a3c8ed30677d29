"""``mainc warc`` in this process: the items of every archive into one JSON Lines output,
with progress lines and a closing summary, as ``mainc crawl`` writes them.

:class:`ArchiveJob` holds the options of both ways of running (this one, and the Dask job
of ``_job`` with ``parts``); :meth:`ArchiveJob.config` reads them, with ``-s`` settings
last, into the crawl's configuration.
"""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from ..config._command_options import ItemOptions, option_settings
from ..config._offline import OfflineConfig
from ._files import JsonLines, file_items
from ._items import ArchiveExtractor
from ._summary import FileSummary, JobSummary

COMMAND = "mainc warc"


@dataclass(frozen=True, slots=True)
class ArchiveJob(ItemOptions):
    """What to read and how (the options of ``mainc warc``; ``limit`` applies in this
    process only)."""

    #: Files, folders and glob patterns of ``.warc``, ``.warc.gz`` and ``.wacz`` files.
    inputs: tuple[str, ...] = ()
    #: Where the items go (a file path, or ``-`` for standard output)...
    output: str = "items.jsonl"
    #: ...or, for the Dask job, the folder of the part files and the job's summary.
    parts: str = ""
    #: The Dask scheduler's address; "" starts a local cluster of ``dask_workers``.
    scheduler: str = ""
    dask_workers: int = 0

    def config(self) -> OfflineConfig:
        """The crawl's configuration for these options (ValueError for a bad setting)."""
        return OfflineConfig.from_settings({**option_settings(self), **self.settings})


def run_here(job: ArchiveJob, files: list[Path], config: OfflineConfig, stream: TextIO | None = None) -> int:
    """Read ``files`` in this process into ``job.output``; progress and the summary go to
    ``stream`` (standard error). Returns 1 when no record could be read, else 0."""
    stream = stream or sys.stderr
    started = time.monotonic()
    summaries: list[FileSummary] = []
    progress = _Progress(stream, job.progress_interval, started)
    with ArchiveExtractor(config) as extractor, JsonLines(job.output) as lines:
        for path in files:
            summary = FileSummary(str(path))
            summaries.append(summary)
            extractor.begin(summary)
            file_started = time.monotonic()
            for item in file_items(path, extractor):
                lines.write(item)
                progress.tick(summaries)
                if job.limit and sum(done.items for done in summaries) >= job.limit:
                    break
            summary.seconds = round(time.monotonic() - file_started, 3)
            if job.limit and sum(done.items for done in summaries) >= job.limit:
                break
    total = JobSummary.of(summaries, time.monotonic() - started)
    where = "standard output" if job.output == "-" else job.output
    print("\n".join(total.lines(COMMAND, where)), file=stream, flush=True)
    return 0 if sum(total.records.values()) else 1


class _Progress:
    """A line every ``interval`` seconds: records read, items written, problems."""

    def __init__(self, stream: TextIO, interval: float, started: float) -> None:
        self.stream, self.interval, self.started = stream, interval, started
        self.next = started + interval

    def tick(self, summaries: list[FileSummary]) -> None:
        now = time.monotonic()
        if self.interval <= 0 or now < self.next:
            return
        self.next = now + self.interval
        records = sum(sum(summary.records.values()) for summary in summaries)
        items = sum(summary.items for summary in summaries)
        problems = sum(sum(summary.errors.values()) for summary in summaries)
        seconds = now - self.started
        print(
            f"{COMMAND}: {seconds:.0f} s: {len(summaries)} files, {records} records read, {items} items "
            f"written, {problems} problems ({records / max(seconds, 1e-9):.1f} records/s)",
            file=self.stream,
            flush=True,
        )
