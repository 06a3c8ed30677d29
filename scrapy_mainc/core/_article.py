"""Is the page an article? The verdict read from an extraction (``Extraction.article``).

A news crawl fetches many pages that are not stories: home pages, section fronts, topic
pages, a wire desk's latest items. Two things give them away in what the extraction
chose:

* **little text**: ``auto`` leaves teaser-card lists, link lists and text without
  sentences out, so what is extracted from most listing pages is a few words: a page is
  an article only when its main text has ``MIN_ARTICLE_WORDS`` words, or
  ``MIN_MARKED_WORDS`` when its markup says it is one (``og:type`` ``article``, or a
  JSON-LD article of this page);
* **teasers**: where a listing's standfirsts are sentences, they are kept, each after its
  headline, a block that is nothing but a link: the chosen content then reads headline
  link, prose, headline link, prose... (``teaser_count``). An article's own links sit
  inside its sentences, and its related-story links come in one run, after it.

The markup alone is no verdict: listing pages carry ``<article>`` elements for each teaser
and JSON-LD lists of NewsArticles, and most old pages and Chinese portals carry no
markup at all (the downloader middleware's annotation, ``article_signals``, which reads
only markup, finds 81% of the development articles). Measured by
``benchmarks/quality/article_verdict.py`` (docs/items.md, "Articles only").
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterable

from ._stats import DomStats
from ._tags import BLOCK_TAGS
from ._text import count_words, has_cjk, measure
from ._types import Document

#: Words of main text that make an article: the listing pages of the bundled site give 19
#: at most; 934 of the 939 development articles give more than 30.
MIN_ARTICLE_WORDS = 30
#: Words that make an article whose markup says it is one (a short video story or notice).
MIN_MARKED_WORDS = 15
#: A link of at least this many words that is a whole block is a headline.
HEADLINE_WORDS = 3
#: A block of at least this many words of its own, most of them outside links, is prose.
PROSE_WORDS = 5
#: Teasers (a headline link block followed by prose) that make a listing: at least this
#: many, and at least this share of the prose blocks. On the development articles one
#: page of 939 reaches both (a long page of linked project headings and their summaries).
MIN_TEASERS = 5
TEASER_SHARE = 0.75


def marked_as_article(document: Document) -> bool:
    """True when the page's markup says it is an article: ``og:type`` ``article``, or a
    JSON-LD article object that is the page's (:func:`scrapy_mainc.metadata.main_article`)."""
    evidence = document.evidence
    og_type = evidence.first_meta("og:type").strip().lower() if evidence is not None else ""
    return og_type == "article" or document.article is not None


def teaser_count(
    stats: DomStats, roots: Iterable[int], excluded: frozenset[int] = frozenset()
) -> tuple[int, int]:
    """(teasers, prose blocks) in the subtrees at ``roots``: a teaser is a headline link
    block followed by a prose block, in document order. Prose in the subtrees at
    ``excluded`` (what pruning dropped) is not counted; headline links there are, because
    pruning drops a listing's headline links and keeps its standfirsts."""
    tags, words, link_words, own_words = stats.tags, stats.words, stats.link_words, stats.own_words
    end = stats.end
    is_link, parent = stats.is_link, stats.parent
    teasers = prose = 0
    last_headline = -1  # the block of the last headline link, while no prose has followed
    for root in roots:
        dropped_until = -1  # the end of the excluded subtree the walk is in
        for position in range(root, end[root]):
            if position in excluded and position >= dropped_until:
                dropped_until = end[position]
            if is_link[position] and words[position] >= HEADLINE_WORDS:
                block = position
                while block >= 0 and tags[block] not in BLOCK_TAGS:
                    block = parent[block]
                if block >= 0 and link_words[block] == words[block]:
                    last_headline = block
            elif (
                tags[position] in BLOCK_TAGS
                and own_words[position] >= PROSE_WORDS
                and position >= dropped_until
            ):
                if link_words[position] * 2 < words[position]:
                    prose += 1
                    teasers += last_headline >= 0
                    last_headline = -1
    return teasers, prose


def headline_links(stats: DomStats, roots: Iterable[int]) -> int:
    """Links of at least ``HEADLINE_WORDS`` words in the subtrees at ``roots``: found among
    the page's links, without a walk over the subtrees."""
    links, end, words = stats.link_positions, stats.end, stats.words
    return sum(
        words[link] >= HEADLINE_WORDS
        for root in roots
        for link in links[bisect_left(links, root) : bisect_left(links, end[root])]
    )


def is_listing(stats: DomStats, roots: Iterable[int], excluded: frozenset[int] = frozenset()) -> bool:
    """True when the subtrees at ``roots`` (without the prose in ``excluded``) read as a
    listing: :data:`MIN_TEASERS` teasers, and :data:`TEASER_SHARE` of the prose blocks.

    Each teaser has a headline link of its own: with fewer than ``MIN_TEASERS`` of those
    (most articles), the walk that counts teasers is skipped.
    """
    roots = tuple(roots)
    if headline_links(stats, roots) < MIN_TEASERS:
        return False
    teasers, prose = teaser_count(stats, roots, excluded)
    return teasers >= MIN_TEASERS and teasers >= TEASER_SHARE * prose


#: Characters of a text whose words are counted first when only a few words are needed:
#: 30 words of English take about 200 characters, of Chinese 30.
WORDS_SAMPLE_CHARS = 1000


def words_up_to(text: str, needed: int) -> int:
    """The words of ``text`` (:func:`count_words`) when they are fewer than ``needed``;
    else some number of at least ``needed``.

    The start of the text is counted first, and the whole text only when the start has
    too few words. A start has no more words than the text when both are counted by the
    same rule: with CJK characters in the text, full-width marks join the CJK runs instead
    of counting as words; so a start without CJK stands for a text without them.
    """
    start = measure(text[:WORDS_SAMPLE_CHARS])
    if start[1] >= needed and (start[3] or not has_cjk(text)):
        return start[1]
    return count_words(text)


def article_verdict(document: Document, roots: Iterable[int], text: str) -> bool:
    """True when the page whose chosen subtrees are ``roots`` and whose main text is
    ``text`` is an article (see the module docstring)."""
    words = words_up_to(text, MIN_ARTICLE_WORDS)
    if words < MIN_MARKED_WORDS:
        return False
    if is_listing(document.stats, roots):
        return False
    return words >= MIN_ARTICLE_WORDS or marked_as_article(document)
