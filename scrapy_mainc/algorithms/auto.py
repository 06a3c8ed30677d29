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

The content root is the node whose subtree has the largest total value; inside it, every
subtree with a negative total is dropped, and the leading and trailing blocks that are
not sentence-like (a byline, a dateline, a credit line) are trimmed. Reader comments go
through the shared comment stage like every algorithm's output. All of it is a handful
of linear passes over the shared statistics.
"""

from __future__ import annotations

from dataclasses import dataclass

from .._names import NameClass, classify_names
from .._stats import DomStats
from .._tags import HEADING_TAGS
from .._types import Document, Selection
from ._base import Algorithm
from ._blocks import CardShape, Regions, block_regions, teaser_cards

#: Tags of page regions that are usually not article text, like a weak boilerplate name.
REGION_TAGS = frozenset({"nav", "footer", "aside", "header"})
#: Tags that hold figures and their captions, never body text.
CAPTION_TAGS = frozenset({"figure", "figcaption", "caption"})

#: An inner ``<article>`` holding at least this share of the outer one's words is the
#: same article marked up twice, not a related one.
NESTED_ARTICLE_SHARE = 0.8

#: Nodes with fewer words are not worth classifying: what they hold barely counts.
NAME_MIN_WORDS = 5

_CUT, _WEAK, _PLAIN = -2, -1, 0


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
    #: Cut ``<article>`` elements nested in another ``<article>``: the HTML standard
    #: makes them comments on, or content related to, the outer article.
    cut_nested_articles: bool = True
    #: Use class/id names and region tags.
    use_names: bool = True
    #: Cut figures and captions.
    cut_captions: bool = True
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
    #: Share of value kept by blocks before the headline (the body follows its headline).
    before_headline_factor: float = 0.0
    #: Trim leading and trailing blocks that are not sentence-like.
    trim_edges: bool = True
    #: A sentence-like block has at least this many non-link words and punctuation...
    edge_min_words: int = 10
    #: ...and at most this share of link words.
    edge_max_link_share: float = 0.3


def select(document: Document, params: AutoParams) -> Selection:
    """Choose the subtree of largest total block value, then prune inside it."""
    stats = document.stats
    regions = block_regions(stats)
    context = _context(stats, regions, params)
    headline = find_headline(document, regions) if params.drop_headline else -1
    values = block_values(stats, regions, context, headline, params)
    totals = stats.subtree_totals(values)
    root = max(range(len(totals)), key=totals.__getitem__)
    if totals[root] <= 0:
        return Selection(reason="no block of text looks like article content")
    excluded = _pruned(stats, regions, context, totals, root)
    if params.paragraph_parent:
        seed = paragraph_parent(regions, values)
        if not (stats.contains(root, seed) or stats.contains(seed, root)):
            seed_excluded = _pruned(stats, regions, context, totals, seed)
            if kept_value(stats, values, seed, seed_excluded) > kept_value(stats, values, root, excluded):
                root, excluded = seed, seed_excluded
    if params.trim_edges:
        excluded |= _edge_blocks(stats, regions, root, excluded, params)
    return Selection(nodes=(root,), score=totals[root], excluded=frozenset(excluded))


def paragraph_parent(regions: Regions, values: list[float]) -> int:
    """The block whose child blocks (grandchildren at half weight) hold the most value."""
    concentration = [value if value > 0 else 0.0 for value in values]
    parent_block = regions.parent_block
    for node, value in enumerate(values):
        if value > 0 and node:
            up = parent_block[node]
            concentration[up] += value
            if up > 0:
                concentration[parent_block[up]] += 0.5 * value
    return max(range(len(values)), key=concentration.__getitem__)


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


def _context(stats: DomStats, regions: Regions, params: AutoParams) -> list[int]:
    """For every node: cut (-2), weak boilerplate (-1) or plain (0), inherited downward."""
    tags, parent, words = stats.tags, stats.parent, stats.words
    limit = params.max_boilerplate_share * words[0]
    context = [_PLAIN] * len(tags)
    names: dict[str, int] = {}  # class/id strings repeat within a page: classify each once
    article_above = [-1] * len(tags)  # nearest <article> ancestor
    for node in range(1, len(tags)):
        up = parent[node]
        inherited = context[up]
        outer = article_above[node] = up if tags[up] == "article" else article_above[up]
        if inherited == _CUT or not NAME_MIN_WORDS <= words[node] < limit:
            context[node] = inherited  # near text-less nodes and page wrappers: no evidence
            continue
        if params.cut_nested_articles and tags[node] == "article" and outer >= 0:
            if words[node] < NESTED_ARTICLE_SHARE * words[outer]:
                context[node] = _CUT  # HTML: an inner article is related content or a comment
                continue
        if regions.is_block[node]:
            inherited = min(inherited, _own_context(stats, node, names, params))
        elif tags[node] == "span" and _own_context(stats, node, names, params) == _CUT:
            inherited = _CUT  # an inline part is only ever cut (a caption in a <span>)
        context[node] = inherited
    if params.cut_cards:
        shape = CardShape(params.card_max_words, params.card_min_link_words, params.max_boilerplate_share)
        for card in teaser_cards(stats, shape):
            for node in range(card, stats.end[card]):
                context[node] = _CUT
    return context


_NAME_CONTEXT = {NameClass.NOT_CONTENT: _CUT, NameClass.BOILERPLATE: _WEAK}


def _own_context(stats: DomStats, node: int, names: dict[str, int], params: AutoParams) -> int:
    tag = stats.tags[node]
    if params.cut_captions and tag in CAPTION_TAGS:
        return _CUT
    if not params.use_names:
        return _PLAIN
    if tag in REGION_TAGS:
        return _WEAK
    key = f"{stats.ids[node]} {stats.classes[node]}"
    if key not in names:
        names[key] = _NAME_CONTEXT.get(classify_names(key), _PLAIN) if key != " " else _PLAIN
    return names[key]


def find_headline(document: Document, regions: Regions) -> int:
    """NCE's title search: the first heading whose text is the page's headline, or -1."""
    title = " ".join(document.title.split()).lower()
    if not title:
        return -1
    stats = document.stats
    for node, tag in enumerate(stats.tags):
        if tag in HEADING_TAGS and 0 < stats.words[node] <= 40:
            text = " ".join(" ".join(stats.nodes[node].itertext()).split()).lower()
            if text == title or (len(text) > 10 and text in title):
                return node
    return -1


def block_values(
    stats: DomStats, regions: Regions, context: list[int], headline: int, params: AutoParams
) -> list[float]:
    """Value in words of every block's region (0 for non-blocks and cut parts)."""
    values = [0.0] * len(stats)
    keep = 1.0 - params.boilerplate_factor
    for node, (words, link_words, punct) in enumerate(
        zip(regions.words, regions.link_words, regions.punct)
    ):
        if not (words or link_words) or context[node] == _CUT:
            continue
        value = words - params.link_weight * link_words
        if not punct and stats.tags[node] not in HEADING_TAGS:
            value -= params.unpunctuated_penalty
        if node == headline:
            value = -1.0
        elif node < headline and params.before_headline_factor != 1.0 and not stats.contains(node, headline):
            value = value * params.before_headline_factor if value > 0 else value
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
