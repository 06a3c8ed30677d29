"""The parameters of ``auto`` (:mod:`.auto`), in their own module: the block context
(:mod:`._context`), the story checks (:mod:`._story`) and the refinements of the choice
(:mod:`._refine`) read them too, and import them from here, so that imports point one
way (parameters <- checks <- ``auto``).

Each field's comment says what it means and where its value comes from: a paper, the HTML
standard, a sweep or a measurement on the development sets, or the shape of hand-built
test pages. The evidence is in docs/ablation.md: the table ``benchmarks/quality/ablation.py``
writes (each rule switched off, on every development set, and the pages it moves) and the
dated records of the sweeps that chose the values. Switches exist so that the ablation can
turn each rule off.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any


@dataclass(frozen=True, slots=True)
class AutoParams:
    """Parameters of ``auto``; values tuned on the shared development datasets."""

    # -- the page's type (:mod:`._page_type_params`) ------------------------------------
    #: Apply the page type's preset (a forum's posts, a listing's links...): issue 33's
    #: records, measured by the ablation's page-type rows.
    by_page_type: bool = True
    #: Parameters set explicitly (by the caller or ``favor``), which a page type's preset
    #: leaves as given. Set by :func:`scrapy_mainc.extract`.
    pinned: frozenset[str] = frozenset()

    # -- block values -------------------------------------------------------------------
    #: Value of a link word against a non-link word (1: a block is worth its non-link words
    #: minus its link words; CoreEx's and NCE's link density).
    link_weight: float = 1.0
    #: Words of value a block without any period or comma loses (ECON's signal: a byline, a
    #: label; headings exempt). Swept on the four sets.
    unpunctuated_penalty: float = 7.0
    #: Fewest words outside links (with a period or comma) of a sentence-like block: one short
    #: sentence, more than a byline, label or menu item. Read by the edges and the story checks.
    sentence_min_words: int = 10
    #: A positive choice with fewer words is checked against the choice made without the
    #: punctuation penalty (a page in short lines). Swept; 0: off.
    penalty_recheck_words: int = 800
    #: ...which wins by lying elsewhere, or by keeping this many times the words when it only
    #: widens or narrows the old choice. Swept.
    penalty_recheck_gain: float = 2.0
    #: ...and never with more than this share of its words in links (a listing of teasers is no
    #: story in short lines). Measured on the development pages.
    recheck_max_link_share: float = 0.2

    # -- what the markup says (:mod:`._context`) ----------------------------------------
    #: Share of their positive value kept by blocks in weakly named boilerplate regions (nav,
    #: sidebar, footer...); negative values grow by the same share. Measured by the ablation.
    boilerplate_factor: float = 0.5
    #: Cut an ``<article>`` nested in one with more words of its own: comments or related
    #: content by the HTML standard's definition.
    cut_nested_articles: bool = True
    #: Cut overlays (``<dialog>``, ``role=dialog``/``alertdialog``: consent prompts, sign-up
    #: walls) unless they hold the headline. For its golden pages. Preparation empties
    #: the closed ones first, for every algorithm (:mod:`scrapy_mainc.core._dom`): this
    #: cuts those it leaves, an open ``<dialog>``.
    cut_overlays: bool = True
    #: Read class/id names and region tags (:mod:`scrapy_mainc.core._class_names`).
    use_names: bool = True
    #: Read only the classes of an element whose ``id`` spells its first heading (an outline's
    #: anchor made by a documentation generator), beside others made the same way.
    ignore_heading_ids: bool = True
    #: Parts with fewer words are not read for names, roles or tags (a button, a label).
    #: Swept.
    name_min_words: int = 5
    #: Never cut the page's story for its name, overlay role or nesting: the headline's
    #: container, or a part holding most of the page's prose (below).
    keep_story_container: bool = True
    #: ...more than this share of the page's sentence-like blocks outside comments. Measured on
    #: the development pages' named parts.
    wrapper_prose_share: float = 0.5
    #: ...and at least this many of them (one sentence-like paragraph is a caption or a
    #: teaser).
    wrapper_min_prose: int = 2
    #: Keep a photo story's captions: alike parts cut for their tag or name, each with a
    #: sentence-like block, that hold most of the page's prose outside them.
    keep_photo_story: bool = True
    #: ...at least this many of them (three pictures make a gallery). Swept.
    photo_story_min_parts: int = 3
    #: Cut parts hidden by the utility class ``hidden`` (a script shows one of them: an
    #: appeal's variants, a form's messages). Measured by the ablation.
    cut_hidden_class: bool = True
    #: Cut figures and captions...
    cut_captions: bool = True
    #: ...but not a ``<figure>`` holding a ``<table>`` (the standard's figure is any unit the
    #: text refers to; WordPress wraps every table in one). Measured by the ablation.
    keep_table_figures: bool = True
    #: Cut small blocks that hold an image and a caption (never a ``<p>`` holding a sentence)...
    cut_image_boxes: bool = True
    #: ...of at most this many words (a caption of two sentences). Swept.
    image_box_words: int = 30
    #: Cut teaser-card lists (:func:`._blocks.teaser_cards`).
    cut_cards: bool = True
    #: A teaser card has at most this many words (a headline and a sentence or two)...
    card_max_words: int = 80
    #: ...and a link headline of at least this many words...
    card_min_link_words: int = 3
    #: ...or of this many when the card's text, or a link's, ends in an ellipsis ("... Read
    #: more..."). 3 turns it off. Measured by the ablation.
    card_short_link_words: int = 2
    #: ...that is a block of its own (no more words outside links than in them), not a link
    #: inside a sentence.
    card_link_headline: bool = True
    #: Keep one post of a run of posts each dated on a line of its own, on two days or more (a
    #: blog's front page): the headline's, else the first (``_refine.first_post``).
    first_post: bool = True
    #: ...of at least this many alike siblings (same tag and class)...
    post_min_count: int = 3
    #: ...each with at least this many words outside links. With ``post_min_count``, the shape
    #: of the hand-built pages (tests/test_refine.py): neither moves a development set.
    post_min_words: int = 60
    #: An item of a list (inline markup only) opening with a link headline and ending its
    #: summary with an ellipsis is a card too (a news ticker). Measured by the ablation.
    card_truncated_summary: bool = True
    #: A teaser list has at least this many alike siblings (same tag and class), and this
    #: many cards among them...
    card_min_alike: int = 3
    #: ...a card has at least this many words outside links (a sentence of teaser)...
    card_min_own_words: int = 5
    #: ...and at least this share of the siblings are cards. With the two above, the shape of
    #: the hand-built lists (tests/test_auto.py): none moves a development set.
    card_min_share: float = 0.6
    #: Cards with this many words of their own or more on average (outside links) are
    #: described items, not teasers: a "best of" roundup's products, each with its name,
    #: price and a paragraph, are the article. 0: no limit. Chosen among 40, 50, 60 and
    #: none on four site-grouped folds of the development sets, measured on the fifth
    #: (docs/benchmarks.md, "Lost pages by mechanism", item 11).
    card_max_mean_own_words: int = 50
    #: A named container or card list holding at least this share of the page's words is a
    #: layout wrapper, not boilerplate: its names are ignored.
    max_boilerplate_share: float = 0.5

    # -- the choice (:mod:`.auto`) ------------------------------------------------------
    #: Take the densest paragraph parent as the root when it lies outside the subtree of
    #: largest total and keeps more value (layout tables). Measured by the ablation.
    paragraph_parent: bool = True
    #: Weight of grandchild blocks in the paragraph parent's concentration (children 1).
    #: Swept.
    grandchild_weight: float = 0.5
    #: Leave out the headline (NCE's title search finds it; it is ``Extraction.title``).
    drop_headline: bool = True
    #: Narrow the root to the largest element inside it marked ``itemprop="articleBody"``...
    use_body_markup: bool = True
    #: ...when it holds at least this share of the root's value (markup around a summary does
    #: not cut a long article short).
    body_markup_share: float = 0.25
    #: Narrow the root to the only ``<article>`` inside it (the HTML standard's
    #: self-contained composition)...
    use_article_element: bool = True
    #: ...when it holds at least this share of the root's value (a teaser marked as an article
    #: inside a story holds less). Swept.
    article_share: float = 0.15

    # -- refinements of the chosen root (:mod:`._refine`) --------------------------------
    #: Trim leading and trailing blocks that are not sentence-like...
    trim_edges: bool = True
    #: ...with at most this share of link words.
    edge_max_link_share: float = 0.3
    #: A block of at least this many words outside links is sentence-like even without a
    #: period or comma (four short sentences). Swept.
    edge_long_words: int = 40
    #: An edge is trimmed only when its run of such blocks holds at most this many words
    #: outside links (a CJK character counts half): a longer run is a list of the text. Swept.
    edge_max_words: int = 25
    #: ...and at the start only lines of text count in that run: this many words outside
    #: links at least (CJK half), most of them unlinked; four, above a label's one to three
    #: words (``lead_in_min_words``); 0 counts every line (before issue 41). docs/auto.md.
    lead_line_min_words: int = 4
    #: The story starts at its headline: leading blocks before it inside the root that are
    #: not sentence-like (a menu, hot searches, a banner) are trimmed on every page type.
    trim_before_headline: bool = True
    #: ...except a leading heading without links: the title of the story's first section.
    keep_leading_headings: bool = True
    #: ...and a leading line written as a sentence of at least this many words (a short news
    #: lede, not a byline); only at the start. 0: off. Swept.
    lead_sentence_words: int = 8
    #: ...with at most this share of its words in links (a lede links its names).
    lead_sentence_link_share: float = 0.6
    #: Keep a short line that pruning dropped between kept prose (or a heading and prose) when
    #: it is written as a subheading: all bold or italic, or ending in a colon or question mark...
    keep_subheadings: bool = True
    #: ...of at most this many words. Swept.
    subheading_max_words: int = 12
    #: A line kept between a heading and a paragraph (a section's lead-in) has at least this
    #: many words (labels there have one to three). Measured by the ablation.
    lead_in_min_words: int = 4
    #: Add the sentence-like blocks between the headline and the root to the choice when they
    #: are many or long (below): the story starts before the root.
    story_start: bool = True
    #: ...at least this many blocks (a standfirst is one)...
    story_start_min_blocks: int = 3
    #: ...or together this share of the root's words (the root is the second half of a short
    #: story). Measured on the development pages.
    story_start_min_share: float = 0.5
    #: Drop a part of the choice whose text, as shown and as kept, is an earlier part's (a page
    #: laid out twice for two screens, a carousel's clones). Measured by the ablation.
    drop_repeats: bool = True
    #: ...a part of at least this many blocks...
    repeat_min_blocks: int = 2
    #: ...and this many words, links included. Swept.
    repeat_min_words: int = 20

    # -- second opinion: the page's story (:mod:`._story`, :mod:`._notices`) -------------
    #: Check that the choice is the page's story (:mod:`._story`): parts that are another story
    #: are cut; a choice that is all another story gives way. Measured by the ablation.
    check_story: bool = True
    #: ...and the same for legal, cookie, consent and privacy notices (:mod:`._notices`).
    check_notices: bool = True
    #: The choice splits where no child holds this share of its value (a child holding more is
    #: a wrapper: :func:`._story.split_node`). Swept.
    split_wrapper_share: float = 0.9
    #: A part that may be another story or a notice holds at least this share of the value
    #: where the choice splits...
    story_part_share: float = 0.25
    #: ...a part that may be a legal notice, this share...
    notice_part_share: float = 0.1
    #: ...and at least this many words of value (also the least story between the headline
    #: and a choice elsewhere).
    story_min_words: float = 30.0
    #: The page's story covers at least this share of its headline's terms...
    story_min_coverage: float = 0.4
    #: ...and another story at least this much less.
    story_gap: float = 0.3
    #: A part of at least this many sections (``<h2>`` to ``<h4>``; 0: off)...
    guide_min_sections: int = 8
    #: ...holding at least this many sentence-like blocks...
    guide_min_prose: int = 10
    #: ...with at most this share of its words in links is a long guide's body, not another
    #: story (:func:`._story.long_body`). The three swept together.
    guide_max_link_share: float = 0.15
    #: A part after the headline's, under one heading, that prose of the choice follows is one
    #: of the story's sections, not another story (:func:`._story.inner_section`).
    keep_inner_sections: bool = True

    # -- a page of items or sections (page-type presets turn it on) ---------------------
    #: When the choice keeps this many times fewer words than the page-density choice
    #: (CECTD-DS), that choice is taken (one item of a page of items). 0: off; presets set 6.
    density_rescue_ratio: float = 0.0
    #: On a page of sections, a root whose parent keeps this share more value after
    #: pruning (the root's sibling sections score positive) is one section of them: the
    #: parent is taken, and its parent checked the same way (:func:`.auto.widened`).
    #: 0: off; the documentation and service presets set it.
    section_widen_gain: float = 0.0
    #: On a page of items, an item's blocks without punctuation (a product's name, its
    #: price, a teaser's date) lose ``unpunctuated_penalty`` once, the item's, not once
    #: each: items are ``card_min_alike`` alike siblings of at most this many words
    #: (:func:`._blocks.alike_items`). 0: off; the listing and collection presets set 20,
    #: chosen on site-grouped folds (``_page_type_params.ITEM_MAX_WORDS``).
    item_max_words: int = 0
    #: On a thread, a root outside a run of posts (``post_min_count`` alike siblings, each
    #: with a block worth ``sentence_min_words``) widens to take the run in, and pruning
    #: keeps every post's sentences, not only its labels' total (:func:`.auto.with_replies`).
    #: The forum preset turns it on.
    thread_posts: bool = False

    # -- when nothing scores ------------------------------------------------------------
    #: When no block scores positive, fall back to the subtree with the most words outside
    #: links (a short notice)...
    fallback: bool = True
    #: ...if it has at least this many such words (one short sentence).
    fallback_min_words: int = 5


#: ``favor`` presets: overrides of :class:`AutoParams` that tilt ``auto`` towards less
#: boilerplate (``precision``) or more of the article (``recall``); ``balanced`` is the
#: tuned default. Measured on the development sets: docs/benchmarks.md, "favor".
FAVOR_PRESETS: Mapping[str, Mapping[str, Any]] = MappingProxyType(
    {
        # boilerplate weighs more: unpunctuated blocks (bylines, labels, menus) lose 16
        # words of value (the default 7), blocks in named boilerplate regions keep a quarter of theirs, link
        # words count one and a half, and a sentence-like block (kept at the edges, read by
        # the story checks) needs 15 words
        "precision": MappingProxyType(
            {
                "unpunctuated_penalty": 16.0,
                "boilerplate_factor": 0.25,
                "link_weight": 1.5,
                "sentence_min_words": 15,
            }
        ),
        "balanced": MappingProxyType({}),
        # content weighs more: unpunctuated blocks lose 4 words of value, named regions keep
        # three quarters, edges are not trimmed (nor what comes before the headline),
        # captions and picture boxes are kept
        "recall": MappingProxyType(
            {
                "unpunctuated_penalty": 4.0,
                "boilerplate_factor": 0.75,
                "trim_edges": False,
                "trim_before_headline": False,
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
