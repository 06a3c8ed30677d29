"""What an extraction shows of its own quality: the features of ``Extraction.quality``.

The estimate (:mod:`._quality_model`) reads three kinds of evidence, each from what the
extraction has already computed:

* the **text's shape**: its words and lines, words a line, the shares of short lines
  and of lines that end as sentences, the longest line's share, repeated lines and words
  (a menu, a list of prices or a repeated credit line look unlike a story);
* the **choice's place in the page**, from the statistics (subtree totals, one pass for
  the page's paragraphs): the words it keeps and their share of the page's, its link
  words, its punctuation, its roots, the parts it leaves out, its depth, where the
  headline is, and how much of the page's paragraph text (elements with ten words and a
  period or comma of their own) it keeps, leaves before it and after it;
* the **page's type** as the extraction decided it, the model's confidence in it, and the
  article verdict.

No text of the page is read beyond the extraction's own, and nothing here depends on the
algorithm: any selection has these features (the model is trained on ``auto``'s).
"""

from __future__ import annotations

import math
from itertools import accumulate

from ._pagetype import PAGE_TYPES
from ._stats import DomStats
from ._types import Document, Selection

#: How a line that reads as a sentence (or a quotation, a list's lead-in) ends.
_SENTENCE_ENDS = tuple(".!?:;\u2026\"'\u201d\u3002\uff01\uff1f")
#: A line with fewer words is short: a label, a menu item, a price, a date.
SHORT_LINE_WORDS = 5
#: The distinct words of a text are counted in its start (a set of every word of a long
#: text costs more than the rest of the estimate; on the grouped folds the sample changes
#: WCXB's AUC by 0.001).
DISTINCT_SAMPLE = 3000
#: A paragraph of the page: an element with this many words of its own and a period or comma.
PARAGRAPH_WORDS = 10


def quality_features(document: Document, selection: Selection, text: str, article: bool) -> dict[str, float]:
    """The features of ``selection`` (whose text is ``text``) on ``document``, by name."""
    features = text_features(text)
    features.update(selection_features(document.stats, selection, document.headline))
    page_type = document.page_type
    for name in PAGE_TYPES:
        features[f"type_{name}"] = float(page_type.name == name)
    features["type_confidence"] = page_type.confidence
    features["article_verdict"] = float(article)
    return features


def text_features(text: str) -> dict[str, float]:
    """The shape of an extracted text (see the module docstring). Its lines are whitespace
    normalised (:func:`~._text.clean_text`): a line's words are its spaces and one.
    Distinct words are counted in the first :data:`DISTINCT_SAMPLE` characters."""
    lines = text.splitlines()
    line_words = [line.count(" ") + 1 for line in lines]
    count, line_count = sum(line_words), max(1, len(lines))
    sample = text[:DISTINCT_SAMPLE].split()
    return {
        "text_words": math.log1p(count),
        "text_lines": math.log1p(len(lines)),
        "words_per_line": math.log1p(count / line_count),
        "short_lines": sum(words < SHORT_LINE_WORDS for words in line_words) / line_count,
        "sentence_lines": sum(line.endswith(_SENTENCE_ENDS) for line in lines) / line_count,
        "longest_line": max(line_words, default=0) / max(1, count),
        "distinct_lines": len(set(lines)) / line_count,
        "distinct_words": len(set(sample)) / max(1, len(sample)),
    }


def selection_features(stats: DomStats, selection: Selection, headline: int) -> dict[str, float]:
    """Where ``selection`` lies in the page and what it keeps of it."""
    roots = selection.nodes
    left_out = _outermost(stats, roots, selection.excluded)
    words, link_words, punct = stats.words, stats.link_words, stats.punct
    kept = _kept(words, roots, left_out)
    page_words = words[0]
    own_words, own_punct = stats.own_words, stats.own_punct
    paragraph = [
        count if count >= PARAGRAPH_WORDS and marks else 0 for count, marks in zip(own_words, own_punct)
    ]
    prefix = [0, *accumulate(paragraph)]
    end = stats.end
    paragraphs = prefix[-1]
    kept_paragraphs = sum(prefix[end[root]] - prefix[root] for root in roots) - sum(
        prefix[end[node]] - prefix[node] for node in left_out
    )
    before = prefix[roots[0]] if roots else 0
    after = paragraphs - prefix[end[roots[-1]]] if roots else 0
    return {
        "kept_words": math.log1p(kept),
        "page_words": math.log1p(page_words),
        "kept_share": kept / max(1, page_words),
        "kept_link_share": _kept(link_words, roots, left_out) / max(1, kept),
        "page_link_share": link_words[0] / max(1, page_words),
        "kept_punct": _kept(punct, roots, left_out) / max(1, kept),
        "page_punct": punct[0] / max(1, page_words),
        "page_nodes": math.log1p(len(end)),
        "score_per_word": selection.score / max(1, kept),
        "roots": float(len(roots)),
        "left_out": math.log1p(len(left_out)),
        "root_depth": float(_depth(stats, roots[-1])) if roots else 0.0,
        "paragraphs": math.log1p(paragraphs),
        "paragraphs_kept": kept_paragraphs / paragraphs if paragraphs else 0.0,
        "paragraphs_before": before / paragraphs if paragraphs else 0.0,
        "paragraphs_after": after / paragraphs if paragraphs else 0.0,
        "headline": float(headline >= 0),
        "headline_before": float(0 <= headline < roots[0]) if roots else 0.0,
    }


def _outermost(stats: DomStats, roots: tuple[int, ...], excluded: frozenset[int]) -> list[int]:
    """The excluded nodes inside a root and inside no other excluded node, in order."""
    end = stats.end
    found: list[int] = []
    for node in sorted(excluded):
        if found and node < end[found[-1]]:
            continue
        if any(root <= node < end[root] for root in roots):
            found.append(node)
    return found


def _kept(totals: list[int], roots: tuple[int, ...], left_out: list[int]) -> int:
    """A subtree total over the roots, less the parts left out."""
    return sum(totals[root] for root in roots) - sum(totals[node] for node in left_out)


def _depth(stats: DomStats, node: int) -> int:
    parent, depth = stats.parent, 0
    while node > 0:
        node, depth = parent[node], depth + 1
    return depth
