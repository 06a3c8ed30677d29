"""Which extracted items the pipeline drops: those in a language not in ``MAINC_LANGUAGES``,
and those whose page type is not in ``MAINC_PAGE_TYPES`` (or not an article, with
``MAINC_ARTICLES_ONLY``).

Only an extraction that ran is judged: an item whose extraction failed (a time-out, a page
too large) goes through, its reason recorded, since nothing is known of its language or
kind; an item whose language is unknown (no text, or text the identifier cannot place)
is kept too. A page of no type (empty, or not HTML) is of none of the types kept. The type
``article`` keeps the pages whose extraction reads as an article (``Extraction.article``:
the type, and the article verdict on the text), as ``MAINC_ARTICLES_ONLY`` always did; a
page typed ``article`` whose text does not (a front page of a few teasers) is dropped.

Each drop is counted (``mainc/dropped/language``, ``mainc/dropped/page_type``,
``mainc/dropped/not_article``); the first item of each language dropped is said at INFO,
with the setting that drops it.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from ..core._types import Extraction
from ._content import ContentConfig

logger = logging.getLogger(__name__)


class ItemFilters:
    """The drop decisions of one crawl; ``count`` increments a stat."""

    def __init__(self, content: ContentConfig, count: Callable[[str], None]) -> None:
        self.languages = frozenset(content.languages)
        self.page_types = frozenset(content.kept_types)
        self.articles_only = content.articles_only
        self.count = count
        self.told: set[str] = set()

    def drop_reason(self, extraction: Extraction, failed: bool) -> str:
        """Why the item of ``extraction`` is dropped, or ``""`` to keep it."""
        if failed:
            return ""
        lang = extraction.lang
        if self.languages and lang and extraction.text and lang not in self.languages:
            self.count("mainc/dropped/language")
            if lang not in self.told:
                self.told.add(lang)
                logger.info(
                    "mainc: dropping items in %r: not in MAINC_LANGUAGES (%s); said once per "
                    "language, counted in mainc/dropped/language",
                    lang,
                    ", ".join(sorted(self.languages)),
                )
            return f"mainc: text in {lang!r}, not in MAINC_LANGUAGES"
        if self.page_types and not self.kept(extraction):
            return self._type_drop(extraction)
        return ""

    def kept(self, extraction: Extraction) -> bool:
        """Whether the page's type is one of those kept (``article``: the strict verdict)."""
        if extraction.page_type == "article":
            return extraction.article and "article" in self.page_types
        return extraction.page_type in self.page_types

    def _type_drop(self, extraction: Extraction) -> str:
        """Count the drop of a page of another type; its reason."""
        if self.articles_only:
            self.count("mainc/dropped/not_article")
            return "mainc: not an article (MAINC_ARTICLES_ONLY)"
        self.count("mainc/dropped/page_type")
        kind = extraction.page_type or "none"
        if kind == "article" and not extraction.article:
            kind += ", whose text does not read as one (mainc['article'] false)"
        return f"mainc: page type {kind}, not in MAINC_PAGE_TYPES"
