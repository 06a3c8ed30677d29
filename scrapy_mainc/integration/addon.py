"""The add-on: ``ADDONS = {"scrapy_mainc.Addon": 0}`` turns the whole integration on.

It only edits settings: it writes every ``MAINC_`` default at ``"addon"`` priority (so
project, spider and command-line settings override it) and adds the three components to
their component dictionaries unless the project already placed (or disabled) them.

Near-duplicate clustering: ``MAINC_DEDUP_TEXT_FIELD`` follows ``MAINC_TEXT_FIELD`` (at
``"addon"`` priority, so an explicit value wins), and when ``MAINC_DEDUP_ENABLED`` is true
``NearDuplicatePipeline`` joins ``ITEM_PIPELINES`` right after ``MaincPipeline``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..config._dedup_config import DedupConfig
from ..config._mainc_config import addon_defaults
from ._startup import check_crawl, checked, enabled_order
from .middleware import (
    DOWNLOADER_MIDDLEWARE_ORDER,
    SPIDER_MIDDLEWARE_ORDER,
    MaincDownloaderMiddleware,
    MaincSpiderMiddleware,
)
from .pipeline import DEDUP_PIPELINE_OFFSET, PIPELINE_ORDER, MaincPipeline

if TYPE_CHECKING:
    from scrapy.crawler import Crawler
    from scrapy.settings import BaseSettings
    from typing_extensions import Self

#: ``(component dictionary setting, component, order)`` the add-on enables.
COMPONENTS = (
    ("DOWNLOADER_MIDDLEWARES", MaincDownloaderMiddleware, DOWNLOADER_MIDDLEWARE_ORDER),
    ("SPIDER_MIDDLEWARES", MaincSpiderMiddleware, SPIDER_MIDDLEWARE_ORDER),
    ("ITEM_PIPELINES", MaincPipeline, PIPELINE_ORDER),
)


class Addon:
    """Enable scrapy_mainc's middlewares and pipeline with the documented defaults.

    It is the first of scrapy_mainc to see a crawl, so it makes the checks of ``_startup``
    first (a crawl inside a worker process stops here).
    """

    def __init__(self, crawler: Crawler | None = None) -> None:
        self.crawler = crawler

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        return cls(crawler)

    def update_settings(self, settings: BaseSettings) -> None:
        check_crawl(self.crawler)
        set_defaults(settings)


def set_defaults(settings: BaseSettings) -> None:
    """The add-on's edits of ``settings``, without the checks of a crawl: the defaults
    (``config._mainc_config.addon_defaults``, which the archive mode reads its settings over
    too), the components, and ``NearDuplicatePipeline`` when clustering is on."""
    for name, default in checked(addon_defaults, settings).items():
        settings.set(name, default, priority="addon")
    for setting, component, order in COMPONENTS:
        settings.setdefault_in_component_priority_dict(setting, component, order)
    _set_up_dedup(settings)


def _set_up_dedup(settings: BaseSettings) -> None:
    """Enable NearDuplicatePipeline when asked to."""
    if not checked(DedupConfig.from_settings, settings).enabled:
        return  # the dedup pipeline module (datasketch, numpy) is not even imported
    from .dedup_pipeline import NearDuplicatePipeline

    order = enabled_order(settings, "ITEM_PIPELINES", MaincPipeline)
    order = (PIPELINE_ORDER if order is None else order) + DEDUP_PIPELINE_OFFSET
    settings.setdefault_in_component_priority_dict("ITEM_PIPELINES", NearDuplicatePipeline, order)
