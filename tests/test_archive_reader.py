"""Archive mode on bad and unusual archives: each shape is counted with its reason, and the
rest of the file (and of the job) goes on. Real WARC files, written with warcio."""

from __future__ import annotations

import gzip
import json
import logging
import random
import re
import subprocess
import sys
import uuid
import zipfile
from pathlib import Path
from typing import Any

import pytest
from conftest import WRONG_CHARSET_TEXT
from warcs import arc_bytes, record_bytes, write_warc

from scrapy_mainc.archive import FileSummary, items_from_files, read_records
from scrapy_mainc.archive._reader import ArchiveRecord, Damage
from scrapy_mainc.archive._sources import warc_streams

SITE = Path(__file__).resolve().parent.parent / "example_project" / "site"
#: Articles of the bundled site, as the bodies of hand-built records.
PAGES = [
    SITE / "en" / name
    for name in ("harbour-bridge-reopens.html", "river-festival.html", "school-gardens.html")
]
INLINE = {"MAINC_WORKER_MODE": "inline"}
INLINE_SETTING = "MAINC_WORKER_MODE=inline"


def page(number: int) -> bytes:
    return PAGES[number % len(PAGES)].read_bytes()


def url(number: int) -> str:
    return f"http://archive.test/{number}.html"


def read(path: Path, settings: dict[str, Any] | None = None) -> tuple[list[dict[str, Any]], FileSummary]:
    summary = FileSummary(str(path))
    items = list(items_from_files([path], {**INLINE, **(settings or {})}, summary))
    return items, summary


def urls(items: list[dict[str, Any]]) -> list[str]:
    return [item["url"] for item in items]


def five_members(directory: Path) -> list[bytes]:
    return [record_bytes(url(number), page(number)) for number in range(5)]


@pytest.mark.parametrize("seed", range(40))
def test_a_truncated_gzip_member_in_the_middle(tmp_path: Path, seed: int) -> None:
    # The record ids change the compressed bytes, and with them where warcio fails inside the
    # cut member: with a few of them it fails at the member's start, then, tried again there,
    # reads a garbled record out of the cut member and fails further on. One damage, said once.
    members = [
        record_bytes(url(number), page(number), record_id=f"<urn:uuid:{uuid.UUID(int=seed * 5 + number)}>")
        for number in range(5)
    ]
    path = tmp_path / "cut.warc.gz"
    path.write_bytes(b"".join([*members[:2], members[2][: len(members[2]) // 2], *members[3:]]))
    items, summary = read(path)
    assert urls(items) == [url(0), url(1), url(3), url(4)]
    assert summary.errors["bad record"] == 1
    offset = len(members[0]) + len(members[1])
    problems = {(problem.offset, problem.kind) for problem in summary.problems}
    # the bytes from the cut member to the next record are said as skipped, whichever way
    # warcio failed in it
    assert problems == {(offset, "bad record"), (offset, "skipped")}, summary.problems


@pytest.mark.parametrize(
    ("gzipped", "keep", "expected", "errors"),
    [
        (True, 40, 4, {"truncated file": 1}),  # warcio stops without a word: the reader says it
        (True, -300, 5, {"length mismatch": 1}),  # the last page is read in part, and said
        (False, -500, 5, {"length mismatch": 1}),
    ],
)
def test_a_file_cut_inside_its_last_record(
    tmp_path: Path, gzipped: bool, keep: int, expected: int, errors: dict[str, int]
) -> None:
    members = [record_bytes(url(number), page(number), gzip=gzipped) for number in range(5)]
    last = members[-1][:keep]
    path = tmp_path / ("cut.warc.gz" if gzipped else "cut.warc")
    path.write_bytes(b"".join(members[:-1]) + last)
    items, summary = read(path)
    assert urls(items) == [url(number) for number in range(expected)]
    assert summary.errors == errors
    assert summary.truncated == ({"shorter than stated": 1} if expected == 5 else {})


def _lie(record: bytes, delta: int) -> bytes:
    length = int(re.search(rb"Content-Length: (\d+)", record).group(1))  # type: ignore[union-attr]
    return record.replace(b"Content-Length: %d" % length, b"Content-Length: %d" % (length + delta), 1)


@pytest.mark.parametrize("gzipped", [True, False])
@pytest.mark.parametrize("delta", [400, -400])
def test_a_record_whose_length_lies(tmp_path: Path, gzipped: bool, delta: int) -> None:
    plain = [record_bytes(url(number), page(number), gzip=False) for number in range(4)]
    plain[1] = _lie(plain[1], delta)
    data = b"".join(gzip.compress(record) if gzipped else record for record in plain)
    path = tmp_path / ("lie.warc.gz" if gzipped else "lie.warc")
    path.write_bytes(data)
    items, summary = read(path)
    assert urls(items) == [url(number) for number in range(4)]  # the liar's page too, cut or not
    assert sum(summary.errors.values()) >= 1  # "length mismatch", or a bad record and bytes skipped
    liar = items[1]["main_text"]
    assert "WARC/1.0" not in liar and "WARC-Type" not in liar  # never the next record's header


def test_a_record_of_50_megabytes(tmp_path: Path) -> None:
    huge = (
        b"<html><body>"
        + b"<p>Words of a very long page, with commas, and periods.</p>" * 900_000
        + b"</body></html>"
    )
    assert len(huge) > 50_000_000
    path = write_warc(
        tmp_path / "huge.warc.gz",
        [
            ("response", url(0), page(0), {}),
            ("response", url(1), huge, {}),
            ("response", url(2), page(2), {}),
        ],
    )
    with path.open("rb") as stream:
        records = [
            entry for entry in read_records(stream, 10 * 1024 * 1024) if isinstance(entry, ArchiveRecord)
        ]
    assert records[1].size == len(huge) and len(records[1].body) == 10 * 1024 * 1024 + 1  # never held whole
    items, summary = read(path)
    assert urls(items) == [url(0), url(1), url(2)]
    assert items[1]["main_text"] == "" and items[1]["mainc"]["reason"].startswith(
        f"page too large: {len(huge):,} > MAINC_MAX_PAGE_SIZE"
    )
    assert summary.stats["mainc/failed/too_large"] == 1 and summary.errors["extraction too_large"] == 1


def test_a_wrong_charset_is_read_as_the_crawl_reads_it(tmp_path: Path) -> None:
    body = (
        f'<html><head><meta charset="iso-8859-1"></head><body><p>{WRONG_CHARSET_TEXT * 3}</p></body></html>'
    )
    headers = (("Content-Type", "text/html; charset=iso-8859-1"),)
    path = write_warc(tmp_path / "charset.warc", [("response", url(0), body.encode(), {"headers": headers})])
    items, summary = read(path)
    assert WRONG_CHARSET_TEXT in items[0]["main_text"]
    assert items[0]["mainc"]["page"]["redecoded"] is True and summary.stats["mainc/redecoded"] == 1


def test_a_warc_with_no_html(tmp_path: Path) -> None:
    image = (("Content-Type", "image/png"),)
    path = write_warc(
        tmp_path / "nohtml.warc.gz",
        [
            ("request", url(0), b"", {}),
            ("response", url(0) + ".png", b"\x89PNG\r\n", {"headers": image}),
            ("response", url(1), page(1), {"status": "404 Not Found"}),
            ("metadata", url(0), b"outlinks: none", {"content_type": "application/warc-fields"}),
            ("resource", url(2) + ".txt", b"plain text", {"content_type": "text/plain"}),
        ],
    )
    items, summary = read(path)
    assert items == []
    assert summary.records == {"request": 1, "response": 2, "metadata": 1, "resource": 1}
    assert summary.skipped == {
        "request record": 1,
        "not HTML": 2,
        "HTTP status 404": 1,
        "metadata record": 1,
    }
    assert summary.errors == {"no pages": 1}


def test_an_unreadable_file_in_a_folder_of_good_ones(tmp_path: Path) -> None:
    folder = tmp_path / "archives"
    folder.mkdir()
    write_warc(folder / "a-good.warc.gz", [("response", url(0), page(0), {})])
    (folder / "b-garbage.warc.gz").write_bytes(random.Random(32).randbytes(4000))
    (folder / "c-gone.warc").symlink_to(tmp_path / "nowhere.warc")
    write_warc(folder / "d-good.warc", [("response", url(1), page(1), {})], gzip=False)
    out = tmp_path / "items.jsonl"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "scrapy_mainc",
            "warc",
            str(folder),
            "-o",
            str(out),
            "-s",
            "MAINC_WORKER_MODE=inline",
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert [json.loads(line)["url"] for line in out.read_text().splitlines()] == [url(0), url(1)]
    assert "c-gone.warc at 0: unreadable: FileNotFoundError" in done.stderr
    assert "b-garbage.warc.gz at 0: not a WARC file: no WARC or ARC record in it" in done.stderr
    assert "problems: 2 (not a WARC file: 1, unreadable: 1)" in done.stderr


def test_chunked_compressed_truncated_and_resource_records(tmp_path: Path) -> None:
    body = page(0)
    packed = gzip.compress(body)
    chunked = b"%x\r\n%s\r\n0\r\n\r\n" % (len(packed), packed)
    encoded = (("Content-Type", "text/html"), ("Transfer-Encoding", "chunked"), ("Content-Encoding", "gzip"))
    unchunked = (("Content-Type", "text/html"), ("Transfer-Encoding", "chunked"))  # a body stored de-chunked
    path = write_warc(
        tmp_path / "bodies.warc.gz",
        [
            ("response", url(0), chunked, {"headers": encoded}),
            ("response", url(1), body, {"headers": unchunked}),
            ("response", url(2), body[:2000], {"warc": {"WARC-Truncated": "length"}}),
            ("resource", url(3), body, {}),
            ("revisit", url(0), b"", {"content_type": "application/http; msgtype=response"}),
        ],
    )
    items, summary = read(path)
    assert urls(items) == [url(0), url(1), url(2), url(3)]
    assert items[0]["main_text"] == items[1]["main_text"] == items[3]["main_text"] != ""
    assert summary.truncated == {"length": 1} and summary.skipped == {"revisit record": 1}
    assert summary.errors == {}


def test_a_wacz_file(tmp_path: Path) -> None:
    first = write_warc(tmp_path / "one.warc.gz", [("response", url(0), page(0), {})])
    second = write_warc(tmp_path / "two.warc.gz", [("response", url(1), page(1), {})])
    wacz = tmp_path / "crawl.wacz"
    with zipfile.ZipFile(wacz, "w") as archive:
        archive.write(first, "archive/data-1.warc.gz")
        archive.write(second, "archive/data-2.warc.gz")
        archive.writestr("datapackage.json", "{}")
    items, summary = read(wacz)
    assert urls(items) == [url(0), url(1)] and summary.errors == {}


def test_damage_is_reported_where_it_is(tmp_path: Path) -> None:
    members = five_members(tmp_path)
    garbage = random.Random(33).randbytes(3000)
    path = tmp_path / "garbage.warc.gz"
    path.write_bytes(members[0] + garbage + members[1])
    with path.open("rb") as stream:
        entries = list(read_records(stream, 10_000_000))
    damage = [entry for entry in entries if isinstance(entry, Damage)]
    assert [entry.url for entry in entries if isinstance(entry, ArchiveRecord)] == [url(0), url(1)]
    assert (damage[0].offset, damage[0].kind) == (len(members[0]), "bad record")
    assert damage[1].reason == f"{len(garbage):,} bytes skipped to the next record"


@pytest.mark.parametrize("chunked", [False, True])
def test_brotli_and_zstandard_bodies_are_decoded_as_a_crawl_does(tmp_path: Path, chunked: bool) -> None:
    """warcio's brotli support expects brotlipy and raised on the brotli Scrapy installs (the
    record lost, said as a bad record); zstd it does not know (the body taken compressed)."""
    import brotli

    from scrapy_mainc.archive._optional import zstd_module

    body = page(0)
    zstd = zstd_module()
    assert zstd is not None  # Scrapy installs it
    bodies = {"br": brotli.compress(body), "zstd": zstd.compress(body), "gzip": gzip.compress(body)}

    def encoded(encoding: str, payload: bytes) -> tuple[str, str, bytes, dict[str, object]]:
        headers = [("Content-Type", "text/html"), ("Content-Encoding", encoding)]
        if chunked:
            payload = b"%x\r\n%s\r\n0\r\n\r\n" % (len(payload), payload)
            headers.append(("Transfer-Encoding", "chunked"))
        return ("response", f"http://archive.test/{encoding}.html", payload, {"headers": tuple(headers)})

    path = write_warc(
        tmp_path / "encoded.warc.gz",
        [
            *(encoded(encoding, payload) for encoding, payload in bodies.items()),
            encoded("br", body),  # named, not done: taken as it is, as warcio takes gzip
            ("response", url(1), page(1), {}),
        ],
    )
    with path.open("rb") as stream:
        records = list(read_records(stream, 10_000_000))
    assert [type(entry).__name__ for entry in records] == ["ArchiveRecord"] * 5  # no Damage
    assert [entry.body == body for entry in records] == [True, True, True, True, False]  # type: ignore[union-attr]
    items, summary = read(path)
    assert len(items) == 5 and summary.errors == {}
    assert len({item["main_text"] for item in items[:4]}) == 1 and items[0]["main_text"]


def test_a_large_brotli_body_is_decoded_in_blocks_and_cut_at_the_limit(tmp_path: Path) -> None:
    import brotli

    huge = b"<html><body>" + b"<p>Words of a very long page, with commas.</p>" * 100_000 + b"</body></html>"
    headers = (("Content-Type", "text/html"), ("Content-Encoding", "br"))
    records = [("response", url(0), brotli.compress(huge), {"headers": headers})]
    path = write_warc(tmp_path / "big.warc.gz", records)
    with path.open("rb") as stream:
        (record,) = read_records(stream, 1_000_000)
    assert isinstance(record, ArchiveRecord)
    assert record.size == len(huge) and record.body == huge[:1_000_001]


def _bytes_read() -> int:
    """Bytes this process has read through system calls so far (Linux)."""
    with open("/proc/self/io", encoding="ascii") as status:
        return next(int(line.split()[1]) for line in status if line.startswith("rchar:"))


@pytest.mark.skipif(not Path("/proc/self/io").exists(), reason="counts reads in /proc/self/io (Linux)")
@pytest.mark.parametrize(
    ("compression", "gzipped"), [(zipfile.ZIP_STORED, False), (zipfile.ZIP_DEFLATED, True)]
)
def test_a_wacz_member_is_read_once_not_again_for_every_record(
    tmp_path: Path, compression: int, gzipped: bool
) -> None:
    """A zip member's own stream seeks back by reading the member again from its start, and
    the reader seeks back at every record: 200 records read 400 MB of a 4 MB member."""
    body = b"<html><body>" + b"<p>A paragraph of a page of twenty kilobytes.</p>" * 400 + b"</body></html>"
    records = [("response", url(number), body, {}) for number in range(200)]
    warc = write_warc(tmp_path / ("data.warc.gz" if gzipped else "data.warc"), records, gzip=gzipped)
    wacz = tmp_path / "crawl.wacz"
    with zipfile.ZipFile(wacz, "w", compression) as archive:
        archive.write(warc, f"archive/{warc.name}")
    before = _bytes_read()
    with warc_streams(wacz) as streams:
        entries = [entry for _, stream in streams for entry in read_records(stream, 10_000_000)]
    read_bytes = _bytes_read() - before
    assert [getattr(entry, "url", entry) for entry in entries] == [url(number) for number in range(200)]
    assert all(entry.body == body for entry in entries)  # type: ignore[union-attr]
    size = warc.stat().st_size  # before: 408 MB read of a 4 MB member; 7 MB of a 93 KB one
    assert read_bytes < 4 * size + 2_000_000, f"{read_bytes:,} bytes read for {size:,}"


@pytest.mark.parametrize("cut", [False, True])
def test_a_file_gzipped_whole_is_read_whole(tmp_path: Path, cut: bool) -> None:
    """``gzip crawl.warc``: one gzip stream, which warcio refuses after its first record (it
    was one record read, then a bad record and the rest of the file skipped)."""
    plain = write_warc(
        tmp_path / "crawl.warc", [("response", url(n), page(n), {}) for n in range(4)], gzip=False
    )
    packed = gzip.compress(plain.read_bytes())
    path = tmp_path / "crawl.warc.gz"
    path.write_bytes(packed[: len(packed) * 3 // 4] if cut else packed)
    items, summary = read(path)
    if not cut:
        assert urls(items) == [url(n) for n in range(4)] and summary.errors == {}
        return
    assert urls(items)[:2] == [url(0), url(1)] and len(items) < 4
    assert summary.errors["truncated file"] >= 1  # the gzip stream's end, and the record cut by it


#: Text that is no archive; its first line has five words, which warcio alone would take for
#: the header of an ARC record.
NOTES = b"Notes from the weekly meeting\n\nThe committee met on Tuesday and agreed the budget.\n" * 20


@pytest.mark.parametrize(
    ("name", "content"),
    [
        ("notes.warc", NOTES),
        ("notes.warc.gz", gzip.compress(NOTES)),
        ("page.warc", PAGES[0].read_bytes()),  # an HTML page saved under an archive's name
        ("noise.warc", random.Random(39).randbytes(5000)),
    ],
)
def test_a_file_that_is_no_warc_is_said_so_and_exits_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str, content: bytes
) -> None:
    from scrapy_mainc.cli import main

    path = tmp_path / name
    path.write_bytes(content)
    items, summary = read(path)
    assert items == [] and summary.records == {} and summary.errors == {"not a WARC file": 1}
    assert summary.problems[0].offset == 0 and "no WARC or ARC record" in summary.problems[0].reason
    assert main(["warc", str(path), "-o", str(tmp_path / "items.jsonl"), "-s", INLINE_SETTING]) == 1
    stderr = capsys.readouterr().err
    assert "problems: 1 (not a WARC file: 1)" in stderr and "length mismatch" not in stderr


@pytest.mark.parametrize("gzipped", [False, True])
def test_a_warc_damaged_at_its_start_is_read_from_its_first_record(tmp_path: Path, gzipped: bool) -> None:
    start = gzip.compress(NOTES) if gzipped else NOTES
    path = tmp_path / ("damaged.warc.gz" if gzipped else "damaged.warc")
    path.write_bytes(start + b"".join(record_bytes(url(n), page(n), gzip=gzipped) for n in range(2)))
    items, summary = read(path)
    assert urls(items) == [url(0), url(1)] and summary.records == {"response": 2}
    assert summary.errors == {"bad record": 1, "skipped": 1}
    assert summary.problems[1].reason == f"{len(start):,} bytes skipped to the next record"


@pytest.mark.parametrize("gzipped", [False, True])
def test_arc_files_are_read_as_warc_records(tmp_path: Path, gzipped: bool) -> None:
    path = tmp_path / ("crawl.arc.gz" if gzipped else "crawl.arc")
    path.write_bytes(arc_bytes([(url(n), page(n)) for n in range(2)], gzip=gzipped))
    items, summary = read(path)
    assert urls(items) == [url(0), url(1)] and all(item["main_text"] for item in items)
    assert summary.records == {"warcinfo": 1, "response": 2} and summary.errors == {}
    same = write_warc(tmp_path / "same.warc", [("response", url(0), page(0), {})])
    assert items[0]["main_text"] == read(same)[0][0]["main_text"]  # as the page in a WARC


def test_a_target_uri_with_spaces_is_mended_without_a_word(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = write_warc(
        tmp_path / "spaces.warc.gz", [("response", "http://archive.test/a page.html", page(0), {})]
    )
    with caplog.at_level(logging.DEBUG):
        items, summary = read(path)
    assert urls(items) == ["http://archive.test/a%20page.html"] and summary.errors == {}
    assert [record.getMessage() for record in caplog.records if record.name.startswith("warcio")] == []
