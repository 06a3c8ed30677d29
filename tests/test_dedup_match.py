"""Candidates and verification: LSH shape, band keys, and the Jaccard and containment rules."""

from __future__ import annotations

import numpy as np
import pytest

from scrapy_mainc.dedup import FingerprintParams, IndexParams, fingerprint_text, shingles, tokens
from scrapy_mainc.dedup._index import LONGER_COPY_GAIN, Match, extends
from scrapy_mainc.dedup._match import (
    Probe,
    Representative,
    Similarity,
    band_digests,
    containment,
    estimate,
    is_near_duplicate,
    kept_values,
    make_probe,
)

PARAMS = IndexParams()


def words(start: int, stop: int) -> list[str]:
    return [f"w{n}" for n in range(start, stop)]


def shingle_set(token_list: list[str]) -> set[str]:
    return set(shingles(token_list, 5))


def test_containment_of_hand_built_shingle_sets() -> None:
    story = shingle_set(words(0, 300))  # 296 shingles
    cut = shingle_set(words(60, 300))  # the first 60 words gone: 236 shingles, all in story
    shared = len(story & cut)
    jaccard = shared / len(story | cut)
    assert (len(story), len(cut), shared, jaccard) == (296, 236, 236, 236 / 296)
    assert containment(jaccard, len(story), len(cut)) == pytest.approx(1.0)
    # Two cut copies: words 60-299 and 0-239 share words 60-239, 176 shingles of 236 each.
    other_end = shingle_set(words(0, 240))
    shared = len(cut & other_end)
    jaccard = shared / len(cut | other_end)
    assert (shared, len(cut | other_end)) == (176, 296)
    assert containment(jaccard, len(cut), len(other_end)) == pytest.approx(176 / 236)


def test_containment_is_of_the_smaller_set_and_capped_at_one() -> None:
    # |A| = 100, |B| = 50, |A & B| = 40: Jaccard 40 / 110.
    assert containment(40 / 110, 100, 50) == pytest.approx(40 / 50)
    assert containment(40 / 110, 50, 100) == pytest.approx(40 / 50)
    # An estimate above what the sizes allow (J = 0.6 for sizes 100 and 50 means 56.25
    # shared of 50) is capped.
    assert containment(0.6, 100, 50) == 1.0
    assert containment(0.0, 100, 50) == 0.0


def test_estimates_from_kept_values_and_sizes() -> None:
    first = np.array([1, 2, 3, 4, 5, 6, 7, 8], dtype=np.uint16)
    second = np.array([1, 2, 3, 4, 5, 6, 0, 0], dtype=np.uint16)
    # 6 of 8 equal: J = 0.75; sizes 40 and 30: intersection 0.75 / 1.75 * 70 = 30.
    assert estimate(first, 40, second, 30) == Similarity(0.75, 1.0, 0.75)
    # Sizes 100 and 100: intersection 0.75 / 1.75 * 200 = 85.71 of 100.
    similarity = estimate(first, 100, second, 100)
    assert similarity.jaccard == 0.75
    assert similarity.containment == pytest.approx(600 / 700)
    assert similarity.size_ratio == 1.0


def test_the_index_keeps_the_low_16_bits() -> None:
    assert kept_values([0x12345678, 0xFFFF0001, 7]).tolist() == [0x5678, 0x0001, 7]
    assert kept_values([1]).dtype == np.dtype("<u2")


@pytest.mark.parametrize(
    ("similarity", "expected"),
    [
        (Similarity(0.8, 0.0, 1.0), True),  # the Jaccard rule alone
        (Similarity(0.79, 0.84, 1.0), False),
        (Similarity(0.5, 0.85, 0.5), True),  # the containment rule at both limits
        (Similarity(0.5, 0.85, 0.49), False),  # too small a share of the other's size
        (Similarity(0.5, 0.84, 0.9), False),
        (Similarity(0.1, 1.0, 0.1), False),  # a teaser: 2 paragraphs of 20
    ],
)
def test_near_duplicate_rules(similarity: Similarity, expected: bool) -> None:
    assert is_near_duplicate(similarity, PARAMS) is expected


def test_containment_zero_switches_the_rule_off() -> None:
    off = IndexParams(containment=0.0)
    assert not is_near_duplicate(Similarity(0.7, 1.0, 0.7), off)
    assert is_near_duplicate(Similarity(0.7, 1.0, 0.7), PARAMS)


def test_candidate_threshold_is_the_lowest_jaccard_the_rules_accept() -> None:
    # c * r / (1 + r - c * r) with c = 0.85, r = 0.5: 0.425 / 1.075.
    assert PARAMS.candidate_threshold == pytest.approx(0.425 / 1.075)
    assert IndexParams(containment=0.0).candidate_threshold == 0.8
    strict = IndexParams(threshold=0.9, containment=0.95, min_size_ratio=0.8)
    assert strict.candidate_threshold == pytest.approx(0.76 / 1.04)
    assert IndexParams(threshold=0.3).candidate_threshold == 0.3


@pytest.mark.parametrize(
    ("params", "shape"),
    [
        (PARAMS, (32, 4)),
        (IndexParams(containment=0.0), (10, 12)),
        (IndexParams(fingerprint=FingerprintParams(num_perm=64)), (21, 3)),
    ],
)
def test_lsh_shape_makes_pairs_at_the_candidate_threshold_likely_candidates(
    params: IndexParams, shape: tuple[int, int]
) -> None:
    assert params.lsh_shape == shape
    bands, rows = shape
    jaccard = params.candidate_threshold
    assert 1 - (1 - jaccard**rows) ** bands >= 0.5
    fewer = params.fingerprint.num_perm // (rows + 1)
    assert 1 - (1 - jaccard ** (rows + 1)) ** fewer < 0.5  # one more row would miss the mark


def test_band_digests_equal_exactly_where_bands_are_equal() -> None:
    first = list(range(128))
    second = [*range(4), *(1000 + n for n in range(4, 124)), *range(124, 128)]
    a, b = band_digests(first, 32, 4), band_digests(second, 32, 4)
    assert len(a) == 32 and all(len(digest) == 8 for digest in a)
    assert [x == y for x, y in zip(a, b)] == [True] + [False] * 30 + [True]
    assert len(set(a)) == 32  # bands of different values differ


def probe_of(text: str) -> Probe:
    fingerprint = fingerprint_text(text, PARAMS.fingerprint)
    assert fingerprint is not None
    assert fingerprint.shingles == len(shingle_set(tokens(text)))
    return make_probe(fingerprint.minhash, fingerprint.shingles, PARAMS)


def leader_of(probe: Probe) -> Representative:
    return Representative("c", 0, "http://leader", probe.values, probe.shingles)


def test_a_longer_member_containing_the_leader_extends_the_cluster() -> None:
    leader = leader_of(probe_of(" ".join(words(60, 300))))  # 236 shingles
    story = probe_of(" ".join(words(0, 300)))  # 296 shingles: 1.25 times the leader
    similarity = estimate(story.values, story.shingles, leader.values, leader.shingles)
    assert similarity.containment >= PARAMS.containment
    assert extends(story, Match(leader, similarity), PARAMS)
    # Not when the match was the longer copy itself, nor with containment off.
    longer = Representative("c", 1, "http://leader", leader.values, leader.shingles)
    assert not extends(story, Match(longer, similarity), PARAMS)
    assert not extends(story, Match(leader, similarity), IndexParams(containment=0.0))


def test_a_member_less_than_ten_percent_longer_does_not_extend() -> None:
    leader = leader_of(probe_of(" ".join(words(0, 280))))  # 276 shingles
    slightly = probe_of(" ".join(words(0, 300)))  # 296: 1.07 times
    assert 296 < LONGER_COPY_GAIN * 276
    similarity = estimate(slightly.values, slightly.shingles, leader.values, leader.shingles)
    assert is_near_duplicate(similarity, PARAMS)
    assert not extends(slightly, Match(leader, similarity), PARAMS)
