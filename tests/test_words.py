"""WCXB's word-level F1 (:mod:`scrapy_mainc.evaluation._words`): exact numbers."""

from __future__ import annotations

import pytest

from scrapy_mainc.evaluation._words import WordScore, score_words, word_tokens


def test_tokens_are_lower_cased_word_runs_counted_as_a_multiset() -> None:
    assert word_tokens("The cat, the HAT; don't 42") == {
        "the": 2,
        "cat": 1,
        "hat": 1,
        "don": 1,
        "t": 1,
        "42": 1,
    }
    assert word_tokens("北京 欢迎你") == {"北京": 1, "欢迎你": 1}  # a CJK run is one token


def test_precision_recall_and_f1_of_a_multiset_overlap() -> None:
    score = score_words(word_tokens("a a b c"), "a b b d e")
    assert (score.shared, score.extracted, score.gold) == (2, 5, 4)  # a once, b once
    assert score.precision == pytest.approx(2 / 5) and score.recall == pytest.approx(2 / 4)
    assert score.f1 == pytest.approx(2 * 0.4 * 0.5 / 0.9)


def test_the_benchmark_s_edge_cases() -> None:
    assert WordScore(0, 0, 0).f1 == 1.0  # no gold text, nothing extracted
    assert WordScore(0, 3, 0).f1 == 0.0  # no gold text, something extracted
    assert WordScore(0, 0, 5).f1 == 0.0  # gold text, nothing extracted
    assert WordScore(0, 4, 5).f1 == 0.0  # nothing shared
