"""The part of :class:`~scrapy_mainc.integration._config.MaincConfig` that says what the
outputs keep (``MAINC_INCLUDE_*``, Markdown), how ``auto`` leans (``MAINC_FAVOR``) and which
items are kept (``MAINC_LANGUAGES``, ``MAINC_ARTICLES_ONLY``), read from the settings."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..algorithms._auto_params import FAVOR_PRESETS
from ..core._langid import identifier_available, missing_identifier_message
from ..core._types import OutputOptions


@dataclass(frozen=True, slots=True)
class ContentConfig:
    """What the extraction keeps and which items the pipeline keeps."""

    output: OutputOptions = field(default_factory=OutputOptions)
    favor: str = "balanced"
    #: ISO 639-1 codes; empty: every language is kept.
    languages: tuple[str, ...] = ()
    articles_only: bool = False

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
        return cls(output, str(favor), languages, flag("MAINC_ARTICLES_ONLY"))


def languages_setting(value: object, name: str) -> tuple[str, ...]:
    """Language codes from a list or a comma-separated string (``-s MAINC_LANGUAGES=en,de``),
    lower-cased, primary subtags (``en-GB`` is ``en``)."""
    if value in (None, "", False):
        return ()
    items = value.split(",") if isinstance(value, str) else value
    if not isinstance(items, list | tuple | set | frozenset):
        raise ValueError(f'{name} must be a list of language codes such as ["en", "de"]; got {value!r}')
    codes = []
    for item in items:
        code = str(item).strip().lower().replace("_", "-").split("-")[0]
        if not code.isalpha() or not 2 <= len(code) <= 3:
            raise ValueError(f"{name}: {item!r} is not a language code (ISO 639-1, such as en or de)")
        codes.append(code)
    return tuple(dict.fromkeys(codes))
