"""Is the page an article? The verdict read from an extraction (``Extraction.article``).

A news crawl fetches many pages that are not stories: home pages, section fronts, topic
pages, a wire desk's latest items. What they show is lists of teasers, which ``auto``
leaves out (teaser-card lists, link lists and text without sentences are not content),
so what is extracted from them is a few words at most. A page is an article when its main
text has at least ``MIN_ARTICLE_WORDS`` words, or ``MIN_MARKED_WORDS`` when its markup says
it is one (``og:type`` ``article``, or a JSON-LD article of this page).

The markup alone is no verdict: listing pages carry ``<article>`` elements for each teaser
and JSON-LD lists of NewsArticles, and most old pages and Chinese portals carry no
markup at all (the downloader middleware's annotation, ``article_signals``, which reads
only markup, finds 81% of the development articles and takes a section front for one).
Measured by ``benchmarks/article_verdict.py`` (docs/items.md, "Articles only").
"""

from __future__ import annotations

from ._text import count_words
from ._types import Document

#: Words of main text that make an article: the listing pages of the bundled site give 19
#: at most; 934 of the 939 development articles give more than 30.
MIN_ARTICLE_WORDS = 30
#: Words that make an article whose markup says it is one (a short video story or notice).
MIN_MARKED_WORDS = 15


def marked_as_article(document: Document) -> bool:
    """True when the page's markup says it is an article: ``og:type`` ``article``, or a
    JSON-LD article object that is the page's (:func:`scrapy_mainc.metadata.main_article`)."""
    evidence = document.evidence
    og_type = evidence.first_meta("og:type").strip().lower() if evidence is not None else ""
    return og_type == "article" or document.article is not None


def article_verdict(document: Document, text: str) -> bool:
    """True when the page whose main text is ``text`` is an article (module docstring)."""
    words = count_words(text)
    if words >= MIN_ARTICLE_WORDS:
        return True
    return words >= MIN_MARKED_WORDS and marked_as_article(document)
