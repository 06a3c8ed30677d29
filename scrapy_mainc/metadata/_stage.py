"""The metadata stage: the page's metadata from its evidence and its prepared tree.

Evidence is read from most to least trusted: JSON-LD of the page's own article, microdata,
OpenGraph and other meta names, then what the reader sees near the headline, then the URL.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from typing import TYPE_CHECKING

from ..core._text import clean_text
from ..core._types import Metadata
from ._authors import find_authors
from ._dates import find_dates
from ._fields import find_fields
from ._windows import shown_headline

if TYPE_CHECKING:
    from datetime import datetime

    from ..core._types import Document


def extract_metadata(
    document: Document, content: tuple[int, ...] = (), fetched: datetime | None = None
) -> Metadata:
    """The metadata of a prepared page (call before its statistics are released).

    ``content`` holds the statistics indices of the roots of the page's chosen text, near
    which visible bylines are looked for. ``fetched`` is when the page was fetched
    (:func:`._relative.fetched_moment`): relative dates ("3 hours ago") are read against
    it, and only then.
    """
    try:
        # where the page shows its headline when it is no heading: both searches start there
        shown = shown_headline(document) if document.headline < 0 else None
        dates = find_dates(document, shown=shown, fetched=fetched)
        metadata = Metadata(
            published=dates.published,
            modified=dates.modified,
            published_from=dates.published_from,
            modified_from=dates.modified_from,
            authors=find_authors(document, content, document.headline if shown is None else shown),
            **find_fields(document),
        )
    except RecursionError:  # JSON-LD nested deeper than a reader follows: no metadata, no error
        return Metadata()
    return _cleaned(metadata)


def _cleaned(metadata: Metadata) -> Metadata:
    """``metadata`` with its text fields as the main text's lines are made (no control
    characters, whitespace normalised); names and tags left empty are dropped."""
    return replace(
        metadata,
        authors=_cleaned_all(metadata.authors),
        site_name=clean_text(metadata.site_name),
        description=clean_text(metadata.description),
        section=clean_text(metadata.section),
        tags=_cleaned_all(metadata.tags),
    )


def _cleaned_all(values: Iterable[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(value for value in map(clean_text, values) if value))
