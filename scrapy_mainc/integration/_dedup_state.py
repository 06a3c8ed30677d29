"""Bookkeeping of ``NearDuplicatePipeline`` between items: nothing here touches the index.

- :class:`Handoff`: an index call whose item may stop waiting for it; a cluster founded
  after that is withdrawn again, so that no item is in the index without its fields.
- :class:`NewLeaders`: the clusters founded by items still on their way through the later
  pipelines, so that an item dropped or failed there can be taken out of the index again.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any, Generic, TypeVar

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
