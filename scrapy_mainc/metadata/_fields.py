"""Site name, canonical URL, description, lead image, section and tags (to be written)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..core._types import Document


def find_fields(document: Document) -> dict[str, Any]:
    """Keyword arguments of :class:`Metadata` other than dates and authors."""
    return {}
