#!/usr/bin/env python3
"""Archive mode: the WARC readers compared, records per second, the Dask speed-up, and the
memory of a worker on a 1 GB WARC file.

    python -m benchmarks.speed.warc build      # the test archives, in --work (default /tmp/mainc-warc-bench)
    python -m benchmarks.speed.warc readers    # FastWARC against warcio: speed, memory, bad shapes
    python -m benchmarks.speed.warc rate       # records/s on one core, without and with extraction
    python -m benchmarks.speed.warc dask       # the Dask job on 1 and on 2 local workers
    python -m benchmarks.speed.warc memory     # one Dask task's memory over a 1 GB WARC file
    python -m benchmarks.speed.warc cost       # a day and a year of CC-NEWS, from dask and memory
    python -m benchmarks.speed.warc shapes     # the body shapes of readers only (seconds)
    python -m benchmarks.speed.warc all        # build, readers, rate, dask, memory, cost

The archives are written with warcio (the reader the archive mode uses): the development
pages with their URLs (``shared/datasets``: scrapinghub, newspaper4k, zh_news,
trafilatura_eval, wcxb, dates; 3,300 pages), a request and a response record each, as
``dev.warc.gz`` (one gzip member a record) and ``dev.warc``; and the bundled site,
``site.warc.gz``. The 1 GB file repeats the development pages under new URLs until its
compressed size passes 1 GB; it stays in ``--work`` (never in the repository).

``readers`` needs FastWARC (``pip install fastwarc``; not a dependency of the package).
Every measurement runs in a fresh interpreter, whose peak resident memory is read from
``getrusage``; times are wall-clock, the best of ``--repeat`` runs, on a machine that may
be shared (ratios within one run are the figures to trust). Results are printed as
Markdown and saved as JSON in ``--work``.
"""

from __future__ import annotations

import argparse
import gzip
import json
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from benchmarks import ROOT
from benchmarks.devsets import DATASETS_DIR
from tests import warcs  # the tests' WARC writing (warcio)

SETS = ("scrapinghub", "newspaper4k", "zh_news", "trafilatura_eval", "wcxb", "dates")
SITE = ROOT / "example_project" / "site"
GIGABYTE = 1_000_000_000


def dev_pages() -> Iterator[tuple[str, bytes]]:
    """``(url, raw HTML)`` of every development page that has a URL."""
    for name in SETS:
        folder = DATASETS_DIR / name
        gold = json.loads((folder / "gold.json").read_text(encoding="utf-8"))
        for key, entry in sorted(gold.items()):
            url = entry.get("url") if isinstance(entry, dict) else None
            path = folder / "html" / f"{key}.html"
            packed = folder / "html" / f"{key}.html.gz"
            if not url or not (path.exists() or packed.exists()):
                continue
            yield url, path.read_bytes() if path.exists() else gzip.decompress(packed.read_bytes())


def site_pages() -> Iterator[tuple[str, bytes]]:
    for path in sorted(SITE.rglob("*.html")):
        yield f"http://127.0.0.1:8000/{path.relative_to(SITE).as_posix()}", path.read_bytes()


def write_archive(path: Path, pages: Iterator[tuple[str, bytes]], gzipped: bool = True, stop: int = 0) -> int:
    """Write a request and a response record per page (``tests/warcs.py``); returns the
    pages written. With ``stop``, the pages repeat (under new URLs) until the file has
    ``stop`` bytes."""
    from warcio.warcwriter import WARCWriter

    pages_list = list(pages)
    written = 0
    with path.open("wb") as stream:
        writer = WARCWriter(stream, gzip=gzipped)
        round_ = 0
        while True:
            for url, body in pages_list:
                page_url = url if not round_ else f"{url}{'&' if '?' in url else '?'}copy={round_}"
                warcs.write(writer, warcs.request_record(writer, page_url))
                warcs.write(writer, warcs.response_record(writer, page_url, body))
                written += 1
                if stop and stream.tell() >= stop:
                    return written
            round_ += 1
            if not stop:
                return written


def build(work: Path, big: bool) -> dict[str, Any]:
    work.mkdir(parents=True, exist_ok=True)
    made = {
        "dev.warc.gz": write_archive(work / "dev.warc.gz", dev_pages()),
        "dev.warc": write_archive(work / "dev.warc", dev_pages(), gzipped=False),
        "site.warc.gz": write_archive(work / "site.warc.gz", site_pages()),
    }
    if big and not (work / "big.warc.gz").exists():
        made["big.warc.gz"] = write_archive(work / "big.warc.gz", dev_pages(), stop=GIGABYTE)
    sizes = {name: (work / name).stat().st_size for name in made}
    print("| file | pages | bytes |\n| --- | ---: | ---: |")
    for name, pages in made.items():
        print(f"| {name} | {pages:,} | {sizes[name]:,} |")
    return {"pages": made, "bytes": sizes}


#: Run in a fresh interpreter: read every record of a file with one reader (the payload of
#: each, as a crawler would take it), print records, payload bytes, seconds, peak RSS (MB).
READ_CODE = """
import resource, sys, time
reader, path = sys.argv[1], sys.argv[2]
started = time.perf_counter(); records = size = 0
if reader == "fastwarc":
    from fastwarc.warc import ArchiveIterator
    for record in ArchiveIterator(path):
        records += 1; size += len(record.reader.read())
elif reader == "warcio":
    from warcio.archiveiterator import ArchiveIterator
    with open(path, "rb") as stream:
        for record in ArchiveIterator(stream):
            records += 1; size += len(record.content_stream().read())
else:  # the archive mode's reader: damage checks, bodies of possible pages only
    from scrapy_mainc.archive import read_records
    with open(path, "rb") as stream:
        for entry in read_records(stream, 10 * 1024 * 1024):
            records += 1; size += len(getattr(entry, "body", b""))
seconds = time.perf_counter() - started
print(records, size, seconds, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)
"""


def _run(code: str, *args: str) -> list[float]:
    done = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, check=True)
    return [float(value) for value in done.stdout.split()]


def readers(work: Path, repeat: int) -> dict[str, Any]:
    results: dict[str, Any] = {}
    print("| reader | file | records | records/s | peak RSS (MB) |\n| --- | --- | ---: | ---: | ---: |")
    for name in ("dev.warc.gz", "dev.warc"):
        for reader in ("fastwarc", "warcio", "mainc"):
            runs = [_run(READ_CODE, reader, str(work / name)) for _ in range(repeat)]
            records, _, seconds, memory = min(runs, key=lambda run: run[2])
            results[f"{reader} {name}"] = {"records": records, "seconds": seconds, "rss_mb": memory}
            print(f"| {reader} | {name} | {records:,.0f} | {records / seconds:,.0f} | {memory:.0f} |")
    results["shapes"] = shapes(work)
    return results


def _chunked(payload: bytes) -> bytes:
    return b"%x\r\n%s\r\n0\r\n\r\n" % (len(payload), payload)


def shapes(work: Path) -> dict[str, dict[str, str]]:
    """What each reader does with the shapes warcio and FastWARC differ on: a response of
    that shape, then two good ones."""
    body = (SITE / "en" / "harbour-bridge-reopens.html").read_bytes()
    html, chunked, gzipped = (
        ("Content-Type", "text/html"),
        ("Transfer-Encoding", "chunked"),
        ("Content-Encoding", "gzip"),
    )
    cases = {
        "chunked + gzip body": ((html, chunked, gzipped), _chunked(gzip.compress(body))),
        "chunked body": ((html, chunked), _chunked(body)),
        "gzip body": ((html, gzipped), gzip.compress(body)),
        "chunked header, body stored de-chunked": ((html, chunked), body),
    }
    found: dict[str, dict[str, str]] = {}
    for case, (headers, payload) in cases.items():
        path = warcs.write_warc(
            work / "shape.warc.gz",
            [
                ("response", "http://a.test/1", payload, {"headers": headers}),
                ("response", "http://a.test/2", body, {}),
                ("response", "http://a.test/3", body, {}),
            ],
        )
        found[case] = {mode: _fastwarc_shape(path, mode, body) for mode in ("none", "transfer", "all")}
        found[case]["warcio"] = _warcio_shape(path, body)
    print("\n| shape | FastWARC auto_decode=none | =transfer | =all | warcio content_stream() |")
    print("| --- | --- | --- | --- | --- |")
    for case, row in found.items():
        print(f"| {case} | {row['none']} | {row['transfer']} | {row['all']} | {row['warcio']} |")
    return found


def _fastwarc_shape(path: Path, mode: str, body: bytes) -> str:
    try:
        from fastwarc.warc import ArchiveIterator
    except ImportError:
        return "(FastWARC not installed)"
    got = []
    try:
        for record in ArchiveIterator(str(path), auto_decode=mode):  # type: ignore[arg-type]
            got.append(record.reader.read() == body)
    except OSError as error:
        return f"{len(got)} of 3 records, then OSError: {str(error)[:40]}"
    return f"{len(got)} of 3 records, {sum(got)} decoded"


def _warcio_shape(path: Path, body: bytes) -> str:
    from warcio.archiveiterator import ArchiveIterator

    with path.open("rb") as stream:
        got = [record.content_stream().read() == body for record in ArchiveIterator(stream)]
    return f"{len(got)} of 3 records, {sum(got)} decoded"


#: Run in a fresh interpreter: the archive mode over a file on one core (inline
#: extraction), without (the items' fields left out: reading and decoding) or with it.
RATE_CODE = """
import resource, sys, time
from scrapy_mainc.archive import FileSummary, items_from_files
from scrapy_mainc.archive._items import ArchiveExtractor
path, extract = sys.argv[1], sys.argv[2] == "extract"
settings = {"MAINC_WORKER_MODE": "inline"}
if not extract:  # everything but the extraction: the pool answers at once
    import scrapy_mainc.archive._items as items
    from scrapy_mainc.items._workers import ExtractionOutcome
    from scrapy_mainc.core._types import Extraction
    class NoExtraction:
        def __init__(self, *args, **kwargs): pass
        def submit(self, task):
            from concurrent.futures import Future
            future = Future()
            future.set_result(ExtractionOutcome(Extraction(algorithm="auto")))
            return future
        def close(self, wait=0): pass
    items.WorkerPool = NoExtraction
summary = FileSummary(path)
started = time.perf_counter()
count = sum(1 for _ in items_from_files([path], settings, summary))
seconds = time.perf_counter() - started
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(sum(summary.records.values()), count, seconds, peak)
"""


def rate(work: Path, repeat: int) -> dict[str, Any]:
    results: dict[str, Any] = {}
    print("| run (one core) | records | pages | seconds | records/s | pages/s | peak RSS (MB) |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for mode in ("read", "extract"):
        runs = [_run(RATE_CODE, str(work / "dev.warc.gz"), mode) for _ in range(repeat)]
        records, pages, seconds, memory = min(runs, key=lambda run: run[2])
        results[mode] = {"records": records, "pages": pages, "seconds": seconds, "rss_mb": memory}
        label = "records to pages, no extraction" if mode == "read" else "records to items (extraction)"
        print(
            f"| {label} | {records:,.0f} | {pages:,.0f} | {seconds:.1f} | {records / seconds:,.0f} "
            f"| {pages / seconds:,.1f} | {memory:.0f} |"
        )
    return results


#: Run in a fresh interpreter: the Dask job over ``files`` on a local cluster of ``workers``.
DASK_CODE = """
import sys, time
from pathlib import Path
from dask.distributed import Client, LocalCluster
from scrapy_mainc.archive import OfflineConfig, run_job
workers, parts, files = int(sys.argv[1]), Path(sys.argv[2]), [Path(name) for name in sys.argv[3:]]
config = OfflineConfig.from_settings({})
with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
    with Client(cluster) as client:
        client.run(lambda: __import__("scrapy_mainc.archive._items"))  # imports before the clock
        started = time.perf_counter()
        summary = run_job(client, files, parts, config, stream=open("/dev/null", "w"))
        print(summary.items, time.perf_counter() - started)
"""


def dask_speedup(work: Path, repeat: int, copies: int) -> dict[str, Any]:
    import shutil

    files = []
    for number in range(copies):
        copy = work / f"dask-{number}.warc.gz"
        if not copy.exists():
            shutil.copyfile(work / "dev.warc.gz", copy)
        files.append(str(copy))
    results: dict[str, Any] = {}
    print("| Dask workers | files | items | seconds | items/s |\n| ---: | ---: | ---: | ---: | ---: |")
    for workers in (1, 2):
        runs = []
        for _ in range(repeat):
            parts = work / f"parts-{workers}"
            shutil.rmtree(parts, ignore_errors=True)
            runs.append(_run(DASK_CODE, str(workers), str(parts), *files))
        items, seconds = min(runs, key=lambda run: run[1])
        results[workers] = {"items": items, "seconds": seconds}
        print(f"| {workers} | {copies} | {items:,.0f} | {seconds:.1f} | {items / seconds:.1f} |")
    speedup = results[1]["seconds"] / results[2]["seconds"]
    print(f"\nspeed-up 1 -> 2 workers: {speedup:.2f}")
    results["speedup"] = speedup
    return results


#: Run in a fresh interpreter: one Dask task's function over the 1 GB file, its resident
#: memory sampled every second (from /proc) by a thread.
MEMORY_CODE = """
import resource, sys, threading, time
from pathlib import Path
from scrapy_mainc.archive import OfflineConfig
from scrapy_mainc.archive._job import read_file
samples = []
def sample():
    while True:
        with open("/proc/self/status") as status:
            rss = next(int(line.split()[1]) for line in status if line.startswith("VmRSS"))
        samples.append(rss / 1024)
        time.sleep(1)
threading.Thread(target=sample, daemon=True).start()
started = time.perf_counter()
summary = read_file(sys.argv[1], sys.argv[2], OfflineConfig.from_settings({}))
seconds = time.perf_counter() - started
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
tenth = samples[len(samples) // 10] if samples else 0
print(sum(summary.records.values()), summary.items, seconds, peak, tenth, samples[-1] if samples else 0)
"""


def memory(work: Path) -> dict[str, Any]:
    big = work / "big.warc.gz"
    if not big.exists():
        write_archive(big, dev_pages(), stop=GIGABYTE)
    records, items, seconds, peak, tenth, last = _run(MEMORY_CODE, str(big), str(work / "big.jsonl"))
    size = big.stat().st_size
    result = {
        "bytes": size,
        "records": records,
        "items": items,
        "seconds": seconds,
        "peak_rss_mb": peak,
        "rss_at_10_percent_mb": tenth,
        "rss_at_end_mb": last,
    }
    print("| file | records | items | seconds | peak RSS (MB) | RSS at 10% of the run | RSS at its end |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    print(
        f"| big.warc.gz ({size / 1e9:.2f} GB) | {records:,.0f} | {items:,.0f} | {seconds:.0f} | {peak:.0f} "
        f"| {tenth:.0f} | {last:.0f} |"
    )
    day = 100 * seconds / 3600
    print(
        f"\nA day of CC-NEWS (100 files of 1 GB) at this rate: {day:.1f} core-hours, "
        f"{day / 2:.1f} hours on this 2-core machine; a year: {365 * day:,.0f} core-hours"
    )
    result["day_core_hours"] = day
    return result


def cost(results: dict[str, Any]) -> dict[str, float]:
    """A gigabyte, a day (100 GB) and a year of CC-NEWS at the rates measured: the pages of
    a gigabyte from ``memory``, the pages/s of one and two Dask workers from ``dask``
    (results.json). On paper: CC-NEWS's pages are assumed to cost what these do."""
    pages = float(results["memory"]["items"])
    one, two = (results["dask"][key] for key in ("1", "2"))  # JSON keys are strings
    rate_one, rate_two = one["items"] / one["seconds"], two["items"] / two["seconds"]
    gigabyte_hours = pages / rate_one / 3600
    rows = {
        "gigabyte_core_hours": gigabyte_hours,
        "gigabyte_seconds_two_workers": pages / rate_two,
        "day_core_hours": 100 * gigabyte_hours,
        "day_hours_two_workers": 100 * pages / rate_two / 3600,
        "year_core_hours": 36_500 * gigabyte_hours,
        "year_days_two_workers": 36_500 * pages / rate_two / 86_400,
        "year_pages_millions": 36_500 * pages / 1e6,
    }
    print(
        f"a gigabyte: {pages:,.0f} pages at {rate_one:.1f} pages/s (one Dask worker): "
        f"{gigabyte_hours:.3f} core-hours; "
        f"{rows['gigabyte_seconds_two_workers']:.0f} s at {rate_two:.1f} pages/s"
    )
    print(
        f"a day (100 GB): {rows['day_core_hours']:.1f} core-hours; "
        f"{rows['day_hours_two_workers']:.1f} hours on 2 workers"
    )
    print(
        f"a year (36,500 GB, {rows['year_pages_millions']:,.0f} million pages): "
        f"{rows['year_core_hours']:,.0f} core-hours; {rows['year_days_two_workers']:.0f} days on 2 workers; "
        f"{rows['year_core_hours'] / 160:.0f} hours on 160 cores"
    )
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "step", choices=("build", "readers", "shapes", "rate", "dask", "memory", "cost", "all")
    )
    parser.add_argument("--work", type=Path, default=Path("/tmp/mainc-warc-bench"))
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--copies", type=int, default=4, help="files of the Dask job (copies of dev.warc.gz)")
    args = parser.parse_args()
    args.work.mkdir(parents=True, exist_ok=True)
    results_path = args.work / "results.json"
    results = json.loads(results_path.read_text()) if results_path.exists() else {}
    steps = ("build", "readers", "rate", "dask", "memory", "cost") if args.step == "all" else (args.step,)
    for step in steps:
        print(f"\n## {step} ({time.strftime('%Y-%m-%d %H:%M')})\n", flush=True)
        if step == "build":
            results[step] = build(args.work, big=args.step == "all")
        elif step == "readers":
            results[step] = readers(args.work, args.repeat)
        elif step == "rate":
            results[step] = rate(args.work, args.repeat)
        elif step == "shapes":
            results[step] = shapes(args.work)
        elif step == "dask":
            results[step] = dask_speedup(args.work, args.repeat, args.copies)
        elif step == "memory":
            results[step] = memory(args.work)
        else:
            results[step] = cost(results)
        results_path.write_text(json.dumps(results, indent=1, default=str), encoding="utf-8")


if __name__ == "__main__":
    main()
