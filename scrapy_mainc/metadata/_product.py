"""A product page's description from its structured data, where the visible choice lacks it.

A shop states its product in JSON-LD (``Product``, ``ProductGroup``): a name and a
description, which the page usually shows too. When the text the algorithm chose holds
less than :data:`MIN_SHOWN_SHARE` of the description's words (the description sits in a
tab or panel the choice left out, or only a script shows it), the description is what the
page's content lacks, and the extraction adds it after the chosen text
(:func:`scrapy_mainc.extract`, on pages typed ``product``).
"""

from __future__ import annotations

import re

from ..core._evidence import jsonld_types
from ..core._types import Document
from ._jsonld import plain_text, text_of

#: The structured-data types of a product.
PRODUCT_TYPES = frozenset({"Product", "ProductGroup", "IndividualProduct", "ProductModel"})
#: A description of fewer words than this is a tagline, not what the page lacks.
MIN_DESCRIPTION_WORDS = 20
#: The chosen text shows the description when it holds this share of its words.
MIN_SHOWN_SHARE = 0.5
_TAG_RE = re.compile(r"<[^>]*>")
_WORD_RE = re.compile(r"\w+")


def missing_description(document: Document, text: str) -> str:
    """The description of the page's product (its first JSON-LD product's), when ``text``
    holds less than :data:`MIN_SHOWN_SHARE` of its words; else ``""``."""
    evidence = document.evidence
    objects = evidence.jsonld if evidence is not None else []
    product = next((obj for obj in objects if not PRODUCT_TYPES.isdisjoint(jsonld_types(obj))), None)
    if product is None:
        return ""
    description = " ".join(_TAG_RE.sub(" ", plain_text(text_of(product.get("description")))).split())
    words = set(_WORD_RE.findall(description.lower()))
    if len(words) < MIN_DESCRIPTION_WORDS:
        return ""
    shown = words & set(_WORD_RE.findall(text.lower()))
    return description if len(shown) < MIN_SHOWN_SHARE * len(words) else ""
