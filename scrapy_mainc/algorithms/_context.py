"""What the markup says about each node, for ``auto``: cut, weak boilerplate or plain.

Cheap structural evidence, inherited downward: class/id names and region tags
(:mod:`..core._class_names`), figures (not one holding a table) and captions, small picture
boxes, teaser-card lists, ``<article>`` elements nested in a longer one, and overlays
(``<dialog>`` and the WAI-ARIA roles ``dialog`` and ``alertdialog``: those preparation
leaves, an open ``<dialog>`` or one that holds the page's ``<h1>``). The element that
shows the page's headline is the page's story, so no name or overlay verdict cuts it;
nor is a part that holds most of the page's prose cut for its name, nor one that holds
most of the prose of a headline's container named as it is, nor are the alike captions
that tell a photo story, nor is an outline's section cut for an ``id`` made from its title.
"""

from __future__ import annotations

import re

from lxml import etree

from ..core._class_names import NameClass, classify_names
from ..core._comment_names import has_comment_name, named_comment_nodes
from ..core._stats import DomStats
from ..core._tags import DIALOG_ROLES, HEADING_TAGS
from ..core._types import Document
from ._auto_params import AutoParams
from ._blocks import CardShape, Regions, prose_counts, teaser_cards

#: Tags of page regions that are usually not article text, like a weak boilerplate name.
REGION_TAGS = frozenset({"nav", "footer", "aside", "header"})
#: Words of an ``id`` or a heading, for :func:`_spells_heading`: runs of letters (a
#: section's number, "5.1.", is no part of its anchor).
_ID_WORD_RE = re.compile(r"[^\W\d_]+")
#: Tags that hold figures and their captions, never body text.
CAPTION_TAGS = frozenset({"figure", "figcaption", "caption"})


#: Inner ``<article>`` elements, each shorter than the outer one's own text, that together
#: hold this share of its words are its items (a listicle's entries under a short
#: introduction), not related articles in a story (:func:`related_articles`).
ITEMS_SHARE = 2 / 3

CUT, WEAK, PLAIN = -2, -1, 0
_NAME_CONTEXT = {NameClass.NOT_CONTENT: CUT, NameClass.BOILERPLATE: WEAK}


def block_context(document: Document, regions: Regions, params: AutoParams) -> list[int]:
    """For every node: cut (-2), weak boilerplate (-1) or plain (0), inherited downward.

    Only nodes with some text and below the page-wrapper size carry evidence; they are
    visited in document order and their verdict is written over their whole subtree, so
    a part nested in an earlier one (a caption inside a sidebar) refines it.
    """
    stats = document.stats
    tags, words, end, is_block = stats.tags, stats.words, stats.end, regions.is_block
    limit = params.max_boilerplate_share * words[0]
    context = [PLAIN] * len(tags)
    names: dict[str, int] = {}  # class/id strings repeat within a page: classify each once
    candidates = [
        node
        for node, count in enumerate(words)
        if params.name_min_words <= count < limit and (is_block[node] or tags[node] == "span")
    ]
    headline = document.headline if params.keep_story_container else -1
    related = related_articles(stats, headline) if params.cut_nested_articles else set()
    wrapper = _WrapperTest(stats, regions, params)
    cut_own: list[int] = []  # parts cut for their own tag or name: captions of a photo story?
    for node in candidates:
        current = context[node]
        if current == CUT:
            continue
        if node in related:
            verdict = CUT
        else:
            verdict = _own_context(stats, node, names, params)
            if verdict == CUT and params.keep_story_container and wrapper.is_story(node, headline, names):
                verdict = PLAIN  # the page's story, whatever its name
            if not is_block[node] and verdict != CUT:
                continue  # an inline part (a caption in a <span>) is only ever cut
            if verdict == CUT:
                cut_own.append(node)
        if verdict < current:
            context[node : end[node]] = [verdict] * (end[node] - node)
    story = wrapper.photo_story(cut_own) if params.keep_photo_story and cut_own else []
    for part in story:
        context[part : end[part]] = [context[stats.parent[part]]] * (end[part] - part)
    _cut_boxes_and_cards(stats, regions, context, story, params)
    return context


def _cut_boxes_and_cards(
    stats: DomStats, regions: Regions, context: list[int], story: list[int], params: AutoParams
) -> None:
    """Cut the picture boxes (but those of a photo story's ``story`` parts) and the
    teaser-card lists, in ``context``."""
    end = stats.end
    if params.cut_image_boxes:
        for box in _image_boxes(stats, regions.is_block, params):
            if context[box] != CUT and not any(stats.contains(part, box) for part in story):
                context[box : end[box]] = [CUT] * (end[box] - box)
    if params.cut_cards:
        shape = CardShape(
            params.card_max_words,
            params.card_min_link_words,
            params.max_boilerplate_share,
            params.card_link_headline,
            min_alike=params.card_min_alike,
            min_own_words=params.card_min_own_words,
            min_card_share=params.card_min_share,
            truncated_summary=params.card_truncated_summary,
            short_link_words=params.card_short_link_words,
            max_mean_own_words=params.card_max_mean_own_words,
        )
        for card in teaser_cards(stats, regions, shape):
            context[card : end[card]] = [CUT] * (end[card] - card)


class _WrapperTest:
    """Whether a part holds most of the page's sentence-like blocks outside reader
    comments (``wrapper_prose_share`` of them, at least ``wrapper_min_prose``). The counts
    are made when a part named as not content first asks, the comment sections when a
    part comes close: both are rare."""

    def __init__(self, stats: DomStats, regions: Regions, params: AutoParams) -> None:
        self.stats, self.regions, self.params = stats, regions, params
        self.prose: list[int] | None = None
        self.comment_prose: list[tuple[int, int]] | None = None

    def is_story(self, node: int, headline: int, names: dict[str, int]) -> bool:
        """Whether ``node``, named as a part to cut, is the page's story all the same: it
        holds the page's ``headline`` (names, overlays), or most of the page's prose (the
        article's wrapper), or the story's body in a container named as it is."""
        if headline >= 0 and self.stats.contains(node, headline):
            return True
        return self.holds_most_prose(node) or self.named_like_story(node, headline, names)

    def holds_most_prose(self, node: int) -> bool:
        prose = self._prose()
        if prose[node] < self.params.wrapper_min_prose:
            return False
        return self._most(prose[node], (node,))

    def named_like_story(self, node: int, headline: int, names: dict[str, int]) -> bool:
        """Whether ``node`` holds most of the prose (``wrapper_prose_share``) of the smallest
        part around it and the page's ``headline`` while that part's own name would cut it
        too: the site names its story that way (a newsletter's issue, its body in
        ``newsletter-content``), not a box beside the story."""
        if headline < 0:
            return False
        stats, prose = self.stats, self._prose()
        around = stats.parent[node]
        while around > 0 and not stats.contains(around, headline):
            around = stats.parent[around]
        if around <= 0 or prose[node] < self.params.wrapper_min_prose:
            return False
        if prose[node] <= self.params.wrapper_prose_share * prose[around]:
            return False
        return _own_context(stats, around, names, self.params) == CUT

    def photo_story(self, cut: list[int]) -> list[int]:
        """The cut parts that tell a photo story: ``photo_story_min_parts`` or more alike
        parts (same tag and class), each holding a sentence-like block, that together hold
        most of the sentence-like blocks the page shows outside the other cut parts (a
        gallery whose captions are its text)."""
        prose = self._prose()
        cut_prose = sum(prose[node] for node in cut)
        with_prose = [node for node in cut if prose[node]]
        return [
            node
            for parts in self.stats.alike_groups(with_prose, self.params.photo_story_min_parts)
            if self._most(sum(prose[node] for node in parts), cut, cut_prose)
            for node in parts
        ]

    def _prose(self) -> list[int]:
        if self.prose is None:
            self.prose = prose_counts(self.stats, self.regions, self.params.sentence_min_words)
        return self.prose

    def _most(self, count: int, parts: tuple[int, ...] | list[int], cut_prose: int = 0) -> bool:
        """Whether ``count`` sentence-like blocks are more than ``wrapper_prose_share`` of
        the page's outside comments that no part of ``parts`` holds, and outside the other
        cut parts (``parts`` hold ``cut_prose`` blocks, ``count`` of them the ones asking)."""
        prose, share = self._prose(), self.params.wrapper_prose_share
        shown = prose[0] - (cut_prose - count if cut_prose else 0)
        if count > share * shown:
            return True
        if self.comment_prose is None:
            found = named_comment_nodes(self.stats, (0,))
            self.comment_prose = [(comment, prose[comment]) for comment in found if prose[comment]]
        in_comments = sum(
            number
            for comment, number in self.comment_prose
            if not any(self.stats.contains(part, comment) for part in parts)
        )
        return count > share * (shown - in_comments)


def related_articles(stats: DomStats, headline: int = -1) -> set[int]:
    """``<article>`` elements nested in another that are related content or comments.

    The HTML standard makes an inner article a comment on, or content related to, the
    outer one. That holds when the outer article carries a story of its own: at least as
    many words outside its nested articles as the inner one has. An outer article that
    is mostly its inner ones is a wrapper (a feed that wraps each post in an article, or
    the same article marked up twice), and its inner articles are left to the text
    evidence; so is an inner article that holds the page's headline, and so are inner
    articles that are each shorter than the outer one's own text but together hold
    :data:`ITEMS_SHARE` of its words: the entries of a listicle or a buying guide under
    a short introduction, the outer article's items. Inner articles named as comments
    (``class="comment-body"``) are never items: a long thread of them is still cut.
    """
    outer_of = _outer_articles(stats)
    if not outer_of:
        return set()
    words = stats.words
    nested_words: dict[int, int] = {}
    for inner, outer in outer_of.items():
        nested_words[outer] = nested_words.get(outer, 0) + words[inner]
    related = {
        inner: outer
        for inner, outer in outer_of.items()
        if words[outer] - nested_words[outer] >= words[inner] and not stats.contains(inner, headline)
    }
    related_words: dict[int, int] = {}
    for inner, outer in related.items():
        if not has_comment_name(stats.nodes[inner]):  # comments are never the outer one's items
            related_words[outer] = related_words.get(outer, 0) + words[inner]
    return {
        inner for inner, outer in related.items() if related_words.get(outer, 0) < ITEMS_SHARE * words[outer]
    }


def _outer_articles(stats: DomStats) -> dict[int, int]:
    """For every ``<article>`` inside another, the nearest enclosing ``<article>``."""
    articles = [node for node, tag in enumerate(stats.tags) if tag == "article"]
    outer: dict[int, int] = {}
    open_articles: list[int] = []
    for node in articles:
        while open_articles and stats.end[open_articles[-1]] <= node:
            open_articles.pop()
        if open_articles:
            outer[node] = open_articles[-1]
        open_articles.append(node)
    return outer


def _image_boxes(stats: DomStats, is_block: list[bool], params: AutoParams) -> list[int]:
    """Small blocks that hold an image as a direct child: a picture and its caption. An
    image inside a sentence (text right before it and right after it in the block), or
    in a ``<p>`` that holds a sentence (``sentence_min_words`` words and a period or comma:
    an image floated at the start of a paragraph), is part of the prose, not a picture
    box."""
    tags, parent, words, nodes, punct = stats.tags, stats.parent, stats.words, stats.nodes, stats.punct
    images = [node for node, tag in enumerate(tags) if tag == "img"]
    return [
        parent[image]
        for image in images
        if parent[image] > 0
        and is_block[parent[image]]
        and words[parent[image]] <= params.image_box_words
        and not _inline_image(nodes[image])
        and not (
            tags[parent[image]] == "p"
            and words[parent[image]] >= params.sentence_min_words
            and punct[parent[image]]
        )
    ]


def _inline_image(image: etree._Element) -> bool:
    """True when words come right before ``image`` and right after it, in its parent."""
    if not (image.tail or "").strip():
        return False
    before = image.getprevious()
    text_before = before.tail if before is not None else image.getparent().text
    return bool((text_before or "").strip())


def _own_context(stats: DomStats, node: int, names: dict[str, int], params: AutoParams) -> int:
    tag = stats.tags[node]
    element = stats.nodes[node]
    if params.cut_captions and tag in CAPTION_TAGS:
        if not (params.keep_table_figures and _table_figure(element)):
            return CUT
    if params.cut_overlays and (tag == "dialog" or element.get("role") in DIALOG_ROLES):
        return CUT  # is_overlay, inline: this runs for every candidate
    if not params.use_names:
        return PLAIN
    if tag in REGION_TAGS:
        return WEAK
    verdict = PLAIN
    classes = element.get("class")
    if params.cut_hidden_class and classes and hidden_by_class(classes):
        return CUT
    for name, is_id in ((classes, False), (element.get("id"), True)):
        if name:  # cached per page: class strings repeat a lot
            known = names.get(name)
            if known is None:
                known = names[name] = _NAME_CONTEXT.get(classify_names(name), PLAIN)
            if is_id and known < verdict and params.ignore_heading_ids and _outline_anchor(element, name):
                continue  # a section's anchor, made from its title: no name of the layout
            verdict = min(verdict, known)
    return verdict


def _outline_anchor(element: etree._Element, identifier: str) -> bool:
    """True when ``identifier`` is an anchor a documentation generator (Sphinx, MkDocs,
    Hugo...) made from the section's title: it spells the first heading inside
    ``element`` ("more-on-lists" over "5.1. More on Lists"), and so does the ``id`` of a
    neighbouring section, one that names no part of a layout ("the-del-statement" over
    "5.2. The del statement"). A box that labels itself ("related-posts" over "Related
    posts") among other parts is no outline, and its name stands."""
    if not _spells_heading(element, identifier):
        return False
    for forward in (False, True):
        neighbour = _sibling(element, forward)
        other = neighbour.get("id") if neighbour is not None else None
        if neighbour is None or not other or _NAME_CONTEXT.get(classify_names(other), PLAIN) != PLAIN:
            continue
        if _spells_heading(neighbour, other):
            return True
    return False


def _sibling(element: etree._Element, forward: bool) -> etree._Element | None:
    """The next (or previous) sibling element of ``element``, comments skipped."""
    sibling = element.getnext() if forward else element.getprevious()
    while sibling is not None and not isinstance(sibling.tag, str):
        sibling = sibling.getnext() if forward else sibling.getprevious()
    return sibling


def _spells_heading(element: etree._Element, identifier: str) -> bool:
    """True when ``identifier`` spells the first heading inside ``element``: its words
    are the heading's last words (a section's number is no part of its anchor)."""
    words = _ID_WORD_RE.findall(identifier.lower())
    if not words:
        return False
    heading = next(element.iter(*HEADING_TAGS), None)
    if heading is None:
        return False
    return _ID_WORD_RE.findall("".join(heading.itertext()).lower())[-len(words) :] == words


def _table_figure(element: etree._Element) -> bool:
    """True for a ``<figure>`` that holds a ``<table>``: a table, not a picture."""
    return element.tag == "figure" and next(element.iter("table"), None) is not None


def hidden_by_class(classes: str) -> bool:
    """True when ``classes`` hold the utility class ``hidden`` (``display: none`` in
    Bootstrap 3 and Tailwind) and no responsive variant that shows the element again on
    some screens (Tailwind's ``md:block``). Bootstrap 4's ``d-none`` and Bulma's
    ``is-hidden`` moved no development page."""
    tokens = classes.split()
    return "hidden" in tokens and not any(":" in token for token in tokens)


def is_overlay(element: etree._Element) -> bool:
    """True for ``<dialog>`` and elements whose WAI-ARIA role is a dialog."""
    return element.tag == "dialog" or element.get("role") in DIALOG_ROLES
