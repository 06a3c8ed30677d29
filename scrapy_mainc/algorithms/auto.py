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
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from ..core._stats import DomStats
from ..core._tags import HEADING_TAGS
from ..core._types import Document, Selection
from ._base import Algorithm
from ._blocks import Regions, block_regions
from ._context import CUT as _CUT
from ._context import PLAIN as _PLAIN
from ._context import WEAK as _WEAK
from ._context import block_context
from ._notices import is_notice, text_sample
from ._story import StoryShape, foreign_parts, page_topic, story_elsewhere


@dataclass(frozen=True, slots=True)
class AutoParams:
    """Parameters of ``auto``; values tuned on the shared development datasets."""

    #: Value of a link word against a non-link word (1: a block is worth its non-link
    #: words minus its link words).
    link_weight: float = 1.0
    #: Words of value a block without any period or comma loses (ECON's signal); 8 is a
    #: short byline or label. Headings are exempt: subheadings carry no punctuation.
    unpunctuated_penalty: float = 8.0
    #: Share of their positive value kept by blocks inside weakly named boilerplate
    #: regions (nav, sidebar, footer...); their negative values grow by the same share.
    boilerplate_factor: float = 0.5
    #: When the densest paragraph parent lies outside the subtree of largest total and
    #: keeps more value after pruning, it is the root (layout tables mix paragraphs and
    #: boilerplate as siblings, so no single subtree holds the article cleanly).
    paragraph_parent: bool = True
    #: Cut ``<article>`` elements nested in another ``<article>`` that carries more words
    #: of its own: the HTML standard makes them comments on, or content related to, the
    #: outer article (an outer article that is mostly its inner ones is a feed wrapper).
    cut_nested_articles: bool = True
    #: Cut overlays (``<dialog>``, ``role="dialog"`` or ``"alertdialog"``): consent
    #: prompts and sign-up walls sit on top of the page; an overlay holding the headline
    #: is kept.
    cut_overlays: bool = True
    #: Use class/id names and region tags.
    use_names: bool = True
    #: Never cut the container of the page's headline for its name, overlay role or as a
    #: nested article: it is the page's story (a WordPress ``tag-cookies`` class on it).
    keep_headline_container: bool = True
    #: Cut figures and captions.
    cut_captions: bool = True
    #: Cut small blocks that hold an image and a caption.
    cut_image_boxes: bool = True
    #: Cut teaser-card lists.
    cut_cards: bool = True
    #: A teaser card has at most this many words (a headline and a sentence or two)...
    card_max_words: int = 80
    #: ...and a link headline of at least this many words.
    card_min_link_words: int = 3
    #: A named container or card list with at least this share of the page's words is a
    #: layout wrapper, not boilerplate: names there are ignored.
    max_boilerplate_share: float = 0.5
    #: Leave out the headline (NCE's title search finds it; it is ``Extraction.title``).
    drop_headline: bool = True
    #: Narrow the root to the largest element inside it marked ``itemprop="articleBody"``...
    use_body_markup: bool = True
    #: ...when that element holds at least this share of the root's value (markup around
    #: a summary or a teaser does not cut a long article short).
    body_markup_share: float = 0.25
    #: Trim leading and trailing blocks that are not sentence-like.
    trim_edges: bool = True
    #: A sentence-like block has at least this many non-link words and punctuation...
    edge_min_words: int = 10
    #: ...and at most this share of link words.
    edge_max_link_share: float = 0.3
    #: Check that the choice is the page's story (:mod:`._story`): parts of it that are
    #: another story are cut, and a choice that is entirely another story gives way to
    #: the best choice without it...
    check_story: bool = True
    #: ...and the same for legal, cookie, consent and privacy notices (:mod:`._notices`).
    check_notices: bool = True
    #: A part that may be another story or a notice holds at least this share of the
    #: value where the choice splits...
    story_part_share: float = 0.25
    #: ...a part that may be a legal notice, this share...
    notice_part_share: float = 0.1
    #: ...and either at least this many words of value (also: the least story between
    #: the headline and a choice elsewhere).
    story_min_words: float = 30.0
    #: The page's story covers at least this share of its headline's terms...
    story_min_coverage: float = 0.4
    #: ...and another story at least this much less.
    story_gap: float = 0.3
    #: When no block scores positive, fall back to the plain subtree with the most words
    #: outside links (a short notice, a page of a few lines), scored by its usual total.
    fallback: bool = True
    #: ...if it has at least this many such words (one short sentence).
    fallback_min_words: int = 5


@dataclass(frozen=True, slots=True)
class Choice:
    """A root, what is pruned inside it, and the block values and totals behind it."""

    root: int
    excluded: set[int]
    values: list[float]
    totals: list[float]


def select(document: Document, params: AutoParams) -> Selection:
    """Choose the subtree of largest total block value, check that it is the page's
    story, then prune inside it."""
    stats = document.stats
    regions = block_regions(stats)
    context = block_context(document, regions, params)
    choice = choose(document, regions, context, params)
    if choice is None:
        if params.fallback:
            return fallback(document, regions, context, params)
        return Selection(reason="no block of text looks like article content")
    if params.check_story or params.check_notices:
        choice = _second_opinion(document, regions, context, choice, params)
    root, excluded = choice.root, choice.excluded
    if params.trim_edges:
        excluded |= _edge_blocks(stats, regions, root, excluded, params)
    return Selection(nodes=(root,), score=choice.totals[root], excluded=frozenset(excluded))


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
    excluded = _pruned(stats, regions, context, totals, root)
    if params.paragraph_parent:
        seed = paragraph_parent(regions, values)
        if not (stats.contains(root, seed) or stats.contains(seed, root)):
            seed_excluded = _pruned(stats, regions, context, totals, seed)
            if kept_value(stats, values, seed, seed_excluded) > kept_value(stats, values, root, excluded):
                root, excluded = seed, seed_excluded
    if params.use_body_markup:
        marked = marked_body(document, totals, root, params.body_markup_share)
        if marked != root:
            root, excluded = marked, _pruned(stats, regions, context, totals, marked)
    return Choice(root, excluded, values, totals)


def _second_opinion(
    document: Document, regions: Regions, context: list[int], choice: Choice, params: AutoParams
) -> Choice:
    """The choice, or a better one when parts of it (or all of it) are another story or a
    legal notice (:mod:`._story`, :mod:`._notices`)."""
    shape = StoryShape(
        params.story_part_share,
        params.notice_part_share,
        params.story_min_words,
        params.story_min_coverage,
        params.story_gap,
        params.check_story,
        params.check_notices,
    )
    foreign = foreign_parts(document, regions, choice.totals, choice.root, shape)
    if foreign:
        return _without(document, regions, context, foreign, params) or choice
    return _replacement(document, regions, context, choice, params, shape) or choice


def _replacement(
    document: Document,
    regions: Regions,
    context: list[int],
    choice: Choice,
    params: AutoParams,
    shape: StoryShape,
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
    elsewhere = elsewhere and shape.stories
    if not (elsewhere or shape.notices):
        return None
    sample = text_sample(stats.nodes[root])
    notice = shape.notices and is_notice(sample)
    topic = page_topic(document.headlines, document.urls)
    coverage = topic.coverage(sample)
    if not notice and (not elsewhere or coverage > 1.0 - shape.gap):
        return None  # no notice, and nothing could cover the topic that much better
    other = _without(document, regions, context, [root], params)
    if other is None or stats.contains(other.root, root):
        return None  # nothing else, or the same region around a hole
    other_sample = text_sample(stats.nodes[other.root])
    other_coverage = topic.coverage(other_sample)
    if notice and not is_notice(other_sample) and coverage < other_coverage + shape.gap:
        return other
    if not elsewhere or story_elsewhere(document, other.values, other.root, params.story_min_words):
        return None  # the headline does not lead to the other choice either
    if other_coverage >= shape.min_coverage and other_coverage >= coverage + shape.gap:
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
    excluded = _pruned(stats, regions, plain, totals, root)
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


def paragraph_parent(regions: Regions, values: list[float]) -> int:
    """The block whose child blocks (grandchildren at half weight) hold the most value."""
    concentration = [value if value > 0 else 0.0 for value in values]
    parent_block = regions.parent_block
    for node in [node for node, value in enumerate(values) if value > 0 and node]:
        value = values[node]
        up = parent_block[node]
        concentration[up] += value
        if up > 0:
            concentration[parent_block[up]] += 0.5 * value
    return concentration.index(max(concentration))


def kept_value(stats: DomStats, values: list[float], root: int, excluded: set[int]) -> float:
    """Positive block value left inside ``root`` once ``excluded`` subtrees are dropped."""
    kept, node, stop = 0.0, root, stats.end[root]
    while node < stop:
        if node in excluded:
            node = stats.end[node]
            continue
        kept += max(values[node], 0.0)
        node += 1
    return kept


def block_values(
    stats: DomStats, regions: Regions, context: list[int], headline: int, params: AutoParams
) -> list[float]:
    """Value in words of every block's region (0 for non-blocks and cut parts)."""
    values = [0.0] * len(stats)
    keep = 1.0 - params.boilerplate_factor
    region_words, region_link_words, region_punct = regions.words, regions.link_words, regions.punct
    with_text = [node for node, count in enumerate(region_words) if count or region_link_words[node]]
    for node in with_text:
        if context[node] == _CUT:
            continue
        words, link_words = region_words[node], region_link_words[node]
        value = words - params.link_weight * link_words
        if not region_punct[node] and stats.tags[node] not in HEADING_TAGS:
            value -= params.unpunctuated_penalty
        if node == headline:
            value = -1.0
        if context[node] == _WEAK:
            value = value * keep if value > 0 else value * (2.0 - keep)
        values[node] = value
    return values


def _pruned(
    stats: DomStats, regions: Regions, context: list[int], totals: list[float], root: int
) -> set[int]:
    """Outermost cut parts and negative-total blocks inside ``root``."""
    excluded: set[int] = set()
    node, stop = root + 1, stats.end[root]
    while node < stop:
        is_cut = context[node] == _CUT and context[stats.parent[node]] != _CUT
        if is_cut or (regions.is_block[node] and totals[node] < 0):
            excluded.add(node)
            node = stats.end[node]
        else:
            node += 1
    return excluded


def _edge_blocks(
    stats: DomStats, regions: Regions, root: int, excluded: set[int], params: AutoParams
) -> set[int]:
    """Leading and trailing blocks inside ``root`` that are not sentence-like, as long as
    dropping them drops no other block (a byline, a dateline, a credit line)."""
    blocks = []
    node, stop = root, stats.end[root]
    while node < stop:
        if node in excluded:
            node = stats.end[node]
            continue
        if regions.is_block[node] and (regions.words[node] or regions.link_words[node]):
            blocks.append(node)
        node += 1
    trimmed: set[int] = set()
    for ordered in (blocks, blocks[::-1]):
        for block in ordered:
            words, link_words = regions.words[block], regions.link_words[block]
            sentence_like = (
                words >= params.edge_min_words
                and regions.punct[block] > 0
                and link_words <= params.edge_max_link_share * (words + link_words)
            ) or words >= 4 * params.edge_min_words
            if sentence_like or stats.words[block] != words + link_words:
                break
            trimmed.add(block)
    return trimmed if len(trimmed) < len(blocks) else set()  # never trim a page to nothing


VARIANTS = (
    Algorithm("auto", "the default: maximum-value subtree over scored text blocks", select, AutoParams()),
)
