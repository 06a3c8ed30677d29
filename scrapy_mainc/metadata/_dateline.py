"""Dates the reader sees near the headline: ``<time>`` elements and written datelines.

Only a bounded window of the tree is read: :data:`BEFORE_ELEMENTS` elements before the
headline (a kicker line "News | 22.12.2023") and the elements after it, up to
:data:`AFTER_ELEMENTS` elements or :data:`WINDOW_CHARS` characters of text. Comment dates
(after the article) and most related-story dates (beside or after it) are outside it.

Within the window the dateline is the date closest to the headline, in characters of
text between them (above the headline they count double: the page's header and
navigation are there). A date inside running prose (a text piece of more than
:data:`PROSE_CHARS` characters besides it: "...the base in Orleans on January 16, 2020")
is a date the article talks about and ranks after every short dateline. A date right
after "©" or "Copyright" is never one; a date after "Updated", "Aktualisiert", "更新"...
is the modification date.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable
from typing import TYPE_CHECKING, NamedTuple

from ._datetext import find_text_dates, parse_machine_date

if TYPE_CHECKING:
    from ..core._types import Document

#: Elements read before the headline (pre-order), and after it.
BEFORE_ELEMENTS = 12
AFTER_ELEMENTS = 80
#: Characters of text read after the headline (a dateline is in its first lines).
WINDOW_CHARS = 1500
#: Characters besides a date in its text piece from which the piece is prose.
PROSE_CHARS = 80
#: Rank added to a date in prose: after any dateline of the window.
_PROSE_PENALTY = 10 * WINDOW_CHARS

#: Words that say the date after them is an update, not the publication.
_MODIFIED_LABEL_RE = re.compile(
    r"(?:updated?|modified|last edited|aktualisiert|geändert|stand|mis à jour|actualizado|actualización"
    r"|atualizado|aggiornato|bijgewerkt|päivitetty|uppdaterad|oppdatert|opdateret|zaktualizowano"
    r"|aktualizováno|ažurirano|güncelleme|обновлено|оновлено|更新|修改)\W{0,3}(?:\w+\W{1,3}){0,2}$",
    re.IGNORECASE,
)
_COPYRIGHT_RE = re.compile(r"(?:©|\(c\)|copyright|版权所有|版權所有)\W{0,3}(?:\w+\W{1,3}){0,2}$", re.IGNORECASE)
#: Regions of English that write the day first (05/06/2023 is 5 June there).
_DAY_FIRST_ENGLISH = ("en-gb", "en-au", "en-nz", "en-ie", "en-in", "en-za", "en-sg", "en-ng", "en-ke", "en-pk")
_DAY_FIRST_HOSTS = (".uk", ".au", ".nz", ".ie", ".in", ".za", ".sg", ".ng", ".ke", ".pk")


class _Window(NamedTuple):
    """Node range read around the headline; the headline's index inside it."""

    start: int
    anchor: int
    stop: int


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


def page_dates(document: Document, plausible: Callable[[str], bool]) -> tuple[str, str]:
    """(published, modified) the reader sees near the headline, ISO 8601 or ``""``.

    An update date is published too when it is the only date the window shows.
    """
    day_first = _day_first(document)
    for window in _windows(document):
        text = _window_text(document, window)
        published: list[tuple[int, str]] = []
        modified: list[tuple[int, str]] = []
        for rank, value, label in _candidates(text, day_first):
            if label != "copyright" and plausible(value):
                (modified if label == "modified" else published).append((rank, value))
        if published or modified:
            best_modified = min(modified)[1] if modified else ""
            return (min(published)[1] if published else best_modified), best_modified
    return "", ""


def _windows(document: Document) -> list[_Window]:
    """Windows to read, in turn: around the headline, around the first ``<h1>`` (the
    headline when the page's title names the site only), at the article body."""
    stats = document.stats
    anchors = [document.headline]
    anchors.append(next((index for index, tag in enumerate(stats.tags) if tag == "h1"), -1))
    if document.article_bodies:
        anchors.append(stats.positions.get(document.article_bodies[0], -1))
    count = len(stats.nodes)
    return [
        _Window(max(0, anchor - BEFORE_ELEMENTS), anchor, min(count, anchor + AFTER_ELEMENTS))
        for anchor in dict.fromkeys(anchors)
        if anchor >= 0
    ]


def _candidates(text: _Text, day_first: bool) -> list[tuple[int, str, str]]:
    """(rank, ISO value, label) of every date in the window; lower ranks are better."""
    found = []
    for start, end, value, label in text.times:
        found.append((_distance(text, start, end), value, label))
    for date in find_text_dates(text.text, day_first):
        if any(start <= date.start < end for start, end, _, _ in text.times):
            continue  # the text of a <time> element: its datetime was read
        piece = bisect_right(text.piece_starts, date.start) - 1
        piece_end = text.piece_starts[piece + 1] if piece + 1 < len(text.piece_starts) else len(text.text)
        rank = _distance(text, date.start, date.end)
        if piece_end - text.piece_starts[piece] - (date.end - date.start) > PROSE_CHARS:
            rank += _PROSE_PENALTY
        found.append((rank, date.value, _label(text.text[max(0, date.start - 40) : date.start])))
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
    return ""


def _time_label(element: object) -> str:
    get = element.get  # type: ignore[attr-defined]
    hints = f"{get('class', '')} {get('itemprop', '')} {get('id', '')}".lower()
    if "modif" in hints or "updat" in hints:
        return "modified"
    return ""


def _window_text(document: Document, window: _Window) -> _Text:
    """The text of the window in document order (an element's tail after its subtree),
    pieces joined by spaces, with the ``<time datetime>`` elements in it."""
    stats = document.stats
    nodes, end, tags = stats.nodes, stats.end, stats.tags
    pieces: list[str] = []
    starts: list[int] = []
    times: list[tuple[int, int, str, str]] = []
    open_times: dict[int, tuple[int, str, str]] = {}
    length = headline_start = 0
    headline_end = -1
    open_nodes: list[int] = []
    for index in range(window.start, window.stop):
        while open_nodes and end[open_nodes[-1]] <= index:
            closed = open_nodes.pop()
            if closed in open_times:
                start, value, label = open_times.pop(closed)
                times.append((start, length, value, label))
            if closed == window.anchor:
                headline_end = length
            length = _add(pieces, starts, length, nodes[closed].tail)
        if index == window.anchor:
            headline_start = length
        elif headline_end >= 0 and length - headline_end > WINDOW_CHARS:
            break
        element = nodes[index]
        if tags[index] == "time":
            value = parse_machine_date(element.get("datetime") or "")
            if value:
                open_times[index] = (length, value, _time_label(element))
        length = _add(pieces, starts, length, element.text)
        open_nodes.append(index)
    if headline_end < 0:
        headline_end = length
    for index, (start, value, label) in open_times.items():
        times.append((start, length, value, label))
    return _Text(" ".join(pieces), starts, headline_start, headline_end, times)


def _add(pieces: list[str], starts: list[int], length: int, text: str | None) -> int:
    if text and not text.isspace():
        starts.append(length)
        pieces.append(text)
        return length + len(text) + 1
    return length


def _day_first(document: Document) -> bool:
    """Whether ``05/06/2023`` is 5 June on this page: everywhere but in American English
    (an ``en`` page not marked or hosted as British, Australian, Indian...)."""
    html = document.root.getparent()
    lang = ((html.get("lang") or html.get("xml:lang") or "") if html is not None else "").lower()
    if lang and not lang.startswith("en"):
        return True
    host = document.urls[0].split("://", 1)[-1].split("/", 1)[0].lower() if document.urls else ""
    if lang.startswith(_DAY_FIRST_ENGLISH) or host.endswith(_DAY_FIRST_HOSTS):
        return True
    return not lang and not host.endswith((".com", ".org", ".net", ".us", ".edu", ".gov"))
