"""The page's type: one of the seven kinds of page a crawl meets, decided once, before any
algorithm chooses, from what the page shows (:mod:`._page_signals`).

The types are WCXB's (the Web Content eXtraction Benchmark, 2026): ``article`` (a story, a
post, a guide), ``forum`` (a thread of posts, a Q&A page), ``listing`` (a list of
articles, posts, jobs or results: a section front, a blog's index), ``collection`` (a
shop's category: products with prices), ``product`` (one product's page),
``documentation`` (a manual's or an API reference's page) and ``service`` (a company's
page about what it offers: a landing page, an agency's service, a city department).

The model is a multinomial logistic regression, trained by ``benchmarks/page_types.py``
on the WCXB development split and the four article sets and written into
:mod:`._pagetype_model` as constants; its accuracy on sites it was not trained on is
measured there (docs/page-types.md).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from . import _pagetype_model as model
from ._page_signals import page_signals
from ._types import Document

#: The seven page types, in the benchmark's order.
PAGE_TYPES = ("article", "forum", "listing", "collection", "product", "documentation", "service")


@dataclass(frozen=True, slots=True)
class PageType:
    """The page's type and how sure the model is (its probability, 0 to 1)."""

    name: str = "article"
    confidence: float = 0.0


def page_type(document: Document) -> PageType:
    """The type of the prepared page ``document`` (:data:`PAGE_TYPES`)."""
    signals, words = page_signals(document)
    scores = list(model.INTERCEPTS)
    for name, mean, scale, weights in zip(model.SIGNALS, model.MEANS, model.SCALES, model.SIGNAL_WEIGHTS):
        value = (signals[name] - mean) / scale if scale else 0.0
        for kind, weight in enumerate(weights):
            scores[kind] += weight * value
    for word in words & model.WORD_WEIGHTS.keys():
        for kind, weight in enumerate(model.WORD_WEIGHTS[word]):
            scores[kind] += weight
    top = max(scores)
    exponentials = [math.exp(score - top) for score in scores]
    best = exponentials.index(1.0)
    return PageType(model.PAGE_TYPES[best], 1.0 / sum(exponentials))
