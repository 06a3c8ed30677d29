"""The one item-field policy on real Scrapy objects: which fields every item type (Scrapy
items, dicts, dataclasses, attrs classes) takes, what a missing field says, and the
cluster fields of the near-duplicate pipeline."""

from __future__ import annotations

import dataclasses
from typing import Any

import attrs
import pytest
import scrapy
from itemadapter import ItemAdapter

from scrapy_mainc.config._mainc_config import MaincConfig
from scrapy_mainc.core._types import Extraction
from scrapy_mainc.items._fields import (
    CLUSTER_FIELDS,
    FieldPolicy,
    ItemFields,
    MissingFieldError,
    cluster_fields_policy,
    set_if_declared,
)

EXTRACTION = Extraction(text="Body text", html="<p>Body text</p>", title="Found title", algorithm="auto")


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
