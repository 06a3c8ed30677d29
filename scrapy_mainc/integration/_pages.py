"""Pages attached to items, from the spider middleware to the pipeline.

Item pipelines never see responses, and typed items (``scrapy.Item``, dataclasses, attrs)
cannot take a field they do not declare. So the spider middleware does not write the page
into the item: it files it in the crawler's :class:`PageBook` under the item's identity,
and the pipeline takes it out again. An entry holds the item itself, so its ``id`` cannot
be reused while the entry exists; items dropped or failed before the pipeline are
forgotten through signals, and the book is emptied when the spider closes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any
from weakref import WeakKeyDictionary

from scrapy import signals

if TYPE_CHECKING:
    from scrapy.crawler import Crawler


@dataclass(frozen=True, slots=True)
class AttachedPage:
    """The response an item came from, as the pipeline needs it."""

    page: str | bytes  #: decoded text for text responses, the body otherwise
    url: str
    annotations: dict[str, Any] = field(default_factory=dict)  #: ``response.meta["mainc"]``
    #: The response's HTTP ``Date`` header ("" without one): relative dates are read against it.
    fetched: str = ""


class PageBook:
    """Pages filed by item identity."""

    def __init__(self) -> None:
        self._entries: dict[int, tuple[Any, AttachedPage]] = {}

    def __len__(self) -> int:
        return len(self._entries)

    def attach(self, item: Any, page: AttachedPage) -> None:
        """File ``page`` for ``item`` (a later page for the same item replaces it)."""
        self._entries[id(item)] = (item, page)

    def take(self, item: Any) -> AttachedPage | None:
        """Remove and return the page filed for ``item``, or None."""
        entry = self._entries.pop(id(item), None)
        if entry is None or entry[0] is not item:
            return None
        return entry[1]

    def forget(self, item: Any) -> None:
        """Signal handler: ``item`` will not reach the pipeline."""
        self.take(item)

    def clear(self) -> None:
        """Signal handler: the spider closed."""
        self._entries.clear()


_BOOKS: WeakKeyDictionary[Crawler, PageBook] = WeakKeyDictionary()


def pages_of(crawler: Crawler) -> PageBook:
    """The page book shared by the components of ``crawler`` (created on first use)."""
    book = _BOOKS.get(crawler)
    if book is None:
        book = _BOOKS[crawler] = PageBook()
        crawler.signals.connect(book.forget, signal=signals.item_dropped)
        crawler.signals.connect(book.forget, signal=signals.item_error)
        crawler.signals.connect(book.clear, signal=signals.spider_closed)
    return book
