"""How a page is laid out: the layout signals of the page-type model (:mod:`._pagetype`).

:mod:`._page_signals` reads what a page states (markup, names, words) and the shape of its
text as a whole. The signals here read its layout, which holds on sites the model never
saw (training/README.md says what each one measures and why):

* **items**: groups of four or more alike siblings (one parent, one tag, three words or
  more each: the runs :mod:`._page_signals` reads too), and what the
  members of the group covering the most linked words hold: a link, an image, a heading,
  a price, a date. A listing's items each have a linked headline and a
  date, a shop's a linked name, an image and a price;
* **links**: headline-like links (four words or more) standing on their own line, links
  inline in paragraphs;
* **the headline**: whether the page shows its title as a heading, how far down, and a
  date near it (a story's byline);
* **rhythm**: the words between one heading and the next (a company's page of short
  sections, a story's few long ones), headings that are links (teasers);
* **prose**: the container holding the most paragraph words, and the longest run of text
  read without a link line between (a story's body is one long run; a listing's teasers
  are many short ones, each after its linked headline);
* **regions**: the share of link words in each third of the page's text;
* **the address's shape**: its depth, its last segment's words, a date or a long number in
  its path, an extension, a query. Shapes only: no word of a URL is read.

Every count comes from the shared statistics (:class:`DomStats`), in passes over its
per-node lists; the items' and the headline's texts alone are read for dates and prices.
"""

from __future__ import annotations

import math
import re
from bisect import bisect_left
from collections.abc import Mapping
from dataclasses import dataclass
from urllib.parse import urlsplit

from ._stats import DomStats
from ._tags import HEADING_TAGS
from ._types import Document

#: A price as a shop shows it: a currency sign beside a number, or a currency's code.
_PRICE_RE = re.compile(r"[$€£¥₹]\s?\d|\d\s?(?:[$€£¥₹]|(?:usd|eur|gbp)\b)", re.IGNORECASE)
#: A date as an item's stamp shows it (numeric, ISO, English month names, "3 days ago").
_DATE_RE = re.compile(
    r"\b(?:\d{1,2}[/.-]\d{1,2}[/.-]\d{2,4}|\d{4}[/.-]\d{1,2}[/.-]\d{1,2}"
    r"|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.? \d{1,2}(?:st|nd|rd|th)?,? \d{4}"
    r"|\d{1,2}(?:st|nd|rd|th)? (?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?,? \d{4}"
    r"|\d+ (?:minutes?|hours?|days?|weeks?|months?|years?) ago)\b",
    re.IGNORECASE,
)
_DIGIT = re.compile(r"\d").search
#: A date in a URL's path: ``/2024/05/``, ``/2024-05-17``, ``20240517``.
_PATH_DATE_RE = re.compile(r"(?:^|/)(?:19|20)\d\d(?:[/-]\d\d?|/|$)|(?<!\d)(?:19|20)\d\d[01]\d[0-3]\d(?!\d)")
#: A long number in a URL's last segment, or a segment of digits alone: an item's id
#: (a year's four digits are no id).
_PATH_ID_RE = re.compile(r"\d{5,}|^\d+$")
_SLUG_SPLIT = re.compile(r"[-_+]")
#: Texts shorter than this many characters are read for prices and dates (stamps, labels).
STAMP_CHARS = 80
#: A group of alike elements needs this many members to be items.
MIN_ITEMS = 4
#: No member of a group of items holds more than this share of the page's words (three
#: parts of a page, header, main and footer, are no items).
ITEM_MAX_SHARE = 0.25
#: A link of this many words or more, on its own line, reads as a headline.
HEADLINE_LINK_WORDS = 4
#: The text pieces after the headline (and before it) read for a date.
BYLINE_AFTER, BYLINE_BEFORE = 60, 30
#: A run of prose takes text pieces of this many words or more (not link text).
RUN_PIECE_WORDS = 10
#: Tags of text, not of items: a run of paragraphs is a story's, not a list's.
_TEXT_TAGS = frozenset({"p", "span", "a", "em", "strong", "b", "i", "br", "font", "small", "label"})


def _log(value: float) -> float:
    return math.log1p(max(value, 0.0))


def shape_signals(document: Document, runs: Mapping[tuple[int, str], list[int]]) -> dict[str, float]:
    """The layout signals of ``document``, whose runs of alike siblings are ``runs`` (by
    parent and tag: :func:`._page_signals.sibling_runs`; see the module docstring)."""
    stats = document.stats
    headings = [node for node, tag in enumerate(stats.tags) if tag in HEADING_TAGS]
    signals = _url_shape(document.url or (document.urls[0] if document.urls else ""))
    signals.update(_items(stats, runs))
    signals.update(_links(stats, document.headline))
    signals.update(_headings(stats, headings))
    signals.update(_prose(stats))
    signals.update(_flow(stats, headings))
    return signals


@dataclass(frozen=True, slots=True)
class _Marks:
    """What a part of the page holds: images, headings, dates, prices, headline-like links."""

    images: bool
    headings: bool
    dates: bool
    prices: bool


def _marks(stats: DomStats, node: int) -> _Marks:
    """What the subtree of ``node`` holds (its tags, and its short texts with digits read
    for a date or a price)."""
    stop = stats.end[node]
    tags = stats.tags[node:stop]
    stamps = [
        text
        for text in (*stats.texts[node:stop], *stats.tails[node + 1 : stop])
        if text and len(text) < STAMP_CHARS and _DIGIT(text)
    ]
    return _Marks(
        images="img" in tags,
        headings=any(tag in HEADING_TAGS for tag in tags),
        dates="time" in tags or any(_DATE_RE.search(text) for text in stamps),
        prices=any(_PRICE_RE.search(text) for text in stamps),
    )


_ITEM_SIGNALS = (
    "it_groups", "it_count", "it_link", "it_img", "it_head", "it_price", "it_date", "it_words",
    "it_cover", "it_linkshare", "it_longlink",
)  # fmt: skip


def _items(stats: DomStats, runs: Mapping[tuple[int, str], list[int]]) -> dict[str, float]:
    """The groups of alike siblings (items: runs of :data:`MIN_ITEMS` or more, of no text
    tag, none over :data:`ITEM_MAX_SHARE` of the page) and what the members of the group
    covering the most linked words hold."""
    words, link_words, links = stats.words, stats.link_words, stats.links
    total = words[0] or 1
    largest = total * ITEM_MAX_SHARE
    signals = dict.fromkeys(_ITEM_SIGNALS, 0.0)
    items = [
        small
        for (_, tag), members in runs.items()
        if len(members) >= MIN_ITEMS and tag not in _TEXT_TAGS
        for small in [[node for node in members if words[node] <= largest]]
        if len(small) >= MIN_ITEMS
    ]
    if not items:
        return signals
    best = max(items, key=lambda members: sum(words[node] for node in members if links[node]))
    best_words = sum(words[node] for node in best) or 1
    marks = [_marks(stats, node) for node in best]
    count = len(best)
    signals.update(
        it_groups=_log(len(items)) / 3,
        it_count=_log(count) / 4,
        it_link=sum(1 for node in best if links[node]) / count,
        it_img=sum(mark.images for mark in marks) / count,
        it_head=sum(mark.headings for mark in marks) / count,
        it_price=sum(mark.prices for mark in marks) / count,
        it_date=sum(mark.dates for mark in marks) / count,
        it_words=_log(best_words / count) / 5,
        it_cover=best_words / total,
        it_linkshare=sum(link_words[node] for node in best) / best_words,
        it_longlink=_headline_links(stats, best),
    )
    return signals


def _headline_links(stats: DomStats, members: list[int]) -> float:
    """The share of ``members`` holding a link of :data:`HEADLINE_LINK_WORDS` words or more."""
    positions, words, end = stats.link_positions, stats.words, stats.end
    long_links = [link for link in positions if words[link] >= HEADLINE_LINK_WORDS]
    found = 0
    for node in members:
        index = bisect_left(long_links, node)
        found += index < len(long_links) and long_links[index] < end[node]
    return found / len(members)


def _links(stats: DomStats, headline: int) -> dict[str, float]:
    """How the page's links read (headline-like on their own line, inline in paragraphs),
    and the headline: found, how far down, a date near it."""
    tags, words, parent = stats.tags, stats.words, stats.parent
    positions = stats.link_positions
    total = words[0] or 1
    inline = [link for link in positions if _in_paragraph(tags, parent, link)]
    inline_set = set(inline)
    long_links = sum(1 for link in positions if words[link] >= HEADLINE_LINK_WORDS and link not in inline_set)
    count = len(positions) or 1
    return {
        "lk_long": _log(long_links) / 4,
        "lk_long_per": _log(long_links / (total / 100 + 1)),
        "lk_inline": len(inline) / count,
        "lk_words": _log(stats.link_words[0] / count),
        "hl_found": float(headline >= 0),
        "hl_date": float(headline >= 0 and _dated_near(stats, headline)),
        "hl_at": sum(stats.own_words[:headline]) / total if headline >= 0 else 1.0,
    }


def _in_paragraph(tags: list[str], parent: list[int], link: int) -> bool:
    """Whether ``link`` stands in a paragraph (its parent or grandparent a ``<p>``)."""
    up = parent[link]
    return tags[up] == "p" or (up > 0 and tags[parent[up]] == "p")


def _dated_near(stats: DomStats, headline: int) -> bool:
    """Whether a date stands among the text pieces around the headline (a byline)."""
    start, stop = max(0, headline - BYLINE_BEFORE), min(len(stats.tags), stats.end[headline] + BYLINE_AFTER)
    if "time" in stats.tags[start:stop]:
        return True
    pieces = (*stats.texts[start:stop], *stats.tails[start + 1 : stop])
    return any(_DATE_RE.search(text) for text in pieces if text and len(text) < STAMP_CHARS and _DIGIT(text))


def _headings(stats: DomStats, heads: list[int]) -> dict[str, float]:
    """The headings (``heads``, in document order): how many, how many are links."""
    words, link_words = stats.words, stats.link_words
    linked = sum(1 for node in heads if link_words[node] and link_words[node] * 2 >= words[node])
    return {"rh_heads": _log(len(heads)) / 4, "rh_linked": linked / len(heads) if heads else 0.0}


def _prose(stats: DomStats) -> dict[str, float]:
    """The container holding the most paragraph words (its share of the page's words and
    of its paragraphs' words), the longest paragraph."""
    tags, words, link_words, parent = stats.tags, stats.words, stats.link_words, stats.parent
    held: dict[int, int] = {}
    counts = [(node, words[node] - link_words[node]) for node, tag in enumerate(tags) if tag == "p"]
    for node, count in counts:
        held[parent[node]] = held.get(parent[node], 0) + count
    paragraph_words = sum(count for _, count in counts)
    most = max(held.values(), default=0)
    return {
        "pr_share": most / (words[0] or 1),
        "pr_of_p": most / paragraph_words if paragraph_words else 0.0,
        "pr_longest": _log(max((count for _, count in counts), default=0)) / 5,
    }


def _flow(stats: DomStats, heads: list[int]) -> dict[str, float]:
    """The page's text read once in document order: the words between one heading and the
    next (its sections), the runs of prose (text read on without a link line between: a
    story's body is one long run, a listing's summaries are cut by each next headline),
    and the share of link words in each third of the text."""
    own_words, in_link, is_link, parent, words, end = (
        stats.own_words, stats.in_link, stats.is_link, stats.parent, stats.words, stats.end,
    )  # fmt: skip
    total = words[0] or 1
    thirds, linked = [0, 0, 0], [0, 0, 0]
    gaps = [0] * len(heads)
    runs: list[int] = []
    run = seen = 0
    section = -1  # the last heading at or before the piece
    for node in [node for node, count in enumerate(own_words) if count]:
        count = own_words[node]
        third = min(seen * 3 // total, 2)
        thirds[third] += count
        seen += count
        if in_link[node]:
            linked[third] += count
            if is_link[node] and words[node] >= 3 and own_words[parent[node]] < 5 and run:
                runs.append(run)  # a link standing on its own line: a headline, a menu
                run = 0
            continue
        if count >= RUN_PIECE_WORDS:
            run += count
        while section + 1 < len(heads) and heads[section + 1] <= node:
            section += 1
        if section >= 0 and node >= end[heads[section]]:
            gaps[section] += count
    runs.append(run)
    signals = {
        f"rg_link{index}": linked[index] / thirds[index] if thirds[index] else 0.0 for index in range(3)
    }
    signals.update(pr_run=max(runs) / total, pr_runs=_log(sum(1 for run in runs if run >= 20)) / 4)
    if not heads:
        return {**signals, "rh_gap": _log(total) / 8, "rh_short": 0.0, "rh_long": 0.0}
    return {
        **signals,
        "rh_gap": _log(sorted(gaps)[len(gaps) // 2]) / 8,
        "rh_short": sum(1 for gap in gaps if 5 <= gap < 60) / len(heads),
        "rh_long": max(gaps) / total,
    }


def _url_shape(url: str) -> dict[str, float]:
    """The shape of the page's address: how deep, how its last segment reads."""
    try:
        parts = urlsplit(url)
    except ValueError:
        parts = urlsplit("")
    path = parts.path
    segments = [segment for segment in path.split("/") if segment]
    last = segments[-1] if segments else ""
    stem, dot, extension = last.rpartition(".")
    if not dot or len(extension) > 5 or not extension.isalpha():
        stem, extension = last, ""
    slug_words = [word for word in _SLUG_SPLIT.split(stem) if word]
    return {
        "u_known": float(bool(url)),
        "u_depth": min(len(segments), 8) / 8,
        "u_root": float(bool(url) and not segments),
        "u_slug_words": _log(len(slug_words)) / 2,
        "u_slug_chars": _log(len(stem)) / 4,
        "u_date": float(bool(_PATH_DATE_RE.search(path))),
        "u_id": float(bool(_PATH_ID_RE.search(stem))),
        "u_extension": float(bool(extension)),
        "u_query": float(bool(parts.query)),
        "u_slash": float(path.endswith("/") and bool(segments)),
    }
