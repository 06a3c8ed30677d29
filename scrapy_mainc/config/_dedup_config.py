"""The near-duplicate settings (``MAINC_DEDUP_*``), read in this one place into a frozen record.

Its defaults are the registry's (``_registry``), which takes those of the clustering
parameters from :class:`~scrapy_mainc.dedup.FingerprintParams` and
:class:`~scrapy_mainc.dedup.IndexParams`, where their values are explained. The values are
read through ``_reading`` (a crawl's Scrapy settings or a plain mapping; a value that cannot
be converted is named); this module imports no datasketch, so that ``MaincPipeline`` and the
add-on can read it in every crawl at no cost.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..dedup._params import FingerprintParams, IndexParams
from ._reading import SettingsReader, is_unset, read_setting
from ._registry import DEFAULTS


@dataclass(frozen=True, slots=True)
class DedupConfig:
    """Everything the near-duplicate pipeline (and the extraction worker) is configured by."""

    #: ``MAINC_DEDUP_ENABLED``: the pipeline raises NotConfigured unless true.
    enabled: bool = DEFAULTS["MAINC_DEDUP_ENABLED"]
    #: ``MAINC_DEDUP_THRESHOLD``: estimated Jaccard similarity that makes a duplicate.
    threshold: float = DEFAULTS["MAINC_DEDUP_THRESHOLD"]
    #: ``MAINC_DEDUP_REDIS_URL``: a shared index on Redis; "" keeps it in memory.
    redis_url: str = DEFAULTS["MAINC_DEDUP_REDIS_URL"]
    #: ``MAINC_DEDUP_DROP``: drop duplicates (DropItem) instead of marking them.
    drop: bool = DEFAULTS["MAINC_DEDUP_DROP"]
    #: ``MAINC_DEDUP_MIN_WORDS``: shorter texts are never clustered.
    min_words: int = DEFAULTS["MAINC_DEDUP_MIN_WORDS"]
    #: ``MAINC_DEDUP_NUM_PERM``: MinHash permutations.
    num_perm: int = DEFAULTS["MAINC_DEDUP_NUM_PERM"]
    #: ``MAINC_DEDUP_TEXT_FIELD``: item field holding the main text.
    text_field: str = DEFAULTS["MAINC_DEDUP_TEXT_FIELD"]
    #: ``MAINC_DEDUP_FINGERPRINT_FIELD``: item field holding (or receiving) the fingerprint;
    #: "" (the setting is None): the fingerprint is not kept in the item.
    fingerprint_field: str = DEFAULTS["MAINC_DEDUP_FINGERPRINT_FIELD"]
    #: ``MAINC_DEDUP_URL_FIELD``: item field holding the page URL.
    url_field: str = DEFAULTS["MAINC_DEDUP_URL_FIELD"]
    #: ``MAINC_DEDUP_REDIS_REQUIRED``: an index that cannot be opened stops the crawl; when
    #: false, an unreachable Redis leaves the crawl with an index in its own memory.
    redis_required: bool = DEFAULTS["MAINC_DEDUP_REDIS_REQUIRED"]
    #: ``MAINC_DEDUP_REDIS_TIMEOUT``: seconds a Redis command may take, and an item may
    #: wait for its cluster; after that the item passes unclustered.
    redis_timeout: float = DEFAULTS["MAINC_DEDUP_REDIS_TIMEOUT"]
    #: ``MAINC_DEDUP_CONTAINMENT``: estimated share of the smaller text's shingles found in
    #: the larger that makes a duplicate (with the size ratio below); 0 switches it off.
    containment: float = DEFAULTS["MAINC_DEDUP_CONTAINMENT"]
    #: ``MAINC_DEDUP_MIN_SIZE_RATIO``: the smaller text's share of the larger's shingle count
    #: below which containment does not count (teasers and excerpts stay apart).
    min_size_ratio: float = DEFAULTS["MAINC_DEDUP_MIN_SIZE_RATIO"]
    #: ``MAINC_DEDUP_REDIS_BUCKETS``: hashes per LSH band in Redis (a power of two).
    redis_buckets: int = DEFAULTS["MAINC_DEDUP_REDIS_BUCKETS"]
    #: ``MAINC_DEDUP_REDIS_CLUSTER``: the URL names a node of a Redis Cluster.
    redis_cluster: bool = DEFAULTS["MAINC_DEDUP_REDIS_CLUSTER"]
    #: ``MAINC_DEDUP_REDIS_KEY``: prefix of the index's keys.
    redis_key: str = DEFAULTS["MAINC_DEDUP_REDIS_KEY"]
    #: ``MAINC_DEDUP_REDIS_PARAMS``: more options of the Redis client (password, TLS, ...).
    redis_params: dict[str, Any] = field(default_factory=dict, hash=False)

    def __post_init__(self) -> None:
        self.index_params  # noqa: B018 (validates the values)

    @classmethod
    def from_settings(cls, settings: SettingsReader) -> DedupConfig:
        """The configuration given by ``settings``; ValueError names a bad setting."""
        default = cls()

        def read(getter: str, name: str, fallback: object) -> Any:
            return read_setting(settings, getter, name, fallback)

        try:
            return cls(
                enabled=read("getbool", "MAINC_DEDUP_ENABLED", default.enabled),
                threshold=read("getfloat", "MAINC_DEDUP_THRESHOLD", default.threshold),
                redis_url=settings.get("MAINC_DEDUP_REDIS_URL") or "",
                redis_cluster=read("getbool", "MAINC_DEDUP_REDIS_CLUSTER", default.redis_cluster),
                redis_key=settings.get("MAINC_DEDUP_REDIS_KEY") or default.redis_key,
                redis_params=dict(read("getdict", "MAINC_DEDUP_REDIS_PARAMS", {})),
                redis_required=read("getbool", "MAINC_DEDUP_REDIS_REQUIRED", default.redis_required),
                redis_timeout=read("getfloat", "MAINC_DEDUP_REDIS_TIMEOUT", default.redis_timeout),
                drop=read("getbool", "MAINC_DEDUP_DROP", default.drop),
                min_words=read("getint", "MAINC_DEDUP_MIN_WORDS", default.min_words),
                num_perm=read("getint", "MAINC_DEDUP_NUM_PERM", default.num_perm),
                text_field=settings.get("MAINC_DEDUP_TEXT_FIELD") or default.text_field,
                fingerprint_field=(
                    _optional_field(settings.get("MAINC_DEDUP_FINGERPRINT_FIELD"))
                    if "MAINC_DEDUP_FINGERPRINT_FIELD" in settings
                    else default.fingerprint_field
                ),
                url_field=settings.get("MAINC_DEDUP_URL_FIELD") or default.url_field,
                containment=read("getfloat", "MAINC_DEDUP_CONTAINMENT", default.containment),
                min_size_ratio=read("getfloat", "MAINC_DEDUP_MIN_SIZE_RATIO", default.min_size_ratio),
                redis_buckets=read("getint", "MAINC_DEDUP_REDIS_BUCKETS", default.redis_buckets),
            )
        except ValueError as exc:
            raise ValueError(f"invalid MAINC_DEDUP_* setting: {exc}") from exc

    @property
    def fingerprint_params(self) -> FingerprintParams:
        """How item texts are fingerprinted (the worker and the pipeline use the same)."""
        return FingerprintParams(num_perm=self.num_perm, min_words=self.min_words)

    @property
    def index_params(self) -> IndexParams:
        """The cluster index to open."""
        return IndexParams(
            threshold=self.threshold,
            containment=self.containment,
            min_size_ratio=self.min_size_ratio,
            redis_url=self.redis_url,
            redis_cluster=self.redis_cluster,
            redis_key=self.redis_key,
            redis_params=self.redis_params,
            redis_buckets=self.redis_buckets,
            fingerprint=self.fingerprint_params,
            redis_timeout=self.redis_timeout,
        )


def _optional_field(value: Any) -> str:
    """A field setting's name, "" for None (or its text from ``-s``): no field."""
    return "" if is_unset(value) else str(value or "")
