"""What an archive run did, as typed records: per input file (:class:`FileSummary`) and for
a whole job (:class:`JobSummary`, with the time of each worker), written as JSON beside the
items and read back when a restarted job skips the files already done."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from ..items._mainc_stats import DROP_NAMES, MILLISECONDS, drop_counts, outcome_lines

#: At most this many problems of one file are kept with their offset and reason (all are
#: counted by kind).
MAX_PROBLEMS = 100


@dataclass(frozen=True, slots=True)
class Problem:
    """One thing that went wrong in a file: where, what kind, and why."""

    file: str
    offset: int
    kind: str
    reason: str


@dataclass(slots=True, kw_only=True)
class Counts:
    """What records gave: by WARC type, the records skipped by reason, the items written,
    the crawl's ``mainc/*`` stats for them, and every problem counted by kind."""

    #: Records read, by ``WARC-Type``.
    records: Counter[str] = field(default_factory=Counter)
    #: Records that are no page, by reason ("request record", "not HTML", "HTTP status 404").
    skipped: Counter[str] = field(default_factory=Counter)
    #: Records taken as pages that were cut: ``WARC-Truncated`` values, "shorter than stated".
    truncated: Counter[str] = field(default_factory=Counter)
    items: int = 0
    #: The crawl's ``mainc/*`` stats for these pages, by the same names and the same
    #: runner (``mainc/extracted``, ``mainc/algorithm/auto``, ``mainc/ms/total``,
    #: ``mainc/metadata/published``, ``mainc/dropped/language``, ``mainc/dedup/duplicates``...).
    stats: Counter[str] = field(default_factory=Counter)
    #: Problems by kind ("bad record", "skipped", "length mismatch", "unreadable"...).
    errors: Counter[str] = field(default_factory=Counter)
    problems: list[Problem] = field(default_factory=list)

    def add(self, other: Counts) -> None:
        """Add the counts of ``other``, and its problems while fewer than MAX_PROBLEMS are kept."""
        for name in _COUNTERS:
            getattr(self, name).update(getattr(other, name))
        if MILLISECONDS in other.stats:  # a sum of floats, kept to the microsecond
            self.stats[MILLISECONDS] = round(self.stats[MILLISECONDS], 3)
        self.items += other.items
        self.problems.extend(other.problems[: max(0, MAX_PROBLEMS - len(self.problems))])


@dataclass(slots=True)
class FileSummary(Counts):
    """One input file's counts, where its part went, its time and its worker."""

    file: str
    part: str = ""
    seconds: float = 0.0
    #: The Dask worker that read the file ("" outside a Dask job).
    worker: str = ""
    #: The file's size when it was read (-1: unknown): a restarted job reads a file again
    #: whose size changed since (it was still being written or was replaced).
    source_bytes: int = -1

    def problem(self, offset: int, kind: str, reason: str) -> None:
        """Count a problem; keep its details while fewer than MAX_PROBLEMS are kept."""
        self.errors[kind] += 1
        if len(self.problems) < MAX_PROBLEMS:
            self.problems.append(Problem(self.file, offset, kind, reason))

    def inc(self, stat: str, count: int = 1) -> None:
        """Add ``count`` to the stat ``stat`` (the per-page runner counts through this)."""
        self.stats[stat] += count

    def add_milliseconds(self, stat: str, milliseconds: float) -> None:
        """Add to a sum of milliseconds, kept to the microsecond, as a crawl keeps it."""
        # a float among the counts (a Counter adds floats as it adds ints)
        self.stats[stat] = round(self.stats[stat] + milliseconds, 3)  # type: ignore[assignment]

    def to_json(self) -> str:
        return _json(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> FileSummary:
        summary = cls(
            file=str(data["file"]),
            part=str(data.get("part", "")),
            items=int(data.get("items", 0)),
            seconds=float(data.get("seconds", 0.0)),
            worker=str(data.get("worker", "")),
            source_bytes=int(data.get("source_bytes", -1)),
            problems=[Problem(**problem) for problem in data.get("problems") or []],
        )
        for name in _COUNTERS:
            getattr(summary, name).update(data.get(name) or {})
        return summary

    @classmethod
    def load(cls, path: Path) -> FileSummary:
        return cls.from_dict(json.loads(path.read_text(encoding="utf-8")))


_COUNTERS = ("records", "skipped", "truncated", "stats", "errors")


def _json(summary: FileSummary | JobSummary) -> str:
    """``summary`` as JSON (``asdict`` would rebuild a Counter from its items' pairs)."""
    data = {
        name: dict(value) if isinstance(value, Counter) else value
        for name, value in ((name, getattr(summary, name)) for name in summary.__dataclass_fields__)
    }
    data = {
        name: [asdict(entry) for entry in value] if name in ("problems", "workers") else value
        for name, value in data.items()
    }
    return json.dumps(data, ensure_ascii=False, indent=1, sort_keys=True)


@dataclass(frozen=True, slots=True)
class WorkerTime:
    """The files one worker read and the seconds it spent on them."""

    worker: str
    files: int
    records: int
    seconds: float


@dataclass(slots=True)
class JobSummary(Counts):
    """A whole run: the files' counts added up, and each worker's time."""

    files: int = 0
    #: Files of an earlier run of the same job, skipped (their part was complete).
    resumed: int = 0
    workers: list[WorkerTime] = field(default_factory=list)
    #: Wall-clock seconds of the run.
    seconds: float = 0.0

    @classmethod
    def of(cls, files: list[FileSummary], seconds: float = 0.0, resumed: int = 0) -> JobSummary:
        job = cls(files=len(files), resumed=resumed, seconds=round(seconds, 3))
        by_worker: dict[str, list[FileSummary]] = {}
        for summary in files:
            job.add(summary)
            by_worker.setdefault(summary.worker or "this process", []).append(summary)
        job.workers = [
            WorkerTime(
                name,
                len(done),
                sum(sum(summary.records.values()) for summary in done),
                round(sum(summary.seconds for summary in done), 3),
            )
            for name, done in sorted(by_worker.items())
        ]
        return job

    def to_json(self) -> str:
        return _json(self)

    def lines(self, command: str, where: str) -> list[str]:
        """The closing lines a run prints (to standard error)."""
        kinds = ", ".join(f"{kind}: {count}" for kind, count in sorted(self.records.items()))
        skipped = ", ".join(f"{why}: {count}" for why, count in sorted(self.skipped.items()))
        stats = self.stats
        dropped, drops = sum(stats.get(key, 0) for key in DROP_NAMES), drop_counts(stats)
        lines = [
            f"{command}: {self.files} file{'' if self.files == 1 else 's'} in {self.seconds:.1f} s"
            + (f" ({self.resumed} done by an earlier run, skipped)" if self.resumed else ""),
            f"  records: {sum(self.records.values())}" + (f" ({kinds})" if kinds else ""),
            f"  not pages: {sum(self.skipped.values())}" + (f" ({skipped})" if skipped else ""),
            f"  items written: {self.items} to {where}",
            f"  items dropped: {dropped}" + (f" ({drops})" if drops else ""),
            f"  extraction: {stats['mainc/extracted']} with text, {stats['mainc/empty']} empty, "
            f"{stats['mainc/failed']} failed",
            *outcome_lines(stats),
            f"  problems: {sum(self.errors.values())}"
            + (f" ({', '.join(f'{k}: {v}' for k, v in sorted(self.errors.items()))})" if self.errors else ""),
        ]
        if self.truncated:
            cut = ", ".join(f"{why}: {count}" for why, count in sorted(self.truncated.items()))
            lines.append(f"  truncated pages (extracted as they are): {cut}")
        lines.extend(f"  {p.file} at {p.offset}: {p.kind}: {p.reason}" for p in self.problems[:10])
        return lines
