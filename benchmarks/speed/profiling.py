"""Where ``extract`` spends its time, stage by stage, on the development pages.

    .venv/bin/python -m benchmarks.speed.profiling stages                 # CPU ms per stage, auto + metadata
    .venv/bin/python -m benchmarks.speed.profiling stages --no-metadata --sets zh_news
    .venv/bin/python -m benchmarks.speed.profiling cprofile --sort tottime --top 40
    .venv/bin/python -m benchmarks.speed.profiling instructions           # callgrind: instructions per page
    .venv/bin/python -m benchmarks.speed.profiling instructions --parse-only  # the same for the bare parse
    .venv/bin/python -m benchmarks.speed.profiling instructions --sets wcxb --stride 15 --limit 100  # mixed
    .venv/bin/python -m benchmarks.speed.profiling floor --sets scrapinghub --limit 120  # to trafilatura fast

``stages`` runs ``extract`` (bytes in, ``url=`` as a crawl passes it) on the first
``--limit`` pages of each set in ``--sets``, ``--repeat`` passes, and times each stage
in process CPU time, exclusive of the stages nested in it (the statistics' totals are
computed lazily, by whichever stage reads one first: they are counted as "statistics"
wherever that is). The bare lxml parse of the same bytes is timed beside it, page by
page, as the floor. Each page keeps its fastest pass; the table gives each stage's mean
ms per page and its share of the extraction.

``cprofile`` prints cProfile's table for the same run (function-level detail; its
overhead inflates Python-heavy code, so read shares from ``stages``).

``instructions`` runs the extraction under ``valgrind --tool=callgrind`` twice, over the
pages and over none (imports, loading and a warm-up page alike), and prints the
difference per page: the same for the same code and pages whatever the machine's load,
so a change's effect shows in one run of each, before and after (a step of 1% is
visible; ``--parse-only`` counts the bare lxml parse of the same bytes, the floor).
``--callgrind-out FILE`` keeps the full run's profile for
``callgrind_annotate`` (and the run over no pages as ``FILE.empty``).

``floor`` puts the floors of any extraction in this design beside the whole of it and
beside trafilatura's ``fast=True`` extraction (``peers`` extra), page by page in turns, in
this thread's CPU time, each page keeping the faster of ``--repeat`` passes: decoding and
parsing the bytes; the same plus the one statistics pass every algorithm reads (the tree
walked once, each node's text measured); and ``extract`` with its defaults. The medians
and their ratios to trafilatura fast's median say how much of issue 20's budget (0.33 of
trafilatura fast) the parse and a single walk over the tree already take.
"""

from __future__ import annotations

import argparse
import cProfile
import gzip
import json
import os
import pstats
import re
import subprocess
import sys
import tempfile
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from statistics import median
from time import process_time, thread_time
from typing import Any

from lxml import etree

import scrapy_mainc._choice as choice_module
import scrapy_mainc._extract as extract_module
from benchmarks import ROOT
from benchmarks.devsets import DATASETS_DIR
from scrapy_mainc import ALGORITHMS, extract
from scrapy_mainc.algorithms import auto
from scrapy_mainc.core import _stats
from scrapy_mainc.core._decode import decode_html
from scrapy_mainc.core._dom import parse_html
from scrapy_mainc.metadata import _stage

Page = tuple[bytes, str | None]

#: (stage, module, attribute): the functions timed, by the name their caller looks them up.
STAGES: tuple[tuple[str, Any, str], ...] = (
    ("decode", extract_module, "_page_text"),
    ("checks (markup, attributes)", extract_module, "markup_reason"),
    ("checks (markup, attributes)", extract_module, "attributes_reason"),
    ("parse", extract_module, "parse_html"),
    ("head: base URL", extract_module, "_base_url"),
    ("head: evidence", extract_module, "collect_evidence"),
    ("head: titles", extract_module, "read_page_titles"),
    ("head: titles", extract_module, "find_titles"),
    ("head: JSON-LD article", extract_module, "main_article"),
    ("head: JSON-LD article", extract_module, "names_page"),
    ("prepare (repairs included)", extract_module, "prepare"),
    ("page type", extract_module, "page_type"),
    ("statistics", extract_module, "DomStats"),
    ("lang", extract_module, "_guess_lang"),
    ("headline search", extract_module, "find_headline"),
    ("auto: block regions", auto, "block_regions"),
    ("auto: block context", auto, "block_context"),
    ("auto: choose", auto, "choose"),
    ("auto: second opinion", auto, "_second_opinion"),
    ("auto: edge blocks", auto, "edge_blocks"),
    ("comments", choice_module, "without_comments"),
    ("visible title", extract_module, "visible_title"),
    ("metadata: dates", _stage, "find_dates"),
    ("metadata: authors", _stage, "find_authors"),
    ("metadata: fields", _stage, "find_fields"),
    ("metadata: shown headline", _stage, "shown_headline"),
    ("metadata: rest", extract_module, "extract_metadata"),
    ("render text", choice_module, "render_text"),
    ("render html", extract_module, "render_html"),
    ("xpath", _stats.DomStats, "xpath"),
    ("language id", extract_module, "identify_language"),
    ("article verdict", choice_module, "article_verdict"),
    ("page type: second look", choice_module, "other_than_article"),
    ("product data", extract_module, "missing_description"),
    ("release", _stats.DomStats, "release"),
    #: what is left of an extraction of a tree: mostly freeing the tree (``del document``)
    ("free the tree (and glue)", extract_module, "_extract_tree"),
)
#: The rest of ``extract``: argument checks, the result record.
REST = "rest of extract"


def load_pages(sets: list[str], limit: int, stride: int = 1) -> list[Page]:
    """The first ``limit`` pages (by id; with ``stride``, of every ``stride``-th page) of
    each set, as bytes, with their gold URLs (WCXB's gzipped pages too)."""
    pages: list[Page] = []
    for name in sets:
        gold = json.loads((DATASETS_DIR / name / "gold.json").read_text(encoding="utf-8"))
        for page_id, entry in sorted(gold.items())[::stride][:limit]:
            path = DATASETS_DIR / name / "html" / f"{page_id}.html"
            if path.exists():
                html = path.read_bytes()
            else:  # WCXB keeps its pages gzipped
                html = gzip.decompress(path.with_suffix(".html.gz").read_bytes())
            pages.append((html, entry.get("url") or None))
    return pages


class StageClock:
    """Exclusive CPU time per stage: a stage's nested stages are subtracted from it."""

    def __init__(self) -> None:
        self.spent: dict[str, float] = {}
        self._stack: list[list[float]] = []  # [started, nested] per open stage

    def wrap(self, stage: str, function: Callable[..., Any]) -> Callable[..., Any]:
        def timed(*args: Any, **kwargs: Any) -> Any:
            frame = [process_time(), 0.0]
            self._stack.append(frame)
            try:
                return function(*args, **kwargs)
            finally:
                self._stack.pop()
                total = process_time() - frame[0]
                self.spent[stage] = self.spent.get(stage, 0.0) + total - frame[1]
                if self._stack:
                    self._stack[-1][1] += total

        return timed

    def install(self) -> None:
        for stage, owner, name in STAGES:
            setattr(owner, name, self.wrap(stage, getattr(owner, name)))
        for algorithm in ALGORITHMS.values():  # frozen records: the registry holds the functions
            object.__setattr__(algorithm, "select", self.wrap(f"{algorithm.name}: rest", algorithm.select))
        lazy = [value for value in vars(_stats.DomStats).values() if hasattr(value, "attrname")]
        for prop in lazy:  # functools.cached_property: its func is called once per instance
            prop.func = self.wrap("statistics", prop.func)
        _stats.DomStats.subtree_totals = self.wrap("statistics", _stats.DomStats.subtree_totals)


def run_stages(pages: list[Page], metadata: bool, repeat: int) -> dict[str, list[float]]:
    """Per page, the fastest pass's ms of every stage, of the whole extraction, and of a
    bare parse."""
    clock = StageClock()
    clock.install()
    best: list[dict[str, float]] = [{} for _ in pages]
    for _ in range(repeat):
        for page, (html, url) in zip(best, pages):
            clock.spent.clear()
            started = process_time()
            extract(html, url=url, metadata=metadata)
            total = process_time() - started
            parse_started = process_time()
            etree.fromstring(html, etree.HTMLParser(remove_comments=True, remove_pis=True, huge_tree=True))
            parse = process_time() - parse_started
            if total < page.get("total", float("inf")):
                page.clear()
                page.update(clock.spent, total=total)
                page[REST] = total - sum(clock.spent.values())
            page["bare lxml parse"] = min(parse, page.get("bare lxml parse", float("inf")))
    stages = [stage for page in best for stage in page]
    order = [stage for stage, _, _ in STAGES]
    names = sorted(dict.fromkeys(stages), key=lambda name: order.index(name) if name in order else len(order))
    return {name: [page.get(name, 0.0) * 1000 for page in best] for name in names}


def stage_table(times: dict[str, list[float]]) -> str:
    """Each stage's mean ms over every page, and over the middle fifth of the pages by
    extraction time (the pages the median is made of; big pages weigh on the mean)."""
    count = len(times["total"])
    order = sorted(range(count), key=times["total"].__getitem__)
    middle = order[2 * count // 5 : max(3 * count // 5, 2 * count // 5 + 1)]
    total, middle_total = sum(times["total"]), sum(times["total"][page] for page in middle)
    lines = ["| stage | mean ms | share | middle fifth: ms | share |", "|---|---|---|---|---|"]
    for name, values in times.items():
        if name in ("total", "bare lxml parse"):
            continue
        middle_ms = sum(values[page] for page in middle)
        lines.append(
            f"| {name} | {sum(values) / count:.3f} | {sum(values) / total:.1%} "
            f"| {middle_ms / len(middle):.3f} | {middle_ms / middle_total:.1%} |"
        )
    lines.append(f"| **extraction** | {total / count:.3f} | 100% | {middle_total / len(middle):.3f} | 100% |")
    median = times["total"][order[count // 2]]
    parse = sorted(times["bare lxml parse"])[count // 2]
    lines.append(
        f"\n{count} pages; median extraction {median:.2f} ms, median bare lxml parse {parse:.2f} ms "
        f"({median / parse:.1f} times the parse)"
    )
    return "\n".join(lines)


def run_cprofile(pages: list[Page], metadata: bool, sort: str, top: int) -> None:
    for html, url in pages[:3]:
        extract(html, url=url, metadata=metadata)
    profiler = cProfile.Profile()
    profiler.enable()
    for html, url in pages:
        extract(html, url=url, metadata=metadata)
    profiler.disable()
    pstats.Stats(profiler).sort_stats(sort).print_stats(top)


def run_plain(pages: list[Page], metadata: bool, parse_only: bool = False) -> None:
    """A small warm-up page, then every page: extracted, or (``parse_only``) parsed by
    lxml from its bytes and freed, the floor every extraction stands on."""
    extract(b"<html><body><h1>Warm</h1><p>Up, the caches.</p></body></html>", metadata=metadata)
    for html, url in pages:
        if parse_only:
            etree.fromstring(html, etree.HTMLParser(remove_comments=True, remove_pis=True, huge_tree=True))
        else:
            extract(html, url=url, metadata=metadata)


def run_floor(pages: list[Page], repeat: int) -> str:
    """Median CPU ms of the floors, of ``extract`` and of trafilatura fast, and the ratios."""

    def parse(html: bytes, url: str | None) -> None:
        parse_html(decode_html(html).text, None)

    def walk(html: bytes, url: str | None) -> None:
        _stats.DomStats(parse_html(decode_html(html).text, None)).release()

    def whole(html: bytes, url: str | None) -> None:
        extract(html, url=url)

    runs: dict[str, Callable[[bytes, str | None], None]] = {
        "decode and parse": parse,
        "decode, parse and the statistics pass": walk,
        "extract (auto, metadata on)": whole,
    }
    try:
        import trafilatura  # the peers extra
    except ImportError:
        trafilatura = None
    else:

        def peer(html: bytes, url: str | None) -> None:
            trafilatura.extract(decode_html(html).text, fast=True, include_comments=False)

        runs["trafilatura fast"] = peer
    for run in runs.values():
        run(*pages[0])  # imports and caches
    best = {name: [float("inf")] * len(pages) for name in runs}
    for _ in range(repeat):
        for index, (html, url) in enumerate(pages):
            for name, run in runs.items():
                started = thread_time()
                run(html, url)
                best[name][index] = min(best[name][index], (thread_time() - started) * 1000)
    medians = {name: median(times) for name, times in best.items()}
    peer_median = medians.get("trafilatura fast")
    lines = ["| | median CPU ms | ratio to trafilatura fast |", "|---|---:|---:|"]
    for name, value in medians.items():
        ratio = f"{value / peer_median:.3f}" if peer_median else "(peers extra not installed)"
        lines.append(f"| {name} | {value:.2f} | {ratio} |")
    return "\n".join(lines) + f"\n\n{len(pages)} pages, fastest of {repeat} passes each."


#: The environment that keeps numerical libraries to the calling thread.
ONE_THREAD = {"OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}
_TOTAL_RE = re.compile(r"(?:summary|totals):\s*([\d,]+)")


def callgrind_instructions(arguments: list[str], out_file: Path) -> int:
    command = [
        "valgrind",
        "--tool=callgrind",
        f"--callgrind-out-file={out_file}",
        sys.executable,
        "-m",
        __spec__.name,
        "plain",
        *arguments,
    ]
    # a fixed hash seed: set and dict orders, and so the instructions, are the same each run;
    # one BLAS thread: numpy's (imported by datasketch) would otherwise spin beside the
    # extraction for as long as the scheduler lets them, 1.5 G instructions a run, give or take
    # tens of millions
    environment = {**os.environ, "PYTHONHASHSEED": "0", **ONE_THREAD}
    result = subprocess.run(command, capture_output=True, text=True, check=True, env=environment, cwd=ROOT)
    match = _TOTAL_RE.search(out_file.read_text(errors="replace"))
    if match is None:
        raise SystemExit(f"no instruction total in {out_file}:\n{result.stderr[-2000:]}")
    return int(match.group(1).replace(",", ""))


def count_instructions(
    sets: list[str], limit: int, flags: list[str], keep: Path | None = None
) -> tuple[int, int]:
    """callgrind's instruction totals of the extraction of the first ``limit`` pages of each
    of ``sets``, and of the same run over no pages (imports, loading and warm-up):
    ``flags`` are ``plain``'s (``--no-metadata``, ``--parse-only``); ``keep`` keeps the
    profiles (the full run's there, the empty run's beside it as ``.empty``). The two runs
    go side by side: each one's count is its own, whatever runs beside it."""
    common = ["--sets", *sets, "--limit"]
    with tempfile.TemporaryDirectory() as folder, ThreadPoolExecutor(2) as pool:
        full_out = keep or Path(folder) / "full.out"
        empty_out = full_out.with_suffix(".empty") if keep else Path(folder) / "empty.out"
        full = pool.submit(callgrind_instructions, [*common, str(limit), *flags], full_out)
        empty = pool.submit(callgrind_instructions, [*common, "0", *flags], empty_out)
        return full.result(), empty.result()


def run_instructions(args: argparse.Namespace, pages: int) -> None:
    flags = (["--no-metadata"] if args.no_metadata else []) + (["--parse-only"] if args.parse_only else [])
    flags += ["--stride", str(args.stride)] if args.stride != 1 else []
    keep = Path(args.callgrind_out) if args.callgrind_out else None
    full, empty = count_instructions(args.sets, args.limit, flags, keep)
    print(
        f"{pages} pages ({', '.join(args.sets)}, first {args.limit} of each"
        + (f", every {args.stride}th" if args.stride != 1 else "")
        + "): "
        f"{(full - empty) / pages / 1e6:.2f} M instructions per page "
        f"({full - empty:,} in all; {empty:,} for imports, loading and warm-up)"
    )


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("mode", choices=("stages", "cprofile", "instructions", "plain", "floor"))
    parser.add_argument("--sets", nargs="+", default=["scrapinghub", "zh_news"])
    parser.add_argument("--limit", type=int, default=60, help="pages of each set (first by id)")
    parser.add_argument(
        "--stride", type=int, default=1, help="every N-th page by id (a set's kinds of page mixed)"
    )
    parser.add_argument("--repeat", type=int, default=3, help="stages, floor: passes (fastest counts)")
    parser.add_argument("--no-metadata", action="store_true", help="metadata=False")
    parser.add_argument("--parse-only", action="store_true", help="instructions: the bare lxml parse")
    parser.add_argument("--sort", default="cumulative", help="cprofile: pstats sort key")
    parser.add_argument("--top", type=int, default=50, help="cprofile: rows")
    parser.add_argument("--callgrind-out", help="instructions: keep the full run's profile here")
    args = parser.parse_args()
    pages = load_pages(args.sets, args.limit, args.stride)
    metadata = not args.no_metadata
    if args.mode == "stages":
        print(stage_table(run_stages(pages, metadata, args.repeat)))
    elif args.mode == "cprofile":
        run_cprofile(pages, metadata, args.sort, args.top)
    elif args.mode == "plain":
        run_plain(pages, metadata, args.parse_only)
    elif args.mode == "floor":
        print(run_floor(pages, args.repeat))
    else:
        run_instructions(args, len(pages))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
