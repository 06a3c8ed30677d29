"""The decisions compared by quality.py: pairwise MinHash and SimHash rules over every
pair of pages, and the leader-clustering index (in memory or on a throwaway Redis server).
"""

from __future__ import annotations

import itertools
import tempfile
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from example_project.newsdemo.localredis import find_redis_server, start_redis_server
from scrapy_mainc.dedup import (
    Assignment,
    Fingerprint,
    FingerprintParams,
    IndexParams,
    fingerprint_text,
    open_index,
    shingle_size,
    shingles,
    tokens,
)


@dataclass(frozen=True, slots=True)
class Signatures:
    """Fingerprints of one kind of text for every page, also as arrays."""

    fingerprints: list[Fingerprint | None]
    minhash: np.ndarray  # (pages, num_perm) uint32; zero rows where absent
    simhash: np.ndarray  # (pages,) uint64
    present: np.ndarray  # (pages,) bool: long enough to fingerprint
    sizes: np.ndarray  # (pages,) float: distinct shingles; 1 where absent


def signatures(texts: Sequence[str], params: FingerprintParams) -> Signatures:
    fingerprints = [fingerprint_text(text, params) for text in texts]
    minhash = np.zeros((len(texts), params.num_perm), dtype=np.uint32)
    simhash = np.zeros(len(texts), dtype=np.uint64)
    for row, fingerprint in enumerate(fingerprints):
        if fingerprint is not None:
            minhash[row], simhash[row] = fingerprint.minhash, fingerprint.simhash
    present = np.array([fingerprint is not None for fingerprint in fingerprints], dtype=bool)
    sizes = np.array(
        [fingerprint.shingles if fingerprint else 1 for fingerprint in fingerprints], dtype=float
    )
    return Signatures(fingerprints, minhash, simhash, present, sizes)


def minhash_pairs(sig: Signatures, params: IndexParams, containment: bool) -> set[tuple[int, int]]:
    """Pairs whose estimated Jaccard similarity reaches the threshold, or (``containment``)
    that pass the containment rule too; the index's estimates (``_match``), over all pairs."""
    kept = sig.minhash.astype(np.uint16)
    pairs = set()
    for row in np.flatnonzero(sig.present):
        jaccard = (kept[row + 1 :] == kept[row]).mean(axis=1)
        hit = jaccard >= params.threshold
        if containment and params.containment > 0:
            others = sig.sizes[row + 1 :]
            smaller = np.minimum(others, sig.sizes[row])
            share = np.minimum(jaccard / (1 + jaccard) * (others + sig.sizes[row]) / smaller, 1.0)
            ratio = smaller / np.maximum(others, sig.sizes[row])
            hit |= (share >= params.containment) & (ratio >= params.min_size_ratio)
        hits = np.flatnonzero(hit & sig.present[row + 1 :])
        pairs.update((int(row), int(row + 1 + index)) for index in hits)
    return pairs


def simhash_pairs(sig: Signatures, bits: int) -> set[tuple[int, int]]:
    pairs = set()
    for row in np.flatnonzero(sig.present):
        distance = np.bitwise_count(sig.simhash[row + 1 :] ^ sig.simhash[row])
        hits = np.flatnonzero((distance <= bits) & sig.present[row + 1 :])
        pairs.update((int(row), int(row + 1 + hit)) for hit in hits)
    return pairs


def assignments(sig: Signatures, params: IndexParams, order: Sequence[int]) -> dict[int, Assignment]:
    """The leader-clustering index's assignment of each page (fed in ``order``): in memory,
    or in an emptied Redis database when ``params.redis_url`` is set."""
    if params.redis_url:
        import redis  # only with --redis

        with redis.Redis.from_url(params.redis_url) as client:
            client.flushdb()
    with open_index(params) as index:
        return {
            row: index.assign(fingerprint, f"page:{row}")
            for row in order
            if (fingerprint := sig.fingerprints[row]) is not None
        }


def cluster_pairs(assigned: dict[int, Assignment]) -> set[tuple[int, int]]:
    """Pairs of pages put in one cluster."""
    clusters: dict[str, list[int]] = {}
    for row, assignment in assigned.items():
        clusters.setdefault(assignment.cluster_id, []).append(row)
    return {(min(pair), max(pair)) for rows in clusters.values() for pair in itertools.combinations(rows, 2)}


def exact_overlap(pages: Sequence[Any], params: FingerprintParams) -> dict[str, tuple[float, float]]:
    """Per variant: median exact Jaccard and containment (of the smaller set in the larger)
    of the shingles of its placed text with those of the whole article."""

    def shingle_set(text: str) -> set[str]:
        token_list = tokens(text)
        return set(shingles(token_list, shingle_size(token_list, params.word_shingle, params.char_shingle)))

    whole = {page.article: shingle_set(page.placed_text) for page in pages if page.variant == "template"}
    measured: dict[str, list[tuple[float, float]]] = {}
    for page in pages:
        first, second = shingle_set(page.placed_text), whole[page.article]
        shared = len(first & second)
        jaccard = shared / max(len(first | second), 1)
        measured.setdefault(page.variant, []).append((jaccard, shared / max(min(len(first), len(second)), 1)))
    return {
        variant: (float(np.median([j for j, _ in values])), float(np.median([c for _, c in values])))
        for variant, values in measured.items()
    }


@contextmanager
def local_redis(wanted: bool) -> Iterator[str]:
    """The URL of a throwaway redis-server when ``wanted`` (else ""), stopped afterwards."""
    if not wanted:
        yield ""
        return
    binary = find_redis_server()
    if binary is None:
        raise SystemExit("--redis: no redis-server binary found")
    with tempfile.TemporaryDirectory() as scratch:
        server = start_redis_server(binary, Path(scratch))
        try:
            yield server.url
        finally:
            server.stop()
