"""NearDuplicatePipeline on dict and Item objects: settings, mark and drop modes, stats."""

from __future__ import annotations

import asyncio
import threading
from concurrent.futures import wait
from typing import Any

import pytest
from scrapy import Field, Item
from scrapy.exceptions import DropItem, NotConfigured
from scrapy.settings import Settings
from scrapy.utils.test import get_crawler

from scrapy_mainc.config._dedup_config import DedupConfig
from scrapy_mainc.dedup import (
    FingerprintParams,
    IndexParams,
    MemoryIndex,
    cluster_id_for,
    fingerprint_text,
)
from scrapy_mainc.integration.dedup_pipeline import NearDuplicatePipeline

PIPELINE = "scrapy_mainc.integration.dedup_pipeline.NearDuplicatePipeline"
STORY = " ".join(f"w{index}" for index in range(300))
EDITED = STORY.replace("w150", "changed")
OTHER = " ".join(f"v{index}" for index in range(300))
SHORT = " ".join(f"s{index}" for index in range(49))


def make_pipeline(**settings: Any) -> tuple[NearDuplicatePipeline, Any]:
    crawler = get_crawler(settings_dict={"MAINC_DEDUP_ENABLED": True, **settings})
    pipeline = NearDuplicatePipeline.from_crawler(crawler)
    pipeline.open_spider()
    return pipeline, crawler.stats


def run(pipeline: NearDuplicatePipeline, items: list[Any]) -> list[Any]:
    """Process ``items`` in order; a dropped item becomes its DropItem."""

    async def process_all() -> list[Any]:
        results = []
        for item in items:
            try:
                results.append(await pipeline.process_item(item))
            except DropItem as exc:
                results.append(exc)
        return results

    try:
        return asyncio.run(process_all())
    finally:
        pipeline.close_spider()


def dedup_stats(stats: Any) -> dict[str, int]:
    return {
        key.removeprefix("mainc/dedup/"): value
        for key, value in stats.get_stats().items()
        if key.startswith("mainc/dedup/")
    }


def test_config_defaults() -> None:
    assert DedupConfig.from_settings(Settings()) == DedupConfig(
        enabled=False,
        threshold=0.8,
        redis_url="",
        drop=False,
        min_words=50,
        num_perm=128,
        text_field="main_text",
        fingerprint_field="fingerprint",
        url_field="url",
        redis_required=True,
        redis_timeout=5.0,
        containment=0.85,
        min_size_ratio=0.5,
        redis_buckets=65536,
        redis_cluster=False,
        redis_key="mainc:dedup",
        redis_params={},
    )


def test_config_from_settings() -> None:
    settings = Settings(
        {
            "MAINC_DEDUP_ENABLED": "True",
            "MAINC_DEDUP_THRESHOLD": "0.9",
            "MAINC_DEDUP_REDIS_URL": "redis://h:1/2",
            "MAINC_DEDUP_DROP": True,
            "MAINC_DEDUP_MIN_WORDS": "20",
            "MAINC_DEDUP_NUM_PERM": 64,
            "MAINC_DEDUP_TEXT_FIELD": "body",
            "MAINC_DEDUP_FINGERPRINT_FIELD": "fp",
            "MAINC_DEDUP_URL_FIELD": "link",
            "MAINC_DEDUP_REDIS_REQUIRED": "False",
            "MAINC_DEDUP_REDIS_TIMEOUT": "0.5",
            "MAINC_DEDUP_CONTAINMENT": "0",
            "MAINC_DEDUP_MIN_SIZE_RATIO": 0.7,
            "MAINC_DEDUP_REDIS_BUCKETS": "1024",
            "MAINC_DEDUP_REDIS_CLUSTER": "True",
            "MAINC_DEDUP_REDIS_KEY": "crawl2:dedup",
            "MAINC_DEDUP_REDIS_PARAMS": '{"password": "s3cret", "health_check_interval": 30}',
        }
    )
    config = DedupConfig.from_settings(settings)
    params = {"password": "s3cret", "health_check_interval": 30}
    assert config == DedupConfig(
        True, 0.9, "redis://h:1/2", True, 20, 64, "body", "fp", "link", False, 0.5, 0.0, 0.7, 1024,
        True, "crawl2:dedup", params,
    )  # fmt: skip
    assert config.fingerprint_params == FingerprintParams(num_perm=64, min_words=20)
    index = config.index_params
    assert (index.threshold, index.containment, index.min_size_ratio) == (0.9, 0.0, 0.7)
    assert (index.redis_url, index.redis_buckets, index.redis_timeout) == ("redis://h:1/2", 1024, 0.5)
    assert (index.redis_cluster, index.redis_key, index.redis_params) == (True, "crawl2:dedup", params)


@pytest.mark.parametrize(
    "setting",
    [
        {"MAINC_DEDUP_THRESHOLD": 2},
        {"MAINC_DEDUP_NUM_PERM": 1},
        {"MAINC_DEDUP_MIN_WORDS": -5},
        {"MAINC_DEDUP_REDIS_TIMEOUT": 0},
        {"MAINC_DEDUP_CONTAINMENT": 1.5},
        {"MAINC_DEDUP_MIN_SIZE_RATIO": 0},
        {"MAINC_DEDUP_REDIS_BUCKETS": 1000},
        {"MAINC_DEDUP_REDIS_KEY": "crawl{2}"},
        {"MAINC_DEDUP_REDIS_PARAMS": {"decode_responses": True}},
        {"MAINC_DEDUP_REDIS_PARAMS": {"socket_timeout": 30}},
    ],
)
def test_bad_settings_raise(setting: dict[str, Any]) -> None:
    with pytest.raises(ValueError, match="MAINC_DEDUP_"):
        DedupConfig.from_settings(Settings(setting))


def test_a_value_of_the_wrong_kind_is_named() -> None:
    with pytest.raises(ValueError, match="MAINC_DEDUP_THRESHOLD must be a number; got 'high'"):
        DedupConfig.from_settings(Settings({"MAINC_DEDUP_THRESHOLD": "high"}))


def test_disabled_pipeline_is_not_configured() -> None:
    with pytest.raises(NotConfigured, match="MAINC_DEDUP_ENABLED"):
        NearDuplicatePipeline.from_crawler(get_crawler(settings_dict={}))


def test_mark_mode_sets_cluster_fields_and_counts() -> None:
    pipeline, stats = make_pipeline()
    items = [
        {"url": "http://a", "main_text": STORY},
        {"url": "http://b", "main_text": EDITED},
        {"url": "http://c", "main_text": OTHER},
        {"url": "http://d", "main_text": SHORT},
        {"url": "http://e"},
    ]
    results = run(pipeline, items)
    assert results == items  # the same objects, none dropped
    fields = [(item["cluster_id"], item["duplicate_of"]) for item in items]
    assert fields == [
        (cluster_id_for("http://a"), ""),
        (cluster_id_for("http://a"), "http://a"),
        (cluster_id_for("http://c"), ""),
        ("", ""),
        ("", ""),
    ]
    assert items[0]["fingerprint"] == fingerprint_text(STORY, FingerprintParams()).to_dict()
    assert "fingerprint" not in items[3]
    assert dedup_stats(stats) == {
        "unique": 2,
        "duplicates": 1,
        "skipped_short": 2,
        "fingerprinted": 3,
    }


def test_drop_mode_drops_duplicates_and_counts_them() -> None:
    pipeline, stats = make_pipeline(MAINC_DEDUP_DROP=True)
    items = [
        {"url": "http://a", "main_text": STORY},
        {"url": "http://b", "main_text": EDITED},
        {"url": "http://c", "main_text": STORY},
        {"url": "http://d", "main_text": SHORT},
    ]
    results = run(pipeline, items)
    assert results[0] is items[0] and results[3] is items[3]
    assert [str(result) for result in results[1:3]] == ["near-duplicate of http://a"] * 2
    assert results[1].log_level == "DEBUG"
    assert dedup_stats(stats) == {
        "unique": 1,
        "duplicates": 2,
        "dropped": 2,
        "skipped_short": 1,
        "fingerprinted": 3,
    }


def test_short_texts_are_never_clustered_even_when_identical() -> None:
    pipeline, stats = make_pipeline(MAINC_DEDUP_DROP=True)
    items = [{"url": f"http://{n}", "main_text": SHORT} for n in range(3)]
    assert run(pipeline, items) == items
    assert dedup_stats(stats) == {"skipped_short": 3}


def test_min_words_and_field_names_come_from_settings() -> None:
    pipeline, stats = make_pipeline(
        MAINC_DEDUP_MIN_WORDS=10, MAINC_DEDUP_TEXT_FIELD="body", MAINC_DEDUP_URL_FIELD="link"
    )
    items = [{"link": "http://a", "body": SHORT}, {"link": "http://b", "body": SHORT}]
    run(pipeline, items)
    assert items[1]["duplicate_of"] == "http://a"
    assert dedup_stats(stats) == {"unique": 1, "duplicates": 1, "fingerprinted": 2}


def test_a_precomputed_fingerprint_is_used_as_is() -> None:
    pipeline, stats = make_pipeline()
    precomputed = fingerprint_text(STORY, FingerprintParams())
    assert precomputed is not None
    items = [
        {"url": "http://a", "main_text": STORY},
        # The text differs, the fingerprint (of STORY) decides: proof it is not recomputed.
        {"url": "http://b", "main_text": OTHER, "fingerprint": precomputed.to_dict()},
        {"url": "http://c", "main_text": STORY, "fingerprint": precomputed},
    ]
    run(pipeline, items)
    assert [item["duplicate_of"] for item in items] == ["", "http://a", "http://a"]
    assert items[2]["fingerprint"] is precomputed  # left as given
    assert dedup_stats(stats)["fingerprinted"] == 1  # the first item only


def test_a_fingerprint_of_other_params_is_recomputed() -> None:
    pipeline, stats = make_pipeline()
    foreign = fingerprint_text(STORY, FingerprintParams(char_shingle=3))
    assert foreign is not None
    items = [
        {"url": "http://a", "main_text": OTHER},
        {"url": "http://b", "main_text": OTHER, "fingerprint": foreign.to_dict()},
    ]
    run(pipeline, items)
    assert items[1]["duplicate_of"] == "http://a"
    assert dedup_stats(stats)["fingerprinted"] == 2


def test_a_fingerprint_without_its_set_size_is_recomputed() -> None:
    pipeline, stats = make_pipeline()
    precomputed = fingerprint_text(STORY, FingerprintParams())
    assert precomputed is not None
    before_sizes = {key: value for key, value in precomputed.to_dict().items() if key != "shingles"}
    items = [
        {"url": "http://a", "main_text": OTHER},
        # As written by a version without set sizes: of STORY, but OTHER is fingerprinted.
        {"url": "http://b", "main_text": OTHER, "fingerprint": before_sizes},
    ]
    run(pipeline, items)
    assert items[1]["duplicate_of"] == "http://a"
    assert dedup_stats(stats)["fingerprinted"] == 2


class Article(Item):
    url = Field()
    main_text = Field()
    cluster_id = Field()
    duplicate_of = Field()


class Bare(Item):
    url = Field()
    main_text = Field()


def test_items_with_declared_fields() -> None:
    pipeline, _ = make_pipeline()
    items = [Article(url="http://a", main_text=STORY), Article(url="http://b", main_text=STORY)]
    run(pipeline, items)
    assert dict(items[1]) == {
        "url": "http://b",
        "main_text": STORY,
        "cluster_id": cluster_id_for("http://a"),
        "duplicate_of": "http://a",
    }  # no fingerprint field declared: none stored


def test_items_without_the_cluster_fields_pass_unclustered_with_one_error(
    caplog: pytest.LogCaptureFixture,
) -> None:
    pipeline, stats = make_pipeline()
    bare = [Bare(url="http://a", main_text=STORY), Bare(url="http://b", main_text=STORY)]
    later = {"url": "http://c", "main_text": STORY}
    assert run(pipeline, [*bare, later]) == [*bare, later]
    assert [dict(item) for item in bare] == [
        {"url": url, "main_text": STORY} for url in ("http://a", "http://b")
    ]
    # The bare items never entered the index: the dict founds the cluster.
    assert (later["cluster_id"], later["duplicate_of"]) == (cluster_id_for("http://c"), "")
    errors = [record.getMessage() for record in caplog.records if record.levelname == "ERROR"]
    assert errors == [
        "NearDuplicatePipeline cannot store clusters in Bare items: the item class has no field "
        "'cluster_id', 'duplicate_of'. Fix one of: declare them on Bare (e.g. cluster_id = "
        "scrapy.Field(), or a dataclass/attrs field with a default), or set MAINC_CONVERT_ITEMS "
        "= True to convert such items to dicts. Until then they pass unclustered (stat "
        "mainc/dedup/missing_field)."
    ]
    assert dedup_stats(stats) == {"missing_field": 2, "unique": 1, "fingerprinted": 1}


def test_items_without_the_cluster_fields_are_converted_when_asked() -> None:
    pipeline, stats = make_pipeline(MAINC_CONVERT_ITEMS=True)
    results = run(pipeline, [Bare(url="http://a", main_text=STORY), Bare(url="http://b", main_text=EDITED)])
    assert [type(result) for result in results] == [dict, dict]
    assert [result["duplicate_of"] for result in results] == ["", "http://a"]
    assert dedup_stats(stats) == {"unique": 1, "duplicates": 1, "fingerprinted": 2}


def test_a_re_crawled_page_is_not_its_own_duplicate() -> None:
    pipeline, stats = make_pipeline(MAINC_DEDUP_DROP=True)
    items = [{"url": "http://a", "main_text": STORY}, {"url": "http://a", "main_text": EDITED}]
    assert run(pipeline, items) == items  # not dropped
    assert [(item["cluster_id"], item["duplicate_of"]) for item in items] == [
        (cluster_id_for("http://a"), "")
    ] * 2
    assert dedup_stats(stats) == {"unique": 1, "recrawled": 1, "fingerprinted": 2}


def words(start: int, stop: int) -> str:
    return " ".join(f"w{index}" for index in range(start, stop))


def test_a_lost_first_item_takes_its_cluster_and_longer_copy_out_of_the_index() -> None:
    pipeline, stats = make_pipeline()
    index = pipeline.step.index
    assert isinstance(index, MemoryIndex)
    lead_cut = {"url": "http://lead-cut", "main_text": words(60, 300)}
    story = {"url": "http://story", "main_text": words(0, 300)}  # becomes the longer copy

    async def process(*items: dict[str, Any]) -> None:
        for item in items:
            await pipeline.process_item(item)

    asyncio.run(process(lead_cut, story))
    assert (story["duplicate_of"], len(index._records)) == ("http://lead-cut", 2)
    pipeline.item_lost(lead_cut)  # a later pipeline dropped it
    wait(list(pipeline._in_flight), timeout=30)
    assert (len(index), len(index._records)) == (0, 0)
    end_cut = {"url": "http://end-cut", "main_text": words(0, 240)}
    asyncio.run(process(end_cut))
    pipeline.close_spider()
    assert (end_cut["cluster_id"], end_cut["duplicate_of"]) == (cluster_id_for("http://end-cut"), "")
    assert dedup_stats(stats) == {"unique": 2, "duplicates": 1, "withdrawn": 1, "fingerprinted": 3}


def test_a_first_item_a_later_pipeline_replaced_is_forgotten_once_scraped() -> None:
    """Scrapy signals ``item_scraped`` with the object the last pipeline returned: a founder
    a later pipeline copied is matched by its URL then, not kept until 10,000 newer ones."""
    pipeline, stats = make_pipeline()
    first = {"url": "http://a", "main_text": STORY}
    other = {"url": "http://b", "main_text": OTHER}

    async def process(*items: dict[str, Any]) -> None:
        for item in items:
            await pipeline.process_item(item)

    asyncio.run(process(first, other))
    assert len(pipeline._new_leaders) == 2
    pipeline.item_scraped(dict(first))  # a copy, as a later pipeline may return
    assert len(pipeline._new_leaders) == 1
    pipeline.item_lost(other)  # the other one is still withdrawn when lost
    wait(list(pipeline._in_flight), timeout=30)
    pipeline.close_spider()
    assert dedup_stats(stats)["withdrawn"] == 1


class BrokenIndex:
    """Stands in for a Redis index whose server went away."""

    service_errors = (ConnectionError,)
    losses = 0

    def __init__(self) -> None:
        self.calls = 0

    def assign(self, fingerprint: object, url: str) -> object:
        self.calls += 1
        raise ConnectionError("server gone")

    def close(self) -> None:
        pass


def test_index_failures_let_the_items_pass_unclustered(caplog: pytest.LogCaptureFixture) -> None:
    pipeline, stats = make_pipeline()
    broken = BrokenIndex()
    pipeline.step.index = broken  # type: ignore[assignment]
    items = [{"url": "http://a", "main_text": STORY}, {"url": "http://b", "main_text": OTHER}]
    assert run(pipeline, items) == items
    assert [(item["cluster_id"], item["duplicate_of"]) for item in items] == [("", "")] * 2
    assert dedup_stats(stats) == {"errors": 2, "fingerprinted": 2}
    assert broken.calls == 1  # the second item did not wait for a failing index
    warnings = [record.getMessage() for record in caplog.records if record.levelname == "WARNING"]
    assert warnings == [
        "mainc dedup: the index at memory failed (ConnectionError: server gone); items pass "
        "unclustered while it fails, trying again every 5 s (stat mainc/dedup/errors)"
    ]


class GatedIndex(MemoryIndex):
    """A memory index whose assignments wait until the test opens the gate."""

    def __init__(self) -> None:
        super().__init__(IndexParams())
        self.gate, self.withdrawn = threading.Event(), threading.Event()

    def assign(self, fingerprint: Any, url: str) -> Any:
        assert self.gate.wait(30)
        return super().assign(fingerprint, url)

    def withdraw(self, cluster_id: str, fingerprint: Any) -> bool:
        found = super().withdraw(cluster_id, fingerprint)
        self.withdrawn.set()
        return found


def test_an_item_waits_for_its_cluster_at_most_the_time_out() -> None:
    pipeline, stats = make_pipeline(MAINC_DEDUP_REDIS_TIMEOUT=0.2)
    slow = GatedIndex()
    pipeline.step.index = slow

    async def process() -> dict[str, Any]:
        item = {"url": "http://a", "main_text": STORY}
        await pipeline.process_item(item)
        slow.gate.set()  # the assignment goes on in its thread, and founds a cluster...
        return item

    item = asyncio.run(process())
    assert slow.withdrawn.wait(30)  # ...which its thread withdrew: the item went on without it
    pipeline.close_spider()
    assert (item["cluster_id"], item["duplicate_of"]) == ("", "")
    assert dedup_stats(stats) == {"errors": 1, "fingerprinted": 1}
    assert len(slow) == 0


def test_through_scrapys_item_pipeline_manager() -> None:
    from scrapy.pipelines import ItemPipelineManager

    if not hasattr(ItemPipelineManager, "process_item_async"):
        pytest.skip("ItemPipelineManager.process_item_async needs Scrapy 2.14+")
    crawler = get_crawler(settings_dict={"MAINC_DEDUP_ENABLED": True, "ITEM_PIPELINES": {PIPELINE: 100}})
    manager = ItemPipelineManager.from_crawler(crawler)  # warns if a method requires spider

    async def crawl() -> list[Any]:
        await manager.open_spider_async()
        try:
            return [
                await manager.process_item_async({"url": "http://a", "main_text": STORY}),
                await manager.process_item_async({"url": "http://b", "main_text": EDITED}),
            ]
        finally:
            await manager.close_spider_async()

    first, second = asyncio.run(crawl())
    assert second["duplicate_of"] == "http://a"
    assert second["cluster_id"] == first["cluster_id"] == cluster_id_for("http://a")
