"""Word-level F1, the metric of WCXB (the Web Content eXtraction Benchmark, 2026).

Tokens are the ``\\w+`` runs of the lower-cased text (a run of CJK characters is one token,
as Python's ``\\w`` has it); a page's precision and recall count the tokens both texts
share as multisets. Its edge cases are the benchmark's: an empty gold text scores 1 when
nothing is extracted and 0 otherwise; an empty extraction of a page with gold text scores
0. A set's figure is the mean of its pages' F1 (every page counts).
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

_WORD_RE = re.compile(r"\w+")


def word_tokens(text: str) -> Counter[str]:
    """The multiset of lower-cased ``\\w+`` runs of ``text``."""
    return Counter(_WORD_RE.findall(text.lower()))


@dataclass(frozen=True, slots=True)
class WordScore:
    """Word overlap of one page: tokens shared, extracted, and in the gold text."""

    shared: int
    extracted: int
    gold: int

    @property
    def precision(self) -> float:
        if not self.gold:
            return 0.0 if self.extracted else 1.0
        return self.shared / self.extracted if self.extracted else 0.0

    @property
    def recall(self) -> float:
        if not self.gold:
            return 0.0 if self.extracted else 1.0
        return self.shared / self.gold

    @property
    def f1(self) -> float:
        total = self.precision + self.recall
        return 2 * self.precision * self.recall / total if total else 0.0


def score_words(gold: Counter[str], extracted: str) -> WordScore:
    """The word overlap of ``extracted`` with a page's gold tokens (:func:`word_tokens`)."""
    tokens = word_tokens(extracted)
    return WordScore(sum((tokens & gold).values()), sum(tokens.values()), sum(gold.values()))
