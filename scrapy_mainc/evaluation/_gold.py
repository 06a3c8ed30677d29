"""The two kinds of gold a dataset entry can hold, read from ``gold.json``.

- **text**: ``{"articleBody": "the expected text"}``, scored by 4-gram shingles
  (:mod:`._metric`);
- **snippets**: ``{"with": [...], "without": [...]}``, pieces the text must and must not
  contain, scored as trafilatura's evaluation scores them (:mod:`._snippets`).

A dataset holds one kind: its scores would not add up otherwise.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import ClassVar, Literal

from ._metric import PageScore, Summary, score_shingles, shingles, summarize
from ._snippets import SnippetScore, normalize_whitespace, score_snippets, summarize_snippets

#: What a dataset's gold is: article text, or with/without snippets.
GoldKind = Literal["text", "snippets"]
#: One page's score, of either kind.
Score = PageScore | SnippetScore
#: The keys of a snippet entry (trafilatura's ``evaldata.json`` names).
WITH, WITHOUT = "with", "without"


@dataclass(frozen=True, slots=True)
class TextGold:
    """The expected text of a page; its shingles are counted once."""

    kind: ClassVar[GoldKind] = "text"
    text: str
    shingles: Counter[tuple[str, ...]] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "shingles", shingles(self.text))

    def score(self, predicted: str) -> PageScore:
        return score_shingles(self.shingles, predicted)


@dataclass(frozen=True, slots=True)
class SnippetGold:
    """Snippets the text of a page must contain (``with``) and must not (``without``)."""

    kind: ClassVar[GoldKind] = "snippets"
    wanted: tuple[str, ...]
    unwanted: tuple[str, ...]

    def score(self, predicted: str) -> SnippetScore:
        return score_snippets(self.wanted, self.unwanted, predicted)


Gold = TextGold | SnippetGold


def read_gold(page_id: str, entry: dict[str, object]) -> Gold:
    """The gold of one ``gold.json`` entry; ValueError naming the entry when it is malformed."""
    has_text = "articleBody" in entry
    if WITH in entry or WITHOUT in entry:
        if has_text:
            raise ValueError(f"entry {page_id!r} has both articleBody and with/without snippets")
        return SnippetGold(_snippets(page_id, entry, WITH), _snippets(page_id, entry, WITHOUT))
    text = entry.get("articleBody")
    if text is None:
        text = ""
    if not isinstance(text, str):
        raise ValueError(f"entry {page_id!r}: articleBody must be a string, not {type(text).__name__}")
    return TextGold(text)


def _snippets(page_id: str, entry: dict[str, object], key: str) -> tuple[str, ...]:
    """The snippet list ``entry[key]`` (none when absent); every snippet must hold some text."""
    snippets = entry.get(key, [])
    if not isinstance(snippets, list) or not all(isinstance(snippet, str) for snippet in snippets):
        raise ValueError(f"entry {page_id!r}: {key!r} must be a list of strings")
    if not all(normalize_whitespace(snippet) for snippet in snippets):
        raise ValueError(f"entry {page_id!r}: {key!r} holds an empty snippet (found in any text)")
    return tuple(snippets)


def dataset_kind(golds: Iterable[Gold]) -> GoldKind:
    """The one kind of gold in ``golds``; ValueError when they mix kinds (or there are none)."""
    counts = Counter(gold.kind for gold in golds)
    if len(counts) != 1:
        found = ", ".join(f"{count} {kind}" for kind, count in sorted(counts.items())) or "no entries"
        raise ValueError(f"a dataset holds one kind of gold, articleBody or with/without snippets: {found}")
    return next(iter(counts))


def summarize_scores(kind: GoldKind, scores: Iterable[Score]) -> Summary:
    """The set's precision, recall and F1 as its kind of gold defines them."""
    scores = list(scores)
    expected = SnippetScore if kind == "snippets" else PageScore
    if not all(isinstance(score, expected) for score in scores):
        raise TypeError(f"{kind} gold is summarised from {expected.__name__} records only")
    if kind == "snippets":
        return summarize_snippets(score for score in scores if isinstance(score, SnippetScore))
    return summarize(score for score in scores if isinstance(score, PageScore))
