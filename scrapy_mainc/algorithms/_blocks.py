"""The block view of a page that ``auto`` scores.

A *block* is an element that starts its own box of text: anything but inline markup,
and list items or table cells only when they hold blocks themselves (a list of short
items or a table of figures is one block, as a reader sees it). A custom element
(``<source-note>``) is a block too (web components style themselves as boxes), except a
small one in running text, which is inline like ``<span>``: a block only when it holds one.
Each block's *region* is its own text plus the text of its inline descendants; regions
partition the page's text.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import accumulate
from typing import TYPE_CHECKING

from ..core._stats import DomStats
from ..core._tags import INLINE_TAGS

if TYPE_CHECKING:
    from lxml import etree

#: List items and table parts: blocks only when they contain blocks.
ITEM_TAGS = frozenset("li td th tr dt dd tbody thead tfoot".split())
_NOT_STRUCTURAL = INLINE_TAGS | ITEM_TAGS
_CELL_TAGS = frozenset({"td", "th"})


@dataclass(frozen=True, slots=True)
class Regions:
    """Per-node block flags and the counts of each block's region (0 for non-blocks)."""

    is_block: list[bool]
    #: Nearest block strictly above each node (-1 for the root).
    parent_block: list[int]
    words: list[int]  #: words outside links
    link_words: list[int]
    punct: list[int]
    #: The blocks with some text (words or link words), in document order.
    with_text: list[int]


def is_prose(regions: Regions, node: int, min_words: int) -> bool:
    """True for a sentence-like block: ``min_words`` words outside links and a period or comma."""
    return regions.words[node] >= min_words and regions.punct[node] > 0


def prose_counts(stats: DomStats, regions: Regions, min_words: int) -> list[int]:
    """For every node, the sentence-like blocks in its subtree (:func:`is_prose`)."""
    words, punct = regions.words, regions.punct
    return stats.subtree_totals(
        [1 if count >= min_words and punct[node] else 0 for node, count in enumerate(words)]
    )


def block_regions(stats: DomStats) -> Regions:
    """Mark blocks and add every node's own counts to its nearest block."""
    tags, parent, end = stats.tags, stats.parent, stats.end
    structural = [tag not in _NOT_STRUCTURAL for tag in tags]
    items = [node for node, tag in enumerate(tags) if tag in ITEM_TAGS]
    custom = {tag for tag in set(tags) if "-" in tag}
    if custom:  # a small custom element in running text is inline, as a <span> is
        inline_custom: set[int] = set()
        for node in [node for node, tag in enumerate(tags) if tag in custom]:  # parents first
            if parent[node] in inline_custom or _in_running_text(stats, node):
                inline_custom.add(node)
                structural[node] = False
                items.append(node)
    is_block = list(structural)
    # an item holds a block when a structural element lies strictly inside its subtree
    structural_before = [0, *accumulate(structural)]
    counts = stats.child_counts
    for node in items:
        if structural_before[end[node]] > structural_before[node + 1]:
            is_block[node] = True
        elif tags[node] in _CELL_TAGS and counts[parent[node]] == 1 and tags[parent[node]] == "tr":
            is_block[node] = True  # the only cell of its row: a layout box, not a table of data
    is_block[0] = True
    nearest = list(range(len(tags)))  # nearest block at or above each node
    for node in [node for node, block in enumerate(is_block) if not block]:
        nearest[node] = nearest[parent[node]]  # pre-order: the parent is settled already
    parent_block = [nearest[up] for up in parent]
    parent_block[0] = -1
    words, link_words, punct = [0] * len(tags), [0] * len(tags), [0] * len(tags)
    own_words, own_punct, in_link = stats.own_words, stats.own_punct, stats.in_link
    for node in [node for node, own in enumerate(own_words) if own]:
        block = nearest[node]
        if in_link[node]:
            link_words[block] += own_words[node]
        else:
            words[block] += own_words[node]
        punct[block] += own_punct[node]
    with_text = [node for node, count in enumerate(words) if count or link_words[node]]
    return Regions(is_block, parent_block, words, link_words, punct, with_text)


#: Most words of a custom element that running text makes inline: a citation, a note's
#: mark, a term; a bar of share or related links is a box even inside a sentence.
RUNNING_TEXT_MAX_WORDS = 4


def _in_running_text(stats: DomStats, node: int) -> bool:
    """Whether a custom element sits in running text: of at most
    :data:`RUNNING_TEXT_MAX_WORDS` words, with text on both sides of it (words, or inline
    markup holding words: "the States (<source-note>1</source-note>).", "in
    <b>May</b><x-cite>[1]</x-cite>, the"). At the start or the end of a box (a kicker, a
    byline, a footnote's mark after the last sentence) it stays a box of its own."""
    if stats.parent[node] < 0 or stats.words[node] > RUNNING_TEXT_MAX_WORDS:
        return False  # the analysis root (a caller's tree), or a widget
    element = stats.nodes[node]
    previous, following = element.getprevious(), element.getnext()
    container = element.getparent()
    before = previous.tail if previous is not None else container.text if container is not None else ""
    return _has_text(stats, before, previous) and _has_text(stats, element.tail, following)


def _has_text(stats: DomStats, text: str | None, sibling: etree._Element | None) -> bool:
    """Whether ``text`` has words, or else ``sibling`` is inline markup holding some."""
    if text and not text.isspace():
        return True
    if sibling is None or sibling.tag not in INLINE_TAGS:
        return False
    position = stats.positions.get(sibling)
    return position is not None and stats.words[position] > 0


@dataclass(frozen=True, slots=True)
class CardShape:
    """What a teaser card looks like (see :func:`teaser_cards`)."""

    max_words: int
    min_link_words: int
    #: A list holding this share of the page's words is the page itself, not a teaser list.
    max_page_share: float
    #: The link headline must be a block of its own (see :func:`teaser_cards`).
    link_headline: bool = True
    #: Fewest alike siblings (same tag and class) that make a list, and fewest cards in it.
    min_alike: int = 3
    #: Fewest words of its own (outside links) a card has: a sentence of teaser.
    min_own_words: int = 5
    #: Least share of the list's alike members that must be cards.
    min_card_share: float = 0.6
    #: An item in inline markup only that opens with a link headline and ends in an
    #: ellipsis is a card too (see :func:`_truncated_summary`).
    truncated_summary: bool = True
    #: A link headline of this many words (fewer than ``min_link_words``) makes a card
    #: only with more evidence of a teaser (:func:`_teaser_evidence`); 0: never.
    short_link_words: int = 0
    #: Cards of this many words outside links or more on average describe what they name
    #: (a roundup's products): not a teaser list. 0: no limit.
    max_mean_own_words: int = 0


def teaser_cards(stats: DomStats, regions: Regions, shape: CardShape) -> set[int]:
    """Members of teaser lists ("related stories", "most read"): at least ``min_alike``
    alike siblings (same tag and class), ``min_card_share`` of them small structured cards
    (a non-inline element inside, at most ``max_words`` words) with a link headline of at
    least ``min_link_words`` words and ``min_own_words`` of their own. With ``link_headline``, the
    headline is a block of its own, no more of its words outside links than in them: a
    link inside a sentence does not make a paragraph a card. Cards of ``max_mean_own_words``
    of their own on average are described items, not teasers."""
    found: set[int] = set()
    tags, words, link_words, end = stats.tags, stats.words, stats.link_words, stats.end
    page_limit = shape.max_page_share * words[0]
    fewest_link_words = min(shape.min_link_words, shape.short_link_words or shape.min_link_words)
    needed_link_words = shape.min_alike * fewest_link_words
    parents = [
        parent
        for parent, count in enumerate(stats.child_counts)
        if count >= shape.min_alike
        and link_words[parent] >= needed_link_words
        and words[parent] <= page_limit
    ]
    for parent in parents:
        siblings = stats.children_of(parent)
        card_like = [
            node
            for node in siblings
            if fewest_link_words <= link_words[node]
            and words[node] <= shape.max_words
            and words[node] - link_words[node] >= shape.min_own_words
        ]
        if len(card_like) < shape.min_alike:
            continue  # cheap numbers first: most lists (menus) have no card-like items
        members = max(stats.alike_groups(siblings, shape.min_alike), key=len, default=None)
        if members is None:
            continue
        card_like_set = set(card_like)
        cards = [
            node
            for node in members
            if node in card_like_set
            and (
                any(tags[inner] not in INLINE_TAGS for inner in range(node + 1, end[node]))
                and (not shape.link_headline or _headline_card(stats, regions, node, shape))
                or shape.truncated_summary
                and _truncated_summary(stats, node, shape.min_link_words)
            )
        ]
        if len(cards) < shape.min_alike or len(cards) < shape.min_card_share * len(members):
            continue
        own_words = sum(words[node] - link_words[node] for node in cards)
        if shape.max_mean_own_words and own_words >= shape.max_mean_own_words * len(cards):
            continue  # each card a paragraph about what it names: described items, not teasers
        found.update(members)
    return found


#: How a summary cut short ends.
_ELLIPSES = ("...", "\u2026", "[...]", "[\u2026]")


def _truncated_summary(stats: DomStats, node: int, min_link_words: int) -> bool:
    """Whether the item is a linked headline and a summary cut short, in inline markup
    only: it opens with an element all in links, of ``min_link_words`` words or more, and
    its text ends in an ellipsis ("<li><a>Headline</a><span>The first words of the
    story...</span></li>")."""
    element = stats.nodes[node]
    first, stop, tags = node + 1, stats.end[node], stats.tags
    if (element.text or "").strip() or first >= stop:
        return False
    if any(tags[inner] not in INLINE_TAGS for inner in range(first, stop)):
        return False  # a structured item is a card only with a link headline block of its own
    if not min_link_words <= stats.link_words[first] == stats.words[first]:
        return False
    return _cut_short(element)


def _headline_card(stats: DomStats, regions: Regions, node: int, shape: CardShape) -> bool:
    """Whether the structured item ``node`` has a link headline of ``min_link_words``, or
    of ``short_link_words`` with more evidence of a teaser (:func:`_teaser_evidence`)."""
    stop = stats.end[node]
    if _link_headline(regions, node, stop, shape.min_link_words):
        return True
    return bool(shape.short_link_words) and (
        _link_headline(regions, node, stop, shape.short_link_words) and _teaser_evidence(stats.nodes[node])
    )


def _teaser_evidence(element: etree._Element) -> bool:
    """Whether a card shows a teaser's mark beside a short link headline: its text, or the
    text of one of its links, cut short by an ellipsis ("... <a>Read more...</a>")."""
    return _cut_short(element) or any(_cut_short(link) for link in element.iter("a"))


def _cut_short(element: etree._Element) -> bool:
    """Whether the text of ``element`` ends in an ellipsis."""
    return "".join(element.itertext()).rstrip().endswith(_ELLIPSES)


def _link_headline(regions: Regions, start: int, stop: int, min_link_words: int) -> bool:
    """True when a block in ``start..stop`` is a link headline: ``min_link_words`` link
    words and no more words outside links than in them."""
    is_block, words, link_words = regions.is_block, regions.words, regions.link_words
    return any(
        is_block[node] and link_words[node] >= min_link_words and words[node] <= link_words[node]
        for node in range(start, stop)
    )


def alike_items(stats: DomStats, max_words: int, min_alike: int) -> list[int]:
    """For every node, the item of a grid it lies in, or -1: an item is one of at least
    ``min_alike`` alike siblings (same tag and class) of at most ``max_words`` words, links
    included (a product card, a teaser, a row of a table); the outermost one when items
    nest (a card's list of swatches lies in the card)."""
    tags, words, parent = stats.tags, stats.words, stats.parent
    is_item = [False] * len(tags)
    for up, count in enumerate(stats.child_counts):
        if count < min_alike:
            continue
        siblings = [node for node in stats.children_of(up) if words[node] <= max_words]
        if len(siblings) < min_alike:
            continue  # cheap numbers first: too few small children to be alike
        for group in stats.alike_groups(siblings, min_alike):
            for node in group:
                is_item[node] = True
    item_of = [-1] * len(tags)
    for node in range(1, len(tags)):  # pre-order: the parent is settled already
        up = item_of[parent[node]]
        item_of[node] = up if up >= 0 else (node if is_item[node] else -1)
    return item_of
