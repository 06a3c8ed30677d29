"""The parameters of fingerprints and of the cluster index: plain frozen records.

They live apart from the code that uses them so that reading the settings (the Scrapy
layer's ``DedupConfig``, whose defaults are these records' own) and handing parameters to
an extraction worker import neither datasketch nor numpy: a crawl with near-duplicate
clustering switched off never loads them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

#: datasketch's permutation scheme of the signatures (its default since datasketch 2.0).
MINHASH_SCHEME = "affine32"


@dataclass(frozen=True, slots=True)
class FingerprintParams:
    """How texts are fingerprinted. Every process sharing one index must use equal values."""

    #: Tokens per shingle for word-separated text. Broder et al. (1997) shingled web pages
    #: with 10 words; 5 keeps different articles on one story apart (they share names and
    #: stock phrases, rarely 5 words in a row) while one changed word alters at most 5
    #: shingles. Tuned on benchmarks/neardup/quality.py over sizes 3 to 7: recall within
    #: 0.01 of the best, and the lowest similarity between different articles but for 7.
    word_shingle: int = 5
    #: Characters per shingle for CJK text: a Chinese word is 1.5 to 2 characters, so 4
    #: characters span 2 to 3 words. Tuned on benchmarks/neardup/quality.py over sizes 2 to
    #: 5: the best recall on extracted text, and different articles further apart than with
    #: 2 or 3 (common bigrams and trigrams make unrelated Chinese articles look alike).
    char_shingle: int = 4
    #: MinHash permutations: datasketch's default. The standard error of a Jaccard
    #: estimate is at most 1 / (2 * sqrt(128)) = 0.044.
    num_perm: int = 128
    #: Seed of datasketch's permutations; signatures with different seeds do not compare.
    seed: int = 1
    #: Texts with fewer tokens are not fingerprinted. 49 words is the shortest text in which
    #: one changed word still leaves a 5-word-shingle Jaccard of 0.8 ((n - 9) / (n + 1)),
    #: rounded to 50: below it, similarity is mostly noise from a handful of shingles.
    min_words: int = 50

    def __post_init__(self) -> None:
        if self.word_shingle < 1 or self.char_shingle < 1:
            raise ValueError("shingle sizes must be at least 1")
        if self.num_perm < 2:
            raise ValueError(f"num_perm must be at least 2, not {self.num_perm}")
        if self.min_words < 0:
            raise ValueError(f"min_words must not be negative, not {self.min_words}")

    @property
    def method(self) -> str:
        """A tag naming everything that makes two fingerprints comparable."""
        return (
            f"minhash-{MINHASH_SCHEME}-blake2b-p{self.num_perm}-s{self.seed}"
            f"-w{self.word_shingle}-c{self.char_shingle}"
        )


#: Key prefix of a Redis index unless told otherwise (``IndexParams.redis_key``).
DEFAULT_REDIS_KEY = "mainc:dedup"
#: Client options that other parameters set (``IndexParams.redis_params`` may not): the
#: index reads bytes, and its time-outs are ``redis_timeout``.
RESERVED_REDIS_PARAMS = {
    "decode_responses": "the index reads replies as bytes",
    "socket_timeout": "the time-out is redis_timeout (MAINC_DEDUP_REDIS_TIMEOUT)",
    "socket_connect_timeout": "the time-out is redis_timeout (MAINC_DEDUP_REDIS_TIMEOUT)",
    "client_name": "the index names its connections (see RedisIndex)",
}

#: Pairs at the candidate threshold (:attr:`IndexParams.candidate_threshold`) share an LSH
#: bucket with at least this probability; the rows per band are the most that reach it.
CANDIDATE_PROBABILITY = 0.5


@dataclass(frozen=True, slots=True)
class IndexParams:
    """Where the index lives and when two texts are near-duplicates.

    Two texts are near-duplicates when the estimated Jaccard similarity of their shingle sets
    reaches :attr:`threshold`, or when the smaller set has at least :attr:`min_size_ratio`
    of the larger's size and at least :attr:`containment` of it is estimated to be in the
    larger (``_match`` has the estimates).
    """

    #: Estimated Jaccard similarity of shingle sets at or above which a text joins a cluster.
    #: 0.8 keeps a story through a new headline or an added paragraph (Jaccard 0.9 on the
    #: benchmark); cut copies are kept by the containment rule.
    threshold: float = 0.8
    #: Estimated share of the smaller shingle set found in the larger at or above which a
    #: text joins a cluster (with :attr:`min_size_ratio`); 0 switches the rule off. On
    #: benchmarks/neardup/quality.py a copy without its first or last paragraphs, or with an
    #: editor's note, keeps all of its shingles (median), another outlet's rewrite 0.44
    #: (0.76 at the 99th percentile, 0.81 at most). The estimate's standard error is about
    #: 0.045 for a copy of 0.6 of the story's size, so 0.85 keeps such copies (with 0.9 the
    #: English pair recall through the index was 0.952, not 0.971) and stays clear of rewrites.
    containment: float = 0.85
    #: The smaller shingle set must have at least this share of the larger's size for the
    #: containment rule: a copy missing up to half of the story still joins it, a teaser or
    #: an excerpt of a long story does not (it would otherwise lead, or join, clusters of
    #: every longer story quoting it).
    min_size_ratio: float = 0.5
    #: ``redis://``, ``rediss://`` or ``unix://`` URL of a shared index; "" for memory. With
    #: :attr:`redis_cluster`, any one node of the cluster (``redis://`` or ``rediss://``).
    redis_url: str = ""
    #: The Redis at :attr:`redis_url` is a node of a Redis Cluster: use redis-py's cluster
    #: client, which finds the other nodes and sends each command to the node of its key.
    redis_cluster: bool = False
    #: Prefix of every key of the index (``<prefix>:meta``, ``<prefix>:rec:...``), so that
    #: several indexes share one Redis or one cluster. No ``{`` or ``}``: a hash tag in the
    #: prefix would put every key of the index in one slot of a cluster.
    redis_key: str = DEFAULT_REDIS_KEY
    #: More options of the Redis client (password, TLS, ...), as for ``redis.Redis`` or
    #: ``redis.cluster.RedisCluster``; not those in ``RESERVED_REDIS_PARAMS``.
    redis_params: Mapping[str, Any] = field(default_factory=dict, hash=False)
    #: Hashes per LSH band holding the buckets of a Redis index (a power of two). A hash stays
    #: compact (Redis's listpack) up to 128 buckets; at about 70 on average few pass that, so
    #: 65,536 suit up to about 5 million representatives (README: Scale and sharding).
    redis_buckets: int = 2**16
    #: How the indexed fingerprints were made; all users of one index must agree.
    fingerprint: FingerprintParams = field(default_factory=FingerprintParams)
    #: Seconds a Redis command (connecting included) may take before it fails with a
    #: TimeoutError. redis-py before 8.0 has no default and waits forever on a server that
    #: stopped answering; 8.x waits 5 s. Commands normally take well under a millisecond.
    redis_timeout: float = 5.0

    def __post_init__(self) -> None:
        if not 0.0 < self.threshold <= 1.0:
            raise ValueError(f"threshold must be in (0, 1], not {self.threshold}")
        if not self.redis_timeout > 0:
            raise ValueError(f"redis_timeout must be positive, not {self.redis_timeout}")
        if not 0.0 <= self.containment <= 1.0:
            raise ValueError(f"containment must be in [0, 1], not {self.containment}")
        if not 0.0 < self.min_size_ratio <= 1.0:
            raise ValueError(f"min_size_ratio must be in (0, 1], not {self.min_size_ratio}")
        if not self.redis_key or "{" in self.redis_key or "}" in self.redis_key:
            raise ValueError(f"redis_key must be a non-empty prefix without {{ or }}, not {self.redis_key!r}")
        for name in sorted(set(self.redis_params) & set(RESERVED_REDIS_PARAMS)):
            raise ValueError(f"redis_params may not set {name!r}: {RESERVED_REDIS_PARAMS[name]}")
        buckets = self.redis_buckets
        if buckets < 1 or buckets > 2**32 or buckets & (buckets - 1):
            raise ValueError(f"redis_buckets must be a power of two up to 2**32, not {buckets}")

    @property
    def candidate_threshold(self) -> float:
        """The lowest Jaccard similarity of two texts that the rules can call near-duplicates.

        Under the containment rule, a set of size ``r * n`` with ``c * r * n`` of its elements
        in a set of size ``n`` has Jaccard ``c * r / (1 + r - c * r)``: lowest at ``c`` =
        :attr:`containment` and ``r`` = :attr:`min_size_ratio` (0.395 for 0.85 and 0.5).
        """
        if self.containment == 0.0:
            return self.threshold
        share = self.containment * self.min_size_ratio
        return min(self.threshold, share / (1.0 + self.min_size_ratio - share))

    @property
    def lsh_shape(self) -> tuple[int, int]:
        """LSH ``(bands, rows)``: the most rows per band (of ``num_perm`` values) for which a
        pair at :attr:`candidate_threshold` shares a band with probability at least
        ``CANDIDATE_PROBABILITY`` (``1 - (1 - J**rows) ** bands``), and as many bands as fit.

        (32, 4) for the defaults: a pair at Jaccard 0.395 is a candidate with probability
        0.55, at 0.5 with 0.87, at 0.6 with 0.99, at 0.8 with 1 - 5e-8 (the (9, 13) that
        datasketch chose for the threshold 0.8 alone: 0.40); texts with Jaccard 0.1 with
        0.003.
        """
        num_perm = self.fingerprint.num_perm
        jaccard = self.candidate_threshold
        rows = 1
        for candidate in range(2, num_perm // 2 + 1):
            bands = num_perm // candidate
            if 1.0 - (1.0 - jaccard**candidate) ** bands < CANDIDATE_PROBABILITY:
                break
            rows = candidate
        return num_perm // rows, rows
