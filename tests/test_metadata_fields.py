"""Site name, canonical URL, description, image, section, tags; and the title as shown."""

from __future__ import annotations

import json

import pytest
from lxml import html as lxml_html

from helpers import document
from scrapy_mainc import extract
from scrapy_mainc.core._title import find_title
from scrapy_mainc.metadata import Metadata
from scrapy_mainc.metadata._fields import absolute_url, find_fields

STORY = (
    "<p>"
    + "The council met on Monday and agreed on the plan for the new bridge over the river. " * 4
    + "</p>"
)
URL = "https://news.example.com/2023/12/22/bridge.html?utm=x"


def _page(head: str = "", body: str = "") -> str:
    return (
        f"<html><head><title>Bridge plan agreed | City News</title>{head}</head>"
        f"<body><article><h1>Bridge plan agreed</h1>{body}{STORY}{STORY}</article></body></html>"
    )


def _jsonld(obj: object) -> str:
    return f"<script type='application/ld+json'>{json.dumps(obj)}</script>"


def _fields(head: str = "", url: str | None = URL, body: str = "") -> Metadata:
    return extract(_page(head, body), url=url).metadata


def test_opengraph_and_meta_names() -> None:
    head = (
        "<meta property='og:site_name' content='City News'>"
        "<meta property='og:url' content='https://news.example.com/bridge'>"
        "<meta property='og:description' content='The plan, agreed.'>"
        "<meta name='description' content='Not this one.'>"
        "<meta property='og:image' content='/img/bridge.jpg'>"
        "<meta property='article:section' content='Local'>"
        "<meta property='article:tag' content='Bridges'><meta property='article:tag' content='Council'>"
        "<meta name='keywords' content='council, river,bridges , transport'>"
    )
    metadata = _fields(head)
    assert metadata.site_name == "City News"
    assert metadata.canonical_url == "https://news.example.com/bridge"
    assert metadata.description == "The plan, agreed."
    assert metadata.image == "https://news.example.com/img/bridge.jpg"
    assert metadata.section == "Local"
    assert metadata.tags == ("Bridges", "Council", "river", "transport")


def test_link_canonical_first_and_made_absolute() -> None:
    head = "<link rel='canonical' href='/2023/bridge'><meta property='og:url' content='https://x.example/og'>"
    assert _fields(head).canonical_url == "https://news.example.com/2023/bridge"
    # no page URL: a relative canonical URL cannot be made absolute, og:url is taken
    assert _fields(head, url=None).canonical_url == "https://x.example/og"
    base = "<base href='https://cdn.example.org/site/'><link rel='canonical' href='bridge'>"
    assert _fields(base, url=None).canonical_url == "https://cdn.example.org/site/bridge"


def test_jsonld_fields() -> None:
    article = {
        "@type": "NewsArticle",
        "headline": "Bridge plan agreed",
        "url": "https://news.example.com/a/bridge",
        "description": "Council &amp; mayor agree.",
        "image": [
            {"@type": "ImageObject", "url": "https://img.example.com/1.jpg"},
            "https://img.example.com/2.jpg",
        ],
        "articleSection": ["Local", "Politics"],
        "keywords": "bridges, council",
        "publisher": {"@type": "Organization", "name": "City News Group"},
    }
    metadata = _fields(_jsonld(article))
    assert metadata.site_name == "City News Group"
    assert metadata.canonical_url == "https://news.example.com/a/bridge"
    assert metadata.description == "Council & mayor agree."
    assert metadata.image == "https://img.example.com/1.jpg"
    assert metadata.section == "Local"
    assert metadata.tags == ("bridges", "council")
    listed = _fields(
        _jsonld({**article, "keywords": ["Bridges", "bridges", "Roads"], "mainEntityOfPage": {}})
    )
    assert listed.tags == ("Bridges", "Roads")


def test_meta_wins_over_jsonld_where_the_order_says_so() -> None:
    head = "<meta name='application-name' content='CityApp'>" + _jsonld(
        {"@type": "NewsArticle", "description": "From JSON-LD", "mainEntityOfPage": {"@id": "/from-jsonld"}}
    )
    metadata = _fields(head + "<meta name='twitter:description' content='From Twitter'>")
    assert metadata.site_name == "CityApp"
    assert metadata.description == "From Twitter"
    assert metadata.canonical_url == "https://news.example.com/from-jsonld"


@pytest.mark.parametrize(
    "head",
    [
        "<link rel='canonical' href='javascript:alert(1)'>",
        "<meta property='og:url' content='data:text/html,x'>",
        "<meta property='og:url' content='mailto:a@b.c'>",
    ],
)
def test_only_http_urls(head: str) -> None:
    assert _fields(head).canonical_url == ""


def test_absolute_url() -> None:
    base = "https://news.example.com/a/b.html"
    assert absolute_url("//cdn.example.com/x.jpg", base) == "https://cdn.example.com/x.jpg"
    assert absolute_url("../img/x y.jpg", base) == "https://news.example.com/img/x%20y.jpg"
    assert absolute_url("img.jpg", "") == ""
    assert absolute_url("http://[bad", base) == ""
    assert absolute_url(" javascript:void(0)", base) == ""
    assert absolute_url('https://x.example/"><script>', base) == ""


def test_twitter_image_and_parsely_section() -> None:
    head = "<meta name='twitter:image' content='https://img.example.com/t.jpg'><meta name='parsely-section' content='Sport'>"
    metadata = _fields(head)
    assert (metadata.image, metadata.section) == ("https://img.example.com/t.jpg", "Sport")


def test_page_without_metadata_has_empty_fields() -> None:
    metadata = extract(
        "<html><body><p>Just a paragraph of text, nothing else here.</p></body></html>"
    ).metadata
    assert metadata == Metadata()
    assert find_fields(document("<p>x</p>")) == {
        "site_name": "",
        "canonical_url": "",
        "description": "",
        "image": "",
        "section": "",
        "tags": (),
    }
    assert extract("<html><body><p>x</p></body></html>", metadata=False).metadata == Metadata()


# titles


def _title(page: str) -> str:
    return find_title(lxml_html.document_fromstring(page))


def test_title_skips_a_heading_that_repeats_the_site_name() -> None:
    page = (
        "<html><head><title>Bridge plan agreed | The City Review</title>"
        "<meta property='og:site_name' content='The City Review'></head><body>"
        "<h1>The City Review</h1><h1>Bridge plan agreed</h1></body></html>"
    )
    assert _title(page) == "Bridge plan agreed"


def test_title_from_an_h2_that_says_the_og_title() -> None:
    page = (
        "<html><head><meta property='og:title' content='Bridge plan agreed by the council'>"
        "<meta property='og:site_name' content='City News'></head><body>"
        "<h1>City News</h1><h2>Weather</h2><h2>Bridge plan agreed by the council</h2></body></html>"
    )
    assert _title(page) == "Bridge plan agreed by the council"


def test_title_part_shown_by_a_heading() -> None:
    page = "<html><head><title>About bugs – Vortex Games Studio</title></head><body><h1>About bugs</h1></body></html>"
    assert _title(page) == "About bugs"


def test_visible_h1_worded_differently_from_the_title() -> None:
    page = (
        "<html><head><title>Meth campaign is working, governor says - Daily</title></head><body>"
        "<h1>South Dakota says meth campaign works, and Twitter asks questions</h1></body></html>"
    )
    assert _title(page) == "South Dakota says meth campaign works, and Twitter asks questions"


def test_jsonld_headline_confirms_the_h1() -> None:
    head = _jsonld({"@type": "BlogPosting", "headline": "Hiking the Boulder Flat Irons"})
    page = (
        f"<html><head><title>Simple Hiking Survival Kit - The Blog</title>{head}</head><body>"
        f"<article><h1>Hiking the Boulder Flat Irons</h1>{STORY}{STORY}</article></body></html>"
    )
    result = extract(page)
    assert result.title == "Hiking the Boulder Flat Irons"


def test_forum_label_line_break_and_icon_glyph_in_a_heading() -> None:
    page = "<html><head><title>大桥建设加快_新闻网</title></head><body><h1>主题: 大桥<br>建设加快\ue004</h1></body></html>"
    assert _title(page) == "大桥 建设加快"


def test_title_shown_with_the_text_when_the_page_title_is_the_site_name() -> None:
    story = "<p>" + "市政府今天召开会议，研究部署新大桥的建设工作，会议决定加快推进项目进度。" * 4 + "</p>"
    page = (
        "<html><head><title>网易娱乐</title></head><body><div class='nav'><a href='/'>首页</a></div>"
        f"<table><tr><td><b><font size='4'>大桥建设加快推进项目进度</font></b></td></tr>"
        f"<tr><td>{story}{story}</td></tr></table></body></html>"
    )
    assert extract(page).title == "大桥建设加快推进项目进度"


def test_title_kept_when_shown_near_the_text() -> None:
    story = "<p>" + "市政府今天召开会议，研究部署新大桥的建设工作，会议决定加快推进项目进度。" * 4 + "</p>"
    page = (
        "<html><head><title>大桥建设加快推进-新闻网</title></head><body>"
        f"<div><span class='x'>大桥建设加快推进</span><b>点击排行</b></div><div>{story}{story}</div></body></html>"
    )
    assert extract(page).title == "大桥建设加快推进"
