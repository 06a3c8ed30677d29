"""Metadata evidence of a page, collected before preparation removes ``<head>``,
``<script>``, ``<meta>`` and ``<link>``: meta tags, link relations and JSON-LD objects.

Microdata on other elements (``itemprop``) is found by preparation's own pass over the
attributes of the body (:attr:`Document.itemprops`), so the page is parsed once and its
attributes scanned once. Collecting costs about 0.02 ms on the median page of the
scrapinghub set (one ``iter`` over three tags; an XPath over every element for
``@itemprop`` alone would cost 0.07 ms).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field, replace
from itertools import islice
from typing import Any

from lxml import etree

from ..core._text import normalize_space

#: JSON-LD is often wrapped in HTML comments or CDATA markers, or carries raw control characters.
_JSON_WRAPPER_RE = re.compile(r"^\s*(?:<!--|<!\[CDATA\[|//\s*<!\[CDATA\[)|(?:-->|\]\]>|//\s*\]\]>)\s*$")
_CONTROL_RE = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f]")
_LENIENT_DECODER = json.JSONDecoder(strict=False)
#: The input types that are buttons.
_SUBMITS = frozenset({"submit", "button"})
#: Text pieces of a button read.
_BUTTON_PIECES = 8
#: The buttons' text kept (a page of a thousand "Add to cart" buttons says it in the first ones).
_BUTTON_CHARS = 5000
#: Longest JSON-LD script read (a page's article object is a few kilobytes).
MAX_JSONLD_CHARS = 200_000


@dataclass(frozen=True, slots=True)
class Evidence:
    """Metadata statements of one page, in document order."""

    #: ``<meta>`` values by lower-cased ``property``, ``name``, ``itemprop`` and ``http-equiv``
    #: (a meta with several of them is listed under each).
    meta: dict[str, list[str]] = field(default_factory=dict)
    #: ``<link href>`` values by lower-cased ``rel`` token (``canonical``, ``author``...).
    links: dict[str, list[str]] = field(default_factory=dict)
    #: Every JSON-LD object with an ``@type``: top-level objects, array items and ``@graph``
    #: members, in page order (nested objects such as ``author`` stay inside their parent).
    jsonld: list[dict[str, Any]] = field(default_factory=list)
    #: The text of the page's buttons and form controls' labels (``<button>``, ``<input
    #: type=submit value>``), joined: what the page asks its reader to do ("Add to cart",
    #: "Reply", "Subscribe"), which preparation removes with the form controls.
    buttons: str = ""

    def first_meta(self, *names: str) -> str:
        """The first non-empty value of the first of ``names`` the page has, or ``""``."""
        for name in names:
            for value in self.meta.get(name, ()):
                if value:
                    return value
        return ""


def collect_evidence(root: etree._Element) -> Evidence:
    """The metadata evidence of the page at ``root`` (a full, unprepared tree)."""
    evidence = Evidence()
    meta, links = evidence.meta, evidence.links
    buttons: list[str] = []
    for element in root.iter("meta", "link", "script", "button", "input"):
        tag = element.tag
        if tag in ("button", "input"):
            buttons.append(_button_text(element))
        elif tag == "meta":
            content = element.get("content")
            if content is None:
                continue
            content = normalize_space(content)
            for attribute in ("property", "name", "itemprop", "http-equiv"):
                keys = element.get(attribute)
                if keys:
                    for key in keys.lower().split():
                        meta.setdefault(key, []).append(content)
        elif tag == "link":
            href = (element.get("href") or "").strip()
            if href:
                for rel in element.get("rel", "").lower().split():
                    links.setdefault(rel, []).append(href)
        elif element.get("type", "").strip().lower() == "application/ld+json":
            evidence.jsonld.extend(parse_jsonld(element.text or ""))
    return replace(evidence, buttons=" ".join(filter(None, buttons))[:_BUTTON_CHARS])


def _button_text(element: etree._Element) -> str:
    """The text a button shows: its first pieces of text (a ``<button>`` the parser nested
    the page in holds the whole page), or a submit input's value."""
    if element.tag == "input":
        return (element.get("value") or "") if element.get("type") in _SUBMITS else ""
    return " ".join(islice(element.itertext(), _BUTTON_PIECES))


def parse_jsonld(text: str) -> list[dict[str, Any]]:
    """The typed objects of one JSON-LD script; ``[]`` when it cannot be read."""
    text = text.strip()
    if not text or len(text) > MAX_JSONLD_CHARS:
        return []
    data = _loads(text)
    objects: list[dict[str, Any]] = []
    _flatten(data, objects, depth=0)
    return objects


def load_json(text: str) -> Any:
    """``text`` as JSON, or ``None`` when it is not JSON or nests deeper than Python's
    recursion limit lets the decoder go (``[[[[...`` a hundred thousand deep)."""
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        return None


def _loads(text: str) -> Any:
    """JSON, tolerant of comment and CDATA wrappers, control characters, and trailing junk
    (a second object or a stray semicolon after the first); ``None`` for what is not JSON
    or nests too deep to decode."""
    for attempt in (text, _CONTROL_RE.sub(" ", _JSON_WRAPPER_RE.sub("", text)).strip().rstrip(";")):
        try:  # strict=False: raw line breaks and tabs inside strings, as CMSs write them
            return json.loads(attempt, strict=False)
        except RecursionError:
            return None
        except ValueError:
            pass
        try:  # the first complete value; what follows is ignored
            return _LENIENT_DECODER.raw_decode(attempt)[0]
        except RecursionError:
            return None
        except ValueError:
            continue
    return None


def _flatten(data: Any, objects: list[dict[str, Any]], depth: int) -> None:
    if depth > 4:
        return
    if isinstance(data, list):
        for item in data:
            _flatten(item, objects, depth + 1)
    elif isinstance(data, dict):
        if "@type" in data:
            objects.append(data)
        graph = data.get("@graph")
        if graph is not None:
            _flatten(graph, objects, depth + 1)


def jsonld_types(obj: dict[str, Any]) -> tuple[str, ...]:
    """The ``@type`` names of a JSON-LD object (a string or a list of strings), without a
    ``schema:`` or URL prefix."""
    types = obj.get("@type")
    names = types if isinstance(types, list) else [types]
    return tuple(str(name).rsplit("/", 1)[-1].rsplit(":", 1)[-1] for name in names if isinstance(name, str))
