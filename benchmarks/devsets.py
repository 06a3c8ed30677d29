"""The development sets and the extractors the benchmarks run over them, in one place.

``quality.articles`` (``python3 scripts/dev.py bench``), ``quality.oracle``,
``quality.ablation`` and the gate share this module: where the development sets are
(``../shared/datasets``), the four article sets, our algorithms run content only (as the
peers are run) plus ``auto+metadata``, the peers of :mod:`benchmarks.peers`, and per-page
results saved as JSON (``Report.to_json``) so that a later script computes from them
without running the extractors again.
"""

from __future__ import annotations

import json
from pathlib import Path

from benchmarks.peers import available_peers
from scrapy_mainc import ALGORITHMS, extract
from scrapy_mainc.evaluation._evaluate import Extractor, Page, Report, load_dataset

#: Where the development sets are looked for, in order: ``shared/datasets`` beside the
#: checkout (``../shared``), then beside each folder above it (a worktree's ``../../shared``).
DATASETS_SEARCH = tuple(parent / "shared" / "datasets" for parent in Path(__file__).resolve().parents[2:])


def _datasets_dir() -> Path:
    """The first of :data:`DATASETS_SEARCH` that exists, else ``../shared/datasets``."""
    return next((path for path in DATASETS_SEARCH if path.is_dir()), DATASETS_SEARCH[0])


DATASETS_DIR = _datasets_dir()
#: The development sets: two with text gold built on first, two added by issue 18 (text
#: gold, and with/without snippets).
DEVELOPMENT_SETS = ("scrapinghub", "zh_news", "newspaper4k", "trafilatura_eval")
DEFAULT_DATASETS = [DATASETS_DIR / name for name in DEVELOPMENT_SETS]
#: Our algorithms other than ``auto``: the candidates ``auto``'s choice is measured against.
OTHER_ALGORITHMS = tuple(sorted(set(ALGORITHMS) - {"auto"}))
#: The row of ``auto`` with the metadata stage on (what a crawl pays).
AUTO_METADATA = "auto+metadata"
#: The rows of ``auto`` with ``favor`` set (``auto`` itself is ``favor="balanced"``).
FAVOR_ROWS = {"auto favor=precision": "precision", "auto favor=recall": "recall"}


def ours(name: str, metadata: bool = False, favor: str = "balanced") -> Extractor:
    """Our algorithm ``name``, content only as the peers are run (trafilatura without
    ``with_metadata``), unless ``metadata``."""

    def run(html: bytes, url: str) -> str:
        return extract(html, url=url or None, algorithm=name, metadata=metadata, favor=favor).text

    return run


def extractors(peers: bool = True, only: list[str] | None = None) -> dict[str, Extractor]:
    """``auto``, the other algorithms, ``auto+metadata``, ``auto`` with each ``favor`` and
    (if installed) the peers, by name."""
    runs = {name: ours(name) for name in ["auto", *OTHER_ALGORITHMS]}
    runs[AUTO_METADATA] = ours("auto", metadata=True)
    runs.update({row: ours("auto", favor=favor) for row, favor in FAVOR_ROWS.items()})
    if peers:
        runs.update(available_peers())
    if only:
        unknown = set(only) - set(runs)
        if unknown:
            raise SystemExit(f"unknown or unavailable extractors: {', '.join(sorted(unknown))}")
        runs = {name: run for name, run in runs.items() if name in only}
    return runs


def save_reports(path: Path, reports: dict[str, list[Report]]) -> None:
    """Per-page results of every extractor on every set, as ``{set: [report, ...]}``."""
    record = {name: [report.to_json() for report in runs] for name, runs in reports.items()}
    path.write_text(json.dumps(record, indent=1), encoding="utf-8")


def load_reports(path: Path) -> dict[str, list[Report]]:
    """What :func:`save_reports` wrote."""
    record = json.loads(path.read_text(encoding="utf-8"))
    return {name: [Report.from_json(report) for report in runs] for name, runs in record.items()}


def load_sets(paths: list[Path]) -> dict[str, list[Page]]:
    """The pages of each dataset directory, by its name."""
    return {path.name: load_dataset(path) for path in paths}
