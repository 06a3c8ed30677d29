"""``scrapy mainc URL_OR_FILE``: fetch one page and print what the pipeline would attach.

The page is fetched with the project's settings (middlewares, headers, proxies) and the
spider that would handle its URL, so per-spider and per-domain algorithm choices apply; a
local file is fetched through its ``file://`` URI. Only scrapy_mainc's pipeline runs, in
``inline`` mode, and the item is printed as JSON instead of being exported: the
extraction's fields and the page's metadata (``published``, ``authors``, ``site_name``...,
named by the ``MAINC_*_FIELD`` settings; ``--no-metadata`` leaves them out).
"""

from __future__ import annotations

import json
import logging
import sys
from http import HTTPStatus
from pathlib import Path
from typing import TYPE_CHECKING, Any

from scrapy import Request, Spider, signals
from scrapy.commands import ScrapyCommand
from scrapy.exceptions import UsageError
from scrapy.spidermiddlewares.httperror import HttpError
from scrapy.utils.spider import DefaultSpider, spidercls_for_request
from w3lib.url import is_url

from ..algorithms import ALGORITHMS
from ..config._mainc_config import SPIDER_ALGORITHM_ATTRIBUTE
from .addon import COMPONENTS
from .pipeline import PIPELINE_ORDER, MaincPipeline

if TYPE_CHECKING:
    from argparse import ArgumentParser, Namespace
    from collections.abc import AsyncIterator, Iterator

    from scrapy.crawler import Crawler, CrawlerProcessBase
    from scrapy.http import Response
    from twisted.python.failure import Failure

#: Scrapy components that log a failed download of their own: the robots.txt middleware
#: (with a traceback of some 70 lines) and the retry middleware ("Gave up retrying").
DOWNLOAD_ERROR_LOGGERS = ("scrapy.downloadermiddlewares.robotstxt", "scrapy.downloadermiddlewares.retry")


class HeldErrors(logging.Filter):
    """Holds back the ERROR records of the loggers it is added to: the command says in its
    own line why there is no page, and says the held ones, in one line each, when there is."""

    def __init__(self) -> None:
        super().__init__()
        self.held: list[logging.LogRecord] = []

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno < logging.ERROR:
            return True
        self.held.append(record)
        return False

    def lines(self) -> list[str]:
        """The held messages, one line each, without their tracebacks."""
        return [" ".join(record.getMessage().split()) for record in self.held]


class Command(ScrapyCommand):
    requires_project = False
    default_settings = {"LOG_LEVEL": "WARNING"}

    def syntax(self) -> str:
        return "[options] <url or file>"

    def short_desc(self) -> str:
        return "Print what scrapy_mainc would attach to an item from a page"

    def long_desc(self) -> str:
        return (
            "Fetch a URL (or a local HTML file) with the project's settings, run "
            "scrapy_mainc's extraction on it and print the fields the pipeline would "
            "attach to an item (text, HTML, title, publication date, authors and the page's "
            "other metadata), as JSON."
        )

    def add_options(self, parser: ArgumentParser) -> None:
        super().add_options(parser)
        parser.add_argument("--algorithm", choices=list(ALGORITHMS), help="use this algorithm for the page")
        parser.add_argument("--spider", help="use this project spider's settings and mainc_algorithm")
        parser.add_argument(
            "--no-metadata",
            dest="metadata",
            action="store_false",
            help="skip the metadata stage (MAINC_METADATA_ENABLED = False)",
        )

    def process_options(self, args: list[str], opts: Namespace) -> None:
        super().process_options(args, opts)
        settings = self.settings
        assert settings is not None
        settings.set("MAINC_ENABLED", True, priority="cmdline")
        settings.set("MAINC_WORKER_MODE", "inline", priority="cmdline")
        settings.set("ITEM_PIPELINES", {MaincPipeline: PIPELINE_ORDER}, priority="cmdline")
        settings.set("FEEDS", {}, priority="cmdline")
        if not opts.metadata:
            settings.set("MAINC_METADATA_ENABLED", False, priority="cmdline")
        if opts.algorithm:
            settings.set("MAINC_ALGORITHM", opts.algorithm, priority="cmdline")
            settings.set("MAINC_DOMAIN_ALGORITHMS", {}, priority="cmdline")
        for setting, component, order in COMPONENTS:
            settings.setdefault_in_component_priority_dict(setting, component, order)

    def run(self, args: list[str], opts: Namespace) -> None:
        if len(args) != 1:
            raise UsageError("give one URL or HTML file")
        url = page_url(args[0])
        process = self.crawler_process
        assert process is not None
        base: type[Spider] = DefaultSpider
        if opts.spider:
            base = process.spider_loader.load(opts.spider)
        else:
            base = spidercls_for_request(process.spider_loader, Request(url), base)
        problems: list[str] = []
        crawler = process.create_crawler(fetching_spider(base, url, opts.algorithm, problems))
        items: list[Any] = []

        def collect(item: Any) -> None:  # a local: it stays referenced while crawling
            items.append(item)

        crawler.signals.connect(collect, signal=signals.item_scraped)
        held = _crawl_holding_errors(process, crawler)
        if not items:
            if process.bootstrap_failed:
                problems.append("the crawl did not start (the ERROR above says why)")
            why = problems[0] if problems else "see the log (-L INFO)"
            print(f"scrapy mainc: no page from {url}: {why}", file=sys.stderr)
            self.exitcode = 1
            return
        for line in held.lines():  # the page came: these were about something else (robots.txt)
            print(f"scrapy mainc: {line}", file=sys.stderr)
        output = json.dumps(dict(items[0]), ensure_ascii=False, indent=2, default=str)
        sys.stdout.write(output + "\n")


def _crawl_holding_errors(process: CrawlerProcessBase, crawler: Crawler) -> HeldErrors:
    """Run the crawl with the download errors of ``DOWNLOAD_ERROR_LOGGERS`` held back."""
    held = HeldErrors()
    for name in DOWNLOAD_ERROR_LOGGERS:
        logging.getLogger(name).addFilter(held)
    try:
        process.crawl(crawler)
        process.start()
    finally:
        for name in DOWNLOAD_ERROR_LOGGERS:
            logging.getLogger(name).removeFilter(held)
    return held


def page_url(argument: str) -> str:
    """``argument`` as a URL: an existing file becomes its ``file://`` URI."""
    path = Path(argument)
    if not is_url(argument) and path.is_file():
        return path.resolve().as_uri()
    if is_url(argument):
        return argument
    raise UsageError(f"not a URL or a file: {argument}")


def fetching_spider(
    base: type[Spider], url: str, algorithm: str | None, problems: list[str] | None = None
) -> type[Spider]:
    """A subclass of ``base`` (keeping its settings) whose only request is ``url``; why the
    page could not be had (an HTTP status, a download error) is appended to ``problems``."""

    def failed(failure: Failure) -> None:
        if problems is not None:
            problems.append(_describe_failure(failure))

    async def start(self: Spider) -> AsyncIterator[Any]:
        yield Request(url, callback=_page_item, errback=failed, dont_filter=True)

    attributes: dict[str, Any] = {"start": start, "__module__": __name__}
    if algorithm:
        attributes[SPIDER_ALGORITHM_ATTRIBUTE] = algorithm
    return type(base.__name__, (base,), attributes)


def _page_item(response: Response) -> Iterator[dict[str, Any]]:
    yield {"url": response.url}


def _describe_failure(failure: Failure) -> str:
    """``HTTP 404 Not Found`` for an HTTP error status, else the error's type and message."""
    error = failure.value
    if isinstance(error, HttpError):
        status = error.response.status
        try:
            return f"HTTP {status} {HTTPStatus(status).phrase}"
        except ValueError:  # not a standard status
            return f"HTTP {status}"
    return " ".join(f"{type(error).__name__}: {error}".split())
