"""The page type in the Scrapy layer (issue 33): the item field ``page_type`` and
``mainc["page_type"]``, ``MAINC_PAGE_TYPES`` beside ``MAINC_ARTICLES_ONLY``, the stats by
type, through ``MaincPipeline`` (inline mode).

Two kinds of pages: the bundled site's, whose types the model gets right today (its
articles are typed ``article``, its eight listing pages ``listing``: four of dated links
and cards by the model alone, its home page and three section fronts of teasers after the
article verdict refuses them as articles), and pages whose extraction is replaced by a
chosen one, so that every type and every path is taken whatever the model decides.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
from collections import Counter
from typing import Any

import attrs
import pytest
import scrapy
from itemadapter import ItemAdapter
from scrapy import Spider
from scrapy.settings import Settings
from scrapy.utils.test import get_crawler
from test_scrapy_content import KINDS, SITE, run_pipeline
from test_scrapy_item_fields import AttrsItem, DataItem
from test_scrapy_metadata import CoreItem

from scrapy_mainc import extract
from scrapy_mainc.config._mainc_config import MaincConfig
from scrapy_mainc.core._pagetype import PAGE_TYPES
from scrapy_mainc.core._types import Extraction
from scrapy_mainc.integration.pipeline import MaincPipeline
from scrapy_mainc.items import _workers

PATHS = sorted(KINDS)
ARTICLES = sorted(path for path, kind in KINDS.items() if kind["article"])
#: The site's listing pages, every one typed ``listing``.
LISTINGS = sorted(path for path, kind in KINDS.items() if not kind["article"])


@pytest.fixture(scope="module")
def site_types() -> dict[str, str]:
    """The page type ``extract`` gives each page of the site."""
    return {
        path: extract((SITE / path.lstrip("/")).read_bytes(), url=f"http://127.0.0.1:8000{path}").page_type
        for path in PATHS
    }


def page_type_stats(stats: dict[str, Any]) -> dict[str, int]:
    return {key: value for key, value in stats.items() if key.startswith("mainc/page_type/")}


# --- The bundled site ---------------------------------------------------------------------


def test_the_models_types_of_the_site_today(site_types: dict[str, str]) -> None:
    # what the tests below rely on: every article typed article, the listings of links listing
    assert {path for path, kind in site_types.items() if kind == "listing"} == set(LISTINGS)
    assert all(site_types[path] == "article" for path in ARTICLES)


def test_every_item_carries_its_page_type_and_the_stats_count_them(site_types: dict[str, str]) -> None:
    kept, dropped, stats = run_pipeline(PATHS)
    assert not dropped and sorted(kept) == PATHS
    assert {path: item["page_type"] for path, item in kept.items()} == site_types
    assert all(item["mainc"]["page_type"] == item["page_type"] for item in kept.values())
    assert list(kept[LISTINGS[0]])[3:6] == ["mainc", "page_type", "published"]  # beside mainc
    expected = {f"mainc/page_type/{kind}": count for kind, count in Counter(site_types.values()).items()}
    assert page_type_stats(stats) == expected
    assert sum(expected.values()) == len(PATHS) and expected["mainc/page_type/listing"] == len(LISTINGS)


def test_page_types_keep_only_the_chosen_kinds(site_types: dict[str, str]) -> None:
    kept, dropped, stats = run_pipeline(PATHS, MAINC_PAGE_TYPES=["listing"])
    assert sorted(kept) == LISTINGS
    assert all(item["page_type"] == "listing" for item in kept.values())
    assert stats["mainc/dropped/page_type"] == len(dropped) == len(PATHS) - len(LISTINGS)
    assert "mainc/dropped/not_article" not in stats
    # every extraction is counted by type, those dropped too
    assert sum(page_type_stats(stats).values()) == len(PATHS)
    story = "/en/school-gardens.html"
    assert dropped[story] == "mainc: page type article, not in MAINC_PAGE_TYPES"


@pytest.mark.parametrize(
    "settings",
    [{"MAINC_ARTICLES_ONLY": True}, {"MAINC_PAGE_TYPES": ["article"]}, {"MAINC_PAGE_TYPES": "Article"}],
    ids=["articles-only", "list", "string"],
)
def test_the_type_article_is_articles_only(settings: dict[str, Any]) -> None:
    kept, dropped, stats = run_pipeline(PATHS, **settings)
    assert sorted(kept) == ARTICLES  # the article verdict: a front page typed article is dropped
    assert sorted(dropped) == sorted(set(PATHS) - set(ARTICLES))
    old = "MAINC_ARTICLES_ONLY" in settings  # its drops keep their stat and reason
    stat = "mainc/dropped/not_article" if old else "mainc/dropped/page_type"
    other = "mainc/dropped/page_type" if old else "mainc/dropped/not_article"
    assert stats[stat] == len(dropped) and other not in stats
    if old:
        assert set(dropped.values()) == {"mainc: not an article (MAINC_ARTICLES_ONLY)"}


def test_several_types(site_types: dict[str, str]) -> None:
    kept, dropped, stats = run_pipeline(PATHS, MAINC_PAGE_TYPES="listing, article")  # -s, with a space
    assert sorted(kept) == sorted(ARTICLES + LISTINGS) == PATHS
    assert not dropped and "mainc/dropped/page_type" not in stats


# --- Chosen types -------------------------------------------------------------------------

#: Extractions by the page each item holds in its ``raw_html``.
CHOSEN = {
    "thread": Extraction(text="Posts", page_type="forum"),
    "shop": Extraction(text="A kettle", page_type="product"),
    "story": Extraction(text="A story", page_type="article", article=True),
    "teasers": Extraction(text="Teasers", page_type="article", article=False),
    "manual": Extraction(text="Install it", page_type="documentation"),
    "blank": Extraction(reason="empty document"),
}


def chosen_extract(page: str, **kwargs: Any) -> Extraction:
    return CHOSEN[page]


def run_chosen(
    monkeypatch: pytest.MonkeyPatch, items: list[Any], **settings: Any
) -> tuple[list[Any], dict[str, str], dict[str, Any]]:
    """The items kept, the reasons of those dropped (by page), the stats."""
    monkeypatch.setattr(_workers, "extract", chosen_extract)
    crawler = get_crawler(Spider, {"MAINC_WORKER_MODE": "inline", **settings})
    pipeline = MaincPipeline.from_crawler(crawler)
    pipeline.open_spider()
    kept: list[Any] = []
    dropped: dict[str, str] = {}

    async def run() -> None:
        for item in items:
            page = ItemAdapter(item).get("raw_html")
            try:
                kept.append(await pipeline.process_item(item))
            except scrapy.exceptions.DropItem as drop:
                dropped[page] = str(drop)

    asyncio.run(run())
    pipeline.close_spider()
    assert crawler.stats is not None
    return kept, dropped, crawler.stats.get_stats()


def test_chosen_types_are_kept_dropped_and_counted(monkeypatch: pytest.MonkeyPatch) -> None:
    pages = ["thread", "shop", "story", "teasers", "manual", "blank", "thread"]
    items = [{"raw_html": page} for page in pages] + [{"raw_html": "x" * 200}]  # too large: failed
    kept, dropped, stats = run_chosen(
        monkeypatch, items, MAINC_PAGE_TYPES=["forum", "article", "documentation"], MAINC_MAX_PAGE_SIZE=100
    )
    assert [item["page_type"] for item in kept] == ["forum", "article", "documentation", "forum", None]
    assert kept[-1]["mainc"]["reason"].startswith("page too large")  # a failed item is kept, of no type
    assert dropped == {
        "shop": "mainc: page type product, not in MAINC_PAGE_TYPES",
        "teasers": "mainc: page type article, whose text does not read as one (mainc['article'] false), "
        "not in MAINC_PAGE_TYPES",
        "blank": "mainc: page type none, not in MAINC_PAGE_TYPES",
    }
    assert page_type_stats(stats) == {
        "mainc/page_type/forum": 2,
        "mainc/page_type/product": 1,
        "mainc/page_type/article": 2,
        "mainc/page_type/documentation": 1,
    }
    assert stats["mainc/dropped/page_type"] == 3
    assert (stats["mainc/extracted"], stats["mainc/empty"], stats["mainc/failed"]) == (6, 1, 1)


def test_every_type_kept_is_every_item(monkeypatch: pytest.MonkeyPatch) -> None:
    items = [{"raw_html": page} for page in CHOSEN]
    kept, dropped, stats = run_chosen(monkeypatch, items, MAINC_PAGE_TYPES=list(PAGE_TYPES))
    assert len(kept) == len(CHOSEN) and not dropped and "mainc/dropped/page_type" not in stats
    assert kept[-1]["page_type"] is None and kept[-1]["mainc"]["page_type"] == ""


# --- Typed items --------------------------------------------------------------------------


class TypedItem(CoreItem):
    page_type = scrapy.Field()


@dataclasses.dataclass
class TypedData(DataItem):
    page_type: str | None = None


@attrs.define
class TypedAttrs(AttrsItem):
    page_type: str | None = None


def test_typed_items_that_declare_the_field_get_it(monkeypatch: pytest.MonkeyPatch) -> None:
    items = [TypedItem(raw_html="thread"), TypedData(raw_html="manual"), TypedAttrs(raw_html="story")]
    kept, _, _ = run_chosen(monkeypatch, items, MAINC_METADATA_ENABLED=False)
    assert [type(item) for item in kept] == [TypedItem, TypedData, TypedAttrs]
    assert [ItemAdapter(item)["page_type"] for item in kept] == ["forum", "documentation", "article"]


def test_typed_items_without_the_field_go_without_it_and_are_told_once(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    items = [CoreItem(raw_html="thread"), CoreItem(raw_html="story"), TypedItem(raw_html="shop")]
    with caplog.at_level(logging.INFO, logger="scrapy_mainc"):
        kept, _, stats = run_chosen(monkeypatch, items, MAINC_METADATA_ENABLED=False)
    assert [type(item) for item in kept] == [CoreItem, CoreItem, TypedItem]
    assert "page_type" not in kept[0] and kept[0]["mainc"]["page_type"] == "forum"
    told = [record.getMessage() for record in caplog.records if "page type field" in record.getMessage()]
    assert told == [
        "mainc: CoreItem items do not declare the page type field 'page_type', so they go without it. "
        "To get it: declare it on CoreItem (e.g. page_type = scrapy.Field(), or a dataclass/attrs field "
        "with a default), or set MAINC_CONVERT_ITEMS = True to convert such items to dicts. To leave it "
        "out without this message: set MAINC_PAGE_TYPE_FIELD to None. (Said once per item class.)"
    ]
    assert stats["mainc/page_type/forum"] == 1  # counted whatever the item takes
    assert not [record for record in caplog.records if record.levelno >= logging.WARNING]


def test_convert_items_gives_the_field(monkeypatch: pytest.MonkeyPatch) -> None:
    kept, _, _ = run_chosen(monkeypatch, [CoreItem(raw_html="thread")], MAINC_CONVERT_ITEMS=True)
    assert type(kept[0]) is dict and kept[0]["page_type"] == "forum"


def test_the_field_is_renamed_or_left_out(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    kept, _, _ = run_chosen(monkeypatch, [{"raw_html": "thread"}], MAINC_PAGE_TYPE_FIELD="kind")
    assert kept[0]["kind"] == "forum" and "page_type" not in kept[0]
    with caplog.at_level(logging.INFO, logger="scrapy_mainc"):
        kept, _, _ = run_chosen(
            monkeypatch, [{"raw_html": "thread"}, CoreItem(raw_html="thread")], MAINC_PAGE_TYPE_FIELD=None
        )
    assert "page_type" not in kept[0] and kept[0]["mainc"]["page_type"] == "forum"
    assert not [record for record in caplog.records if "page type field" in record.getMessage()]


def test_the_spiders_value_is_replaced(monkeypatch: pytest.MonkeyPatch) -> None:
    kept, _, _ = run_chosen(monkeypatch, [{"raw_html": "thread", "page_type": "news"}])
    assert kept[0]["page_type"] == "forum"  # the extraction's, as main_text


# --- Settings -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "types"),
    [
        ([], ()),
        (None, ()),
        ("", ()),
        (["forum", "article", "forum"], ("article", "forum")),
        ("Listing,collection", ("listing", "collection")),
        (("service",), ("service",)),
        (list(reversed(PAGE_TYPES)), ()),  # all seven: every item
    ],
)
def test_page_types_setting(value: object, types: tuple[str, ...]) -> None:
    content = MaincConfig.from_settings(Settings({"MAINC_PAGE_TYPES": value})).content
    assert content.page_types == content.kept_types == types


VALID = "valid: article, forum, listing, collection, product, documentation, service"


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ({"MAINC_PAGE_TYPES": ["forum", "blog"]}, f"MAINC_PAGE_TYPES: 'blog' is not a page type; {VALID}"),
        ({"MAINC_PAGE_TYPES": "article,"}, f"MAINC_PAGE_TYPES: '' is not a page type; {VALID}"),
        ({"MAINC_PAGE_TYPES": 3}, 'MAINC_PAGE_TYPES must be a list of page types such as ["article", '),
        (
            {"MAINC_PAGE_TYPES": ["forum"], "MAINC_ARTICLES_ONLY": True},
            'MAINC_ARTICLES_ONLY is MAINC_PAGE_TYPES = ["article"] under its older name: set one of '
            "them, not both (MAINC_PAGE_TYPES = ['forum'])",
        ),
        (
            {"MAINC_PAGE_TYPE_FIELD": "mainc"},
            "MAINC_PAGE_TYPE_FIELD and MAINC_INFO_FIELD both name the item field 'mainc'",
        ),
        (
            {"MAINC_PAGE_TYPE_FIELD": "kind", "MAINC_SECTION_FIELD": "kind"},
            "MAINC_SECTION_FIELD and MAINC_PAGE_TYPE_FIELD both name the item field 'kind'",
        ),
    ],
)
def test_bad_values(settings: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError) as raised:
        MaincConfig.from_settings(Settings(settings))
    assert str(raised.value).startswith(message)


def test_articles_only_is_the_type_article() -> None:
    content = MaincConfig.from_settings(Settings({"MAINC_ARTICLES_ONLY": True})).content
    assert (content.page_types, content.kept_types) == ((), ("article",))
    both_off = MaincConfig.from_settings(Settings({"MAINC_ARTICLES_ONLY": False, "MAINC_PAGE_TYPES": []}))
    assert both_off.content.kept_types == ()
