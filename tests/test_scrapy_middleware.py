"""The downloader middleware on real Scrapy objects, without crawling: the annotations it
writes (language and script, article signals, declared and better encodings), the
re-decoding of a page Scrapy decoded wrongly, and binary data served as HTML."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from scrapy import Request, Spider
from scrapy.http import HtmlResponse, Response, TextResponse
from scrapy.utils.test import get_crawler

from scrapy_mainc.core._annotate import annotate, better_encoding, declared_encoding
from scrapy_mainc.integration.middleware import MaincDownloaderMiddleware, attached_page
from scrapy_mainc.items._workers import ExtractionTask, run_extraction

CHINESE = "今年春天的茶叶价格比去年上涨了一些，茶农们说这是因为天气的原因。" * 4
GBK_PAGE = f"<html><head><title>茶</title></head><body><p>{CHINESE}</p></body></html>".encode("gbk")
SHORT_GBK = (
    "<html><head><title>x</title></head><body><p>"
    "明前茶是真的好喝，就是价格有点贵。春茶开采 茶农盼个好价钱。</p></body></html>"
).encode("gbk")


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


def test_binary_data_served_as_html_is_not_extracted() -> None:
    body = random.Random(7).randbytes(60_000).replace(b"\x00", b"")  # no NUL, like the 42k-character case
    assert b"<a" in body or b"<p" in body or b"<b" in body  # some bytes look like markup
    _, response = _html(body)
    page = attached_page(response).html
    assert isinstance(page, str)  # the pipeline hands over decoded text
    outcome = run_extraction(ExtractionTask(page=page, url=response.url))
    assert (outcome.extraction.text, outcome.extraction.reason) == ("", "not HTML: binary data")
