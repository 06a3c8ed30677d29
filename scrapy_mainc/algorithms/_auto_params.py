"""The parameters of ``auto`` (:mod:`.auto`), in their own module: the block context
(:mod:`._context`) and the story checks (:mod:`._story`) read them too, and import them
from here, so that imports point one way (parameters <- checks <- ``auto``)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any


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


#: ``favor`` presets: overrides of :class:`AutoParams` that tilt ``auto`` towards less
#: boilerplate (``precision``) or more of the article (``recall``); ``balanced`` is the
#: tuned default. Measured on the development sets: docs/benchmarks.md, "favor".
FAVOR_PRESETS: Mapping[str, Mapping[str, Any]] = MappingProxyType(
    {
        # boilerplate weighs more: unpunctuated blocks (bylines, labels, menus) lose twice
        # the value, blocks in named boilerplate regions keep a quarter of theirs, link
        # words count one and a half, and the edges keep only blocks of 15 words or more
        "precision": MappingProxyType(
            {
                "unpunctuated_penalty": 16.0,
                "boilerplate_factor": 0.25,
                "link_weight": 1.5,
                "edge_min_words": 15,
            }
        ),
        "balanced": MappingProxyType({}),
        # content weighs more: unpunctuated blocks lose half as much, named regions keep
        # three quarters, edges are not trimmed, captions and picture boxes are kept
        "recall": MappingProxyType(
            {
                "unpunctuated_penalty": 4.0,
                "boilerplate_factor": 0.75,
                "trim_edges": False,
                "cut_captions": False,
                "cut_image_boxes": False,
            }
        ),
    }
)


def favor_overrides(favor: str) -> Mapping[str, Any]:
    """The :class:`AutoParams` overrides of ``favor``; a ValueError names the valid ones."""
    try:
        return FAVOR_PRESETS[favor]
    except (KeyError, TypeError):
        raise ValueError(f"unknown favor {favor!r}; valid: {', '.join(FAVOR_PRESETS)}") from None
