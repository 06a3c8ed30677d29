"""Where a selection's comment region starts: NCE's run of alike dated blocks closing the
selection (its phase 2), or a heading that titles a comment section; two kinds of evidence
of the comment stage (:mod:`._comments`).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from itertools import accumulate

from lxml import etree

from ._comment_params import CommentParams
from ._stats import DomStats
from ._tags import BLOCK_TAGS, HEADING_TAGS
from ._text import normalize_space

_DIGIT_RE = re.compile(r"\d")
#: Dates and times in a comment's byline. A time is ``h:mm`` with no digit either side,
#: no semicolon before and no range after: "2017;68:491-516" and "2020;12:45-50" (a
#: reference's volume and pages) are no times.
_DATE_RE = re.compile(
    r"\d{1,4}[-/.]\d{1,2}[-/.]\d{1,4}|(?<![\d;])\d{1,2}:\d{2}(?!\d|-\d)|\d{2,4}\s*年|\d{1,2}\s*月\s*\d{1,2}"
    r"|\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?\s+\d{1,2}\b"
    r"|\b\d{1,2}\s+(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\b"
    r"|\b\d+\s+(?:second|minute|hour|day|week|month|year)s?\s+ago\b|(?:分钟|小时|天)前",
    re.IGNORECASE,
)


#: Tags that can be a comment block: block-level, except quotations (``blockquote``:
#: embedded social posts look like dated comments but are quoted article material) and
#: paragraphs (a paragraph is text, not a container of author, date and message).
_COMMENT_BLOCK_TAGS = BLOCK_TAGS - {"blockquote", "p", "br", "hr", "td", "th", "html", "body"}
#: The whole text of a heading that titles a comment section: "Comments", "3 comments",
#: "Reader comments (12)", "Responses", "Leave a reply", "Post a comment", "Join the
#: conversation"; Chinese 评论 / 网友评论 / 发表评论 / 留言, Japanese コメント, Korean 댓글.
#: Anchored at both ends, so an article section such as "Comments from the minister" is
#: not one; "Discussion" is left out (a section of many articles).
_COMMENT_HEADING_RE = re.compile(
    r"(?:\d+\s+)?(?:(?:readers?|users?|visitors?)'?s?\s+)?(?:comments?|responses?|replies)(?:\s*\(\d+\))?"
    r"|(?:leave|post|add|write)\s+an?\s+(?:comment|reply|response)|join\s+the\s+(?:conversation|discussion)"
    r"|(?:网友|读者|最新|热门|精彩)?(?:评论|留言)(?:\s*[(（]\d+[)）])?|(?:发表|我要|我来)(?:评论|留言)|コメント|댓글",
    re.IGNORECASE,
)
#: Characters stripped from the ends of a heading before matching ("Comments:", "» 评论").
_HEADING_DECORATION = " :：»›>|-–—·•"
#: Most words a comment-section heading has ("Reader comments (12)": 3).
_MAX_HEADING_WORDS = 6


def comment_region_start(
    stats: DomStats, roots: tuple[int, ...], params: CommentParams = CommentParams()
) -> int | None:
    """Index of the first block of NCE's comment region inside ``roots``, or None.

    A component qualifies when enough of the selection's text comes before it and
    little comes after its last block: comments close a page, while alike dated blocks
    with article text after them (embedded posts, a timeline) are part of the article.
    """
    chains = alike_chains(stats, roots, params)
    if not chains:
        return None
    chars_before, total = _text_positions(stats, roots)
    for chain in chains:
        before = chars_before(chain[0])
        after = total - chars_before(stats.end[chain[-1]])
        if before >= params.min_preceding_share * total and after <= params.max_following_share * total:
            return chain[0]
    return None


def comment_heading(
    stats: DomStats, roots: tuple[int, ...], params: CommentParams = CommentParams()
) -> int | None:
    """The first heading inside ``roots`` that titles a comment section, with at least
    ``min_preceding_share`` of the selection's text before it; None when there is none."""
    tags, words, nodes = stats.tags, stats.words, stats.nodes
    chars_before: Callable[[int], int] | None = None
    for root in roots:
        stop = stats.end[root]
        for node in [node for node, tag in enumerate(tags[root:stop], root) if tag in HEADING_TAGS]:
            if not 0 < words[node] <= _MAX_HEADING_WORDS:
                continue
            heading = normalize_space("".join(nodes[node].itertext())).strip(_HEADING_DECORATION)
            if not _COMMENT_HEADING_RE.fullmatch(heading):
                continue
            if chars_before is None:
                chars_before, total = _text_positions(stats, roots)
            if chars_before(node) >= params.min_preceding_share * total:
                return node
    return None


def _text_positions(stats: DomStats, roots: tuple[int, ...]) -> tuple[Callable[[int], int], int]:
    """A function giving the characters of ``roots`` before a node, and their total."""
    prefix = [0, *accumulate(stats.own_chars)]
    end = stats.end

    def chars_before(position: int) -> int:
        return sum(prefix[min(position, end[root])] - prefix[root] for root in roots if root < position)

    return chars_before, sum(stats.chars[root] for root in roots)


def alike_chains(stats: DomStats, roots: tuple[int, ...], params: CommentParams) -> list[list[int]]:
    """Components of at least ``min_blocks`` alike blocks, close in DFS order (and dated,
    when asked), in document order.

    A block is an element of :data:`_COMMENT_BLOCK_TAGS` with text and at least two child
    elements; two blocks are alike when tag, class and child-tag sequence agree.
    """
    tags, counts, words, end, nodes = stats.tags, stats.child_counts, stats.words, stats.end, stats.nodes
    open_chains: dict[tuple[str, str, tuple[str, ...]], list[int]] = {}
    chains: list[list[int]] = []
    for root in roots:
        for node in range(root, end[root]):  # a root can be a comment block of a forest
            if counts[node] < 2 or tags[node] not in _COMMENT_BLOCK_TAGS or not words[node]:
                continue
            kids = stats.children_of(node)
            if params.sections_are_text and _opens_with_heading(stats, kids):
                continue  # a section of the text (a listicle's item), not a comment
            signature = (*stats.kind(node), tuple([tags[kid] for kid in kids]))
            chain = open_chains.get(signature)
            if chain and node < end[chain[-1]]:
                continue  # nested inside an alike block: part of that block
            if chain and node - end[chain[-1]] <= params.max_gap:
                chain.append(node)
            else:
                chain = open_chains[signature] = [node]
                chains.append(chain)
    found = []
    for chain in chains:
        if len(chain) >= params.min_blocks and params.require_date:
            chain = _dated_span(chain, nodes, params.min_blocks)
        if len(chain) >= params.min_blocks:
            found.append(chain)
    return found


def _opens_with_heading(stats: DomStats, kids: list[int]) -> bool:
    """True when the first child with text is a heading of the story's own ranks
    (``<h1>`` to ``<h3>``): each item of a listicle opens with one, a comment with its
    author's name and date."""
    first = next((kid for kid in kids if stats.words[kid]), -1)
    return first >= 0 and stats.tags[first] in _SECTION_HEADINGS


_SECTION_HEADINGS = frozenset({"h1", "h2", "h3"})


def _dated_span(chain: list[int], nodes: list[etree._Element], needed: int) -> list[int]:
    """The first ``needed`` dated blocks of ``chain`` and its last dated block: all the
    component's decision uses (its start, its end, its size), found without reading the
    dates of every block of a long chain."""
    dated = []
    for place, node in enumerate(chain):
        if _has_date(nodes[node]):
            dated.append(node)
            if len(dated) == needed:
                last = next(
                    (later for later in reversed(chain[place + 1 :]) if _has_date(nodes[later])), node
                )
                return dated if last == node else [*dated, last]
    return dated


def _has_date(element: etree._Element) -> bool:
    # Every date pattern has a digit: the cheap test settles most text pieces.
    return any(_DIGIT_RE.search(text) and _DATE_RE.search(text) for text in element.itertext())
