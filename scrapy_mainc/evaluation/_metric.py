"""The evaluation metric of ALGORITHMS.md ("Scoring").

Macro-averaged 4-gram shingle precision and recall, as in the public article-extraction
benchmark: tokens are ``\\w+`` runs except that every CJK ideograph is a token of its own;
per page, shingle overlaps are counted as multisets; precision is averaged over pages
with a non-empty prediction, recall over pages with a non-empty gold text, and F1 is the
harmonic mean of the two averages.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

_HAN = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0002fa1f"
_TOKEN_RE = re.compile(f"[{_HAN}]|[^\\W{_HAN}]+")
SHINGLE_SIZE = 4


class Counts:
    """Precision and recall of one page's true-positive, false-positive and false-negative
    counts (shingles, or snippets): 1 when nothing is wrong (nothing to find, nothing found)."""

    __slots__ = ()
    true_positives: int
    false_positives: int
    false_negatives: int

    @property
    def precision(self) -> float:
        """Share of what was predicted that is wanted."""
        tp, fp, fn = self.true_positives, self.false_positives, self.false_negatives
        if fp == fn == 0:
            return 1.0
        return tp / (tp + fp) if tp + fp else 0.0

    @property
    def recall(self) -> float:
        """Share of what is wanted that was predicted."""
        tp, fp, fn = self.true_positives, self.false_positives, self.false_negatives
        if fp == fn == 0:
            return 1.0
        return tp / (tp + fn) if tp + fn else 0.0


@dataclass(frozen=True, slots=True)
class PageScore(Counts):
    """Shingle overlap counts of one page (precision: share of predicted shingles in the gold
    text; recall: share of gold shingles predicted; both 1 when both texts are empty)."""

    true_positives: int
    false_positives: int
    false_negatives: int

    @property
    def f1(self) -> float:
        """Harmonic mean of this page's precision and recall."""
        total = self.precision + self.recall
        return 2 * self.precision * self.recall / total if total else 0.0

    @property
    def has_prediction(self) -> bool:
        return self.true_positives + self.false_positives > 0

    @property
    def has_gold(self) -> bool:
        return self.true_positives + self.false_negatives > 0


@dataclass(frozen=True, slots=True)
class Summary:
    """Macro-averaged scores over a set of pages."""

    precision: float
    recall: float
    f1: float


def tokenize(text: str) -> list[str]:
    """``\\w+`` runs, with every CJK ideograph a token of its own."""
    return _TOKEN_RE.findall(text)


def shingles(text: str, size: int = SHINGLE_SIZE) -> Counter[tuple[str, ...]]:
    """Multiset of ``size``-token shingles; a shorter text is one shingle of all its tokens."""
    tokens = tokenize(text)
    if len(tokens) < size:
        return Counter([tuple(tokens)] if tokens else [])
    return Counter(tuple(tokens[start : start + size]) for start in range(len(tokens) - size + 1))


def score_page(gold: str, predicted: str) -> PageScore:
    """Shingle overlap of a prediction with the gold text of one page."""
    return score_shingles(shingles(gold), predicted)


def score_shingles(gold_shingles: Counter[tuple[str, ...]], predicted: str) -> PageScore:
    """:func:`score_page` for gold text whose shingles are already counted."""
    predicted_shingles = shingles(predicted)
    overlap = sum((gold_shingles & predicted_shingles).values())
    return PageScore(
        true_positives=overlap,
        false_positives=sum(predicted_shingles.values()) - overlap,
        false_negatives=sum(gold_shingles.values()) - overlap,
    )


def summarize(scores: Iterable[PageScore]) -> Summary:
    """Macro averages: precision over predicted pages, recall over pages with gold text."""
    scores = list(scores)
    precisions = [score.precision for score in scores if score.has_prediction]
    recalls = [score.recall for score in scores if score.has_gold]
    precision = sum(precisions) / len(precisions) if precisions else 0.0
    recall = sum(recalls) / len(recalls) if recalls else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return Summary(precision=precision, recall=recall, f1=f1)
