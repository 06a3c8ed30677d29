"""The pieces of the Scrapy layer on real Scrapy objects, without crawling.

Annotations, re-decoding, the page book and item-field handling for every item type.
"""

from __future__ import annotations

import dataclasses
import gc
import json
import random
from typing import Any

import attrs
import pytest
import scrapy
from itemadapter import ItemAdapter
from scrapy import Request, Spider
from scrapy.http import HtmlResponse, Response, TextResponse
from scrapy.utils.test import get_crawler

from scrapy_mainc.core._annotate import annotate, better_encoding, declared_encoding
from scrapy_mainc.core._types import Extraction
from scrapy_mainc.integration._config import MaincConfig
from scrapy_mainc.integration._itemfields import (
    CLUSTER_FIELDS,
    FieldPolicy,
    ItemFields,
    MissingFieldError,
    cluster_fields_policy,
    set_if_declared,
)
from scrapy_mainc.integration._pages import MAX_LOOSE_TRAILS, AttachedPage, ItemBook, book_of
from scrapy_mainc.integration._workers import ExtractionTask, run_extraction
from scrapy_mainc.integration.middleware import (
    MaincDownloaderMiddleware,
    MaincSpiderMiddleware,
    attached_page,
)

CHINESE = "今年春天的茶叶价格比去年上涨了一些，茶农们说这是因为天气的原因。" * 4
GBK_PAGE = f"<html><head><title>茶</title></head><body><p>{CHINESE}</p></body></html>".encode("gbk")
#: Short enough to fool charset detection: Scrapy 2.19 reads it as cp949.
SHORT_GBK = (
    "<html><head><title>x</title></head><body><p>"
    "明前茶是真的好喝，就是价格有点贵。春茶开采 茶农盼个好价钱。</p></body></html>"
).encode("gbk")
#: The book holds a fingerprint without looking into it.
FINGERPRINT: Any = object()
EXTRACTION = Extraction(text="Body text", html="<p>Body text</p>", title="Found title", algorithm="auto")


# --- Annotations ------------------------------------------------------------------------


def test_language_from_markup_and_script() -> None:
    assert annotate('<html lang="en-GB"><body><p>Hello</p></body></html>').declared_lang == "en"
    meta = '<html><head><meta http-equiv="Content-Language" content="de-AT"></head><body>x'
    assert annotate(meta).declared_lang == "de"
    locale = "<html><head><meta property='og:locale' content='zh_CN'></head><body>x</body></html>"
    assert annotate(locale).declared_lang == "zh"
    chinese = annotate(f"<html><body><script>var a = 'x';</script><p>{CHINESE}</p></body></html>")
    assert (chinese.script, chinese.declared_lang) == ("zh", "")
    english = "An English page. " * 50
    mixed = annotate(f'<html lang="en"><body><p>{english}{CHINESE[:10]}</p></body></html>')
    assert (mixed.declared_lang, mixed.script) == ("en", "")
    # the language is said once in an item: mainc["lang"], the extraction's; not here
    assert "lang" not in mixed.as_meta()


@pytest.mark.parametrize(
    ("markup", "signals"),
    [
        ('<meta property="og:type" content="article">', ("og:type",)),
        ('<meta property="og:type" content="website">', ()),
        ('<script type="application/ld+json">{"@type": "NewsArticle"}</script>', ("json-ld",)),
        ('<script type="application/ld+json">{"@type": ["A", "Article"]}</script>', ("json-ld",)),
        ('<script type="application/ld+json">{"@type": "WebPage"}</script>', ()),
        ("<ARTICLE class=x>text</ARTICLE>", ("<article>",)),
        ("<div>an article about articles</div>", ()),
    ],
)
def test_article_signals(markup: str, signals: tuple[str, ...]) -> None:
    found = annotate(f"<html><head></head><body>{markup}</body></html>")
    assert found.article_signals == signals
    assert found.article is bool(signals)


def test_annotations_are_plain_json() -> None:
    meta = annotate("<article>x</article>", declared_encoding="utf-8", encoding="utf-8").as_meta()
    assert json.loads(json.dumps(meta)) == meta
    assert meta["article_signals"] == ["<article>"]


def test_declared_encoding_header_bom_meta() -> None:
    assert declared_encoding("text/html; charset=GBK", b"<html>") == "gb18030"  # w3lib's superset
    assert declared_encoding("text/html", b"\xef\xbb\xbf<html>") == "utf-8"
    assert declared_encoding("text/html", b'<meta charset="big5"><p>x') == "big5hkscs"
    assert declared_encoding("text/html", GBK_PAGE) == ""


def test_better_encoding_only_when_confident() -> None:
    assert better_encoding(GBK_PAGE, "cp1252") == "gb18030"
    assert better_encoding(GBK_PAGE, "gb18030") == ""  # Scrapy got it right
    assert better_encoding(b"<p>plain ascii</p>", "cp1252") == ""
    western = "<p>Caf\u00e9 cr\u00e8me br\u00fbl\u00e9e, na\u00efve.</p>".encode("cp1252")
    assert better_encoding(western, "cp1252") == ""  # the cp1252 fallback is never forced
    utf8 = f"<meta charset=iso-8859-1><p>{CHINESE}</p>".encode()
    assert better_encoding(utf8, "cp1252", declared="iso-8859-1") == "utf-8"
    right = f"<meta charset=utf-8><p>{CHINESE}</p>".encode()
    assert better_encoding(right, "utf-8", declared="utf-8") == ""


def test_better_encoding_when_a_declaration_garbles_ascii() -> None:
    ascii_page = b'<html><head><meta charset="utf-16"></head><body><p>plain words</p></body></html>'
    assert better_encoding(ascii_page, "utf-16", declared="utf-16") == "utf-8"
    assert better_encoding(ascii_page, "cp037", declared="cp037") == "utf-8"
    assert better_encoding(b"\xff\xfe" + ascii_page[:-1] + "\u00e9".encode(), "utf-16-le") == "utf-8"


# --- Downloader middleware ------------------------------------------------------------


def _middleware(**settings: Any) -> MaincDownloaderMiddleware:
    crawler = get_crawler(Spider, settings)
    crawler.stats.open_spider()
    return MaincDownloaderMiddleware.from_crawler(crawler)


def _html(body: bytes, content_type: bytes = b"text/html") -> tuple[Request, HtmlResponse]:
    request = Request("http://127.0.0.1/page.html")
    headers = {"Content-Type": content_type}
    response = HtmlResponse(request.url, body=body, headers=headers, request=request)
    return request, response


def test_a_wrongly_decoded_page_is_redecoded() -> None:
    middleware = _middleware()
    request, response = _html(SHORT_GBK)
    wrong = "明前茶" not in response.text  # Scrapy alone
    result = middleware.process_response(request, response)
    assert "明前茶是真的好喝" in result.text
    assert isinstance(result, HtmlResponse) and result.url == response.url
    assert request.meta["mainc"]["redecoded"] is wrong
    assert result.meta["mainc"]["encoding"] == ("gb18030" if wrong else response.encoding)
    assert middleware.crawler.stats.get_value("mainc/redecoded") == (1 if wrong else None)


def test_redecoding_can_be_switched_off() -> None:
    middleware = _middleware(MAINC_REDECODE=False)
    request, response = _html(SHORT_GBK)
    result = middleware.process_response(request, response)
    assert result is response and not request.meta["mainc"]["redecoded"]


def test_a_declared_page_keeps_scrapys_decoding() -> None:
    request, response = _html(f"<p>{CHINESE}</p>".encode("gbk"), b"text/html; charset=gbk")
    result = _middleware().process_response(request, response)
    assert result is response
    assert request.meta["mainc"]["declared_encoding"] == "gb18030"


@pytest.mark.parametrize(
    "response",
    [
        Response("http://127.0.0.1/a.pdf", body=b"%PDF-1.4", headers={"Content-Type": "x/pdf"}),
        TextResponse("http://127.0.0.1/a.json", body=b"{}", headers={"Content-Type": "text/json"}),
    ],
)
def test_non_html_responses_pass_untouched(response: Response) -> None:
    request = Request(response.url)
    assert _middleware().process_response(request, response) is response
    assert "mainc" not in request.meta


def test_html_served_as_text_is_annotated() -> None:
    request = Request("http://127.0.0.1/x")
    headers = {"Content-Type": "application/xhtml+xml"}
    response = TextResponse(request.url, body=b"<article>x</article>", headers=headers)
    _middleware().process_response(request, response)
    assert request.meta["mainc"]["article"]


# --- Spider middleware and the page book -------------------------------------------------


def test_the_spider_middleware_files_the_page_for_the_pipeline() -> None:
    crawler = get_crawler(Spider)
    middleware = MaincSpiderMiddleware.from_crawler(crawler)
    request = Request("http://127.0.0.1/a", meta={"mainc": {"lang": "en"}})
    response = HtmlResponse(request.url, body=b"<p>hello</p>", encoding="utf-8", request=request)
    item: dict[str, Any] = {}
    assert list(middleware.process_spider_output(response, [item, request])) == [item, request]
    trail = book_of(crawler).claim(item, None)
    assert trail is not None
    assert trail.page == AttachedPage(page="<p>hello</p>", url=request.url, annotations={"lang": "en"})
    binary = Response("http://127.0.0.1/b", body=b"\x89PNG", request=Request("http://127.0.0.1/b"))
    middleware.process_spider_output(binary, [item]).__next__()
    assert book_of(crawler).claim(item, None).page.page == b"\x89PNG"  # type: ignore[union-attr]


def _response(url: str, redirected_from: str = "") -> HtmlResponse:
    meta = {"redirect_urls": [redirected_from]} if redirected_from else {}
    request = Request(url, meta=meta)
    return HtmlResponse(url, body=b"<p>x</p>", encoding="utf-8", request=request)


def _file(book: ItemBook, item: Any, response: HtmlResponse) -> AttachedPage:
    page = AttachedPage(response.text, response.url)
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


# --- Item fields ------------------------------------------------------------------------


class FullItem(scrapy.Item):
    url = scrapy.Field()
    main_text = scrapy.Field()
    main_html = scrapy.Field()
    title = scrapy.Field()
    mainc = scrapy.Field()
    raw_html = scrapy.Field()


class ShortItem(scrapy.Item):
    url = scrapy.Field()
    main_text = scrapy.Field()


@dataclasses.dataclass
class DataItem:
    url: str = ""
    main_text: str = ""
    main_html: str = ""
    title: str | None = None
    mainc: dict[str, Any] | None = None
    raw_html: str | None = None


@attrs.define
class AttrsItem:
    url: str = ""
    main_text: str = ""
    main_html: str = ""
    title: str = ""
    mainc: dict[str, Any] = attrs.Factory(dict)
    raw_html: str | None = None


def _fields(**settings: Any) -> ItemFields:
    return ItemFields(MaincConfig.from_settings(scrapy.settings.Settings(settings)))


@pytest.mark.parametrize("item_class", [dict, FullItem, DataItem, AttrsItem])
def test_every_item_type_takes_the_fields(item_class: Any) -> None:
    fields = _fields()
    item = fields.prepare(item_class(url="http://a/", raw_html="<p>page</p>"))
    adapter = ItemAdapter(item)
    assert fields.page_in(adapter) == "<p>page</p>"
    fields.attach(adapter, EXTRACTION, {"algorithm": "auto"})
    fields.settle_page(adapter, "<p>page</p>")
    assert adapter["main_text"] == "Body text" and adapter["main_html"] == "<p>Body text</p>"
    assert adapter["title"] == "Found title" and adapter["mainc"] == {"algorithm": "auto"}
    assert adapter.get("raw_html") is None  # removed (or emptied on dataclass/attrs items)


def test_the_items_own_title_stays() -> None:
    fields = _fields()
    adapter = ItemAdapter({"title": "Mine"})
    fields.attach(adapter, EXTRACTION, {})
    assert adapter["title"] == "Mine"


def test_keep_page_keeps_or_writes_the_page() -> None:
    fields = _fields(MAINC_KEEP_PAGE=True)
    own = ItemAdapter({"raw_html": "<p>spider's</p>"})
    fields.settle_page(own, "<p>spider's</p>")
    assert own["raw_html"] == "<p>spider's</p>"
    attached = ItemAdapter(fields.prepare(DataItem()))
    fields.settle_page(attached, "<p>from the response</p>")
    assert attached["raw_html"] == "<p>from the response</p>"


def test_a_missing_field_is_named_with_its_fixes() -> None:
    fields = _fields()
    with pytest.raises(MissingFieldError) as error:
        fields.prepare(ShortItem(url="x"))
    message = str(error.value)
    assert "ShortItem" in message and "'main_html', 'title', 'mainc'" in message
    assert "MAINC_HTML_FIELD='main_html'" in message and "MAINC_CONVERT_ITEMS = True" in message
    assert "main_html = scrapy.Field()" in message
    with pytest.raises(MissingFieldError):  # every item of the class, from the cached check
        fields.prepare(ShortItem(url="y"))


def test_switched_off_fields_are_neither_needed_nor_written() -> None:
    fields = _fields(MAINC_HTML_FIELD=None, MAINC_TITLE_FIELD=None, MAINC_INFO_FIELD=None)
    item = fields.prepare(ShortItem(url="x"))
    adapter = ItemAdapter(item)
    fields.attach(adapter, EXTRACTION, {})
    assert dict(item) == {"url": "x", "main_text": "Body text"}


def test_keep_page_needs_the_page_field_on_typed_items() -> None:
    @dataclasses.dataclass
    class NoPage:
        main_text: str = ""
        main_html: str = ""
        title: str = ""
        mainc: dict[str, Any] | None = None

    _fields().prepare(NoPage())
    with pytest.raises(MissingFieldError, match="MAINC_PAGE_FIELD='raw_html'"):
        _fields(MAINC_KEEP_PAGE=True).prepare(NoPage())


def test_convert_items_gives_a_dict() -> None:
    item = _fields(MAINC_CONVERT_ITEMS=True).prepare(ShortItem(url="x"))
    assert item == {"url": "x"} and type(item) is dict


class ClusterItem(scrapy.Item):
    url = scrapy.Field()
    cluster_id = scrapy.Field()
    duplicate_of = scrapy.Field()


def test_one_policy_decides_per_item_class() -> None:
    policy = FieldPolicy(
        {"main_text": "MAINC_TEXT_FIELD"},
        optional=(("published", "published"),),
        later=CLUSTER_FIELDS,
    )
    assert policy.verdict(dict).optional == (("published", "published"),)
    short = policy.verdict(ShortItem)  # has main_text; no published, no cluster fields
    assert (short.problem, short.convert, short.optional) == ("", False, ())
    assert short.skipped == (("published", "published"),)
    assert "MAINC_TEXT_FIELD='main_text'" in policy.verdict(ClusterItem).problem
    converting = FieldPolicy({"main_text": "MAINC_TEXT_FIELD"}, later=CLUSTER_FIELDS, convert=True)
    assert converting.verdict(ShortItem).convert  # for the later pipeline's fields
    assert converting.prepare(ShortItem(url="x")) == {"url": "x"}
    assert policy.first_report(ShortItem) and not policy.first_report(ShortItem)


def test_the_dedup_pipeline_policy_needs_the_cluster_fields() -> None:
    assert cluster_fields_policy(False).prepare(ClusterItem(url="x")) == ClusterItem(url="x")
    with pytest.raises(MissingFieldError, match="NearDuplicatePipeline cannot store clusters in ShortItem"):
        cluster_fields_policy(False).prepare(ShortItem(url="x"))
    assert cluster_fields_policy(True).prepare(ShortItem(url="x")) == {"url": "x"}


def test_set_if_declared_skips_a_field_the_class_lacks() -> None:
    item = ShortItem(url="x")
    assert not set_if_declared(ItemAdapter(item), "fingerprint", {})
    assert set_if_declared(ItemAdapter(item), "main_text", "t") and item["main_text"] == "t"


def test_binary_data_served_as_html_is_not_extracted() -> None:
    body = random.Random(7).randbytes(60_000).replace(b"\x00", b"")  # no NUL, like the 42k-character case
    assert b"<a" in body or b"<p" in body or b"<b" in body  # some bytes look like markup
    _, response = _html(body)
    page = attached_page(response).page
    assert isinstance(page, str)  # the pipeline hands over decoded text
    outcome = run_extraction(ExtractionTask(page=page, url=response.url))
    assert (outcome.extraction.text, outcome.extraction.reason) == ("", "not HTML: binary data")
