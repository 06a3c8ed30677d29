"""Quality and speed of every algorithm and of the peers, measured in one run.

    python3 scripts/dev.py bench                       # both shared datasets, all extractors
    .venv/bin/python benchmarks/quality.py --datasets ../shared/datasets/zh_news --only auto

Prints a markdown table (F1, precision, recall, pages with F1 under 0.5, median and mean
ms per page, parse included) per dataset and the ratio of ``auto``'s median time to
trafilatura's fast mode. Pages under 0.5 are the misses a user notices: the table says
how many each extractor has, and which of ``auto``'s are right by a peer.
Every extractor runs ``--repeat`` times over each dataset, the extractors taking turns;
the pass with the lowest median counts (scores do not change between passes), which keeps
the figures steady on a shared machine.
Peers come from the ``peers`` extra. ``--json`` keeps the per-page figures.
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
from datetime import date
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from peers import PEER_NAMES, available_peers  # noqa: E402

from scrapy_mainc import ALGORITHMS, extract  # noqa: E402
from scrapy_mainc.evaluation._evaluate import Report, evaluate, load_dataset  # noqa: E402

#: A page with F1 under this is a miss: most of the text is wrong or missing.
MISS_F1 = 0.5

DEFAULT_DATASETS = [
    Path(__file__).resolve().parents[2] / "shared" / "datasets" / name for name in ("scrapinghub", "zh_news")
]


def _ours(name: str, metadata: bool = False):  # type: ignore[no-untyped-def]
    """Our extractor ``name``; content only, as the peers here are run (trafilatura without
    ``with_metadata``), unless ``metadata`` (the row ``auto+metadata``: what a crawl pays)."""

    def run(html: bytes, url: str) -> str:
        return extract(html, url=url or None, algorithm=name, metadata=metadata).text

    return run


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--datasets", nargs="+", type=Path, default=DEFAULT_DATASETS)
    parser.add_argument("--only", nargs="+", default=None, help="only these extractors")
    parser.add_argument("--no-peers", action="store_true")
    parser.add_argument("--json", type=Path, default=None)
    parser.add_argument(
        "--repeat", type=int, default=3, help="timing passes per extractor; the fastest median counts"
    )
    args = parser.parse_args()

    extractors = {name: _ours(name) for name in ["auto", *sorted(set(ALGORITHMS) - {"auto"})]}
    extractors["auto+metadata"] = _ours("auto", metadata=True)
    if not args.no_peers:
        extractors.update(available_peers())
    if args.only:
        extractors = {name: run for name, run in extractors.items() if name in args.only}
    print(
        f"measured {date.today()} on {platform.machine()}, Python {platform.python_version()}, "
        f"{platform.node() and 'one process'}; ms include decoding and parsing\n"
    )
    everything: dict[str, list[dict[str, object]]] = {}
    for dataset in args.datasets:
        pages = load_dataset(dataset)
        best: dict[str, Report] = {}
        for _ in range(args.repeat):  # the machine is shared: keep each extractor's fastest pass
            for name, run in extractors.items():
                report = evaluate(name, run, pages)
                if name not in best or report.median_ms < best[name].median_ms:
                    best[name] = report
        reports = list(best.values())
        for report in reports:
            name = report.name
            print(
                f"  {dataset.name}: {name} F1={report.summary.f1:.3f} "
                f"median={report.median_ms:.2f} ms errors={len(report.errors)}",
                file=sys.stderr,
                flush=True,
            )
        print(_table(dataset.name, len(pages), reports))
        everything[dataset.name] = [report.to_json() for report in reports]
    if args.json:
        args.json.write_text(json.dumps(everything, indent=1), encoding="utf-8")
    return 0


def _table(dataset: str, pages: int, reports: list[Report]) -> str:
    lines = [
        f"### {dataset} ({pages} pages)",
        "",
        f"| extractor | F1 | precision | recall | F1 < {MISS_F1} | median ms | mean ms | errors |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for report in sorted(reports, key=lambda report: -report.summary.f1):
        summary = report.summary
        lines.append(
            f"| {report.name} | {summary.f1:.3f} | {summary.precision:.3f} | {summary.recall:.3f} "
            f"| {len(misses(report))} | {report.median_ms:.2f} | {report.mean_ms:.2f} "
            f"| {len(report.errors)} |"
        )
    by_name = {report.name: report for report in reports}
    if "auto" in by_name:
        lines.append("\n" + _miss_summary(by_name))
    if "auto" in by_name and "trafilatura fast" in by_name:
        ratio = by_name["trafilatura fast"].median_ms / by_name["auto"].median_ms
        lines.append(f"\nauto's median time is 1/{ratio:.1f} of trafilatura fast's.")
    if "auto+metadata" in by_name and "trafilatura fast" in by_name:
        ratio = by_name["trafilatura fast"].median_ms / by_name["auto+metadata"].median_ms
        lines.append(f"With the metadata stage (auto+metadata), 1/{ratio:.1f}.")
    return "\n".join(lines) + "\n"


def misses(report: Report) -> list[str]:
    """Ids of the pages on which ``report``'s extractor has F1 under ``MISS_F1``."""
    return [page.page_id for page in report.pages if page.score.f1 < MISS_F1]


def _miss_summary(by_name: dict[str, Report]) -> str:
    """auto's misses, and how many of them some peer gets right (F1 at least ``MISS_F1``)."""
    auto_misses = misses(by_name["auto"])
    peers = [report for name, report in by_name.items() if name in PEER_NAMES]
    if not peers:
        return f"auto has {len(auto_misses)} pages under F1 {MISS_F1}."
    scores = {report.name: {page.page_id: page.score.f1 for page in report.pages} for report in peers}
    rescued = [
        page_id for page_id in auto_misses if any(score[page_id] >= MISS_F1 for score in scores.values())
    ]
    fewest = min(len(misses(report)) for report in peers)
    return (
        f"auto has {len(auto_misses)} pages under F1 {MISS_F1} ({len(rescued)} of them right by a peer); "
        f"the best peer has {fewest}."
    )


if __name__ == "__main__":
    raise SystemExit(main())
