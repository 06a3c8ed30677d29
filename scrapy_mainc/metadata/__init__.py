"""The metadata stage: publication date, authors and the page's other metadata, read from
the tree :func:`scrapy_mainc.extract` already parsed. Scrapy-free."""

from __future__ import annotations

from ..core._types import Metadata
from ._stage import extract_metadata

__all__ = ["Metadata", "extract_metadata"]
