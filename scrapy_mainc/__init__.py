"""scrapy_mainc: main-content extraction for crawlers.

The extraction core (``extract``, ``extract_tree``, ``ALGORITHMS``, ``Extraction``,
``CommentParams``) never imports Scrapy; the Scrapy components (``Addon``, the
middlewares, ``MaincPipeline`` and ``NearDuplicatePipeline``) are loaded on first access.
"""

from __future__ import annotations

from ._extract import extract, extract_tree
from .algorithms import ALGORITHMS
from .core._comment_params import CommentParams
from .core._limits import MAX_ELEMENTS, MAX_PAGE_BYTES
from .core._types import Extraction

__version__ = "0.1.0"

__all__ = [
    "ALGORITHMS",
    "MAX_ELEMENTS",
    "MAX_PAGE_BYTES",
    "CommentParams",
    "Extraction",
    "__version__",
    "extract",
    "extract_tree",
]


def __getattr__(name: str) -> object:
    """Load the Scrapy-facing names on first access, so the core never imports Scrapy."""
    module = {
        "Addon": "integration.addon",
        "MaincDownloaderMiddleware": "integration.middleware",
        "MaincSpiderMiddleware": "integration.middleware",
        "MaincPipeline": "integration.pipeline",
        "NearDuplicatePipeline": "integration.dedup_pipeline",
    }.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from importlib import import_module

    return getattr(import_module(f"{__name__}.{module}"), name)
