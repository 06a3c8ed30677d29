"""A multinomial logistic regression as constants: the form in which trained models ship
(:mod:`._pagetype_model`), applied without any learning library."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from operator import mul


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
