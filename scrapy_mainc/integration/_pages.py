"""What one component hands a later one beside an item: its page, its fingerprint.

Item pipelines never see responses, and typed items (``scrapy.Item``, dataclasses, attrs)
cannot take a field they do not declare. So the spider middleware does not write the page
into the item: it files it in the crawler's page book (:func:`pages_of`) under the item's
identity, and ``MaincPipeline`` takes it out again. The same way, when the fingerprint is
not to be kept in the item (``MAINC_DEDUP_FINGERPRINT_FIELD = None``), ``MaincPipeline``
files the worker's fingerprint in the fingerprint book (:func:`fingerprints_of`) for
``NearDuplicatePipeline``. An entry holds the item itself, so its ``id`` cannot be reused
while the entry exists; items dropped or failed on the way are forgotten through signals,
and the books are emptied when the spider closes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Generic, TypeVar
from weakref import WeakKeyDictionary

from scrapy import signals

if TYPE_CHECKING:
    from scrapy.crawler import Crawler

    from ..dedup._fingerprint import Fingerprint

_V = TypeVar("_V")


@dataclass(frozen=True, slots=True)
class AttachedPage:
    """The response an item came from, as the pipeline needs it."""

    page: str | bytes  #: decoded text for text responses, the body otherwise
    url: str
    annotations: dict[str, Any] = field(default_factory=dict)  #: ``response.meta["mainc"]``


class ItemBook(Generic[_V]):
    """Values filed by item identity."""

    def __init__(self) -> None:
        self._entries: dict[int, tuple[Any, _V]] = {}
        #: Whether the crawl has a component that files values here (the spider middleware,
        #: for pages): without one, an item's missing value says nothing about the item.
        self.filing = False

    def __len__(self) -> int:
        return len(self._entries)

    def attach(self, item: Any, value: _V) -> None:
        """File ``value`` for ``item`` (a later value for the same item replaces it)."""
        self._entries[id(item)] = (item, value)

    def take(self, item: Any) -> _V | None:
        """Remove and return the value filed for ``item``, or None."""
        entry = self._entries.pop(id(item), None)
        if entry is None or entry[0] is not item:
            return None
        return entry[1]

    def forget(self, item: Any) -> None:
        """Signal handler: ``item`` will not reach the component that takes its value."""
        self.take(item)

    def clear(self) -> None:
        """Signal handler: the spider closed."""
        self._entries.clear()


#: The page book of the spider middleware and ``MaincPipeline``.
PageBook = ItemBook[AttachedPage]

_PAGES: WeakKeyDictionary[Crawler, ItemBook[AttachedPage]] = WeakKeyDictionary()
_FINGERPRINTS: WeakKeyDictionary[Crawler, ItemBook[Fingerprint]] = WeakKeyDictionary()


def pages_of(crawler: Crawler) -> ItemBook[AttachedPage]:
    """The page book shared by the components of ``crawler`` (created on first use)."""
    return _book(crawler, _PAGES)


def fingerprints_of(crawler: Crawler) -> ItemBook[Fingerprint]:
    """The fingerprint book shared by the pipelines of ``crawler`` (created on first use)."""
    return _book(crawler, _FINGERPRINTS)


def _book(crawler: Crawler, books: WeakKeyDictionary[Crawler, ItemBook[_V]]) -> ItemBook[_V]:
    book = books.get(crawler)
    if book is None:
        book = books[crawler] = ItemBook()
        crawler.signals.connect(book.forget, signal=signals.item_dropped)
        crawler.signals.connect(book.forget, signal=signals.item_error)
        crawler.signals.connect(book.clear, signal=signals.spider_closed)
    return book
