"""The parameters of ``auto`` (:mod:`.auto`), in their own module: the block context
(:mod:`._context`), the story checks (:mod:`._story`) and the refinements of the choice
(:mod:`._refine`) read them too, and import them from here, so that imports point one
way (parameters <- checks <- ``auto``).

Every threshold says where its value comes from: a paper, a sweep on the development
sets (``benchmarks/ablation.py`` and the sweeps noted here), or a kind of page measured
on them. Switches exist so that the ablation table can turn each signal off.
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
    #: Apply the page type's preset (a forum's posts, a listing's links...).
    by_page_type: bool = True
    #: Parameters set explicitly (by the caller or ``favor``): a page type's preset
    #: leaves them as given. Set by :func:`scrapy_mainc.extract`.
    pinned: frozenset[str] = frozenset()

    # -- block values -------------------------------------------------------------------
    #: Value of a link word against a non-link word (1: a block is worth its non-link
    #: words minus its link words).
    link_weight: float = 1.0
    #: Words of value a block without any period or comma loses (ECON's signal): a short
    #: byline or label. Headings are exempt: subheadings carry no punctuation. Swept over
    #: 6 to 9 on the four sets (F1 / mean page F1 / lost): 7 is the best on
    #: trafilatura_eval (0.9343 / 0.9316 / 4, against 0.9315 / 0.9276 / 5 with 8), ties
    #: or gains on the other three (scrapinghub 0.9725 / 0.9702 / 0 against 0.9721 /
    #: 0.9698 / 0); 6 gains less there, 9 loses on newspaper4k and trafilatura_eval.
    unpunctuated_penalty: float = 7.0
    #: A sentence-like block (prose) has at least this many words outside links and a
    #: period or comma: ten words is one short sentence, more than any byline, label or
    #: menu item. Edge trimming, the story checks and the story's start read it.
    sentence_min_words: int = 10
    #: A choice (a positive one, not the fallback) that keeps fewer words than this is
    #: checked against the choice made without the punctuation penalty, which wins when it
    #: lies in another region of the page or keeps ``penalty_recheck_gain`` times the words:
    #: on a page written in short lines (a product sheet, a gift list, a notice, a photo
    #: story's captions), 8 words a line outweigh the lines they were meant to demote, and
    #: a bio or a teaser wins. Swept over 100, 150, 250, 400, 800, 1,500 and unbounded: no
    #: page of the four sets is worse at any of them, 800 and 1,500 score the same, and
    #: unbounded gains one more page for 6% more time (4% at 800). 0 turns it off.
    penalty_recheck_words: int = 800
    #: ...twice the words when the new choice only widens (or narrows) the old one: a few
    #: more short lines are no reason to change (swept over 1.5, 2 and 3: 2 and 1.5 score
    #: the same, with one page fewer made worse at 2; 3 loses one better page).
    penalty_recheck_gain: float = 2.0
    #: ...and never a choice with more than this share of its words in links: a listing
    #: of teasers (a linked headline above each excerpt) is no story in short lines. The
    #: switches that help on the development pages keep at most 0.16 of their words in
    #: links; the example site's section page, a listing, 0.28.
    recheck_max_link_share: float = 0.2

    # -- what the markup says (:mod:`._context`) ----------------------------------------
    #: Share of their positive value kept by blocks inside weakly named boilerplate
    #: regions (nav, sidebar, footer...); their negative values grow by the same share.
    boilerplate_factor: float = 0.5
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
    #: An ``id`` that spells the first heading inside its element, beside a section whose
    #: ``id`` spells its own heading and names nothing, is an outline's anchor made from
    #: the title by a documentation generator ("more-on-lists" over "5.1. More on Lists",
    #: beside "the-del-statement"): it names no part of the layout, and only the classes
    #: are read. A box that labels itself ("related-posts" over "Related posts") beside
    #: other parts keeps its name. One WCXB documentation page moves (0.68 -> 1.00).
    ignore_heading_ids: bool = True
    #: Parts with fewer words are not read for names, roles or tags: what they hold barely
    #: counts (a button, a label), and most elements of a page are that small. Swept over
    #: 3, 5 and 8: 3 scores the same, 8 loses 0.001 on trafilatura_eval.
    name_min_words: int = 5
    #: Never cut the page's story for its name, overlay role or nesting: the container of
    #: the headline (a WordPress ``tag-cookies`` class on it), and, against its name, a part
    #: holding more than ``wrapper_prose_share`` of the page's sentence-like blocks outside
    #: reader comments, at least ``wrapper_min_prose`` of them (a theme writes its share
    #: widget into the article's class: ``entry themeform share``)...
    keep_story_container: bool = True
    #: ...more than half: measured on the development pages, of the 184 parts named as not
    #: content with two or more sentence-like blocks, the three whose text is gold hold
    #: 0.57 to 0.75 of the page's outside comments (0.46 of all: a comment thread
    #: outweighed a short post); of the others, none more than half (a footer disclaimer
    #: 0.5, a cookie dialog 0.47)...
    wrapper_prose_share: float = 0.5
    #: ...(two blocks: one sentence-like paragraph is a caption or a teaser).
    wrapper_min_prose: int = 2
    #: Keep the captions of a photo story: alike parts (same tag and class) cut for their
    #: tag or name (captions, a "read more" expansion of each picture's text), each holding
    #: a sentence-like block, that together hold more than ``wrapper_prose_share`` of the
    #: sentence-like blocks the page shows outside its other cut parts and comments. Three
    #: lost galleries on the development sets (0.00 -> 0.90, 0.00 -> 1.00, 0.50 -> 1.00),
    #: no page worse...
    keep_photo_story: bool = True
    #: ...at least this many of them (three pictures make a gallery; 2, 4 and 5 give the
    #: same figures on the four sets).
    photo_story_min_parts: int = 3
    #: Cut parts hidden by the utility class ``hidden`` (a script shows one of them: a
    #: donation appeal's variants, a form's messages). On the four sets: newspaper4k lost
    #: pages 9 -> 7, two scrapinghub pages 0.88 -> 0.93; one trafilatura_eval page 1.00 ->
    #: 0.86 (its newsletter form, without its hidden messages, fell below the story check's
    #: ``story_min_words``).
    cut_hidden_class: bool = True
    #: Cut figures and captions...
    cut_captions: bool = True
    #: ...but not a ``<figure>`` that holds a ``<table>``: the HTML standard's figure is
    #: any unit the text refers to, and WordPress wraps every table in one
    #: (``wp-block-table``); a table is the page's data, kept as tables outside figures
    #: are. On WCXB seven articles gain (0.03 to 0.50: ranked lists, a company ranking),
    #: none loses; on newspaper4k one review loses 0.11 (its gold leaves out the spec
    #: tables), no other page of the four sets moves.
    keep_table_figures: bool = True
    #: Cut small blocks that hold an image and a caption (never a ``<p>`` holding a
    #: sentence: an image floated at the start of a paragraph is part of it)...
    cut_image_boxes: bool = True
    #: ...of at most this many words: a caption of two sentences. Swept over 20, 30 and 40:
    #: 40 scores the same; 20 loses 0.001 on scrapinghub for one trafilatura_eval page.
    image_box_words: int = 30
    #: Cut teaser-card lists.
    cut_cards: bool = True
    #: A teaser card has at most this many words (a headline and a sentence or two)...
    card_max_words: int = 80
    #: ...and a link headline of at least this many words...
    card_min_link_words: int = 3
    #: ...or of this many when the card's text, or a link's, is cut short by an ellipsis
    #: ("... <a>Read more...</a>"). On the four sets it moves one trafilatura_eval page
    #: 0.86 -> 1.00 (cards ending in a two-word "read more..." link) and no other. Two words
    #: alone also cut a story's list of people, each a linked name and a sentence, and a
    #: table of contents; a thumbnail linked to the name's address as evidence too (one
    #: scrapinghub page 0.91 -> 1.00) cut the same list of people with portraits (review).
    #: 3 turns it off.
    card_short_link_words: int = 2
    #: ...that is a block of its own (no more words outside links than in them), not a
    #: link inside a sentence: the paragraphs of an article each wrapped in an alike
    #: container, with a link in the sentence, are not cards.
    card_link_headline: bool = True
    #: When the root holds a run of posts, each dated on a line of its own near its start,
    #: on two days or more (a blog's front page, an archive of full posts), keep one post:
    #: the one that shows the page's headline, else the first, the newest
    #: (``_refine.first_post``; the gold of such pages is the first post). No run: entries
    #: under a headline of the page's own outside them (a live blog, a timeline, a forum
    #: thread), a post followed by dated comments, one day's stamps, dates in sentences or
    #: leading them ("May 1, 2019:"); tests/test_refine.py. Added 2026-11-26: zh_news's two
    #: lost pages 0.09 and 0.16 -> 1.00 (one blog's front pages), no page of the other sets
    #: changes...
    first_post: bool = True
    #: ...of at least this many alike siblings (same tag and class)...
    post_min_count: int = 3
    #: ...each with at least this many words outside links. Neither threshold moves a
    #: development set (swept: 2 posts; 30 or 150 words): they are the shape of the
    #: hand-built pages.
    post_min_words: int = 60
    #: An item of a list that opens with a link headline and ends its summary with an
    #: ellipsis is a card too, inline markup only ("<li><a>Headline</a> <span>The first
    #: words of the story...</span></li>": a news ticker, a "latest stories" list): a
    #: summary cut short is a teaser's. Added 2026-11-26: one scrapinghub page 0.56 -> 1.00
    #: (a "breaking news" list at the top of the story's column), no other page of the
    #: four sets changes.
    card_truncated_summary: bool = True
    #: A teaser list has at least this many alike siblings (same tag and class), and at
    #: least this many cards among them: two teasers are a pair, not a list...
    card_min_alike: int = 3
    #: ...a card has at least this many words outside links (a sentence of teaser)...
    card_min_own_words: int = 5
    #: ...and at least this share of the alike siblings are cards. The three card
    #: thresholds move no development set (swept: 4 siblings; 3 or 8 own words; a share
    #: of 0.5 or 0.75): they are the shape of the hand-built lists in tests/test_auto.py.
    card_min_share: float = 0.6
    #: A named container or card list with at least this share of the page's words is a
    #: layout wrapper, not boilerplate: names there are ignored.
    max_boilerplate_share: float = 0.5

    # -- the choice (:mod:`.auto`) ------------------------------------------------------
    #: When the densest paragraph parent lies outside the subtree of largest total and
    #: keeps more value after pruning, it is the root (layout tables mix paragraphs and
    #: boilerplate as siblings, so no single subtree holds the article cleanly).
    paragraph_parent: bool = True
    #: Weight of grandchild blocks in the paragraph parent's concentration (children 1;
    #: 0.25 and 0.75 score the same on the development sets).
    grandchild_weight: float = 0.5
    #: Leave out the headline (NCE's title search finds it; it is ``Extraction.title``).
    drop_headline: bool = True
    #: Narrow the root to the largest element inside it marked ``itemprop="articleBody"``...
    use_body_markup: bool = True
    #: ...when that element holds at least this share of the root's value (markup around
    #: a summary or a teaser does not cut a long article short).
    body_markup_share: float = 0.25
    #: Narrow the root to the only ``<article>`` inside it (the HTML standard's element for
    #: a self-contained composition: the story, where the root also holds a product list,
    #: a gallery or a feed of other things)...
    use_article_element: bool = True
    #: ...when that element holds at least this share of the root's value (a teaser marked
    #: as an article inside a story holds less). Swept over 0.1, 0.15, 0.2, 0.3 and 0.5:
    #: 0.1 and 0.15 are best and equal; from 0.2 a roundup page is lost whose product list
    #: outweighs its article four to one; no page is better at a higher value.
    article_share: float = 0.15

    # -- refinements of the chosen root (:mod:`._refine`) --------------------------------
    #: Trim leading and trailing blocks that are not sentence-like (at most
    #: ``edge_max_link_share`` of their words in links)...
    trim_edges: bool = True
    #: ...at most this share of link words.
    edge_max_link_share: float = 0.3
    #: A block of at least this many words outside links is sentence-like even without a
    #: period or comma (four short sentences: a block that long is no byline or label).
    #: Swept over 30, 40 and 60: 30 loses 0.001 and 60 0.002 on trafilatura_eval.
    edge_long_words: int = 40
    #: An edge is trimmed only when its run of such blocks holds at most this many words
    #: outside links (a CJK character counts half a word): a byline, a dateline, a share
    #: bar, a few tags. A longer run of short lines is a list of the text (a table of
    #: brands, the names of a project's sponsors). Swept over 15, 20, 25, 30, 40, 50, 60,
    #: 80, 150 and no limit: 25 is best on every set (against no limit: WCXB articles
    #: +0.0007, scrapinghub +0.001, four pages up by 0.12 to 0.16 and none down); from 40
    #: up a scrapinghub page loses 0.11, at 20 and 15 trafilatura_eval loses two and six
    #: pages by 0.14 to 0.25.
    edge_max_words: int = 25
    #: ...except a leading heading without links: the title of the story's first section.
    keep_leading_headings: bool = True
    #: ...and a leading line written as a sentence of at least this many words (capital
    #: first, full stop last): a short news lede, not a byline. Only at the start: at the
    #: end such lines are as often a call to follow or subscribe ("Get local news
    #: delivered to your inbox!"), which lost 0.25 and 0.14 on two trafilatura_eval pages.
    #: 6 and 8 move the same pages (newspaper4k +0.002, four pages up by 0.04 to 0.08; one
    #: trafilatura_eval page +0.20; no page down); 8 is further from datelines. 0: off.
    lead_sentence_words: int = 8
    #: ...with at most this share of its words in links (a lede links its names).
    lead_sentence_link_share: float = 0.6
    #: Keep a short line between two kept sentence-like blocks, or between a kept heading
    #: and a kept sentence-like block (a section's lead-in), that pruning dropped (its
    #: value is negative: no punctuation) when it is written as a subheading: all of it
    #: bold or italic, or ending with a colon or a question mark...
    keep_subheadings: bool = True
    #: ...and has at most this many words (a subheading is a line; 12 is the sweep's
    #: best of 8, 12 and 20 on the development sets).
    subheading_max_words: int = 12
    #: A line kept between a heading and a paragraph (a section's lead-in: "Consider the
    #: following example:") has at least this many words: the labels a page sets there
    #: have one to three ("Advertisement", "Share this:", "Sponsored content", "Story
    #: continues below"; a review's probes). On the four sets 4 keeps the lead-ins of 2
    #: scrapinghub and 3 trafilatura_eval pages; three shorter ones stay out ("Vivy-App",
    #: "Avertissement", "Einige Beispieleinträge:"), which moves no page F1 by 0.005.
    lead_in_min_words: int = 4
    #: The story starts before the root when sentence-like blocks lie between the
    #: headline and the root: at least ``story_start_min_blocks`` of them, or together
    #: at least ``story_start_min_share`` of the root's words. They are added to the
    #: choice (a single standfirst is left out: the gold of one development set counts
    #: it as article text and another's does not)...
    story_start: bool = True
    #: ...three blocks (a standfirst is one block; the development pages where more sat
    #: between headline and root are all truncated stories)...
    story_start_min_blocks: int = 3
    #: ...or half the root's words (the root is then the second half of a short story:
    #: the standfirsts of the development pages are at most 0.4 of their root).
    story_start_min_share: float = 0.5
    #: Drop a part of the choice whose text is the same as an earlier part's, word for
    #: word, both as shown and as kept (pruned alike): a page laid out twice for two
    #: screen sizes (one copy hidden by the style sheet, which the page's text does not
    #: show), a carousel's cloned slides. A song's chorus in lines of their own is kept
    #: once. A part is a container of at least ``repeat_min_blocks`` blocks and
    #: ``repeat_min_words`` words (links included): a single paragraph or line said twice
    #: (a quote in a reply, a footnote repeated under each offer) is the page's own text.
    #: On WCXB 43 pages gain and 7 lose (golds that keep both copies of an API reference's
    #: parameters); no page of the four article sets moves (docs/benchmarks.md,
    #: ablation)...
    drop_repeats: bool = True
    #: ...two blocks (one: WCXB +0.001 more, but a scrapinghub recipe loses 0.15, its
    #: ingredient line repeated under each meal)...
    repeat_min_blocks: int = 2
    #: ...and twenty words (ten: WCXB listings +0.002, every other figure within 0.001).
    repeat_min_words: int = 20

    # -- second opinion: the page's story (:mod:`._story`, :mod:`._notices`) -------------
    #: Check that the choice is the page's story (:mod:`._story`): parts of it that are
    #: another story are cut, and a choice that is entirely another story gives way to
    #: the best choice without it...
    check_story: bool = True
    #: ...and the same for legal, cookie, consent and privacy notices (:mod:`._notices`).
    check_notices: bool = True
    #: The choice splits where no child holds this share of its value: a child holding
    #: more is all there is, a wrapper (:func:`._story.split_node`). Swept over 0.8, 0.9
    #: and 0.95: 0.8 loses a scrapinghub page (-0.003) and 0.001 on zh_news, 0.95 a
    #: newspaper4k page (-0.004) and 0.002 on trafilatura_eval.
    split_wrapper_share: float = 0.9
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
    #: A part of at least this many sections (``<h2>`` to ``<h4>`` headings)...
    #: (0: off)
    guide_min_sections: int = 8
    #: ...holding at least this many sentence-like blocks...
    guide_min_prose: int = 10
    #: ...with at most this share of its words in links is the body of a long guide or a
    #: roundup ("The best laptops": a section for each), not another story, though its
    #: sections open with headings of their own (:func:`._story.long_body`). Swept: 8
    #: sections and 10 blocks move six WCXB articles up by 0.15 to 0.79 and no page of any
    #: set down; 5 sections add a recipe (+0.50); 5 blocks lose a product page's footer
    #: (-0.32, 8 blocks); 4 sections and 5 blocks lose two trafilatura_eval pages (a
    #: blog's next post of 4 sections, 0.25; another of 7 sections and 9 blocks, 0.20).
    guide_max_link_share: float = 0.15
    #: A part after the headline's, under one heading (no ``<h1>``), no ``<article>``,
    #: ``<aside>`` or overlay, that a sentence-like block of the choice follows (in a part
    #: not cut itself) is one of the story's sections, not another story: an appended
    #: story (the next post, a promoted feature, a contact box) ends the choice's text
    #: (:func:`._story.inner_section`). Four WCXB pages up by 0.13 to 0.20, none down on
    #: any set.
    keep_inner_sections: bool = True

    # -- a page of items or sections (page-type presets turn it on) ---------------------
    #: When the choice keeps fewer words than the page-density choice (CECTD-DS, the
    #: whole page's densest region) by this factor, that choice is taken: on a page of
    #: items or sections, a choice that small is one item or one section. 0: off (an
    #: article's text is often a small part of a page of boilerplate, which the density
    #: takes in). Measured on WCXB's non-article pages (docs/benchmarks.md): 6 is the best
    #: of 3, 4, 6, 8 and 12.
    density_rescue_ratio: float = 0.0

    # -- when nothing scores ------------------------------------------------------------
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
