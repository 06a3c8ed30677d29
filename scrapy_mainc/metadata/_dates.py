"""Publication and modification dates (to be written)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..core._types import Document


def find_dates(document: Document) -> tuple[str, str]:
    """(published, modified) of the page, ISO 8601, ``""`` when unknown."""
    return "", ""
