"""Where the dateline is looked for, and the text read there: bounded windows of the tree
(:func:`dateline_windows`): :data:`BEFORE_ELEMENTS` elements before the headline (a kicker
line "News | 22.12.2023") and the elements after it, up to :data:`AFTER_ELEMENTS` elements
or :data:`WINDOW_CHARS` characters of text; then other anchors for pages whose headline was
not found, the headline's article down to its footer, and the longest text block. A window
is read as one string with the positions of its pieces, its ``<time>`` elements and the
headline (:func:`window_text`); containers whose class or id names comments or related
stories are not read, so comment and related-story dates stay out.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from heapq import nlargest
from typing import TYPE_CHECKING, NamedTuple

from lxml import etree

from ..core._datetext import parse_machine_date
from ..core._title import shows_headline

if TYPE_CHECKING:
    from ..core._types import Document

#: Elements read before the headline (pre-order), and after it.
BEFORE_ELEMENTS = 12
AFTER_ELEMENTS = 60
#: The headline's article is read to its end (its footer) when the windows show no date:
#: the nearest ancestor with this many characters besides the headline, up to
#: :data:`CONTAINER_CHARS` characters.
CONTAINER_MIN_CHARS = 500
CONTAINER_CHARS = 20_000
CONTAINER_ELEMENTS = 500
#: Elements read above the container of the longest text block, when no window around a
#: headline shows a date; the longest blocks tried (those in comment threads are not).
BLOCK_BEFORE = 40
#: Characters a text block needs to anchor it (a paragraph, not a teaser's summary).
BLOCK_MIN_CHARS = 40
_BLOCK_TRIES = 5
#: Characters of text read after the headline (a dateline is in its first lines).
WINDOW_CHARS = 1000
#: Days shown by datelines (not prose) that make a window away from the headline a list;
#: around a text block, whose window is narrower.
LIST_DAYS = 5
BLOCK_LIST_DAYS = 3
#: Containers whose class or id name a comment thread or other stories: not read.
_SKIP_RE = re.compile(r"comment|related|recommend|popular|most-?read", re.IGNORECASE)
_CONTAINER_TAGS = frozenset(
    {"div", "section", "aside", "ul", "ol", "li", "article", "footer", "nav", "dl", "table"}
)


class Window(NamedTuple):
    """Node range read around the headline; the headline's index inside it."""

    start: int
    anchor: int
    stop: int
    #: Characters of text read after the anchor.
    chars: int = WINDOW_CHARS
    #: Days shown by its datelines that make the window a list's, 0 for never.
    list_days: int = LIST_DAYS


class WindowText(NamedTuple):
    """The window's text in document order and what is known about its positions."""

    text: str
    #: Start offset of every text piece (an element's text or tail), ascending.
    piece_starts: list[int]
    #: The element each piece is shown in (its own text's, or a tail's parent).
    piece_nodes: list[int]
    #: Offsets where the headline's text starts and ends.
    headline_start: int
    headline_end: int
    #: ``<time datetime>`` elements: (start offset, end offset, value, label, element).
    times: list[tuple[int, int, str, str, int]]


def dateline_windows(document: Document, shown: int | None = None) -> Iterator[Window]:
    """Windows to read, in turn, each anchor found only when the ones before gave no
    date: the headline; the first ``<h1>`` (the headline when the page's title names
    only the site); the first element whose text is a headline the page states (pages
    that set their headline in a table cell or a ``<b>``); the ``articleBody``; the
    headline's article to its end; the longest text block, read mostly upwards (datelines
    are above the text)."""
    stats = document.stats
    count = len(stats.nodes)
    headline = document.headline
    seen = set()
    finders: tuple[Callable[[], int], ...] = (
        lambda: document.headline,
        lambda: _first_h1(stats.tags),
        lambda: shown_headline(document) if shown is None else shown,
        lambda: stats.positions.get(document.article_bodies[0], -1) if document.article_bodies else -1,
    )
    for find in finders:
        anchor = find()
        if anchor >= 0 and anchor not in seen:
            seen.add(anchor)
            stop = min(count, stats.end[anchor] + AFTER_ELEMENTS)
            yield Window(
                max(0, anchor - BEFORE_ELEMENTS),
                anchor,
                stop,
                list_days=0 if anchor == headline else LIST_DAYS,
            )
    if headline >= 0:
        stop = min(stats.end[_container(document, headline)], count, headline + CONTAINER_ELEMENTS)
        yield Window(headline, headline, stop, CONTAINER_CHARS, list_days=0)
    block = _text_block(document)
    if block >= 0 and block not in seen:
        block = max(0, stats.parent[block])  # the text around it is the article's
        stop = min(count, stats.end[block] + BEFORE_ELEMENTS, block + CONTAINER_ELEMENTS)
        yield Window(max(0, block - BLOCK_BEFORE), block, stop, list_days=BLOCK_LIST_DAYS)


def _first_h1(tags: list[str]) -> int:
    try:
        return tags.index("h1")
    except ValueError:
        return -1


def _container(document: Document, headline: int) -> int:
    """The headline's article: its nearest ancestor with :data:`CONTAINER_MIN_CHARS`
    characters of text beside the headline's own (an entry whose date is in its footer,
    after the text)."""
    stats = document.stats
    chars, parent = stats.chars, stats.parent
    node = headline
    while parent[node] >= 0 and chars[node] < chars[headline] + CONTAINER_MIN_CHARS:
        node = parent[node]
    return node


def shown_headline(document: Document) -> int:
    """The first element whose own text is one of the page's headlines, or part of one:
    where a page shows its headline when it is no heading (a table cell, a ``<b>``)."""
    headlines = document.headlines
    if not headlines:
        return -1
    for index, text in enumerate(document.stats.texts):
        if text and not text.isspace() and any(shows_headline(text, headline) for headline in headlines):
            return index
    return -1


def _text_block(document: Document) -> int:
    """The element with the most text of its own (a paragraph of the article) outside
    comment threads and related stories; -1 when there is none."""
    stats = document.stats
    own_chars, nodes, parent, tags = stats.own_chars, stats.nodes, stats.parent, stats.tags
    for block in nlargest(_BLOCK_TRIES, range(len(own_chars)), key=own_chars.__getitem__):
        if own_chars[block] < BLOCK_MIN_CHARS:
            break
        node = parent[block]
        while node >= 0 and not (tags[node] in _CONTAINER_TAGS and _skipped(nodes[node])):
            node = parent[node]
        if node < 0:
            return block
    return -1


def _skipped(element: etree._Element) -> bool:
    """Whether a container holds comments or other stories, by its class or id."""
    name = element.get("class")
    if name and _SKIP_RE.search(name):
        return True
    name = element.get("id")
    return bool(name and _SKIP_RE.search(name))


def _time_label(element: object) -> str:
    get = element.get  # type: ignore[attr-defined]
    hints = f"{get('class', '')} {get('itemprop', '')} {get('id', '')}".lower()
    if "modif" in hints or "updat" in hints:
        return "modified"
    return ""


def window_text(document: Document, window: Window) -> WindowText:
    """The text of the window in document order (an element's tail after its subtree),
    pieces joined by spaces, with the ``<time datetime>`` elements in it. Comment
    threads and related-story boxes (:data:`_SKIP_RE` in a container's class or id) are
    passed over, their tails kept."""
    stats = document.stats
    nodes, end, tags, texts = stats.nodes, stats.end, stats.tags, stats.texts
    reading = _Reading(window.anchor, stats.tails, stats.parent)
    open_nodes: list[int] = []
    index = window.start
    while index < window.stop:
        while open_nodes and end[open_nodes[-1]] <= index:
            reading.close(open_nodes.pop())
        if index == window.anchor:
            reading.headline_start = reading.length
        elif reading.headline_end >= 0 and reading.length - reading.headline_end > window.chars:
            break  # enough text read after the headline
        open_nodes.append(index)
        if tags[index] in _CONTAINER_TAGS and _skipped(nodes[index]):
            index = end[index]  # its subtree is not read; its tail is, when it closes
            continue
        if tags[index] == "time":
            reading.open_time(index, nodes[index])
        text = texts[index]
        if text and not text.isspace():
            reading.add(text, index)
        index += 1
    return reading.result()


class _Reading:
    """A window's text as :func:`window_text` reads it: the pieces so far, where each
    starts and which element shows it, the ``<time>`` elements opened and closed, and
    where the headline (the window's ``anchor``) starts and ends."""

    __slots__ = (
        "anchor", "tails", "parent", "pieces", "starts", "owners", "length",
        "times", "open_times", "headline_start", "headline_end",
    )  # fmt: skip

    def __init__(self, anchor: int, tails: list[str | None], parent: list[int]) -> None:
        self.anchor, self.tails, self.parent = anchor, tails, parent
        self.pieces: list[str] = []
        self.starts: list[int] = []
        self.owners: list[int] = []
        self.length = 0  # characters read, a space after each piece
        self.times: list[tuple[int, int, str, str, int]] = []
        self.open_times: dict[int, tuple[int, str, str]] = {}
        self.headline_start = 0
        self.headline_end = -1  # not closed yet

    def add(self, text: str, owner: int) -> None:
        """Read ``text`` (an element's text, or a tail: not blank) shown in ``owner``."""
        self.starts.append(self.length)
        self.owners.append(owner)
        self.pieces.append(text)
        self.length += len(text) + 1

    def open_time(self, node: int, element: etree._Element) -> None:
        """A ``<time>`` element starts here: kept when its ``datetime`` is a date."""
        value = parse_machine_date(element.get("datetime") or "")
        if value:
            self.open_times[node] = (self.length, value, _time_label(element))

    def close(self, node: int) -> None:
        """``node``'s subtree ends here: its ``<time>`` or the headline ends; its tail is read."""
        if node in self.open_times:
            start, value, label = self.open_times.pop(node)
            self.times.append((start, self.length, value, label, node))
        if node == self.anchor:
            self.headline_end = self.length
        tail = self.tails[node]
        if tail and not tail.isspace():
            self.add(tail, self.parent[node])

    def result(self) -> WindowText:
        """What was read; a headline or a ``<time>`` still open ends with the text."""
        headline_end = self.length if self.headline_end < 0 else self.headline_end
        for node, (start, value, label) in self.open_times.items():
            self.times.append((start, self.length, value, label, node))
        text = " ".join(self.pieces)
        return WindowText(text, self.starts, self.owners, self.headline_start, headline_end, self.times)
