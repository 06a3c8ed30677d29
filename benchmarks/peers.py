"""The peer extractors measured next to scrapy_mainc: trafilatura and readability-lxml.

Installed from the ``peers`` extra (``pip install -e '.[peers]'``), never a runtime
dependency. Each peer is a function from page bytes (and URL) to plain text, so that the
repository's evaluation code times and scores every extractor the same way.

Peers get the page as text decoded by scrapy_mainc's decoder (inside the timed call):
left to their own charset detection, both lose several undeclared GBK pages of zh_news,
and the comparison is meant to be about extraction.
"""

from __future__ import annotations

from collections.abc import Callable

from lxml import html as lxml_html

from scrapy_mainc.core._decode import decode_html
from scrapy_mainc.core._render import render_text
from scrapy_mainc.core._stats import DomStats

Extractor = Callable[[bytes, str], str]

#: Display names of the peers, whether installed or not.
PEER_NAMES = ("trafilatura", "trafilatura fast", "readability-lxml")


def _trafilatura(fast: bool) -> Extractor:
    import trafilatura

    def run(html: bytes, url: str) -> str:
        text = decode_html(html).text
        return trafilatura.extract(text, url=url or None, fast=fast, include_comments=False) or ""

    return run


def _readability() -> Extractor:
    from readability import Document

    def run(html: bytes, url: str) -> str:
        summary = Document(decode_html(html).text, url=url or None).summary(html_partial=True)
        fragment = lxml_html.fragment_fromstring(summary, create_parent="div")
        stats = DomStats(fragment)  # block-aware text, the same rendering as ours
        return render_text(stats, (0,))

    return run


def available_peers() -> dict[str, Extractor]:
    """Peers that are installed, by display name."""
    peers: dict[str, Extractor] = {}
    try:
        peers["trafilatura"] = _trafilatura(fast=False)
        peers["trafilatura fast"] = _trafilatura(fast=True)
    except ImportError:
        pass
    try:
        peers["readability-lxml"] = _readability()
    except ImportError:
        pass
    return peers
