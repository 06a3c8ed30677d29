"""Real crawls of the bundled site (and of bad pages) with the Scrapy integration.

All scenarios run once, in one subprocess, on one reactor (see ``conftest.run_crawls``);
the tests below read their items, stats, error logs and warnings.
"""

from __future__ import annotations

import dataclasses
from collections.abc import AsyncIterator, Iterator
from typing import Any

import attrs
import pytest
import scrapy
from conftest import (
    GBK_HEADLINE,
    GBK_SENTENCE,
    SHORT_GBK_TEXT,
    WRONG_CHARSET_TEXT,
    CrawlResult,
    run_crawls,
    short_gbk_page,
)
from scrapy.http import HtmlResponse, Response, TextResponse

ADDON = {"ADDONS": {"scrapy_mainc.Addon": 0}}
MANUAL = {
    "DOWNLOADER_MIDDLEWARES": {"scrapy_mainc.MaincDownloaderMiddleware": 585},
    "SPIDER_MIDDLEWARES": {"scrapy_mainc.MaincSpiderMiddleware": 10},
    "ITEM_PIPELINES": {"scrapy_mainc.MaincPipeline": 100},
}
INFO_KEYS = {"algorithm", "xpath", "score", "lang", "milliseconds", "reason", "article", "page_type"}
ARTICLES = ("en/harbour-bridge-reopens.html", "zh/shuiku-kuorong.html", "en/river-festival.html")
BAD_PAGES = (
    "bad/binary.pdf",
    "bad/empty.html",
    "bad/data.json",
    "bad/huge.html",
    "bad/deep.html",
    "bad/wrong-charset.html",
    "bad/short-gbk.html",
)


# --- Spiders ----------------------------------------------------------------------------


class PagesSpider(scrapy.Spider):
    """Request ``pages`` under ``base``; one dict item per page."""

    name = "pages"
    pages: tuple[str, ...] = ARTICLES

    def __init__(self, base: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.base = base

    async def start(self) -> AsyncIterator[Any]:
        for page in self.pages:
            yield scrapy.Request(f"{self.base}/{page}", dont_filter=True)

    def parse(self, response: Response) -> Iterator[Any]:
        yield {"url": response.url}


class ArticleItem(scrapy.Item):
    url = scrapy.Field()
    main_text = scrapy.Field()
    main_html = scrapy.Field()
    title = scrapy.Field()
    mainc = scrapy.Field()


@dataclasses.dataclass
class ArticleData:
    url: str
    main_text: str = ""
    main_html: str = ""
    title: str = ""
    mainc: dict[str, Any] = dataclasses.field(default_factory=dict)


@attrs.define
class ArticleAttrs:
    url: str
    main_text: str = ""
    main_html: str = ""
    title: str = ""
    mainc: dict[str, Any] = attrs.field(factory=dict)


class BareItem(scrapy.Item):
    url = scrapy.Field()
    title = scrapy.Field()


class ItemTypesSpider(PagesSpider):
    name = "item_types"

    def parse(self, response: Response) -> Iterator[Any]:
        yield {"url": response.url}
        yield ArticleItem(url=response.url)
        yield ArticleData(url=response.url)
        yield ArticleAttrs(url=response.url)


class BareItemSpider(PagesSpider):
    name = "bare_items"
    pages = ARTICLES[:2]

    def parse(self, response: Response) -> Iterator[Any]:
        yield BareItem(url=response.url, title="kept")


class CustomSettingsSpider(PagesSpider):
    """Chooses its algorithm in custom_settings; localhost pages have their own."""

    name = "custom_settings"
    custom_settings = {
        "MAINC_ALGORITHM": "cetd-ds",
        "MAINC_DOMAIN_ALGORITHMS": {"localhost": "cectd-s"},
    }

    async def start(self) -> AsyncIterator[Any]:
        yield scrapy.Request(f"{self.base}/{ARTICLES[0]}")
        yield scrapy.Request(f"{self.base.replace('127.0.0.1', 'localhost')}/{ARTICLES[0]}")


class AttributeSpider(PagesSpider):
    name = "attribute"
    pages = ARTICLES[:1]
    mainc_algorithm = "cectd-ds"


class BadInputSpider(PagesSpider):
    """Bad pages, plus an item that comes from no response at all."""

    name = "bad_input"
    pages = BAD_PAGES

    async def start(self) -> AsyncIterator[Any]:
        yield {"url": "from-start"}
        async for request in super().start():
            yield request

    def parse(self, response: Response) -> Iterator[Any]:
        snippet = response.css("p::text").get() if isinstance(response, HtmlResponse) else None
        yield {"url": response.url, "snippet": snippet}


class PageFieldSpider(PagesSpider):
    """Puts the page in ``raw_html`` itself, except for the last page."""

    name = "page_field"

    def parse(self, response: Response) -> Iterator[Any]:
        assert isinstance(response, TextResponse)
        if response.url.endswith(ARTICLES[-1]):
            yield {"url": response.url}
        else:
            yield {"url": response.url, "raw_html": response.text}


# --- The crawls ---------------------------------------------------------------------------


def _scenarios(base: str) -> list[dict[str, Any]]:
    news = {"spider": "newsdemo.spiders.news:NewsSpider", "args": {"start_url": base}}
    here = __name__

    def spider(name: str) -> dict[str, Any]:
        return {"spider": f"{here}:{name}", "args": {"base": base}}

    inline = {**ADDON, "MAINC_WORKER_MODE": "inline"}
    return [
        {"name": "addon-process", **news, "settings": {**ADDON, "MAINC_WORKERS": 2}},
        {"name": "manual-process", **news, "settings": {**MANUAL, "MAINC_WORKERS": 2}},
        {"name": "addon-thread", **news, "settings": {**ADDON, "MAINC_WORKER_MODE": "thread"}},
        {"name": "addon-inline", **news, "settings": inline},
        {"name": "disabled", **news, "settings": {**ADDON, "MAINC_ENABLED": False}},
        {"name": "item-types", **spider("ItemTypesSpider"), "settings": inline},
        {"name": "missing-field", **spider("BareItemSpider"), "settings": inline},
        {
            "name": "convert-items",
            **spider("BareItemSpider"),
            "settings": {**inline, "MAINC_CONVERT_ITEMS": True},
        },
        {"name": "custom-settings", **spider("CustomSettingsSpider"), "settings": inline},
        {"name": "attribute", **spider("AttributeSpider"), "settings": inline},
        {
            "name": "bad-input",
            **spider("BadInputSpider"),
            "settings": {**ADDON, "MAINC_WORKERS": 2},
        },
        {
            "name": "drop-empty",
            **spider("BadInputSpider"),
            "settings": {**inline, "MAINC_DROP_EMPTY": True},
        },
        {"name": "page-field", **spider("PageFieldSpider"), "settings": inline},
        {
            "name": "keep-page",
            **spider("PageFieldSpider"),
            "settings": {**inline, "MAINC_KEEP_PAGE": True},
        },
    ]


@pytest.fixture(scope="module")
def crawled(site_server: Any, tmp_path_factory: pytest.TempPathFactory) -> Any:
    return run_crawls(_scenarios(site_server.url), tmp_path_factory.mktemp("crawls"))


@pytest.fixture(scope="module")
def crawls(crawled: Any) -> dict[str, CrawlResult]:
    return crawled[0]


def comparable(result: CrawlResult) -> list[dict[str, Any]]:
    """Items sorted by URL, without the timing that differs from run to run."""
    items = []
    for item in sorted(result.items, key=lambda item: (item["url"], item["_type"])):
        info = {key: value for key, value in item.get("mainc", {}).items() if key != "milliseconds"}
        items.append({**item, "mainc": info})
    return items


def by_url(result: CrawlResult) -> dict[str, dict[str, Any]]:
    return {item["url"].split("/", 3)[-1]: item for item in result.items}


def mainc_stats(result: CrawlResult) -> dict[str, Any]:
    return {key: value for key, value in result.stats.items() if key.startswith("mainc/")}


# --- Tests --------------------------------------------------------------------------------


def test_the_site_crawl_attaches_every_field(crawls: dict[str, CrawlResult]) -> None:
    result = crawls["addon-process"]
    assert result.stats["finish_reason"] == "finished"
    assert len(result.items) == 10
    for item in result.items:
        assert item["main_text"], item["url"]
        assert item["main_html"].startswith("<")
        assert item["title"]
        assert set(item["mainc"]) >= INFO_KEYS
        assert item["mainc"]["algorithm"] == "auto"
        assert item["page_type"] == item["mainc"]["page_type"] == "article"  # the spider's are stories
        assert "raw_html" not in item
    stats = mainc_stats(result)
    assert stats["mainc/extracted"] == 10
    assert stats["mainc/page_type/article"] == 10
    assert stats["mainc/algorithm/auto"] == 10
    assert stats["mainc/ms/total"] > 0
    assert "mainc/failed" not in stats and "mainc/empty" not in stats
    assert result.errors == []


def test_every_worker_mode_gives_identical_items(crawls: dict[str, CrawlResult]) -> None:
    process = comparable(crawls["addon-process"])
    assert comparable(crawls["addon-thread"]) == process
    assert comparable(crawls["addon-inline"]) == process


def test_the_addon_matches_a_manual_configuration(crawls: dict[str, CrawlResult]) -> None:
    addon, manual = crawls["addon-process"], crawls["manual-process"]
    assert comparable(manual) == comparable(addon)
    manual_stats, addon_stats = mainc_stats(manual), mainc_stats(addon)
    assert manual_stats.pop("mainc/ms/total") > 0 and addon_stats.pop("mainc/ms/total") > 0
    assert manual_stats == addon_stats


def test_worker_processes_are_gone_after_the_crawl(crawls: dict[str, CrawlResult]) -> None:
    for name in ("addon-process", "manual-process", "bad-input"):
        assert crawls[name].children_after == 0, name


def test_page_annotations_reach_the_item(crawls: dict[str, CrawlResult]) -> None:
    items = by_url(crawls["addon-process"])
    english = items["en/harbour-bridge-reopens.html"]["mainc"]["page"]
    assert english["declared_lang"] == "en" and english["article"]
    assert "lang" not in english  # one language in an item: the extraction's, below
    assert set(english["article_signals"]) == {"og:type", "json-ld", "<article>"}
    wire = items["en/wire/harbour-bridge-reopens.html"]["mainc"]["page"]
    assert wire["article_signals"] == ["json-ld"]
    assert not items["en/print/harbour-bridge-reopens.html"]["mainc"]["page"]["article"]
    assert items["zh/shuiku-kuorong.html"]["mainc"]["page"]["script"] == "zh"
    languages = {url: item["mainc"]["lang"] for url, item in items.items()}
    assert languages == {url: "zh" if url.startswith("zh/") else "en" for url in items}


def test_the_undeclared_gbk_page_is_decoded_right(crawls: dict[str, CrawlResult]) -> None:
    item = by_url(crawls["addon-process"])["zh/chuncha-kaicai.html"]
    assert item["headline"].startswith(GBK_HEADLINE)  # what the spider read from response.text
    assert GBK_SENTENCE in item["main_text"]
    page = item["mainc"]["page"]
    assert page["declared_encoding"] == "" and page["encoding"] == "gb18030"
    assert page["script"] == "zh" and item["mainc"]["lang"] == "zh"


def test_a_page_scrapy_decodes_wrongly_is_redecoded(crawls: dict[str, CrawlResult]) -> None:
    item = by_url(crawls["bad-input"])["bad/short-gbk.html"]
    assert item["snippet"] == SHORT_GBK_TEXT  # the spider's response.text is right
    assert SHORT_GBK_TEXT.split("。")[0] in item["main_text"]
    headers = {"Content-Type": "text/html"}
    plain = HtmlResponse("http://127.0.0.1/", body=short_gbk_page(), headers=headers)
    scrapy_alone_is_wrong = SHORT_GBK_TEXT not in plain.text
    assert item["mainc"]["page"]["redecoded"] is scrapy_alone_is_wrong
    if scrapy_alone_is_wrong:  # this page and the wrongly declared one
        assert crawls["bad-input"].stats["mainc/redecoded"] == 2


def test_disabled_means_untouched_items(crawls: dict[str, CrawlResult]) -> None:
    result = crawls["disabled"]
    assert len(result.items) == 10
    assert all(set(item) == {"_type", "url", "headline", "section"} for item in result.items)
    assert mainc_stats(result) == {}


def test_every_item_type_gets_the_fields(crawls: dict[str, CrawlResult]) -> None:
    items = crawls["item-types"].items
    types = sorted({item["_type"] for item in items})
    assert types == ["ArticleAttrs", "ArticleData", "ArticleItem", "dict"]
    assert len(items) == 4 * len(ARTICLES)
    for url in {item["url"] for item in items}:
        same_page = [item for item in items if item["url"] == url]
        texts = {item["main_text"] for item in same_page}
        assert len(texts) == 1 and texts != {""}
        assert all(item["title"] and item["mainc"]["algorithm"] == "auto" for item in same_page)
        assert all(item["mainc"]["page_type"] == "article" for item in same_page)
        # the typed classes do not declare page_type: they go without it (said at INFO)
        assert [item["_type"] for item in same_page if "page_type" in item] == ["dict"]


def test_a_typed_item_without_a_field_gets_a_clear_error(crawls: dict[str, CrawlResult]) -> None:
    result = crawls["missing-field"]
    # never lose an item: both go on unchanged, the error is logged once, with the fix
    assert len(result.items) == 2
    assert all(item["title"] == "kept" and "main_text" not in item for item in result.items)
    assert result.stats["mainc/failed/missing_field"] == 2
    messages = [message for message in result.errors if "BareItem" in message]
    assert len(messages) == 1
    for needed in ("'main_text'", "MAINC_TEXT_FIELD", "scrapy.Field()", "MAINC_CONVERT_ITEMS"):
        assert needed in messages[0]
    # the closing warning says what became of them (it said "empty fields and the reason in
    # mainc['reason']", issue 31, item 7)
    (warning,) = [message for message in result.warnings_logged if message.startswith("mainc: all ")]
    assert warning.startswith(
        "mainc: all 2 items failed extraction (missing_field: 2); they went on unchanged, without "
        "the fields their classes lack. Likely cause: missing_field: the item classes lack fields"
    )


def test_convert_items_turns_typed_items_into_dicts(crawls: dict[str, CrawlResult]) -> None:
    items = crawls["convert-items"].items
    assert len(items) == 2
    assert all(item["_type"] == "dict" and item["main_text"] for item in items)
    assert all(item["title"] == "kept" for item in items)  # the item's own title stays


def test_algorithm_per_spider_and_per_domain(crawls: dict[str, CrawlResult]) -> None:
    chosen = {
        item["url"].split("/")[2].split(":")[0]: item["mainc"]["algorithm"]
        for item in crawls["custom-settings"].items
    }
    assert chosen == {"127.0.0.1": "cetd-ds", "localhost": "cectd-s"}
    assert [item["mainc"]["algorithm"] for item in crawls["attribute"].items] == ["cectd-ds"]
    assert crawls["attribute"].stats["mainc/algorithm/cectd-ds"] == 1


def test_bad_input_never_loses_an_item(crawls: dict[str, CrawlResult]) -> None:
    result = crawls["bad-input"]
    assert result.stats["finish_reason"] == "finished"
    items = by_url(result)
    assert sorted(items) == sorted([*BAD_PAGES, "from-start"])
    reasons = {url: item["mainc"]["reason"] for url, item in items.items()}
    # The spider middleware is on: an item without a page really came from no response.
    assert (
        reasons["from-start"] == "no page: the item did not come from a response and has no 'raw_html' field"
    )
    assert reasons["bad/binary.pdf"] == "not HTML: a PDF document"
    assert reasons["bad/empty.html"] == "empty document"
    assert reasons["bad/data.json"].startswith("not HTML")
    assert reasons["bad/huge.html"].startswith("page too large")
    for url in ("from-start", "bad/binary.pdf", "bad/empty.html", "bad/data.json", "bad/huge.html"):
        assert items[url]["main_text"] == "" and items[url]["main_html"] == ""
        assert items[url]["page_type"] is None and items[url]["mainc"]["page_type"] == ""  # of no type
    wrong_charset = items["bad/wrong-charset.html"]
    assert wrong_charset["snippet"].startswith(WRONG_CHARSET_TEXT)  # re-decoded as UTF-8
    assert wrong_charset["main_text"].startswith(WRONG_CHARSET_TEXT)
    assert wrong_charset["mainc"]["page"]["declared_encoding"] == "cp1252"  # w3lib: iso-8859-1
    assert wrong_charset["mainc"]["page"]["encoding"] == "utf-8"
    stats = mainc_stats(result)
    counted = sum(stats.get(f"mainc/{kind}", 0) for kind in ("extracted", "empty", "failed"))
    assert counted == len(items)
    assert stats["mainc/failed/no_page"] == 1 and stats["mainc/failed/too_large"] == 1
    assert result.errors == []


def test_dropping_empty_items_is_opt_in(crawls: dict[str, CrawlResult]) -> None:
    kept = {url for url, item in by_url(crawls["bad-input"]).items() if item["main_text"]}
    result = crawls["drop-empty"]
    assert set(by_url(result)) == kept
    assert result.stats["mainc/dropped"] == len(BAD_PAGES) + 1 - len(kept)
    assert result.stats.get("item_dropped_count") == result.stats["mainc/dropped"]


def test_the_page_field_is_removed_unless_kept(crawls: dict[str, CrawlResult]) -> None:
    removed = crawls["page-field"].items
    assert len(removed) == len(ARTICLES)
    assert all("raw_html" not in item and item["main_text"] for item in removed)
    kept = crawls["keep-page"].items
    assert all(item["raw_html"].lstrip().startswith("<") for item in kept)  # spider's or attached
    removed_items, kept_items = comparable(crawls["page-field"]), comparable(crawls["keep-page"])
    assert kept_items == [
        {**item, "raw_html": kept_item["raw_html"]} for item, kept_item in zip(removed_items, kept_items)
    ]


def test_no_warnings_during_the_crawls(crawled: Any) -> None:
    _, warnings = crawled
    assert warnings == []
