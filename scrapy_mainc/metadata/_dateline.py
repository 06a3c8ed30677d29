"""Dates the reader sees near the headline: ``<time>`` elements and written datelines.

Only bounded windows of the tree are read, in turn until one shows a date (see
:func:`_windows`): :data:`BEFORE_ELEMENTS` elements before the headline (a kicker line
"News | 22.12.2023") and the elements after it, up to :data:`AFTER_ELEMENTS` elements or
:data:`WINDOW_CHARS` characters of text; then other anchors for pages whose headline was
not found, the headline's article down to its footer, and the longest text block.
Containers whose class or id names comments or related stories are not read, so comment
and related-story dates stay out; a window away from the headline that shows many days is
a list of teasers (a home or section page), not a dateline.

Within a window the dateline is the date closest to the headline, in characters of
text between them (above the headline they count double: the page's header and
navigation are there). A date inside running prose (a text piece of more than
:data:`PROSE_CHARS` characters besides it: "...the base in Orleans on January 16, 2020")
is a date the article talks about and ranks after every short dateline. A date right
after "©" or "Copyright" is never one; a date after "Updated", "Aktualisiert", "更新"...
is the modification date; one after "Published", "发布" ranks as if nearer.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable, Iterator
from heapq import nlargest
from itertools import islice
from typing import TYPE_CHECKING, NamedTuple
from urllib.parse import urlsplit

from lxml import etree

from ..core._title import shows_headline
from ._datetext import find_text_dates, parse_machine_date

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
#: Characters besides a date in its text piece from which the piece is prose.
PROSE_CHARS = 80
#: Rank added to a date in prose: after any dateline of the window.
_PROSE_PENALTY = 10 * WINDOW_CHARS
#: Rank taken from a date labelled as the publication ("Published", "发布日期"): as if
#: that many characters nearer the headline.
_LABEL_BONUS = 200

#: Containers whose class or id name a comment thread or other stories: not read.
_SKIP_RE = re.compile(r"comment|related|recommend|popular|most-?read", re.IGNORECASE)
_CONTAINER_TAGS = frozenset(
    {"div", "section", "aside", "ul", "ol", "li", "article", "footer", "nav", "dl", "table"}
)
#: Words that say the date after them is an update, not the publication.
_MODIFIED_LABEL_RE = re.compile(
    r"(?:updated?|modified|last edited|aktualisiert|geändert|stand|mis à jour|actualizado|actualización"
    r"|atualizado|aggiornato|bijgewerkt|päivitetty|uppdaterad|oppdatert|opdateret|zaktualizowano"
    r"|aktualizováno|ažurirano|güncelleme|обновлено|оновлено|更新|修改)\W{0,3}(?:\w+\W{1,3}){0,2}$",
    re.IGNORECASE,
)
#: Words that say the date after them is the publication ("成文日期", the day a notice
#: was signed, is not).
_PUBLISHED_LABEL_RE = re.compile(
    r"(?:publi|posted|erschienen|veröffentlicht|gepubliceerd|opublikowano|objavljeno|yayınlan|опубликовано"
    r"|发布|發佈|發布|发表|發表|刊登|登载|公開)\w*\W{0,3}(?:\w+\W{1,3}){0,2}$",
    re.IGNORECASE,
)
_COPYRIGHT_RE = re.compile(
    r"(?:©|\(c\)|copyright|版权所有|版權所有)\W{0,3}(?:\w+\W{1,3}){0,2}$", re.IGNORECASE
)
#: Regions of English that write the day first (05/06/2023 is 5 June there).
_DAY_FIRST_ENGLISH = (
    "en-gb",
    "en-au",
    "en-nz",
    "en-ie",
    "en-in",
    "en-za",
    "en-sg",
    "en-ng",
    "en-ke",
    "en-pk",
)
_DAY_FIRST_HOSTS = (".uk", ".au", ".nz", ".ie", ".in", ".za", ".sg", ".ng", ".ke", ".pk")


class _Window(NamedTuple):
    """Node range read around the headline; the headline's index inside it."""

    start: int
    anchor: int
    stop: int
    #: Characters of text read after the anchor.
    chars: int = WINDOW_CHARS
    #: Days shown by its datelines that make the window a list's, 0 for never.
    list_days: int = LIST_DAYS


class _Text(NamedTuple):
    """The window's text in document order and what is known about its positions."""

    text: str
    #: Start offset of every text piece (an element's text or tail), ascending.
    piece_starts: list[int]
    #: Offsets where the headline's text starts and ends.
    headline_start: int
    headline_end: int
    #: ``<time datetime>`` elements: (start offset, end offset, value, label).
    times: list[tuple[int, int, str, str]]


class PageDates(NamedTuple):
    """What the reader sees near the headline."""

    #: The dateline: the best-ranked publication date, ISO 8601, or ``""``.
    published: str = ""
    #: The best-ranked date labelled as an update, or ``""``.
    modified: str = ""
    #: Every day the window's datelines show (not the dates in its prose).
    days: frozenset[str] = frozenset()


def page_dates(document: Document, plausible: Callable[[str], bool], windows: int = 6) -> PageDates:
    """The dates the reader sees in the first of ``windows`` windows (see :func:`_windows`)
    that shows any."""
    day_first = _day_first(document)
    for window in islice(_windows(document), windows):
        text = _window_text(document, window)
        published: list[tuple[int, str]] = []
        modified: list[tuple[int, str]] = []
        for rank, value, label in _candidates(text, day_first):
            if label != "copyright" and plausible(value):
                (modified if label == "modified" else published).append((rank, value))
        days = _days(published)
        if window.list_days and len(days) >= window.list_days:
            continue  # a list (a home or section page: teasers, each dated)
        if published or modified:
            best = min(published)[1] if published else ""
            return PageDates(best, min(modified)[1] if modified else "", days)
    return PageDates()


def _days(published: list[tuple[int, str]]) -> frozenset[str]:
    """The days the datelines (not the dates in prose) of a window show."""
    return frozenset(value[:10] for rank, value in published if rank < _PROSE_PENALTY - _LABEL_BONUS)


def _windows(document: Document) -> Iterator[_Window]:
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
        lambda: _headline_text(document),
        lambda: stats.positions.get(document.article_bodies[0], -1) if document.article_bodies else -1,
    )
    for find in finders:
        anchor = find()
        if anchor >= 0 and anchor not in seen:
            seen.add(anchor)
            stop = min(count, stats.end[anchor] + AFTER_ELEMENTS)
            yield _Window(
                max(0, anchor - BEFORE_ELEMENTS),
                anchor,
                stop,
                list_days=0 if anchor == headline else LIST_DAYS,
            )
    if headline >= 0:
        stop = min(stats.end[_container(document, headline)], count, headline + CONTAINER_ELEMENTS)
        yield _Window(headline, headline, stop, CONTAINER_CHARS, list_days=0)
    block = _text_block(document)
    if block >= 0 and block not in seen:
        block = max(0, stats.parent[block])  # the text around it is the article's
        stop = min(count, stats.end[block] + BEFORE_ELEMENTS, block + CONTAINER_ELEMENTS)
        yield _Window(max(0, block - BLOCK_BEFORE), block, stop, list_days=BLOCK_LIST_DAYS)


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


def _headline_text(document: Document) -> int:
    """The first element whose own text is one of the page's headlines, or part of one."""
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


def _candidates(text: _Text, day_first: bool) -> list[tuple[int, str, str]]:
    """(rank, ISO value, label) of every date in the window; lower ranks are better.

    A ``<time>`` element counts once, with its ``datetime``, unless its text shows
    another day: the reader sees that one (``datetime`` in UTC, the text local time)."""
    found = []
    shown_in_time: dict[int, str] = {}
    for date in find_text_dates(text.text, day_first):
        time = next((start for start, end, _, _ in text.times if start <= date.start < end), -1)
        if time >= 0:
            shown_in_time.setdefault(time, date.value)
            continue
        piece = bisect_right(text.piece_starts, date.start) - 1
        piece_end = text.piece_starts[piece + 1] if piece + 1 < len(text.piece_starts) else len(text.text)
        rank = _distance(text, date.start, date.end)
        if piece_end - text.piece_starts[piece] - (date.end - date.start) > PROSE_CHARS:
            rank += _PROSE_PENALTY
        label = _label(text.text[max(0, date.start - 40) : date.start])
        found.append((rank - _LABEL_BONUS if label == "published" else rank, date.value, label))
    for start, end, value, label in text.times:
        shown = shown_in_time.get(start, value)
        value = value if shown[:10] == value[:10] else shown
        label = label or _label(text.text[max(0, start - 40) : start])
        rank = _distance(text, start, end)
        found.append((rank - _LABEL_BONUS if label == "published" else rank, value, label))
    return found


def _distance(text: _Text, start: int, end: int) -> int:
    """Characters between a date and the headline; doubled above it."""
    if start >= text.headline_end:
        return start - text.headline_end
    if end <= text.headline_start:
        return 2 * (text.headline_start - end)
    return 0


def _label(preceding: str) -> str:
    if _COPYRIGHT_RE.search(preceding):
        return "copyright"
    if _MODIFIED_LABEL_RE.search(preceding):
        return "modified"
    if _PUBLISHED_LABEL_RE.search(preceding):
        return "published"
    return ""


def _time_label(element: object) -> str:
    get = element.get  # type: ignore[attr-defined]
    hints = f"{get('class', '')} {get('itemprop', '')} {get('id', '')}".lower()
    if "modif" in hints or "updat" in hints:
        return "modified"
    return ""


def _window_text(document: Document, window: _Window) -> _Text:
    """The text of the window in document order (an element's tail after its subtree),
    pieces joined by spaces, with the ``<time datetime>`` elements in it. Comment
    threads and related-story boxes (:data:`_SKIP_RE` in a container's class or id) are
    passed over, their tails kept."""
    stats = document.stats
    nodes, end, tags, texts, tails = stats.nodes, stats.end, stats.tags, stats.texts, stats.tails
    pieces: list[str] = []
    starts: list[int] = []
    times: list[tuple[int, int, str, str]] = []
    open_times: dict[int, tuple[int, str, str]] = {}
    length = headline_start = 0
    headline_end = -1
    open_nodes: list[int] = []
    index = window.start
    while index < window.stop:
        while open_nodes and end[open_nodes[-1]] <= index:
            closed = open_nodes.pop()
            if closed in open_times:
                start, value, label = open_times.pop(closed)
                times.append((start, length, value, label))
            if closed == window.anchor:
                headline_end = length
            tail = tails[closed]
            if tail and not tail.isspace():
                starts.append(length)
                pieces.append(tail)
                length += len(tail) + 1
        if index == window.anchor:
            headline_start = length
        elif headline_end >= 0 and length - headline_end > window.chars:
            break
        tag = tags[index]
        open_nodes.append(index)
        if tag in _CONTAINER_TAGS and _skipped(nodes[index]):
            index = end[index]  # its subtree is not read; its tail is, when it closes
            continue
        if tag == "time":
            value = parse_machine_date(nodes[index].get("datetime") or "")
            if value:
                open_times[index] = (length, value, _time_label(nodes[index]))
        text = texts[index]
        if text and not text.isspace():
            starts.append(length)
            pieces.append(text)
            length += len(text) + 1
        index += 1
    if headline_end < 0:
        headline_end = length
    for start, value, label in open_times.values():
        times.append((start, length, value, label))
    return _Text(" ".join(pieces), starts, headline_start, headline_end, times)


def _day_first(document: Document) -> bool:
    """Whether ``05/06/2023`` is 5 June on this page: everywhere but in American English
    (an ``en`` page not marked or hosted as British, Australian, Indian...)."""
    html = document.root.getparent()
    lang = ((html.get("lang") or html.get("xml:lang") or "") if html is not None else "").lower()
    if lang and not lang.startswith("en"):
        return True
    host = _host(document.urls[0]) if document.urls else ""
    if lang.startswith(_DAY_FIRST_ENGLISH) or host.endswith(_DAY_FIRST_HOSTS):
        return True
    return not lang and not host.endswith((".com", ".org", ".net", ".us", ".edu", ".gov"))


def _host(url: str) -> str:
    """The host name of ``url`` (no port, no user), lower-cased; "" when there is none."""
    try:
        return urlsplit(url).hostname or ""
    except ValueError:  # an invalid IPv6 host: "//[bad"
        return ""
