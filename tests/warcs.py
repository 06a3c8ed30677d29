"""WARC files for the archive tests, written with warcio (the reader the archive mode uses):
pages fetched from a server on loopback as a crawler archives them, and hand-built records."""

from __future__ import annotations

import http.client
import io
from collections.abc import Iterable, Sequence
from email.utils import parsedate_to_datetime
from gzip import compress as gzip_compress
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlsplit

from warcio.statusandheaders import StatusAndHeaders
from warcio.warcwriter import WARCWriter

#: The HTTP date every test server answers with, and the same moment as a WARC-Date.
HTTP_DATE = "Tue, 14 Apr 2026 09:30:00 GMT"
WARC_DATE = "2026-04-14T09:30:00Z"


def fetch_raw(url: str) -> tuple[str, list[tuple[str, str]], bytes]:
    """The status line, headers and body of ``url`` as the server sent them."""
    parts = urlsplit(url)
    connection = http.client.HTTPConnection(parts.hostname or "", parts.port, timeout=30)
    try:
        connection.request("GET", parts.path or "/")
        response = connection.getresponse()
        body = response.read()
        status = f"{response.status} {response.reason}"
        return status, list(response.getheaders()), body
    finally:
        connection.close()


def write(writer: WARCWriter, record: Any) -> None:
    """Write ``record`` and close its stream (warcio may have buffered it in a temporary
    file to measure it)."""
    writer.write_record(record)
    record.raw_stream.close()


def response_record(
    writer: WARCWriter,
    url: str,
    body: bytes,
    headers: Sequence[tuple[str, str]] = (("Content-Type", "text/html"),),
    status: str = "200 OK",
    warc_headers: dict[str, str] | None = None,
) -> object:
    http_headers = StatusAndHeaders(status, list(headers), protocol="HTTP/1.1")
    return writer.create_warc_record(
        url,
        "response",
        payload=io.BytesIO(body),
        length=len(body),  # known: warcio needs no temporary file to measure it
        http_headers=http_headers,
        warc_headers_dict={"WARC-Date": WARC_DATE, **(warc_headers or {})},
    )


def request_record(writer: WARCWriter, url: str) -> object:
    parts = urlsplit(url)
    http_headers = StatusAndHeaders(
        f"GET {quote(parts.path or '/', safe='/%')} HTTP/1.1", [("Host", parts.netloc)], is_http_request=True
    )
    return writer.create_warc_record(
        url,
        "request",
        payload=io.BytesIO(b""),
        http_headers=http_headers,
        warc_headers_dict={"WARC-Date": WARC_DATE},
    )


def archive_urls(urls: Iterable[str], path: Path, gzip: bool = True) -> Path:
    """Fetch ``urls`` and write them as a crawler does: a request and a response record
    each, the WARC-Date the moment of the server's Date header."""
    with path.open("wb") as stream:
        writer = WARCWriter(stream, gzip=gzip)
        for url in urls:
            status, headers, body = fetch_raw(url)
            date = dict((name.lower(), value) for name, value in headers).get("date", HTTP_DATE)
            moment = parsedate_to_datetime(date).strftime("%Y-%m-%dT%H:%M:%SZ")
            write(writer, request_record(writer, url))
            http_headers = StatusAndHeaders(status, headers, protocol="HTTP/1.1")
            record = writer.create_warc_record(
                url,
                "response",
                payload=io.BytesIO(body),
                length=len(body),
                http_headers=http_headers,
                warc_headers_dict={"WARC-Date": moment},
            )
            write(writer, record)
    return path


def write_warc(
    path: Path, records: Iterable[tuple[str, str, bytes, dict[str, object]]], gzip: bool = True
) -> Path:
    """A WARC of hand-built records: ``(kind, url, body, options)``; the options of a
    response are ``headers`` (HTTP), ``status`` and ``warc`` (more WARC headers)."""
    with path.open("wb") as stream:
        writer = WARCWriter(stream, gzip=gzip)
        for kind, url, body, options in records:
            warc = dict(options.get("warc") or {})  # type: ignore[call-overload]
            if kind == "response":
                headers = options.get("headers", (("Content-Type", "text/html"),))
                status = str(options.get("status", "200 OK"))
                record = response_record(writer, url, body, headers, status, warc)  # type: ignore[arg-type]
            elif kind == "request":
                record = request_record(writer, url)
            else:
                content_type = str(options.get("content_type", "text/html"))
                record = writer.create_warc_record(
                    url,
                    kind,
                    payload=io.BytesIO(body),
                    length=len(body),
                    warc_content_type=content_type,
                    warc_headers_dict={"WARC-Date": WARC_DATE, **warc},
                )
            write(writer, record)
    return path


def record_bytes(url: str, body: bytes, gzip: bool = True, record_id: str = "") -> bytes:
    """One HTML response record as written, to splice files by hand. warcio gives it a random
    WARC-Record-ID unless ``record_id`` is given, which makes the bytes the same in every run."""
    buffer = io.BytesIO()
    writer = WARCWriter(buffer, gzip=gzip)
    warc_headers = {"WARC-Record-ID": record_id} if record_id else None
    write(writer, response_record(writer, url, body, warc_headers=warc_headers))
    return buffer.getvalue()


def arc_bytes(pages: Iterable[tuple[str, bytes]], gzip: bool = True) -> bytes:
    """An ARC file (version 1, the Internet Archive's format before WARC) of HTML responses
    ``(url, body)``: its ``filedesc://`` record, then a record per page (each its own gzip
    member when ``gzip``)."""
    description = b"1 0 test\nURL IP-address Archive-date Content-type Archive-length\n"
    records = [
        b"filedesc://test.arc 0.0.0.0 20260414093000 text/plain %d\n%s\n" % (len(description), description)
    ]
    for url, body in pages:
        head = b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: %d\r\n\r\n" % len(body)
        line = b"%s 127.0.0.1 20260414093000 text/html %d\n" % (url.encode(), len(head) + len(body))
        records.append(line + head + body + b"\n")
    return b"".join(gzip_compress(record) for record in records) if gzip else b"".join(records)
