"""Public import path of the middlewares; see :mod:`scrapy_mainc.integration.middleware`."""

from .integration.middleware import MaincDownloaderMiddleware, MaincSpiderMiddleware

__all__ = ["MaincDownloaderMiddleware", "MaincSpiderMiddleware"]
