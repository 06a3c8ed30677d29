"""Records of a WARC stream, read with warcio, and every damage said with a reason.

:func:`read_records` yields, for one stream (a ``.warc`` or ``.warc.gz`` file, or a WARC
inside a WACZ), an :class:`ArchiveRecord` for each record and a :class:`Damage` for each
thing that went wrong, and goes on after it: warcio stops at the first record it cannot
parse, so the reader looks for the next record start after the last good one (the next
gzip member that opens with a WARC header, or the next ``WARC/1.x`` line of a plain file)
and reads on from there. What warcio does itself is kept: each gzip member is one record,
chunked bodies are de-chunked and gzip and deflate bodies decompressed (brotli and
Zstandard bodies by ``_encodings``; a body whose header names an encoding it does not
have is taken as it is),
and a record not followed by its blank lines (its ``Content-Length`` lies) is read to its
stated length, then warcio finds the next record (said here as damage). What warcio does
not say is found here: a file that ends inside a record (warcio stops without an error),
a record shorter than its ``Content-Length``, a body that runs into the next record. A file
gzipped whole (one gzip stream, which warcio refuses after its first record) is read from
a decompressed temporary copy.

Only the bodies of records that may hold HTML are read, and at most ``limit`` bytes of
each are kept: a larger body is read through to count its size, never held.
"""

from __future__ import annotations

import re
import tempfile
import zlib
from collections.abc import Generator, Iterator
from dataclasses import dataclass, field, replace
from typing import IO, Any

from ._encodings import content_stream
from ._formats import ARC_START, NOT_WARC, not_warc, opens_a_record, quiet_iterator, stream_head

#: Bytes read at a time when looking for the next record or skipping a large body.
CHUNK = 1 << 20
#: How far ahead of a candidate gzip header the check decompresses.
PROBE = 64
_GZIP_MAGIC = b"\x1f\x8b\x08"
#: A record start; not only at the start of a line: a cut record leaves the next one
#: glued to its last bytes.
_WARC_LINE = re.compile(rb"(WARC/1\.[01]\r?\nWARC-)")
#: A WARC header inside a record's body: the record's Content-Length ran past its end.
_NEXT_RECORD = re.compile(rb"WARC/1\.[01]\r\nWARC-[A-Za-z-]+: ")
#: MIME types whose records are read and judged by their content (the crawl's response
#: classes decide): those naming HTML, and those that name nothing.
_UNNAMED_TYPES = frozenset({"", "application/octet-stream", "unknown/unknown", "application/unknown"})


@dataclass(frozen=True, slots=True)
class ArchiveRecord:
    """One WARC record: its type, target and date, and its HTTP headers and body when it
    may hold HTML (``skipped`` says why not, otherwise)."""

    #: ``WARC-Type``: response, resource, request, metadata, revisit, warcinfo...
    kind: str
    url: str = ""
    #: ``WARC-Date`` as written (ISO 8601).
    date: str = ""
    #: HTTP status of a response record; 200 for a resource record.
    status: int = 0
    headers: tuple[tuple[str, str], ...] = ()
    #: The payload with transfer and content encodings undone, at most ``limit`` bytes.
    body: bytes = b""
    #: The payload's length in bytes (more than ``len(body)`` when over the limit).
    size: int = 0
    #: Why the record is not taken as a page ("" when it may be one).
    skipped: str = ""
    #: ``WARC-Truncated`` ("length", "time", "disconnect"...), "" for a whole record.
    truncated: str = ""
    #: The record ended before its ``Content-Length`` (or ran into the next record).
    short: bool = False
    #: Its ``Content-Length`` took in the start of the next record (the body is cut there).
    ran_on: bool = False
    offset: int = 0


@dataclass(frozen=True, slots=True)
class Damage:
    """Something in a stream that could not be read as a record, and what was lost."""

    offset: int
    #: A short kind ("unreadable", "bad record", "truncated file", "length mismatch"...).
    kind: str
    reason: str


def read_records(stream: IO[bytes], limit: int) -> Iterator[ArchiveRecord | Damage]:
    """The records of ``stream`` (seekable, at its start) and the damage found; bodies of
    possible pages cut at ``limit`` bytes. A stream that is neither a WARC nor an ARC file
    (no record anywhere in it) is one damage, ``not a WARC file``."""
    compressed = stream.read(2) == _GZIP_MAGIC[:2]
    head = stream_head(stream, compressed)
    if not (opens_a_record(head) or _find_start(stream, 0, compressed) is not None):
        yield Damage(0, NOT_WARC, not_warc(head, compressed))
        return
    archive_iterator = quiet_iterator(arc=head.startswith(ARC_START))
    start: int | None = 0
    reported = -1
    while start is not None:
        stream.seek(start)
        iterator = archive_iterator(stream)
        read = _Progress(start, compressed)
        try:
            yield from _records(iterator, read, stream, limit)
        except _Resync as resync:
            start = (
                resync.offset if resync.offset is not None else _find_start(stream, read.last + 1, compressed)
            )
            continue
        except Exception as exc:  # noqa: BLE001 - warcio's, zlib's and the stream's errors alike
            if compressed and start == read.last == 0 and _WHOLE_GZIP in str(exc):
                yield from _whole_gzip(stream, limit)  # nothing read yet: read.held is dropped
                return
            failed_at = max(iterator.offset, read.last)  # the record that could not be read
            if start == reported == read.last:
                # a second try of the record that failed, failing inside it again (a cut gzip
                # member runs on into the bytes after it): the same damage, and what the
                # try read of it is not trusted
                read.held.clear()
                failed_at = start  # where the try failed is not trusted either: skip from the start
            else:
                yield from read.release()
                if failed_at != reported:  # not the same record again, after a restart there
                    reported = failed_at
                    yield Damage(failed_at, "bad record", f"{type(exc).__name__}: {_short(exc)}")
            # a record may start inside the one before, when that one's length lies
            start = yield from _next_start(stream, read.last + 1, failed_at, compressed)
            continue
        start = yield from _after_end(stream, iterator.offset, compressed)


#: warcio's error for a file gzipped whole (one gzip stream, not one member per record).
_WHOLE_GZIP = "non-chunked gzip"


def _whole_gzip(stream: IO[bytes], limit: int) -> Iterator[ArchiveRecord | Damage]:
    """The records of a file gzipped whole (``gzip crawl.warc``), which warcio refuses after
    its first record: read from a decompressed temporary copy (offsets are in it). A cut or
    damaged stream is said, and what came out of it is read."""
    stream.seek(0)
    with tempfile.TemporaryFile() as plain:
        broken = _gunzip(stream, plain)
        if broken:
            yield Damage(plain.tell(), "truncated file", f"the gzip stream {broken}")
        plain.seek(0)
        yield from read_records(plain, limit)


def _gunzip(stream: IO[bytes], plain: IO[bytes]) -> str:
    """Decompress the gzip members of ``stream`` into ``plain``, block by block; "" or how
    the stream broke (what came out before is kept)."""
    decompressor: Any = None
    pending = b""
    while block := pending or stream.read(CHUNK):
        decompressor = decompressor or zlib.decompressobj(16 + zlib.MAX_WBITS)
        try:
            plain.write(decompressor.decompress(block))
        except zlib.error as exc:
            return f"breaks here: {_short(exc)}"
        pending = decompressor.unused_data if decompressor.eof else b""
        decompressor = None if decompressor.eof else decompressor
    return "ends here, before its end" if decompressor is not None else ""


class _Resync(Exception):
    """Reading goes on at ``offset`` (None: at the next record start after the last)."""

    def __init__(self, offset: int | None) -> None:
        super().__init__(offset)
        self.offset = offset


@dataclass(slots=True)
class _Progress:
    """Where one run of warcio's iterator is: the last record started, and the record read
    but held back until the next one shows where it ended."""

    last: int
    compressed: bool
    held: list[ArchiveRecord | Damage] = field(default_factory=list)

    def release(self) -> Iterator[ArchiveRecord | Damage]:
        yield from self.held
        self.held.clear()


def _records(
    iterator: Any, read: _Progress, stream: IO[bytes], limit: int
) -> Iterator[ArchiveRecord | Damage]:
    """The records of one run of warcio's iterator. Each is held until warcio finds the
    next: a record start between the two means warcio read two records as one (a record
    cut in its headers, or whose length lies), and the merged record is dropped, said,
    and reading goes on at the start found."""
    warnings = 0
    for record in iterator:
        previous, read.last = read.last, iterator.offset
        yield from _checked(read, stream, previous, read.last)
        if iterator.err_count > warnings:  # found on the way from the record before
            warnings = iterator.err_count
            yield Damage(previous, "length mismatch", _MISMATCH)
        archived = _record(record, read.last, limit)
        read.held.append(archived)
        if archived.short:
            read.held.append(Damage(archived.offset, "length mismatch", _SHORT))
        if archived.ran_on:  # its body was cut where the next record starts: go back there
            yield from read.release()
            raise _Resync(None)
    yield from _checked(read, stream, read.last, iterator.offset)


def _checked(read: _Progress, stream: IO[bytes], start: int, end: int) -> Iterator[ArchiveRecord | Damage]:
    """The held record, unless a record starts inside it (between ``start`` and ``end``)."""
    if not read.held:
        return
    inside = _find_start(stream, start + 1, read.compressed, end) if end > start + 1 else None
    if inside is None:
        yield from read.release()
        return
    read.held.clear()
    reason = f"a record cut in its headers took in the next one, at {inside}: its page is lost"
    yield Damage(start, "bad record", reason)
    raise _Resync(inside)


_MISMATCH = (
    "a record is not followed by the blank lines that end a record: its Content-Length is "
    "wrong (its page may be cut or carry bytes of the next record)"
)
_SHORT = (
    "the record holds fewer bytes than its Content-Length says (a cut file, or a length that "
    "runs into the next record): its page is cut"
)


def from_warcio(record: Any, limit: int, offset: int = 0) -> ArchiveRecord:
    """``record`` (a warcio record, its body not read yet) as the archive mode takes it."""
    return _record(record, offset, limit)


def _record(record: Any, offset: int, limit: int) -> ArchiveRecord:
    headers = record.rec_headers
    kind = str(headers.get_header("WARC-Type") or "unknown")
    http = record.http_headers
    status = _status(http) if kind == "response" else 200
    pairs = tuple(http.headers) if http is not None and kind == "response" else ()
    if kind == "resource":
        pairs = (("Content-Type", str(headers.get_header("Content-Type") or "")),)
    base = ArchiveRecord(
        kind=kind,
        url=str(headers.get_header("WARC-Target-URI") or "").strip("<>"),
        date=str(headers.get_header("WARC-Date") or ""),
        status=status,
        headers=pairs,
        truncated=str(headers.get_header("WARC-Truncated") or ""),
        offset=offset,
    )
    skipped = _skip_reason(base)
    if skipped:
        return replace(base, skipped=skipped)
    body, size, short = _read_body(record, limit)
    ran_on = _next_record_in(body)
    if ran_on >= 0:  # the record's Content-Length took in the next record
        body = body[:ran_on].removesuffix(b"\r\n\r\n")
    cut = ran_on >= 0
    return replace(base, body=body, size=max(size, len(body)), short=short or cut, ran_on=cut)


def _next_record_in(body: bytes) -> int:
    """Where a WARC record starts in ``body``, or -1 (a literal search first: fast)."""
    index = body.find(b"WARC/1.")
    while index >= 0:
        if _NEXT_RECORD.match(body, index):
            return index
        index = body.find(b"WARC/1.", index + 1)
    return -1


def _status(http: Any) -> int:
    try:
        return int(http.get_statuscode()) if http is not None else 0
    except (TypeError, ValueError):
        return 0


def _skip_reason(record: ArchiveRecord) -> str:
    """Why ``record`` is no page, before its body is read ("" when it may be one)."""
    if record.kind not in ("response", "resource"):
        return f"{record.kind} record"
    if not record.url:
        return "no WARC-Target-URI"
    if not 200 <= record.status < 300:
        return f"HTTP status {record.status or 'unreadable'}"
    content_type = next((value for name, value in record.headers if name.lower() == "content-type"), "")
    mime = content_type.split(";", 1)[0].strip().lower()
    if "html" not in mime and mime not in _UNNAMED_TYPES:
        return "not HTML"
    return ""


def _read_body(record: Any, limit: int) -> tuple[bytes, int, bool]:
    """The payload (at most ``limit`` + 1 bytes kept), its whole size, and whether the
    record ended before its stated length (a cut file)."""
    stream = content_stream(record)
    body = stream.read(limit + 1)
    size = len(body)
    if size > limit:
        while chunk := stream.read(CHUNK):
            size += len(chunk)
    raw = record.raw_stream
    short = getattr(raw, "limit", 0) > 0 and not raw.read(1)
    return body, size, short


def _next_start(
    stream: IO[bytes], position: int, lost_from: int, compressed: bool
) -> Generator[Damage, None, int | None]:
    """Generator: the offset of the next record start at or after ``position`` (None when
    there is none), with the damage of the bytes from ``lost_from`` skipped to it."""
    found = _find_start(stream, position, compressed)
    if found is None:
        stream.seek(0, 2)
        end = stream.tell()
        if end > lost_from:
            what = "gzip member" if compressed else "WARC record"
            yield Damage(lost_from, "skipped", f"no {what} found in the last {end - lost_from:,} bytes")
        return None
    if found > lost_from:
        yield Damage(lost_from, "skipped", f"{found - lost_from:,} bytes skipped to the next record")
    return found


def _after_end(stream: IO[bytes], offset: int, compressed: bool) -> Generator[Damage, None, int | None]:
    """Generator: after warcio stopped without an error at ``offset``: None at the end of
    the stream, else the damage of a cut record and where to read on."""
    stream.seek(offset)
    if not stream.read(CHUNK).strip():
        return None
    yield Damage(offset, "truncated file", "the stream ends inside a record (a cut gzip member or record)")
    found = _find_start(stream, offset + 1, compressed)
    if found is not None:
        yield Damage(offset, "skipped", f"{found - offset:,} bytes skipped to the next record")
    return found


def _find_start(stream: IO[bytes], position: int, compressed: bool, end: int | None = None) -> int | None:
    """The offset of the first record start at or after ``position`` (and before ``end``),
    or None; the stream's position is kept (warcio may read on from it)."""
    here = stream.tell()
    try:
        while end is None or position < end:
            stream.seek(position)
            block = stream.read(CHUNK + PROBE if end is None else min(CHUNK, end - position) + PROBE)
            if not block:
                return None
            for candidate in _candidates(block, compressed):
                if candidate >= CHUNK or (end is not None and position + candidate >= end):
                    break
                if not compressed or _opens_a_record(stream, position + candidate):
                    return position + candidate
            position += CHUNK
        return None
    finally:
        stream.seek(here)


def _candidates(block: bytes, compressed: bool) -> Iterator[int]:
    if compressed:
        index = block.find(_GZIP_MAGIC)
        while index >= 0:
            yield index
            index = block.find(_GZIP_MAGIC, index + 1)
    else:
        yield from (match.start(1) for match in _WARC_LINE.finditer(block))


def _opens_a_record(stream: IO[bytes], offset: int) -> bool:
    """Whether the gzip member at ``offset`` decompresses to a WARC header."""
    stream.seek(offset)
    head = stream.read(PROBE * 16)
    try:
        opened = zlib.decompressobj(16 + zlib.MAX_WBITS).decompress(head, 16)
    except zlib.error:
        return False
    return opened.startswith(b"WARC/")


def _short(error: object) -> str:
    """An error's message (or any text) in one printable line of at most 200 characters."""
    message = " ".join(str(error).split())
    message = "".join(char if char.isprintable() else f"\\x{ord(char):02x}" for char in message)
    return message[:200] + ("..." if len(message) > 200 else "")
