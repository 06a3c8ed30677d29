"""Fingerprints: thresholds, record form, MinHash estimates of known pairs, CJK shingling."""

from __future__ import annotations

import dataclasses
import json
import pickle

import pytest

from scrapy_mainc.dedup import (
    Fingerprint,
    FingerprintParams,
    coerce_fingerprint,
    fingerprint_text,
    lean_minhash,
)

PARAMS = FingerprintParams()


def words(count: int, prefix: str = "w") -> list[str]:
    return [f"{prefix}{index}" for index in range(count)]


def estimate(first: Fingerprint, second: Fingerprint) -> float:
    return float(lean_minhash(first.minhash, PARAMS).jaccard(lean_minhash(second.minhash, PARAMS)))


def fingerprint(text: str, params: FingerprintParams = PARAMS) -> Fingerprint:
    result = fingerprint_text(text, params)
    assert result is not None
    return result


def test_default_params_and_method_tag() -> None:
    params = (PARAMS.word_shingle, PARAMS.char_shingle, PARAMS.num_perm, PARAMS.min_words)
    assert params == (5, 4, 128, 50)
    assert PARAMS.method == "minhash-affine32-blake2b-p128-s1-w5-c4"


@pytest.mark.parametrize(
    "changes", [{"word_shingle": 0}, {"char_shingle": 0}, {"num_perm": 1}, {"min_words": -1}]
)
def test_bad_params_raise(changes: dict[str, int]) -> None:
    with pytest.raises(ValueError):
        FingerprintParams(**changes)


def test_texts_under_min_words_get_no_fingerprint() -> None:
    assert fingerprint_text(" ".join(words(49)), PARAMS) is None
    assert fingerprint(" ".join(words(50))).words == 50
    assert fingerprint_text("", FingerprintParams(min_words=0)) is None
    assert fingerprint("one two", FingerprintParams(min_words=0)).words == 2


def test_fingerprint_record_is_json_friendly_and_picklable() -> None:
    result = fingerprint(" ".join(words(80)))
    assert len(result.minhash) == 128
    assert all(isinstance(value, int) and 0 <= value < 2**32 for value in result.minhash)
    assert isinstance(result.simhash, int) and 0 <= result.simhash < 2**64
    as_json = json.loads(json.dumps(result.to_dict()))
    assert as_json["words"] == 80 and as_json["method"] == PARAMS.method
    assert as_json["shingles"] == 76  # 80 words, 5 a shingle, all distinct
    assert Fingerprint.from_dict(as_json) == result
    assert pickle.loads(pickle.dumps(result)) == result
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.words = 3  # type: ignore[misc]


def test_shingles_counts_distinct_shingles() -> None:
    repeated = " ".join(words(60) * 2)  # 120 words, 116 shingles, of which 60 distinct
    assert (fingerprint(repeated).words, fingerprint(repeated).shingles) == (120, 60)
    assert fingerprint(han(300)).shingles == 297  # four-character shingles


def test_fingerprints_ignore_case_punctuation_and_spacing() -> None:
    text = " ".join(words(60))
    noisy = "  " + text.upper().replace(" ", ",\n  ") + "!"
    assert fingerprint(noisy) == fingerprint(text)


def test_one_changed_word_estimates_its_exact_jaccard() -> None:
    original = words(300)
    edited = [*original[:150], "changed", *original[151:]]
    # 296 shingles each; the 5 covering word 150 differ: Jaccard 291 / 301 = 0.9668.
    similarity = estimate(fingerprint(" ".join(original)), fingerprint(" ".join(edited)))
    assert abs(similarity - 291 / 301) <= 0.05  # 3 standard errors at 128 permutations


def test_a_trimmed_ending_estimates_its_exact_jaccard() -> None:
    original = words(300)
    # 296 against 266 shingles, all shared: Jaccard 266 / 296 = 0.8986.
    similarity = estimate(fingerprint(" ".join(original)), fingerprint(" ".join(original[:270])))
    assert abs(similarity - 266 / 296) <= 0.08


def test_unrelated_texts_share_no_signature_value() -> None:
    first, second = fingerprint(" ".join(words(300, "w"))), fingerprint(" ".join(words(300, "v")))
    assert estimate(first, second) == 0.0


def test_reordered_text_is_not_a_near_duplicate() -> None:
    # Same words, other order: only shingles spanning unchanged stretches survive.
    original = words(300)
    shuffled = original[::2] + original[1::2]
    assert estimate(fingerprint(" ".join(original)), fingerprint(" ".join(shuffled))) < 0.05


def han(count: int, start: int = 0x4E00) -> str:
    return "".join(chr(start + index) for index in range(count))


def test_cjk_text_is_shingled_by_characters() -> None:
    text = han(300)
    assert fingerprint(text).words == 300
    same_chars = fingerprint(text, FingerprintParams(word_shingle=9))
    assert same_chars.minhash == fingerprint(text).minhash  # the word size is not used
    assert fingerprint(text, FingerprintParams(char_shingle=3)).minhash != fingerprint(text).minhash


def test_one_changed_character_estimates_its_exact_jaccard() -> None:
    text = han(300)
    edited = text[:150] + "变" + text[151:]
    # 297 four-character shingles each; the 4 covering character 150 differ: 293 / 301.
    assert abs(estimate(fingerprint(text), fingerprint(edited)) - 293 / 301) <= 0.05


def test_mixed_text_uses_the_majority_script() -> None:
    chinese_with_latin = han(200) + " iPhone 15 Pro " + han(100, 0x5000)
    assert (
        fingerprint(chinese_with_latin).minhash
        == fingerprint(chinese_with_latin, FingerprintParams(word_shingle=9)).minhash
    )
    english_with_han = " ".join(words(200)) + " 李 " + " ".join(words(100, "v"))
    assert (
        fingerprint(english_with_han).minhash
        == fingerprint(english_with_han, FingerprintParams(char_shingle=9)).minhash
    )


def test_coerce_accepts_matching_fingerprints_only() -> None:
    result = fingerprint(" ".join(words(60)))
    assert coerce_fingerprint(result, PARAMS) is result
    assert coerce_fingerprint(result.to_dict(), PARAMS) == result
    assert coerce_fingerprint(result, FingerprintParams(char_shingle=3)) is None
    short = dataclasses.replace(result, minhash=result.minhash[:64])
    assert coerce_fingerprint(short, PARAMS) is None
    assert coerce_fingerprint({"minhash": [1, 2]}, PARAMS) is None
    too_big = dataclasses.replace(result, minhash=(2**32, *result.minhash[1:]))
    assert coerce_fingerprint(too_big, PARAMS) is None
    assert coerce_fingerprint({**result.to_dict(), "minhash": None}, PARAMS) is None
    assert coerce_fingerprint(None, PARAMS) is None
    assert coerce_fingerprint("not a fingerprint", PARAMS) is None
    # The dict form of the version before set sizes: no "shingles", so made again.
    assert coerce_fingerprint({k: v for k, v in result.to_dict().items() if k != "shingles"}, PARAMS) is None
    assert coerce_fingerprint(dataclasses.replace(result, shingles=0), PARAMS) is None
    assert coerce_fingerprint(dataclasses.replace(result, shingles=61), PARAMS) is None
