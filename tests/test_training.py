"""The trainer writes the file the package reads (training/page_types.py): the fields of
:func:`scrapy_mainc.core._pagetype_model.models_from_json`, each weight to four significant
digits, read back as the same floats, the same bytes for the same models. A fitted model
is stood in for by its arrays (no scikit-learn needed)."""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import numpy as np

from helpers import repository_module
from scrapy_mainc.core._pagetype import PAGE_TYPES
from scrapy_mainc.core._pagetype_model import MODEL_FORMAT, models_from_json

trainer = repository_module("training", "page_types")


def fitted(seed: int) -> Any:
    """What ``model_record`` reads of a fitted model: two signals, three words."""
    generator = np.random.default_rng(seed)
    kinds = len(PAGE_TYPES)
    return SimpleNamespace(
        names=["links_per", "words"],
        words=["button:add", "label:forum", "label:reply"],
        scaler=SimpleNamespace(mean_=generator.normal(size=2), scale_=generator.uniform(0.5, 2, size=2)),
        regression=SimpleNamespace(
            coef_=generator.normal(size=(kinds, 5)), intercept_=generator.normal(size=kinds)
        ),
    )


def record(seed: int) -> dict[str, Any]:
    return {
        "format": MODEL_FORMAT,
        "trainer": "training/page_types.py",
        "quick_article": 0.9,
        "quick": trainer.model_record(fitted(seed)),
        "full": trainer.model_record(fitted(seed + 1)),
    }


def test_the_written_file_is_what_the_package_reads(tmp_path: Path) -> None:
    path = tmp_path / "model.json.gz"
    trainer.write_record(record(1), path)
    models = models_from_json(json.loads(gzip.decompress(path.read_bytes())))
    model = fitted(1)
    assert models.quick.classes == PAGE_TYPES and models.quick.signals == ("links_per", "words")
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


def test_the_same_models_give_the_same_bytes(tmp_path: Path) -> None:
    first, second, other = tmp_path / "a.json.gz", tmp_path / "b.json.gz", tmp_path / "c.json.gz"
    trainer.write_record(record(1), first)
    trainer.write_record(record(1), second)
    trainer.write_record(record(2), other)
    assert first.read_bytes() == second.read_bytes() != other.read_bytes()
