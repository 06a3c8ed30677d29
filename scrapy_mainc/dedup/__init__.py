"""Near-duplicate detection of main texts: fingerprints and clusters. Scrapy-free.

The core never imports Scrapy::

    from scrapy_mainc.dedup import FingerprintParams, IndexParams, fingerprint_text, open_index

    params = IndexParams()  # Jaccard 0.8 or containment 0.85; redis_url="redis://..." to share it
    with open_index(params) as index:
        fingerprint = fingerprint_text(text, params.fingerprint)  # None for short texts
        if fingerprint is not None:
            assignment = index.assign(fingerprint, url)  # cluster_id, duplicate_of, similarity, ...

Every name is loaded on first access: importing this package (to read the parameter
records) imports neither datasketch nor numpy, so a crawl with clustering switched off
never pays for them. The Scrapy pipeline over it is
:class:`scrapy_mainc.NearDuplicatePipeline` (module ``scrapy_mainc.integration.dedup_pipeline``),
configured by the ``MAINC_DEDUP_*`` settings (``scrapy_mainc.config._dedup_config``).
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ._fingerprint import Fingerprint, coerce_fingerprint, fingerprint_text, lean_minhash
    from ._index import Assignment, ClusterIndex, MemoryIndex, cluster_id_for
    from ._open import open_index
    from ._params import MINHASH_SCHEME, FingerprintParams, IndexParams
    from ._shingles import shingle_size, shingles, tokens
    from ._simhash import hamming_distance, simhash

#: Public name -> the module (of this package) that defines it.
_MODULES = {
    "MINHASH_SCHEME": "_params",
    "Assignment": "_index",
    "ClusterIndex": "_index",
    "Fingerprint": "_fingerprint",
    "FingerprintParams": "_params",
    "IndexParams": "_params",
    "MemoryIndex": "_index",
    "cluster_id_for": "_index",
    "coerce_fingerprint": "_fingerprint",
    "fingerprint_text": "_fingerprint",
    "hamming_distance": "_simhash",
    "lean_minhash": "_fingerprint",
    "open_index": "_open",
    "shingle_size": "_shingles",
    "shingles": "_shingles",
    "simhash": "_simhash",
    "tokens": "_shingles",
}

__all__ = [
    "Assignment",
    "ClusterIndex",
    "Fingerprint",
    "FingerprintParams",
    "IndexParams",
    "MINHASH_SCHEME",
    "MemoryIndex",
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
    module = _MODULES.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(import_module(f"{__name__}.{module}"), name)


def __dir__() -> list[str]:
    return sorted([*globals(), *_MODULES])
