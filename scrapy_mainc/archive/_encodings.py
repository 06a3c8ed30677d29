"""A record's payload with its HTTP content encoding undone, as the crawl undoes it.

warcio's ``content_stream()`` de-chunks and decodes gzip and deflate, and that is kept. Two
encodings the crawl decodes (Scrapy's ``HttpCompressionMiddleware``) are decoded here
instead: ``br``, because warcio's brotli support expects brotlipy's API and fails on the
brotli package Scrapy installs (``'brotli.Decompressor' object has no attribute
'unused_data'``: the record was lost), and ``zstd``, which warcio does not know (the body
was taken compressed). Like warcio, a body that does not decode from its first bytes is
taken as it is (a header that names an encoding the body does not have).
"""

from __future__ import annotations

from typing import IO, Any, Protocol

from ._optional import brotli_module, zstd_module

#: Bytes of the raw body decoded at a time, and the most one step may give.
BLOCK = 1 << 16


class Readable(Protocol):
    def read(self, size: int = -1, /) -> bytes: ...


def content_stream(record: Any) -> Readable:
    """The payload of ``record`` (a warcio record) with transfer and content encodings undone."""
    http = record.http_headers
    encoding = str(http.get_header("Content-Encoding") or "").strip().lower() if http else ""
    if encoding not in ("br", "zstd"):
        return record.content_stream()  # type: ignore[no-any-return]
    raw: IO[bytes] = record.raw_stream
    if http.get_header("Transfer-Encoding") == "chunked":  # warcio's test, as in content_stream()
        from warcio.bufferedreaders import ChunkedDataReader  # with warcio, loaded

        raw = ChunkedDataReader(raw)
    return _Decoded(raw, encoding)


class _Decoded:
    """``read(size)`` of the decoded bytes of ``raw``, a block at a time."""

    def __init__(self, raw: IO[bytes], encoding: str) -> None:
        self._raw = raw
        self._out = bytearray()
        self._started = False
        self._step = _brotli_step() if encoding == "br" else _zstd_step()

    def read(self, size: int = -1) -> bytes:
        while size < 0 or len(self._out) < size:
            step = self._step
            if step is not None and step.finished():
                break  # the end of the encoded stream: what follows is no part of it
            data = self._raw.read(BLOCK) if step is None or step.wants_input() else b""
            decoded = self._decode(data)  # without data: output the step's limit held back
            if not data and not decoded:
                break  # the raw body ended (a cut record: its page as far as it goes)
            self._out += decoded
        taken = bytes(self._out if size < 0 else self._out[:size])
        del self._out[: len(taken)]
        return taken

    def _decode(self, data: bytes) -> bytes:
        if self._step is None:
            return data
        try:
            decoded = self._step.decode(data)
        except self._step.errors:
            if self._started:  # corrupt in the middle: said by the reader, as warcio's errors are
                raise
            self._step = None  # not encoded after all: taken as it is
            return data
        self._started = True
        return decoded


class _BrotliStep:
    def __init__(self, brotli: Any) -> None:
        self._decompressor = brotli.Decompressor()
        self.errors: tuple[type[Exception], ...] = (brotli.error,)

    def finished(self) -> bool:
        return bool(self._decompressor.is_finished())

    def wants_input(self) -> bool:
        return bool(self._decompressor.can_accept_more_data())

    def decode(self, data: bytes) -> bytes:
        return bytes(self._decompressor.process(data, output_buffer_limit=BLOCK))


class _ZstdStep:
    def __init__(self, zstd: Any) -> None:
        self._decompressor = zstd.ZstdDecompressor()
        self.errors: tuple[type[Exception], ...] = (zstd.ZstdError, EOFError)

    def finished(self) -> bool:
        return bool(self._decompressor.eof)

    def wants_input(self) -> bool:
        return bool(self._decompressor.needs_input)

    def decode(self, data: bytes) -> bytes:
        return bytes(self._decompressor.decompress(data, max_length=BLOCK))


def _brotli_step() -> _BrotliStep | None:
    module = brotli_module()
    return _BrotliStep(module) if module is not None else None


def _zstd_step() -> _ZstdStep | None:
    module = zstd_module()
    return _ZstdStep(module) if module is not None else None
