"""Repairs of what a browser shows and a parse of the page's HTML alone does not.

A crawler reads the HTML as served; a reader sees it after the browser's parser and the
page's scripts. Three kinds of page differ enough to lose their whole text, and each has
a repair here, run by preparation (:func:`scrapy_mainc.core._dom.prepare`) before it
removes what no algorithm reads:

* **a script-rendered page with a no-script fallback** (:func:`reveal_noscript`): forum
  software and other single-page applications serve an empty application shell and the
  page itself in ``<noscript>``, which a reader without scripts, and a crawler, gets;
* **streamed segments** (:func:`place_streamed_segments`): a server that streams its
  rendering (React's) sends a placeholder ``<template id="B:0">`` where a part belongs
  and the part later, in a hidden ``<div id="S:0">``, for a script to move into place (a
  part streamed inside a streamed part leaves a ``<template id="P:n">`` for its own);
* **a page hidden until its scripts have run** (:func:`page_wrappers`): a style that
  hides the whole page (``visibility:hidden`` on the wrapper of everything, against a
  flash of unstyled content) is lifted by a script; the wrappers of the page's headline
  and of its ``<main>`` are not emptied as hidden;
* **a page nested in a button** (:func:`release_swallowed`): libxml2's HTML parser, unlike
  a browser's, ignores a ``</button>`` while elements opened inside the button are still
  open, and nests the rest of the page in it; preparation would remove it as a form
  control, with the page.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from lxml import etree

from ._tags import NON_CONTENT_TAGS

#: The tag a revealed ``<noscript>`` gets in the analysis tree (a custom element name: it
#: shifts no sibling's XPath position in the caller's parse).
REVEALED_NOSCRIPT_TAG = "mainc-noscript"
#: A page shows its ``<noscript>`` content when the rest of its body holds less than this
#: share of the characters its noscript elements hold...
NOSCRIPT_VISIBLE_SHARE = 0.25
#: ...and they hold at least this many (some fifty words: not a "please enable
#: JavaScript" line).
NOSCRIPT_MIN_CHARS = 300
#: A ``<button>`` holding more characters than this holds what followed it: a label is a
#: few words (the widest buttons of the development pages, a cookie banner's, hold under
#: 100 characters).
BUTTON_MAX_CHARS = 500
_TEXT_CHARS = etree.XPath("string-length(normalize-space())")
#: Blocks of a page's text: a button holding none of them holds a label, however long.
_PAGE_BLOCKS = ("p", "li", "h1", "h2", "h3", "article", "main", "section", "table")
_STREAMED_SEGMENTS = etree.XPath("descendant::div[@hidden][starts-with(@id, 'S:')]")
#: The tags the repairs read: preparation's one walk over the tree collects them
#: (:class:`Repairable`), each repair reading only its own.
REPAIRED_TAGS = ("noscript", "template", "button")


@dataclass(slots=True)
class Repairable:
    """The elements of a body the repairs read, found in one walk (:data:`REPAIRED_TAGS`)."""

    noscripts: list[etree._Element] = field(default_factory=list)
    templates: list[etree._Element] = field(default_factory=list)
    buttons: list[etree._Element] = field(default_factory=list)

    def add(self, element: etree._Element) -> None:
        if element.tag == "noscript":
            self.noscripts.append(element)
        elif element.tag == "template":
            self.templates.append(element)
        else:
            self.buttons.append(element)


def repair(body: etree._Element, found: Repairable) -> None:
    """Apply the repairs of this module to the analysis root ``body``, in place, reading
    the elements ``found`` in it."""
    if found.noscripts:
        reveal_noscript(body, found.noscripts)
    if found.templates:
        place_streamed_segments(body, found.templates)
    if found.buttons:
        release_swallowed(body, found.buttons)


def repairable(body: etree._Element) -> Repairable:
    """The elements of ``body`` the repairs read (a walk of its own, for callers that have
    none: preparation collects them in its walk)."""
    found = Repairable()
    for element in body.iter(*REPAIRED_TAGS):
        found.add(element)
    return found


def reveal_noscript(body: etree._Element, fallbacks: list[etree._Element]) -> None:
    """Show the ``<noscript>`` content of a page that a script renders: when the body
    outside its noscript elements (scripts and styles aside) holds almost no text and they
    hold a page's worth (:data:`NOSCRIPT_MIN_CHARS`, :data:`NOSCRIPT_VISIBLE_SHARE`),
    they are what a reader without scripts, and a crawler, gets. Elsewhere they are
    removed with the other non-content elements (a tracking pixel, a "please enable
    JavaScript" line, a lazy image's fallback copy)."""
    outermost = [element for element in fallbacks if not _in_noscript(element)]
    if sum(_TEXT_CHARS(element) for element in outermost) < NOSCRIPT_MIN_CHARS:
        return  # a tracking pixel, a line: no page's worth (and no strip to pay for)
    etree.strip_elements(body, *(NON_CONTENT_TAGS - {"noscript"}), with_tail=False)  # no text of theirs
    hidden = sum(_TEXT_CHARS(element) for element in outermost)
    if hidden < NOSCRIPT_MIN_CHARS or _TEXT_CHARS(body) - hidden >= NOSCRIPT_VISIBLE_SHARE * hidden:
        return
    for element in fallbacks:
        element.tag = REVEALED_NOSCRIPT_TAG


def _in_noscript(element: etree._Element) -> bool:
    return any(ancestor.tag == "noscript" for ancestor in element.iterancestors())


def place_streamed_segments(body: etree._Element, templates: list[etree._Element]) -> None:
    """Put each streamed segment (a hidden ``<div id="S:n">``) in the place of its
    placeholder (one of ``templates``), shown, as the streaming script does: a pending
    segment's ``<template id="P:n">`` (a part streamed inside another), else a boundary's
    ``<template id="B:n">``. A segment without a placeholder stays hidden. (A boundary's
    fallback, "Loading...", stays too: it ends at a comment, and the parser keeps none.)"""
    placeholders = {template.get("id"): template for template in templates}
    if not any(name and name[:2] in ("B:", "P:") for name in placeholders):
        return  # no placeholder: no segment to look for
    for segment in _STREAMED_SEGMENTS(body):
        number = segment.get("id", "")[2:]
        placeholder = placeholders.get("P:" + number)
        if placeholder is None or placeholder.getparent() is None:
            placeholder = placeholders.get("B:" + number)
        if placeholder is None or placeholder.getparent() is None:
            continue
        del segment.attrib["hidden"]
        placeholder.addprevious(segment)  # moved, with its tail: lxml takes it out of its old place


def page_wrappers(body: etree._Element) -> set[etree._Element]:
    """The elements that wrap the page's first ``<h1>`` or its ``<main>``: hidden by a
    style, they are a whole page a script shows once loaded, not a hidden panel."""
    wrappers: set[etree._Element] = set()
    for tag in ("h1", "main"):
        found = next(body.iter(tag), None)
        if found is not None:
            wrappers.add(found)
            wrappers.update(found.iterancestors())
    return wrappers


def release_swallowed(body: etree._Element, buttons: list[etree._Element]) -> None:
    """Move what the parser nested in a ``<button>`` out into its parent, in order, when it
    holds more than a label (:data:`BUTTON_MAX_CHARS`): the rest of the page, as a browser
    shows it. (One ``etree.strip_tags`` moves the text as parsed: a control character in
    it could not be written back through lxml's API.)"""
    swallowing = [
        button
        for button in buttons
        if len(button)
        and next(button.iter(*_PAGE_BLOCKS), None) is not None  # a label holds none
        and _TEXT_CHARS(button) > BUTTON_MAX_CHARS
    ]
    for button in swallowing:
        button.tag = _RELEASED
    if swallowing:
        etree.strip_tags(body, _RELEASED)


#: The tag a swallowing button takes until ``etree.strip_tags`` removes it (namespaced, so
#: no page has it).
_RELEASED = "{urn:scrapy-mainc}released"
