"""The options ``mainc crawl`` and ``mainc warc`` share, and the settings they stand for.

:class:`ItemOptions` holds them (``CrawlJob`` and ``ArchiveJob`` add their own);
:func:`option_settings` turns them into ``MAINC_`` settings, written once for both commands,
under the ``-s NAME=VALUE`` settings the user gives (which apply last).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

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
    #: ``MAINC_MIN_QUALITY``: drop items whose quality estimate is under it; None: none.
    min_quality: float | None = None
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
    if options.min_quality is not None:
        settings["MAINC_MIN_QUALITY"] = options.min_quality
    if options.dedup or options.redis_url:
        settings["MAINC_DEDUP_ENABLED"] = True
    if options.redis_url:
        settings["MAINC_DEDUP_REDIS_URL"] = options.redis_url
    if options.markdown:
        settings["MAINC_MARKDOWN_FIELD"] = "markdown"
    return settings
