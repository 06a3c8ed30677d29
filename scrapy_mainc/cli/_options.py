"""The options ``mainc crawl`` and ``mainc warc`` share: what the items hold and keep, the
near-duplicate clustering, progress lines and ``-s`` settings. Defined once, so that the
two commands take them alike (``config._command_options.option_settings`` turns them into
settings)."""

from __future__ import annotations

import argparse
from typing import Any

from ..algorithms._auto_params import FAVOR_PRESETS
from ..core._pagetype import PAGE_TYPES
from ._errors import CommandError
from ._values import positive_seconds, quality_share, whole_number

#: Where the items go without ``-o``.
DEFAULT_OUTPUT = "items.jsonl"


def add_item_options(command: argparse.ArgumentParser, setting_help: str) -> None:
    """``-o``, ``--limit``, ``--languages``, ``--page-types`` or ``--articles-only``,
    ``--min-quality``, ``--dedup``, ``--redis``, ``--markdown``, ``--favor``, ``--progress``
    and ``-s``."""
    command.add_argument(  # None when not given: mainc warc refuses it with --parts
        "-o", "--output", help=f"JSON Lines file, or - for standard output (default: {DEFAULT_OUTPUT})"
    )
    limit = whole_number(1, "not a positive integer: {!r} (without --limit: no limit)")
    command.add_argument(
        "--limit", type=limit, default=0, metavar="N", help="extract at most N pages (default: no limit)"
    )
    command.add_argument("--languages", default="", help="keep items in these languages only: en,de")
    kinds = command.add_mutually_exclusive_group()
    kinds.add_argument(
        "--page-types",
        nargs="+",
        choices=PAGE_TYPES,
        default=[],
        metavar="TYPE",
        help=f"keep items of these page types only: {', '.join(PAGE_TYPES)}",
    )
    kinds.add_argument(
        "--articles-only", action="store_true", help="keep article pages only (--page-types article)"
    )
    add_min_quality(command, "drop items")
    command.add_argument(
        "--dedup", action="store_true", help="cluster near-duplicates (cluster_id, duplicate_of)"
    )
    command.add_argument("--redis", default="", metavar="URL", help="share the near-duplicate index in Redis")
    command.add_argument(
        "--markdown", action="store_true", help="add the article as Markdown (field 'markdown')"
    )
    command.add_argument("--favor", choices=tuple(FAVOR_PRESETS), default="balanced")
    command.add_argument(
        "--progress",
        type=positive_seconds,
        default=5.0,
        metavar="SECONDS",
        help="seconds between progress lines (default: 5)",
    )
    command.add_argument(
        "-s", "--set", dest="settings", action="append", default=[], metavar="NAME=VALUE", help=setting_help
    )


def add_min_quality(command: argparse.ArgumentParser, what: str) -> None:
    """``--min-quality``: ``what`` (items, pages) whose quality estimate is under it are left out."""
    command.add_argument(
        "--min-quality",
        type=quality_share,
        default=None,
        metavar="Q",
        help=f"{what} whose quality estimate (0 to 1, the expected word F1) is under Q",
    )


def item_options(args: argparse.Namespace) -> dict[str, Any]:
    """The shared options of ``args`` as keyword arguments of ``CrawlJob`` and ``ArchiveJob``."""
    return {
        "output": args.output or DEFAULT_OUTPUT,
        "limit": args.limit,
        "favor": args.favor,
        "languages": tuple(code.strip() for code in (args.languages or "").split(",") if code.strip()),
        "page_types": tuple(args.page_types),
        "articles_only": args.articles_only,
        "min_quality": args.min_quality,
        "dedup": args.dedup,
        "redis_url": args.redis or "",
        "markdown": args.markdown,
        "settings": settings_of(args),
        "progress_interval": args.progress,
    }


def settings_of(args: argparse.Namespace) -> dict[str, Any]:
    """The ``-s NAME=VALUE`` settings."""
    settings: dict[str, Any] = {}
    for pair in args.settings:
        name, equals, value = pair.partition("=")
        if not equals or not name:
            raise CommandError(f"-s takes NAME=VALUE, not {pair!r}")
        settings[name.strip()] = value
    return settings
