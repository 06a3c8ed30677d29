"""The metadata stage: publication date, authors and the page's other metadata, read from
the tree :func:`scrapy_mainc.extract` already parsed. Scrapy-free."""

from __future__ import annotations

from ._stage import extract_metadata
from ._types import Metadata

__all__ = ["Metadata", "extract_metadata"]
