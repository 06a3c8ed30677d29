"""Parsing and preparation: from text (or a caller's tree) to a private analysis tree.

Preparation renders the script templates inside the marked article body (a blog platform
sends the post there for a script to render), moves what the parser nested in a void
element of HTML5 it does not know (``<source>``, ``<embed>``, ``<wbr>``...) out after it,
where browsers put it (:func:`close_void_elements`), gives a ``<picture>``'s image without
an address its first source's files, removes what no algorithm reads (scripts, styles,
form controls, comments; tails are kept), empties hidden elements and dialogs in place
(but a paywall's hidden paragraphs) and, in the same pass over attributes, finds the elements the
page marks as its article body.
The parser keeps in text and attributes the control characters that lxml's API refuses to
store (``ValueError: All strings must be XML compatible``). So the page's text is moved
here, never written back: libxml2 moves it, with the nodes (``addprevious``) or as
``etree.strip_tags`` unwraps an element; an attribute value copied from one element to
another is stored as the HTML output will show it (:func:`~._sanitize.xml_safe`).
Hidden elements are emptied rather than removed so that element positions, and therefore
the XPaths reported for the chosen nodes, stay valid for the caller's own parse of the
page. (Where a void element held what followed it, the positions after it are the
browsers', not those of lxml's parse, which has it inside.)
"""

from __future__ import annotations

import copy
import re

from lxml import etree

from ._repair import REPAIRED_TAGS, Repairable, page_wrappers, repair
from ._sanitize import image_source, image_srcset, safe_srcset, xml_safe
from ._tags import DIALOG_ROLES, HOLDING_VOID_TAGS, NON_CONTENT_TAGS

#: Hidden by markup: the ``hidden`` attribute or an inline ``display:none`` /
#: ``visibility:hidden|collapse`` (WLR's invisible subtrees; CETD's paper names hidden
#: disclaimers as a source of error). ``itemprop`` rides along: schema.org microdata
#: marks the article body with ``itemprop="articleBody"``.
_PREPARED_ATTRIBUTES_XPATH = etree.XPath(
    "descendant-or-self::*/@style | descendant-or-self::*/@hidden | descendant-or-self::*/@itemprop"
    " | descendant-or-self::*/@itemtype | descendant-or-self::*/@role | descendant-or-self::*/@aria-modal"
    " | descendant-or-self::dialog[not(@open)]"
)
#: Dialogs, hidden as the rest: a page shows them over itself when the reader opens them
#: (a cookie consent's preference centre, a shop's privacy policy, a sign-up prompt, a
#: cart's pop-up); they are not part of it. A closed ``<dialog>`` (browsers show none
#: without ``open``), an element marked ``aria-modal="true"``, or one whose ``role`` is a
#: dialog's (:data:`~._tags.DIALOG_ROLES`). On the development pages (2026-12-02) this
#: changes 21 of 2,436 texts: 15 up (five WCXB pages from under 0.5 to over it), 4 down by
#: at most 0.004. ``auto`` cuts the dialogs preparation leaves (an open one: ``cut_overlays``).
#: Alike hidden paragraph wrappers in one parent that are a paywall's continuation, not a
#: collapsed panel (see :func:`hidden_to_empty`): the two paywalled development pages hide
#: 17 and 27 in the story's container; FAQ accordions and consent settings hide one per
#: item or name each for its service. 3, the fewest that make a run of paragraphs, keeps
#: 3 to 9 wrappers on three more of the 939 pages and changes no text of `auto` there.
PAYWALL_MIN_PARAGRAPHS = 3
_HIDDEN_STYLE_RE = re.compile(r"display\s*:\s*none|visibility\s*:\s*(?:hidden|collapse)", re.I)


class ParseError(ValueError):
    """The input could not be parsed into an HTML tree."""


def parse_html(text: str, utf8: bytes | None = None) -> etree._Element:
    """Parse ``text`` into an lxml tree, tolerant of broken markup and deep nesting.

    ``utf8`` may hold ``text`` already encoded as valid UTF-8 (the page's own bytes),
    which saves encoding it again. Comments and processing instructions are dropped while
    parsing, and ``id`` attributes are not indexed. A fresh parser per call keeps this safe
    to use from several threads.
    """
    data = utf8 if utf8 is not None else text.encode("utf-8", "surrogatepass")
    root, too_deep = _parse(data)
    if too_deep:  # the parser stopped at its depth limit: everything after it was lost
        root, _ = _parse(flatten_deep_nesting(text).encode("utf-8", "surrogatepass"))
    return root


def _parse(data: bytes) -> tuple[etree._Element, bool]:
    """The tree of ``data``, and whether the parser gave up at its nesting limit."""
    parser = etree.HTMLParser(
        encoding="utf-8",
        remove_comments=True,
        remove_pis=True,
        huge_tree=True,
        no_network=True,
        collect_ids=False,  # no table of id attributes (nothing looks elements up by id): 6% less
    )
    try:
        root = etree.fromstring(data, parser)
    except (etree.XMLSyntaxError, etree.ParserError, ValueError) as exc:
        raise ParseError(str(exc) or "the document is empty") from exc
    if root is None:
        raise ParseError("the document is empty")
    last_error = parser.error_log.last_error
    return root, last_error is not None and "depth" in last_error.message.lower()


#: libxml2 stops parsing at 2,048 open elements (256 without ``huge_tree``); tags
#: nested deeper than this are dropped, their text kept, before a second parse.
MAX_NESTING = 1_000
_TAG_RE = re.compile(r"<(/?)([A-Za-z][^\t\n\f\r />]*)[^>]*>")
_VOID_TAGS = frozenset(
    "area base br col embed hr img input link meta param source track wbr".split()
)  # fmt: skip


def flatten_deep_nesting(text: str, limit: int = MAX_NESTING) -> str:
    """``text`` without the start and end tags nested deeper than ``limit`` (text kept).

    Depth is counted naively (every non-void start tag opens, every end tag closes), which
    is enough for the pathological pages that reach the parser's limit. The void elements
    lxml's parser does not know (:data:`HOLDING_VOID_TAGS`) are written closed
    (``<wbr />``): left open, thousands of them nest deeper than the parser goes.
    """
    depth = 0

    def keep_shallow(tag: re.Match[str]) -> str:
        nonlocal depth
        if tag.group(1):
            depth = max(depth - 1, 0)
            return tag.group() if depth < limit else ""
        name = tag.group(2).lower()
        if name in HOLDING_VOID_TAGS and not tag.group().endswith("/>"):
            return tag.group()[:-1] + " />" if depth < limit else ""  # else lxml nests what follows
        if name in _VOID_TAGS or tag.group().endswith("/>"):
            return tag.group() if depth < limit else ""
        depth += 1
        return tag.group() if depth <= limit else ""

    return _TAG_RE.sub(keep_shallow, text)


def copy_tree(tree: etree._Element | etree._ElementTree) -> etree._Element:
    """A private deep copy of a caller's tree (the caller's tree is never modified)."""
    root = tree.getroot() if isinstance(tree, etree._ElementTree) else tree
    if not isinstance(root, etree._Element):
        raise TypeError(f"expected an lxml element or element tree, got {type(tree).__name__}")
    return copy.deepcopy(root)


def prepare(
    root: etree._Element,
) -> tuple[etree._Element, tuple[tuple[str, etree._Element], ...], tuple[str, ...]]:
    """Clean a private tree in place; return its analysis root (``<body>`` or root), its
    microdata: (lower-cased ``itemprop`` token, element) pairs in document order, and the
    schema.org types its ``itemtype`` attributes name (``Product``, ``Comment``...).

    Only the analysis root is cleaned: ``<head>`` is read for metadata before this and
    never analysed.
    """
    body = analysis_root(root)
    for template in body_templates(body):
        render_template(template)  # before the script, which goes with the others below
    holding = []
    repairable = Repairable()
    for element in list(body.iter("picture", *HOLDING_VOID_TAGS, *REPAIRED_TAGS)):  # one walk for all
        tag = element.tag
        if tag == "picture":
            give_sources_to_image(element)
        elif tag in REPAIRED_TAGS:
            repairable.add(element)
        elif holds_content(element):  # what followed it, out after it as browsers build the page
            holding.append(element)
    close_void_elements(body, holding)
    repair(body, repairable)
    etree.strip_elements(
        body, etree.Comment, etree.ProcessingInstruction, etree.Entity, *NON_CONTENT_TAGS, with_tail=False
    )
    hidden: list[etree._Element] = []
    itemprops: list[tuple[str, etree._Element]] = []
    itemtypes: list[str] = []
    for value in _PREPARED_ATTRIBUTES_XPATH(body):
        if isinstance(value, etree._Element):  # a closed <dialog>
            if is_dialog(value):
                hidden.append(value)
        elif value.attrname in _DIALOG_ATTRIBUTES:
            if is_dialog(value):
                hidden.append(value.getparent())
        elif value.attrname == "itemprop":
            element = value.getparent()
            itemprops.extend((prop, element) for prop in value.lower().split())
        elif value.attrname == "itemtype":
            itemtypes.extend(part.rstrip("/").rsplit("/", 1)[-1] for part in value.split())
        elif value.attrname == "hidden" or _HIDDEN_STYLE_RE.search(value):
            hidden.append(value.getparent())
    empty_hidden(body, hidden)
    return body, tuple(itemprops), tuple(itemtypes)


_DIALOG_ATTRIBUTES = frozenset({"role", "aria-modal"})


def is_dialog(mark: etree._Element | etree._ElementUnicodeResult) -> bool:
    """Whether ``mark``, a closed ``<dialog>`` or an element's ``role`` or ``aria-modal``,
    makes its element a dialog: a dialog's role (:data:`~._tags.DIALOG_ROLES`, the first
    of the attribute's tokens: the one browsers take) or ``aria-modal="true"``."""
    if isinstance(mark, etree._Element):
        return True
    text = str(mark).lower()
    if mark.attrname == "role":
        tokens = text.split()
        return bool(tokens) and tokens[0] in DIALOG_ROLES
    return text.strip() == "true"


def empty_hidden(body: etree._Element, hidden: list[etree._Element]) -> None:
    """Empty the ``hidden`` elements of ``body`` in place (:func:`hidden_to_empty`), but the
    wrappers of a whole page hidden until its scripts run (:func:`page_wrappers`: looked
    for only when a hidden element holds an ``<h1>`` or the ``<main>``)."""
    holds_page = any(next(element.iter("h1", "main"), None) is not None for element in hidden)
    wrappers = page_wrappers(body) if holds_page else set()
    for element in hidden_to_empty(hidden):
        if element not in wrappers:
            element.clear(keep_tail=True)


def holds_content(element: etree._Element) -> bool:
    """Whether a void element (:data:`HOLDING_VOID_TAGS`) holds what followed it (a space
    too: removed with the element, it would join the words on either side)."""
    return bool(len(element) or element.text)


#: The tag a void element that held content takes until ``etree.strip_tags`` puts what it
#: held in its parent (namespaced, so no page has it).
_CLOSED = "{urn:scrapy-mainc}closed"


def close_void_elements(root: etree._Element, elements: list[etree._Element]) -> None:
    """Move what the parser nested in each of ``elements`` (void elements below ``root``)
    out after it, into its parent, as the page meant it: each gives its place to an empty
    copy of itself, then one ``etree.strip_tags`` puts its text, children and tail where it
    stood, in order (one pass over the tree, however many there are). An element without a
    parent stays as it is."""
    closed = [element for element in elements if element.getparent() is not None]
    for element in closed:
        element.addprevious(empty_copy(element))
        element.tag = _CLOSED
    if closed:
        etree.strip_tags(root, _CLOSED)


def empty_copy(element: etree._Element) -> etree._Element:
    """A copy of ``element``, its tag and attributes, without text, children or tail
    (its children are set aside while it is copied: copying them would copy the rest of
    the page for every void element that holds it)."""
    children = list(element)
    aside = etree.Element(_CLOSED)
    aside.extend(children)
    copied = copy.deepcopy(element)
    element.extend(children)
    copied.text = copied.tail = None
    return copied


#: The attributes of a ``<source>`` that list a picture's files, read for its ``<img>``.
_SOURCE_SETS = ("srcset", "data-srcset")


def give_sources_to_image(picture: etree._Element) -> None:
    """Give a ``<picture>``'s ``<img>`` without an address of its own (a placeholder such as
    ``src=""`` is none; a lazy loader's ``data-src`` is one) the file list of the
    picture's first ``<source>`` that has a safe one (``srcset``, or a lazy loader's
    ``data-srcset``): the ``<source>`` elements are removed with the other media, and the
    picture would show nothing."""
    image = next(picture.iter("img"), None)
    if image is None or image_source(image) or image_srcset(image):  # it has an address, lazy or not
        return
    for source in picture.iter("source"):
        for name in _SOURCE_SETS:
            files = xml_safe(source.get(name) or "")  # judged and stored as it will be shown
            if files and safe_srcset(files, None):  # an unsafe list gives way to the next
                image.set(name, files)
                return


#: The tag of a rendered script template (a custom element name: it has a hyphen).
RENDERED_TEMPLATE_TAG = "mainc-template"


def body_templates(body: etree._Element) -> list[etree._Element]:
    """Script templates inside the element marked as the article body: a blog platform
    may send the post's HTML as ``<script type="text/template">`` there, for a script to
    render. (Scripts found by tag: a tenth of the time of an XPath over the tree.)"""
    return [
        script
        for script in body.iter("script")
        if script.get("type") == "text/template"
        and any(ancestor.get("itemprop") == "articleBody" for ancestor in script.iterancestors())
    ]


def render_template(template: etree._Element) -> None:
    """Put the HTML of a script ``template`` before it, in a ``<mainc-template>`` element:
    a tag of its own shifts no sibling's XPath position in the caller's parse. The script
    stays, to be removed with the others, its tail left in place (see :func:`prepare`)."""
    parsed = etree.fromstring(
        f"<div>{template.text or ''}</div>", etree.HTMLParser(remove_comments=True, no_network=True)
    )
    rendered = parsed.find(".//div") if parsed is not None else None
    if rendered is None or template.getparent() is None:
        return
    rendered.tag, rendered.tail = RENDERED_TEMPLATE_TAG, None
    template.addprevious(rendered)


def hidden_to_empty(hidden: list[etree._Element]) -> list[etree._Element]:
    """The hidden elements to empty: all but a paywall's hidden paragraphs.

    A metered paywall sends the whole story and hides its continuation paragraph by
    paragraph, each ``<p>`` in a hidden wrapper of its own (an ad slot or a picture may
    follow it there or between two), until a script has checked the reader's access.
    ``PAYWALL_MIN_PARAGRAPHS`` alike wrappers (same tag and class) in one parent, each
    opening with a paragraph, are that continuation; a collapsed FAQ answer is one hidden
    panel in its own item, and the details of consent settings are panels named each for
    its service.
    """
    groups: dict[tuple[etree._Element | None, str, str], list[etree._Element]] = {}
    for element in hidden:
        if len(element) and element[0].tag == "p":
            key = (element.getparent(), element.tag, element.get("class") or "")
            groups.setdefault(key, []).append(element)
    kept = {element for run in groups.values() if len(run) >= PAYWALL_MIN_PARAGRAPHS for element in run}
    return [element for element in hidden if element not in kept]


def analysis_root(root: etree._Element) -> etree._Element:
    """The ``<body>`` element when there is one, else the root itself."""
    if root.tag == "body":
        return root
    body = root.find("body")
    if body is None:
        body = next(root.iter("body"), None)
    return root if body is None else body
