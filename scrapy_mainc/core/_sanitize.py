"""Making the HTML fragment of the main content safe to index and to show.

The analysis tree has no scripts, styles, frames, objects or form controls already
(preparation removed them). Rendering then keeps only what is known to be safe, and
makes the fragment stand on its own:

* elements are kept only when they are on an allow-list (``OUTPUT_TAGS``: text
  structure, lists, tables, images...); raw text a browser does not show and what loads
  or runs something (``noembed``, ``noframes``, ``portal``...: ``DROPPED_IN_OUTPUT``) is
  removed with its content; what browsers show as preformatted text (``plaintext``,
  ``xmp``, ``listing``) becomes a ``<pre>``, and AMP's ``<amp-img>`` an ``<img>``; any
  other element (custom elements, ``dialog``, ``form``, a name with a control character)
  is unwrapped, its text kept. A chosen root outside the list becomes a ``<div>``
  (``<body>``, ``<form>``);
* attributes are kept only when they are on an allow-list (``OUTPUT_ATTRIBUTES``, and
  ``aria-*``): no event handler, no framework directive (``x-data``, ``@click``,
  ``v-html``, ``data-hx-on``: no ``data-*`` at all), no name a browser would read as
  another (the parser lets ``<p x\x05onclick=...>`` through as one attribute name);
* URL attributes (``href``, ``src``, ``srcset``, ``cite``, ``background``, ``longdesc``,
  ``usemap``) are kept only with an allowed scheme (http, https, mailto) or none
  (relative); with a page URL, relative URLs are made absolute. The URL judged is the
  one emitted, after every change made to it (control characters replaced, joined to
  the page URL), and the one read; each is judged after entity decoding and NFKC
  normalisation, without the characters any reader might drop: what browsers ignore
  (``jav&#x09;ascript:``) and every other character that is not printable, such as
  Unicode spaces that ``str.strip`` takes away (``\u00a0javascript:``) or zero-width
  characters;
* ``style`` attributes with ``expression()``, ``behavior``, ``-moz-binding`` or a
  ``url()`` of a scheme not allowed are removed (CSS comments and escapes decoded first);
* an image loaded lazily (its address in ``data-src`` or another attribute of
  :data:`LAZY_SOURCES`) gets that address as its ``src``, judged like any URL, and a
  lazy ``srcset`` (:data:`LAZY_SRCSETS`) when it has none or a ``data:`` one; a
  placeholder ``src`` (empty, ``#``, ``about:blank``, ``data:``) is no address. An image
  left with no ``src``, no ``srcset`` and no ``alt`` text shows nothing (an AMP sizer, a
  script-filled placeholder, an unsafe URL) and is removed, its tail kept.
"""

from __future__ import annotations

import html
import re
import unicodedata
from urllib.parse import urljoin, urlsplit

from lxml import etree

from ._tags import AMP_IMAGE_TAGS, DROPPED_IN_OUTPUT, OUTPUT_TAGS, RENAMED_IN_OUTPUT

#: Attributes holding one URL (checked, and made absolute).
URL_ATTRIBUTES = frozenset({"href", "src", "cite", "background", "longdesc", "usemap"})
#: The only attributes the output keeps (with ``aria-*``): global ones, those of the
#: ``OUTPUT_TAGS`` (links, images, tables, lists, quotations, presentational HTML),
#: microdata and RDFa. ``style`` and the URL attributes are kept when safe.
OUTPUT_ATTRIBUTES = URL_ATTRIBUTES | frozenset(
    """id class title lang xml:lang dir style role translate hreflang rel rev target type
    name srcset sizes alt width height loading decoding fetchpriority referrerpolicy ismap
    datetime value start reversed colspan rowspan headers scope abbr axis span border
    cellpadding cellspacing summary
    frame rules align valign char charoff bgcolor color face size nowrap noshade clear
    hspace vspace compact open itemscope itemtype itemprop itemid itemref property typeof
    about resource vocab prefix datatype content""".split()
)
_ARIA_RE = re.compile(r"aria-[a-z]+\Z")
#: Where lazy-loading scripts (lazysizes, jQuery Lazy Load, WordPress plugins) keep an
#: image's address until it scrolls into view, then move it to ``src``; in this order.
LAZY_SOURCES = ("data-src", "data-lazy-src", "data-original", "data-lazyload")
#: What a lazy address looks like: one URL, not a script's settings (``{"default": ...}``).
_LAZY_URL_RE = re.compile(r"[^\s\"'{}\[\]<>]+")
#: The same for ``srcset``, read when there is none.
LAZY_SRCSETS = ("data-srcset", "data-lazy-srcset")
#: Where images that show nothing are renamed to, until they are removed in one pass.
_DROPPED = "mainc-dropped"
#: Where unwrapped elements are renamed to, until they are stripped in one pass (a page's
#: own element of this name is not allowed either).
_UNWRAPPED = "mainc-unwrapped"
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
#: What makes inline CSS unsafe as any reader reads it: code (``expression``, ``behavior``,
#: ``-moz-binding``) or any ``...script:`` scheme (javascript, vbscript, livescript, or one
#: a wrong decoding garbled: no style needs one).
_CSS_DANGER_RE = re.compile(r"expression|behavior|-moz-binding|script:")
_ABSOLUTE_RE = re.compile(r"https?://", re.I)
#: Most URLs: http(s), or a relative path whose first segment has no ":" (no scheme).
_PLAIN_URL_RE = re.compile(r"https?://|[/#?]|[\w.~%+-]+(?:[/#?]|\Z)")
_DESCRIPTOR_RE = re.compile(r"\d+(?:\.\d+)?[wxh]")


def sanitize(root: etree._Element, base_url: str | None = None) -> None:
    """Make the subtree of ``root`` safe in place (see the module's docstring).

    ``base_url``, the page's URL (or its ``<base href>``), makes relative URLs absolute;
    only an absolute http(s) URL is used as a base.
    """
    etree.strip_elements(root, *DROPPED_IN_OUTPUT, with_tail=False)
    base = base_url if base_url and _ABSOLUTE_RE.match(base_url) else None
    amp_images = []
    for element in root.iter(etree.Element):  # cheaper than an XPath over attribute names
        if element.tag not in OUTPUT_TAGS:
            renamed = RENAMED_IN_OUTPUT.get(element.tag)
            if renamed is None and element is not root:
                element.tag = _UNWRAPPED
                continue
            if element.tag in AMP_IMAGE_TAGS and len(element):
                amp_images.append(element)
            element.tag = renamed or "div"
        attributes = element.attrib
        if element.tag == "img":
            _use_lazy_source(element)
        if attributes:
            _keep_safe_attributes(attributes, base)
        if element.tag == "img" and element is not root and not _shows_something(attributes):
            element.tag = _DROPPED
            _drop_if_only_image(element, root)
    for image in amp_images:
        del image[:]  # an <img> holds nothing
    etree.strip_elements(root, _DROPPED, with_tail=False)
    etree.strip_tags(root, _UNWRAPPED)


def _drop_if_only_image(image: etree._Element, root: etree._Element) -> None:
    """Drop the link or ``<picture>`` around an image that shows nothing when the image is
    all it holds: an empty link or picture would be left (a gallery's linked placeholder)."""
    holder = image.getparent()
    if (
        holder is not None
        and holder is not root
        and holder.tag in ("a", "picture")
        and len(holder) == 1
        and not (holder.text or "").strip()
        and not (image.tail or "").strip()
    ):
        holder.tag = _DROPPED


def image_source(element: etree._Element) -> str:
    """An image's address: where a lazy loader keeps it (the first value of
    :data:`LAZY_SOURCES` that is an address, :func:`_lazy_address`, which the loader would
    put in ``src``), else its ``src`` unless that is a placeholder (:func:`_placeholder`);
    ``""`` when none."""
    for name in LAZY_SOURCES:
        lazy = (element.get(name) or "").strip()
        if _lazy_address(lazy):
            return lazy
    src = (element.get("src") or "").strip()
    return "" if _placeholder(src) else src


def image_srcset(element: etree._Element) -> str:
    """An image's ``srcset``, or where a lazy loader keeps one (:data:`LAZY_SRCSETS`) when
    it has none or a ``data:`` one; ``""`` when none."""
    srcset = (element.get("srcset") or "").strip()
    if srcset and srcset[:5].lower() != "data:":
        return srcset
    return next((value for name in LAZY_SRCSETS if (value := (element.get(name) or "").strip())), srcset)


def _lazy_address(value: str) -> bool:
    """Whether a lazy attribute's value is an image's address: one safe URL with a path
    (a "/" or a "."), not a loader's flag ("true"), a placeholder or its settings (JSON)."""
    return (
        bool(value)
        and ("/" in value or "." in value)
        and not _placeholder(value)
        and _LAZY_URL_RE.fullmatch(value) is not None
        and is_safe_url(value)
    )


def _shows_something(attributes: etree._Attrib) -> bool:
    """Whether an image, its attributes made safe, shows a picture or its ``alt`` text."""
    return bool(attributes.get("src") or attributes.get("srcset") or (attributes.get("alt") or "").strip())


def _placeholder(src: str) -> bool:
    """Whether an image's ``src`` shows no picture of its own: empty, a fragment,
    ``about:blank`` or a ``data:`` URL (a grey pixel a script replaces)."""
    return not src or src[0] == "#" or src[:6].lower().startswith(("data:", "about:"))


def _use_lazy_source(image: etree._Element) -> None:
    """Give an image its address (:func:`image_source`) as ``src``, or none when it has
    only a placeholder, and its :func:`image_srcset` as ``srcset``."""
    source, src = image_source(image), (image.get("src") or "").strip()
    if source and source != src:
        image.set("src", xml_safe(source))
    elif not source and "src" in image.attrib:
        del image.attrib["src"]
    srcset = image_srcset(image)
    if srcset and srcset != (image.get("srcset") or "").strip():
        image.set("srcset", xml_safe(srcset))


def _keep_safe_attributes(attributes: etree._Attrib, base: str | None) -> None:
    """Remove the attributes not on the allow-list, and those whose values are unsafe;
    URL values become what is emitted (absolute against ``base``)."""
    kept, changed = [], False
    for name, value in attributes.items():
        lowered = name.lower()
        if lowered not in OUTPUT_ATTRIBUTES and not _ARIA_RE.match(lowered):
            changed = True
            continue
        if lowered in URL_ATTRIBUTES or lowered == "srcset" or lowered == "style":
            safe = _safe_value(lowered, xml_safe(value), base)  # judged as it will be emitted
            changed = changed or safe != value
            if safe is None:
                continue
            value = safe
        kept.append((name, value))
    if changed:
        attributes.clear()  # not del: lxml cannot address every name the parser lets through
        attributes.update([(name, xml_safe(value)) for name, value in kept])  # lxml refuses controls


def _safe_value(name: str, value: str, base: str | None) -> str | None:
    """The value of the URL, ``srcset`` or ``style`` attribute ``name`` as emitted, or
    None when it is unsafe."""
    if name == "style":
        return value if is_safe_style(value) else None
    if name == "srcset":
        return safe_srcset(value, base)
    return safe_url(value, base)


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


def safe_url(value: str, base: str | None) -> str | None:
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


def safe_srcset(value: str, base: str | None) -> str | None:
    """The candidates of a ``srcset`` with safe URLs and valid descriptors ("2x", "640w"),
    or None (the attribute is dropped) when a URL is unsafe."""
    candidates = []
    for candidate in value.split(","):
        url, *descriptors = candidate.split() or [""]
        safe = safe_url(url, base) if url else ""
        if safe is None:
            return None
        if safe and all(_DESCRIPTOR_RE.fullmatch(descriptor) for descriptor in descriptors):
            candidates.append(" ".join([safe, *descriptors]))
    return ", ".join(candidates)


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
