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
"""

from __future__ import annotations

from dataclasses import dataclass

from ..core._names import NameClass, classify_names
from ..core._stats import DomStats
from ..core._tags import HEADING_TAGS
from ..core._text import measure
from ..core._types import Document, Selection
from ._base import Algorithm
from ._blocks import CardShape, Regions, block_regions, teaser_cards

#: Tags of page regions that are usually not article text, like a weak boilerplate name.
REGION_TAGS = frozenset({"nav", "footer", "aside", "header"})
#: Tags that hold figures and their captions, never body text.
CAPTION_TAGS = frozenset({"figure", "figcaption", "caption"})

#: An inner ``<article>`` holding at least this share of the outer one's words is the
#: same article marked up twice, not a related one.
NESTED_ARTICLE_SHARE = 0.8

#: A block holding an image directly and at most this many words is a captioned picture.
IMAGE_BOX_WORDS = 30
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


def select(document: Document, params: AutoParams) -> Selection:
    """Choose the subtree of largest total block value, then prune inside it."""
    stats = document.stats
    regions = block_regions(stats)
    context = _context(stats, regions, params)
    headline = find_headline(document, regions) if params.drop_headline else -1
    values = block_values(stats, regions, context, headline, params)
    totals = stats.subtree_totals(values)
    root = totals.index(max(totals))  # the first of the best
    if totals[root] <= 0:
        return Selection(reason="no block of text looks like article content")
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
    if params.trim_edges:
        excluded |= _edge_blocks(stats, regions, root, excluded, params)
    return Selection(nodes=(root,), score=totals[root], excluded=frozenset(excluded))


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


def _context(stats: DomStats, regions: Regions, params: AutoParams) -> list[int]:
    """For every node: cut (-2), weak boilerplate (-1) or plain (0), inherited downward.

    Only nodes with some text and below the page-wrapper size carry evidence; they are
    visited in document order and their verdict is written over their whole subtree, so
    a part nested in an earlier one (a caption inside a sidebar) refines it.
    """
    tags, words, end, is_block = stats.tags, stats.words, stats.end, regions.is_block
    limit = params.max_boilerplate_share * words[0]
    context = [_PLAIN] * len(tags)
    names: dict[str, int] = {}  # class/id strings repeat within a page: classify each once
    candidates = [
        node
        for node, count in enumerate(words)
        if NAME_MIN_WORDS <= count < limit and (is_block[node] or tags[node] == "span")
    ]
    outer_articles = _outer_articles(stats) if params.cut_nested_articles else {}
    for node in candidates:
        current = context[node]
        if current == _CUT:
            continue
        outer = outer_articles.get(node)
        if outer is not None and words[node] < NESTED_ARTICLE_SHARE * words[outer]:
            verdict = _CUT  # HTML: an inner article is related content or a comment
        else:
            verdict = _own_context(stats, node, names, params)
            if not is_block[node] and verdict != _CUT:
                continue  # an inline part (a caption in a <span>) is only ever cut
        if verdict < current:
            context[node : end[node]] = [verdict] * (end[node] - node)
    if params.cut_image_boxes:
        for box in _image_boxes(stats, is_block):
            if context[box] != _CUT:
                context[box : end[box]] = [_CUT] * (end[box] - box)
    if params.cut_cards:
        shape = CardShape(params.card_max_words, params.card_min_link_words, params.max_boilerplate_share)
        for card in teaser_cards(stats, shape):
            context[card : end[card]] = [_CUT] * (end[card] - card)
    return context


def _image_boxes(stats: DomStats, is_block: list[bool]) -> list[int]:
    """Small blocks that hold an image as a direct child: a picture and its caption."""
    tags, parent, words = stats.tags, stats.parent, stats.words
    images = [node for node, tag in enumerate(tags) if tag == "img"]
    return [
        parent[image]
        for image in images
        if parent[image] > 0 and is_block[parent[image]] and words[parent[image]] <= IMAGE_BOX_WORDS
    ]


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


_NAME_CONTEXT = {NameClass.NOT_CONTENT: _CUT, NameClass.BOILERPLATE: _WEAK}


def _own_context(stats: DomStats, node: int, names: dict[str, int], params: AutoParams) -> int:
    tag = stats.tags[node]
    if params.cut_captions and tag in CAPTION_TAGS:
        return _CUT
    if not params.use_names:
        return _PLAIN
    if tag in REGION_TAGS:
        return _WEAK
    element = stats.nodes[node]
    verdict = _PLAIN
    for name in (element.get("class"), element.get("id")):
        if name:  # cached per page: class strings repeat a lot
            known = names.get(name)
            if known is None:
                known = names[name] = _NAME_CONTEXT.get(classify_names(name), _PLAIN)
            verdict = min(verdict, known)
    return verdict


def find_headline(document: Document, regions: Regions) -> int:
    """NCE's title search: the first heading whose text is the page's headline, or -1."""
    title = " ".join(document.title.split()).lower()
    if not title:
        return -1
    stats = document.stats
    longest = measure(title)[1] + 1  # a heading with more words cannot be the title
    for node in [node for node, tag in enumerate(stats.tags) if tag in HEADING_TAGS]:
        if 0 < stats.words[node] <= longest:
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
