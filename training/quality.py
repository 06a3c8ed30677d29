"""The quality estimate, ``Extraction.quality``: its figures on sites it was not trained on,
and its training.

    python3 scripts/dev.py quality-model                      # grouped-fold figures (docs/quality.md)
    python3 scripts/dev.py quality-model --train              # and write the model and the picture
    python3 scripts/dev.py quality-model --cache ../qcache    # keep the slow steps' results there
    python3 scripts/dev.py quality-model --seeds 20261201 1 2 # the figures averaged over three fold draws
    .venv/bin/python -m training.quality --help               # the same, from the top of the repository

**Pages and targets.** Every development set with gold content (:data:`~training.held_out.SETS`):
``scrapinghub``, ``zh_news`` and ``newspaper4k`` (text gold: page F1 of 4-gram shingles, as
``mainc evaluate`` scores it), ``trafilatura_eval`` (snippet gold: the page's snippet F1)
and ``wcxb`` (WCXB's word F1, as its benchmark scores it). Each page's target is
``auto``'s page F1 by its own set's metric; an empty text scores 1 where the gold is
empty too, so that the estimate of an empty text is the likelihood that the page has no
main content. Each page is extracted as on a site never seen (:mod:`training.held_out`:
the page type from models trained on the other folds), and its features are those the
extraction computed (:mod:`scrapy_mainc.core._quality`).

**Figures.** Five folds grouped by registered domain; every page's estimate comes from a
model trained on the other four. For each set: the ROC AUC of the estimate for its lost
pages (page F1 under 0.5), the Spearman correlation of the estimate with the measured F1;
and the calibration by decile (mean estimate against mean measured F1).

**Model.** Gradient-boosted regression trees (scikit-learn, the ``train`` extra; squared
error, so the estimate is an expected F1). ``--train`` fits them on every page, checks
that the data predicts as scikit-learn does, and writes the package data file
``scrapy_mainc/core/quality_model.json.gz`` (training/README.md: its fields), which
:mod:`scrapy_mainc.core._quality_model` evaluates in plain Python, and the calibration
picture ``docs/quality_calibration.svg``.
"""

from __future__ import annotations

import argparse
import datetime
import json
import math
import statistics
from collections import Counter
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import scrapy_mainc._extract as extract_module
from scrapy_mainc.core._quality_model import MODEL_FILE, MODEL_FORMAT, model_from_json
from scrapy_mainc.evaluation._evaluate import LOST_F1
from scrapy_mainc.evaluation._ranking import roc_auc, spearman
from training.held_out import (
    FOLDS,
    SEED,
    SETS,
    Page,
    development_pages,
    extract_as_unseen,
    fold_of,
    held_out_types,
    page_f1,
    start_worker,
)
from training.page_types import write_record

ROOT = Path(__file__).resolve().parents[1]
MODEL_PATH = ROOT / "scrapy_mainc" / "core" / MODEL_FILE
PICTURE_PATH = ROOT / "docs" / "quality_calibration.svg"
#: The boosted trees: 150 of depth 3, learning rate 0.05, at least 20 pages a leaf, 0.8 of
#: the pages a tree. Other sizes did no better on the grouped folds (100 of depth 4, 300 of
#: depth 2; leaves of 50 pages lose 0.006 to 0.02 AUC: training/quality_study.py); fewer
#: trees cost less to evaluate.
TREES = {
    "n_estimators": 150,
    "learning_rate": 0.05,
    "max_depth": 3,
    "min_samples_leaf": 20,
    "subsample": 0.8,
    "random_state": 0,
}
#: The features of the page a worker extracts, as the extraction computed them.
_FEATURES: dict[str, float] = {}


def _start_worker(types: dict[str, dict[str, Any]]) -> None:
    """Extract with the held-out types, and keep the features each extraction computes.
    The shipped model is not consulted: it may name features the code no longer computes
    (the model being trained replaces it)."""
    start_worker(types)

    def keep(features: dict[str, float]) -> float:
        _FEATURES.clear()
        _FEATURES.update(features)
        return 0.0

    extract_module.estimate_quality = keep  # type: ignore[attr-defined]


def _measure(page: Page) -> tuple[dict[str, float], float]:
    text = extract_as_unseen(page)
    return dict(_FEATURES), page_f1(page, text)


@dataclass(frozen=True, slots=True)
class Table:
    """The pages, their features (by name) and their measured F1."""

    pages: list[Page]
    names: list[str]
    features: list[list[float]]
    f1: list[float]


def collect(pages: list[Page], types: dict[str, dict[str, Any]], cache: Path | None, jobs: int) -> Table:
    """Every page extracted with its held-out type: its features and its page F1."""
    path = cache / "quality_features.json" if cache else None
    if path is not None and path.exists():
        record = json.loads(path.read_text(encoding="utf-8"))
    else:
        with ProcessPoolExecutor(jobs, initializer=_start_worker, initargs=(types,)) as pool:
            measured = list(pool.map(_measure, pages, chunksize=8))
        names = sorted(measured[0][0])
        record = {
            "keys": [page.key for page in pages],
            "names": names,
            "features": [[features[name] for name in names] for features, _ in measured],
            "f1": [f1 for _, f1 in measured],
        }
        if path is not None:
            path.write_text(json.dumps(record), encoding="utf-8")
    if record["keys"] != [page.key for page in pages]:
        raise SystemExit(f"{path} holds other pages: delete it")
    return Table(pages, record["names"], record["features"], record["f1"])


# -- the model, on folds and on every page -----------------------------------------------------------


def fit(features: Sequence[Sequence[float]], f1: Sequence[float]) -> Any:
    from sklearn.ensemble import GradientBoostingRegressor

    return GradientBoostingRegressor(**TREES).fit(features, f1)


def cross_validated(table: Table, seed: int) -> list[float]:
    """Each page's estimate by the model trained on the other folds."""
    import numpy as np

    folds = fold_of([page.site for page in table.pages], seed)
    fold = np.array([folds[page.site] for page in table.pages])
    features, f1 = np.array(table.features), np.array(table.f1)
    predicted = np.zeros(len(f1))
    for held in range(FOLDS):
        model = fit(features[fold != held], f1[fold != held])
        predicted[fold == held] = model.predict(features[fold == held])
    return [min(1.0, max(0.0, float(value))) for value in predicted]


@dataclass(frozen=True, slots=True)
class SetFigures:
    """The estimate's figures on one set."""

    name: str
    pages: int
    lost: int
    measured: float
    predicted: float
    auc: float | None
    spearman: float


def figures(name: str, predicted: Sequence[float], f1: Sequence[float]) -> SetFigures:
    """The figures ``mainc evaluate`` gives (:class:`~scrapy_mainc.evaluation._evaluate.QualityFigures`)."""
    lost = [value < LOST_F1 for value in f1]
    return SetFigures(
        name,
        len(f1),
        sum(lost),
        statistics.fmean(f1),
        statistics.fmean(predicted),
        roc_auc([-value for value in predicted], lost),
        spearman(predicted, f1) or 0.0,
    )


def deciles(predicted: Sequence[float], f1: Sequence[float]) -> list[tuple[float, float, float, int]]:
    """Pages ordered by estimate, in ten equal parts: mean estimate, mean measured F1, share
    lost and pages, for each part."""
    order = sorted(range(len(predicted)), key=predicted.__getitem__)
    parts = []
    for index in range(10):
        chunk = order[index * len(order) // 10 : (index + 1) * len(order) // 10]
        parts.append(
            (
                statistics.fmean(predicted[page] for page in chunk),
                statistics.fmean(f1[page] for page in chunk),
                sum(f1[page] < LOST_F1 for page in chunk) / len(chunk),
                len(chunk),
            )
        )
    return parts


def report(table: Table, runs: list[list[float]]) -> tuple[str, list[SetFigures]]:
    """The figures table (each figure averaged over the fold draws) and the calibration by
    decile of the first draw, as Markdown."""
    rows = []
    for name in (*SETS, "all"):
        chosen = [index for index, page in enumerate(table.pages) if name in ("all", page.source)]
        f1 = [table.f1[index] for index in chosen]
        per_run = [figures(name, [run[index] for index in chosen], f1) for run in runs]
        aucs = [one.auc for one in per_run if one.auc is not None]
        first = per_run[0]
        rows.append(
            SetFigures(
                name,
                first.pages,
                first.lost,
                first.measured,
                statistics.fmean(one.predicted for one in per_run),
                statistics.fmean(aucs) if aucs else None,
                statistics.fmean(one.spearman for one in per_run),
            )
        )
    lines = [
        "| set | pages | lost (F1 < 0.5) | mean F1 | mean estimate | AUC, lost pages | Spearman |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for row in rows:
        auc = f"{row.auc:.3f}" if row.auc is not None else "(none lost)"
        lines.append(
            f"| {row.name} | {row.pages} | {row.lost} | {row.measured:.3f} | {row.predicted:.3f} "
            f"| {auc} | {row.spearman:.3f} |"
        )
    lines += [
        "",
        "| decile of the estimate | mean estimate | mean measured F1 | lost | pages |",
        "|---:|---:|---:|---:|---:|",
    ]
    for index, (estimate, measured, lost, count) in enumerate(deciles(runs[0], table.f1), start=1):
        lines.append(f"| {index} | {estimate:.3f} | {measured:.3f} | {lost:.2f} | {count} |")
    return "\n".join(lines), rows


# -- the model as data, and the picture -------------------------------------------------------------


def model_record(model: Any, names: Sequence[str]) -> dict[str, Any]:
    """The fitted trees as the data :func:`scrapy_mainc.core._quality_model.model_from_json`
    reads: each tree in the form of the page-type model's (``core/_trees.tree_from_json``)."""
    return {
        "format": MODEL_FORMAT,
        "features": list(names),
        "base": float(model.init_.constant_[0][0]),
        "trees": [_nested(estimator.tree_, model.learning_rate) for (estimator,) in model.estimators_],
    }


def _nested(tree: Any, rate: float, node: int = 0) -> Any:
    """A scikit-learn regression tree (parallel arrays by node; a leaf's left child is -1)
    as ``[input, threshold, left, right]`` or a leaf's value, the learning rate applied."""
    left = int(tree.children_left[node])
    if left < 0:
        return float(rate * tree.value[node, 0, 0])
    right = int(tree.children_right[node])
    split = [int(tree.feature[node]), float(tree.threshold[node])]
    return [*split, _nested(tree, rate, left), _nested(tree, rate, right)]


def write_model(table: Table) -> dict[str, Any]:
    """Fit on every page, check the data against scikit-learn's predictions, write it."""
    model = fit(table.features, table.f1)
    record = {
        "trainer": "training/quality.py (python3 scripts/dev.py quality-model --train)",
        "trained": datetime.date.today().isoformat(),
        "pages": dict(Counter(page.source for page in table.pages)),
        "settings": TREES,
        **model_record(model, table.names),
    }
    shipped = model_from_json(record)
    expected = [min(1.0, max(0.0, float(value))) for value in model.predict(table.features)]
    for row, value in zip(table.features, expected):
        got = shipped.predict(dict(zip(table.names, row)))
        if abs(got - value) > 1e-6:
            raise SystemExit(f"the data's estimate {got} differs from scikit-learn's {value}")
    write_record(record, MODEL_PATH)
    return record


def calibration_svg(series: dict[str, list[tuple[float, float, float, int]]]) -> str:
    """A scatter of mean measured F1 against mean estimate by decile, one colour a series,
    with the diagonal of a perfect calibration."""
    size, margin = 360, 48
    lowest = min(value for points in series.values() for point in points for value in point[:2])
    low = min(0.3, math.floor(lowest * 10) / 10)  # where the axes start

    def x(value: float) -> float:
        return margin + (value - low) / (1 - low) * size

    def y(value: float) -> float:
        return margin + size - (value - low) / (1 - low) * size

    colours = ("#1f77b4", "#d62728", "#2ca02c")
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{size + 2 * margin + 150}" '
        f'height="{size + 2 * margin}" font-family="sans-serif" font-size="12">',
        f'<rect x="{margin}" y="{margin}" width="{size}" height="{size}" fill="none" stroke="#888"/>',
        f'<line x1="{x(low)}" y1="{y(low)}" x2="{x(1)}" y2="{y(1)}" stroke="#aaa" stroke-dasharray="4 4"/>',
    ]
    for tick in [value / 10 for value in range(round(low * 10), 11)]:
        parts.append(f'<text x="{x(tick)}" y="{margin + size + 16}" text-anchor="middle">{tick:.1f}</text>')
        parts.append(f'<text x="{margin - 6}" y="{y(tick) + 4}" text-anchor="end">{tick:.1f}</text>')
    parts.append(
        f'<text x="{margin + size / 2}" y="{margin + size + 36}" text-anchor="middle">'
        "estimated F1 (mean of the decile)</text>"
    )
    parts.append(
        f'<text x="14" y="{margin + size / 2}" text-anchor="middle" '
        f'transform="rotate(-90 14 {margin + size / 2})">measured F1 (mean of the decile)</text>'
    )
    for position, ((label, points), colour) in enumerate(zip(series.items(), colours)):
        for estimate, measured, _, _ in points:
            parts.append(f'<circle cx="{x(estimate):.1f}" cy="{y(measured):.1f}" r="4" fill="{colour}"/>')
        legend_y = margin + 16 + 18 * position
        parts.append(f'<circle cx="{margin + size + 18}" cy="{legend_y - 4}" r="4" fill="{colour}"/>')
        parts.append(f'<text x="{margin + size + 28}" y="{legend_y}">{label}</text>')
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def write_picture(table: Table, predicted: list[float]) -> None:
    def of(keep: Callable[[Page], bool]) -> list[tuple[float, float, float, int]]:
        chosen = [index for index, page in enumerate(table.pages) if keep(page)]
        return deciles([predicted[index] for index in chosen], [table.f1[index] for index in chosen])

    series = {
        "all pages": of(lambda page: True),
        "WCXB": of(lambda page: page.source == "wcxb"),
        "the article sets": of(lambda page: page.source != "wcxb"),
    }
    PICTURE_PATH.write_text(calibration_svg(series), encoding="utf-8")


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--train", action="store_true", help="fit on every page, write the model and picture")
    parser.add_argument("--cache", type=Path, help="keep the page types and features here (and reuse them)")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seeds", type=int, nargs="+", default=[SEED], help="fold draws to average over")
    args = parser.parse_args()
    if args.cache:
        args.cache.mkdir(parents=True, exist_ok=True)
    pages = development_pages()
    folds = fold_of([page.site for page in pages], args.seeds[0])
    types = held_out_types(folds, args.cache, args.jobs)
    table = collect(pages, types, args.cache, args.jobs)
    runs = [cross_validated(table, seed) for seed in args.seeds]
    text, _ = report(table, runs)
    print(text)
    if args.train:
        write_model(table)
        write_picture(table, runs[0])
        print(f"\nwrote {MODEL_PATH.relative_to(ROOT)} and {PICTURE_PATH.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
