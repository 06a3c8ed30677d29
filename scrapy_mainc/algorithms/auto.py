"""``auto``: the default extractor, a maximum-value subtree over scored text blocks.

Every block of text (see :mod:`._blocks`) gets a value in words: positive for prose,
negative for boilerplate, from signals the published algorithms measured to work:

* link words count against a block (the link-density filters of CoreEx and NCE);
* a block with no punctuation at all loses a fixed amount (ECON's punctuation
  heuristic, which works in every language, not only Chinese): bylines, labels,
  buttons and menus have none, sentences do;
* containers whose markup names them as navigation, sidebars or footers keep only part
  of their value; captions, share bars, related links and similar named parts, and
  teaser-card lists, are cut out (cheap structural evidence);
* the headline, found by NCE's title search, is not body text.

When the page marks an element inside that subtree as its article body (schema.org
microdata, ``itemprop="articleBody"``) and that element holds a fair share of the
subtree's value, the page's own markup narrows the choice to it.

The content root is the node whose subtree has the largest total value; inside it, every
subtree with a negative total is dropped, and the leading and trailing blocks that are
not sentence-like (a byline, a dateline, a credit line) are trimmed. Reader comments go
through the shared comment stage like every algorithm's output. All of it is a handful
of linear passes over the shared statistics.

A second opinion checks that the root is the page's story (:mod:`._story`): where its
value splits between containers, one that is another story (it opens with a headline of
its own and shares few words with the page's headline) or a legal notice
(:mod:`._notices`) is cut and the choice made again; a root that is entirely a notice,
or another story while the headline's own story lies elsewhere, gives way to the choice
made without it. Each check reads text only on the few pages where the structure makes
it suspect. When no block scores positive at all (a page of two short lines), the
plain subtree with the most words outside links is returned with its low score.

The punctuation penalty demotes labels, bylines and menus, and on a page written in short
lines (a product sheet, a gift list, a photo story's captions) the story too: a choice
that keeps fewer than ``penalty_recheck_words`` words is checked against the choice made
without it, which wins when it lies elsewhere on the page or keeps twice the words. The
only ``<article>`` inside the root, with a fair share of its value, narrows it like the
page's ``articleBody`` markup; the refinements of :mod:`._refine` (subheadings, edges,
the story's start before the root) come last, and a part whose text repeats an earlier
part's word for word (a page laid out twice for two screen sizes) is dropped.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from ..core._article import is_listing
from ..core._stats import DomStats
from ..core._types import Document, Selection
from ._auto_params import AutoParams
from ._base import Algorithm
from ._blocks import Regions, block_regions
from ._context import CUT as _CUT
from ._context import PLAIN as _PLAIN
from ._context import block_context
from ._notices import is_notice, text_sample
from ._page_type_params import for_page_type
from ._refine import edge_blocks, first_post, repeated_parts, story_start, subheadings
from ._story import foreign_parts, page_topic, story_elsewhere
from ._thread import opened, post_runs, thread_root
from ._values import block_values, kept_value, kept_words, pruned
from .cetd import CetdParams
from .cetd import select as density_choice

#: The page-density choice a fragment gives way to: CECTD-DS, the paper's best variant.
DENSITY_PARAMS = CetdParams(density="ctd", smoothing=None)


@dataclass(frozen=True, slots=True)
class Choice:
    """A root, what is pruned inside it, and the block values and totals behind it."""

    root: int
    excluded: set[int]
    values: list[float]
    totals: list[float]


def select(document: Document, params: AutoParams) -> Selection:
    """Choose the subtree of largest total block value, check that it is the page's
    story, then prune inside it; a choice shorter than ``penalty_recheck_words`` is
    checked against the choice made without the punctuation penalty."""
    params = for_page_type(params, document.page_type.name)
    regions = block_regions(document.stats)
    context = block_context(document, regions, params)
    selection = _selection(document, regions, context, params)
    if params.unpunctuated_penalty and params.penalty_recheck_words and selection.score > 0:
        selection = _rechecked(document, regions, context, selection, params)
    if params.density_rescue_ratio:
        selection = _rescued(document, regions, selection, params.density_rescue_ratio)
    if params.drop_repeats and selection.nodes:
        repeats = repeated_parts(document.stats, regions, selection.nodes, selection.excluded, params)
        if repeats:
            selection = replace(selection, excluded=selection.excluded | repeats)
    return selection


def _rescued(document: Document, regions: Regions, selection: Selection, ratio: float) -> Selection:
    """``selection``, or the page-density choice (CECTD-DS) when that keeps ``ratio`` times
    the words: ``selection`` is one item or one section of a page of them."""
    stats = document.stats
    kept = sum(kept_words(stats, regions, selection))
    if stats.words[0] + 1 < ratio * (kept + 1):
        return selection  # the density cannot keep that much more: no need to compute it
    density = density_choice(document, DENSITY_PARAMS)
    wider = sum(stats.words[node] for node in density.nodes) - sum(
        stats.words[node] for node in density.excluded
    )
    return density if wider + 1 >= ratio * (kept + 1) else selection


def _rechecked(
    document: Document, regions: Regions, context: list[int], selection: Selection, params: AutoParams
) -> Selection:
    """``selection``, or the choice made without the punctuation penalty when ``selection``
    keeps fewer than ``penalty_recheck_words`` words and that choice, a text (at most
    ``recheck_max_link_share`` of its words in links), lies elsewhere on the page or keeps
    ``penalty_recheck_gain`` times the words (a page written in short lines), or when
    ``selection`` is worth less than one ``unpunctuated_penalty`` and that choice is not
    (a short notice: one line of eight words without a period scores barely above zero).

    The words counted are the root's, without the story's start that the refinements
    added before it: blocks found there say that the root is a part of the story (the
    penalty cut the story's lists and short lines between them), not that it is whole."""
    stats = document.stats
    kept, _ = kept_words(stats, regions, replace(selection, nodes=selection.nodes[-1:]))
    if kept >= params.penalty_recheck_words:
        return selection
    unpenalized = _selection(
        document, regions, context, replace(params, unpunctuated_penalty=0.0, section_widen_gain=0.0)
    )
    words, link_words = kept_words(stats, regions, unpenalized)
    if link_words > params.recheck_max_link_share * (words + link_words):
        return selection  # a list of links and teasers, not a story in short lines
    if is_listing(stats, unpenalized.nodes, unpenalized.excluded):
        return selection  # teasers whose headline links pruning dropped: a listing page
    if _elsewhere(stats, unpenalized, selection) or words >= params.penalty_recheck_gain * kept:
        return unpenalized
    if selection.score < params.unpunctuated_penalty <= unpenalized.score:
        return unpenalized  # worth less than one label's penalty: no evidence against the rest
    return selection


def _selection(document: Document, regions: Regions, context: list[int], params: AutoParams) -> Selection:
    if not document.stats.words[0]:  # nothing to read: say so, as the other algorithms do
        return Selection(reason="the page has no text")
    choice = choose(document, regions, context, params)
    if choice is None:
        if params.fallback:
            return fallback(document, regions, context, params)
        return Selection(reason="no block of text looks like article content")
    if params.check_story or params.check_notices:
        choice = _second_opinion(document, regions, context, choice, params)
    return refined(document, regions, context, choice, params)


def _elsewhere(stats: DomStats, selection: Selection, other: Selection) -> bool:
    """True when the roots of ``selection`` and ``other`` are unrelated (neither holds the
    other's last root): another region of the page, not the same one wider or narrower."""
    if not selection.nodes or not other.nodes:
        return bool(selection.nodes)
    root, other_root = selection.nodes[-1], other.nodes[-1]
    return not (stats.contains(root, other_root) or stats.contains(other_root, root))


def refined(
    document: Document, regions: Regions, context: list[int], choice: Choice, params: AutoParams
) -> Selection:
    """The selection of ``choice`` with the refinements of :mod:`._refine`: one post of a
    run of posts, subheadings kept, edges trimmed, the story's start added before the root."""
    stats, root, excluded = document.stats, choice.root, set(choice.excluded)
    if params.first_post:
        first = first_post(document, root, excluded, params)
        if first != root:
            root, excluded = first, {node for node in excluded if stats.contains(first, node)}
    if params.keep_subheadings:
        excluded -= subheadings(stats, regions, context, choice.values, root, excluded, params)
    if params.trim_edges or params.trim_before_headline:
        excluded |= edge_blocks(stats, regions, root, excluded, params, document.headline)
    start = story_start(document, regions, context, choice.values, root, params) if params.story_start else []
    return Selection(nodes=(*start, root), score=choice.totals[root], excluded=frozenset(excluded))


def choose(document: Document, regions: Regions, context: list[int], params: AutoParams) -> Choice | None:
    """The root of largest total value (or the paragraph parent, or the marked article
    body, see the module docstring) and its pruning; None when no total is positive."""
    stats = document.stats
    headline = document.headline if params.drop_headline else -1
    values = block_values(stats, regions, context, headline, params)
    totals = stats.subtree_totals(values)
    root = totals.index(max(totals))  # the first of the best
    if totals[root] <= 0:
        return None
    excluded = pruned(stats, regions, context, totals, root)
    if params.paragraph_parent:
        seed = paragraph_parent(regions, values, params.grandchild_weight)
        if not (stats.contains(root, seed) or stats.contains(seed, root)):
            seed_excluded = pruned(stats, regions, context, totals, seed)
            if kept_value(stats, values, seed, seed_excluded) > kept_value(stats, values, root, excluded):
                root, excluded = seed, seed_excluded
    if params.use_body_markup:
        marked = marked_body(document, totals, root, params.body_markup_share)
        if marked != root:
            root, excluded = marked, pruned(stats, regions, context, totals, marked)
    if params.use_article_element:
        article = only_article(stats, totals, root, params.article_share)
        if article != root:
            root, excluded = article, pruned(stats, regions, context, totals, article)
    if params.section_widen_gain:
        root, excluded = widened(stats, regions, context, Choice(root, excluded, values, totals), params)
    if params.thread_posts:
        root, excluded = with_replies(stats, regions, context, Choice(root, excluded, values, totals), params)
    return Choice(root, excluded, values, totals)


def with_replies(
    stats: DomStats, regions: Regions, context: list[int], choice: Choice, params: AutoParams
) -> tuple[int, set[int]]:
    """The root and its pruning, or, when a thread's run of posts lies outside the root,
    the smallest part around both, pruned without dropping a post's sentences (the
    replies whose labels outweigh their words: :mod:`._thread`)."""
    root, values = choice.root, choice.values
    runs = post_runs(stats, values, params.post_min_count, params.sentence_min_words)
    thread, posts = thread_root(stats, root, runs) if runs else (root, [])
    if not posts:
        return root, choice.excluded
    keep = opened(stats, values, thread, posts, params.sentence_min_words)
    return thread, pruned(stats, regions, context, choice.totals, thread, keep)


def widened(
    stats: DomStats, regions: Regions, context: list[int], choice: Choice, params: AutoParams
) -> tuple[int, set[int]]:
    """The root and its pruning, or an ancestor's when the ancestor keeps
    ``section_widen_gain`` more value once its negative blocks are pruned: the root's
    siblings are sections that score positive but lose, with the headers, menus and
    short-line blocks between them, the total to the root alone."""
    root, excluded, totals = choice.root, choice.excluded, choice.totals
    kept = kept_value(stats, choice.values, root, excluded)
    node = stats.parent[root]
    while node > 0:  # never the whole page
        node_excluded = pruned(stats, regions, context, totals, node)
        node_kept = kept_value(stats, choice.values, node, node_excluded)
        if node_kept >= (1.0 + params.section_widen_gain) * kept:
            root, excluded, kept = node, node_excluded, node_kept
        elif node_kept > kept:
            break  # a little more value around: the root's own page part ends here
        # else a wrapper that adds nothing: passed on the way up to the sibling sections
        node = stats.parent[node]
    return root, excluded


def _second_opinion(
    document: Document, regions: Regions, context: list[int], choice: Choice, params: AutoParams
) -> Choice:
    """The choice, or a better one when parts of it (or all of it) are another story or a
    legal notice (:mod:`._story`, :mod:`._notices`)."""
    foreign = foreign_parts(document, regions, choice.totals, choice.root, params)
    if foreign:
        return _without(document, regions, context, foreign, params) or choice
    return _replacement(document, regions, context, choice, params) or choice


def _replacement(
    document: Document,
    regions: Regions,
    context: list[int],
    choice: Choice,
    params: AutoParams,
) -> Choice | None:
    """The choice made without ``choice``'s root, when that root is not the page's story.

    Suspect roots: a legal notice, or, when the headline lies elsewhere (its story does
    not lead to the root), a root that covers the topic poorly. The replacement must lie
    outside the root; it wins over a notice when it is not one (unless the headline is
    clearly about the notice: ``gap`` more coverage), and over another story when the
    headline leads to it and it covers the topic ``gap`` better, at least ``min_coverage``.
    """
    root, stats = choice.root, document.stats
    elsewhere = story_elsewhere(document, choice.values, root, params.story_min_words)
    if not elsewhere and document.headline >= 0:
        return None  # the headline leads to the choice: it is the page's story
    elsewhere = elsewhere and params.check_story
    if not (elsewhere or params.check_notices):
        return None
    sample = text_sample(stats.nodes[root])
    notice = params.check_notices and is_notice(sample)
    topic = page_topic(document.headlines, document.urls)
    coverage = topic.coverage(sample)
    if not notice and (not elsewhere or coverage > 1.0 - params.story_gap):
        return None  # no notice, and nothing could cover the topic that much better
    other = _without(document, regions, context, [root], params)
    if other is None or stats.contains(other.root, root):
        return None  # nothing else, or the same region around a hole
    other_sample = text_sample(stats.nodes[other.root])
    other_coverage = topic.coverage(other_sample)
    if notice and not is_notice(other_sample) and coverage < other_coverage + params.story_gap:
        return other
    if not elsewhere or story_elsewhere(document, other.values, other.root, params.story_min_words):
        return None  # the headline does not lead to the other choice either
    if other_coverage >= params.story_min_coverage and other_coverage >= coverage + params.story_gap:
        return other
    return None


def _without(
    document: Document, regions: Regions, context: list[int], parts: list[int], params: AutoParams
) -> Choice | None:
    """The choice made again with ``parts`` cut."""
    context = list(context)
    end = document.stats.end
    for part in parts:
        context[part : end[part]] = [_CUT] * (end[part] - part)
    return choose(document, regions, context, params)


def fallback(document: Document, regions: Regions, context: list[int], params: AutoParams) -> Selection:
    """When no block scores positive: the subtree with the most words outside links,
    counting only plain blocks (not boilerplate regions, cut parts or the headline) and
    without the punctuation penalty, if it has at least ``fallback_min_words``. Its score
    is its (non-positive) total under the usual values: a weak choice, and says so."""
    stats = document.stats
    headline = document.headline if params.drop_headline else -1
    plain = [_PLAIN if state == _PLAIN else _CUT for state in context]
    values = block_values(stats, regions, plain, headline, replace(params, unpunctuated_penalty=0.0))
    totals = stats.subtree_totals(values)
    root = totals.index(max(totals))
    if totals[root] < params.fallback_min_words:
        return Selection(reason="no block of text looks like article content")
    excluded = pruned(stats, regions, plain, totals, root)
    usual = block_values(stats, regions, context, headline, params)
    return Selection(nodes=(root,), score=stats.subtree_totals(usual)[root], excluded=frozenset(excluded))


def marked_body(document: Document, totals: list[float], root: int, share: float) -> int:
    """The largest element strictly inside ``root`` that the page marks as its article
    body, if its total value is at least ``share`` of the root's; else ``root``."""
    stats = document.stats
    positions = stats.positions
    inside = [
        node
        for node in (positions.get(element, -1) for element in document.article_bodies)
        if node > root and stats.contains(root, node) and totals[node] > 0
    ]
    if not inside:
        return root
    best = max(inside, key=totals.__getitem__)
    return best if totals[best] >= share * totals[root] else root


def only_article(stats: DomStats, totals: list[float], root: int, share: float) -> int:
    """The only outermost ``<article>`` strictly inside ``root`` with a positive total, if
    it holds at least ``share`` of the root's value; else ``root``."""
    end, tags = stats.end, stats.tags
    found, node, stop = -1, root + 1, end[root]
    while node < stop:
        if tags[node] == "article" and totals[node] > 0:
            if found >= 0:
                return root  # several: a list of stories, or parts of one
            found = node
            node = end[node]  # an article nested in it is part of it
            continue
        node += 1
    return found if found >= 0 and totals[found] >= share * totals[root] else root


def paragraph_parent(regions: Regions, values: list[float], grandchild_weight: float = 0.5) -> int:
    """The block whose child blocks (grandchildren at ``grandchild_weight``) hold the most value."""
    concentration = [0.0] * len(values)
    parent_block = regions.parent_block
    for node in regions.with_text:  # the only nodes with a value
        value = values[node]
        if value > 0:
            concentration[node] += value
            if node:
                up = parent_block[node]
                concentration[up] += value
                if up > 0:
                    concentration[parent_block[up]] += grandchild_weight * value
    return concentration.index(max(concentration))


VARIANTS = (
    Algorithm("auto", "the default: maximum-value subtree over scored text blocks", select, AutoParams()),
)
