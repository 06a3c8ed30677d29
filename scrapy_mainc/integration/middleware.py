"""The Scrapy middlewares: annotate HTML responses, attach each page to its items; and the
decoding of a page as the downloader middleware decodes it.

``MaincDownloaderMiddleware`` records :class:`~scrapy_mainc.core._annotate.PageAnnotations` in
``response.meta["mainc"]`` and re-decodes pages that Scrapy decoded wrongly (undeclared
or wrongly declared charsets): :func:`settle_response`.
``MaincSpiderMiddleware`` files the page of every item a callback produces, for
:class:`~scrapy_mainc.MaincPipeline` to extract (see ``_page_handoff``).

:func:`decoded_page` gives a page that comes from no crawl (a WARC record's HTTP headers and
body, in archive mode) the same treatment: Scrapy's response class and encoding for the
headers and body, then :func:`settle_response`.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from scrapy.exceptions import NotConfigured
from scrapy.http import Headers, HtmlResponse, Response, TextResponse
from scrapy.responsetypes import responsetypes
from scrapy.spidermiddlewares.base import BaseSpiderMiddleware

from ..config._mainc_config import MaincConfig
from ..core._annotate import annotate, better_encoding, declared_encoding
from ..items._page import Page
from ._page_handoff import book_of
from ._startup import check_crawl, checked

if TYPE_CHECKING:
    from scrapy import Request, Spider
    from scrapy.crawler import Crawler
    from typing_extensions import Self

logger = logging.getLogger(__name__)

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
    """Attach the page each item came from, for the pipeline (see ``_page_handoff``)."""

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


def attached_page(response: Response) -> Page:
    """The page of ``response``: decoded text for text responses, else the raw body."""
    page: str | bytes = response.text if isinstance(response, TextResponse) else response.body
    request = response.request
    annotations = request.meta.get(META_KEY) if request is not None else None
    fetched = (response.headers.get(b"Date") or b"").decode("latin-1")
    return Page(page, response.url, dict(annotations or {}), fetched)


# --- decoding: the downloader middleware's, and a page from no crawl's -----------------


def is_html(response: Response) -> bool:
    """True for HTML responses: ``HtmlResponse``, or text declared as (X)HTML."""
    if isinstance(response, HtmlResponse):
        return True
    if not isinstance(response, TextResponse):
        return False
    content_type = (response.headers.get(b"Content-Type") or b"").lower()
    return b"html" in content_type


@dataclass(frozen=True, slots=True)
class DecodedPage:
    """A page as the crawl hands it to the pipeline: its text and the annotations."""

    text: str
    annotations: dict[str, Any]
    #: The encoding was not the one Scrapy inferred (``mainc/redecoded``).
    redecoded: bool = False


def decoded_page(
    url: str, headers: Sequence[tuple[str, str]], body: bytes, redecode: bool = True
) -> DecodedPage | None:
    """``body`` (with its HTTP ``headers``, content and transfer encodings already undone)
    decoded as the crawl decodes a response from ``url``; None when the crawl's middleware
    would not take it for HTML."""
    kept = Headers([(name, value) for name, value in headers if name.lower() not in _UNDONE])
    response_class = responsetypes.from_args(headers=kept, url=url, body=body)
    response = response_class(url=url, headers=kept, body=body)
    if not is_html(response):
        return None
    settled, annotations, redecoded = settle_response(response, redecode)  # type: ignore[arg-type]
    return DecodedPage(settled.text, annotations, redecoded)


#: Headers of encodings the archive reader has undone (as the crawl's compression middleware
#: does before the response class is chosen).
_UNDONE = frozenset({"content-encoding", "transfer-encoding", "content-length"})


def settle_response(response: TextResponse, redecode: bool) -> tuple[TextResponse, dict[str, Any], bool]:
    """The downloader middleware's step: ``response`` re-decoded when its charset is
    undeclared or wrong and the sniffer confidently finds another (with ``redecode``), its
    annotations (``response.meta["mainc"]``), and whether it was re-decoded."""
    content_type = (response.headers.get(b"Content-Type") or b"").decode("latin-1")
    declared = declared_encoding(content_type, response.body)
    redecoded = False
    if redecode:
        encoding = better_encoding(response.body, response.encoding, declared)
        if encoding:
            logger.debug("mainc: decoding %s as %s, not %s", response.url, encoding, response.encoding)
            response = response.replace(encoding=encoding)
            redecoded = True
    annotations = annotate(
        response.text, declared_encoding=declared, encoding=response.encoding, redecoded=redecoded
    )
    return response, annotations.as_meta(), redecoded
