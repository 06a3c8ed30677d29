"""The add-on: ``ADDONS = {"scrapy_mainc.Addon": 0}`` turns the whole integration on.

It only edits settings: it writes every ``MAINC_`` default at ``"addon"`` priority (so
project, spider and command-line settings override it) and adds the three components to
their component dictionaries unless the project already placed (or disabled) them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._config import SETTINGS
from .middleware import (
    DOWNLOADER_MIDDLEWARE_ORDER,
    SPIDER_MIDDLEWARE_ORDER,
    MaincDownloaderMiddleware,
    MaincSpiderMiddleware,
)
from .pipeline import PIPELINE_ORDER, MaincPipeline

if TYPE_CHECKING:
    from scrapy.settings import BaseSettings

#: ``(component dictionary setting, component, order)`` the add-on enables.
COMPONENTS = (
    ("DOWNLOADER_MIDDLEWARES", MaincDownloaderMiddleware, DOWNLOADER_MIDDLEWARE_ORDER),
    ("SPIDER_MIDDLEWARES", MaincSpiderMiddleware, SPIDER_MIDDLEWARE_ORDER),
    ("ITEM_PIPELINES", MaincPipeline, PIPELINE_ORDER),
)


class Addon:
    """Enable scrapy_mainc's middlewares and pipeline with the documented defaults."""

    def update_settings(self, settings: BaseSettings) -> None:
        for name, default in SETTINGS.items():
            settings.set(name, default, priority="addon")
        for setting, component, order in COMPONENTS:
            settings.setdefault_in_component_priority_dict(setting, component, order)
