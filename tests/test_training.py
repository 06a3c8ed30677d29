"""The trainer writes the file the package reads (training/page_types.py): the fields of
:func:`scrapy_mainc.core._pagetype_model.models_from_json`, each linear weight to four
significant digits, read back as the same floats, the same bytes for the same models. A
fitted model is stood in for by its arrays (no scikit-learn needed)."""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest

from scrapy_mainc.core._pagetype import PAGE_TYPES
from scrapy_mainc.core._pagetype_model import MODEL_FORMAT, models_from_json
from training import _fits as fits
from training import page_types as training


def fitted(seed: int) -> Any:
    """What ``LinearFit.data`` reads of a fit: two signals, three words."""
    generator = np.random.default_rng(seed)
    kinds = len(PAGE_TYPES)
    return SimpleNamespace(
        names=["links_per", "u_depth"],
        words=[("button", "add"), ("label", "forum"), ("label", "reply")],
        scaler=SimpleNamespace(mean_=generator.normal(size=2), scale_=generator.uniform(0.5, 2, size=2)),
        regression=SimpleNamespace(
            coef_=generator.normal(size=(kinds, 5)), intercept_=generator.normal(size=kinds)
        ),
    )


#: A tree of each class: on ``links_per``, then ``full:article`` (the inputs' indices).
TREES = {
    "classes": list(PAGE_TYPES),
    "inputs": ["links_per", "full:article"],
    "baseline": [0.1 * kind for kind in range(len(PAGE_TYPES))],
    "trees": [[kind, [0, 0.5, [1, -0.25, 0.125, -0.5], 1.0]] for kind in range(len(PAGE_TYPES))],
}


def record(seed: int) -> dict[str, Any]:
    costs = np.full((len(PAGE_TYPES), len(PAGE_TYPES)), 0.05)
    np.fill_diagonal(costs, 0.0)
    choice = training.Choice(right_weight=0.2, balance=0.5)
    return {
        "format": MODEL_FORMAT,
        "trainer": "training/page_types.py",
        "quick_article": 0.9,
        "quick": fits.LinearFit.data(fitted(seed)),
        "full": fits.LinearFit.data(fitted(seed + 1)),
        "trees": TREES,
        "decision": training.decision_record(costs, choice),
    }


def test_the_written_file_is_what_the_package_reads(tmp_path: Path) -> None:
    path = tmp_path / "model.json.gz"
    training.write_record(record(1), path)
    models = models_from_json(json.loads(gzip.decompress(path.read_bytes())))
    model = fitted(1)
    assert models.quick.classes == PAGE_TYPES and models.quick.signals == ("links_per", "u_depth")
    # four significant digits, and the float that text reads as
    assert models.quick.means == tuple(float(f"{value:.4g}") for value in model.scaler.mean_)
    assert models.quick.signal_weights[3] == tuple(
        float(f"{value:.4g}") for value in model.regression.coef_[3, :2]
    )
    # the words by where they stand, each with its column of the regression
    assert set(models.quick.word_weights) == {"button", "label"}
    forum = tuple(float(f"{value:.4g}") for value in model.regression.coef_[:, 3])
    assert models.quick.word_weights["label"]["forum"] == forum
    assert list(models.quick.word_weights["label"]) == ["forum", "reply"]
    # the trees as written: links_per 0.4 goes left, full:article -0.3 left again: 0.125
    scores = models.trees.scores([0.4, -0.3])
    assert scores == [0.1 * kind + 0.125 for kind in range(len(PAGE_TYPES))]
    assert models.trees.scores([0.6, -0.3]) == [0.1 * kind + 1.0 for kind in range(len(PAGE_TYPES))]
    # the decision's numbers; the full model's mean address shape for pages of no URL
    assert (models.right_weight, models.marked_article_margin, models.costs[0][1]) == (0.2, 2.0, 0.05)
    assert dict(models.unknown_address) == {"u_depth": float(f"{fitted(2).scaler.mean_[1]:.4g}")}


def test_the_same_models_give_the_same_bytes(tmp_path: Path) -> None:
    first, second, other = tmp_path / "a.json.gz", tmp_path / "b.json.gz", tmp_path / "c.json.gz"
    training.write_record(record(1), first)
    training.write_record(record(1), second)
    training.write_record(record(2), other)
    assert first.read_bytes() == second.read_bytes() != other.read_bytes()


def test_held_out_types_are_reused_while_what_made_them_holds(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "samples.json").write_text("samples", encoding="utf-8")
    (tmp_path / "costs.json").write_text("costs", encoding="utf-8")
    pages = SimpleNamespace(
        samples=[
            SimpleNamespace(key=f"{source}/{n}") for source, n in [("wcxb", 1), ("wcxb", 2), ("zh_news", 3)]
        ]
    )
    runs: list[int] = []

    def folds(_: Any, seed: int) -> Any:
        runs.append(seed)
        return SimpleNamespace(vetoed=np.array([2, 0, 0]))

    monkeypatch.setattr(training, "load", lambda cache, jobs: pages)
    monkeypatch.setattr(training, "cross_validated", folds)
    expected = {"1": "listing", "2": "article"}  # WCXB's pages, by id
    assert training.held_out_types(tmp_path, seed=5) == expected and runs == [5]
    assert training.held_out_types(tmp_path, seed=5) == expected and runs == [5]  # read back
    assert training.held_out_types(tmp_path, seed=6) == expected and runs == [5, 6]  # another seed
    (tmp_path / "costs.json").write_text("other costs", encoding="utf-8")
    training.held_out_types(tmp_path, seed=6)
    assert runs == [5, 6, 6]  # the costs changed: the folds run again
