"""``MAINC_FALLBACK``: another extractor for the pages whose quality estimate is low.

The setting names a callable by its dotted path (``"trafilatura.extract"``, or
``"package.module:function"``) that takes the page's HTML (text, decoded as the extraction
decoded it) and its URL (``""`` when unknown) and returns the main text, or ``None`` or
``""`` when it has none. It runs in the worker, after the extraction, when the estimate
(``Extraction.quality``) is under ``MAINC_FALLBACK_BELOW``; its text replaces the doubtful
one only when it returns some. A callable that raises (or returns something other than
text) leaves the extraction as it was: the outcome says why, and the caller counts it.

The path is checked when the crawl starts (``config._fallback_path.load_fallback``: a
ValueError that says why it cannot be used); a worker process imports it once, on its first
doubtful page (:func:`cached_fallback`). This module does not import Scrapy.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Any

from ..config._fallback_path import load_fallback

logger = logging.getLogger(__name__)

#: What became of a page's fallback: it was not run (the estimate was high enough, or no
#: fallback is set), its text replaced the extraction's, it returned none, or it failed.
FALLBACK_OUTCOMES = ("", "used", "empty", "failed")


@dataclass(frozen=True, slots=True)
class FallbackResult:
    """The fallback's answer for one page: its text ("" for none) and, when it failed,
    why (``"ValueError: ..."``)."""

    text: str = ""
    error: str = ""

    @property
    def outcome(self) -> str:
        """One of :data:`FALLBACK_OUTCOMES` (a result exists only when the fallback ran)."""
        return "failed" if self.error else "used" if self.text else "empty"


@cache
def cached_fallback(path: str) -> Callable[..., Any]:
    """:func:`load_fallback`, once per process (a worker imports the callable on first use)."""
    return load_fallback(path)


def call_fallback(function: Callable[..., Any], html: str, url: str) -> FallbackResult:
    """``function(html, url)``: its text, none, or the error it raised; never raises."""
    try:
        text = function(html, url)
    except Exception as exc:  # noqa: BLE001 - a user's callable must not lose the item
        return FallbackResult(error=f"{type(exc).__name__}: {exc}")
    if text is None:
        return FallbackResult()
    if not isinstance(text, str):
        return FallbackResult(error=f"returned a {type(text).__name__}, not text or None")
    return FallbackResult(text.strip())


class FallbackFailures:
    """The fallback's failures in one run: the first is said at INFO, the second (it
    recurs) at WARNING, once, with the first; every one is counted by the caller."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.count = 0
        self.first = ""

    def add(self, result: FallbackResult, url: str) -> None:
        """Say ``result``'s failure, on the page at ``url``, if it is to be said."""
        self.count += 1
        where = f"{url or '(no URL)'}: {result.error}"
        if self.count == 1:
            self.first = where
            logger.info(
                "mainc: MAINC_FALLBACK %s failed on %s; the item keeps the extraction's text "
                "(mainc['fallback_error']; counted in mainc/fallback/failed)",
                self.path,
                where,
            )
        elif self.count == 2:
            logger.warning(
                "mainc: MAINC_FALLBACK %s failed again, on %s; the first: %s. Its items keep "
                "the extraction's text (mainc['fallback_error']); failures are counted in "
                "mainc/fallback/failed, and not said again",
                self.path,
                where,
                self.first,
            )
