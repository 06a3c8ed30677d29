"""Cheap page annotations for the downloader middleware: language, encodings, article-ness.

They run in the reactor thread on every HTML response, so they read a bounded prefix of
the page with regular expressions instead of parsing it.
"""

from __future__ import annotations

import codecs
import re
from dataclasses import dataclass
from typing import Any

from w3lib.encoding import html_body_declared_encoding, http_content_type_encoding, read_bom

from ._decode import SNIFF_CANDIDATES, decode_html
from ._lang import guess_script
from ._text import has_cjk

#: Characters of the page read for ``<head>`` facts (meta tags, JSON-LD, ``<html lang>``).
HEAD_CHARS = 64_000
#: Characters of the page read for the share of CJK characters.
TEXT_CHARS = 300_000
#: Sniffed encodings trusted over Scrapy's decoding (not the cp1252 fallback).
_CONFIDENT_CODECS = frozenset(codecs.lookup(name).name for name in ("utf-8", *SNIFF_CANDIDATES))
#: JSON-LD ``@type`` values that mark an article (schema.org's Article and its subtypes).
_ARTICLE_TYPE_RE = re.compile(r'"@type"\s*:\s*(?:\[[^\]]*?)?"(?:\w*Article|BlogPosting)"')
_SCRIPT_END_RE = re.compile(r"</script", re.IGNORECASE)
_HTML_LANG_RE = re.compile(r"<html\b[^>]*?\blang\s*=\s*[\"']?([A-Za-z]{2,3})", re.IGNORECASE)
_META_RE = re.compile(r"<meta\b[^>]*>", re.IGNORECASE)
_ATTRIBUTE_RE = re.compile(r"([\w:.-]+)\s*=\s*(?:\"([^\"]*)\"|'([^']*)'|([^\s>]+))")
_ARTICLE_TAG_RE = re.compile(r"<article\b", re.IGNORECASE)
_NON_TEXT_RE = re.compile(
    r"<(script|style|noscript|template)\b.*?</\1\s*>|<!--.*?-->|<[^>]*>", re.IGNORECASE | re.DOTALL
)
#: Meta tags that state the page's language, by the attribute that names them.
_LANGUAGE_METAS = {
    ("http-equiv", "content-language"),
    ("name", "language"),
    ("name", "dc.language"),
    ("property", "og:locale"),
}


@dataclass(frozen=True, slots=True)
class PageAnnotations:
    """What the downloader middleware records in ``response.meta["mainc"]``.

    The language of the page is the extraction's (``Extraction.lang``, the item's
    ``mainc["lang"]``), identified from the main text; these are what the raw page says.
    """

    #: Script guess from the share of CJK characters (``zh``, ``ja``, ``ko`` or ``""``).
    script: str = ""
    #: Language the page declares (``<html lang>``, meta tags), primary subtag only.
    declared_lang: str = ""
    #: Charset declared by the HTTP header, a BOM or the page itself; ``""`` when none.
    declared_encoding: str = ""
    #: Encoding the response's ``.text`` is decoded with.
    encoding: str = ""
    #: True when the middleware replaced Scrapy's decoding with a sniffed one.
    redecoded: bool = False
    #: True when any article signal was found in the markup (the pipeline's verdict,
    #: ``mainc["article"]``, reads the extraction: :mod:`scrapy_mainc.core._article`).
    article: bool = False
    #: Which signals: ``og:type``, ``json-ld``, ``<article>``.
    article_signals: tuple[str, ...] = ()

    def as_meta(self) -> dict[str, Any]:
        """A plain dict for ``response.meta`` (lists, not tuples)."""
        return {
            "script": self.script,
            "declared_lang": self.declared_lang,
            "declared_encoding": self.declared_encoding,
            "encoding": self.encoding,
            "redecoded": self.redecoded,
            "article": self.article,
            "article_signals": list(self.article_signals),
        }


def declared_encoding(content_type: str, body: bytes) -> str:
    """The charset the page declares: HTTP header, else BOM, else ``<meta>``; ``""`` if none."""
    return (
        http_content_type_encoding(content_type)
        or read_bom(body)[0]
        or html_body_declared_encoding(body)
        or ""
    )


def better_encoding(body: bytes, current: str, declared: str = "") -> str:
    """An encoding to re-decode ``body`` with, or ``""`` to keep ``current`` (Scrapy's).

    The core's decoder decides (:func:`scrapy_mainc.core._decode.decode_html`): a page with a
    BOM, or whose declared charset decodes it cleanly, keeps Scrapy's decoding. An
    undeclared page, or one whose declaration is wrong (bytes that do not decode, or
    valid UTF-8 declared as a single-byte charset), takes the sniffed encoding, but only
    a confident one: UTF-8, or an East Asian multi-byte encoding chosen by its share of
    common CJK characters, never the cp1252 last resort. Plain ASCII decodes the same
    either way, unless Scrapy chose a codec that is not ASCII-compatible (a page declaring
    UTF-16 or EBCDIC over ASCII bytes).
    """
    if body.isascii() and _ascii_compatible(current):
        return ""
    decoded = decode_html(body, declared=declared or None)
    if decoded.source not in ("sniffed", "declared-invalid"):
        return ""
    if _codec(decoded.encoding) not in _CONFIDENT_CODECS:
        return ""
    return "" if _codec(decoded.encoding) == _codec(current) else decoded.encoding


def annotate(
    text: str, *, declared_encoding: str = "", encoding: str = "", redecoded: bool = False
) -> PageAnnotations:
    """Annotations of a page whose decoded text is ``text``."""
    head = text[:HEAD_CHARS]
    metas = [_attributes(tag) for tag in _META_RE.findall(head)]
    declared_lang = _declared_lang(head, metas)
    script = _script(text[:TEXT_CHARS], declared_lang)
    signals = _article_signals(text, metas)
    return PageAnnotations(
        script=script,
        declared_lang=declared_lang,
        declared_encoding=declared_encoding,
        encoding=encoding,
        redecoded=redecoded,
        article=bool(signals),
        article_signals=signals,
    )


def _script(sample: str, declared_lang: str) -> str:
    """The CJK script of the page's text; markup is stripped only when there is CJK at all."""
    if not has_cjk(sample):
        return ""
    return guess_script(_NON_TEXT_RE.sub(" ", sample), declared_lang)


def _declared_lang(head: str, metas: list[dict[str, str]]) -> str:
    match = _HTML_LANG_RE.search(head)
    if match:
        return match.group(1).lower()
    for attributes in metas:
        for name, value in _LANGUAGE_METAS:
            if attributes.get(name, "").lower() == value and attributes.get("content"):
                return re.split(r"[-_\s,]", attributes["content"].strip().lower())[0]
    return ""


def _article_signals(text: str, metas: list[dict[str, str]]) -> tuple[str, ...]:
    signals = []
    if any(
        attributes.get("property", "").lower() == "og:type"
        and attributes.get("content", "").strip().lower() == "article"
        for attributes in metas
    ):
        signals.append("og:type")
    if _json_ld_article(text):
        signals.append("json-ld")
    if _ARTICLE_TAG_RE.search(text, 0, TEXT_CHARS):
        signals.append("<article>")
    return tuple(signals)


def _json_ld_article(text: str) -> bool:
    """True when a JSON-LD block (``type="application/ld+json"``) declares an Article."""
    start = text.find("ld+json", 0, TEXT_CHARS)  # a plain find: much faster than a regex
    while start != -1:
        end = _SCRIPT_END_RE.search(text, start, TEXT_CHARS)
        stop = end.start() if end else TEXT_CHARS
        if _ARTICLE_TYPE_RE.search(text, start, stop):
            return True
        start = text.find("ld+json", stop, TEXT_CHARS)
    return False


def _attributes(tag: str) -> dict[str, str]:
    return {
        name.lower(): double or single or bare for name, double, single, bare in _ATTRIBUTE_RE.findall(tag)
    }


def _ascii_compatible(codec: str) -> bool:
    """True when ``codec`` decodes ASCII markup as ASCII."""
    probe = b"<p class='a'>x</p>"
    try:
        return probe.decode(codec) == probe.decode("ascii")
    except (LookupError, ValueError, TypeError):
        return False


def _codec(name: str) -> str:
    try:
        return codecs.lookup(name).name
    except LookupError:
        return name.lower()
