"""Real crawls on loopback with the metadata fields: a page with every kind of metadata, a
page with none, and the bundled site's articles.

Each item's metadata fields must be what ``scrapy_mainc.extract(page, url=...).metadata``
gives for the same page (through worker processes, threads or inline), named, left out,
kept and counted as the settings say; the values themselves are the metadata stage's
business (its own tests), so they are not written down here.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from conftest import CrawlResult, run_crawls
from newsdemo.server import SiteServer, load_site
from scrapy.http import Response
from test_scrapy_crawl import ADDON, ARTICLES, PagesSpider, comparable
from test_scrapy_metadata import NAMES, CoreItem, DatedData, IndexItem

import scrapy_mainc
from scrapy_mainc.metadata import Metadata

CORE_FIELDS = {"_type", "url", "main_text", "main_html", "title", "mainc", "page_type"}
STORY = (
    "<p>The tunnel under the harbour opened to cyclists on Saturday, two years after the "
    "council first promised a safe crossing, and hundreds rode through in the first hour.</p>"
)
#: A story page with metadata of every kind: JSON-LD in a @graph, OpenGraph and article:*
#: meta, a canonical link, a byline with a <time> under the headline.
FULL_PAGE = f"""<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">
<title>Harbour tunnel opens to cyclists</title>
<link rel="canonical" href="/meta/harbour-tunnel.html">
<meta name="description" content="The tunnel under the harbour opened to cyclists on Saturday.">
<meta property="og:site_name" content="The Eastgate Herald">
<meta property="og:type" content="article">
<meta property="og:title" content="Harbour tunnel opens to cyclists">
<meta property="og:image" content="/img/tunnel.jpg">
<meta property="article:published_time" content="2024-06-01T09:15:00+01:00">
<meta property="article:modified_time" content="2024-06-02T10:00:00+01:00">
<meta property="article:section" content="Transport">
<meta property="article:tag" content="cycling"><meta property="article:tag" content="tunnels">
<meta name="author" content="Ada Park">
<script type="application/ld+json">{{"@context": "https://schema.org", "@graph": [
 {{"@type": "WebSite", "name": "The Eastgate Herald"}},
 {{"@type": "NewsArticle", "headline": "Harbour tunnel opens to cyclists",
  "datePublished": "2024-06-01T09:15:00+01:00", "dateModified": "2024-06-02T10:00:00+01:00",
  "author": [{{"@type": "Person", "name": "Ada Park"}}, {{"@type": "Person", "name": "Ben Ortiz"}}],
  "publisher": {{"@type": "Organization", "name": "The Eastgate Herald"}},
  "image": {{"@type": "ImageObject", "url": "/img/tunnel.jpg"}},
  "articleSection": "Transport", "keywords": ["cycling", "tunnels"]}}]}}</script>
</head><body>
<header><nav><a href="/">Home</a> <a href="/transport/">Transport</a></nav></header>
<article><h1>Harbour tunnel opens to cyclists</h1>
<p class="byline">By Ada Park and Ben Ortiz, <time datetime="2024-06-01T09:15:00+01:00">1 June 2024</time></p>
{STORY * 6}</article>
<footer>&copy; 2019 The Eastgate Herald</footer></body></html>"""
#: A page that says nothing about itself: no dates, no bylines, no meta, no image.
BARE_PAGE = f"""<html><head><title>Harbour tunnel notes</title></head><body>
<div class="post"><h2>Harbour tunnel notes</h2>{STORY * 5}</div></body></html>"""
META_PAGES = {
    "/meta/harbour-tunnel.html": (FULL_PAGE.encode(), "text/html"),
    "/meta/bare.html": (BARE_PAGE.encode(), "text/html; charset=utf-8"),
}
PAGES = (*(path.lstrip("/") for path in META_PAGES), *ARTICLES)


# --- Spiders ----------------------------------------------------------------------------


class MetaPagesSpider(PagesSpider):
    name = "meta_pages"
    pages = PAGES


class SpiderValuesSpider(MetaPagesSpider):
    """Fills some metadata fields itself: a description, an empty site name, a section."""

    name = "spider_values"

    def parse(self, response: Response) -> Iterator[Any]:
        yield {"url": response.url, "description": "From the spider", "site_name": "", "section": "news"}


class TypedSpider(MetaPagesSpider):
    """One item of each kind per page: a dict, and classes declaring none, two or all of the
    metadata fields."""

    name = "typed"

    def parse(self, response: Response) -> Iterator[Any]:
        yield {"url": response.url}
        yield CoreItem(url=response.url)
        yield DatedData(url=response.url)
        yield IndexItem(url=response.url)


# --- The crawls -------------------------------------------------------------------------


@pytest.fixture(scope="module")
def server() -> Iterator[SiteServer]:
    """The bundled site and the metadata pages on 127.0.0.1."""
    site = SiteServer({**load_site(), **META_PAGES}).start_in_thread()
    yield site
    site.stop()


@pytest.fixture(scope="module")
def crawled(server: SiteServer, tmp_path_factory: pytest.TempPathFactory) -> Any:
    def spider(name: str) -> dict[str, Any]:
        return {"spider": f"{__name__}:{name}", "args": {"base": server.url}}

    inline = {**ADDON, "MAINC_WORKER_MODE": "inline"}
    renamed = {
        "MAINC_PUBLISHED_FIELD": "date_published",
        "MAINC_AUTHORS_FIELD": "byline",
        "MAINC_TAGS_FIELD": None,
    }
    scenarios = [
        {"name": "process", **spider("MetaPagesSpider"), "settings": {**ADDON, "MAINC_WORKERS": 2}},
        {"name": "thread", **spider("MetaPagesSpider"), "settings": {**ADDON, "MAINC_WORKER_MODE": "thread"}},
        {"name": "inline", **spider("MetaPagesSpider"), "settings": inline},
        {"name": "renamed", **spider("MetaPagesSpider"), "settings": {**inline, **renamed}},
        {"name": "spider-values", **spider("SpiderValuesSpider"), "settings": inline},
        {"name": "typed", **spider("TypedSpider"), "settings": inline},
        {
            "name": "typed-convert",
            **spider("TypedSpider"),
            "settings": {**inline, "MAINC_CONVERT_ITEMS": True},
        },
        {"name": "off", **spider("MetaPagesSpider"), "settings": {**inline, "MAINC_METADATA_ENABLED": False}},
    ]
    return run_crawls(scenarios, tmp_path_factory.mktemp("metadata-crawls"))


@pytest.fixture(scope="module")
def crawls(crawled: Any) -> dict[str, CrawlResult]:
    return crawled[0]


@pytest.fixture(scope="module")
def expected(server: SiteServer) -> dict[str, Metadata]:
    """What ``scrapy_mainc.extract`` finds on each page, by URL."""
    found = {}
    for page in PAGES:
        url = f"{server.url}/{page}"
        found[url] = scrapy_mainc.extract(server.pages["/" + page][0], url=url).metadata
    return found


def item_value(value: object) -> object:
    """A record value as the item must hold it (written out here, not taken from the code
    under test): a list for a tuple, None for an empty string."""
    if isinstance(value, tuple):
        return list(value)
    return None if value == "" else value


def metadata_stats(result: CrawlResult) -> dict[str, Any]:
    return {key: value for key, value in result.stats.items() if key.startswith("mainc/metadata/")}


def counted(
    items: list[dict[str, Any]], expected: dict[str, Metadata], names: tuple[str, ...] = NAMES
) -> dict[str, int]:
    """The ``mainc/metadata/<field>`` stats for ``items``: one per item whose page has a value."""
    counts = {
        f"mainc/metadata/{name}": sum(bool(getattr(expected[item["url"]], name)) for item in items)
        for name in names
    }
    return {key: count for key, count in counts.items() if count}


def metadata_messages(result: CrawlResult) -> list[str]:
    return [message for message in result.info_logged if "do not declare the metadata" in message]


# --- Tests --------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["process", "thread", "inline"])
def test_dict_items_carry_the_pages_metadata(
    crawls: dict[str, CrawlResult], expected: dict[str, Metadata], name: str
) -> None:
    result = crawls[name]
    assert result.stats["finish_reason"] == "finished"
    assert sorted(item["url"] for item in result.items) == sorted(expected)
    for item in result.items:
        assert set(item) == CORE_FIELDS | set(NAMES)
        assert item["main_text"], item["url"]
        page = expected[item["url"]]
        assert {field: item[field] for field in NAMES} == {
            field: item_value(getattr(page, field)) for field in NAMES
        }
    bare = next(item for item in result.items if item["url"].endswith("/meta/bare.html"))
    assert (bare["modified"], bare["authors"], bare["image"]) == (None, [], None)  # nothing there: None, []
    assert metadata_stats(result) == counted(result.items, expected)
    assert result.errors == [] and result.warnings_logged == [] and metadata_messages(result) == []


def test_every_worker_mode_gives_the_same_metadata(crawls: dict[str, CrawlResult]) -> None:
    inline = comparable(crawls["inline"])
    assert comparable(crawls["process"]) == inline
    assert comparable(crawls["thread"]) == inline


def test_renamed_and_left_out_fields(crawls: dict[str, CrawlResult], expected: dict[str, Metadata]) -> None:
    result = crawls["renamed"]
    assert len(result.items) == len(PAGES)
    for item in result.items:
        page = expected[item["url"]]
        assert not {"published", "authors", "tags"} & set(item)
        assert item["date_published"] == item_value(page.published)
        assert item["byline"] == list(page.authors)
        assert item["site_name"] == item_value(page.site_name)
    kept = tuple(name for name in NAMES if name != "tags")
    assert metadata_stats(result) == counted(result.items, expected, kept)  # by record name


def test_a_spiders_own_values_stay(crawls: dict[str, CrawlResult], expected: dict[str, Metadata]) -> None:
    result = crawls["spider-values"]
    assert len(result.items) == len(PAGES)
    for item in result.items:
        page = expected[item["url"]]
        assert (item["description"], item["section"]) == ("From the spider", "news")
        assert item["site_name"] == page.site_name  # empty in the item: the page's value, or "" kept
        assert item["canonical_url"] == item_value(page.canonical_url)
    assert metadata_stats(result) == counted(result.items, expected)  # the page's values, kept or not


def test_typed_items_go_without_undeclared_fields_and_are_told_once(
    crawls: dict[str, CrawlResult], expected: dict[str, Metadata]
) -> None:
    result = crawls["typed"]
    by_type: dict[str, list[dict[str, Any]]] = {}
    for item in result.items:
        by_type.setdefault(item["_type"], []).append(item)
    assert {kind: len(items) for kind, items in by_type.items()} == dict.fromkeys(
        ("dict", "CoreItem", "DatedData", "IndexItem"), len(PAGES)
    )
    for item in by_type["CoreItem"]:
        assert set(item) == CORE_FIELDS - {"page_type"} and item["main_text"]  # nor the page type
    for item in by_type["DatedData"]:
        page = expected[item["url"]]
        assert (item["published"], item["authors"]) == (page.published, list(page.authors))  # "" default kept
    for item in by_type["IndexItem"] + by_type["dict"]:
        page = expected[item["url"]]
        assert {field: item[field] for field in NAMES} == {
            field: item_value(getattr(page, field)) for field in NAMES
        }
    messages = metadata_messages(result)
    assert len(messages) == 2
    assert messages[0].startswith(
        "mainc: CoreItem items do not declare the metadata fields 'published', 'modified'"
    )
    assert messages[1].startswith(
        "mainc: DatedData items do not declare the metadata fields 'modified', 'published_from', "
        "'modified_from', 'site_name'"
    )
    assert all("MAINC_CONVERT_ITEMS" in message for message in messages)
    stats = metadata_stats(result)
    assert stats.pop("mainc/metadata/undeclared") == 2 * len(PAGES)
    full = by_type["dict"] + by_type["IndexItem"]
    dated = by_type["DatedData"]
    taken = {
        key: counted(full, expected).get(key, 0)
        + counted(dated, expected, ("published", "authors")).get(key, 0)
        for key in counted(full, expected)
    }
    assert stats == taken
    assert result.errors == [] and result.warnings_logged == []


def test_convert_items_gives_typed_items_every_field(
    crawls: dict[str, CrawlResult], expected: dict[str, Metadata]
) -> None:
    result = crawls["typed-convert"]
    assert len(result.items) == 4 * len(PAGES)
    for item in result.items:
        page = expected[item["url"]]
        for field in NAMES:  # a converted DatedData keeps its own "" where the page has nothing
            value = getattr(page, field)
            assert item[field] == item_value(value) if value else item[field] in (None, "", [])
    assert {item["_type"] for item in result.items} == {"dict", "IndexItem"}  # IndexItem lacks nothing
    assert metadata_messages(result) == []
    assert metadata_stats(result) == counted(result.items, expected)


def test_metadata_disabled_leaves_the_fields_and_stats_out(crawls: dict[str, CrawlResult]) -> None:
    result = crawls["off"]
    assert len(result.items) == len(PAGES)
    assert all(set(item) == CORE_FIELDS for item in result.items)
    assert metadata_stats(result) == {}
    texts = {item["url"]: item["main_text"] for item in crawls["inline"].items}
    assert {item["url"]: item["main_text"] for item in result.items} == texts


def test_no_warnings_during_the_crawls(crawled: Any) -> None:
    _, warnings = crawled
    assert warnings == []
