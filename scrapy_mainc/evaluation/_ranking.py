"""How well a score ranks pages, in plain Python: the ROC AUC for a class of pages and the
Spearman rank correlation. ``mainc evaluate`` reports both for the quality estimate, and
``training/quality.py`` measures the estimate with the same functions."""

from __future__ import annotations

import math
from collections.abc import Sequence


def ranks(values: Sequence[float]) -> list[float]:
    """Each value's rank, from 1 for the smallest; tied values share their mean rank."""
    order = sorted(range(len(values)), key=values.__getitem__)
    result = [0.0] * len(values)
    start = 0
    while start < len(order):
        end = start + 1
        while end < len(order) and values[order[end]] == values[order[start]]:
            end += 1
        for index in order[start:end]:
            result[index] = (start + 1 + end) / 2  # the mean of ranks start+1 .. end
        start = end
    return result


def roc_auc(scores: Sequence[float], positive: Sequence[bool]) -> float | None:
    """The probability that a positive page scores above a negative one (a tie counts
    half): the area under the ROC curve. None when either class is empty."""
    positives = sum(positive)
    negatives = len(positive) - positives
    if not positives or not negatives:
        return None
    rank_sum = sum(rank for rank, chosen in zip(ranks(scores), positive, strict=True) if chosen)
    return (rank_sum - positives * (positives + 1) / 2) / (positives * negatives)


def spearman(first: Sequence[float], second: Sequence[float]) -> float | None:
    """The Spearman rank correlation (the Pearson correlation of the ranks, ties at their
    mean rank). None for fewer than two pages or when either side is constant."""
    if len(first) != len(second):
        raise ValueError(f"{len(first)} values against {len(second)}")
    x, y = ranks(first), ranks(second)
    if len(x) < 2:
        return None
    mean_x, mean_y = sum(x) / len(x), sum(y) / len(y)
    covariance = sum((a - mean_x) * (b - mean_y) for a, b in zip(x, y))
    spread = math.sqrt(sum((a - mean_x) ** 2 for a in x) * sum((b - mean_y) ** 2 for b in y))
    return covariance / spread if spread else None
