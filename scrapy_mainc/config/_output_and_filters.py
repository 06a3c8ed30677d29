"""The output and filter settings: the part of :class:`~._mainc_config.MaincConfig` that says
what the outputs keep (``MAINC_INCLUDE_*``, Markdown), how ``auto`` leans (``MAINC_FAVOR``),
which items are kept (``MAINC_LANGUAGES``, ``MAINC_PAGE_TYPES``, ``MAINC_ARTICLES_ONLY``,
``MAINC_MIN_QUALITY``; the drops themselves are ``items._drops``) and the fallback for
doubtful pages (``MAINC_FALLBACK``, ``MAINC_FALLBACK_BELOW``: ``items._fallback``), read
from the settings.

``MAINC_ARTICLES_ONLY = True`` is ``MAINC_PAGE_TYPES = ["article"]`` under its older name
(its drops keep their stat, ``mainc/dropped/not_article``). A crawl that sets both is
refused: which of the two was meant cannot be told.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..algorithms._auto_params import FAVOR_PRESETS
from ..core._langid import identifier_available, missing_identifier_message
from ..core._pagetype import PAGE_TYPES
from ..core._types import OutputOptions
from ._fallback_path import check_fallback
from ._reading import is_unset


@dataclass(frozen=True, slots=True)
class ContentConfig:
    """What the extraction keeps and which items the pipeline keeps."""

    output: OutputOptions = field(default_factory=OutputOptions)
    favor: str = "balanced"
    #: ISO 639-1 codes; empty: every language is kept.
    languages: tuple[str, ...] = ()
    #: The page types kept (``MAINC_PAGE_TYPES``), in :data:`PAGE_TYPES` order; empty:
    #: every type (all seven given are empty too).
    page_types: tuple[str, ...] = ()
    #: ``MAINC_ARTICLES_ONLY``: the page type ``article`` alone, under its older name.
    articles_only: bool = False
    #: ``MAINC_MIN_QUALITY``: items whose quality estimate is under it are dropped; None: none.
    min_quality: float | None = None
    #: ``MAINC_FALLBACK``: the dotted path of the fallback callable; "": none.
    fallback: str = ""
    #: ``MAINC_FALLBACK_BELOW``: the estimate under which the fallback runs.
    fallback_below: float = 0.3

    @property
    def kept_types(self) -> tuple[str, ...]:
        """The page types whose items are kept; empty: every item."""
        return ("article",) if self.articles_only else self.page_types

    @classmethod
    def from_settings(
        cls, flag: Callable[[str], bool], get: Callable[[str], Any], markdown: bool
    ) -> ContentConfig:
        """Read the settings through ``flag`` (booleans) and ``get`` (values); ``markdown``:
        whether a Markdown field is written. A bad value raises ValueError."""
        favor = get("MAINC_FAVOR")
        if favor not in FAVOR_PRESETS:
            raise ValueError(f"MAINC_FAVOR must be one of {', '.join(FAVOR_PRESETS)}; got {favor!r}")
        languages = languages_setting(get("MAINC_LANGUAGES"), "MAINC_LANGUAGES")
        if languages and not identifier_available():
            raise ValueError(missing_identifier_message("MAINC_LANGUAGES"))
        output = OutputOptions(
            tables=flag("MAINC_INCLUDE_TABLES"),
            links=flag("MAINC_INCLUDE_LINKS"),
            images=flag("MAINC_INCLUDE_IMAGES"),
            formatting=flag("MAINC_INCLUDE_FORMATTING"),
            markdown=markdown,
        )
        page_types = page_types_setting(get("MAINC_PAGE_TYPES"), "MAINC_PAGE_TYPES")
        articles_only = flag("MAINC_ARTICLES_ONLY")
        if articles_only and page_types:
            raise ValueError(
                'MAINC_ARTICLES_ONLY is MAINC_PAGE_TYPES = ["article"] under its older name: set '
                f"one of them, not both (MAINC_PAGE_TYPES = {list(page_types)!r})"
            )
        min_quality = get("MAINC_MIN_QUALITY")
        fallback = None if is_unset(get("MAINC_FALLBACK")) else get("MAINC_FALLBACK")
        if fallback is not None:
            if not isinstance(fallback, str):
                raise ValueError(f"MAINC_FALLBACK must be the dotted path of a callable; got {fallback!r}")
            check_fallback(fallback)  # a path that cannot be used stops the crawl here
        return cls(
            output,
            str(favor),
            languages,
            page_types,
            articles_only,
            None if is_unset(min_quality) else share(min_quality, "MAINC_MIN_QUALITY"),
            fallback or "",
            share(get("MAINC_FALLBACK_BELOW"), "MAINC_FALLBACK_BELOW"),
        )


def share(value: object, name: str) -> float:
    """``value`` as a number from 0 to 1 (a quality estimate's range); ValueError otherwise."""
    try:
        if isinstance(value, bool):
            raise ValueError
        number = float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        number = math.nan
    if not 0 <= number <= 1:
        raise ValueError(f"{name} must be a number from 0 to 1; got {value!r}")
    return number


def listed(value: object, name: str, example: str) -> list[object]:
    """The items of a list setting, given as a list or a comma-separated string (``-s
    NAME=a,b``); none for ``None`` or ``""``. ``example`` words the values in the error."""
    if value in (None, "", False):
        return []
    items = value.split(",") if isinstance(value, str) else value
    if not isinstance(items, list | tuple | set | frozenset):
        raise ValueError(f"{name} must be a list of {example}; got {value!r}")
    return list(items)


def languages_setting(value: object, name: str) -> tuple[str, ...]:
    """Language codes from a list or a comma-separated string (``-s MAINC_LANGUAGES=en,de``),
    lower-cased, primary subtags (``en-GB`` is ``en``)."""
    codes = []
    for item in listed(value, name, 'language codes such as ["en", "de"]'):
        code = str(item).strip().lower().replace("_", "-").split("-")[0]
        if not code.isalpha() or not 2 <= len(code) <= 3:
            raise ValueError(f"{name}: {item!r} is not a language code (ISO 639-1, such as en or de)")
        codes.append(code)
    return tuple(dict.fromkeys(codes))


def page_types_setting(value: object, name: str) -> tuple[str, ...]:
    """Page types from a list or a comma-separated string (``-s MAINC_PAGE_TYPES=article,forum``),
    lower-cased, in :data:`PAGE_TYPES` order; empty when none, or all seven, are given (every
    type is kept)."""
    given = set()
    for item in listed(value, name, 'page types such as ["article", "forum"]'):
        kind = str(item).strip().lower()
        if kind not in PAGE_TYPES:
            raise ValueError(f"{name}: {item!r} is not a page type; valid: {', '.join(PAGE_TYPES)}")
        given.add(kind)
    kept = tuple(kind for kind in PAGE_TYPES if kind in given)
    return () if kept == PAGE_TYPES else kept
