"""The near-duplicate index opened as a crawl opens it, and watched while it fails, for
``NearDuplicatePipeline`` and the archive mode alike.

An index that cannot be opened is an :class:`IndexUnavailable` whose message is the one
line to say, after the sayer's name (the pipeline stops the crawl with it, as ``mainc
dedup: ...``; ``mainc warc`` stops with it, as ``mainc warc: error: ...``); with
``MAINC_DEDUP_REDIS_REQUIRED = False`` an unreachable Redis leaves an index in this
process's memory instead, said once at WARNING. An index that fails later is watched by
:class:`IndexHealth`: while it fails, items skip it without waiting, one item at a time
tries it again, and the outage is logged once.
"""

from __future__ import annotations

import logging
import time
from dataclasses import replace

from ..config._dedup_config import DedupConfig
from ..dedup._index import ClusterIndex, MemoryIndex, redacted
from ..dedup._open import open_index

logger = logging.getLogger(__name__)


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


class IndexHealth:
    """Failures of the index, and when to try it again (a circuit breaker).

    After a failure, items do not wait for the index for ``pause`` seconds; then one item
    tries it (the others still pass) and, if it works, all items use it again. The first
    failure of an outage is logged at WARNING, the recovery at INFO, the rest at DEBUG.
    """

    def __init__(self, where: str, pause: float) -> None:
        self._where = where
        self._pause = pause
        self._failing = False
        self._retry_at = 0.0
        self._trying = False
        self._passed = 0  # items that passed unclustered during this outage

    def may_try(self) -> bool:
        """Whether an item should use the index now (False: it passes unclustered)."""
        if not self._failing:
            return True
        if self._trying or time.monotonic() < self._retry_at:
            return False
        self._trying = True
        return True

    def failed(self, error: BaseException, url: str) -> None:
        """An item could not be clustered because of ``error``."""
        self._passed += 1
        self._trying = False
        self._retry_at = time.monotonic() + self._pause
        if self._failing:
            logger.debug("mainc dedup: %s passes unclustered: %s", url, describe_error(error))
            return
        self._failing = True
        logger.warning(
            "mainc dedup: the index at %s failed (%s); items pass unclustered while it "
            "fails, trying again every %g s (stat mainc/dedup/errors)",
            self._where,
            describe_error(error),
            self._pause,
        )

    def skipped(self, url: str) -> None:
        """An item passed without trying the index (it is failing)."""
        self._passed += 1
        logger.debug("mainc dedup: %s passes unclustered: the index is failing", url)

    def worked(self) -> None:
        """The index answered an item."""
        if self._failing:
            logger.info(
                "mainc dedup: the index at %s works again; %d items passed unclustered",
                self._where,
                self._passed,
            )
        self._failing = self._trying = False
        self._passed = 0


def describe_error(error: BaseException) -> str:
    """``Type: message`` of ``error``, for one-line log messages (without the message's
    closing period: the line goes on after it)."""
    message = str(error).strip().removesuffix(".")
    return f"{type(error).__name__}: {message}" if message else type(error).__name__
