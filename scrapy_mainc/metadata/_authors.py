"""Author names (to be written)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..core._types import Document


def find_authors(document: Document) -> tuple[str, ...]:
    """The article's authors: person names in page order."""
    return ()
