"""The hand-off of pages between the components: what they hand each other beside an item,
its page, then its fingerprint.

Item pipelines never see responses, and typed items (``scrapy.Item``, dataclasses, attrs)
cannot take a field they do not declare. So the spider middleware does not write the page
into the item: it files it in the crawler's book (:func:`book_of`), and ``MaincPipeline``
finds it there. The same way, when the fingerprint is not to be kept in the item
(``MAINC_DEDUP_FINGERPRINT_FIELD = None``), ``MaincPipeline`` leaves the worker's
fingerprint in the book for ``NearDuplicatePipeline``.

Finding an item's entry (its :class:`Trail`):

- by identity: the object the spider yielded, or the one ``MaincPipeline`` returned;
- else by the item's URL field, among the responses whose items are in flight (their URL,
  their request's, and the redirect chain): Scrapy lets a pipeline (or a spider middleware
  nearer the engine) return a new object for an item, ``dict(item)`` or another item
  class, and the page must reach the extraction all the same.

How long an entry lives: every item the scraper takes leaves through exactly one of the
``item_scraped``, ``item_dropped`` and ``item_error`` signals, each carrying the response
the item came from. A response's page goes when the last of its items has left, whatever
object the item had become by then. An item that never reached the pipelines (a spider
middleware nearer the engine dropped it) cannot signal: its response's page goes when
Scrapy lets go of the response (a weak reference), which Scrapy does only once every item
of it has been processed. So the book holds the pages of responses whose items are in
flight, and nothing after the spider closes. Entries of items that came from no response
(a fingerprint only) go with their item's signal, or, at the latest, after
:data:`MAX_LOOSE_TRAILS` newer ones.
"""

from __future__ import annotations

import collections
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING, Any
from weakref import ReferenceType, WeakKeyDictionary, ref

from scrapy import signals

from ..items._page import Page

if TYPE_CHECKING:
    from scrapy.crawler import Crawler

    from ..dedup._fingerprint import Fingerprint

#: At most this many entries of items that came from no response wait for their item's
#: signal; older ones are forgotten (a later pipeline replaced their object, so that no
#: signal names it). Far above the items Scrapy processes at once (CONCURRENT_ITEMS per
#: response, 100 by default).
MAX_LOOSE_TRAILS = 10_000


@dataclass(eq=False, slots=True)
class _Source:
    """A response whose items are in flight: its page, and their trails."""

    key: int  #: ``id`` of the response
    page: Page
    urls: tuple[str, ...]
    watch: ReferenceType[Any]  #: the response, weakly; its callback drops this source
    trails: list[Trail] = field(default_factory=list)


@dataclass(eq=False, slots=True)
class Trail:
    """What travels beside one item: the page it came from, its fingerprint once made."""

    source: _Source | None
    #: The objects known to be this item: the spider's, and the one MaincPipeline returned.
    objects: list[Any]
    fingerprint: Fingerprint | None = None
    #: MaincPipeline has taken the page (a URL match prefers a trail it has not).
    claimed: bool = False

    @property
    def page(self) -> Page | None:
        return self.source.page if self.source is not None else None


class ItemBook:
    """The trails of the items in flight in one crawl (see the module docstring)."""

    def __init__(self) -> None:
        #: Whether the crawl has a component that files pages (the spider middleware):
        #: without one, an item's missing page says nothing about the item.
        self.filing = False
        self._sources: dict[int, _Source] = {}  # id(response) ->
        self._by_url: dict[str, list[_Source]] = {}
        self._trails: dict[int, Trail] = {}  # id of each object of each trail ->
        self._loose: collections.OrderedDict[int, Trail] = collections.OrderedDict()  # no response
        self._gone: collections.deque[tuple[int, ReferenceType[Any]]] = collections.deque()

    @property
    def pages(self) -> int:
        """How many pages the book holds (one per response with items in flight)."""
        self._collect()
        return len(self._sources)

    @property
    def trails(self) -> int:
        """How many items the book holds something for."""
        self._collect()
        return sum(len(source.trails) for source in self._sources.values()) + len(self._loose)

    # --- filing and finding -----------------------------------------------------------------

    def file(self, item: Any, response: Any, page: Page, urls: Iterable[str]) -> None:
        """Give ``item``, which ``response`` produced, that response's page (``urls``: the
        URLs the item may name it by)."""
        self._collect()
        key = id(response)
        source = self._sources.get(key)
        if source is None or source.watch() is not response:
            if source is not None:  # a response gone unnoticed had this id
                self._drop(source)
            watch = ref(response, partial(_note_gone, self._gone, key))
            source = self._sources[key] = _Source(key, page, tuple(dict.fromkeys(urls)), watch)
            for url in source.urls:
                self._by_url.setdefault(url, []).append(source)
        trail = Trail(source, [item])
        source.trails.append(trail)
        self._trails[id(item)] = trail

    def claim(self, item: Any, url: str | None) -> Trail | None:
        """``item``'s trail, for MaincPipeline: by identity, else by ``url`` (a trail not
        claimed yet first); None when neither finds one."""
        trail = self._find(item, url, _unclaimed)
        if trail is not None:
            trail.claimed = True
        return trail

    def bind(self, trail: Trail, item: Any) -> None:
        """``item`` (an object a pipeline returns) is the item of ``trail`` too."""
        if self._trails.get(id(item)) is not trail:
            trail.objects.append(item)
            self._trails[id(item)] = trail

    def keep_fingerprint(self, trail: Trail | None, item: Any, fingerprint: Fingerprint) -> None:
        """Leave ``fingerprint`` beside ``item`` (whose trail is ``trail``, if it has one)
        for NearDuplicatePipeline."""
        if trail is None:  # an item from no response: a trail of its own
            trail = Trail(None, [item])
            self._trails[id(item)] = trail
            self._loose[id(trail)] = trail
            while len(self._loose) > MAX_LOOSE_TRAILS:
                self._forget(self._loose.popitem(last=False)[1])
        trail.fingerprint = fingerprint

    def take_fingerprint(self, item: Any, url: str | None) -> Fingerprint | None:
        """The fingerprint left beside ``item`` (by identity, else by ``url``), now taken."""
        trail = self._find(item, url, _has_fingerprint)
        if trail is None or trail.fingerprint is None:
            return None
        fingerprint, trail.fingerprint = trail.fingerprint, None
        if trail.source is None:
            self._forget(trail)
        return fingerprint

    # --- letting go ---------------------------------------------------------------------------

    def item_left(self, item: Any, response: Any = None, **kwargs: Any) -> None:
        """Signal handler (``item_scraped``, ``item_dropped``, ``item_error``): ``item``,
        which ``response`` produced, has left the pipelines."""
        self._collect()
        trail = self._known(item)
        if trail is not None and trail.source is None:
            self._forget(trail)
        source = self._sources.get(id(response)) if response is not None else None
        if source is not None and source.watch() is response:
            if trail is None or trail.source is not source:  # replaced on its way
                trail = next((trail for trail in source.trails if trail.claimed), source.trails[0])
            self._forget(trail)

    def clear(self, **kwargs: Any) -> None:
        """Signal handler (``spider_closed``): let go of everything."""
        self._sources.clear()
        self._by_url.clear()
        self._trails.clear()
        self._loose.clear()

    def _find(self, item: Any, url: str | None, prefer: Callable[[Trail], bool]) -> Trail | None:
        self._collect()
        trail = self._known(item)
        if trail is not None or not url:
            return trail
        candidates = [trail for source in self._by_url.get(url, ()) for trail in source.trails]
        return next((trail for trail in candidates if prefer(trail)), candidates[0] if candidates else None)

    def _known(self, item: Any) -> Trail | None:
        trail = self._trails.get(id(item))
        if trail is None or not any(known is item for known in trail.objects):
            return None
        return trail

    def _forget(self, trail: Trail) -> None:
        for known in trail.objects:
            if self._trails.get(id(known)) is trail:
                del self._trails[id(known)]
        self._loose.pop(id(trail), None)
        source = trail.source
        if source is not None and trail in source.trails:
            source.trails.remove(trail)
            if not source.trails:
                self._drop(source)

    def _drop(self, source: _Source) -> None:
        for trail in list(source.trails):
            source.trails.remove(trail)
            self._forget(trail)
        for url in source.urls:
            sources = self._by_url.get(url, [])
            if source in sources:
                sources.remove(source)
            if not sources:
                self._by_url.pop(url, None)
        if self._sources.get(source.key) is source:
            del self._sources[source.key]

    def _collect(self) -> None:
        """Drop the sources whose response Scrapy has let go of (noted by the weak
        references' callbacks, which may run in any thread)."""
        while self._gone:
            key, watch = self._gone.popleft()
            source = self._sources.get(key)
            if source is not None and source.watch is watch:
                self._drop(source)


def _note_gone(
    gone: collections.deque[tuple[int, ReferenceType[Any]]], key: int, watch: ReferenceType[Any]
) -> None:
    gone.append((key, watch))  # one atomic append: safe from the collector in any thread


def _unclaimed(trail: Trail) -> bool:
    return not trail.claimed


def _has_fingerprint(trail: Trail) -> bool:
    return trail.fingerprint is not None


_BOOKS: WeakKeyDictionary[Crawler, ItemBook] = WeakKeyDictionary()


def book_of(crawler: Crawler) -> ItemBook:
    """The book shared by the components of ``crawler`` (created on first use)."""
    book = _BOOKS.get(crawler)
    if book is None:
        book = _BOOKS[crawler] = ItemBook()
        for signal in (signals.item_scraped, signals.item_dropped, signals.item_error):
            crawler.signals.connect(book.item_left, signal=signal)
        crawler.signals.connect(book.clear, signal=signals.spider_closed)
    return book
