"""Fingerprints of a main text: a MinHash signature of its shingles, their number, and a 64-bit
SimHash.

``fingerprint_text`` is a plain top-level function of picklable values, so it runs as well
in an extraction worker process as in a notebook. Each distinct shingle is hashed once, with
64-bit BLAKE2b (``_simhash.feature_hash``): the SimHash uses all 64 bits, weighted by the
shingle's count; the MinHash is datasketch's (scheme ``affine32``, the low 32 bits of that
hash as its input hash, permuted by ``num_perm`` seeded affine maps after datasketch's own
MurmurHash3 pre-mix). The estimated Jaccard similarity of two signatures is the share of
equal positions.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from datasketch import LeanMinHash, MinHash

from ._params import MINHASH_SCHEME, FingerprintParams
from ._shingles import shingle_size, shingles, tokens
from ._simhash import feature_hash, simhash_of_hashes


@dataclass(frozen=True, slots=True)
class Fingerprint:
    """The fingerprint of one text; :meth:`to_dict` gives its JSON form."""

    #: :attr:`FingerprintParams.method` of the parameters that made it.
    method: str
    #: The MinHash signature: ``num_perm`` unsigned 32-bit integers.
    minhash: tuple[int, ...]
    #: The 64-bit SimHash of the same shingles (unsigned; above 2**53 for half of all texts,
    #: so JavaScript readers need BigInt).
    simhash: int
    #: Number of tokens of the text.
    words: int
    #: Number of distinct shingles: the size of the set the signature stands for, which the
    #: containment estimate needs beside it.
    shingles: int

    def to_dict(self) -> dict[str, Any]:
        """A JSON-friendly dict (lists and ints only)."""
        return {
            "method": self.method,
            "minhash": list(self.minhash),
            "simhash": self.simhash,
            "words": self.words,
            "shingles": self.shingles,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Fingerprint:
        """The inverse of :meth:`to_dict`; KeyError or TypeError on a malformed mapping (such
        as the dict of a version before set sizes, which has no ``shingles``)."""
        return cls(
            method=str(data["method"]),
            minhash=tuple(int(value) for value in data["minhash"]),
            simhash=int(data["simhash"]),
            words=int(data["words"]),
            shingles=int(data["shingles"]),
        )


def fingerprint_text(text: str, params: FingerprintParams) -> Fingerprint | None:
    """The fingerprint of ``text``, or None when it has fewer than ``params.min_words`` tokens.

    Stages: tokens -> shingles (word or character size) -> MinHash signature and SimHash.
    """
    token_list = tokens(text)
    if not token_list or len(token_list) < params.min_words:
        return None
    size = shingle_size(token_list, params.word_shingle, params.char_shingle)
    counts = Counter(shingles(token_list, size))
    hashes = [feature_hash(shingle) for shingle in counts]
    signature = MinHash(
        num_perm=params.num_perm, seed=params.seed, hashfunc=low_32_bits, scheme=MINHASH_SCHEME
    )
    signature.update_batch(hashes)
    return Fingerprint(
        method=params.method,
        minhash=tuple(signature.hashvalues.tolist()),
        simhash=simhash_of_hashes(hashes, list(counts.values())),
        words=len(token_list),
        shingles=len(counts),
    )


def low_32_bits(value: int) -> int:
    """datasketch's input hash of a shingle: the low 32 bits of its 64-bit BLAKE2b."""
    return value & 0xFFFFFFFF


def coerce_fingerprint(value: object, params: FingerprintParams) -> Fingerprint | None:
    """``value`` (a Fingerprint or its dict form) when it was made with ``params``, else None.

    A fingerprint from other parameters, or a malformed one (also one made before
    fingerprints carried their set size), is not comparable with the index's signatures:
    the caller fingerprints the text again instead.
    """
    if isinstance(value, Mapping):
        try:
            value = Fingerprint.from_dict(value)
        except (KeyError, TypeError, ValueError):
            return None
    if not isinstance(value, Fingerprint) or value.method != params.method:
        return None
    if len(value.minhash) != params.num_perm:
        return None
    if not all(0 <= hashvalue <= 0xFFFFFFFF for hashvalue in value.minhash):
        return None
    if not 1 <= value.shingles <= max(value.words, 1):
        return None
    return value


def lean_minhash(hashvalues: Any, params: FingerprintParams) -> LeanMinHash:
    """A datasketch ``LeanMinHash`` of signature values made with ``params``."""
    return LeanMinHash(seed=params.seed, hashvalues=hashvalues, scheme=MINHASH_SCHEME)
