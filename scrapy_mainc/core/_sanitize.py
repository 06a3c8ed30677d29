"""Making the HTML fragment of the main content safe to index and to show.

The analysis tree has no scripts, styles, frames, objects or form controls already
(preparation removed them). Rendering then removes what could still run code or send the
reader elsewhere unasked, and makes the fragment stand on its own:

* elements that load or run something (``portal``, ``keygen``...) are removed;
* ``on*`` event-handler attributes are removed;
* URL attributes (``href``, ``src``, ``srcset``, ``action``, ``ping``, ``xlink:href``...)
  are kept only with an allowed scheme (http, https, mailto) or none (relative); with a
  page URL, relative URLs are made absolute. The URL judged is the one emitted, after
  every change made to it (control characters replaced, joined to the page URL), and the
  one read; each is judged after entity decoding and NFKC normalisation, without the
  characters any reader might drop: what browsers ignore (``jav&#x09;ascript:``) and
  every other character that is not printable, such as Unicode spaces that ``str.strip``
  takes away (``\u00a0javascript:``) or zero-width characters;
* ``style`` attributes with ``expression()``, ``behavior``, ``-moz-binding`` or a
  ``url()`` of a scheme not allowed are removed (CSS comments and escapes decoded first);
* an element whose tag name holds a character that ends a name in HTML (whitespace, a
  control character, a quote, ``/``, ``=``, ``<``, ``>``) becomes a ``<span>`` and such an
  attribute is removed: the parser lets ``<p x\x05onclick=...>`` through as one attribute
  name, and the control character, replaced by a space in the output, would make it an
  event handler (``<script\x05src=...>`` a ``<script>``).
"""

from __future__ import annotations

import html
import re
import unicodedata
from urllib.parse import urljoin, urlsplit

from lxml import etree

#: Elements removed with their content from the output (what preparation left that can
#: load, embed or submit something).
UNSAFE_TAGS = ("portal", "keygen", "isindex", "bgsound", "layer", "ilayer", "frame", "frameset")
#: Attributes holding one URL.
URL_ATTRIBUTES = frozenset(
    {
        "href", "src", "action", "formaction", "cite", "background", "xlink:href", "poster",
        "longdesc", "lowsrc", "dynsrc", "data", "codebase", "usemap", "manifest", "icon",
        "profile", "classid", "archive",
    }
)  # fmt: skip
_CHECKED = URL_ATTRIBUTES | {"srcset", "ping", "style"}
#: URL schemes a fragment may keep (a URL without a scheme is relative, and kept).
SAFE_SCHEMES = frozenset({"http", "https", "mailto"})
#: What browsers drop from URLs (ASCII whitespace and C0 controls) and lower-case.
_URL_NOISE_RE = re.compile("[\\x00-\\x20\\x7f]+")
#: What browsers strip from both ends of a URL (C0 controls and space).
URL_ENDS = "".join(map(chr, range(0x21)))
_SCHEME_RE = re.compile(r"([a-z][a-z0-9+.\-]*):")
_CSS_COMMENT_RE = re.compile(r"/\*.*?(?:\*/|$)", re.S)
_CSS_ESCAPE_RE = re.compile(r"\\([0-9a-fA-F]{1,6})\s?|\\(.)", re.S)
_CSS_URL_RE = re.compile(r"url\(\s*(['\"]?)(.*?)\1\s*\)", re.S | re.I)
_CSS_DANGER_RE = re.compile(r"expression|behavior|-moz-binding|javascript:|vbscript:")
_ABSOLUTE_RE = re.compile(r"https?://", re.I)
#: Most URLs: http(s), or a relative path whose first segment has no ":" (no scheme).
_PLAIN_URL_RE = re.compile(r"https?://|[/#?]|[\w.~%+-]+(?:[/#?]|\Z)")
_DESCRIPTOR_RE = re.compile(r"\d+(?:\.\d+)?[wxh]")
#: A character that cannot be part of a tag or attribute name as a browser reads it.
_NOT_NAME_RE = re.compile("[\\x00-\\x20\\x7f\"'/<=>\\ufffe\\uffff\\ud800-\\udfff]")


def sanitize(root: etree._Element, base_url: str | None = None) -> None:
    """Make the subtree of ``root`` safe in place (see the module's docstring).

    ``base_url``, the page's URL (or its ``<base href>``), makes relative URLs absolute;
    only an absolute http(s) URL is used as a base.
    """
    etree.strip_elements(root, *UNSAFE_TAGS, with_tail=False)
    base = base_url if base_url and _ABSOLUTE_RE.match(base_url) else None
    for element in root.iter(etree.Element):  # cheaper than an XPath over attribute names
        if _NOT_NAME_RE.search(element.tag):
            element.tag = "span"
        attributes = element.attrib
        if not attributes:
            continue
        if any(_NOT_NAME_RE.search(name) for name in attributes):
            _drop_bad_names(attributes)
        for name, lowered in [(name, name.lower()) for name in attributes]:
            if lowered not in _CHECKED and not lowered.startswith("on"):
                continue
            if lowered.startswith("on"):
                del attributes[name]
                continue
            value = xml_safe(attributes[name])  # as it will be emitted
            if lowered in URL_ATTRIBUTES:
                _set_or_drop(attributes, name, _safe_url(value, base))
            elif lowered == "srcset":
                _set_or_drop(attributes, name, _safe_srcset(value, base))
            elif lowered == "ping":
                urls = [_safe_url(url, base) for url in value.split()]
                _set_or_drop(attributes, name, None if None in urls else " ".join(map(str, urls)))
            else:
                _set_or_drop(attributes, name, value if is_safe_style(value) else None)


def _drop_bad_names(attributes: etree._Attrib) -> None:
    """Remove the attributes whose names a browser would read as something else."""
    kept = [(name, xml_safe(value)) for name, value in attributes.items() if _settable_name(name)]
    attributes.clear()  # not del: lxml cannot address every name the parser lets through
    attributes.update(kept)


def _settable_name(name: str) -> bool:
    """A name browsers read as one attribute and lxml can set ("{x" is a namespace to it)."""
    return bool(name) and not _NOT_NAME_RE.search(name) and "{" not in name and "}" not in name


def is_safe_url(value: str) -> bool:
    """True when ``value`` is relative or has an allowed scheme, as a browser or any
    other reader (one that strips Unicode spaces, or normalises text) reads it."""
    if _PLAIN_URL_RE.match(value):
        return True
    decoded = html.unescape(value) if "&" in value else value
    scheme = _SCHEME_RE.match(as_any_reader_reads(decoded).lower())
    return scheme is None or scheme.group(1) in SAFE_SCHEMES


def as_any_reader_reads(text: str) -> str:
    """``text`` without what a reader of a URL or of CSS may drop: ASCII whitespace and
    controls (browsers), and in other text every character that is not printable
    (Unicode spaces and line separators, controls, format characters such as zero-width
    spaces, surrogates, noncharacters), after NFKC normalisation (full-width letters and
    colons read as ASCII ones)."""
    text = _URL_NOISE_RE.sub("", text)
    if text.isascii():
        return text
    normalized = unicodedata.normalize("NFKC", text)
    return "".join(char for char in normalized if char.isprintable() and char != " ")


def is_safe_style(value: str) -> bool:
    """True when the inline CSS ``value`` can neither run code nor load a disallowed URL."""
    css = _CSS_ESCAPE_RE.sub(_unescape_css, _CSS_COMMENT_RE.sub("", value))
    if _CSS_DANGER_RE.search(as_any_reader_reads(css).lower()):
        return False
    return all(is_safe_url(match.group(2)) for match in _CSS_URL_RE.finditer(css))


def _unescape_css(escape: re.Match[str]) -> str:
    if escape.group(2) is not None:
        return escape.group(2)
    code = int(escape.group(1), 16)
    return chr(code) if 0 < code < 0x110000 else "\ufffd"


def _safe_url(value: str, base: str | None) -> str | None:
    """The URL ``value`` as it will be emitted (made absolute against ``base``), or None
    (the attribute is dropped) when it is unsafe as read or as emitted, or cannot be
    joined (an invalid IPv6 host: ``//[bad``)."""
    if not is_safe_url(value):
        return None
    if base is None or _ABSOLUTE_RE.match(value):
        return value
    try:
        emitted = urljoin(base, value.strip(URL_ENDS))  # what browsers strip, no more
    except ValueError:
        return None
    return emitted if is_safe_url(emitted) else None


def _safe_srcset(value: str, base: str | None) -> str | None:
    """The candidates of a ``srcset`` with safe URLs and valid descriptors ("2x", "640w"),
    or None (the attribute is dropped) when a URL is unsafe."""
    candidates = []
    for candidate in value.split(","):
        url, *descriptors = candidate.split() or [""]
        safe = _safe_url(url, base) if url else ""
        if safe is None:
            return None
        if safe and all(_DESCRIPTOR_RE.fullmatch(descriptor) for descriptor in descriptors):
            candidates.append(" ".join([safe, *descriptors]))
    return ", ".join(candidates)


def _set_or_drop(attributes: etree._Attrib, name: str, value: str | None) -> None:
    if value is None:
        del attributes[name]
    elif value != attributes[name]:
        attributes[name] = xml_safe(value)


#: Characters lxml refuses in text it is given (the HTML parser lets them through).
_NOT_XML_RE = re.compile("[\\x00-\\x08\\x0b\\x0c\\x0e-\\x1f\\ufffe\\uffff\\ud800-\\udfff]")


def xml_safe(text: str) -> str:
    """``text`` with the control characters lxml cannot store replaced by spaces."""
    return _NOT_XML_RE.sub(" ", text)


def usable_url(url: str | None) -> str | None:
    """``url``, or None when urllib cannot take it apart (an invalid IPv6 host or port,
    which would raise wherever the URL is joined or split later)."""
    if not url:
        return None
    try:
        urlsplit(url).port  # noqa: B018 - raises ValueError on an invalid host or port
    except ValueError:
        return None
    return url
