"""Which extracted items the pipeline drops: those in a language not in ``MAINC_LANGUAGES``,
and those whose page is not an article with ``MAINC_ARTICLES_ONLY``.

Only an extraction that ran is judged: an item whose extraction failed (a time-out, a page
too large) goes through, its reason recorded, since nothing is known of its language or
kind; an item whose language is unknown (no text, or text the identifier cannot place)
is kept too. Each drop is counted (``mainc/dropped/language``, ``mainc/dropped/not_article``);
the first item of each language dropped is said at INFO, with the setting that drops it.
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
        if self.articles_only and not extraction.article:
            self.count("mainc/dropped/not_article")
            return "mainc: not an article (MAINC_ARTICLES_ONLY)"
        return ""
