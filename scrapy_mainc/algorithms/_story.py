"""Which story the page is about, and parts of ``auto``'s choice that are another story
or a legal notice.

A page states its own story: its headline (the ``<h1>`` that agrees with the title,
``og:title``, ``<title>``; any further source, such as a JSON-LD ``headline``, is one more
string in :attr:`Document.headlines`) and the slug of its URL (any further URL, such as
the canonical one, is one more in :attr:`Document.urls`). Its *topic* is the set of their
words: five-letter stems of words of four letters or more, and character bigrams of CJK
text. A story repeats most of its headline's words; another story on the same page (a
promoted feature, the next post of a feed) shares few of them, and so does a legal or
consent notice. Coverage is compared between candidates, never judged alone: function
words of a headline occur in any text, and only the difference says which is the story.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from urllib.parse import unquote, urlsplit

from ..core._stats import DomStats
from ..core._tags import HEADING_TAGS
from ..core._text import _CJK_CLASS
from ..core._types import Document
from ._auto_params import AutoParams
from ._blocks import Regions, is_prose
from ._context import is_overlay
from ._notices import SAMPLE_CHARS, is_notice, text_sample

#: Words of letter-based scripts (Latin, Greek, Cyrillic), four letters or more, lowercase.
_WORD_RE = re.compile("[a-z\u00df-\u00ff\u0100-\u024f\u0370-\u03ff\u0400-\u04ff]{4,}")
_CJK_RUN_RE = re.compile(f"[{_CJK_CLASS}]{{2,}}")
_EXTENSION_RE = re.compile(r"\.[a-z0-9]{2,5}$")
#: Letters of a word that identify it (a crude stemmer: "approves" and "approved" agree).
STEM_LETTERS = 5
#: Fewest terms for a topic to say anything.
MIN_TOPIC_TERMS = 2
#: Fewest words in a URL slug (``/2024/05/bridge-plan-approved``), not a section name.
MIN_SLUG_WORDS = 2


@dataclass(frozen=True, slots=True)
class Topic:
    """The words a page's headline and URL slug give for its story."""

    stems: frozenset[str] = frozenset()
    bigrams: frozenset[str] = frozenset()

    @property
    def usable(self) -> bool:
        return len(self.stems) + len(self.bigrams) >= MIN_TOPIC_TERMS

    def coverage(self, text: str) -> float:
        """Share of the topic's terms found in ``text`` (0 for an unusable topic)."""
        terms = len(self.stems) + len(self.bigrams)
        if terms < MIN_TOPIC_TERMS:
            return 0.0
        found = sum(bigram in text for bigram in self.bigrams)
        if self.stems:
            found += len(self.stems & _stems(text.lower()))
        return found / terms


def _stems(lowered: str) -> set[str]:
    return {word[:STEM_LETTERS] for word in _WORD_RE.findall(lowered)}


def _bigrams(text: str) -> set[str]:
    return {run[start : start + 2] for run in _CJK_RUN_RE.findall(text) for start in range(len(run) - 1)}


def page_topic(headlines: Iterable[str], urls: Iterable[str]) -> Topic:
    """The topic of a page from its headline strings and the slugs of its URLs."""
    stems: set[str] = set()
    bigrams: set[str] = set()
    for headline in headlines:
        stems |= _stems(headline.lower())
        bigrams |= _bigrams(headline)
    for url in urls:
        slug = url_slug(url)
        stems |= _stems(slug)
        bigrams |= _bigrams(slug)
    return Topic(frozenset(stems), frozenset(bigrams))


def url_slug(url: str) -> str:
    """The words of the last path segment of ``url`` when it is a slug, else ""."""
    segments = [segment for segment in urlsplit(url).path.split("/") if segment]
    if not segments:
        return ""
    slug = _EXTENSION_RE.sub("", unquote(segments[-1]).lower())
    words = _WORD_RE.findall(slug)
    if len(words) >= MIN_SLUG_WORDS or _CJK_RUN_RE.search(slug):
        return " ".join([*words, *_CJK_RUN_RE.findall(slug)])
    return ""


def split_node(stats: DomStats, totals: list[float], root: int, wrapper_share: float) -> int:
    """The first node at or below ``root`` whose value does not sit almost entirely
    (``wrapper_share``) in one child: where the choice splits into parts."""
    node = root
    while True:
        children = stats.children_of(node)
        if not children:
            return node
        best = max(children, key=totals.__getitem__)
        if totals[best] < wrapper_share * totals[node]:
            return node
        node = best


def foreign_parts(
    document: Document, regions: Regions, totals: list[float], root: int, params: AutoParams
) -> list[int]:
    """Parts of the choice at ``root`` that are not the page's story.

    Where the choice's value splits between containers (not inside a story's body, where
    a container among the paragraphs is a fact box), a *candidate* is a child container
    (most of its text in blocks of its own) with ``story_min_words`` of value that does not hold
    the headline. It is foreign when it holds ``notice_part_share`` of the value and reads
    as a legal notice while the rest of the choice does not; or when it holds
    ``story_part_share`` of the value, the rest covers the topic (at least
    ``story_min_coverage``), the candidate covers it ``story_gap`` less and it opens as a
    story of its own (:func:`opens_story`) and is no long body of sections
    (:func:`long_body`) nor, after the headline's part, a section that text of the choice
    left uncut follows (:func:`inner_section`), unless it is alike (same tag and class)
    to other children none of which holds the headline: alike containers are columns of
    one body, or the posts of a feed, one of which holds the page's headline.
    """
    stats = document.stats
    node = split_node(stats, totals, root, params.split_wrapper_share)
    children = [child for child in stats.children_of(node) if totals[child] > 0]
    words, block_words = stats.words, regions.words
    containers = {child for child in children if 2 * block_words[child] < words[child]}
    body_value = sum(totals[child] for child in children if child not in containers)
    if body_value >= params.story_part_share * totals[node]:
        return []  # the body of a story: its containers are parts of it
    limit = max(params.notice_part_share * totals[node], params.story_min_words)
    candidates = [child for child in children if child in containers and totals[child] >= limit]
    if not candidates:
        return []
    holder = next((child for child in children if stats.contains(child, document.headline)), -1)
    kinds = {child: stats.kind(child) for child in children}
    story_limit = max(params.story_part_share * totals[node], params.story_min_words)
    samples: dict[int, str] = {}
    foreign: list[int] = []
    stories: list[int] = []  # another story each, but for the sections of this one (below)
    topic: Topic | None = None  # read only when a candidate needs it
    for candidate in candidates:
        if candidate == holder:
            continue
        sample = _sample(stats, candidate, samples)
        others = [child for child in children if child != candidate]
        if params.check_notices and is_notice(sample):
            rest = _rest(stats, others, samples)
            topic = topic or page_topic(document.headlines, document.urls)
            if not is_notice(rest) and topic.coverage(sample) < topic.coverage(rest) + params.story_gap:
                foreign.append(candidate)
            continue
        twins = [child for child in others if kinds[child] == kinds[candidate] and kinds[child][1]]
        if not params.check_story or totals[candidate] < story_limit or (twins and holder not in twins):
            continue
        topic = topic or page_topic(document.headlines, document.urls)
        if not topic.usable:
            continue
        covered = topic.coverage(_rest(stats, others, samples))
        if covered >= params.story_min_coverage and topic.coverage(sample) <= covered - params.story_gap:
            if opens_story(document, regions, candidate, params.sentence_min_words):
                if not long_body(stats, regions, candidate, params):
                    stories.append(candidate)
    if stories and params.keep_inner_sections:
        cut = {*foreign, *stories}
        kept = [child for child in children if child not in cut]
        stories = [
            part
            for part in stories
            if not (
                part > holder and inner_section(stats, regions, part, [c for c in kept if c > part], params)
            )
        ]
    return sorted(foreign + stories)


def _sample(stats: DomStats, node: int, samples: dict[int, str]) -> str:
    sample = samples.get(node)
    if sample is None:
        sample = samples[node] = text_sample(stats.nodes[node])
    return sample


def _rest(stats: DomStats, others: list[int], samples: dict[int, str]) -> str:
    """About ``SAMPLE_CHARS`` characters of the text of ``others``, in order."""
    pieces: list[str] = []
    total = 0
    for node in others:
        pieces.append(_sample(stats, node, samples))
        total += len(pieces[-1])
        if total >= SAMPLE_CHARS:
            break
    return " ".join(pieces)


def opens_story(document: Document, regions: Regions, part: int, min_words: int) -> bool:
    """True when ``part`` is an ``<article>``, an ``<aside>`` or an overlay, or shows a
    story headline before its first prose block (:func:`._blocks.is_prose`, with
    ``min_words``): a unit with a headline of its own.

    A story headline is an ``<h1>`` to ``<h3>`` or a linked heading (a teaser's); the
    lower ranks title sections and questions inside one story.
    """
    stats = document.stats
    tags = stats.tags
    if tags[part] in _UNIT_TAGS or is_overlay(stats.nodes[part]):
        return True
    for node in range(part, stats.end[part]):
        tag = tags[node]
        if tag in HEADING_TAGS and stats.words[node]:
            if tag in _STORY_HEADINGS or 2 * stats.link_words[node] >= stats.words[node]:
                return True
        elif regions.is_block[node] and is_prose(regions, node, min_words):
            return False
    return False


_UNIT_TAGS = frozenset({"article", "aside", "dialog"})
_STORY_HEADINGS = frozenset({"h1", "h2", "h3"})
_SECTION_HEADINGS = frozenset({"h2", "h3", "h4"})


def long_body(stats: DomStats, regions: Regions, part: int, params: AutoParams) -> bool:
    """True when ``part`` is the body of a long guide or a roundup: at least
    ``guide_min_sections`` headings of sections (``<h2>`` to ``<h4>``), at least
    ``guide_min_prose`` sentence-like blocks, and at most ``guide_max_link_share`` of its
    words in links, and no headline of its own (an ``<h1>``) nor the tag of a unit
    (``<article>``, ``<aside>``). Its first section's heading opens it as a story would
    ("The research", "Lenovo Yoga 9i: best overall"), and its opening covers the
    headline's words poorly, yet it is much of the text; a teaser, a promoted story or a
    gallery of linked credits is shorter, or linked, and the next story of an endless
    page opens with its own headline."""
    if not params.guide_min_sections or stats.tags[part] in _UNIT_TAGS:
        return False
    if stats.link_words[part] > params.guide_max_link_share * stats.words[part]:
        return False
    tags, words, end = stats.tags, stats.words, stats.end[part]
    if "h1" in tags[part:end]:
        return False
    sections = sum(1 for node in range(part, end) if tags[node] in _SECTION_HEADINGS and words[node])
    if sections < params.guide_min_sections:
        return False
    is_block, min_words = regions.is_block, params.sentence_min_words
    prose = sum(1 for node in range(part, end) if is_block[node] and is_prose(regions, node, min_words))
    return prose >= params.guide_min_prose


def inner_section(stats: DomStats, regions: Regions, part: int, later: list[int], params: AutoParams) -> bool:
    """True when ``part`` reads as a section inside the story: no unit (``<article>``,
    ``<aside>``, an overlay), one heading at most and no ``<h1>``, and a sentence-like
    block in one of the parts ``later`` (the parts of the choice after it that are not cut
    themselves). A story appended to another (the next post, a promoted feature, a box
    asking for contact) comes after the story's text; a section under its own heading
    ("FAQs", "Flashing your board") is followed by more text."""
    if stats.tags[part] in _UNIT_TAGS or is_overlay(stats.nodes[part]):
        return False
    tags, words = stats.tags, stats.words
    headings = [
        tags[node] for node in range(part, stats.end[part]) if tags[node] in HEADING_TAGS and words[node]
    ]
    if len(headings) > 1 or "h1" in headings:
        return False
    is_block, min_words = regions.is_block, params.sentence_min_words
    return any(
        is_block[node] and is_prose(regions, node, min_words)
        for child in later
        for node in range(child, stats.end[child])
    )


def story_elsewhere(document: Document, values: list[float], root: int, min_words: float) -> bool:
    """True when the page's headline lies outside ``root`` and its story does not lead
    to ``root``: ``root`` comes before the headline, or at least ``min_words`` of value
    lie between the headline and ``root`` (a standfirst, a box of the story's books)
    without an ``<article>`` holding both: the unit of one story, whose headline leads
    to what follows it inside."""
    stats, headline = document.stats, document.headline
    if headline < 0 or stats.contains(root, headline):
        return False
    if root < headline:
        return True
    between = values[stats.end[headline] : root]
    if sum(value for value in between if value > 0) < min_words:
        return False
    return not _same_unit(stats, headline, root)


def _same_unit(stats: DomStats, headline: int, root: int) -> bool:
    """True when the nearest ``<article>`` around ``headline`` holds ``root`` too."""
    tags, parent = stats.tags, stats.parent
    node = parent[headline]
    while node >= 0 and tags[node] != "article":
        node = parent[node]
    return node >= 0 and stats.contains(node, root)
