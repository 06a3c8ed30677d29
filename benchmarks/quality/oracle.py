"""How much ``auto`` loses by its choice: the oracle of its algorithms on every development set.

    python3 scripts/dev.py oracle                      # runs the extractors (one pass)
    python3 scripts/dev.py oracle --list               # and the ids of auto's lost pages, by kind
    python3 scripts/dev.py bench --json bench.json && python3 scripts/dev.py oracle --load bench.json

Per set: ``auto``, each of the ten other algorithms, the oracles and the peers, as F1 (text
gold: precision and recall averaged over pages, F1 their harmonic mean; snippet gold:
snippets pooled over the set), mean page F1 (the mean of the pages' own F1: issue 24's
figure) and pages lost (own F1 under 0.5).

The oracle takes, on every page, the output of the algorithm with the highest page F1
(a tie goes to ``auto``, then to the first name in alphabetical order; ties change
neither the mean page F1 nor the lost pages, only the F1 of pooled or averaged counts).
**The oracle of the 11** is over ``auto`` and the ten other algorithms: issue 24's
"oracle of the 11", what a perfect choice among every candidate the package builds would
give, never below ``auto`` on any page (``auto`` is a candidate of its own: it builds
blocks none of the ten returns). The oracle of the 10 leaves ``auto`` out: what choosing
among the published algorithms alone would give.

``auto``'s lost pages (page F1 under 0.5) fall in exactly one of three kinds:

- **wrong choice**: one of the ten other algorithms has page F1 >= 0.8 there: a good
  candidate exists and ``auto`` took another;
- **lost by every system**: ``auto``, all ten other algorithms and every peer have page
  F1 under 0.5;
- **never built**: the rest: no algorithm reaches 0.8 (no good candidate is built), but
  an algorithm or a peer reaches 0.5. ``--list`` says which: "a peer" when some peer
  reaches 0.5, else "weak candidate" (an algorithm between 0.5 and 0.8, no peer at 0.5).

The split depends on the peers installed (the ``peers`` extra: trafilatura default and
fast, readability-lxml); the output names them.

Run time on the 2-core development machine (2026-11-25): with ``--load``, a second; running
the extractors, one pass over the four sets, 2.5 minutes of CPU (7.4 minutes while other
jobs kept the load near 10).
"""

from __future__ import annotations

import argparse
from pathlib import Path
from time import perf_counter

from benchmarks.devsets import (
    DEFAULT_DATASETS,
    OTHER_ALGORITHMS,
    extractors,
    load_reports,
    load_sets,
    save_reports,
)
from benchmarks.peers import PEER_NAMES
from scrapy_mainc.evaluation._evaluate import LOST_F1, Report, evaluate_together
from scrapy_mainc.evaluation._oracle import LOSS_KINDS, oracle, split_lost


def _check_rows(set_name: str, by_name: dict[str, Report]) -> None:
    missing = [name for name in ("auto", *OTHER_ALGORITHMS) if name not in by_name]
    if missing:
        raise SystemExit(f"{set_name}: no results for {', '.join(missing)} (the oracle needs them all)")


def set_report(set_name: str, reports: list[Report], show_ids: bool) -> str:
    """The table and the split of auto's lost pages for one set."""
    by_name = {report.name: report for report in reports}
    _check_rows(set_name, by_name)
    auto, others = by_name["auto"], [by_name[name] for name in OTHER_ALGORITHMS]
    peers = [by_name[name] for name in PEER_NAMES if name in by_name]
    best_single = max(others, key=lambda report: (report.mean_page_f1, report.name))
    rows = [
        ("auto", auto),
        ("oracle of the 11 (auto and the 10 others)", oracle("oracle of 11", [auto, *others])),
        ("oracle of the 10 others", oracle("oracle of 10", others)),
        *(
            (report.name + (" (best single algorithm)" if report is best_single else ""), report)
            for report in others
        ),
        *((f"{report.name} (peer)", report) for report in peers),
    ]
    snippets = auto.kind == "snippets"
    gold = "with/without snippets" if snippets else "text gold"
    f1_name = "snippet F1 (pooled)" if snippets else "F1 (averaged P and R)"
    lines = [f"### {set_name} ({len(auto.pages)} pages, {gold})", ""]
    lines.append(f"| | {f1_name} | mean page F1 | lost (page F1 < {LOST_F1}) |\n|---|---|---|---|")
    for label, report in rows:
        lines.append(
            f"| {label} | {report.summary.f1:.3f} | {report.mean_page_f1:.3f} | {len(report.lost)} |"
        )
    lost = split_lost(auto, others, peers)
    by_kind = {kind: [page for page in lost if page.kind == kind] for kind in LOSS_KINDS}
    split = ", ".join(f"{len(pages)} {kind}" for kind, pages in by_kind.items())
    peer_names = ", ".join(report.name for report in peers) or "none installed"
    lines.append(f"\nauto's {len(lost)} lost pages: {split} (peers: {peer_names}).")
    if show_ids:
        for kind, pages in by_kind.items():
            lines.append(f"\n{kind} ({len(pages)}):")
            lines.extend(f"- {page.describe()}" for page in pages)
    return "\n".join(lines) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--datasets", nargs="+", type=Path, default=DEFAULT_DATASETS)
    parser.add_argument("--load", type=Path, default=None, help="per-page results saved by bench --json")
    parser.add_argument("--json", type=Path, default=None, help="save the per-page results of this run")
    parser.add_argument("--list", action="store_true", help="list auto's lost pages of each kind")
    args = parser.parse_args()
    started = perf_counter()
    if args.load:
        everything = load_reports(args.load)
        wanted = {path.name for path in args.datasets}
        everything = {name: reports for name, reports in everything.items() if name in wanted}
    else:
        wanted_rows = {"auto", *OTHER_ALGORITHMS, *PEER_NAMES}  # the peers that are installed
        runs = {name: run for name, run in extractors().items() if name in wanted_rows}
        everything = {
            name: evaluate_together(runs, pages) for name, pages in load_sets(args.datasets).items()
        }
        if args.json:
            save_reports(args.json, everything)
    for name, reports in everything.items():
        print(set_report(name, reports, args.list), flush=True)
    print(f"run time {perf_counter() - started:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
