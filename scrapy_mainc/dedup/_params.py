"""The parameters of fingerprints and of the cluster index: plain frozen records.

They live apart from the code that uses them so that reading the settings
(``DedupConfig``) and handing parameters to an extraction worker import neither datasketch
nor numpy: a crawl with near-duplicate clustering switched off never loads them.
"""

from __future__ import annotations

from dataclasses import dataclass, field

#: datasketch's permutation scheme of the signatures (its default since datasketch 2.0).
MINHASH_SCHEME = "affine32"


@dataclass(frozen=True, slots=True)
class FingerprintParams:
    """How texts are fingerprinted. Every process sharing one index must use equal values."""

    #: Tokens per shingle for word-separated text. Broder et al. (1997) shingled web pages
    #: with 10 words; 5 keeps different articles on one story apart (they share names and
    #: stock phrases, rarely 5 words in a row) while one changed word alters at most 5
    #: shingles. Tuned on benchmarks/neardup_quality.py over sizes 3 to 7: recall within
    #: 0.01 of the best, and the lowest similarity between different articles but for 7.
    word_shingle: int = 5
    #: Characters per shingle for CJK text: a Chinese word is 1.5 to 2 characters, so 4
    #: characters span 2 to 3 words. Tuned on benchmarks/neardup_quality.py over sizes 2 to
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


@dataclass(frozen=True, slots=True)
class IndexParams:
    """Where the index lives and when two texts are near-duplicates."""

    #: Estimated Jaccard similarity of shingle sets at or above which a text joins a cluster.
    #: 0.8 keeps a story through a new headline, an added paragraph or a trimmed ending.
    threshold: float = 0.8
    #: ``redis://``, ``rediss://`` or ``unix://`` URL of a shared index; "" for memory.
    redis_url: str = ""
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
