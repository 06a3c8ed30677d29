"""Refinements of ``auto``'s chosen root: its edges, its subheadings, the story's start,
its repeated parts.

The root and its pruning come from the block values (:mod:`.auto`); readings of the
blocks in document order then adjust what is kept:

* leading and trailing blocks that are not sentence-like are trimmed (a byline, a
  dateline, a credit line), except a leading heading (the title of the first section), a
  leading sentence (a short news lede) and a long run of short lines (a list; at the start
  only lines of text count, not labels, controls or links); before the page's headline
  they are trimmed at any length (the story starts at its headline);
* a short line that pruning dropped between two kept sentence-like blocks, or between a
  kept heading and a kept sentence-like block (a section's lead-in), written as a
  subheading (bold or italic, or ending with a colon or a question mark), is kept: a
  subheading has no punctuation and so scores below zero, but it belongs to the text;
* a root that holds a run of dated posts (a blog's front page) gives way to one post: the
  one showing the page's headline, else the first;
* sentence-like blocks between the headline and the root are the story's start when
  there are several of them or they are long next to the root: the root took only the
  part after an inserted box (a video, a newsletter prompt, a picture).
* a part of the choice whose text repeats an earlier part's word for word is dropped: a
  page laid out twice for two screen sizes, a carousel's cloned slides.

Each is one walk over the root's blocks (or the blocks before it), on numbers the
statistics pass has computed.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from itertools import accumulate

from ..core._datetext import stamp_date
from ..core._render import render_text
from ..core._stats import DomStats
from ..core._tags import HEADING_TAGS
from ..core._types import Document
from ._auto_params import AutoParams
from ._blocks import Regions, is_prose
from ._context import CUT

#: Inline tags that set a line apart as a subheading when they hold all of its text.
EMPHASIS_TAGS = frozenset({"strong", "b", "em", "i", "u"})
#: Endings of a line that introduces what follows ("How it works:", "Why now?").
_INTRODUCING_ENDS = (":", "?", "\uff1a", "\uff1f")
#: The end of a sentence: a full stop, a question or an exclamation mark, then closing
#: quotes or brackets.
_SENTENCE_END_RE = re.compile("[.!?][\"'\u201d\u2019)\\]]*$")


def edge_blocks(
    stats: DomStats, regions: Regions, root: int, excluded: set[int], params: AutoParams, headline: int = -1
) -> set[int]:
    """Leading and trailing blocks inside ``root`` that are not sentence-like, as long as
    dropping them drops no other block (a byline, a dateline, a credit line); a leading
    heading without links stops the trimming at the start, and so does a sentence (see
    :func:`_lead_sentence`). An edge whose run holds more than ``edge_max_words`` words
    outside links is a list of the text, and stays; at the start only lines of text count
    (:func:`_run_words`). With ``trim_edges`` off only the blocks before the page's
    ``headline`` are trimmed.

    The story starts at its headline: with ``trim_before_headline``, the leading blocks
    before a ``headline`` inside ``root`` (a site's menu, a list of hot searches, a
    banner) are trimmed whatever their length, headings among them; the run after the
    headline is weighed on its own."""
    blocks = _kept_blocks(stats, regions, root, excluded)
    if not (params.trim_before_headline and root < headline < stats.end[root]):
        headline = -1
    trimmed = set(_edge(stats, regions, blocks, params, True, headline))
    if params.trim_edges:
        trimmed.update(_edge(stats, regions, blocks[::-1], params, False))
    return trimmed if len(trimmed) < len(blocks) else set()  # never trim a page to nothing


def _edge(
    stats: DomStats,
    regions: Regions,
    ordered: list[int],
    params: AutoParams,
    leading: bool,
    headline: int = -1,
) -> list[int]:
    """The blocks to trim at the start of ``ordered``: the leading edge, or the trailing
    one (``ordered`` reversed). Blocks before ``headline`` are not the story."""
    before: list[int] = []
    run: list[int] = []
    run_words = 0
    for block in ordered:
        words, link_words = regions.words[block], regions.link_words[block]
        sentence_like = (
            words >= params.sentence_min_words
            and regions.punct[block] > 0
            and link_words <= params.edge_max_link_share * (words + link_words)
        ) or words >= params.edge_long_words
        if sentence_like or stats.words[block] != words + link_words:
            break
        if block < headline:
            before.append(block)
            continue
        if not params.trim_edges:
            break
        if leading and params.keep_leading_headings and _plain_heading(stats, block):
            break
        if leading and _lead_sentence(stats, regions, block, params):
            break
        run.append(block)
        run_words += _run_words(stats, regions, block, params, leading)
        if run_words > params.edge_max_words:
            return before
    return before + run


def _run_words(stats: DomStats, regions: Regions, block: int, params: AutoParams, leading: bool) -> int:
    """The words ``block`` adds to an edge's run: its words outside links, a CJK character
    counting half. At the start only a line of text counts, ``lead_line_min_words`` words
    or more, no more of them in links than outside: a label, a button, a player's control
    ("2X", "高清") or a linked headline beside its rank and heat is not one, and sixty of
    them are the page's chrome, not a list of the story's."""
    words = regions.words[block]
    counted = words - _cjk_discount(stats, block, words)
    if leading and params.lead_line_min_words:
        if counted < params.lead_line_min_words or regions.link_words[block] > words:
            return 0
    return counted


def _cjk_discount(stats: DomStats, block: int, words: int) -> int:
    """Half the CJK characters of ``block`` (at most half its ``words``): each counts as
    a word, and a Chinese word is two characters or so, so that an edge's length is
    weighed alike in every script ("责任编辑：李四" is no 7-word line)."""
    own_cjk = stats.own_cjk
    cjk = sum(own_cjk[node] for node in range(block, stats.end[block]))
    return min(cjk, words) // 2


def _plain_heading(stats: DomStats, block: int) -> bool:
    return stats.tags[block] in HEADING_TAGS and not stats.link_words[block]


def _lead_sentence(stats: DomStats, regions: Regions, block: int, params: AutoParams) -> bool:
    """True when ``block`` is written as a sentence of at least ``lead_sentence_words``
    words (at most ``lead_sentence_link_share`` of them in links): a capital first
    letter, a full stop (question or exclamation mark) last. A news lede can be shorter
    than a sentence-like block ("Sixteen new officers have joined the police
    department."); a byline or a dateline is not written so."""
    words, link_words = regions.words[block], regions.link_words[block]
    total = words + link_words
    if not params.lead_sentence_words or total < params.lead_sentence_words:
        return False
    if link_words > params.lead_sentence_link_share * total:
        return False
    text = "".join(stats.nodes[block].itertext()).strip()
    return text[:1].isupper() and _SENTENCE_END_RE.search(text) is not None


def _kept_blocks(stats: DomStats, regions: Regions, root: int, excluded: set[int]) -> list[int]:
    """Blocks with text inside ``root`` and outside ``excluded``, in document order."""
    blocks = []
    node, stop = root, stats.end[root]
    while node < stop:
        if node in excluded:
            node = stats.end[node]
            continue
        if regions.is_block[node] and (regions.words[node] or regions.link_words[node]):
            blocks.append(node)
        node += 1
    return blocks


def subheadings(
    stats: DomStats,
    regions: Regions,
    context: list[int],
    values: list[float],
    root: int,
    excluded: set[int],
    params: AutoParams,
) -> set[int]:
    """Pruned parts of ``root`` (not cut by the markup) that are subheadings between two
    kept prose blocks, or between a kept heading without links and a kept prose block (a
    section's lead-in; not a line after prose before a heading: a section's credit): at
    most ``subheading_max_words`` words, no links, and written as a subheading
    (:func:`reads_as_subheading`)."""
    # (node, 1 prose kept / 2 a heading kept / 0 a subheading / -1 other)
    sequence: list[tuple[int, int]] = []
    node, stop = root + 1, stats.end[root]
    while node < stop:
        if node in excluded:
            short = 0 < stats.words[node] <= params.subheading_max_words and not stats.link_words[node]
            short = short and context[node] != CUT
            sequence.append((node, 0 if short and reads_as_subheading(stats, node) else -1))
            node = stats.end[node]
            continue
        if regions.is_block[node] and (regions.words[node] or regions.link_words[node]):
            prose = values[node] > 0 and is_prose(regions, node, params.sentence_min_words)
            sequence.append((node, 1 if prose else 2 if _plain_heading(stats, node) else -1))
        node += 1
    words = stats.words
    return {
        node
        for place, (node, kind) in enumerate(sequence[1:-1], start=1)
        if kind == 0
        and sequence[place + 1][1] == 1
        and (
            sequence[place - 1][1] == 1
            or (sequence[place - 1][1] == 2 and words[node] >= params.lead_in_min_words)
        )
    }


def reads_as_subheading(stats: DomStats, node: int) -> bool:
    """True when all the text of ``node`` is bold or italic (inside ``EMPHASIS_TAGS``), or
    it ends with a colon or a question mark."""
    if "".join(stats.nodes[node].itertext()).rstrip().endswith(_INTRODUCING_ENDS):
        return True
    emphasized, inner, stop = 0, node + 1, stats.end[node]
    while inner < stop:
        if stats.tags[inner] in EMPHASIS_TAGS:
            emphasized += stats.words[inner]
            inner = stats.end[inner]
        else:
            inner += 1
    return emphasized == stats.words[node]


def story_start(
    document: Document,
    regions: Regions,
    context: list[int],
    values: list[float],
    root: int,
    params: AutoParams,
) -> list[int]:
    """Sentence-like blocks between the headline and ``root`` that start the story: at
    least ``story_start_min_blocks`` of them, or ``story_start_min_share`` of the root's
    words; [] otherwise (a standfirst, or nothing)."""
    stats, headline = document.stats, document.headline
    if headline < 0 or root <= headline or stats.contains(root, headline):
        return []
    found, node = [], stats.end[headline]
    words, link_words = regions.words, regions.link_words
    while node < root:
        if context[node] == CUT:
            node = stats.end[node]
            continue
        own_text = stats.words[node] == words[node] + link_words[node]  # no block inside
        if regions.is_block[node] and own_text and values[node] > 0 and _prose_line(regions, node, params):
            found.append(node)
            node = stats.end[node]
            continue
        node += 1
    if len(found) >= params.story_start_min_blocks:
        return found
    start_words = sum(words[node] for node in found)
    if found and start_words >= params.story_start_min_share * (stats.words[root] - stats.link_words[root]):
        return found
    return []


def _prose_line(regions: Regions, node: int, params: AutoParams) -> bool:
    """Sentence-like, with at most ``edge_max_link_share`` of its words in links."""
    words, link_words = regions.words[node], regions.link_words[node]
    return is_prose(regions, node, params.sentence_min_words) and (
        link_words <= params.edge_max_link_share * (words + link_words)
    )


#: Text pieces at the start of a post read for its stamp...
_STAMP_PIECES = 6
#: ...which stands on a short line of its own ("2005-03-21 01:20:44", "Posted on March 5,
#: 2019 by Jane"), not in a sentence of the post (a date the text mentions) nor as the
#: lead-in of one ("May 1, 2019:"): at most this many characters...
_STAMP_LINE_CHARS = 60
#: ...and this many words beside the date.
_STAMP_OTHER_WORDS = 8


def first_post(document: Document, root: int, excluded: set[int], params: AutoParams) -> int:
    """The post to keep when ``root`` holds a run of posts (a blog's front page, an archive
    of full posts): the one that shows the page's headline, else the first (the newest),
    or ``root`` itself when it holds no such run.

    A run is at least ``post_min_count`` alike siblings (same tag and class: the
    container's children outside ``excluded``, below any chain of single children; no
    other child has as much prose), each with at least ``post_min_words`` words
    outside links and a date on a short line of its own among its first text pieces, on
    at least two different days: a live blog's entries, stamped with the times of one day,
    are one story. A page whose headline stands outside every post (a live blog or a
    timeline under its own headline) has no run either.
    """
    stats = document.stats
    container = root
    while True:
        children = [
            child for child in stats.children_of(container) if stats.words[child] and child not in excluded
        ]
        if len(children) != 1:
            break
        container = children[0]
    if len(children) < params.post_min_count:
        return root
    posts = max(stats.alike_groups(children, params.post_min_count), key=len, default=None)
    if posts is None:
        return root
    members = set(posts)
    for child in children:  # no other part of the container reads as a post: an article
        if child not in members and stats.words[child] - stats.link_words[child] >= params.post_min_words:
            return root  # followed by dated reader comments is no run of posts
    days = set()
    for post in posts:
        if stats.words[post] - stats.link_words[post] < params.post_min_words:
            return root  # the word count first: reading a stamp costs more
        day = _stamp(stats, post)
        if day is None:
            return root
        days.add(day)
    if len(days) < 2:
        return root
    headline = document.headline
    if headline < 0:
        return posts[0]
    return next((post for post in posts if stats.contains(post, headline)), root)


def _stamp(stats: DomStats, post: int) -> tuple[int, int, int] | None:
    """The date (year, month, day) on a stamp line among the post's first text pieces."""
    pieces = 0
    for node in range(post, stats.end[post]):
        text = stats.texts[node]
        if text and not text.isspace():
            line = text.strip()
            if len(line) <= _STAMP_LINE_CHARS and not line.endswith((":", "\uff1a")):
                day = stamp_date(line, _STAMP_OTHER_WORDS)
                if day is not None:
                    return day
            pieces += 1
            if pieces >= _STAMP_PIECES:
                break
    return None


def repeated_parts(
    stats: DomStats, regions: Regions, roots: tuple[int, ...], excluded: frozenset[int], params: AutoParams
) -> set[int]:
    """Kept containers under ``roots`` whose text, and whose text once ``excluded`` parts
    are left out, are those of an earlier kept container (not one holding them), with
    ``repeat_min_blocks`` blocks and ``repeat_min_words`` words (links included): the same
    part shown twice, pruned alike. Only groups of containers alike in word and link-word
    counts, two of them outside each other, are read for their text."""
    words, link_words, end = stats.words, stats.link_words, stats.end
    alike: dict[tuple[int, int], list[int]] = {}
    for root in roots:
        for node in range(root + 1, end[root]):
            if words[node] >= params.repeat_min_words:
                alike.setdefault((words[node], link_words[node]), []).append(node)
    suspects = sorted(
        node
        for nodes in alike.values()
        if any(not stats.contains(before, after) for before, after in zip(nodes, nodes[1:]))
        for node in nodes
    )
    cuts = sorted(excluded)
    reach = list(accumulate((end[cut] for cut in cuts), max))  # the farthest end of cuts[: i + 1]
    first: dict[tuple[str, str], int] = {}
    repeats: set[int] = set()
    skipped_until = 0  # the end of the last repeat: what lies inside it is dropped with it
    for node in suspects:
        before = bisect_left(cuts, node)  # excluded parts that start before the node
        if node < skipped_until or (before and reach[before - 1] > node) or node in excluded:
            continue
        if _blocks_in(regions, stats, node) < params.repeat_min_blocks:
            continue
        shown = " ".join("".join(stats.nodes[node].itertext()).split())
        kept = " ".join(render_text(stats, (node,), excluded).split())
        earlier = first.setdefault((shown, kept), node)
        if earlier != node and not stats.contains(earlier, node):
            repeats.add(node)
            skipped_until = end[node]
    return repeats


def _blocks_in(regions: Regions, stats: DomStats, node: int) -> int:
    """Blocks with text in the subtree of ``node`` (``regions.with_text``, in document
    order, holds exactly them)."""
    with_text = regions.with_text
    return bisect_left(with_text, stats.end[node]) - bisect_left(with_text, node)
