"""Tokens and shingles of known strings, word and CJK character shingling."""

from __future__ import annotations

import pytest

from scrapy_mainc.dedup import shingle_size, shingles, tokens
from scrapy_mainc.dedup._shingles import cjk_flags


def test_tokens_normalise_case_width_and_punctuation() -> None:
    assert tokens("The  QUICK, brown—fox! Ｆｕｌｌ ｗｉｄｔｈ １２３ e-mail x_y") == [
        "the",
        "quick",
        "brown",
        "fox",
        "full",
        "width",
        "123",
        "e",
        "mail",
        "x_y",
    ]


def test_tokens_split_every_cjk_character() -> None:
    assert tokens("北京市长 said 你好，世界。") == ["北", "京", "市", "长", "said", "你", "好", "世", "界"]
    assert tokens("東京タワー와 서울") == ["東", "京", "タ", "ワ", "ー", "와", "서", "울"]
    assert tokens("iPhone15发布会") == ["iphone15", "发", "布", "会"]


def test_tokens_of_nothing() -> None:
    assert tokens("") == []
    assert tokens(" ,.;— ") == []


def test_word_shingles_of_a_known_string() -> None:
    words = tokens("The quick brown fox jumps over")
    assert shingles(words, 3) == ["the quick brown", "quick brown fox", "brown fox jumps", "fox jumps over"]
    assert shingles(words, 6) == ["the quick brown fox jumps over"]
    assert shingles(words, 1) == words


def test_shingles_keep_repeats_in_order() -> None:
    assert shingles(tokens("a b a b a"), 2) == ["a b", "b a", "a b", "b a"]


def test_short_text_is_one_shingle_and_no_text_none() -> None:
    assert shingles(["only", "two"], 5) == ["only two"]
    assert shingles([], 5) == []


def test_shingle_size_must_be_positive() -> None:
    with pytest.raises(ValueError, match="at least 1"):
        shingles(["a"], 0)


def test_cjk_character_shingles_join_characters_without_spaces() -> None:
    characters = tokens("北京市长在北京")
    assert shingles(characters, 3) == ["北京市", "京市长", "市长在", "长在北", "在北京"]
    assert shingles(tokens("在 Beijing 的 2024 年"), 2) == ["在 beijing", "beijing 的", "的 2024", "2024 年"]


def test_cjk_flags_cover_ideographs_kana_and_hangul() -> None:
    assert cjk_flags(["中", "カ", "한", "a", "中中", "1"]) == [True, True, True, False, False, False]


def test_shingle_size_follows_the_majority_script() -> None:
    assert shingle_size(tokens("北京市长 said"), 5, 4) == 4  # 4 of 5 tokens are CJK
    assert shingle_size(tokens("北京 said hi"), 5, 4) == 4  # exactly half: characters
    assert shingle_size(tokens("Mayor 李 of Beijing said"), 5, 4) == 5  # 1 of 5
    assert shingle_size([], 5, 4) == 5
