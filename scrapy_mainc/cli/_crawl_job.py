"""``mainc crawl``: a Scrapy crawl with the add-on, from a sitemap, a feed, a start page or
a list of URLs, its items written as JSON Lines.

The spider is Scrapy's own machinery: a ``CrawlSpider`` (link rules, for a start page
followed within its site) that is also a ``SitemapSpider`` (sitemaps, sitemap indexes,
news sitemaps, gzipped ones and the ``Sitemap:`` lines of robots.txt, through its
``_parse_sitemap``). Each start URL is fetched first and routed by what it is: a sitemap
(or robots.txt) gives its URLs, an RSS, RDF or Atom feed its entries' links, an HTML page
is a page and its links within the site are followed. A list of URLs gives pages that are
not followed. Every page becomes an item ``{"url": ...}`` that the add-on's pipeline fills
in. ``limit`` caps the pages requested for extraction (sitemaps and feeds do not count).

The crawl obeys robots.txt, runs AutoThrottle and Scrapy's retries, prints a progress line
every few seconds and a summary of its stats at the end (to standard error).
"""

from __future__ import annotations

import logging
import sys
import time
from collections.abc import AsyncIterator, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TextIO
from urllib.parse import urlsplit

from scrapy import Request, signals
from scrapy.crawler import AsyncCrawlerProcess, CrawlerProcess
from scrapy.linkextractors import LinkExtractor
from scrapy.selector import Selector
from scrapy.settings import Settings
from scrapy.spiders import CrawlSpider, Rule, SitemapSpider
from scrapy.utils.sitemap import Sitemap

from ..config._command_options import ItemOptions, option_settings
from ..integration._startup import StartupError
from ..integration.addon import Addon
from ..items._mainc_stats import drop_counts, outcome_lines
from ..items._runner import page_item

if TYPE_CHECKING:
    from scrapy.crawler import Crawler, CrawlerProcessBase
    from scrapy.http import Response
    from twisted.python.failure import Failure

#: AutoThrottle's first delay, seconds (Scrapy's default, 5, holds a crawl of one site
#: back for its first seconds; AutoThrottle then follows the server's latency).
START_DELAY = 1.0
#: The User-Agent of ``mainc crawl`` (robots.txt rules for it apply).
USER_AGENT = "scrapy-mainc (mainc crawl)"
#: Root elements of the feeds whose entries are pages (RSS 2.0, RSS 1.0/RDF, Atom).
FEED_ROOTS = frozenset({"rss", "RDF", "feed"})
SITEMAP_ROOTS = frozenset({"urlset", "sitemapindex"})
#: The links of a feed's entries: RSS ``<item><link>``, Atom ``<entry><link href>``.
FEED_LINKS_XPATH = (
    "//*[local-name()='item']/*[local-name()='link']/text()"
    " | //*[local-name()='entry']/*[local-name()='link'][not(@rel) or @rel='alternate']/@href"
)
#: Scrapy's default reactor, on which ``scrapy crawl`` runs ``AsyncCrawlerProcess``.
ASYNCIO_REACTOR = "twisted.internet.asyncioreactor.AsyncioSelectorReactor"
#: Scrapy components that log a failed download with a traceback of their own.
_TRACEBACK_LOGGERS = ("scrapy.downloadermiddlewares.robotstxt", "scrapy.core.scraper")


@dataclass(frozen=True, slots=True)
class CrawlJob(ItemOptions):
    """What to crawl and how (the options of ``mainc crawl``; ``limit`` counts the pages
    requested for extraction)."""

    #: URLs fetched first and routed: sitemaps, robots.txt, feeds, start pages.
    start_urls: tuple[str, ...] = ()
    #: URLs extracted as pages, not followed (a list of URLs).
    page_urls: tuple[str, ...] = ()
    #: Where the items go: a file path, or ``-`` for standard output.
    output: str = "items.jsonl"
    #: Links followed from a start page, at most this deep (``DEPTH_LIMIT``); 0: no limit.
    depth: int = 0


class MaincCrawlSpider(CrawlSpider, SitemapSpider):
    """Routes each start URL (see the module docstring); every page is an item."""

    name = "mainc"
    sitemap_rules = [("", "parse_page")]

    def __init__(
        self, start_urls: Sequence[str] = (), page_urls: Sequence[str] = (), limit: int = 0, **kwargs: Any
    ) -> None:
        self.start_pages = tuple(start_urls)
        self.page_urls = tuple(page_urls)
        self.limit = limit
        self.admitted: set[str] = set()
        sites = sorted({site_of(url) for url in self.start_pages} - {""})
        self.rules = (
            Rule(
                LinkExtractor(allow_domains=sites),
                callback="parse_page",
                follow=True,
                process_request="admit",
            ),
        )
        super().__init__(**kwargs)

    async def start(self) -> AsyncIterator[Request]:
        for url in self.start_pages:
            yield Request(url)  # no callback: CrawlSpider's, which calls parse_start_url
        for url in self.page_urls:
            request = self.admit(Request(url, callback=self.parse_page))
            if request is not None:
                yield request

    def parse_start_url(self, response: Response, **kwargs: Any) -> Iterable[Any]:
        """A start URL: a sitemap or robots.txt, a feed, or a page (whose links within the
        site CrawlSpider's rule follows)."""
        kind = kind_of(response, self._get_sitemap_body(response))
        if kind == "sitemap":
            return self.parse_sitemap(response)
        if kind == "feed":
            links = Selector(text=response.text, type="xml").xpath(FEED_LINKS_XPATH).getall()
            requests = (Request(response.urljoin(link.strip()), callback=self.parse_page) for link in links)
            return self._admitted(requests)
        return self.parse_page(response) if self.admit(response.request) is not None else ()

    def parse_page(self, response: Response) -> Iterator[dict[str, Any]]:
        yield page_item(response.url)

    def admit(self, request: Request | None, response: Response | None = None) -> Request | None:
        """``request`` if it is for a page within ``limit`` (a page asked for again is
        admitted again, for the duplicate filter to drop), else None."""
        if request is None:
            return None
        if self.limit and request.url not in self.admitted and len(self.admitted) >= self.limit:
            return None
        self.admitted.add(request.url)
        return request

    def parse_sitemap(self, response: Response) -> Iterator[Request]:
        """The pages of a sitemap (within ``limit``), or the sitemaps of an index or of
        robots.txt, parsed in turn here."""
        for request in self._parse_sitemap(response):
            if request.callback != self.parse_page:  # a sitemap of the index
                yield request.replace(callback=self.parse_sitemap)
            elif (admitted := self.admit(request)) is not None:
                yield admitted

    def _admitted(self, requests: Iterable[Request]) -> Iterator[Request]:
        """The page requests within ``limit``."""
        for request in requests:
            if (admitted := self.admit(request)) is not None:
                yield admitted


def site_of(url: str) -> str:
    """The site a start page's links are followed within: its host (and port, which
    Scrapy's domain matching compares too), without ``www.``, so that subdomains count."""
    netloc = urlsplit(url).netloc.lower().rpartition("@")[2]
    return netloc.removeprefix("www.")


def kind_of(response: Response, xml_body: bytes | None) -> str:
    """``sitemap`` (a sitemap, a sitemap index or robots.txt), ``feed`` or ``page``."""
    if response.url.endswith("/robots.txt"):
        return "sitemap"
    if not xml_body:
        return "page"
    try:
        root = Sitemap(xml_body).type
    except Exception:  # noqa: BLE001 - not XML after all: a page
        return "page"
    if root in SITEMAP_ROOTS:
        return "sitemap"
    return "feed" if root in FEED_ROOTS else "page"


def crawl_settings(job: CrawlJob) -> Settings:
    """The crawl's settings: the add-on, politeness, the feed; ``job.settings`` last."""
    output = "stdout:" if job.output == "-" else job.output
    settings = Settings(
        {
            "ADDONS": {Addon: 0},
            "ROBOTSTXT_OBEY": True,
            "AUTOTHROTTLE_ENABLED": True,
            "USER_AGENT": USER_AGENT,
            "LOG_LEVEL": "WARNING",
            "TELNETCONSOLE_ENABLED": False,
            "AUTOTHROTTLE_START_DELAY": START_DELAY,
            "FEEDS": {output: {"format": "jsonlines", "encoding": "utf-8", "overwrite": output != "stdout:"}},
        }
    )
    settings.setdict(_job_settings(job), priority="cmdline")
    settings.setdict(job.settings, priority="cmdline")
    return settings


def _job_settings(job: CrawlJob) -> dict[str, Any]:
    """The settings ``job``'s options stand for."""
    settings = option_settings(job)
    if job.depth:
        settings["DEPTH_LIMIT"] = job.depth
    return settings


def run(job: CrawlJob, stream: TextIO = sys.stderr) -> int:
    """Run ``job``; progress and the summary go to ``stream``. Returns the exit status: 1
    when the crawl did not start (a bad setting, an index that cannot be opened: the ERROR
    line says why, then one line says the crawl did not start) or fetched nothing, else 0."""
    process = crawler_process(crawl_settings(job))
    crawler = process.create_crawler(MaincCrawlSpider)
    progress = Progress(crawler, job.progress_interval, stream)
    for name in _TRACEBACK_LOGGERS:
        logging.getLogger(name).addFilter(_without_traceback)
    arguments = {"start_urls": job.start_urls, "page_urls": job.page_urls, "limit": job.limit}
    if isinstance(process, CrawlerProcess):  # a Deferred, which Twisted would report failed
        process.crawl(crawler, **arguments).addErrback(_said_in_its_error_line)
    else:
        process.crawl(crawler, **arguments)
    process.start()
    if process.bootstrap_failed:  # before reading stats: a crawl that did not start has none
        print("mainc crawl: the crawl did not start (the ERROR above says why)", file=stream)
        return 1
    stats = crawler.stats.get_stats()
    print(summary(stats, progress.elapsed(), job.output), file=stream)
    return 0 if stats.get("downloader/response_count") else 1


def crawler_process(settings: Settings) -> CrawlerProcessBase:
    """The process ``scrapy crawl`` runs with ``settings``: ``AsyncCrawlerProcess`` on the
    asyncio reactor (Scrapy's default), ``CrawlerProcess`` on another one."""
    if settings.get("TWISTED_REACTOR") == ASYNCIO_REACTOR and not settings.getbool("FORCE_CRAWLER_PROCESS"):
        return AsyncCrawlerProcess(settings)
    return CrawlerProcess(settings)


def _said_in_its_error_line(failure: Failure) -> Failure | None:
    """Consume a crawl's failure to start: its ERROR line said why, and Twisted would
    report the failed Deferred again, with two tracebacks (other errors go on)."""
    return None if isinstance(failure.value, StartupError) else failure


def _without_traceback(record: logging.LogRecord) -> bool:
    """A download error in one line: the traceback is Scrapy's, the message says it all."""
    record.exc_info, record.exc_text = None, None
    return True


class Progress:
    """A line every ``interval`` seconds while the crawl runs: pages, items, drops, errors."""

    def __init__(self, crawler: Crawler, interval: float, stream: TextIO) -> None:
        self.crawler, self.interval, self.stream = crawler, interval, stream
        self.started = time.monotonic()
        self.call: Any = None
        crawler.signals.connect(self.opened, signal=signals.spider_opened)
        crawler.signals.connect(self.closed, signal=signals.spider_closed)

    def opened(self) -> None:
        from twisted.internet import task  # imports the reactor: Scrapy installs it first

        self.started = time.monotonic()
        self.call = task.LoopingCall(self.report)
        self.call.start(self.interval, now=False)

    def closed(self) -> None:
        if self.call is not None and self.call.running:
            self.call.stop()

    def elapsed(self) -> float:
        return time.monotonic() - self.started

    def report(self) -> None:
        stats = self.crawler.stats.get_stats()  # set: the spider has opened
        pages, seconds = stats.get("downloader/response_count", 0), self.elapsed()
        print(
            f"mainc crawl: {seconds:.0f} s: {pages} pages fetched, "
            f"{stats.get('item_scraped_count', 0)} items written, {stats.get('item_dropped_count', 0)} "
            f"dropped, {stats.get('log_count/ERROR', 0)} errors ({pages / max(seconds, 1e-9):.1f} pages/s)",
            file=self.stream,
            flush=True,
        )


def summary(stats: dict[str, Any], seconds: float, output: str) -> str:
    """The closing lines: what was fetched, written, dropped, and what went wrong."""
    statuses = sorted(
        (int(key.rsplit("/", 1)[1]), count)
        for key, count in stats.items()
        if key.startswith("downloader/response_status_count/")
    )
    drops = drop_counts(stats)
    where = "standard output" if output == "-" else output
    lines = [
        f"mainc crawl: {stats.get('finish_reason', 'finished')} after {seconds:.1f} s",
        f"  pages fetched: {stats.get('downloader/response_count', 0)}"
        + (f" (HTTP {', '.join(f'{status}: {count}' for status, count in statuses)})" if statuses else ""),
        f"  items written: {stats.get('item_scraped_count', 0)} to {where}",
        f"  items dropped: {stats.get('item_dropped_count', 0)}" + (f" ({drops})" if drops else ""),
        f"  extraction: {stats.get('mainc/extracted', 0)} with text, {stats.get('mainc/empty', 0)} empty, "
        f"{stats.get('mainc/failed', 0)} failed",
        *outcome_lines(stats),
        f"  forbidden by robots.txt: {stats.get('robotstxt/forbidden', 0)}, retried: "
        f"{stats.get('retry/count', 0)}, download errors: {_download_errors(stats)}, "
        f"errors logged: {stats.get('log_count/ERROR', 0)}",
    ]
    return "\n".join(lines)


def _download_errors(stats: dict[str, Any]) -> int:
    """Downloads that failed (refused, timed out...), not the requests robots.txt forbade."""
    prefix = "downloader/exception_type_count/"
    return sum(
        count for key, count in stats.items() if key.startswith(prefix) and not key.endswith("IgnoreRequest")
    )
