"""Reader-comment stripping, a stage shared by every algorithm.

Three kinds of evidence, each cheap:

* structural: containers whose ``class``, ``id`` or microdata name them as comments
  (``id="comments"``, ``class="comment-list"``, ``itemprop="comment"``, Disqus threads);
* NCE's phase 2: comments sit after the body in a region of repetitive blocks carrying
  dates and author lines. Blocks (elements with element children) are visited in DFS
  order; two blocks are joined when they are structurally alike (same tag, class and
  child-tag sequence) and close in DFS order; the first connected component of at least
  ``min_blocks`` blocks that all carry a date marks the start of the comment region, and
  everything from its first block onward is dropped;
* a heading that titles a comment section ("Comments", "3 comments", "Leave a reply",
  "网友评论") also marks the start of the comment region, under the same rule that enough
  of the selection comes before it; it needs no dates, which many comment lists show only
  as relative times or not at all.

Each kind can be wrong about an article: a BEM modifier naming the opinion section
(``article-body--comment``), the dated entries of a timeline, a section titled
"Responses". So the stage never takes what holds the page's headline or its marked
article body (comments follow the story, they never contain it), and it never leaves
fewer than ``min_kept_words`` (a few sentences) of a selection that had more, unless the
evidence is strong: microdata, or two kinds agreeing (a named section that also shows a
comment heading or a run of alike dated blocks, or that lies in a selection named as
comments too; a region that both rules start). Inside a story whose own container is named
as comments (the opinion section's modifier on the article and on its body), a name alone
is no evidence.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from itertools import accumulate

from lxml import etree

from ._class_names import name_words
from ._stats import DomStats
from ._tags import BLOCK_TAGS, HEADING_TAGS, INLINE_TAGS
from ._text import normalize_space

#: Class/id tokens that name a reader-comment container.
COMMENT_TOKENS = frozenset(
    {
        "comment", "comments", "commentlist", "commentslist", "commentarea", "commentsarea",
        "comentarios", "kommentare", "commentaires", "disqus", "disqusthread", "respond",
        "replies", "usercomments", "readercomments", "talkback", "pinglun",
    }
)  # fmt: skip
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


@dataclass(frozen=True, slots=True)
class CommentParams:
    """Parameters of the comment-region search (NCE phase 2)."""

    #: Blocks in a component that mark a comment region (the paper: at least 3).
    min_blocks: int = 3
    #: Largest number of elements between the end of one block and the start of an alike
    #: block for the two to be "close in DFS order".
    max_gap: int = 12
    #: Require a date in every block of the component (the paper's evidence of comments:
    #: dates, permalinks, author lines); without it any list of alike items qualifies.
    require_date: bool = True
    #: Share of the selection's characters that must come before the region. Comments
    #: follow the body; a "region" that starts near the top is a run of alike blocks
    #: inside the article (dated photo captions, timelines), not comments. Tuned on the
    #: shared datasets: 0.2 keeps every article body and still drops long threads.
    min_preceding_share: float = 0.2
    #: Largest share of the selection's characters allowed after the last block of the
    #: component: comments end the page; alike dated blocks followed by more article
    #: text (embedded social posts) are not comments.
    max_following_share: float = 0.25
    #: A heading that titles a comment section (``_COMMENT_HEADING_RE``) marks the start
    #: of the comment region, under the same ``min_preceding_share`` rule.
    headings: bool = True
    #: Fewest words the stage leaves of a selection that had more, unless the evidence is
    #: strong (see the module docstring): two sentences. 0 turns the guard off. On the
    #: development data, the shortest article left after a correct removal has 77 words.
    min_kept_words: int = 30
    #: Blocks that open with an ``<h1>``-``<h3>`` heading are sections of the text (the
    #: items of a listicle, each with its date), never comments.
    sections_are_text: bool = True
    #: Customer reviews are comments too: a container named ``reviews``
    #: (:data:`REVIEW_TOKENS`, in a name without its BEM modifier: not
    #: ``product--has-reviews``) is a comment section if it holds at most two thirds of
    #: the selection's words, or more with alike dated blocks or a comment heading; a
    #: story named so is protected as one named as comments is.
    #: None (the default): as the page's type says, on for products, whose reviews are the
    #: buyers' comments (``REVIEWS_ARE_COMMENTS`` in ``..algorithms._page_type_params``).
    reviews: bool | None = None
    #: A run of alike dated blocks closing the selection marks the comment region (NCE's
    #: phase 2, above). None (the default): as the page's type says, off on listings and
    #: collections, whose items are such a run (a news section's dated teasers, a chart's
    #: entries; ``ITEMS_ARE_CONTENT`` in ``..algorithms._page_type_params``); the names and
    #: the comment headings still count there.
    dated_runs: bool | None = None


#: Class/id tokens that name a section of customer reviews (plural: ``review`` also
#: names one review's summary, such as a product's star rating beside its name).
REVIEW_TOKENS = frozenset({"reviews", "customerreviews", "productreviews"})
_COMMENT_OR_REVIEW_TOKENS = COMMENT_TOKENS | REVIEW_TOKENS
#: Largest share of a selection's words a section named as reviews takes on its name
#: alone. Reviews are often most of a product's page (0.54 and 0.65 of two development
#: pages, whose reviews show no dates); a container of the whole product holds nearly all.
_REVIEWS_MAX_SHARE = 2 / 3

#: Substrings of every word of COMMENT_TOKENS (first letter left out for camelCase):
#: a cheap test before the names are split into words.
_COMMENT_STEM_RE = re.compile("omment|oment|isqus|espond|eplies|alkback|pinglun")
#: The same for REVIEW_TOKENS (``CommentParams.reviews``).
_REVIEW_STEM_RE = re.compile("eviews")
#: Fewest words of a named comment section worth removing.
_MIN_SECTION_WORDS = 3
#: Microdata of comments: ``itemprop="comment"``, ``itemtype=".../Comment"``. Selecting the
#: attributes (then their elements) is four times faster in libxml2 than testing every
#: element with a predicate.
_COMMENT_MICRODATA_XPATH = etree.XPath(
    "descendant::*/@itemprop[. = 'comment'] | descendant::*/@itemtype[contains(., 'Comment')]"
)
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


def has_comment_name(element: etree._Element, tokens: frozenset[str] = COMMENT_TOKENS) -> bool:
    """True when ``class``, ``id`` or microdata name ``element`` as a reader comment (or
    by another of ``tokens``)."""
    names = " ".join(
        value for value in (element.get("id"), element.get("class"), element.get("itemprop")) if value
    )
    itemtype = element.get("itemtype") or ""
    if "Comment" in itemtype:
        return True
    return _is_comment_name(names, tokens)


def _is_comment_name(names: str, tokens: frozenset[str] = COMMENT_TOKENS) -> bool:
    return bool(names) and not tokens.isdisjoint(name_words(names))


def named_comment_nodes(stats: DomStats, roots: tuple[int, ...]) -> set[int]:
    """Outermost nodes inside ``roots`` whose markup names them as comments."""
    return _outermost(stats, [*_named_by_class(stats, roots), *_microdata_comments(stats, roots)])


def _microdata_comments(stats: DomStats, roots: tuple[int, ...]) -> list[int]:
    positions = stats.positions
    return [
        positions[attribute.getparent()]
        for root in roots
        for attribute in _COMMENT_MICRODATA_XPATH(stats.nodes[root])
    ]


def _named_by_class(
    stats: DomStats,
    roots: tuple[int, ...],
    stems: re.Pattern[str] = _COMMENT_STEM_RE,
    tokens: frozenset[str] = COMMENT_TOKENS,
    modifiers: bool = True,
) -> list[int]:
    """Outermost sections inside ``roots`` whose ``class`` or ``id`` holds one of
    ``tokens`` (without ``modifiers``: not in a BEM modifier, ``card--has-reviews``)."""
    named: list[int] = []
    tags, words, nodes, end = stats.tags, stats.words, stats.nodes, stats.end
    verdicts: dict[str, bool] = {}  # class and id values repeat: decide each once
    for root in roots:
        sections = [
            node
            for node in range(root + 1, end[root])
            if words[node] >= _MIN_SECTION_WORDS and tags[node] not in INLINE_TAGS
        ]
        covered_until = -1  # the end of the last named section: the outermost one is enough
        for node in sections:
            if node >= covered_until:
                element = nodes[node]
                if _names_comment(element.get("class"), verdicts, stems, tokens, modifiers) or _names_comment(
                    element.get("id"), verdicts, stems, tokens, modifiers
                ):
                    named.append(node)
                    covered_until = end[node]
    return named


def _outermost(stats: DomStats, nodes: list[int]) -> set[int]:
    found: set[int] = set()
    covered_until = -1
    for node in sorted(nodes):
        if node >= covered_until:
            found.add(node)
            covered_until = stats.end[node]
    return found


def _names_comment(
    name: str | None,
    verdicts: dict[str, bool],
    stems: re.Pattern[str],
    tokens: frozenset[str],
    modifiers: bool,
) -> bool:
    if not name:
        return False
    verdict = verdicts.get(name)
    if verdict is None:
        read = name
        if not modifiers and "--" in name:
            read = " ".join(part.split("--")[0] for part in name.split())
        verdict = verdicts[name] = bool(stems.search(read)) and _is_comment_name(read, tokens)
    return verdict


def comment_region_start(
    stats: DomStats, roots: tuple[int, ...], params: CommentParams = CommentParams()
) -> int | None:
    """Index of the first block of NCE's comment region inside ``roots``, or None.

    A component qualifies when enough of the selection's text comes before it and
    little comes after its last block: comments close a page, while alike dated blocks
    with article text after them (embedded posts, a timeline) are part of the article.
    """
    chains = _alike_chains(stats, roots, params)
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


def _alike_chains(stats: DomStats, roots: tuple[int, ...], params: CommentParams) -> list[list[int]]:
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


def comment_nodes(
    stats: DomStats,
    roots: tuple[int, ...],
    params: CommentParams = CommentParams(),
    protected: tuple[int, ...] = (),
) -> frozenset[int]:
    """Roots of the subtrees inside ``roots`` to drop as reader comments.

    ``protected`` nodes (the headline element, the marked article body) are never
    dropped: a named container or a region that holds one is not a comment section.
    """
    protected = tuple(node for node in protected if node >= 0)
    named = _named_by_class(stats, roots)
    tokens = COMMENT_TOKENS
    if params.reviews:
        named = _with_reviews(stats, roots, named, params)
        tokens = _COMMENT_OR_REVIEW_TOKENS
    classed = [node for node in named if not _holds_any(stats, node, protected)]
    if len(classed) < len(named) or _named_story_root(stats, roots, protected, tokens):
        # the story's own container is named as comments: the names are the section's
        classed = [node for node in classed if _corroborated(stats, node, params)]
    microdata = [node for node in _microdata_comments(stats, roots) if not _holds_any(stats, node, protected)]
    region = comment_region_start(stats, roots, params) if params.dated_runs is not False else None
    heading = comment_heading(stats, roots, params) if params.headings else None
    starts = [
        start
        for start in (region, heading)
        if start is not None and not _takes_any(stats, roots, start, protected)
    ]
    excluded = _outermost(stats, [*classed, *microdata])
    if starts:
        excluded |= set(_from_onward(stats, roots, min(starts)))
    kept_enough = _kept_words(stats, roots, excluded) >= params.min_kept_words
    if not excluded or kept_enough or _words(stats, roots) <= params.min_kept_words:
        return frozenset(excluded)
    strong = list(microdata)  # the guard: only strong evidence may take that much
    if _inside_comments(stats, roots, tokens):
        strong.extend(classed)  # the section is named as comments, and so are its entries
    else:
        strong.extend(node for node in classed if _corroborated(stats, node, params))
    if region is not None and heading is not None and len(starts) == 2:
        strong.extend(_from_onward(stats, roots, min(starts)))
    return frozenset(_outermost(stats, strong))


def _with_reviews(
    stats: DomStats, roots: tuple[int, ...], named: list[int], params: CommentParams
) -> list[int]:
    """``named`` and the outermost sections named as customer reviews. One that holds
    more than ``_REVIEWS_MAX_SHARE`` of the words of ``roots`` needs a second kind of
    evidence, alike dated blocks or a comment heading (:func:`_corroborated`): it may be
    the product itself, in a container named for a state (``reviews-enabled``)."""
    most = _REVIEWS_MAX_SHARE * _words(stats, roots)
    reviews = [
        node
        for node in _named_by_class(stats, roots, _REVIEW_STEM_RE, REVIEW_TOKENS, modifiers=False)
        if stats.words[node] <= most or _corroborated(stats, node, params)
    ]
    return sorted(_outermost(stats, [*named, *reviews]))


def _named_story_root(
    stats: DomStats, roots: tuple[int, ...], protected: tuple[int, ...], tokens: frozenset[str]
) -> bool:
    """True when a root that holds a protected node (the story) is named as comments."""
    return any(
        _holds_any(stats, root, protected) and has_comment_name(stats.nodes[root], tokens) for root in roots
    )


def _holds_any(stats: DomStats, node: int, protected: tuple[int, ...]) -> bool:
    return any(stats.contains(node, inner) for inner in protected)


def _takes_any(stats: DomStats, roots: tuple[int, ...], start: int, protected: tuple[int, ...]) -> bool:
    """A region from ``start`` onward would take a protected node."""
    return any(inner >= start and any(stats.contains(root, inner) for root in roots) for inner in protected)


def _corroborated(stats: DomStats, node: int, params: CommentParams) -> bool:
    """A named comment container that also shows a comment heading or a run of alike
    dated blocks: two kinds of evidence agree."""
    inside = (node,)
    loose = CommentParams(
        min_blocks=params.min_blocks, max_gap=params.max_gap, min_preceding_share=0.0, max_following_share=1.0
    )
    return comment_heading(stats, inside, loose) is not None or bool(_alike_chains(stats, inside, loose))


def _inside_comments(stats: DomStats, roots: tuple[int, ...], tokens: frozenset[str]) -> bool:
    """True when every root is, or lies inside, a container named as comments (a
    selection taken from a comment thread)."""
    parent, nodes = stats.parent, stats.nodes
    for root in roots:
        node = root
        while node > 0 and not has_comment_name(nodes[node], tokens):
            node = parent[node]
        if node <= 0:
            return False
    return True


def _words(stats: DomStats, roots: tuple[int, ...]) -> int:
    return sum(stats.words[root] for root in roots)


def _kept_words(stats: DomStats, roots: tuple[int, ...], excluded: set[int]) -> int:
    """Words of ``roots`` outside the ``excluded`` subtrees."""
    dropped = sum(stats.words[node] for node in _outermost(stats, list(excluded)) if node not in roots)
    kept = _words(stats, roots) - dropped
    return kept - sum(stats.words[root] for root in roots if root in excluded)


def _from_onward(stats: DomStats, roots: tuple[int, ...], start: int) -> list[int]:
    """Outermost nodes covering everything in ``roots`` from ``start`` onward."""
    covering = [start]
    node = start
    while True:
        up = stats.parent[node]
        if up < 0 or node in roots:
            break
        covering.extend(sibling for sibling in stats.children_of(up) if sibling > node)
        node = up
    covering.extend(root for root in roots if root > start)
    return covering


def _has_date(element: etree._Element) -> bool:
    # Every date pattern has a digit: the cheap test settles most text pieces.
    return any(_DIGIT_RE.search(text) and _DATE_RE.search(text) for text in element.itertext())
