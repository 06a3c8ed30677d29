"""The crawl's settings for pages fetched earlier (the archive mode).

``mainc warc`` and :mod:`scrapy_mainc.archive` make the items of ``mainc crawl`` from pages
that come from no crawl; their settings are the crawl's:

- :func:`option_settings`: the settings the item options of both commands stand for
  (``--markdown``, ``--dedup``...), written once;
- :class:`OfflineConfig`: the settings read as a crawl reads them: the given values over
  the add-on's defaults (``addon.set_defaults``, without the checks of a crawl), into the
  pipeline's ``MaincConfig`` and ``DedupConfig``.

Scrapy is imported inside :meth:`OfflineConfig.from_settings` only, so that importing this
module (the archive mode does) costs nothing. ``_decoding`` decodes the pages.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ._config import MaincConfig
from ._dedup_config import DedupConfig
from ._settings import unknown_settings

#: Seconds between two progress lines of ``mainc crawl`` and ``mainc warc``.
PROGRESS_INTERVAL = 5.0


@dataclass(frozen=True, slots=True, kw_only=True)
class ItemOptions:
    """The options ``mainc crawl`` and ``mainc warc`` share (``CrawlJob`` and ``ArchiveJob``
    add their own)."""

    #: Most pages extracted; 0: no limit.
    limit: int = 0
    #: ``MAINC_FAVOR``.
    favor: str = "balanced"
    #: ``MAINC_LANGUAGES``: keep only items in these languages; (): every language.
    languages: tuple[str, ...] = ()
    #: ``MAINC_PAGE_TYPES``: keep only items of these page types; (): every type.
    page_types: tuple[str, ...] = ()
    #: ``MAINC_ARTICLES_ONLY``.
    articles_only: bool = False
    #: Cluster near-duplicates (``MAINC_DEDUP_ENABLED``), in memory or...
    dedup: bool = False
    #: ...in the index at this Redis URL (``MAINC_DEDUP_REDIS_URL``; implies ``dedup``).
    redis_url: str = ""
    #: Add the article as Markdown, in the item field ``markdown``.
    markdown: bool = False
    #: More settings (``-s NAME=VALUE``), applied last.
    settings: dict[str, Any] = field(default_factory=dict)
    #: Seconds between two progress lines.
    progress_interval: float = PROGRESS_INTERVAL


def option_settings(options: ItemOptions) -> dict[str, Any]:
    """The settings ``options`` stand for."""
    settings: dict[str, Any] = {"MAINC_FAVOR": options.favor}
    if options.languages:
        settings["MAINC_LANGUAGES"] = list(options.languages)
    if options.page_types:
        settings["MAINC_PAGE_TYPES"] = list(options.page_types)
    if options.articles_only:
        settings["MAINC_ARTICLES_ONLY"] = True
    if options.dedup or options.redis_url:
        settings["MAINC_DEDUP_ENABLED"] = True
    if options.redis_url:
        settings["MAINC_DEDUP_REDIS_URL"] = options.redis_url
    if options.markdown:
        settings["MAINC_MARKDOWN_FIELD"] = "markdown"
    return settings


@dataclass(frozen=True, slots=True)
class OfflineConfig:
    """The pipeline's configuration of a crawl with the same settings."""

    mainc: MaincConfig = field(default_factory=MaincConfig)
    dedup: DedupConfig = field(default_factory=DedupConfig)

    @classmethod
    def from_settings(cls, values: Mapping[str, Any] | None = None) -> OfflineConfig:
        """Read ``values`` (``MAINC_`` settings; strings as ``-s`` gives them, or Python
        values) over the add-on's defaults. ValueError names a bad or unknown setting."""
        from scrapy.settings import Settings  # Scrapy when configuring only

        from .addon import set_defaults

        values = dict(values or {})
        unknown = unknown_settings(values)
        others = sorted(name for name in values if not name.startswith("MAINC_"))
        if unknown or others:
            name, nearest = unknown[0] if unknown else (others[0], "")
            hint = f"; did you mean {nearest}?" if nearest else " (only MAINC_ settings apply to pages)"
            raise ValueError(f"{name} is not a scrapy_mainc setting{hint}")
        settings = Settings(values, priority="cmdline")
        # a bad value is a ValueError here, before the add-on's defaults, which would log it
        # at ERROR and stop a crawl (StartupError) where there is none
        MaincConfig.from_settings(settings)
        DedupConfig.from_settings(settings)
        set_defaults(settings)  # as a crawl's add-on: under the given values
        return cls(MaincConfig.from_settings(settings), DedupConfig.from_settings(settings))
