"""The shared evaluation metric (ALGORITHMS.md, "Scoring")."""

from __future__ import annotations

import pytest

from scrapy_mainc.evaluation._metric import PageScore, score_page, shingles, summarize, tokenize


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
