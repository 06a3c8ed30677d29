"""A 64-bit SimHash (Charikar 2002), as used for near-duplicate web pages by Manku, Jain and
Das Sarma, "Detecting Near-Duplicates for Web Crawling" (WWW 2007).

Each distinct feature is hashed to 64 bits with BLAKE2b (``digest_size=8``, the digest read
as a big-endian unsigned integer; stable across processes, machines and Python versions,
unlike the salted built-in ``hash()``). Bit ``i`` of the SimHash (bit 0 the least
significant) is 1 when the features whose hash has bit ``i`` set outweigh, by their number
of occurrences, those whose hash has it clear; ties give 0. No features give 0.

Near-duplicate texts get SimHashes a few bits apart: Manku et al. call 64-bit SimHashes
within Hamming distance 3 near-duplicates for their 8-billion-page crawl.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Iterable, Sequence

import numpy as np

SIMHASH_BITS = 64
_BIT_POSITIONS = np.arange(SIMHASH_BITS, dtype=np.uint64)


def feature_hash(feature: str) -> int:
    """The 64-bit BLAKE2b hash of ``feature`` (UTF-8), as an unsigned integer."""
    digest = hashlib.blake2b(feature.encode("utf-8"), digest_size=8).digest()
    return int.from_bytes(digest, "big")


def simhash(features: Iterable[str]) -> int:
    """The 64-bit SimHash of ``features``, each weighted by how often it occurs."""
    counts = Counter(features)
    hashes = [feature_hash(feature) for feature in counts]
    return simhash_of_hashes(hashes, list(counts.values()))


def simhash_of_hashes(hashes: Sequence[int], weights: Sequence[int]) -> int:
    """The SimHash of features given by their 64-bit hashes and weights."""
    if not hashes:
        return 0
    hash_array = np.array(hashes, dtype=np.uint64)
    weight_array = np.array(weights, dtype=np.int64)
    bits = ((hash_array[:, None] >> _BIT_POSITIONS) & np.uint64(1)).astype(bool)
    votes = np.where(bits, weight_array[:, None], -weight_array[:, None]).sum(axis=0)
    return sum(1 << int(position) for position in np.flatnonzero(votes > 0))


def hamming_distance(first: int, second: int) -> int:
    """Number of bit positions in which two SimHashes differ."""
    return (first ^ second).bit_count()
