"""A multinomial logistic regression as numbers: the form in which trained models ship
(:mod:`._pagetype_model` reads them from package data), applied without any learning
library."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from operator import mul
from typing import Any


@dataclass(frozen=True, slots=True)
class LinearModel:
    """Weights of a softmax over ``classes``: standardised signals and binary words."""

    classes: tuple[str, ...]
    #: Names of the dense inputs, with their means and scales (standardisation).
    signals: tuple[str, ...]
    means: tuple[float, ...]
    scales: tuple[float, ...]
    intercepts: tuple[float, ...]
    #: One row of weights per class, a weight per signal in ``signals`` order.
    signal_weights: tuple[tuple[float, ...], ...]
    #: A row of weights per word present, by where the word stands (``label``...).
    word_weights: Mapping[str, Mapping[str, tuple[float, ...]]]

    @classmethod
    def from_json(cls, record: Mapping[str, Any]) -> LinearModel:
        """The model a trainer wrote as a JSON object of these fields (lists for tuples)."""
        return cls(
            classes=tuple(record["classes"]),
            signals=tuple(record["signals"]),
            means=tuple(record["means"]),
            scales=tuple(record["scales"]),
            intercepts=tuple(record["intercepts"]),
            signal_weights=tuple(map(tuple, record["signal_weights"])),
            word_weights={
                source: {word: tuple(row) for word, row in rows.items()}
                for source, rows in record["word_weights"].items()
            },
        )

    def probabilities(self, signals: Mapping[str, float], words: Mapping[str, frozenset[str]]) -> list[float]:
        """Each class's probability for these signals and words (by where they stand)."""
        values = [
            (signals[name] - mean) / scale if scale else 0.0
            for name, mean, scale in zip(self.signals, self.means, self.scales)
        ]
        scores = [
            intercept + sum(map(mul, weights, values))
            for intercept, weights in zip(self.intercepts, self.signal_weights)
        ]
        present = [
            weights[word]
            for source, weights in self.word_weights.items()
            for word in words.get(source, frozenset()) & weights.keys()
        ]
        if present:
            scores = [score + sum(column) for score, column in zip(scores, zip(*present))]
        top = max(scores)
        exponentials = [math.exp(score - top) for score in scores]
        total = sum(exponentials)
        return [value / total for value in exponentials]
