"""URLs of every shape are taken apart with urllib, not by splitting strings (issue 17, item 3).

``extract`` raised ``IndexError`` in ``_title._home_link`` when a headline-like ``<h1>``
linked to a bare host (``href="http://example.com"``, no path): 4 of 681 pages of a
public 2005-2007 web corpus.
"""

from __future__ import annotations

import json

import pytest
from lxml import etree

from scrapy_mainc import ALGORITHMS, extract
from scrapy_mainc.core._datetext import url_date
from scrapy_mainc.core._title import _home_link

SENTENCE = "The minister said on Tuesday that the budget would rise, and more words here. "
ARTICLE = "<article>" + f"<p>{SENTENCE * 3}</p>" * 6 + "</article>"
HEADLINE = "Storm closes the coastal road again"


def _link(href: str) -> etree._Element:
    return etree.fromstring(f'<h1><a href="{href}">{HEADLINE}</a></h1>', etree.HTMLParser()).find(".//h1")


@pytest.mark.parametrize(
    "href",
    [
        "http://example.com",
        "https://example.com/",
        "HTTP://EXAMPLE.COM",
        "http://example.com/index.html",
        "http://example.com/#",
        "//example.com",
        "/",
        "#",
        "index.php",
        " / ",
    ],
)
def test_home_links(href: str) -> None:
    assert _home_link(_link(href))


@pytest.mark.parametrize(
    "href",
    [
        "http://example.com/news/storm",
        "http://example.com/?page=2",
        "#top",
        "?page=2",
        "/storm.html",
        "javascript:void(0)",
        "mailto:desk@example.com",
        "//[bad",
        "http://[::1",
        "http://",
        "http:",
    ],
)
def test_not_home_links(href: str) -> None:
    assert not _home_link(_link(href))


@pytest.mark.parametrize("name", sorted(ALGORITHMS))
def test_a_headline_linking_to_a_bare_host(name: str) -> None:
    page = (
        "<html><head><title>Weather service</title></head><body>"
        f"<h1><a href='http://example.com'>{HEADLINE}</a></h1>{ARTICLE}</body></html>"
    )
    result = extract(page, algorithm=name, url="http://example.com/2007/storm.html")
    assert "budget would rise" in result.text


#: URLs of odd shapes, each put in every place a page holds a URL.
ODD_URLS = (
    "http://example.com",
    "http://example.com:99999/x",
    "http://example.com:port/x",
    "http://",
    "http:",
    "https:///x",
    "//",
    "///",
    "//[bad",
    "http://[::1",
    "http://[bad]/x",
    "http://user@:80",
    ":",
    "?",
    "#",
    "%",
    "%zz/%ff",
    "http://ex ample.com/a b",
    "mailto:",
    "javascript:",
    "data:,",
    "file:///etc/passwd",
    "\x00",
    "\ud800",
    "\u00a0",
    "http://例子.测试/路径",
    "http://xn--/",
    "a" * 5000,
)


def _page(url: str, title: str) -> str:
    attribute = url.replace("&", "&amp;").replace("'", "&#39;")
    jsonld = json.dumps(
        {
            "@context": "https://schema.org",
            "@type": "NewsArticle",
            "headline": title,
            "url": url,
            "mainEntityOfPage": {"@id": url},
            "image": [url, {"url": url}],
            "author": {"@type": "Person", "name": "Jane Doe", "url": url},
            "datePublished": "2007-05-01",
        }
    )
    head = (
        f"<title>{title}</title><base href='{attribute}'><link rel='canonical' href='{attribute}'>"
        f"<meta property='og:url' content='{attribute}'><meta property='og:image' content='{attribute}'>"
        f"<script type='application/ld+json'>{jsonld}</script>"
    )
    body = (
        f"<h1><a href='{attribute}'>{HEADLINE}</a></h1><article><p>{SENTENCE} <a href='{attribute}'>"
        f"a link</a> <img src='{attribute}' srcset='{attribute} 2x'></p>{ARTICLE}</article>"
    )
    return f"<html><head>{head}</head><body>{body}</body></html>"


@pytest.mark.parametrize("url", ODD_URLS, ids=ascii)
@pytest.mark.parametrize("name", ["auto", "nce"])
def test_odd_urls_everywhere(name: str, url: str) -> None:
    # the metadata names the headline, or not (then the <h1> link is looked at)
    for title in (HEADLINE, "Weather service"):
        for page_url in (url, "https://news.example/2007/05/storm.html", None):
            result = extract(_page(url, title), algorithm=name, url=page_url)
            assert "budget would rise" in result.text, (title, page_url)


def test_the_host_decides_the_day_order_whatever_the_port_or_user() -> None:
    # the host was cut out of the URL by splitting strings: "news.example.co.uk:8443"
    page = (
        "<html lang='en'><head><title>Bridge reopens after repairs</title></head><body><article><h1>"
        f"Bridge reopens after repairs</h1><p class='meta'>05/06/2023</p>{ARTICLE}</article></body></html>"
    )
    for url in ("https://news.example.co.uk/story", "https://news.example.co.uk:8443/story",
                "https://desk@news.example.co.uk/story"):  # fmt: skip
        assert extract(page, url=url).metadata.published == "2023-06-05", url  # 5 June
    assert extract(page, url="https://news.example.com:8443/story").metadata.published == "2023-05-06"


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("https://news.example/2023/12/22/bridge/", "2023-12-22"),
        ("https://news.example:8080/2023/12/22/bridge/", "2023-12-22"),
        ("https://news.example/search?from=/2023/12/22/", ""),  # a query, not the path
        ("https://news.example#/2023/12/22/", ""),
        ("//[bad/2023/12/22/", ""),
    ],
)
def test_url_dates_are_read_from_the_path(url: str, expected: str) -> None:
    assert url_date(url) == expected


MINISTER = "The minister said on Tuesday that the budget would rise, a lot. "
MINISTER_PARAGRAPH = "<p>" + MINISTER * 4 + "</p>"


@pytest.mark.parametrize("base", ["//[bad", "http://[bad/", "http://a:99999999/"])
@pytest.mark.parametrize("url", ["http://example.com/a/", "http://[bad/", None])
def test_urls_urllib_cannot_read_are_ignored_not_raised(base: str, url: str | None) -> None:
    page = (
        f'<html><head><base href="{base}"></head><body><article>{MINISTER_PARAGRAPH * 3}'
        '<p>See <a href="/more.html">the plan</a> and the map of the river bank, with parks.</p>'
        "</article></body></html>"
    )
    result = extract(page, url=url)
    assert result.reason == ""
    assert result.text.count(MINISTER.strip()) == 12
    if url == "http://example.com/a/":  # the page's bad <base href> is ignored: links resolve against url
        assert 'href="http://example.com/more.html"' in result.html
    else:  # no URL to resolve against: links stay relative
        assert 'href="/more.html"' in result.html
