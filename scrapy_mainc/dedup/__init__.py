"""Near-duplicate detection of main texts: fingerprints, clusters and a Scrapy pipeline.

The core never imports Scrapy::

    from scrapy_mainc.dedup import FingerprintParams, IndexParams, fingerprint_text, open_index

    params = IndexParams()  # threshold 0.8, in memory; redis_url="redis://..." to share it
    with open_index(params) as index:
        fingerprint = fingerprint_text(text, params.fingerprint)  # None for short texts
        if fingerprint is not None:
            assignment = index.assign(fingerprint, url)  # cluster_id, duplicate_of, ...

``NearDuplicatePipeline`` (module ``scrapy_mainc.dedup.pipeline``) is the Scrapy layer; it
is imported on first access, so importing this package does not import Scrapy.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ._config import DedupConfig
from ._fingerprint import (
    MINHASH_SCHEME,
    Fingerprint,
    FingerprintParams,
    coerce_fingerprint,
    fingerprint_text,
    lean_minhash,
)
from ._index import (
    Assignment,
    ClusterIndex,
    IndexParams,
    MemoryIndex,
    cluster_id_for,
    open_index,
)
from ._shingles import shingle_size, shingles, tokens
from ._simhash import hamming_distance, simhash

if TYPE_CHECKING:
    from .pipeline import NearDuplicatePipeline

__all__ = [
    "MINHASH_SCHEME",
    "Assignment",
    "ClusterIndex",
    "DedupConfig",
    "Fingerprint",
    "FingerprintParams",
    "IndexParams",
    "MemoryIndex",
    "NearDuplicatePipeline",
    "cluster_id_for",
    "coerce_fingerprint",
    "fingerprint_text",
    "hamming_distance",
    "lean_minhash",
    "open_index",
    "shingle_size",
    "shingles",
    "simhash",
    "tokens",
]


def __getattr__(name: str) -> Any:
    if name == "NearDuplicatePipeline":
        from .pipeline import NearDuplicatePipeline  # noqa: PLC0415 (imports Scrapy)

        return NearDuplicatePipeline
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
