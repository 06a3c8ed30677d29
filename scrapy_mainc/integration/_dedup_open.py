"""The near-duplicate index opened as a crawl opens it, for ``NearDuplicatePipeline`` and the
archive mode alike (Scrapy-free).

An index that cannot be opened is an :class:`IndexUnavailable` whose message is the one
line to say, after the sayer's name (the pipeline stops the crawl with it, as ``mainc
dedup: ...``; ``mainc warc`` stops with it, as ``mainc warc: error: ...``); with
``MAINC_DEDUP_REDIS_REQUIRED = False`` an unreachable Redis leaves an index in this
process's memory instead, said once at WARNING.
"""

from __future__ import annotations

import logging
from dataclasses import replace

from ..dedup._index import ClusterIndex, MemoryIndex, redacted
from ..dedup._open import open_index
from ._dedup_config import DedupConfig
from ._dedup_state import describe_error

logger = logging.getLogger("scrapy_mainc.integration.dedup_pipeline")


class IndexUnavailable(Exception):
    """The index cannot be opened; the message says why and what to do."""


def index_location(config: DedupConfig) -> str:
    """Where the index of ``config`` is, for messages: the redacted Redis URL, or memory."""
    return redacted(config.redis_url) if config.redis_url else "memory"


def open_shared_index(config: DedupConfig, fallback: bool = True) -> tuple[ClusterIndex, str]:
    """The index of ``config`` and where it is (see the module docstring); ``fallback``
    False: never in memory (a Dask job's tasks share one index or none)."""
    where, params = index_location(config), config.index_params
    try:
        return open_index(params), where
    except Exception as exc:  # noqa: BLE001 - said in one line, below
        error = exc
    unreachable = isinstance(error, redis_errors())
    if unreachable and fallback and not config.redis_required:
        logger.warning(
            "mainc dedup: cannot reach the index at %s (%s); clustering in this "
            "process's memory instead, not shared with other crawlers "
            "(MAINC_DEDUP_REDIS_REQUIRED = False)",
            where,
            describe_error(error),
        )
        return MemoryIndex(replace(params, redis_url="")), "memory"
    advice = ""
    if unreachable:
        advice = "; start Redis or correct MAINC_DEDUP_REDIS_URL" + (
            ", or set MAINC_DEDUP_REDIS_REQUIRED = False to crawl with an index in this process's memory"
            if fallback
            else ""
        )
    raise IndexUnavailable(f"cannot open the index at {where}: {describe_error(error)}{advice}")


def redis_errors() -> tuple[type[Exception], ...]:
    """The errors of an unreachable (or failing) Redis; none without redis-py."""
    try:
        from ..dedup._redis_index import RedisIndex  # redis is optional
    except ImportError:
        return ()
    return RedisIndex.service_errors
