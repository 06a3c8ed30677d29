"""Which items are dropped, and why: each drop is one rule of :class:`ItemDrops`.

- ``MAINC_DROP_EMPTY``: an item without main text (an extraction that failed too), stat
  ``mainc/dropped``;
- ``MAINC_LANGUAGES``: an item whose text is in another language, ``mainc/dropped/language``
  (the first item of each language dropped is said at INFO, with the setting that drops it);
- ``MAINC_PAGE_TYPES``: an item whose page is of another type, ``mainc/dropped/page_type``;
  ``MAINC_ARTICLES_ONLY``, its older name for ``["article"]``, ``mainc/dropped/not_article``;
- ``MAINC_MIN_QUALITY``: an item whose quality estimate is under it,
  ``mainc/dropped/quality`` (the first said at INFO); not an item whose text the fallback
  gave (``MAINC_FALLBACK``): the estimate was of the text it replaced.

The filters judge only an extraction that ran: an item whose extraction failed (a
time-out, a page too large) goes through, its reason recorded, since nothing is known of
its language or kind; an item whose language is unknown (no text, or text the identifier
cannot place) is kept too. A page of no type (empty, or not HTML) is of none of the types
kept. The type ``article`` keeps the pages whose extraction reads as an article
(``Extraction.article``: the type, and the article verdict on the text), as
``MAINC_ARTICLES_ONLY`` always did; a page typed ``article`` whose text does not (a front
page of a few teasers) is dropped.

A new drop is a method here that counts its stat and returns its reason, added to
:meth:`ItemDrops.reason`'s rules (and its stat to docs/stats.md).
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from ..config._mainc_config import MaincConfig
from ..core._types import Extraction
from ._mainc_stats import Stats
from ._workers import ExtractionOutcome

logger = logging.getLogger(__name__)


class ItemDrops:
    """The drop decisions of one crawl (or archive run); each drop is counted in ``stats``."""

    def __init__(self, config: MaincConfig, stats: Stats) -> None:
        content = config.content
        self.drop_empty = config.drop_empty
        self.languages = frozenset(content.languages)
        self.page_types = frozenset(content.kept_types)
        self.articles_only = content.articles_only
        self.min_quality = content.min_quality
        self.stats = stats
        self.told: set[str] = set()
        #: The rules, in order: the first that drops the item gives the reason.
        self.rules: tuple[Callable[[ExtractionOutcome], str], ...] = (
            self._empty,
            self._language,
            self._page_type,
            self._quality,
        )

    def reason(self, outcome: ExtractionOutcome) -> str:
        """Why the item of ``outcome`` is dropped (its drop counted), or ``""`` to keep it."""
        for rule in self.rules:
            dropped = rule(outcome)
            if dropped:
                return dropped
        return ""

    def kept(self, extraction: Extraction) -> bool:
        """Whether the page's type is one of those kept (``article``: the strict verdict)."""
        if extraction.page_type == "article":
            return extraction.article and "article" in self.page_types
        return extraction.page_type in self.page_types

    def _empty(self, outcome: ExtractionOutcome) -> str:
        extraction = outcome.extraction
        if not self.drop_empty or extraction.text:
            return ""
        self.stats.inc("mainc/dropped")
        return f"mainc: no main text ({extraction.reason})"

    def _language(self, outcome: ExtractionOutcome) -> str:
        extraction, lang = outcome.extraction, outcome.extraction.lang
        if outcome.failure or not self.languages or not lang or not extraction.text:
            return ""
        if lang in self.languages:
            return ""
        self.stats.inc("mainc/dropped/language")
        if lang not in self.told:
            self.told.add(lang)
            logger.info(
                "mainc: dropping items in %r: not in MAINC_LANGUAGES (%s); said once per "
                "language, counted in mainc/dropped/language",
                lang,
                ", ".join(sorted(self.languages)),
            )
        return f"mainc: text in {lang!r}, not in MAINC_LANGUAGES"

    def _page_type(self, outcome: ExtractionOutcome) -> str:
        extraction = outcome.extraction
        if outcome.failure or not self.page_types or self.kept(extraction):
            return ""
        if self.articles_only:
            self.stats.inc("mainc/dropped/not_article")
            return "mainc: not an article (MAINC_ARTICLES_ONLY)"
        self.stats.inc("mainc/dropped/page_type")
        kind = extraction.page_type or "none"
        if kind == "article" and not extraction.article:
            kind += ", whose text does not read as one (mainc['article'] false)"
        return f"mainc: page type {kind}, not in MAINC_PAGE_TYPES"

    def _quality(self, outcome: ExtractionOutcome) -> str:
        quality = outcome.extraction.quality
        if self.min_quality is None or quality >= self.min_quality:
            return ""
        if outcome.failure or not outcome.extraction.parsed:  # nothing of the page to judge
            return ""
        if outcome.fallback is not None and outcome.fallback.outcome == "used":
            return ""
        self.stats.inc("mainc/dropped/quality")
        if "quality" not in self.told:
            self.told.add("quality")
            logger.info(
                "mainc: dropping items whose quality estimate is under MAINC_MIN_QUALITY (%g); "
                "said once, counted in mainc/dropped/quality",
                self.min_quality,
            )
        return f"mainc: quality {quality:.3f}, under MAINC_MIN_QUALITY ({self.min_quality:g})"
