"""Gradient-boosted trees as numbers: the form in which a trained tree ensemble ships
(:mod:`._pagetype_model` and :mod:`._quality_model` read it from package data), evaluated
in plain Python, without any learning library.

A multiclass ensemble holds, for each round of boosting, one regression tree per class;
a class's score is its baseline plus the leaf values its trees reach, and the scores go
through a softmax (scikit-learn's ``HistGradientBoostingClassifier``, whose leaf values
already carry the learning rate). A tree is a nested tuple: an inner node is
``(input, threshold, left, right)``, going left when the input's value is at most the
threshold; a leaf is its value (a float).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

#: A tree: a leaf's value, or ``(input index, threshold, left, right)``.
Tree = float | tuple[int, float, "Tree", "Tree"]


@dataclass(frozen=True, slots=True)
class TreeEnsemble:
    """Boosted trees of a softmax over ``classes``, reading the inputs named ``inputs``."""

    classes: tuple[str, ...]
    inputs: tuple[str, ...]
    #: Each class's score before any tree.
    baseline: tuple[float, ...]
    #: (class index, tree), every round's trees in order.
    trees: tuple[tuple[int, Tree], ...]

    @classmethod
    def from_json(cls, record: Mapping[str, Any]) -> TreeEnsemble:
        """The ensemble a trainer wrote as a JSON object: ``classes``, ``inputs``,
        ``baseline`` and ``trees``, each ``[class index, tree]`` (:func:`tree_from_json`)."""
        return cls(
            classes=tuple(record["classes"]),
            inputs=tuple(record["inputs"]),
            baseline=tuple(record["baseline"]),
            trees=tuple((int(kind), tree_from_json(tree)) for kind, tree in record["trees"]),
        )

    def scores(self, values: Sequence[float]) -> list[float]:
        """Each class's raw score for ``values`` (in :attr:`inputs` order)."""
        scores = list(self.baseline)
        for kind, tree in self.trees:
            scores[kind] += leaf(tree, values)
        return scores

    def probabilities(self, inputs: Mapping[str, float]) -> list[float]:
        """Each class's probability for these named inputs."""
        scores = self.scores([inputs[name] for name in self.inputs])
        top = max(scores)
        exponentials = [math.exp(score - top) for score in scores]
        total = sum(exponentials)
        return [value / total for value in exponentials]


def leaf(tree: Tree, values: Sequence[float]) -> float:
    """The value of the leaf that ``values`` (by input index) reach in ``tree``."""
    node = tree
    while node.__class__ is tuple:
        index, threshold, left, right = node
        node = left if values[index] <= threshold else right
    return node  # type: ignore[return-value]


def tree_from_json(record: float | list[Any]) -> Tree:
    """A tree from its JSON form: a number (a leaf) or ``[input, threshold, left, right]``
    (trees of a few levels: the recursion is as deep as the tree)."""
    if isinstance(record, (int, float)):
        return float(record)
    index, threshold, left, right = record
    return (int(index), float(threshold), tree_from_json(left), tree_from_json(right))
