"""The block view of a page that ``auto`` scores.

A *block* is an element that starts its own box of text: anything but inline markup,
and list items or table cells only when they hold blocks themselves (a list of short
items or a table of figures is one block, as a reader sees it). Each block's *region* is
its own text plus the text of its inline descendants; regions partition the page's text.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from .._stats import DomStats

#: Inline markup: its text belongs to the nearest enclosing block.
INLINE_TAGS = frozenset(
    """a abbr acronym b bdi bdo big br cite code data del dfn em font i img ins kbd label
    mark nobr q rp rt ruby s samp small span strike strong sub sup time tt u var wbr""".split()
)
#: List items and table parts: blocks only when they contain blocks.
ITEM_TAGS = frozenset("li td th tr dt dd tbody thead tfoot".split())


@dataclass(frozen=True, slots=True)
class Regions:
    """Per-node block flags and the counts of each block's region (0 for non-blocks)."""

    is_block: list[bool]
    #: Nearest block strictly above each node (-1 for the root).
    parent_block: list[int]
    words: list[int]  #: words outside links
    link_words: list[int]
    punct: list[int]


def block_regions(stats: DomStats) -> Regions:
    """Mark blocks and add every node's own counts to its nearest block."""
    tags, parent = stats.tags, stats.parent
    count = len(tags)
    structural = [tag not in INLINE_TAGS and tag not in ITEM_TAGS for tag in tags]
    holds_block = [False] * count
    for node in range(count - 1, 0, -1):
        if structural[node] or holds_block[node]:
            holds_block[parent[node]] = True
    is_block = [
        structural[node] or (holds_block[node] and tags[node] in ITEM_TAGS) for node in range(count)
    ]
    is_block[0] = True
    nearest = list(range(count))
    parent_block = [-1] * count
    for node in range(1, count):
        up = parent[node]
        parent_block[node] = nearest[up]
        if not is_block[node]:
            nearest[node] = nearest[up]
    words, link_words, punct = [0] * count, [0] * count, [0] * count
    for node, (own, linked) in enumerate(zip(stats.own_words, stats.in_link)):
        if own:
            block = nearest[node]
            if linked:
                link_words[block] += own
            else:
                words[block] += own
            punct[block] += stats.own_punct[node]
    return Regions(is_block, parent_block, words, link_words, punct)


@dataclass(frozen=True, slots=True)
class CardShape:
    """What a teaser card looks like (see :func:`teaser_cards`)."""

    max_words: int
    min_link_words: int
    #: A list holding this share of the page's words is the page itself, not a teaser list.
    max_page_share: float


def teaser_cards(stats: DomStats, shape: CardShape) -> set[int]:
    """Members of teaser lists ("related stories", "most read"): at least three alike
    siblings (same tag and class), most of them small structured cards (a non-inline
    element inside, at most ``max_words`` words) with a link headline of at least
    ``min_link_words`` words and a few words of their own."""
    found: set[int] = set()
    tags, classes, words, link_words = stats.tags, stats.classes, stats.words, stats.link_words
    end = stats.end
    page_limit = shape.max_page_share * words[0]
    needed_link_words = 3 * shape.min_link_words
    children = stats.children
    parents = [
        parent
        for parent, siblings in enumerate(children)
        if len(siblings) >= 3 and link_words[parent] >= needed_link_words and words[parent] <= page_limit
    ]
    for parent in parents:
        siblings = children[parent]
        kinds = [(tags[node], classes[node]) for node in siblings]
        kind, alike = Counter(kinds).most_common(1)[0]
        if alike < 3:
            continue
        members = [node for node, node_kind in zip(siblings, kinds) if node_kind == kind]
        cards = [
            node
            for node in members
            if shape.min_link_words <= link_words[node]
            and words[node] <= shape.max_words
            and words[node] - link_words[node] >= 5
            and any(tags[inner] not in INLINE_TAGS for inner in range(node + 1, end[node]))
        ]
        if len(cards) >= 3 and len(cards) >= 0.6 * len(members):
            found.update(members)
    return found
