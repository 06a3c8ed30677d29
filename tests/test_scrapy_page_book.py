"""The spider middleware and the page book on real Scrapy objects, without crawling: the
page filed for the pipeline, found again by the item's identity or URL, and let go when its
items have left (crawls: tests/test_scrapy_handoff.py)."""

from __future__ import annotations

import gc
from typing import Any

from scrapy import Request, Spider
from scrapy.http import HtmlResponse, Response
from scrapy.utils.test import get_crawler

from scrapy_mainc.integration._page_handoff import MAX_LOOSE_TRAILS, ItemBook, book_of
from scrapy_mainc.integration.middleware import MaincSpiderMiddleware
from scrapy_mainc.items._page import Page

#: The book holds a fingerprint without looking into it.
FINGERPRINT: Any = object()


def test_the_spider_middleware_files_the_page_for_the_pipeline() -> None:
    crawler = get_crawler(Spider)
    middleware = MaincSpiderMiddleware.from_crawler(crawler)
    request = Request("http://127.0.0.1/a", meta={"mainc": {"lang": "en"}})
    response = HtmlResponse(request.url, body=b"<p>hello</p>", encoding="utf-8", request=request)
    item: dict[str, Any] = {}
    assert list(middleware.process_spider_output(response, [item, request])) == [item, request]
    trail = book_of(crawler).claim(item, None)
    assert trail is not None
    assert trail.page == Page(html="<p>hello</p>", url=request.url, annotations={"lang": "en"})
    binary = Response("http://127.0.0.1/b", body=b"\x89PNG", request=Request("http://127.0.0.1/b"))
    middleware.process_spider_output(binary, [item]).__next__()
    assert book_of(crawler).claim(item, None).page.html == b"\x89PNG"  # type: ignore[union-attr]


def _response(url: str, redirected_from: str = "") -> HtmlResponse:
    meta = {"redirect_urls": [redirected_from]} if redirected_from else {}
    request = Request(url, meta=meta)
    return HtmlResponse(url, body=b"<p>x</p>", encoding="utf-8", request=request)


def _file(book: ItemBook, item: Any, response: HtmlResponse) -> Page:
    page = Page(response.text, response.url)
    book.file(item, response, page, [response.url, *response.request.meta.get("redirect_urls", [])])  # type: ignore[union-attr]
    return page


def test_the_book_finds_an_item_by_identity_then_by_url() -> None:
    book = ItemBook()
    first, other = _response("http://a/1", redirected_from="http://a/old"), _response("http://a/2")
    item, twin = {"url": "http://a/1"}, {"url": "http://a/1"}
    page = _file(book, item, first)
    _file(book, {"url": "http://a/2"}, other)
    assert book.claim(item, None).page is page  # type: ignore[union-attr]
    assert book.claim(twin, None) is None  # equal is not the same item
    assert book.claim(twin, "http://a/old").page is page  # type: ignore[union-attr]
    assert book.claim(twin, "http://elsewhere/") is None
    assert (book.pages, book.trails) == (2, 2)


def test_a_url_match_prefers_an_item_not_yet_claimed() -> None:
    book = ItemBook()
    response = _response("http://a/1")
    items = [{"n": 1}, {"n": 2}]
    for item in items:
        _file(book, item, response)
    first = book.claim(dict(items[0]), "http://a/1")
    second = book.claim(dict(items[1]), "http://a/1")
    assert first is not None and second is not None and first is not second


def test_a_page_goes_when_the_last_item_of_its_response_has_left() -> None:
    book = ItemBook()
    response = _response("http://a/1")
    items = [{"n": n} for n in range(3)]
    for item in items:
        _file(book, item, response)
    book.item_left(items[0], response=response)  # dropped, say: the spider's object
    converted = dict(items[1])  # a pipeline replaced it: scraped as another object
    book.claim(converted, "http://a/1")
    book.item_left(converted, response=response)
    assert (book.pages, book.trails) == (1, 1)
    book.item_left({"unknown": True}, response=response)  # replaced after the pipelines
    assert (book.pages, book.trails) == (0, 0)
    assert book.claim(items[2], "http://a/1") is None


def test_a_page_goes_with_its_response_when_no_item_signals() -> None:
    book = ItemBook()
    response = _response("http://a/1")
    _file(book, {"never": "reaches the pipelines"}, response)
    assert book.pages == 1
    del response
    gc.collect()
    assert (book.pages, book.trails) == (0, 0)


def test_a_fingerprint_goes_beside_the_object_the_pipeline_returned() -> None:
    book = ItemBook()
    response = _response("http://a/1")
    spider_item: dict[str, Any] = {"url": "http://a/1"}
    _file(book, spider_item, response)
    trail = book.claim(spider_item, "http://a/1")
    returned = dict(spider_item)
    book.bind(trail, returned)  # type: ignore[arg-type]
    book.keep_fingerprint(trail, returned, FINGERPRINT)
    assert book.take_fingerprint(returned, None) is FINGERPRINT
    assert book.take_fingerprint(returned, None) is None  # taken
    book.keep_fingerprint(trail, returned, FINGERPRINT)
    assert book.take_fingerprint(dict(returned), "http://a/1") is FINGERPRINT  # replaced again
    book.item_left(returned, response=response)
    assert (book.pages, book.trails) == (0, 0)


def test_fingerprints_of_items_from_no_response_are_bounded() -> None:
    book = ItemBook()
    item = {"from": "start()"}
    book.keep_fingerprint(None, item, FINGERPRINT)
    assert book.trails == 1
    book.item_left(item, response=None)
    assert book.trails == 0
    for number in range(MAX_LOOSE_TRAILS + 5):
        book.keep_fingerprint(None, {"n": number}, FINGERPRINT)
    assert book.trails == MAX_LOOSE_TRAILS
    book.clear()
    assert (book.pages, book.trails) == (0, 0)
