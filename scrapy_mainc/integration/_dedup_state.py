"""Bookkeeping of ``NearDuplicatePipeline`` between items: nothing here touches the index.

- :class:`Handoff`: an index call whose item may stop waiting for it; a cluster founded
  after that is withdrawn again, so that no item is in the index without its fields.
- :class:`IndexHealth`: whether the index is failing; while it is, items skip it without
  waiting, one item at a time tries it again, and the outage is logged once.
- :class:`NewLeaders`: the clusters founded by items still on their way through the later
  pipelines, so that an item dropped or failed there can be taken out of the index again.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import OrderedDict
from typing import Any, Generic, TypeVar

logger = logging.getLogger("scrapy_mainc.integration.dedup_pipeline")

_T = TypeVar("_T")

#: At most this many founded clusters wait for their item's fate; older ones are forgotten
#: (their items finished without a signal reaching this pipeline, see NewLeaders).
MAX_PENDING_LEADERS = 10_000


class Handoff(Generic[_T]):
    """A result passed from a worker thread to a waiter that may give up first.

    The worker calls :meth:`deliver`: False means nobody takes the result any more and the
    worker must undo what it did. The waiter, on giving up, calls :meth:`abandon`, which
    returns the result if it was delivered just in time.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._result: _T | None = None
        self._abandoned = False

    def deliver(self, result: _T) -> bool:
        with self._lock:
            if self._abandoned:
                return False
            self._result = result
            return True

    def abandon(self) -> _T | None:
        with self._lock:
            if self._result is None:
                self._abandoned = True
            return self._result


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


class NewLeaders(Generic[_T]):
    """Clusters founded by items that have not yet left the item pipelines, by item: what
    withdrawing each one takes (a ``_T``).

    Scrapy reports the end of an item through signals: ``item_scraped`` with the object the
    last pipeline returned, ``item_dropped``/``item_error`` with the object the spider
    yielded. Entries are matched by identity and URL, so an object that a later pipeline or
    ``MAINC_CONVERT_ITEMS`` replaced is not withdrawn when dropped (it is forgotten when
    scraped, by URL, or at the latest after ``MAX_PENDING_LEADERS`` newer entries).
    """

    def __init__(self) -> None:
        self._entries: OrderedDict[int, tuple[str, _T]] = OrderedDict()  # id -> (url, founded)

    def __len__(self) -> int:
        return len(self._entries)

    def add(self, item: Any, url: str, founded: _T) -> None:
        self._entries[id(item)] = (url, founded)
        while len(self._entries) > MAX_PENDING_LEADERS:
            self._entries.popitem(last=False)

    def take(self, item: Any, url: str) -> _T | None:
        """The cluster founded by ``item`` (which is at ``url``), forgotten now; or None."""
        entry = self._entries.get(id(item))
        if entry is None or entry[0] != url:
            return None
        del self._entries[id(item)]
        return entry[1]

    def forget_url(self, url: str) -> None:
        """Forget the oldest entry at ``url`` (its item was scraped as another object)."""
        for key, (entry_url, _) in self._entries.items():
            if entry_url == url:
                del self._entries[key]
                return

    def clear(self) -> None:
        self._entries.clear()


def describe_error(error: BaseException) -> str:
    """``Type: message`` of ``error``, for one-line log messages."""
    return f"{type(error).__name__}: {error}" if str(error) else type(error).__name__
