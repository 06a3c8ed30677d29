"""The page's type: one of the seven kinds of page a crawl meets, decided once, before any
algorithm chooses, from what the page shows (:mod:`._page_signals`, :mod:`._page_shape`).

The types are WCXB's (the Web Content eXtraction Benchmark, 2026): ``article`` (a story, a
post, a guide), ``forum`` (a thread of posts, a Q&A page), ``listing`` (a list of
articles, posts, jobs or results: a section front, a blog's index), ``collection`` (a
shop's category: products with prices), ``product`` (one product's page),
``documentation`` (a manual's or an API reference's page) and ``service`` (a company's
page about what it offers: a landing page, an agency's service, a city department).

The model (:mod:`._pagetype_model`, package data trained by ``training/page_types.py`` on
the WCXB development split and the four article sets) decides in three steps:

1. a **quick** logistic regression over the signals that cost one pass (markup, shape,
   words) settles a page as an article when it is sure enough (most news pages stop here),
   and types a page of few words (:data:`BARE_PAGE_WORDS`) alone, a bare one as an article
   or a service page (:func:`possible_types`);
2. for the others, the **full** logistic regression over every signal and word, and
   **boosted trees** over the layout signals and the full model's probabilities, blended;
3. the **decision** weighs each reading by what it costs when wrong (:func:`decide`): a
   forum thread read as an article loses its replies, a listing read as one keeps a single
   teaser, while a listing read as a shop's collection loses little. The type taken is the
   one of least expected cost, with the likeliest type worth :attr:`right_weight` more.

The accuracy on sites the model was not trained on is measured by the trainer
(docs/page-types.md).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from math import log

from ._page_signals import PageWords, largest_run, more_signals, page_words, quick_signals
from ._pagetype_model import PageTypeModels, page_type_models
from ._types import Document, PageType

#: A page of fewer words is typed by the quick model alone: its layout (no menus, no items,
#: one link in one paragraph) is like no page the full model learnt from, which read the
#: absences of example.com's page (a heading, a paragraph, a link) as a forum thread's.
#: Of the 2,436 training pages, 5 have 1 to 99 words, and 10 have none (shells that scripts
#: fill). A bare one (no run of :data:`REPEATED_PARTS` alike parts, no markup that states
#: a type) is one of :data:`BARE_PAGE_TYPES` (:func:`possible_types`).
BARE_PAGE_WORDS = 50
#: A run of this many alike siblings (posts, items, cards) or more: a page's repeated parts.
REPEATED_PARTS = 3
#: What a bare page may be: a short text, or a page about what an organisation offers; the
#: other types are made of parts it does not have (a thread's posts, a list's items, a
#: product's offer, a manual's sections).
BARE_PAGE_TYPES = ("article", "service")
#: The signals of markup that states a page's type (schema.org types, ``og:type``).
_STATED = ("ld_article", "ld_product", "ld_forum", "ld_list", "ld_doc", "ld_org", "og_article", "og_product")
#: Added to a probability before its logarithm, for the trees' inputs (as in training).
LOG_FLOOR = 1e-4
#: The seven page types, in the benchmark's order.
PAGE_TYPES = ("article", "forum", "listing", "collection", "product", "documentation", "service")


def page_type(document: Document) -> PageType:
    """The type of the prepared page ``document`` (:data:`PAGE_TYPES`)."""
    model = page_type_models()
    signals, words = quick_signals(document)
    quick = model.quick.probabilities(signals, words)
    if quick[0] >= model.quick_article:
        return PageType("article", quick[0])
    if document.stats.words[0] < BARE_PAGE_WORDS:  # too little for the layout to say anything
        signals.update(more_signals(document)[0])  # its runs (few, on so small a page)
        best = few_words_type(quick, signals)
        return PageType(PAGE_TYPES[best], quick[best])
    probabilities = _probabilities(model, document, signals, words)
    marked = bool(signals["ld_article"] and signals["og_article"])
    best = decide(model, probabilities, range(len(PAGE_TYPES)), marked)
    return PageType(PAGE_TYPES[best], probabilities[best], tuple(probabilities))


def other_than_article(document: Document) -> PageType | None:
    """What ``document`` is when its extraction shows it is no article (:mod:`._article`'s
    verdict): the decision among the other types; None on a bare page
    (:data:`BARE_PAGE_WORDS`), whose few words the verdict refuses as too few."""
    if document.stats.words[0] < BARE_PAGE_WORDS:  # a few words are no article, nor anything else
        return None
    model = page_type_models()
    probabilities = list(document.page_type.probabilities)
    if not probabilities:  # the quick model settled it: the full model's reading
        signals, words = quick_signals(document)
        probabilities = _probabilities(model, document, signals, words)
    best = decide(model, probabilities, range(1, len(PAGE_TYPES)), False)
    return PageType(PAGE_TYPES[best], probabilities[best], tuple(probabilities))


def possible_types(signals: Mapping[str, float], among: Sequence[str]) -> tuple[str, ...]:
    """The types of ``among`` a page of these signals (:func:`more_signals` too) may be:
    those of :data:`BARE_PAGE_TYPES` on a bare page (some text, under :data:`BARE_PAGE_WORDS`
    words, no run of :data:`REPEATED_PARTS`, no markup that states a type), when it leaves
    any, else all."""
    bare = (
        0 < page_words(signals) < BARE_PAGE_WORDS
        and largest_run(signals) < REPEATED_PARTS
        and not any(signals.get(name) for name in _STATED)
    )
    kept = tuple(kind for kind in among if kind in BARE_PAGE_TYPES) if bare else ()
    return kept or tuple(among)


def few_words_type(quick: Sequence[float], signals: Mapping[str, float]) -> int:
    """The type (an index of :data:`PAGE_TYPES`) of a page under :data:`BARE_PAGE_WORDS`
    words: the quick model's likeliest (``quick``) among those it may be."""
    return max(
        (PAGE_TYPES.index(kind) for kind in possible_types(signals, PAGE_TYPES)), key=quick.__getitem__
    )


def _probabilities(
    model: PageTypeModels, document: Document, signals: dict[str, float], words: PageWords
) -> list[float]:
    """The blend of the full model's and the trees' probabilities of each type."""
    more, names = more_signals(document)
    signals.update(more)
    if not signals["u_known"]:  # no address: its shape says nothing, the mean of the training pages'
        signals.update(model.unknown_address)
    full = model.full.probabilities(signals, {**words, "class": names})
    signals.update({f"full:{kind}": _log(value) for kind, value in zip(PAGE_TYPES, full)})
    trees = model.trees.probabilities(signals)
    share = model.tree_share
    return [(1 - share) * linear + share * tree for linear, tree in zip(full, trees)]


def _log(probability: float) -> float:
    """The log-probability the trees read (floored: a zero would have none)."""
    return log(probability + LOG_FLOOR)


def decide(model: PageTypeModels, probabilities: Sequence[float], among: Sequence[int], marked: bool) -> int:
    """The type among ``among`` (indices of :data:`PAGE_TYPES`) of least expected cost:
    the largest sum over the true types ``y`` of ``p(y) * (right_weight * [t == y] -
    costs[y][t])``. A page ``marked`` as an article twice by its markup stays one unless
    the type taken is :attr:`~PageTypeModels.marked_article_margin` times as likely."""
    costs, weight = model.costs, model.right_weight
    best = max(
        among,
        key=lambda kind: (
            weight * probabilities[kind] - sum(p * row[kind] for p, row in zip(probabilities, costs)),
            probabilities[kind],
        ),
    )
    if (
        marked
        and best
        and 0 in among
        and probabilities[best] < model.marked_article_margin * probabilities[0]
    ):
        return 0
    return best
