"""The Scrapy middlewares: annotate HTML responses, attach each page to its items.

``MaincDownloaderMiddleware`` records :class:`~scrapy_mainc.core._annotate.PageAnnotations` in
``response.meta["mainc"]`` and re-decodes pages that Scrapy decoded wrongly (undeclared
or wrongly declared charsets).
``MaincSpiderMiddleware`` files the page of every item a callback produces, for
:class:`~scrapy_mainc.MaincPipeline` to extract (see ``_pages``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from scrapy.exceptions import NotConfigured
from scrapy.http import Response, TextResponse
from scrapy.spidermiddlewares.base import BaseSpiderMiddleware

from ._config import MaincConfig
from ._decoding import is_html, settle_response
from ._pages import AttachedPage, book_of
from ._startup import check_crawl, checked

if TYPE_CHECKING:
    from scrapy import Request, Spider
    from scrapy.crawler import Crawler
    from typing_extensions import Self


#: Key of the annotations in ``response.meta``.
META_KEY = "mainc"
#: Order in DOWNLOADER_MIDDLEWARES: after HttpCompressionMiddleware (590) has decompressed.
DOWNLOADER_MIDDLEWARE_ORDER = 585
#: Order in SPIDER_MIDDLEWARES: nearest the engine, so it sees the final items.
SPIDER_MIDDLEWARE_ORDER = 10


def _enabled_config(crawler: Crawler) -> MaincConfig:
    check_crawl(crawler)
    config = checked(MaincConfig.from_settings, crawler.settings)
    if not config.enabled:
        raise NotConfigured("MAINC_ENABLED is False")
    return config


class MaincDownloaderMiddleware:
    """Annotate HTML responses; re-decode pages whose charset is undeclared or wrong.

    When a page declares no charset (or declares one that does not fit its bytes) and the
    core's sniffer confidently finds another encoding than the one Scrapy used, the
    response is replaced by a copy with that encoding, so ``response.text`` is right for
    the spider as well as for the extraction.
    """

    def __init__(self, crawler: Crawler) -> None:
        self.config = _enabled_config(crawler)
        self.crawler = crawler

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        return cls(crawler)

    def process_response(
        self, request: Request, response: Response, spider: Spider | None = None
    ) -> Response:
        if not is_html(response):
            return response
        assert isinstance(response, TextResponse)
        response, annotations, redecoded = settle_response(response, self.config.redecode)
        if redecoded and self.crawler.stats:
            self.crawler.stats.inc_value("mainc/redecoded")
        request.meta[META_KEY] = annotations
        return response


class MaincSpiderMiddleware(BaseSpiderMiddleware):
    """Attach the page each item came from, for the pipeline (see ``_pages``)."""

    def __init__(self, crawler: Crawler) -> None:
        super().__init__(crawler)
        self.config = _enabled_config(crawler)
        self.book = book_of(crawler)
        self.book.filing = True

    def get_processed_item(self, item: Any, response: Response | None) -> Any:
        if isinstance(response, Response):
            self.book.file(item, response, attached_page(response), response_urls(response))
        return item


def response_urls(response: Response) -> list[str]:
    """The URLs an item of ``response`` may give as its own: the response's, its request's,
    and those it was redirected from."""
    urls = [response.url]
    request = response.request
    if request is not None:
        urls.append(request.url)
        urls.extend(str(url) for url in request.meta.get("redirect_urls", ()))
    return urls


def attached_page(response: Response) -> AttachedPage:
    """The page of ``response``: decoded text for text responses, else the raw body."""
    page: str | bytes = response.text if isinstance(response, TextResponse) else response.body
    request = response.request
    annotations = request.meta.get(META_KEY) if request is not None else None
    fetched = (response.headers.get(b"Date") or b"").decode("latin-1")
    return AttachedPage(page=page, url=response.url, annotations=dict(annotations or {}), fetched=fetched)
