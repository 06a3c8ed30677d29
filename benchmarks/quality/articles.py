"""Quality and speed of every algorithm and of the peers on every development set, in one run.

    python3 scripts/dev.py bench                       # the four sets, all extractors
    python3 scripts/dev.py bench --json bench.json     # and keep every page's figures
    .venv/bin/python -m benchmarks.quality.articles --datasets ../shared/datasets/zh_news --only auto nce

The sets (``../shared/datasets``): scrapinghub (181 pages) and zh_news (69), text gold;
newspaper4k (214), text gold; trafilatura_eval (475), with/without snippets. Per set, a
markdown table of every extractor: F1, precision and recall (text gold: 4-gram shingles,
precision and recall averaged over pages, F1 their harmonic mean, the scrapinghub
benchmark's convention; snippet gold: snippets pooled over the set, trafilatura's
evaluation), the mean of the pages' own F1 ("page F1", the figure of issue 18's table for
newspaper4k), the pages lost (own F1 under 0.5: the misses a user notices), median and
mean ms per page (decoding and parsing included, one process), and the ratio of ``auto``'s
median time to trafilatura fast's; then one table of all sets.

Rows: ``auto``, the ten other algorithms, ``auto+metadata`` (the metadata stage on, what a
crawl pays; the others run content only, as the peers do), ``auto favor=precision`` and
``auto favor=recall`` (``auto`` is ``favor="balanced"``; a table of the three closes the
report), and the peers of :mod:`benchmarks.peers` (trafilatura default and ``fast=True``,
readability-lxml; the ``peers`` extra).

Milliseconds are the CPU time of this process per page (``time.process_time``): the time
other jobs on the shared machine take from it does not count in, as it does in wall time,
which under a load of 6 to 8 doubled and moved several times more from pass to pass
(``--wall-clock`` measures wall time; on an idle machine both agree for these
single-threaded extractors; contention for caches still slows CPU time somewhat). The
extractors take turns page by page, so that what load remains hits them all alike, over
``--repeat`` passes; each page keeps its fastest time, and the median is over those (the
scores are the first pass's: they do not change). ``--json FILE`` saves
every page's counts and times (``python3 scripts/dev.py oracle --load FILE`` reads them).

Run time on the 2-core development machine (2026-11-25), the default two passes over the
four sets: 5 minutes of CPU; 6.7 minutes while other jobs kept the load at 3 to 4, 12.7 at
6 to 10.
"""

from __future__ import annotations

import argparse
import platform
import sys
from datetime import date
from pathlib import Path
from time import perf_counter, process_time

from benchmarks.devsets import (
    AUTO_METADATA,
    DEFAULT_DATASETS,
    FAVOR_ROWS,
    extractors,
    load_sets,
    save_reports,
)
from benchmarks.peers import PEER_NAMES
from scrapy_mainc.evaluation._evaluate import LOST_F1, Report, evaluate_together

#: The peer whose median time ``auto``'s is compared with.
TIME_REFERENCE = "trafilatura fast"


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--datasets", nargs="+", type=Path, default=DEFAULT_DATASETS)
    parser.add_argument("--only", nargs="+", default=None, help="only these extractors")
    parser.add_argument("--no-peers", action="store_true")
    parser.add_argument("--json", type=Path, default=None, help="save every page's figures here")
    parser.add_argument("--wall-clock", action="store_true", help="time in wall time, not CPU time")
    parser.add_argument(
        "--repeat",
        type=int,
        default=2,
        help="passes over each set; each page's fastest time counts",
    )
    args = parser.parse_args()
    runs = extractors(peers=not args.no_peers, only=args.only)
    started = perf_counter()
    print(
        f"measured {date.today()} on {platform.machine()}, Python {platform.python_version()}, "
        f"one process, {args.repeat} pass(es) over each set, extractors taking turns page by page; "
        f"ms ({'wall' if args.wall_clock else 'CPU'} time) include decoding and parsing\n"
    )
    everything: dict[str, list[Report]] = {}
    for name, pages in load_sets(args.datasets).items():
        reports = evaluate_together(
            runs, pages, args.repeat, perf_counter if args.wall_clock else process_time
        )
        print(f"  {name} done ({perf_counter() - started:.0f} s)", file=sys.stderr, flush=True)
        everything[name] = reports
        print(dataset_table(name, reports), flush=True)
    print(overview(everything))
    if all(
        row in {report.name for report in reports} for reports in everything.values() for row in FAVOR_ROWS
    ):
        print("\n" + favor_table(everything))
    print(f"\nrun time {perf_counter() - started:.0f} s")
    if args.json:
        save_reports(args.json, everything)
    return 0


def _columns(kind: str) -> str:
    if kind == "snippets":
        return "snippet F1 | snippet precision | snippet recall"
    return "F1 | precision | recall"


def dataset_table(name: str, reports: list[Report]) -> str:
    """One set: a row per extractor, best F1 first, and what ``auto``'s misses and time are."""
    kind = reports[0].kind
    gold = "with/without snippets" if kind == "snippets" else "text gold"
    lines = [
        f"### {name} ({len(reports[0].pages)} pages, {gold})",
        "",
        f"| extractor | {_columns(kind)} | page F1 | lost (page F1 < {LOST_F1}) "
        "| median ms | mean ms | errors |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for report in sorted(reports, key=lambda report: (-report.summary.f1, report.name)):
        summary = report.summary
        lines.append(
            f"| {report.name} | {summary.f1:.3f} | {summary.precision:.3f} | {summary.recall:.3f} "
            f"| {report.mean_page_f1:.3f} | {len(report.lost)} | {report.median_ms:.2f} "
            f"| {report.mean_ms:.2f} | {len(report.errors)} |"
        )
    by_name = {report.name: report for report in reports}
    if "auto" in by_name:
        lines.append("\n" + _lost_summary(by_name))
    reference = by_name.get(TIME_REFERENCE)
    for row in ("auto", AUTO_METADATA):
        if row in by_name and reference:
            ratio = by_name[row].median_ms / reference.median_ms
            lines.append(f"{row}'s median time is {ratio:.2f} of {TIME_REFERENCE}'s (1/{1 / ratio:.1f}).")
    return "\n".join(lines) + "\n"


def _lost_summary(by_name: dict[str, Report]) -> str:
    """auto's lost pages, and how many of them some peer gets (page F1 at least ``LOST_F1``)."""
    lost = by_name["auto"].lost
    peers = [report for name, report in by_name.items() if name in PEER_NAMES]
    if not peers:
        return f"auto loses {len(lost)} pages."
    scores = [{page.page_id: page.score.f1 for page in report.pages} for report in peers]
    rescued = [page_id for page_id in lost if any(score[page_id] >= LOST_F1 for score in scores)]
    fewest = min(peers, key=lambda report: len(report.lost))
    return (
        f"auto loses {len(lost)} pages ({len(rescued)} of them kept by a peer); "
        f"the peer losing fewest, {fewest.name}, loses {len(fewest.lost)}."
    )


def overview(everything: dict[str, list[Report]]) -> str:
    """All sets side by side: F1 (snippet F1 for snippet gold), mean page F1 and lost pages."""
    names = list(everything)
    header = " | ".join(f"{name} {_f1_name(everything[name][0])} | page F1 | lost" for name in names)
    lines = ["### All development sets", "", f"| extractor | {header} |"]
    lines.append("|---|" + "---|---|---|" * len(names))
    rows: dict[str, dict[str, str]] = {}
    for name, reports in everything.items():
        for report in reports:
            cell = f"{report.summary.f1:.3f} | {report.mean_page_f1:.3f} | {len(report.lost)}"
            rows.setdefault(report.name, {})[name] = cell
    for extractor, cells in rows.items():
        lines.append(f"| {extractor} | " + " | ".join(cells.get(name, " | | ") for name in names) + " |")
    return "\n".join(lines)


def favor_table(everything: dict[str, list[Report]]) -> str:
    """``auto``'s three ``favor`` rows on every set: precision, recall and F1 (snippet ones
    for snippet gold), and the change against ``balanced``."""
    lines = ["### favor", "", "| set | favor | precision | recall | F1 | lost |", "|---|---|---|---|---|---|"]
    for name, reports in everything.items():
        by_name = {report.name: report for report in reports}
        balanced = by_name["auto"].summary
        for row, favor in [("auto", "balanced"), *FAVOR_ROWS.items()]:
            summary = by_name[row].summary
            change = (
                ""
                if row == "auto"
                else (
                    f" ({summary.precision - balanced.precision:+.3f})",
                    f" ({summary.recall - balanced.recall:+.3f})",
                )
            )
            precision = f"{summary.precision:.3f}{change[0] if change else ''}"
            recall = f"{summary.recall:.3f}{change[1] if change else ''}"
            lines.append(
                f"| {name} | {favor} | {precision} | {recall} | {summary.f1:.3f} | {len(by_name[row].lost)} |"
            )
    return "\n".join(lines)


def _f1_name(report: Report) -> str:
    return "snippet F1" if report.kind == "snippets" else "F1"


if __name__ == "__main__":
    raise SystemExit(main())
