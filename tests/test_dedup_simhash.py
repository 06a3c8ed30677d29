"""SimHash against hashes from an independent tool and a bit-by-bit reference; Hamming distance."""

from __future__ import annotations

import random
from collections import Counter

from scrapy_mainc.dedup import hamming_distance, simhash
from scrapy_mainc.dedup._simhash import feature_hash

# BLAKE2b with a 64-bit digest, from coreutils: printf '%s' a | b2sum -l 64
HASH_A = 0x40F89E395B66422F
HASH_B = 0x8472C2E34D854F75
HASH_C = 0x373F6364CD072C1B


def reference_simhash(features: list[str]) -> int:
    """Charikar's SimHash bit by bit: +weight for a set bit, -weight for a clear one."""
    counts = Counter(features)
    result = 0
    for bit in range(64):
        vote = sum(w if feature_hash(f) >> bit & 1 else -w for f, w in counts.items())
        if vote > 0:
            result |= 1 << bit
    return result


def test_feature_hash_is_64_bit_blake2b() -> None:
    assert feature_hash("a") == HASH_A
    assert feature_hash("b") == HASH_B
    assert feature_hash("c") == HASH_C


def test_simhash_of_one_feature_is_its_hash() -> None:
    assert simhash(["a"]) == HASH_A


def test_simhash_of_two_features_keeps_the_bits_they_share() -> None:
    # Where the two hashes differ the votes tie (+1 - 1 = 0) and ties give 0.
    assert simhash(["a", "b"]) == HASH_A & HASH_B == 0x0070822149044225


def test_simhash_of_three_features_is_the_bitwise_majority() -> None:
    majority = (HASH_A & HASH_B) | (HASH_A & HASH_C) | (HASH_B & HASH_C)
    assert simhash(["a", "b", "c"]) == majority == 0x047AC2614D074E3F


def test_simhash_weights_repeated_features() -> None:
    # "a" twice outvotes "b" at every bit where they differ.
    assert simhash(["a", "b", "a"]) == HASH_A


def test_simhash_of_nothing_is_zero() -> None:
    assert simhash([]) == 0


def test_simhash_matches_the_reference_on_random_features() -> None:
    rng = random.Random(5)
    for _ in range(20):
        features = [f"w{rng.randrange(40)}" for _ in range(rng.randrange(1, 60))]
        assert simhash(features) == reference_simhash(features)


def test_hamming_distance() -> None:
    assert hamming_distance(0b1011, 0b0110) == 3
    assert hamming_distance(HASH_A, HASH_A) == 0
    assert hamming_distance(0, 2**64 - 1) == 64
    assert hamming_distance(HASH_A, HASH_B) == 30
