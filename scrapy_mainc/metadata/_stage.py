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

if TYPE_CHECKING:
    from ..core._types import Document


def extract_metadata(document: Document, content: tuple[int, ...] = ()) -> Metadata:
    """The metadata of a prepared page (call before its statistics are released).

    ``content`` holds the statistics indices of the roots of the page's chosen text, near
    which visible bylines are looked for.
    """
    try:
        published, modified = find_dates(document)
        metadata = Metadata(
            published=published,
            modified=modified,
            authors=find_authors(document, content),
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
