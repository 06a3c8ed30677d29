"""The format of a stream (WARC, ARC, or neither), and warcio's record iterator for it, as
the reader uses it: for that format only, and quiet.

A stream is taken as a WARC file when it starts with a WARC record (``WARC/``, after the
first gzip member is opened in a gzipped file), as an ARC file when it starts with an ARC
file's ``filedesc://`` record; a stream that starts with neither is read as a WARC file
damaged at its start when a WARC record starts further in, and is otherwise ``not a WARC
file`` (text, an HTML page, an image: warcio would take a line of five words for an ARC
header and read on). An empty stream holds no record, which the caller says.

warcio writes two things of its own to standard error: a warning when a record is not
followed by the blank lines that end it (the reader counts these itself, from the
iterator's ``err_count``, and says them as damage), and a logged warning when it replaces
the spaces of a ``WARC-Target-URI`` with ``%20`` (a URL written by a crawler that did not
escape it; the URL is taken as warcio mends it, nothing is lost). Both are silenced here.
"""

from __future__ import annotations

import zlib
from typing import IO, Any

from ._optional import require_warcio

#: The damage of a stream that holds no record.
NOT_WARC = "not a WARC file"
#: How an ARC file starts: its ``filedesc://`` record.
ARC_START = b"filedesc://"
#: Bytes of a stream (of its first gzip member's content, when gzipped) its format is read from.
HEAD_BYTES = 64


def stream_head(stream: IO[bytes], compressed: bool) -> bytes:
    """The first bytes of ``stream`` (of its first gzip member's content when
    ``compressed``; b"" when that cannot be opened) without leading white space; the stream
    is at its start again."""
    stream.seek(0)
    head = stream.read(HEAD_BYTES * 16)
    stream.seek(0)
    if compressed:
        try:
            head = zlib.decompressobj(16 + zlib.MAX_WBITS).decompress(head, HEAD_BYTES)
        except zlib.error:
            return b""
    return head.lstrip()


def opens_a_record(head: bytes) -> bool:
    """Whether a stream that begins with ``head`` starts with a record, or may (b"": an
    empty stream, or a first gzip member that cannot be opened, which the reader says)."""
    return not head or head.startswith((b"WARC/", ARC_START))


def not_warc(head: bytes, compressed: bool) -> str:
    """The reason of a stream that holds no record, beginning with ``head``."""
    what = "a gzip file holding no WARC or ARC record" if compressed else "no WARC or ARC record in it"
    try:
        first = " ".join(head.split(b"\n", 1)[0][:60].decode("utf-8").split())
    except UnicodeDecodeError:
        return f"{what}; it begins with bytes that are no text"
    return (
        f"{what}; it begins {first!r}"
        if first.isprintable()
        else f"{what}; it begins with control characters"
    )


def quiet_iterator(arc: bool) -> Any:
    """The class of warcio's iterator over WARC records, or (``arc``) over the records of an
    ARC file as WARC records (``arc2warc``: a response record per page, its headers named
    as in a WARC); it never reads one format as the other."""
    warcio = require_warcio()
    loader_class = warcio.ArcWarcRecordLoader
    base = warcio.ARCIterator if arc else warcio.WARCIterator

    class QuietLoader(loader_class):  # type: ignore[misc, valid-type]
        def _ensure_target_uri_format(self, rec_headers: Any) -> Any:
            """warcio's mending of a target URI (``<...>`` removed, spaces as ``%20``),
            without its logged warning."""
            uri = rec_headers.get_header("WARC-Target-URI")
            if uri is None:
                return None
            mended = uri[1:-1] if uri.startswith("<") and uri.endswith(">") else uri
            mended = mended.replace(" ", "%20")
            if mended != uri:
                rec_headers.replace_header("WARC-Target-URI", mended)
            return mended

    class QuietIterator(base):  # type: ignore[misc, valid-type]
        INC_RECORD = ""

        def __init__(self, stream: Any) -> None:
            super().__init__(stream, arc2warc=arc)
            self.loader = QuietLoader(verify_http=False, arc2warc=arc)

    return QuietIterator
