"""The evaluation metrics: 4-gram shingles of text gold (ALGORITHMS.md, "Scoring") and
with/without snippets of snippet gold (trafilatura's evaluation)."""

from __future__ import annotations

import pytest

from scrapy_mainc.evaluation._metric import PageScore, score_page, shingles, summarize, tokenize
from scrapy_mainc.evaluation._snippets import (
    SnippetScore,
    normalize_whitespace,
    score_snippets,
    summarize_snippets,
)


def test_tokens_are_word_runs_and_single_ideographs() -> None:
    assert tokenize("Hello, 世界 world_1! 3.5") == ["Hello", "世", "界", "world_1", "3", "5"]
    assert tokenize("中文abc") == ["中", "文", "abc"]


def test_short_text_is_one_shingle() -> None:
    assert shingles("one two") == {("one", "two"): 1}
    assert shingles("") == {}


def test_shingle_overlap_counts_multisets() -> None:
    gold = "a b c d e"  # shingles: abcd, bcde
    predicted = "a b c d x a b c d"  # abcd, bcdx, cdxa, dxab, xabc, abcd
    score = score_page(gold, predicted)
    assert (score.true_positives, score.false_positives, score.false_negatives) == (1, 5, 1)
    assert score.precision == pytest.approx(1 / 6)
    assert score.recall == pytest.approx(1 / 2)


def test_both_empty_is_perfect_and_empty_prediction_costs_recall_only() -> None:
    assert score_page("", "").precision == 1.0
    empty_prediction = score_page("a b c d", "")
    assert not empty_prediction.has_prediction
    perfect = score_page("a b c d", "a b c d")
    summary = summarize([empty_prediction, perfect])
    assert summary.precision == 1.0  # averaged over the one page with a prediction
    assert summary.recall == 0.5  # averaged over both pages with gold text
    assert summary.f1 == pytest.approx(2 * 1.0 * 0.5 / 1.5)


def test_page_score_f1() -> None:
    score = PageScore(true_positives=3, false_positives=1, false_negatives=3)
    assert score.f1 == pytest.approx(2 * 0.75 * 0.5 / 1.25)


# Snippet gold: trafilatura's evaluation (a snippet is found when it is a substring of the
# text once every whitespace run of both is one space).


def test_whitespace_runs_become_one_space() -> None:
    assert normalize_whitespace("  a\n\t b\u00a0\u2009c \r\n") == "a b c"


def test_snippets_found_after_whitespace_normalisation_only() -> None:
    text = "Menu\nThe first   sentence here.\n\nSecond part follows."
    score = score_snippets(
        wanted=["first sentence", "sentence here. Second\npart", "second part", "missing bit"],
        unwanted=["Menu", "menu", "Footer"],
        predicted=text,
    )
    # found: "first sentence" (spaces), the snippet across the paragraph break; not found:
    # "second part" (case counts), "missing bit"; unwanted: "Menu" found, "menu" and "Footer" not
    assert (score.true_positives, score.false_negatives) == (2, 2)
    assert (score.false_positives, score.true_negatives) == (1, 2)
    assert score.precision == pytest.approx(2 / 3)
    assert score.recall == pytest.approx(2 / 4)
    assert score.f1 == pytest.approx(4 / (4 + 1 + 2))


def test_page_snippet_f1_edges() -> None:
    assert score_snippets([], ["boilerplate"], "the story").f1 == 1.0  # nothing wanted, nothing wrong
    assert score_snippets([], ["boilerplate"], "boilerplate").f1 == 0.0
    empty = score_snippets(["a story"], ["menu"], "")
    assert empty == SnippetScore(true_positives=0, false_positives=0, false_negatives=1, true_negatives=1)
    assert empty.f1 == 0.0 and empty.precision == 0.0 and empty.recall == 0.0
    assert SnippetScore(1, 0, 2, 0).f1 == 0.5  # exactly: a page at the threshold is not lost
    assert SnippetScore(2, 0, 1, 0).f1 == 0.8


def test_snippet_summary_pools_the_counts_of_all_pages() -> None:
    pages = [SnippetScore(2, 1, 1, 1), SnippetScore(0, 0, 3, 3), SnippetScore(3, 0, 0, 2)]
    summary = summarize_snippets(pages)
    # tp 5, fp 1, fn 4: not the mean of the pages' own scores (2/3, 0, 1)
    assert summary.precision == pytest.approx(5 / 6)
    assert summary.recall == pytest.approx(5 / 9)
    assert summary.f1 == pytest.approx(10 / (10 + 1 + 4))
    assert summarize_snippets([]).f1 == 0.0
