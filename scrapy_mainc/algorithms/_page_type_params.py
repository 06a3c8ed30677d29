"""What each page type changes in ``auto``: its own parameters record over the defaults.

``auto``'s defaults were tuned on news articles, where a story's text is what counts and
links, cards, short lines and the posts under it are what a reader skips. On other kinds
of page the same stages keep other things (:mod:`scrapy_mainc.core._pagetype` decides the
kind, once, before the choice):

* **forum**: a thread's posts are its content; ``first_post`` (keep one post of a run of
  dated posts, a blog front page's newest) is off, the comment stage does not strip
  them (:data:`POSTS_ARE_CONTENT`), the story check does not cut the replies ("4
  Answers", opening with a heading of their own) as another story, and a choice that
  keeps one post takes in the run of replies beside it, their sentences kept whatever
  their author's lines cost (``thread_posts``); a post's body marked as an ``<article>``
  inside the post's own is the post, not content related to it
  (``cut_nested_articles`` off);
* **listing**: the items are links (a headline each, a line of summary): link words
  count for a block instead of against it, teaser cards are kept, and short lines lose
  less for having no punctuation;
* **collection**: product cards (a name, a price, a line) are kept, link words neither
  count for nor against;
* **documentation** and **service**: a page of sections, each under its heading (a
  manual's steps, an agency's offers), not one story: every section is kept (no "another
  story" check, no trimming of short edges but before the page's headline, as on every
  type, cards kept), short lines lose less;
* **product**: the product's name, price, stock and delivery lines around its description
  are short lines without punctuation: they lose less for it, and the choice's short edges
  are not trimmed (its description and specifications otherwise read as a story does);
  its customer reviews are comments (:data:`REVIEWS_ARE_COMMENTS`);
* listing and collection: the items, often dated, are alike blocks one after another:
  the comment stage does not take such a run for comments (:data:`ITEMS_ARE_CONTENT`),
  and an item's short lines without punctuation (a product's name, its price, a badge; a
  teaser's date) lose the punctuation penalty once for the item, not once each
  (:data:`ITEM_MAX_WORDS`): a grid of such cards is not worth less than its intro;
* **article**: the defaults;
* forum, listing, collection, documentation and service: a choice that keeps a sixth of
  the words the page-density choice keeps (CECTD-DS: the page's densest region,
  :mod:`.cetd`) is one item or one section of the page, and the density choice is taken
  (:attr:`~._auto_params.AutoParams.density_rescue_ratio`); an article's text is often a
  small part of a page of boilerplate, which the density takes in.

Each record was measured on every set with the page's type as the model gives it
(``benchmarks/quality/ablation.py``, docs/benchmarks.md); a parameter the caller (or ``favor``)
sets explicitly is left as given (:attr:`AutoParams.pinned`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from types import MappingProxyType
from typing import Any

from ._auto_params import AutoParams

#: Page types whose posts are content: the comment stage leaves them in.
POSTS_ARE_CONTENT = frozenset({"forum"})
#: Page types whose customer reviews are comments: the comment stage also takes the
#: sections named as reviews (:attr:`~scrapy_mainc.core._comment_params.CommentParams.reviews`).
REVIEWS_ARE_COMMENTS = frozenset({"product"})
#: Page types whose items are a run of alike dated blocks (a section's dated teasers, a
#: chart's entries): the comment stage does not read such a run as the comment region
#: (:attr:`~scrapy_mainc.core._comment_params.CommentParams.dated_runs`).
ITEMS_ARE_CONTENT = frozenset({"listing", "collection"})

#: A choice this many times smaller than the page-density choice is a fragment of a page
#: of items or sections (:attr:`AutoParams.density_rescue_ratio`).
FRAGMENT_RATIO = 6.0
#: The most words of an item (a product card, a teaser) whose lines without punctuation
#: lose the penalty once (:attr:`AutoParams.item_max_words`): chosen among 0, 20, 30, 40,
#: 60, 80, 120 and 200 on four site-grouped folds of the development pages and measured on
#: the fifth (docs/benchmarks.md, "Lost pages by mechanism"): 20 on three folds, 40 on two;
#: 20 on all of them (40 gains as much, moving half as many pages again).
ITEM_MAX_WORDS = 20
#: A root whose parent keeps 0.3 more value after pruning is one section of a page of
#: them (:attr:`~._auto_params.AutoParams.section_widen_gain`): chosen on four of five
#: site-grouped folds of WCXB's pages of these types (held-out types), every fold picked
#: 0.3 of 0.1-1.5 (held-out fold gains -0.01, -0.01, +0.46, +0.30, +0.32 F1, summed).
SECTION_WIDEN_GAIN = 0.3
_ITEMS: Mapping[str, Any] = MappingProxyType({"item_max_words": ITEM_MAX_WORDS})
_SECTIONS: Mapping[str, Any] = MappingProxyType(
    {
        "first_post": False,
        "trim_edges": False,
        "check_story": False,
        "cut_cards": False,
        "unpunctuated_penalty": 3.0,
        "density_rescue_ratio": FRAGMENT_RATIO,
    }
)

#: Overrides of :class:`AutoParams` by page type (types not named: the defaults).
PAGE_TYPE_PRESETS: Mapping[str, Mapping[str, Any]] = MappingProxyType(
    {
        "forum": MappingProxyType(
            {
                "first_post": False,
                "check_story": False,
                "density_rescue_ratio": FRAGMENT_RATIO,
                "thread_posts": True,
                "cut_nested_articles": False,
            }
        ),
        "listing": MappingProxyType({**_SECTIONS, **_ITEMS, "link_weight": -0.5}),
        "collection": MappingProxyType({**_SECTIONS, **_ITEMS, "link_weight": 0.0}),
        "documentation": MappingProxyType({**_SECTIONS, "section_widen_gain": SECTION_WIDEN_GAIN}),
        "service": MappingProxyType({**_SECTIONS, "section_widen_gain": SECTION_WIDEN_GAIN}),
        "product": MappingProxyType({"unpunctuated_penalty": 3.0, "trim_edges": False}),
    }
)


def for_page_type(params: AutoParams, page_type: str) -> AutoParams:
    """``params`` with ``page_type``'s preset applied to the fields not pinned."""
    if not params.by_page_type:
        return params
    preset = {
        name: value
        for name, value in PAGE_TYPE_PRESETS.get(page_type, {}).items()
        if name not in params.pinned
    }
    return replace(params, **preset) if preset else params
