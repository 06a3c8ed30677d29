"""The quality gate: every development set scored as its benchmark scores it, against a
floor pinned in ``benchmarks/gate_floors.json``; and the speed gate: callgrind's
instructions per page against a pinned budget. CI runs both (``.ci/run``).

    python3 scripts/dev.py gate                     # every set against its floor (a minute)
    python3 scripts/dev.py gate --algorithm wlr     # another algorithm against the same floors
    python3 scripts/dev.py gate --speed             # instructions per page against the budget
    python3 scripts/dev.py gate --update            # pin today's figures and floors (deliberately)
    python3 scripts/dev.py gate --speed --update    # pin today's instructions and budget

The sets (``../shared/datasets``, as the benchmarks find them: :mod:`benchmarks.devsets`),
each with the figure its benchmark reports (content only, as the benchmarks run ours):

- scrapinghub, zh_news: F1 of 4-gram shingles, precision and recall averaged over the
  pages (``python3 scripts/dev.py bench``, the README's first table);
- newspaper4k: the mean of the pages' own F1 (the same table's figure for that set);
- trafilatura_eval: snippet F1, the snippets pooled over the set (the same table);
- wcxb: the mean word F1 of ``python3 scripts/dev.py bench-wcxb`` (its "all" row);
- dates: the share of pages whose publication day is the gold's (``bench-dates``, the
  README's metadata table), with the metadata stage on, as a crawl runs it.

A set under its floor fails the gate: it names each such set with its figure and floor
and exits 1; missing sets (no ``../shared`` beside the checkout) exit 2. The scores are
deterministic, so a floor a little under today's figure (``FLOOR_MARGIN``) cannot flake:
a change that moves a figure below it either is a regression or moves the floor in the
same commit, with ``--update`` (which writes every figure and the floor under it) or by
hand. The speed gate counts the instructions of ``extract`` (metadata on) on the first
``SPEED_PAGES`` scrapinghub pages under ``valgrind --tool=callgrind``, less a run over no
pages (imports, loading, warm-up), as ``python -m benchmarks.speed.profiling
instructions`` counts them; the budget is ``SPEED_MARGIN`` above the count pinned with
``--speed --update``.
"""

from __future__ import annotations

import argparse
import json
import math
import shutil
import sys
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from time import perf_counter

from benchmarks import ROOT
from benchmarks.devsets import DATASETS_DIR, DATASETS_SEARCH, ours
from benchmarks.quality import dates, wcxb
from benchmarks.speed.profiling import count_instructions
from benchmarks.wcxb_set import load_pages
from scrapy_mainc import ALGORITHMS
from scrapy_mainc.evaluation._evaluate import Report, evaluate, load_dataset

FLOORS = ROOT / "benchmarks" / "gate_floors.json"
#: A floor is today's figure less this, rounded down to three places.
FLOOR_MARGIN = 0.003
#: The budget of instructions per page is today's count times this, rounded up to 0.1 M.
SPEED_MARGIN = 1.02
#: The speed gate's pages: the first of scrapinghub by id (``profiling.py --limit``).
SPEED_SET, SPEED_PAGES = "scrapinghub", 30
#: WCXB is scored in this many parts, so that two processes share its pages.
WCXB_PARTS = 2
#: What the floors file says of itself.
ABOUT = (
    "Pinned by python3 scripts/dev.py gate --update (the sets: figure and floor) and gate --speed "
    "--update (instructions per page and budget) from today's figures, or edited by hand when a change "
    "moves a figure on purpose, in the same commit: docs/development.md, 'The gate'."
)


@dataclass(frozen=True, slots=True)
class Figure:
    """One set's figure (or a part of WCXB's: the sum and count of its page scores)."""

    name: str
    metric: str
    value: float
    pages: int


def _article_set(figure: Callable[[Report], float], metric: str) -> Callable[..., Figure]:
    def score(name: str, datasets: Path, algorithm: str, part: int) -> Figure:
        pages = load_dataset(datasets / name)
        report = evaluate(algorithm, ours(algorithm), pages)
        return Figure(name, metric, figure(report), len(pages))

    return score


def _wcxb(name: str, datasets: Path, algorithm: str, part: int) -> Figure:
    """The sum of the word F1 of this part's pages (their mean is the set's figure)."""
    pages = load_pages(datasets / name)[part::WCXB_PARTS]
    run = ours(algorithm)
    scores = [wcxb.score(page, run(page.html(datasets / name), page.url), 0.0) for page in pages]
    return Figure(name, "word F1", math.fsum(score.words.f1 for score in scores), len(pages))


def _dates(name: str, datasets: Path, algorithm: str, part: int) -> Figure:
    pages = dates.dates_pages(datasets)
    accuracy, _, _ = dates.score(dates.ours_with(algorithm), pages)
    return Figure(name, "date accuracy", accuracy, len(pages))


#: Every set the gate scores, the largest first (the order the processes take them in).
SETS: dict[str, Callable[..., Figure]] = {
    "wcxb": _wcxb,
    "dates": _dates,
    "trafilatura_eval": _article_set(lambda report: report.summary.f1, "snippet F1"),
    "newspaper4k": _article_set(lambda report: report.mean_page_f1, "mean page F1"),
    "scrapinghub": _article_set(lambda report: report.summary.f1, "F1"),
    "zh_news": _article_set(lambda report: report.summary.f1, "F1"),
}


def _run(task: tuple[str, Path, str, int]) -> Figure:
    name, datasets, algorithm, part = task
    return SETS[name](name, datasets, algorithm, part)


def measure(datasets: Path, algorithm: str, jobs: int) -> dict[str, Figure]:
    """Every set's figure, the sets shared among ``jobs`` processes."""
    tasks = [
        (name, datasets, algorithm, part)
        for name in SETS
        for part in range(WCXB_PARTS if name == "wcxb" else 1)
    ]
    if jobs > 1:
        with ProcessPoolExecutor(jobs) as pool:
            parts = list(pool.map(_run, tasks))
    else:
        parts = [_run(task) for task in tasks]
    return {name: _combined([part for part in parts if part.name == name]) for name in SETS}


def _combined(parts: list[Figure]) -> Figure:
    """A set's figure from its parts: WCXB's sums of page scores made a mean."""
    if len(parts) == 1:
        return parts[0]
    pages = sum(part.pages for part in parts)
    return Figure(parts[0].name, parts[0].metric, math.fsum(part.value for part in parts) / pages, pages)


def missing_sets(datasets: Path, names: list[str]) -> list[str]:
    """The sets of ``names`` that have no ``gold.json`` under ``datasets``."""
    return [name for name in names if not (datasets / name / "gold.json").is_file()]


def below_floor(figures: dict[str, Figure], floors: dict[str, float]) -> list[str]:
    """``set: metric figure < floor`` for every set under its floor (a set without a
    floor fails too: a new set is pinned when it is added)."""
    failures = []
    for name, figure in figures.items():
        floor = floors.get(name)
        if floor is None:
            failures.append(f"{name}: {figure.metric} {figure.value:.4f}, no floor pinned")
        elif figure.value < floor:
            failures.append(f"{name}: {figure.metric} {figure.value:.4f} < floor {floor:.3f}")
    return failures


def floor_under(value: float) -> float:
    """The floor pinned under a figure: ``FLOOR_MARGIN`` less, rounded down to 0.001."""
    return math.floor(round((value - FLOOR_MARGIN) * 1000, 6)) / 1000


def budget_over(instructions: int) -> int:
    """The budget pinned over a count of instructions per page: ``SPEED_MARGIN`` more,
    rounded up to 0.1 M."""
    return math.ceil(instructions * SPEED_MARGIN / 100_000) * 100_000


def read_floors(path: Path) -> dict[str, object]:
    return json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}


def write_floors(path: Path, pinned: dict[str, object]) -> None:
    pinned = {"about": ABOUT, **{key: value for key, value in pinned.items() if key != "about"}}
    path.write_text(json.dumps(pinned, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


def _table(figures: dict[str, Figure], floors: dict[str, float]) -> str:
    lines = ["| set | pages | metric | figure | floor |", "|---|---:|---|---:|---:|"]
    for name, figure in figures.items():
        floor = f"{floors[name]:.3f}" if name in floors else "none"
        lines.append(f"| {name} | {figure.pages} | {figure.metric} | {figure.value:.4f} | {floor} |")
    return "\n".join(lines)


def _missing_message(datasets: Path, missing: list[str]) -> str:
    if datasets == DATASETS_DIR and not datasets.is_dir():
        looked = ", ".join(str(path) for path in DATASETS_SEARCH)
        return (
            f"gate: the development sets are missing: no shared/datasets in {looked}. They are not "
            "in the repository: put them in ../shared/datasets beside the checkout, or name their "
            "folder with --datasets DIR."
        )
    return (
        f"gate: the development sets {', '.join(missing)} are missing from {datasets} (each needs gold.json)."
    )


def quality_gate(args: argparse.Namespace) -> int:
    """Every set against its floor; with ``--update``, pin today's figures and floors."""
    missing = missing_sets(args.datasets, list(SETS))
    if missing:
        print(_missing_message(args.datasets, missing), file=sys.stderr)
        return 2
    started = perf_counter()
    print(f"gate: {args.algorithm} on the development sets in {args.datasets}", flush=True)
    figures = measure(args.datasets, args.algorithm, args.jobs)
    pinned = read_floors(args.floors)
    if args.update:
        pinned["sets"] = {
            name: {
                "metric": figure.metric,
                "figure": round(figure.value, 4),
                "floor": floor_under(figure.value),
            }
            for name, figure in figures.items()
        }
        write_floors(args.floors, pinned)
        print(f"gate: pinned today's figures and floors in {args.floors}")
    entries = pinned.get("sets", {})
    floors = {name: float(entry["floor"]) for name, entry in entries.items()}  # type: ignore[attr-defined]
    print(_table(figures, floors))
    failures = below_floor(figures, floors)
    seconds = perf_counter() - started
    if failures:
        print(
            f"gate: {len(failures)} of {len(figures)} sets below their floors ({args.floors}):",
            file=sys.stderr,
        )
        print("\n".join(f"  {failure}" for failure in failures), file=sys.stderr)
        return 1
    print(f"gate: every set at or above its floor ({seconds:.0f} s)")
    return 0


def speed_gate(args: argparse.Namespace) -> int:
    """Instructions per page against the budget; with ``--update``, pin today's count."""
    if missing_sets(DATASETS_DIR, [SPEED_SET]):
        print(_missing_message(DATASETS_DIR, [SPEED_SET]), file=sys.stderr)
        return 2
    if shutil.which("valgrind") is None:
        print("gate --speed: valgrind is not installed (Debian: apt-get install valgrind)", file=sys.stderr)
        return 2
    started = perf_counter()
    print(f"gate --speed: callgrind over the first {SPEED_PAGES} {SPEED_SET} pages", flush=True)
    full, empty = count_instructions([SPEED_SET], SPEED_PAGES, [])
    per_page = (full - empty) // SPEED_PAGES
    pinned = read_floors(args.floors)
    if args.update:
        pinned["speed"] = {
            "pages": f"the first {SPEED_PAGES} of {SPEED_SET}",
            "instructions_per_page": per_page,
            "budget": budget_over(per_page),
        }
        write_floors(args.floors, pinned)
        print(f"gate --speed: pinned today's count and budget in {args.floors}")
    budget = int(pinned.get("speed", {}).get("budget", 0))  # type: ignore[attr-defined]
    seconds = perf_counter() - started
    figures = f"{per_page / 1e6:.2f} M instructions per page, budget {budget / 1e6:.2f} M ({seconds:.0f} s)"
    if not budget or per_page > budget:
        print(f"gate --speed: over the budget: {figures}", file=sys.stderr)
        return 1
    print(f"gate --speed: within the budget: {figures}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--algorithm", default="auto", choices=sorted(ALGORITHMS), help="whose figures")
    parser.add_argument("--speed", action="store_true", help="the instructions per page instead")
    parser.add_argument("--update", action="store_true", help="pin today's figures (auto only)")
    parser.add_argument("--datasets", type=Path, default=DATASETS_DIR, help="the sets' folder")
    parser.add_argument("--floors", type=Path, default=FLOORS, help="the pinned floors and budget")
    parser.add_argument("--jobs", type=int, default=2, help="processes for the quality gate")
    args = parser.parse_args(argv)
    if args.update and args.algorithm != "auto":
        parser.error("--update pins auto's figures: leave out --algorithm")
    if args.speed and args.algorithm != "auto":
        parser.error("--speed counts auto's instructions: leave out --algorithm")
    return speed_gate(args) if args.speed else quality_gate(args)


if __name__ == "__main__":
    raise SystemExit(main())
