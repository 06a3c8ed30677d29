"""The page's type: one of the seven kinds of page a crawl meets, decided once, before any
algorithm chooses, from what the page shows (:mod:`._page_signals`).

The types are WCXB's (the Web Content eXtraction Benchmark, 2026): ``article`` (a story, a
post, a guide), ``forum`` (a thread of posts, a Q&A page), ``listing`` (a list of
articles, posts, jobs or results: a section front, a blog's index), ``collection`` (a
shop's category: products with prices), ``product`` (one product's page),
``documentation`` (a manual's or an API reference's page) and ``service`` (a company's
page about what it offers: a landing page, an agency's service, a city department).

Two multinomial logistic regressions decide, trained by ``training/page_types.py`` on
the WCXB development split and the four article sets and shipped as package data
(:mod:`._pagetype_model`): a quick one over the signals that cost one pass (markup, shape,
labels), which settles most articles (its probability of ``article`` at least
``quick_article``), then, for the other pages, a full one over every signal; a page
whose markup states twice that it is an article needs twice the likelihood to be read as
anything else (:data:`MARKED_ARTICLE_MARGIN`), and a bare page, too small for the
models' evidence, is an article or a service page (:data:`BARE_PAGE_WORDS`).
The accuracy on sites neither was trained on is measured there (docs/page-types.md).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ._page_signals import PageWords, largest_run, more_signals, page_words, quick_signals
from ._pagetype_model import page_type_models
from ._types import Document, PageType

#: A page whose markup calls it an article twice (a JSON-LD article object and ``og:type``
#: ``article``) is read as another type only when the full model finds that type this many
#: times as likely: a news story crowded with teasers and link lists stays a story. On the
#: grouped folds it changes no WCXB page's type at 1.5 and 2 (0.001 less at 3), and
#: keeps the bundled site's most crowded story an article.
MARKED_ARTICLE_MARGIN = 2.0
#: The seven page types, in the benchmark's order.
PAGE_TYPES = ("article", "forum", "listing", "collection", "product", "documentation", "service")
#: A bare page: some text but fewer words than this, no run of :data:`REPEATED_PARTS`
#: alike parts and no markup that states a type (a heading, a paragraph and a link, as a
#: parked domain, a placeholder or a notice shows). It is one of :data:`BARE_PAGE_TYPES`:
#: the other types are made of parts it does not have (a thread's posts, a list's items, a
#: product's offer, a manual's sections). The models know no such page: of their 2,436
#: training pages, 5 have 1 to 99 words, and 10 have none (shells that scripts fill, 6 of
#: them forums); their weights read the absences of a bare page (few words, no subheadings,
#: lists, cards or form) as a forum's, and a page of a heading, a paragraph and a link was
#: typed a forum. On the grouped folds the rule changes one WCXB page's type, a wrong type
#: for another wrong one (docs/page-types.md).
BARE_PAGE_WORDS = 50
#: A run of this many alike siblings (posts, items, cards) or more: a page's repeated parts.
REPEATED_PARTS = 3
#: What a bare page may be: a short text, or a page about what an organisation offers.
BARE_PAGE_TYPES = ("article", "service")
#: The signals of markup that states a page's type (schema.org types, ``og:type``).
_STATED = ("ld_article", "ld_product", "ld_forum", "ld_list", "ld_doc", "ld_org", "og_article", "og_product")


def page_type(document: Document) -> PageType:
    """The type of the prepared page ``document`` (:data:`PAGE_TYPES`)."""
    models = page_type_models()
    signals, words = quick_signals(document)
    quick = models.quick.probabilities(signals, words)
    if quick[0] >= models.quick_article:
        return PageType("article", quick[0])
    best = _best(document, signals, words, models.full.classes)
    if best.name != "article" and signals["ld_article"] and signals["og_article"]:
        article = models.full.probabilities(signals, words)[0]
        if best.confidence < MARKED_ARTICLE_MARGIN * article:
            return PageType("article", article)  # the page says it twice: the doubt goes its way
    return best


def other_than_article(document: Document) -> PageType:
    """The full model's likeliest type of ``document`` but ``article``: what the page is
    when its extraction shows it is no article (:mod:`._article`'s verdict)."""
    signals, words = quick_signals(document)
    return _best(document, signals, words, page_type_models().full.classes[1:])


def possible_types(signals: Mapping[str, float], among: Sequence[str]) -> tuple[str, ...]:
    """The types of ``among`` a page of these signals (:func:`more_signals` too) may be:
    those of :data:`BARE_PAGE_TYPES` on a bare page (:data:`BARE_PAGE_WORDS`), when it
    leaves any, else all."""
    bare = (
        0 < page_words(signals) < BARE_PAGE_WORDS
        and largest_run(signals) < REPEATED_PARTS
        and not any(signals.get(name) for name in _STATED)
    )
    kept = tuple(kind for kind in among if kind in BARE_PAGE_TYPES) if bare else ()
    return kept or tuple(among)


def _best(
    document: Document, signals: dict[str, float], words: PageWords, among: tuple[str, ...]
) -> PageType:
    """The full model's likeliest type among ``among`` (those the page may be), with its
    probability."""
    signals.update(more_signals(document))
    model = page_type_models().full
    full = dict(zip(model.classes, model.probabilities(signals, words)))
    best = max(possible_types(signals, among), key=full.__getitem__)
    return PageType(best, full[best])
