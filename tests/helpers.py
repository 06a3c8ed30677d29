"""Helpers shared by the tests: build a prepared document from a snippet of HTML, sanitise
a fragment, import a script of the repository."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path
from types import ModuleType

from lxml import etree

from scrapy_mainc._extract import build_document
from scrapy_mainc.core._dom import parse_html
from scrapy_mainc.core._sanitize import sanitize
from scrapy_mainc.core._types import Document


def document(html: str, url: str | None = None) -> Document:
    """Parse and prepare ``html`` the way ``extract`` does, and return the document."""
    return build_document(parse_html(html), url)


def node_at(doc: Document, xpath: str) -> int:
    """Statistics index of the single element matching ``xpath`` in ``doc``."""
    (element,) = doc.root.getroottree().xpath(xpath)
    return doc.stats.nodes.index(element)


def text_of(doc: Document, index: int) -> str:
    """Whitespace-normalised text content of node ``index``."""
    return " ".join(etree.tostring(doc.stats.nodes[index], method="text", encoding="unicode").split())


def deep_chain(depth: int, text: str, top: str = "html") -> etree._Element:
    """A ``top`` > ``body`` > ``div`` * ``depth`` chain with ``text`` at the bottom.

    Every element keeps its Python proxy until the chain is built: lxml frees a proxy by
    walking up to the nearest ancestor that has one, so dropping each one as the next is
    made would cost time quadratic in depth. The proxies go deepest first.
    """
    chain = [etree.Element(top)]
    if top != "body":
        chain.append(etree.SubElement(chain[0], "body"))
    for _ in range(depth):
        chain.append(etree.SubElement(chain[-1], "div"))
    chain[-1].text = text
    root = chain[0]
    while chain:
        chain.pop()
    return root


def sanitized(fragment: str, base: str | None = None) -> str:
    """``fragment`` in a ``<div>``, sanitised (URLs made absolute against ``base``) and
    serialised as the HTML output is."""
    root = etree.fromstring(f"<html><body><div>{fragment}</div></body></html>", etree.HTMLParser())
    div = root.find("body/div")
    sanitize(div, base)
    return etree.tostring(div, method="html", encoding="unicode")


def repository_module(folder: str, name: str) -> ModuleType:
    """Module ``name`` of the repository's ``folder`` (``scripts``), which is no package:
    imported with the folder first on ``sys.path`` for the import only."""
    path = str(Path(__file__).resolve().parents[1] / folder)
    sys.path.insert(0, path)
    try:
        return importlib.import_module(name)
    finally:
        sys.path.remove(path)
