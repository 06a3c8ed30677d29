"""Candidates and verification: LSH band keys of a signature, and the estimates that decide.

Candidates. A signature of ``bands * rows`` MinHash values is cut into ``bands`` bands of
``rows`` consecutive values; two texts are candidates when all values of some band are
equal (the banding of Indyk and Motwani's LSH as applied to MinHash by Broder; Leskovec,
Rajaraman and Ullman, *Mining of Massive Datasets*, ch. 3.4). A band is keyed by the 64-bit
BLAKE2b digest of its values (little-endian uint32), so a bucket key is 8 bytes whatever
``rows`` is. The bands are chosen for the lowest similarity the rules accept
(``IndexParams.lsh_shape``), so a pair near the Jaccard threshold is a candidate almost
surely rather than about half the time.

Verification. Each candidate is compared with the text over its whole signature:

* Jaccard ``J = |A & B| / |A | B|`` is estimated by the share of equal signature values.
  The index keeps the low 16 bits of each value (b-bit minwise hashing, Li and König,
  WWW 2010), half the memory of 32; two different values then look equal with probability
  2**-16, which raises the estimate by at most 0.000015, ignored here.
* With the set sizes ``a = |A|`` and ``b = |B|`` (``Fingerprint.shingles``) the intersection
  is ``J / (1 + J) * (a + b)``, so the containment of the smaller set in the larger is
  ``C = J * (a + b) / ((1 + J) * min(a, b))`` (capped at 1), the estimate LSH Ensemble
  (Zhu et al., VLDB 2016) derives from MinHash Jaccard.

Two texts are near-duplicates when ``J >= threshold``, or when ``min(a, b) / max(a, b) >=
min_size_ratio`` and ``C >= containment`` (``IndexParams``).
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from ._params import IndexParams

#: Signature values as the index keeps and compares them: their low 16 bits.
VALUE_DTYPE = np.dtype("<u2")

Values = npt.NDArray[np.uint16]


@dataclass(frozen=True, slots=True)
class Probe:
    """A fingerprint as the index uses it."""

    #: The signature's values as kept and compared (``VALUE_DTYPE``).
    values: Values
    #: Number of distinct shingles (the set's size).
    shingles: int
    #: The 8-byte digest of each band, in band order.
    bands: tuple[bytes, ...]


#: An indexed item: its cluster id and its number in the cluster (``Representative.number``).
RecordKey = tuple[str, int]


@dataclass(frozen=True, slots=True)
class Representative:
    """An item that represents its cluster in the index, as the index stores it."""

    cluster_id: str
    #: 0 for the cluster's first item (its leader), 1 for its longer copy (``_index``).
    number: int
    #: URL of the cluster's first item (for the longer copy too: what its matches duplicate).
    url: str
    values: Values
    shingles: int

    @property
    def key(self) -> RecordKey:
        return (self.cluster_id, self.number)

    def is_from(self, probe: Probe) -> bool:
        """Whether this representative was stored from ``probe`` (same size and values)."""
        return self.shingles == probe.shingles and bool(np.array_equal(self.values, probe.values))


@dataclass(frozen=True, slots=True)
class Similarity:
    """Estimated similarity of two shingle sets."""

    #: Estimated Jaccard similarity.
    jaccard: float
    #: Estimated share of the smaller set found in the larger.
    containment: float
    #: Size of the smaller set over the size of the larger.
    size_ratio: float


def kept_values(minhash: Sequence[int] | npt.NDArray[np.uint32]) -> Values:
    """The low 16 bits of each signature value, as the index keeps them."""
    return np.asarray(minhash, dtype=np.uint32).astype(VALUE_DTYPE)


def band_digests(minhash: Sequence[int] | npt.NDArray[np.uint32], bands: int, rows: int) -> tuple[bytes, ...]:
    """The 64-bit BLAKE2b digest of each band of ``rows`` values (of the first ``bands * rows``)."""
    values = np.asarray(minhash, dtype="<u4")
    return tuple(
        hashlib.blake2b(values[band * rows : (band + 1) * rows].tobytes(), digest_size=8).digest()
        for band in range(bands)
    )


def make_probe(minhash: Sequence[int], shingles: int, params: IndexParams) -> Probe:
    """The probe of a signature and its set size under ``params``."""
    bands, rows = params.lsh_shape
    return Probe(kept_values(minhash), shingles, band_digests(minhash, bands, rows))


def containment(jaccard: float, first_size: int, second_size: int) -> float:
    """The share of the smaller set found in the larger, given their Jaccard similarity and
    sizes: ``J / (1 + J) * (a + b) / min(a, b)``, at most 1."""
    intersection = jaccard / (1.0 + jaccard) * (first_size + second_size)
    return min(intersection / min(first_size, second_size), 1.0)


def estimate(first: Values, first_size: int, second: Values, second_size: int) -> Similarity:
    """Jaccard, containment and size ratio of two sets from their kept values and sizes."""
    jaccard = float(np.count_nonzero(first == second)) / len(first)
    ratio = min(first_size, second_size) / max(first_size, second_size)
    return Similarity(jaccard, containment(jaccard, first_size, second_size), ratio)


def is_near_duplicate(similarity: Similarity, params: IndexParams) -> bool:
    """Whether ``similarity`` passes the Jaccard rule or the containment rule of ``params``."""
    if similarity.jaccard >= params.threshold:
        return True
    return (
        params.containment > 0.0
        and similarity.size_ratio >= params.min_size_ratio
        and similarity.containment >= params.containment
    )
