"""Snippet gold: pieces of text an extraction must contain, and pieces it must not.

The scoring of trafilatura's evaluation (``tests/evaldata.json`` and its comparison
scripts), whose pages are the ``trafilatura_eval`` development set. A snippet is *found*
when, after every run of whitespace in both the snippet and the extracted text is made
one space and the ends are stripped, it is a substring of the text (case, punctuation
and Unicode forms count as written). Each ``with`` snippet found is a true positive, each
one missing a false negative; each ``without`` snippet found is a false positive, each
one absent a true negative. Over a set of pages the counts are pooled: precision
``tp / (tp + fp)``, recall ``tp / (tp + fn)``, F1 ``2tp / (2tp + fp + fn)``. One page's F1 is
the same formula over its own counts; a page under 0.5 is lost.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from ._metric import Counts, Summary

_WHITESPACE_RE = re.compile(r"\s+")


def normalize_whitespace(text: str) -> str:
    """Every run of whitespace (Unicode's, no-break space included) one space, ends stripped."""
    return _WHITESPACE_RE.sub(" ", text).strip()


@dataclass(frozen=True, slots=True)
class SnippetScore(Counts):
    """Snippet counts of one page (precision: share of the snippets found that are wanted;
    recall: share of the wanted snippets found)."""

    true_positives: int
    false_positives: int
    false_negatives: int
    true_negatives: int

    @property
    def f1(self) -> float:
        """``2tp / (2tp + fp + fn)``, exact at the thresholds (a page at 0.5 is not lost); 1 for
        a page without ``with`` snippets and nothing unwanted."""
        denominator = 2 * self.true_positives + self.false_positives + self.false_negatives
        return 2 * self.true_positives / denominator if denominator else 1.0


def score_snippets(wanted: Iterable[str], unwanted: Iterable[str], predicted: str) -> SnippetScore:
    """Count which ``wanted`` (``with``) and ``unwanted`` (``without``) snippets ``predicted`` holds."""
    text = normalize_whitespace(predicted)
    wanted = [normalize_whitespace(snippet) for snippet in wanted]
    unwanted = [normalize_whitespace(snippet) for snippet in unwanted]
    found = sum(snippet in text for snippet in wanted)
    found_unwanted = sum(snippet in text for snippet in unwanted)
    return SnippetScore(
        true_positives=found,
        false_positives=found_unwanted,
        false_negatives=len(wanted) - found,
        true_negatives=len(unwanted) - found_unwanted,
    )


def summarize_snippets(scores: Iterable[SnippetScore]) -> Summary:
    """Precision, recall and F1 of the snippet counts pooled over pages."""
    tp = fp = fn = 0
    for score in scores:
        tp, fp, fn = tp + score.true_positives, fp + score.false_positives, fn + score.false_negatives
    precision = tp / (tp + fp) if tp + fp else 0.0
    recall = tp / (tp + fn) if tp + fn else 0.0
    f1 = 2 * tp / (2 * tp + fp + fn) if tp else 0.0
    return Summary(precision=precision, recall=recall, f1=f1)
