"""The page headline: an ``<h1>`` that agrees with the page title, else metadata."""

from __future__ import annotations

import re

from lxml import etree

from ._text import normalize_space

_TOKEN_RE = re.compile(r"\w+")
#: Separators between a headline and the site name in ``<title>``.
_SITE_SEPARATOR_RE = re.compile(r"\s+[|\-–—:»·]\s+|_+|-{2,}|\s*｜\s*|\s*–\s*")
#: ``<meta>`` names and properties that carry the headline.
_TITLE_META = frozenset({"og:title", "twitter:title"})
#: Share of an ``<h1>``'s tokens that must occur in the page title for it to be the headline.
H1_TITLE_AGREEMENT = 0.6


def find_title(root: etree._Element) -> str:
    """Best headline of the page at ``root`` (a full, unprepared tree)."""
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
    for heading in headings:
        if reference and _agreement(heading, reference) >= H1_TITLE_AGREEMENT:
            return heading
    if meta_titles and meta_titles[0]:
        return meta_titles[0]
    if page_title:
        return _strip_site_name(page_title)
    return headings[0] if headings else ""


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
