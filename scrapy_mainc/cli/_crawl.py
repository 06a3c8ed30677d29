"""``mainc crawl URL|FILE ... -o items.jsonl``: crawl with the add-on (Scrapy imported only
here, when crawling: ``_crawl_job`` does the work).

A URL is a sitemap (news sitemaps and sitemap indexes too), a robots.txt (its sitemaps),
an RSS or Atom feed, or a start page whose links within its site are followed. A file is
a sitemap or feed (XML), or else a list of URLs, one per line (``#`` comments), that are
extracted and not followed.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from ..config._registry import unknown_settings
from ._errors import CommandError
from ._inputs import is_url
from ._options import add_item_options, item_options
from ._values import whole_number


def add_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    command = commands.add_parser(
        "crawl",
        help="crawl a sitemap, a feed, a site or a list of URLs; items as JSON Lines",
        description=__doc__.split("\n\n")[1] if __doc__ else None,
    )
    command.add_argument("inputs", nargs="+", metavar="URL|FILE", help="sitemap, feed, start page, or a file")
    depth = whole_number(0, "not 0 (no limit) or a positive integer: {!r}")
    command.add_argument(
        "--depth", type=depth, default=0, metavar="N", help="follow links N deep at most (default: no limit)"
    )
    add_item_options(command, "any Scrapy setting")
    command.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    start_urls, page_urls = _inputs(args.inputs)
    options = item_options(args)
    _refuse_unknown(options["settings"])
    from ._crawl_job import CrawlJob  # Scrapy only when crawling
    from ._crawl_job import run as run_crawl

    job = CrawlJob(start_urls=tuple(start_urls), page_urls=tuple(page_urls), depth=args.depth, **options)
    return run_crawl(job)


def _refuse_unknown(settings: dict[str, Any]) -> None:
    """A CommandError for a ``-s MAINC_`` name that is no setting (a misspelt one), as
    ``mainc warc`` gives: typed on this command line, it is refused, not only warned of as
    in a project's settings."""
    for name, nearest in unknown_settings(settings)[:1]:
        hint = f"; did you mean {nearest}?" if nearest else ""
        raise CommandError(f"{name} is not a scrapy_mainc setting{hint}")


def _inputs(arguments: list[str]) -> tuple[list[str], list[str]]:
    """Start URLs (routed by what they are) and page URLs (from list files)."""
    start_urls: list[str] = []
    page_urls: list[str] = []
    for argument in arguments:
        if is_url(argument):
            start_urls.append(argument)
            continue
        path = Path(argument)
        try:
            data = path.read_bytes()
        except OSError as exc:
            raise CommandError(f"cannot read {exc.filename}: {exc.strerror}") from exc
        if data.lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b"<"):  # a sitemap or a feed
            start_urls.append(path.resolve().as_uri())
            continue
        page_urls.extend(_listed_urls(argument, data))
    return start_urls, page_urls


def _listed_urls(argument: str, data: bytes) -> list[str]:
    """The URLs of the list file ``argument`` (``data``): one a line, ``#`` comments."""
    lines = data.decode("utf-8", "replace").splitlines()
    urls = [line.strip() for line in lines if line.strip() and not line.lstrip().startswith("#")]
    if not urls:
        raise CommandError(f"{argument}: the list holds no URLs (one URL a line; # starts a comment)")
    bad = [url for url in urls if not is_url(url)]
    if bad:
        raise CommandError(f"{argument}: not a URL: {bad[0]!r} (a list holds one URL a line)")
    return urls
