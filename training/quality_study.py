"""What did not make the quality estimate better: a finished study (issue 41).

    python3 scripts/dev.py quality-model --cache ../qcache     # first: the held-out page types
    .venv/bin/python -m training.quality_study --cache ../qcache [--seeds 20261201 1 2]

The estimate (``training/quality.py``) reads the extraction's own features. A probe before
it found that the agreement of ``auto``'s text with two of its other candidates helps
find its lost pages. This study measures, on the same folds grouped by site, the figures
with each such signal added to the shipped features, and what the signal costs:

* the agreement (words of ``auto``'s choice the other keeps, words of the other's that
  ``auto`` keeps, the log ratio of their words) with CECTD-DS (the page-density choice
  ``auto`` takes for a fragment), with ``auto``'s choice made without the punctuation
  penalty, with ``auto`` made as on an article (no page type), and with NCE and ECON;
* ``auto``'s own values: the share of the page's positive block value the choice keeps,
  the runner-up (the best total outside the root, against the root's), the negative value
  kept a word;
* a logistic regression on the same features (standardised, the F1 as a soft label);
* the article sets' pages weighted twice (WCXB's are three in five of the pages);
* other sizes of the trees.

Cost: each candidate's CPU time as a share of the extraction's (process time, the sum
over the pages; a rough figure, the instruction counts of ``benchmarks.speed.profiling``
are the exact ones for the shipped part).
"""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import replace
from pathlib import Path
from time import process_time
from typing import Any

import scrapy_mainc._extract as extract_module
from scrapy_mainc.algorithms import ALGORITHMS, auto
from scrapy_mainc.algorithms._auto_params import AutoParams
from scrapy_mainc.algorithms._blocks import block_regions
from scrapy_mainc.algorithms._context import block_context
from scrapy_mainc.algorithms._page_type_params import for_page_type
from scrapy_mainc.algorithms._values import block_values
from training import held_out, quality

#: The candidates compared with ``auto``'s choice, by name: a function of the document.
CANDIDATES = ("cectd-ds", "unpenalized", "as article", "nce", "econ")
_EXTRA: dict[str, float] = {}


def _candidates(document: Any) -> dict[str, Callable[[], Any]]:
    params = AutoParams()
    unpenalized = replace(params, unpunctuated_penalty=0.0, pinned=frozenset({"unpunctuated_penalty"}))
    return {
        "cectd-ds": lambda: auto.density_choice(document, auto.DENSITY_PARAMS),
        "unpenalized": lambda: auto.select(document, unpenalized),
        "as article": lambda: auto.select(document, replace(params, by_page_type=False)),
        "nce": lambda: ALGORITHMS["nce"].select(document, ALGORITHMS["nce"].defaults),
        "econ": lambda: ALGORITHMS["econ"].select(document, ALGORITHMS["econ"].defaults),
    }


def kept_mask(stats: Any, selection: Any) -> list[bool]:
    """Whether each node is kept by ``selection`` (in a root, outside the parts left out)."""
    depth = [0] * (len(stats.end) + 1)
    for root in selection.nodes:
        depth[root] += 1
        depth[stats.end[root]] -= 1
    for node in selection.excluded:
        depth[node] -= 1
        depth[stats.end[node]] += 1
    mask, running = [], 0
    for change in depth[:-1]:
        running += change
        mask.append(running > 0)
    return mask


def _agreement(document: Any, selection: Any) -> None:
    """The extra signals of one page (see the module docstring), into ``_EXTRA``."""
    stats = document.stats
    own = stats.own_words
    mask = kept_mask(stats, selection)
    kept = sum(words for words, keep in zip(own, mask) if keep)
    for name, choose in _candidates(document).items():
        started = process_time()
        other = kept_mask(stats, choose())
        _EXTRA[f"{name}: seconds"] = process_time() - started
        other_words = sum(words for words, keep in zip(own, other) if keep)
        shared = sum(words for words, mine, theirs in zip(own, mask, other) if mine and theirs)
        _EXTRA[f"{name}: kept by it"] = shared / max(1, kept)
        _EXTRA[f"{name}: kept by auto"] = shared / max(1, other_words)
        _EXTRA[f"{name}: word ratio"] = math.log1p(other_words) - math.log1p(kept)
    _auto_values(document, selection, mask)


def _auto_values(document: Any, selection: Any, mask: list[bool]) -> None:
    stats = document.stats
    params = for_page_type(AutoParams(), document.page_type.name)
    regions = block_regions(stats)
    values = block_values(
        stats, regions, block_context(document, regions, params), document.headline, params
    )
    totals = stats.subtree_totals(values)
    positive = sum(value for value in values if value > 0)
    kept = sum(value for value, keep in zip(values, mask) if keep and value > 0)
    root, end = (selection.nodes[-1] if selection.nodes else 0), stats.end
    outside = [
        total
        for node, total in enumerate(totals)
        if not (node <= root < end[node] or root <= node < end[root])
    ]
    words = max(1, sum(words for words, keep in zip(stats.own_words, mask) if keep))
    _EXTRA["auto: value kept"] = kept / positive if positive > 0 else 0.0
    _EXTRA["auto: runner-up"] = max(outside, default=0.0) / max(totals) if max(totals) > 0 else 1.0
    _EXTRA["auto: negative value kept"] = (
        sum(-value for value, keep in zip(values, mask) if keep and value < 0) / words
    )


def _start_worker(types: dict[str, dict[str, Any]]) -> None:
    quality._start_worker(types)
    features = extract_module.quality_features

    def observed(document: Any, selection: Any, text: str, article: bool) -> dict[str, float]:
        _EXTRA.clear()
        _agreement(document, selection)
        return features(document, selection, text, article)

    extract_module.quality_features = observed  # type: ignore[attr-defined]


def _measure(page: held_out.Page) -> tuple[dict[str, float], dict[str, float], float, float]:
    started = process_time()
    text = held_out.extract_as_unseen(page)
    seconds = process_time() - started - sum(v for k, v in _EXTRA.items() if k.endswith("seconds"))
    return dict(quality._FEATURES), dict(_EXTRA), held_out.page_f1(page, text), seconds


class SoftLogistic:
    """A logistic regression with the F1 as a soft label (each page twice, weighted)."""

    def fit(self, rows: Any, f1: Any) -> SoftLogistic:
        import numpy as np
        from sklearn.linear_model import LogisticRegression
        from sklearn.preprocessing import StandardScaler

        self.scaler = StandardScaler().fit(rows)
        scaled = self.scaler.transform(rows)
        labels = np.r_[np.ones(len(f1)), np.zeros(len(f1))]
        self.model = LogisticRegression(C=0.1, max_iter=5000).fit(
            np.vstack([scaled, scaled]), labels, sample_weight=np.r_[f1, 1 - f1] + 1e-6
        )
        return self

    def predict(self, rows: Any) -> Any:
        return self.model.predict_proba(self.scaler.transform(rows))[:, 1]


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--cache", type=Path, required=True, help="where training/quality.py keeps its types")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seeds", type=int, nargs="+", default=[held_out.SEED])
    args = parser.parse_args()
    pages = held_out.development_pages()
    types = held_out.held_out_types(held_out.fold_of([page.site for page in pages]), args.cache, args.jobs)
    with ProcessPoolExecutor(args.jobs, initializer=_start_worker, initargs=(types,)) as pool:
        measured = list(pool.map(_measure, pages, chunksize=8))
    names = sorted(measured[0][0])
    extras = sorted(name for name in measured[0][1] if not name.endswith("seconds"))
    f1 = [row[2] for row in measured]
    extraction = sum(row[3] for row in measured)

    weights = [1.0 if page.source == "wcxb" else 2.0 for page in pages]

    def table(columns: list[str], weighted: bool = False) -> quality.Table:
        rows = [[{**own, **extra}[name] for name in columns] for own, extra, _, _ in measured]
        if weighted:  # the weight rides as a last column, which Weighted takes off
            rows = [[*row, weight] for row, weight in zip(rows, weights)]
        return quality.Table(pages, columns, rows, f1)

    print("| features | cost (share of the extraction) | " + " | ".join(held_out.SETS) + " | all |")
    print("|---|---:|" + "---:|" * (len(held_out.SETS) + 1))

    def line(label: str, columns: list[str], cost: str, fit: Callable[..., Any] = quality.fit) -> None:
        weighted = fit is Weighted
        runs = [_cross_validated(table(columns, weighted), seed, fit) for seed in args.seeds]
        _, rows = quality.report(table(columns), runs)
        cells = [
            f"{row.auc:.3f} / {row.spearman:.3f}" if row.auc is not None else f"- / {row.spearman:.3f}"
            for row in rows
        ]
        print(f"| {label} | {cost} | " + " | ".join(cells) + " |", flush=True)

    line("the shipped features", names, "-")
    for candidate in CANDIDATES:
        seconds = sum(row[1][f"{candidate}: seconds"] for row in measured)
        added = [name for name in extras if name.startswith(f"{candidate}:")]
        line(f"+ agreement with {candidate}", names + added, f"{seconds / extraction:.1%}")
    line("+ auto's values", names + [name for name in extras if name.startswith("auto:")], "one pass")
    line("logistic regression", names, "-", lambda rows, target: SoftLogistic().fit(rows, target))
    line("the article sets' pages weighted twice", names, "-", Weighted)
    for trees, depth, leaf in ((300, 2, 20), (100, 4, 20), (150, 3, 50)):
        settings = {**quality.TREES, "n_estimators": trees, "max_depth": depth, "min_samples_leaf": leaf}
        line(f"{trees} trees of depth {depth}, {leaf} pages a leaf", names, "-", _trees(settings))
    return 0


class Weighted:
    """The shipped trees fitted with each page's weight, the table's last column."""

    def __init__(self, rows: Any, f1: Any) -> None:
        from sklearn.ensemble import GradientBoostingRegressor

        trees = GradientBoostingRegressor(**quality.TREES)
        self.model = trees.fit(rows[:, :-1], f1, sample_weight=rows[:, -1])

    def predict(self, rows: Any) -> Any:
        return self.model.predict(rows[:, :-1])


def _trees(settings: dict[str, Any]) -> Callable[..., Any]:
    def fit(rows: Any, f1: Any) -> Any:
        from sklearn.ensemble import GradientBoostingRegressor

        return GradientBoostingRegressor(**settings).fit(rows, f1)

    return fit


def _cross_validated(table: quality.Table, seed: int, fit: Callable[..., Any]) -> list[float]:
    """:func:`quality.cross_validated` with another model."""
    original = quality.fit
    quality.fit = fit  # type: ignore[assignment]
    try:
        return quality.cross_validated(table, seed)
    finally:
        quality.fit = original  # type: ignore[assignment]


if __name__ == "__main__":
    sys.exit(main())
