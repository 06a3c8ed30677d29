"""``Extraction.quality``: the expected word F1 of an extraction's text, from its features.

The model is a small ensemble of regression trees (gradient boosting, squared error)
over the features of :mod:`._quality`, trained by ``training/quality.py`` on every
development set, each page scored by its own set's metric, and shipped as the package
data file :data:`MODEL_FILE` (gzipped JSON): it is read once, on first use, and evaluated
here in plain Python. Its figures, measured on folds grouped by site, are in
docs/quality.md, its file's fields in training/README.md.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from ._package_data import read_json
from ._trees import Tree, leaf, tree_from_json

#: The file beside this module that holds the trees.
MODEL_FILE = "quality_model.json.gz"
#: The version of the file's layout this module reads (the file's ``format``; 1 had each
#: tree as parallel lists by node).
MODEL_FORMAT = 2


@dataclass(frozen=True, slots=True)
class TreeModel:
    """A sum of regression trees (:mod:`._trees`' form) over named features, clipped to [0, 1]."""

    features: tuple[str, ...]
    base: float
    trees: tuple[Tree, ...]

    def predict(self, features: Mapping[str, float]) -> float:
        """The estimate for ``features`` (a value for every name of :attr:`features`)."""
        inputs = [features[name] for name in self.features]
        total = self.base
        for tree in self.trees:
            total += leaf(tree, inputs)
        return min(1.0, max(0.0, total))


def model_from_json(record: Mapping[str, Any]) -> TreeModel:
    """The model of a file's JSON object; ValueError when its format is not this module's."""
    if record.get("format") != MODEL_FORMAT:
        raise ValueError(f"quality model format {record.get('format')!r}; this version reads {MODEL_FORMAT}")
    features, base, trees = record["features"], record["base"], record["trees"]
    if not isinstance(features, list) or not isinstance(base, float | int) or not isinstance(trees, list):
        raise ValueError("a quality model needs a list of features, a base value and a list of trees")
    return TreeModel(
        tuple(str(name) for name in features),
        float(base),
        tuple(tree_from_json(tree) for tree in trees),
    )


@cache
def quality_model() -> TreeModel:
    """The shipped model, read from the package's data on the first call."""
    return model_from_json(read_json(MODEL_FILE))


def estimate_quality(features: Mapping[str, float]) -> float:
    """The shipped model's estimate of the word F1 of the text these features describe."""
    return quality_model().predict(features)
