"""Rendering a selection as plain text and as a cleaned HTML fragment."""

from __future__ import annotations

from collections.abc import Collection, Iterable

from lxml import etree

from ._sanitize import sanitize, xml_safe
from ._stats import DomStats
from ._tags import BLOCK_TAGS, DROPPED_IN_OUTPUT, FORMATTING_TAGS
from ._text import clean_text
from ._types import OutputOptions

#: The tag rendering gives the elements it removes (excluded subtrees, empty elements), to
#: remove them all in one pass of ``etree.strip_elements``, which leaves their tails in
#: place as text nodes: moving each tail onto the text before it, one element at a time,
#: took time quadratic in the number of removed elements (64,000 empty ``<time>``
#: elements, each followed by a line break: 25 s). Namespaced, so no page has it.
_DROPPED = "{urn:scrapy-mainc}dropped"
#: Empty elements kept in the HTML output even without text or children.
_VOID_TAGS = frozenset({"img", "br", "hr", "wbr", "picture", "td", "th"})


def render_text(stats: DomStats, roots: Iterable[int], excluded: Collection[int] = ()) -> str:
    """Plain text of the subtrees at ``roots``: one block per line, whitespace normalised.

    Subtrees rooted at an ``excluded`` index are skipped, their tails kept (a tail is the
    parent's text). Block-level tags and ``<br>`` break lines. The text is the statistics'
    (the tree as parsed: call before :func:`render_html` edits it).
    """
    texts, tails, tags, end = stats.texts, stats.tails, stats.tags, stats.end
    pieces: list[str] = []  # text, with _BREAK between blocks
    for root in roots:
        open_nodes: list[int] = []
        position, stop = root, end[root]
        while position < stop:
            while open_nodes and end[open_nodes[-1]] <= position:
                _close(open_nodes.pop(), root, tails, tags, pieces)
            if position in excluded and position != root:
                open_nodes.append(position)
                position = end[position]
                continue
            if tags[position] in BLOCK_TAGS:
                pieces.append(_BREAK)
            text = texts[position]
            if text:
                pieces.append(text)
            open_nodes.append(position)
            position += 1
        while open_nodes:
            _close(open_nodes.pop(), root, tails, tags, pieces)
        pieces.append(_BREAK)
    text = "".join(pieces)
    if text.count(_BREAK) != pieces.count(_BREAK):  # the page had the marker in its own text
        text = "".join(piece if piece == _BREAK else piece.replace(_BREAK, " ") for piece in pieces)
    # most pieces between two breaks are empty or blank (a block closing, the next opening)
    lines = (clean_text(line) for line in text.split(_BREAK) if line and not line.isspace())
    return "\n".join(line for line in lines if line)


#: Marks a block boundary while collecting text (a control character pages do not use).
_BREAK = "\x00"


def _close(position: int, root: int, tails: list[str | None], tags: list[str], pieces: list[str]) -> None:
    if tags[position] in BLOCK_TAGS:
        pieces.append(_BREAK)
    if position != root:
        tail = tails[position]
        if tail:
            pieces.append(tail)


def render_html(
    stats: DomStats,
    roots: Iterable[int],
    excluded: Collection[int] = (),
    base_url: str | None = None,
    options: OutputOptions | None = None,
) -> str:
    """A cleaned, safe HTML fragment of the subtrees at ``roots``, in document order.

    The analysis tree holds no scripts, styles, frames, form controls or comments already;
    here ``excluded`` subtrees are removed, hidden elements (emptied during preparation)
    left out, and the rest made safe by :func:`scrapy_mainc.core._sanitize.sanitize`
    (allowed elements and attributes only: forms unwrapped, a chosen ``<form>`` or
    ``<body>`` becomes a ``<div>``; URLs made absolute against ``base_url``, the page's URL,
    when given). ``options`` may leave out links and formatting (their text kept) and images.

    This edits the (private) analysis tree in place instead of copying it: call it last,
    once nothing else needs to read the tree.
    """
    roots = tuple(roots)
    doomed, covered_until = [], -1
    ordered_roots, next_root, root = sorted(roots), 0, -1
    for position in sorted(excluded):  # the outermost excluded subtrees inside a root
        while next_root < len(ordered_roots) and ordered_roots[next_root] < position:
            root = ordered_roots[next_root]  # the last root starting before this position
            next_root += 1
        if position >= covered_until and root >= 0 and position < stats.end[root]:
            doomed.append(stats.nodes[position])
            covered_until = stats.end[position]
    for element in doomed:
        element.tag = _DROPPED
    fragments = []
    for root in roots:
        element = stats.nodes[root]
        if element.tag in DROPPED_IN_OUTPUT:  # sanitize removes them below a root, not a root itself
            continue
        _clean_output(element, base_url, options or OutputOptions())
        fragments.append(etree.tostring(element, method="html", encoding="unicode", with_tail=False))
    return xml_safe("\n".join(fragments))


def _clean_output(root: etree._Element, base_url: str | None, options: OutputOptions) -> None:
    """Remove the excluded subtrees, make the rest safe, unwrap or remove what ``options``
    leave out, then remove the elements that had no child element, no attribute and no
    text (hidden ones, emptied while preparing)."""
    etree.strip_elements(root, _DROPPED, with_tail=False)
    sanitize(root, base_url)
    _apply_options(root, options)
    for element in root.iterdescendants(etree.Element):  # marked only: the tree stays as it is
        if not (len(element) or element.attrib or element.tag in _VOID_TAGS or (element.text or "").strip()):
            element.tag = _DROPPED
    etree.strip_elements(root, _DROPPED, with_tail=False)


def _apply_options(root: etree._Element, options: OutputOptions) -> None:
    """Unwrap links and formatting, remove images, as ``options`` ask (a root that would be
    unwrapped becomes a ``<div>``)."""
    unwrapped = set() if options.formatting else set(FORMATTING_TAGS)
    if not options.links:
        unwrapped.add("a")
    if root.tag in unwrapped:
        root.tag = "div"
        root.attrib.clear()
    if unwrapped:
        etree.strip_tags(root, *unwrapped)
    if not options.images:
        etree.strip_elements(root, "img", "picture", with_tail=False)
