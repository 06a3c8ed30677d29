"""Peak memory of ``extract`` per input megabyte, each page in a fresh child process.

    .venv/bin/python -m benchmarks.speed.memory                     # dev pages and synthetic shapes
    .venv/bin/python -m benchmarks.speed.memory --largest 3 --sizes 1 4 --shapes article "br siblings"
    .venv/bin/python -m benchmarks.speed.memory --tracemalloc       # Python objects' share, too

A child process imports the package, warms it up on a small page, reads one page from a
file (as bytes: the caller's copy, not counted), takes its resident set size, runs
``extract`` (``--algorithm``, auto by default; metadata on) and takes its peak resident
set size: the difference is
what the extraction added at its peak, decoding, parsing, the statistics, the algorithm,
rendering and freeing included. On Linux the peak is ``VmHWM``, reset before the
extraction (``/proc/self/clear_refs``), so that the imports' own peak does not hide a
smaller one; elsewhere ``resource.getrusage(RUSAGE_SELF).ru_maxrss``, peak since start. With
``--tracemalloc`` a second child measures the peak of Python allocations alone
(``tracemalloc``; libxml2's tree is allocated outside Python and is not in it).

Pages: the ``--largest`` largest pages of each development dataset (``html/*.html`` under
``--datasets``), and the synthetic shapes of ``benchmarks/speed/scaling.py`` at ``--sizes``
megabytes. Prints one markdown table per kind with the peak in MB and in MB per input MB.
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks import ROOT
from benchmarks.devsets import DATASETS_DIR
from benchmarks.speed.scaling import SHAPES, page_of, shape_page

DEFAULT_DATASETS = [DATASETS_DIR / name for name in ("scrapinghub", "zh_news", "newspaper4k")]
DEFAULT_SHAPES = ("article", "br siblings", "empty leaves", "link list", "one text node", "comment blocks")
KB_PER_MB = 1024  # ru_maxrss is in kilobytes on Linux


def _memory_kb(field: str) -> int:
    """``VmRSS`` or ``VmHWM`` of this process in kB (Linux), else the peak from getrusage."""
    try:
        status = Path("/proc/self/status").read_text()
    except OSError:
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return int(status.split(f"{field}:", 1)[1].split()[0])


def _reset_peak() -> None:
    """Make the peak resident set size the current one (Linux 4.0 and later)."""
    try:
        Path("/proc/self/clear_refs").write_text("5")
    except OSError:
        pass


def child(path: str, traced: bool, algorithm: str) -> None:
    """Measure one extraction of the page at ``path``; print the figures as JSON."""
    from scrapy_mainc import extract

    extract(b"<html><body><article><p>Warm up, with a few words.</p></article></body></html>")
    page = Path(path).read_bytes()
    if traced:
        import tracemalloc

        tracemalloc.start()
    _reset_peak()
    before = _memory_kb("VmRSS")
    started = time.perf_counter()
    result = extract(page, algorithm=algorithm)
    seconds = time.perf_counter() - started
    peak = _memory_kb("VmHWM")
    python_peak = tracemalloc.get_traced_memory()[1] / 1e6 if traced else None
    figures = {"rss": (peak - before) / KB_PER_MB, "python": python_peak, "seconds": seconds}
    print(json.dumps({**figures, "bytes": len(page), "reason": result.reason}))


def measure(path: Path, traced: bool, algorithm: str = "auto") -> dict[str, float | str | None]:
    """The figures of one page, measured in a fresh interpreter."""
    command = [sys.executable, "-m", __spec__.name, "--child", str(path), "--algorithm", algorithm]
    command += ["--traced"] if traced else []
    output = subprocess.run(command, check=True, capture_output=True, text=True, cwd=ROOT).stdout
    figures: dict[str, float | str | None] = json.loads(output.splitlines()[-1])
    return figures


def _row(label: str, path: Path, traced: bool, algorithm: str) -> tuple[str, float]:
    figures = measure(path, traced=False, algorithm=algorithm)
    megabytes = float(figures["bytes"] or 0) / 1e6
    rss = float(figures["rss"] or 0)
    cells = [label, f"{megabytes:.2f}", f"{rss:.0f}", f"{rss / megabytes:.0f}", f"{figures['seconds']:.2f}"]
    if traced:
        cells.append(f"{measure(path, traced=True, algorithm=algorithm)['python']:.0f}")
    if figures["reason"]:
        cells[0] += f" ({figures['reason']})"
    return "| " + " | ".join(cells) + " |", rss / megabytes


def _header(first: str, traced: bool) -> str:
    columns = [first, "input MB", "peak MB", "MB per input MB", "seconds"]
    columns += ["Python objects, peak MB"] if traced else []
    return "| " + " | ".join(columns) + " |\n|" + "---|" * len(columns)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--datasets", nargs="*", type=Path, default=DEFAULT_DATASETS)
    parser.add_argument("--largest", type=int, default=5, help="pages per dataset, the largest first")
    parser.add_argument("--sizes", nargs="*", type=float, default=[1, 4, 10], help="synthetic sizes, MB")
    parser.add_argument(
        "--shapes", nargs="*", default=list(DEFAULT_SHAPES), help="'article' or a scaling shape"
    )
    parser.add_argument("--tracemalloc", action="store_true", help="also measure Python allocations")
    parser.add_argument("--algorithm", default="auto")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--traced", action="store_true", help=argparse.SUPPRESS)
    options = parser.parse_args(argv)
    if options.child:
        child(options.child, options.traced, options.algorithm)
        return 0
    print(_header("development page", options.tracemalloc))
    per_mb = []
    for directory in options.datasets:
        paths = sorted(directory.glob("html/*.html"), key=lambda path: path.stat().st_size, reverse=True)
        for path in paths[: options.largest]:
            row, ratio = _row(
                f"{directory.name}/{path.stem[:16]}", path, options.tracemalloc, options.algorithm
            )
            per_mb.append(ratio)
            print(row, flush=True)
    if per_mb:
        median, most = statistics.median(per_mb), max(per_mb)
        print(f"\nMB per input MB on these pages: median {median:.0f}, max {most:.0f}\n")
    print(_header("synthetic page", options.tracemalloc))
    with tempfile.TemporaryDirectory() as directory:
        for shape in options.shapes:
            for size in options.sizes:
                unknown = shape != "article" and shape not in SHAPES
                if unknown:
                    raise SystemExit(f"unknown shape {shape!r}: 'article' or one of {sorted(SHAPES)}")
                path = Path(directory) / "page.html"
                page = page_of(int(size * 1e6)) if shape == "article" else shape_page(shape, int(size * 1e6))
                path.write_bytes(page)
                label = f"{shape}, {size:g} MB"
                print(_row(label, path, options.tracemalloc, options.algorithm)[0], flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
