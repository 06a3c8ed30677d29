"""The page headline: an ``<h1>`` that agrees with the page title, else metadata; the
headline strings the page states; and NCE's title search for the headline element."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from lxml import etree

from ._tags import HEADING_TAGS
from ._text import measure, normalize_space

if TYPE_CHECKING:
    from ._stats import DomStats

_TOKEN_RE = re.compile(r"\w+")
#: Separators between a headline and the site name in ``<title>``.
_SITE_SEPARATOR_RE = re.compile(r"\s+[|\-–—:»·]\s+|_+|-{2,}|\s*｜\s*|\s*–\s*")
#: ``<meta>`` names and properties that carry the headline.
_TITLE_META = frozenset({"og:title", "twitter:title"})
#: Share of an ``<h1>``'s tokens that must occur in the page title for it to be the headline.
H1_TITLE_AGREEMENT = 0.6


@dataclass(frozen=True, slots=True)
class Titles:
    """The headline of a page and every headline string the page states."""

    #: The best headline (:func:`find_title`).
    title: str
    #: Distinct headline strings, best first: the headline, ``og:title`` and
    #: ``twitter:title``, and ``<title>`` without the site name.
    headlines: tuple[str, ...]


def find_title(root: etree._Element) -> str:
    """Best headline of the page at ``root`` (a full, unprepared tree)."""
    return find_titles(root).title


def find_titles(root: etree._Element) -> Titles:
    """The headline and the headline strings of the page at ``root`` (a full, unprepared tree)."""
    head = root.find("head")  # metadata lives in <head>, unless a broken page lost it
    meta_titles = [
        normalize_space(meta.get("content") or "")
        for meta in (head if head is not None and len(head) else root).iter("meta")
        if meta.get("property") in _TITLE_META or meta.get("name") in _TITLE_META
    ]
    title_element = next(root.iter("title"), None)
    page_title = normalize_space(title_element.text or "") if title_element is not None else ""
    reference = " ".join(filter(None, [*meta_titles[:1], page_title]))
    headings = [normalize_space("".join(h1.itertext())) for h1 in _first(root.iter("h1"), 5)]
    headings = [heading for heading in headings if heading]
    stripped = _strip_site_name(page_title) if page_title else ""
    agreeing = (
        heading for heading in headings if reference and _agreement(heading, reference) >= H1_TITLE_AGREEMENT
    )
    title = next(agreeing, "")
    if not title:
        title = (
            meta_titles[0]
            if meta_titles and meta_titles[0]
            else stripped or (headings[0] if headings else "")
        )
    return Titles(title, tuple(dict.fromkeys(text for text in (title, *meta_titles, stripped) if text)))


def find_headline(stats: DomStats, title: str) -> int:
    """NCE's title search: the first heading whose text is the headline ``title``, or -1.

    A heading that is a link (most of its words link text) is a teaser pointing to a
    story, possibly this one from a list of most-read stories, not the page's headline.
    """
    title = " ".join(title.split()).lower()
    if not title:
        return -1
    longest = measure(title)[1] + 1  # a heading with more words cannot be the title
    words, nodes, link_words = stats.words, stats.nodes, stats.link_words
    for node in [node for node, tag in enumerate(stats.tags) if tag in HEADING_TAGS]:
        if 0 < words[node] <= longest and 2 * link_words[node] <= words[node]:
            text = " ".join(" ".join(nodes[node].itertext()).split()).lower()
            if text == title or (len(text) > 10 and text in title):
                return node
    return -1


def _first(iterator, count: int) -> list[etree._Element]:  # type: ignore[no-untyped-def]
    found = []
    for element in iterator:
        found.append(element)
        if len(found) == count:
            break
    return found


def _tokens(text: str) -> list[str]:
    return [token.lower() for token in _TOKEN_RE.findall(text)]


def _agreement(heading: str, reference: str) -> float:
    heading_tokens = _tokens(heading)
    if not heading_tokens:
        return 0.0
    reference_tokens = set(_tokens(reference))
    if len(heading_tokens) == 1 and len(heading) > 8:  # an unsegmented CJK headline
        return 1.0 if heading in reference else 0.0
    return sum(token in reference_tokens for token in heading_tokens) / len(heading_tokens)


def _strip_site_name(title: str) -> str:
    parts = [part.strip() for part in _SITE_SEPARATOR_RE.split(title) if part.strip()]
    return max(parts, key=len) if parts else title
