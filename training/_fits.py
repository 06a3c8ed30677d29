"""The page-type model's parts as scikit-learn fits them (the ``train`` extra), and their
export as the data the package reads (:mod:`scrapy_mainc.core._pagetype_model`).

* :class:`LinearFit`: a multinomial logistic regression over standardised signals and one
  binary input a word (by where it stands: ``label:buy``). A word counts only when pages
  of at least ``MIN_SITES`` sites show it (a site's own names never do); the most
  widespread of each source are kept (``VOCABULARY``).
* :class:`TreeFit`: gradient-boosted trees (``HistGradientBoostingClassifier``) over the
  signals and the full linear model's log-probabilities (``full:TYPE``), with each class
  weighed by ``(largest class / its size) ** balance``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from scrapy_mainc.core._pagetype import LOG_FLOOR, PAGE_TYPES
from training._samples import Sample

#: A word counts when pages of this many sites show it.
MIN_SITES = 5
#: The most widespread words kept, by their sources: the short labels, buttons and
#: paragraphs' words share 3,000 (today's quick model's), the ``class`` names 1,500.
VOCABULARY: dict[tuple[str, ...], int] = {("label", "button", "prose"): 3000, ("class",): 1500}
#: Inverse regularisation strength of the logistic regressions (chosen over 0.05, 0.1, 0.2
#: and 0.5 by the grouped folds in issue 33).
C = 0.2
#: The trees: rounds, learning rate, depth, smallest leaf, L2 penalty (a small ensemble:
#: 700 trees of depth 3 cost too much at run time; larger ones scored no better).
TREE_PARAMS: dict[str, Any] = {
    "max_iter": 50,
    "learning_rate": 0.15,
    "max_depth": 3,
    "min_samples_leaf": 20,
    "l2_regularization": 1.0,
}


def vocabulary(samples: Sequence[Sample], sources: tuple[str, ...], size: int) -> list[tuple[str, str]]:
    """(source, word) shown on pages of at least ``MIN_SITES`` sites, the ``size`` most
    widespread, in a stable order."""
    sites: dict[tuple[str, str], set[str]] = {}
    for sample in samples:
        for source in sources:
            for word in sample.words.get(source, ()):
                sites.setdefault((source, word), set()).add(sample.site)
    common = [(len(found), key) for key, found in sites.items() if len(found) >= MIN_SITES]
    return sorted(key for _, key in sorted(common, reverse=True)[:size])


def labels(samples: Sequence[Sample]) -> np.ndarray:
    return np.array([PAGE_TYPES.index(sample.page_type) for sample in samples])


class LinearFit:
    """The scaler, vocabulary and logistic regression fitted on some samples."""

    def __init__(
        self, samples: Sequence[Sample], names: Sequence[str], sources: Sequence[tuple[str, ...]]
    ) -> None:
        from sklearn.linear_model import LogisticRegression  # the train extra: imported when fitting
        from sklearn.preprocessing import StandardScaler

        self.names = list(names)
        self.words = [key for group in sources for key in vocabulary(samples, group, VOCABULARY[group])]
        self.scaler = StandardScaler().fit(self._dense(samples))
        self.regression = LogisticRegression(C=C, max_iter=5000).fit(self._inputs(samples), labels(samples))

    def _dense(self, samples: Sequence[Sample]) -> np.ndarray:
        return np.array([[sample.signals[name] for name in self.names] for sample in samples])

    def _inputs(self, samples: Sequence[Sample]) -> Any:
        from scipy import sparse

        index = {key: column for column, key in enumerate(self.words)}
        rows, columns = [], []
        for row, sample in enumerate(samples):
            for source, found in sample.words.items():
                for word in found:
                    column = index.get((source, word))
                    if column is not None:
                        rows.append(row)
                        columns.append(column)
        words = sparse.csr_matrix(
            (np.ones(len(rows)), (rows, columns)), shape=(len(samples), len(self.words))
        )
        return sparse.hstack([sparse.csr_matrix(self.scaler.transform(self._dense(samples))), words]).tocsr()

    def probabilities(self, samples: Sequence[Sample]) -> np.ndarray:
        """Each sample's probability of each type (columns in :data:`PAGE_TYPES` order)."""
        found = np.zeros((len(samples), len(PAGE_TYPES)))
        found[:, self.regression.classes_] = self.regression.predict_proba(self._inputs(samples))
        return found

    def data(self) -> dict[str, Any]:
        """The fit as the package's :class:`LinearModel` reads it (JSON)."""
        dense = len(self.names)
        coefficients = self.regression.coef_
        word_weights: dict[str, dict[str, list[float]]] = {}
        for column, (source, word) in enumerate(self.words):
            word_weights.setdefault(source, {})[word] = _rounded(coefficients[:, dense + column])
        return {
            "classes": list(PAGE_TYPES),
            "signals": self.names,
            "means": _rounded(self.scaler.mean_),
            "scales": _rounded(self.scaler.scale_),
            "intercepts": _rounded(self.regression.intercept_),
            "signal_weights": [_rounded(row[:dense]) for row in coefficients],
            "word_weights": word_weights,
        }


def _rounded(values: Any, digits: int = 4) -> list[float]:
    return [float(f"{value:.{digits}g}") for value in values]


def stacked(samples: Sequence[Sample], probabilities: np.ndarray) -> list[dict[str, float]]:
    """Each sample's signals with the full model's log-probabilities (``full:TYPE``)."""
    logs = np.log(probabilities + LOG_FLOOR)
    return [
        {**sample.signals, **{f"full:{kind}": float(value) for kind, value in zip(PAGE_TYPES, row)}}
        for sample, row in zip(samples, logs)
    ]


class TreeFit:
    """Boosted trees over named inputs (signals and ``full:TYPE``)."""

    def __init__(
        self, inputs: list[dict[str, float]], names: Sequence[str], kinds: np.ndarray, balance: float
    ) -> None:
        from sklearn.ensemble import HistGradientBoostingClassifier

        self.names = [*names, *(f"full:{kind}" for kind in PAGE_TYPES)]
        counts = np.bincount(kinds, minlength=len(PAGE_TYPES)).astype(float)
        weights = (counts.max() / np.maximum(counts, 1)) ** balance
        self.model = HistGradientBoostingClassifier(random_state=0, early_stopping=False, **TREE_PARAMS)
        self.model.fit(self._matrix(inputs), kinds, sample_weight=weights[kinds])

    def _matrix(self, inputs: list[dict[str, float]]) -> np.ndarray:
        return np.array([[row[name] for name in self.names] for row in inputs])

    def probabilities(self, inputs: list[dict[str, float]]) -> np.ndarray:
        found = np.zeros((len(inputs), len(PAGE_TYPES)))
        found[:, self.model.classes_] = self.model.predict_proba(self._matrix(inputs))
        return found

    def data(self) -> dict[str, Any]:
        """The ensemble as the package's :class:`TreeEnsemble` reads it (JSON): every
        round's tree of each class, a node ``[input, threshold, left, right]``, a leaf its
        value (scikit-learn's leaf values carry the learning rate already)."""
        if list(self.model.classes_) != list(range(len(PAGE_TYPES))):
            raise ValueError("every type needs pages to train the trees")
        trees = []
        for round_trees in self.model._predictors:
            for kind, predictor in enumerate(round_trees):
                trees.append([kind, _node(predictor.nodes, 0)])
        return {
            "classes": list(PAGE_TYPES),
            "inputs": self.names,
            "baseline": [float(value) for value in np.ravel(self.model._baseline_prediction)],
            "trees": trees,
        }


def _node(nodes: np.ndarray, index: int) -> Any:
    node = nodes[index]
    if node["is_leaf"]:
        return float(f"{node['value']:.7g}")
    return [
        int(node["feature_idx"]),
        float(node["num_threshold"]),
        _node(nodes, int(node["left"])),
        _node(nodes, int(node["right"])),
    ]
