"""The metadata in the Scrapy layer, without crawling: settings, item fields for every item
type, the pipeline's stats and messages, and the record across worker processes.

The extraction is replaced by one that returns chosen metadata, so every path is taken
with values, whatever the metadata stage finds on a page (``test_scrapy_metadata_crawl``
checks real pages against ``scrapy_mainc.extract``).
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import pickle
from typing import Any

import attrs
import pytest
import scrapy
from itemadapter import ItemAdapter
from scrapy import Spider
from scrapy.settings import Settings
from scrapy.utils.test import get_crawler
from test_scrapy_workers import in_loop

from scrapy_mainc.config._mainc_config import METADATA_FIELD_SETTINGS, FieldNames, MaincConfig
from scrapy_mainc.config._registry import REGISTRY
from scrapy_mainc.core._types import Extraction
from scrapy_mainc.integration.pipeline import MaincPipeline
from scrapy_mainc.items import _workers
from scrapy_mainc.items._fields import ItemFields, item_value, undeclared_metadata_message
from scrapy_mainc.items._pool import WorkerPool
from scrapy_mainc.items._workers import ExtractionOutcome, ExtractionTask, run_extraction
from scrapy_mainc.metadata import Metadata

NAMES = tuple(name for name, _ in METADATA_FIELD_SETTINGS)
FULL = Metadata(
    published="2024-05-13T08:30:00+01:00",
    modified="2024-05-14",
    published_from="json-ld",
    modified_from="dateline",
    authors=("Maren Hollis", "Ada Park"),
    site_name="The Eastgate Herald",
    canonical_url="https://herald.example/news/bridge",
    description="Cyclists and buses were first across.",
    image="https://herald.example/img/bridge.jpg",
    section="Transport",
    tags=("bridges", "transport"),
)
PARTIAL = Metadata(published="2024-05-13", published_from="url", site_name="The Eastgate Herald")
#: What FULL looks like in an item.
FULL_ITEM = {
    "published": "2024-05-13T08:30:00+01:00",
    "modified": "2024-05-14",
    "published_from": "json-ld",
    "modified_from": "dateline",
    "authors": ["Maren Hollis", "Ada Park"],
    "site_name": "The Eastgate Herald",
    "canonical_url": "https://herald.example/news/bridge",
    "description": "Cyclists and buses were first across.",
    "image": "https://herald.example/img/bridge.jpg",
    "section": "Transport",
    "tags": ["bridges", "transport"],
}
#: What an empty record looks like in an item.
EMPTY_ITEM = {name: [] if name in ("authors", "tags") else None for name in NAMES}


def extraction(metadata: Metadata = FULL) -> Extraction:
    return Extraction(text="Body text", html="<p>Body text</p>", title="Title", metadata=metadata)


class CoreItem(scrapy.Item):
    """An item class written before the metadata fields existed."""

    url = scrapy.Field()
    main_text = scrapy.Field()
    main_html = scrapy.Field()
    title = scrapy.Field()
    mainc = scrapy.Field()
    raw_html = scrapy.Field()


class IndexItem(CoreItem):
    """Every optional field declared: the page type and the metadata fields."""

    page_type = scrapy.Field()
    published = scrapy.Field()
    modified = scrapy.Field()
    published_from = scrapy.Field()
    modified_from = scrapy.Field()
    authors = scrapy.Field()
    site_name = scrapy.Field()
    canonical_url = scrapy.Field()
    description = scrapy.Field()
    image = scrapy.Field()
    section = scrapy.Field()
    tags = scrapy.Field()


@dataclasses.dataclass
class DatedData:
    """Two metadata fields declared, with defaults of its own."""

    url: str = ""
    main_text: str = ""
    main_html: str = ""
    title: str = ""
    mainc: dict[str, Any] | None = None
    raw_html: str | None = None
    published: str = ""
    authors: list[str] = dataclasses.field(default_factory=list)


@attrs.define
class DatedAttrs:
    url: str = ""
    main_text: str = ""
    main_html: str = ""
    title: str = ""
    mainc: dict[str, Any] = attrs.Factory(dict)
    raw_html: str | None = None
    published: str | None = None


def _fields(**settings: Any) -> ItemFields:
    return ItemFields(MaincConfig.from_settings(Settings(settings)))


def _metadata_of(item: Any, fields: tuple[str, ...] = NAMES) -> dict[str, Any]:
    adapter = ItemAdapter(item)
    return {field: adapter[field] for field in fields if field in adapter}


# --- Settings ---------------------------------------------------------------------------


def test_every_metadata_field_has_a_registered_setting() -> None:
    assert NAMES == tuple(field.name for field in dataclasses.fields(Metadata))
    registry = {setting.name: setting for setting in REGISTRY}
    for name, setting in METADATA_FIELD_SETTINGS:
        assert registry[setting].default == name
        assert (registry[setting].group, registry[setting].kind) == ("fields", "str or None")
    enabled = registry["MAINC_METADATA_ENABLED"]
    assert (enabled.default, enabled.kind, enabled.group) == (True, "bool", "extraction")


def test_metadata_settings_are_read() -> None:
    default = MaincConfig.from_settings(Settings())
    assert default.metadata is True
    assert default.fields.metadata == tuple((name, name) for name in NAMES) == FieldNames().metadata
    config = MaincConfig.from_settings(
        Settings(
            {
                "MAINC_METADATA_ENABLED": "False",
                "MAINC_PUBLISHED_FIELD": "date_published",
                "MAINC_TAGS_FIELD": None,
                "MAINC_IMAGE_FIELD": "",
            }
        )
    )
    assert config.metadata is False
    assert dict(config.fields.metadata) == {
        **{name: name for name in NAMES if name not in ("tags", "image")},
        "published": "date_published",
    }


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        (
            {"MAINC_SECTION_FIELD": "title"},
            "MAINC_SECTION_FIELD and MAINC_TITLE_FIELD both name the item field 'title'",
        ),
        ({"MAINC_TEXT_FIELD": "description"}, "MAINC_DESCRIPTION_FIELD and MAINC_TEXT_FIELD both name"),
        ({"MAINC_IMAGE_FIELD": "raw_html"}, "MAINC_IMAGE_FIELD and MAINC_PAGE_FIELD both name"),
        ({"MAINC_MODIFIED_FIELD": "published"}, "MAINC_MODIFIED_FIELD and MAINC_PUBLISHED_FIELD both name"),
        ({"MAINC_AUTHORS_FIELD": 3}, "must be a field name or None"),
    ],
)
def test_a_field_named_twice_is_a_configuration_error(settings: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        MaincConfig.from_settings(Settings(settings))


def test_a_switched_off_field_frees_its_name() -> None:
    config = MaincConfig.from_settings(
        Settings({"MAINC_TEXT_FIELD": "description", "MAINC_DESCRIPTION_FIELD": None})
    )
    assert "description" not in dict(config.fields.metadata)


# --- Item fields ------------------------------------------------------------------------


def test_item_values() -> None:
    assert item_value("") is None
    assert item_value(("a", "b")) == ["a", "b"] and item_value(()) == []
    assert item_value("2024-05-13") == "2024-05-13"


def test_dict_items_get_every_field() -> None:
    fields = _fields()
    item: dict[str, Any] = {"url": "http://a/"}
    found = fields.attach(ItemAdapter(item), extraction(FULL), {})
    assert found == NAMES
    assert _metadata_of(item) == FULL_ITEM
    assert fields.skipped_metadata(item) == ()
    empty: dict[str, Any] = {}
    assert fields.attach(ItemAdapter(empty), extraction(Metadata()), {}) == ()
    assert _metadata_of(empty) == EMPTY_ITEM  # every key there: None, or [] for a list


def test_a_spiders_own_value_is_never_overwritten() -> None:
    item: dict[str, Any] = {"description": "The spider's own", "section": "", "tags": ["mine"], "authors": []}
    found = _fields().attach(ItemAdapter(item), extraction(FULL), {})
    assert found == NAMES  # the page gave every field, whoever's value the item keeps
    assert item["description"] == "The spider's own" and item["tags"] == ["mine"]
    assert item["section"] == "Transport" and item["authors"] == ["Maren Hollis", "Ada Park"]
    kept: dict[str, Any] = {"site_name": "Herald", "section": ""}
    _fields().attach(ItemAdapter(kept), extraction(Metadata()), {})
    assert kept["site_name"] == "Herald" and kept["section"] == ""  # "" is not turned into None


def test_typed_items_take_the_metadata_fields_they_declare() -> None:
    fields = _fields()
    for item_class in (CoreItem, DatedData, DatedAttrs):
        item = item_class(url="x")
        assert fields.prepare(item) is item  # neither converted nor refused
    core = CoreItem(url="x")
    assert fields.attach(ItemAdapter(core), extraction(FULL), {}) == ()
    assert set(core) == {"url", "main_text", "main_html", "title", "mainc"}
    assert fields.skipped_metadata(core) == tuple((name, name) for name in NAMES)

    dated = DatedData()
    assert fields.attach(ItemAdapter(dated), extraction(FULL), {}) == ("published", "authors")
    assert (dated.published, dated.authors) == (FULL.published, list(FULL.authors))
    assert [field for _, field in fields.skipped_metadata(dated)] == [
        name for name in NAMES if name not in ("published", "authors")
    ]
    untouched = DatedData()
    fields.attach(ItemAdapter(untouched), extraction(Metadata()), {})
    assert (untouched.published, untouched.authors) == ("", [])  # the class's own defaults stay

    dated_attrs = DatedAttrs()
    fields.attach(ItemAdapter(dated_attrs), extraction(PARTIAL), {})
    assert dated_attrs.published == "2024-05-13"

    full = IndexItem(url="x")
    assert fields.attach(ItemAdapter(full), extraction(FULL), {}) == NAMES
    assert _metadata_of(full) == FULL_ITEM and fields.skipped_metadata(full) == ()
    unset = IndexItem(url="x")
    fields.attach(ItemAdapter(unset), extraction(Metadata()), {})
    assert _metadata_of(unset) == EMPTY_ITEM  # unset declared fields are filled like a dict's


def test_convert_items_converts_for_the_metadata_fields_too() -> None:
    fields = _fields(MAINC_CONVERT_ITEMS=True)
    item = fields.prepare(CoreItem(url="x"))
    assert type(item) is dict and fields.skipped_metadata(item) == ()
    fields.attach(ItemAdapter(item), extraction(FULL), {})
    assert _metadata_of(item) == FULL_ITEM
    assert type(fields.prepare(IndexItem(url="x"))) is IndexItem  # nothing lacking: kept as is


def test_renamed_and_switched_off_fields() -> None:
    fields = _fields(MAINC_PUBLISHED_FIELD="date_published", MAINC_TAGS_FIELD=None, MAINC_AUTHORS_FIELD="")
    item: dict[str, Any] = {}
    assert fields.attach(ItemAdapter(item), extraction(FULL), {}) == tuple(
        name for name in NAMES if name not in ("tags", "authors")
    )
    assert item["date_published"] == FULL.published
    assert not {"published", "tags", "authors"} & set(item)
    typed = _fields(**{setting: None for _, setting in METADATA_FIELD_SETTINGS})
    assert typed.skipped_metadata(typed.prepare(CoreItem())) == ()  # nothing asked, nothing lacking


def test_metadata_disabled_writes_nothing() -> None:
    fields = _fields(MAINC_METADATA_ENABLED=False)
    item: dict[str, Any] = {}
    assert fields.attach(ItemAdapter(item), extraction(FULL), {}) == ()
    assert set(item) == {"main_text", "main_html", "title", "mainc", "page_type"}
    assert fields.skipped_metadata(CoreItem()) == ()


def test_the_undeclared_message_names_the_fields_and_the_ways_out() -> None:
    message = undeclared_metadata_message(CoreItem, (("published", "date"), ("tags", "tags")))
    for needed in (
        "CoreItem items do not declare the metadata fields 'date', 'tags'",
        "date = scrapy.Field()",
        "MAINC_CONVERT_ITEMS = True",
        "set MAINC_PUBLISHED_FIELD, MAINC_TAGS_FIELD to None",
        "MAINC_METADATA_ENABLED = False",
        "mainc/metadata/undeclared",
    ):
        assert needed in message
    assert "the metadata field 'image', so they go without it." in undeclared_metadata_message(
        CoreItem, (("image", "image"),)
    )


# --- The pipeline: stats, messages, the task ---------------------------------------------


class FakeExtract:
    """Stands in for ``extract`` in the worker module: the page's text names its record."""

    RECORDS = {"full": FULL, "partial": PARTIAL, "none": Metadata()}

    def __init__(self) -> None:
        self.metadata_flags: list[bool] = []

    def __call__(self, page: str, *, metadata: bool = True, **kwargs: Any) -> Extraction:
        self.metadata_flags.append(metadata)
        return extraction(self.RECORDS[page] if metadata else Metadata())


def _run_pipeline(
    monkeypatch: pytest.MonkeyPatch, items: list[Any], **settings: Any
) -> tuple[list[Any], dict[str, Any], FakeExtract]:
    fake = FakeExtract()
    monkeypatch.setattr(_workers, "extract", fake)
    crawler = get_crawler(Spider, {"MAINC_WORKER_MODE": "inline", **settings})
    crawler.stats.open_spider()
    pipeline = MaincPipeline.from_crawler(crawler)
    pipeline.open_spider()

    async def run() -> list[Any]:
        return [await pipeline.process_item(item) for item in items]

    done = asyncio.run(run())
    pipeline.close_spider()
    stats = {
        key: value for key, value in crawler.stats.get_stats().items() if key.startswith("mainc/metadata/")
    }
    return done, stats, fake


def test_stats_count_the_items_whose_page_gave_each_field(monkeypatch: pytest.MonkeyPatch) -> None:
    pages = ["full", "partial", "none", "full"]
    items, stats, fake = _run_pipeline(monkeypatch, [{"raw_html": page} for page in pages])
    assert fake.metadata_flags == [True] * 4
    expected = {
        f"mainc/metadata/{name}": count
        for name in NAMES
        for count in (sum(bool(getattr(FakeExtract.RECORDS[page], name)) for page in pages),)
        if count
    }
    assert expected["mainc/metadata/published"] == 3 and expected["mainc/metadata/authors"] == 2
    assert stats == expected
    assert _metadata_of(items[0]) == FULL_ITEM and _metadata_of(items[2]) == EMPTY_ITEM


def test_typed_items_without_the_fields_are_told_once_per_class(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    items = [
        CoreItem(raw_html="full"),
        DatedData(raw_html="full"),
        CoreItem(raw_html="partial"),
        IndexItem(raw_html="full"),
    ]
    with caplog.at_level(logging.INFO, logger="scrapy_mainc"):
        done, stats, fake = _run_pipeline(monkeypatch, [*items, DatedData(raw_html="none")])
    assert fake.metadata_flags == [False, True, False, True, True]  # no stage for a CoreItem's page
    told = [record for record in caplog.records if "do not declare the metadata" in record.getMessage()]
    assert [record.levelno for record in told] == [logging.INFO, logging.INFO]
    assert (
        told[0]
        .getMessage()
        .startswith("mainc: CoreItem items do not declare the metadata fields 'published'")
    )
    assert (
        told[1]
        .getMessage()
        .startswith("mainc: DatedData items do not declare the metadata fields 'modified'")
    )
    assert [type(item) for item in done] == [CoreItem, DatedData, CoreItem, IndexItem, DatedData]
    assert all(item["main_text"] == "Body text" for item in map(ItemAdapter, done))
    assert stats["mainc/metadata/undeclared"] == 4  # two CoreItem, two DatedData
    assert stats["mainc/metadata/published"] == 2  # the DatedData and the IndexItem of a full page
    assert stats["mainc/metadata/authors"] == 2 and stats["mainc/metadata/tags"] == 1  # IndexItem only
    assert not caplog.records or all(record.levelno < logging.WARNING for record in caplog.records)


def test_metadata_disabled_skips_the_stage(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.INFO, logger="scrapy_mainc"):
        items, stats, fake = _run_pipeline(
            monkeypatch, [{"raw_html": "full"}, CoreItem(raw_html="full")], MAINC_METADATA_ENABLED=False
        )
    assert fake.metadata_flags == [False, False]
    assert set(items[0]) == {"main_text", "main_html", "title", "mainc", "page_type"}
    assert stats == {}
    assert not [record for record in caplog.records if "metadata" in record.getMessage()]


def test_no_metadata_field_wanted_skips_the_stage(monkeypatch: pytest.MonkeyPatch) -> None:
    settings = {setting: None for _, setting in METADATA_FIELD_SETTINGS}
    items, stats, fake = _run_pipeline(monkeypatch, [{"raw_html": "full"}], **settings)
    assert fake.metadata_flags == [False]
    assert stats == {} and set(items[0]) == {"main_text", "main_html", "title", "mainc", "page_type"}


# --- Across worker processes --------------------------------------------------------------


def with_metadata(task: ExtractionTask) -> ExtractionOutcome:
    """A task function (top-level, for worker processes) whose result carries FULL."""
    return ExtractionOutcome(Extraction(text=str(task.page), metadata=FULL if task.metadata else Metadata()))


def test_the_record_pickles() -> None:
    assert pickle.loads(pickle.dumps(FULL)) == FULL
    outcome = ExtractionOutcome(extraction(FULL))
    assert pickle.loads(pickle.dumps(outcome)) == outcome
    task = ExtractionTask("page", metadata=False)
    assert pickle.loads(pickle.dumps(task)).metadata is False


def test_run_extraction_passes_the_metadata_switch(monkeypatch: pytest.MonkeyPatch) -> None:
    fake = FakeExtract()
    monkeypatch.setattr(_workers, "extract", fake)
    assert run_extraction(ExtractionTask("full")).extraction.metadata == FULL
    assert run_extraction(ExtractionTask("full", metadata=False)).extraction.metadata == Metadata()
    assert fake.metadata_flags == [True, False]


@pytest.mark.parametrize("mode", ["process", "thread"])
def test_the_record_arrives_from_a_worker(mode: str) -> None:
    pool = WorkerPool(mode, 1, 60.0, function=with_metadata)
    try:
        on = pool.submit(ExtractionTask("a")).result(60)
        off = pool.submit(ExtractionTask("b", metadata=False)).result(60)
    finally:
        pool.kill_workers()
        pool.close(5)
    assert (on.failure, on.extraction.metadata) == ("", FULL)
    assert (off.failure, off.extraction.metadata) == ("", Metadata())


def test_the_record_arrives_from_a_loop_pool_worker() -> None:
    async def test(loop: asyncio.AbstractEventLoop) -> None:
        pool = WorkerPool("process", 1, 60.0, function=with_metadata, loop=loop)
        outcome = await asyncio.wrap_future(pool.submit(ExtractionTask("a")))
        pool.close(5)
        assert (outcome.failure, outcome.extraction.metadata) == ("", FULL)

    in_loop(test)
