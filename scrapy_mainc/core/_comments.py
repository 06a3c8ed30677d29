"""Reader-comment stripping, a stage shared by every algorithm.

Three kinds of evidence, each cheap (the names in :mod:`._comment_names`, the region's
start in :mod:`._comment_regions`; the parameters, :class:`CommentParams`, in
:mod:`._comment_params`); this module weighs them:

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

from ._comment_names import (
    COMMENT_TOKENS,
    REVIEW_STEM_RE,
    REVIEW_TOKENS,
    has_comment_name,
    microdata_comments,
    named_by_class,
    outermost,
)
from ._comment_params import CommentParams
from ._comment_regions import alike_chains, comment_heading, comment_region_start
from ._stats import DomStats

_COMMENT_OR_REVIEW_TOKENS = COMMENT_TOKENS | REVIEW_TOKENS
#: Largest share of a selection's words a section named as reviews takes on its name
#: alone. Reviews are often most of a product's page (0.54 and 0.65 of two development
#: pages, whose reviews show no dates); a container of the whole product holds nearly all.
_REVIEWS_MAX_SHARE = 2 / 3


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
    named = named_by_class(stats, roots)
    tokens = COMMENT_TOKENS
    if params.reviews:
        named = _with_reviews(stats, roots, named, params)
        tokens = _COMMENT_OR_REVIEW_TOKENS
    classed = [node for node in named if not _holds_any(stats, node, protected)]
    if len(classed) < len(named) or _named_story_root(stats, roots, protected, tokens):
        # the story's own container is named as comments: the names are the section's
        classed = [node for node in classed if _corroborated(stats, node, params)]
    microdata = [node for node in microdata_comments(stats, roots) if not _holds_any(stats, node, protected)]
    region = comment_region_start(stats, roots, params) if params.dated_runs is not False else None
    heading = comment_heading(stats, roots, params) if params.headings else None
    starts = [
        start
        for start in (region, heading)
        if start is not None and not _takes_any(stats, roots, start, protected)
    ]
    excluded = outermost(stats, [*classed, *microdata])
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
    return frozenset(outermost(stats, strong))


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
        for node in named_by_class(stats, roots, REVIEW_STEM_RE, REVIEW_TOKENS, modifiers=False)
        if stats.words[node] <= most or _corroborated(stats, node, params)
    ]
    return sorted(outermost(stats, [*named, *reviews]))


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
    return comment_heading(stats, inside, loose) is not None or bool(alike_chains(stats, inside, loose))


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
    dropped = sum(stats.words[node] for node in outermost(stats, list(excluded)) if node not in roots)
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
