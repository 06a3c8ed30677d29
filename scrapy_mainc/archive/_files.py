"""The items of whole archive files, and the JSON Lines they are written as.

:func:`file_items` reads every WARC stream of a file through the extractor; a file that
cannot be opened or read is a problem of its summary (the other files go on).
:class:`JsonLines` writes items as ``mainc crawl``'s feed does (one JSON object a line,
UTF-8, not ASCII-escaped); a part file of the Dask job is written under a temporary name
and renamed once complete (:func:`write_part`), so a part file is never half written.
"""

from __future__ import annotations

import json
import os
import sys
import zipfile
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import IO, Any

from ._items import ArchiveExtractor
from ._reader import read_records
from ._sources import SourceError, warc_streams


def file_items(path: Path, extractor: ArchiveExtractor) -> Iterator[dict[str, Any]]:
    """The items of the archive at ``path``, counted in ``extractor.summary`` (the file's
    own: a file with no record, or no page, is judged by its counts)."""
    limit, summary = extractor.config.mainc.max_page_size, extractor.summary
    try:
        with warc_streams(path) as streams:
            for _name, stream in streams:
                yield from extractor.items(read_records(stream, limit))
    except (OSError, zipfile.BadZipFile, SourceError) as exc:
        reason = f"{type(exc).__name__}: {exc}" if not isinstance(exc, SourceError) else str(exc)
        summary.problem(0, "unreadable", reason)
        return
    records = sum(summary.records.values())
    if not records and not summary.errors:
        summary.problem(0, "no records", "the file holds no WARC record (an empty file)")
    elif records and sum(summary.skipped.values()) == records:
        skipped = ", ".join(f"{why}: {count}" for why, count in sorted(summary.skipped.items()))
        summary.problem(0, "no pages", f"{records} records, none of them an HTML page ({skipped})")


class JsonLines:
    """Items as JSON Lines into a file (``-``: standard output)."""

    def __init__(self, output: str) -> None:
        self.output = output
        self._stream: IO[str] = (
            sys.stdout if output == "-" else open(output, "w", encoding="utf-8")  # noqa: SIM115
        )

    def write(self, item: dict[str, Any]) -> None:
        self._stream.write(json.dumps(item, ensure_ascii=False) + "\n")

    def close(self) -> None:
        if self._stream is sys.stdout:
            self._stream.flush()
        else:
            self._stream.close()

    def __enter__(self) -> JsonLines:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


def write_part(part: Path, items: Iterable[dict[str, Any]]) -> None:
    """Write ``items`` to ``part`` as JSON Lines, under a temporary name until complete."""
    temporary = part.with_name(part.name + ".tmp")
    with JsonLines(str(temporary)) as lines:
        for item in items:
            lines.write(item)
    os.replace(temporary, part)
