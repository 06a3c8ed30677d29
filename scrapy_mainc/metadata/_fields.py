"""Site name, canonical URL, description, lead image, section and tags.

Each field is the first non-empty value of its sources, in the order each function
names them: OpenGraph and the page's other meta names, the JSON-LD article
(:attr:`Document.article`), microdata ``<meta itemprop>``. URLs are made absolute against the page's base URL
(``<base href>`` or the URL it was fetched from) and kept only when they are http(s);
a relative URL on a page without a URL is left out, since the field promises an
absolute one. Tags are the union of every source, in page order, without duplicates.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any
from urllib.parse import quote, urljoin

from ..core._sanitize import usable_url
from ._jsonld import plain_text, text_of

if TYPE_CHECKING:
    from ..core._evidence import Evidence
    from ..core._types import Document

_ABSOLUTE_RE = re.compile(r"https?://[^\s/?#]", re.I)
#: Separators of a keywords list: commas (ASCII, full-width, ideographic), semicolons.
_KEYWORD_SPLIT_RE = re.compile(r"\s*[,;，；、]\s*")
#: Most tags kept (a keywords meta is sometimes a whole vocabulary).
MAX_TAGS = 30
#: Longest tag kept: a longer "keyword" is a sentence.
MAX_TAG_CHARS = 60


def find_fields(document: Document) -> dict[str, Any]:
    """Keyword arguments of :class:`Metadata` other than dates and authors."""
    evidence = document.evidence
    if evidence is None:
        return {}
    article = document.article or {}
    base = document.base_url or document.url or ""
    return {
        "site_name": site_name(evidence, article),
        "canonical_url": canonical_url(evidence, article, base),
        "description": evidence.first_meta("og:description", "description", "twitter:description")
        or plain_text(text_of(article.get("description"))),
        "image": lead_image(evidence, article, base),
        "section": evidence.first_meta("article:section")
        or plain_text(text_of(article.get("articleSection")))
        or evidence.first_meta("parsely-section", "articlesection"),
        "tags": tags(evidence, article),
    }


def site_name(evidence: Evidence, article: dict[str, Any]) -> str:
    """``og:site_name``, the JSON-LD publisher's name, or ``application-name``."""
    publisher = article.get("publisher")
    if isinstance(publisher, list):
        publisher = next((item for item in publisher if isinstance(item, dict)), None)
    name = plain_text(text_of(publisher.get("name"))) if isinstance(publisher, dict) else ""
    return evidence.first_meta("og:site_name") or name or evidence.first_meta("application-name")


def canonical_url(evidence: Evidence, article: dict[str, Any], base: str) -> str:
    """``<link rel=canonical>``, ``og:url``, or the JSON-LD article's ``url`` or
    ``mainEntityOfPage``, absolute."""
    candidates = [
        *evidence.links.get("canonical", ()),
        *evidence.meta.get("og:url", ()),
        text_of(article.get("url")),
        text_of(article.get("mainEntityOfPage")),
    ]
    return next(filter(None, (absolute_url(candidate, base) for candidate in candidates)), "")


def lead_image(evidence: Evidence, article: dict[str, Any], base: str) -> str:
    """``og:image``, ``twitter:image``, the JSON-LD article's image, or a microdata
    ``image`` meta, absolute."""
    candidates = [
        *evidence.meta.get("og:image", ()),
        *evidence.meta.get("og:image:url", ()),
        *evidence.meta.get("og:image:secure_url", ()),
        *evidence.meta.get("twitter:image", ()),
        *evidence.meta.get("twitter:image:src", ()),
        _jsonld_image(article.get("image")),
        *evidence.meta.get("image", ()),
        *evidence.meta.get("thumbnailurl", ()),
    ]
    return next(filter(None, (absolute_url(candidate, base) for candidate in candidates)), "")


def _jsonld_image(value: Any, depth: int = 0) -> str:
    """A JSON-LD ``image``: a URL, an ``ImageObject`` (``url`` or ``contentUrl``), or a
    list of either (the first); lists nested deeper than two are not followed."""
    if isinstance(value, list):
        if depth > 2:
            return ""
        return next(filter(None, (_jsonld_image(item, depth + 1) for item in value)), "")
    if isinstance(value, dict):
        return text_of(value.get("url") or value.get("contentUrl") or value.get("@id"))
    return text_of(value)


def tags(evidence: Evidence, article: dict[str, Any]) -> tuple[str, ...]:
    """``article:tag``, the JSON-LD ``keywords`` (a string or a list), ``news_keywords``
    and ``keywords``, split on commas, in that order, without duplicates (case-blind)."""
    found: dict[str, str] = {}
    keywords = article.get("keywords")
    keyword_values = keywords if isinstance(keywords, list) else [keywords]
    sources = [
        *evidence.meta.get("article:tag", ()),
        *(plain_text(text_of(value)) for value in keyword_values),
        *evidence.meta.get("news_keywords", ()),
        *evidence.meta.get("keywords", ()),
    ]
    for source in sources:
        for tag in _KEYWORD_SPLIT_RE.split(source):
            tag = tag.strip(" .")
            if tag and len(tag) <= MAX_TAG_CHARS and tag.casefold() not in found:
                found[tag.casefold()] = tag
                if len(found) == MAX_TAGS:
                    return tuple(found.values())
    return tuple(found.values())


def absolute_url(value: str, base: str) -> str:
    """``value`` as an absolute http(s) URL (resolved against ``base``), or ``""``."""
    value = value.strip()
    if not value or value.startswith("data:"):
        return ""
    if not _ABSOLUTE_RE.match(value):
        if not base:
            return ""
        try:
            value = urljoin(base, value)
        except ValueError:  # an invalid IPv6 host or port
            return ""
        if not _ABSOLUTE_RE.match(value):
            return ""
    if any(char in value for char in '<>"\\') or usable_url(value) is None:
        return ""
    return value if value.isprintable() and " " not in value else _percent_encoded(value)


def _percent_encoded(url: str) -> str:
    """``url`` with each run of whitespace as ``%20`` and every other character that is
    not printable (controls, format characters, line separators...) percent-encoded, as
    browsers send them."""
    return "".join(
        char if char.isprintable() else quote(char.encode("utf-8", "replace"))
        for char in "%20".join(url.split())
    )
