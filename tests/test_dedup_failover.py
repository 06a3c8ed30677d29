"""Crawls on a Redis Cluster that loses a master: killed (its replica takes over) or emptied.

One real crawl (``conftest.run_crawls``: a subprocess, the bundled site on loopback) on a
cluster of the test's own, three masters with a replica each and ``cluster-node-timeout``
1 s: the master named in ``MAINC_DEDUP_REDIS_URL`` is killed (SIGKILL) at the 10th item.
Every item must reach the output; the items of the gap pass unclustered, counted in
``mainc/dedup/errors``, and clustering resumes by itself once the replica is promoted (it
has the data, so no loss is reported). A second crawl, on the session's cluster, empties
one master's share of the index at the 10th item: found, counted in
``mainc/dedup/index_lost`` and logged once at WARNING. Without the ``redis-server`` and
``redis-cli`` binaries the test is skipped and says so.
"""

from __future__ import annotations

import os
import signal
from pathlib import Path
from typing import Any

import pytest
from conftest import CrawlResult, run_crawls, start_cluster
from newsdemo.localcluster import LocalCluster
from test_dedup_faults import DEDUP, ActAtItemPipeline, SequentialSpider, dangling, dedup_stats, page  # noqa: F401 (the crawls name it here)

redis = pytest.importorskip("redis", reason="redis-py is not installed (scrapy-mainc[test])")

#: The item before whose clustering the chaos happens.
CHAOS_AT = 10
#: Copies of the site crawled (``/c<N>/`` paths of newsdemo.server): 10 articles each.
SITE_COPIES = 6
ARTICLES = (
    "en/harbour-bridge-reopens.html",
    "en/library-robots.html",
    "en/night-tram-timetable.html",
    "en/print/harbour-bridge-reopens.html",
    "en/river-festival.html",
    "en/school-gardens.html",
    "en/wire/harbour-bridge-reopens.html",
    "zh/chuncha-kaicai.html",
    "zh/shuiku-kuorong.html",
    "zh/yejian-gongjiao.html",
)
#: Seconds between two requests (Scrapy's DOWNLOAD_DELAY, times 0.5 to 1.5).
PAGE_DELAY = 0.12
PAGES = [f"c{copy}/{article}" for copy in range(1, SITE_COPIES + 1) for article in ARTICLES]


class ChaosPipeline(ActAtItemPipeline):
    """Kills the process TEST_KILL_PID (SIGKILL), or deletes the keys matching
    TEST_EMPTY_KEYS on the Redis at TEST_EMPTY_NODE (one master's share of the index, as when
    that master restarts without persistence)."""

    def act(self) -> None:
        if self.settings.getint("TEST_KILL_PID"):
            os.kill(self.settings.getint("TEST_KILL_PID"), signal.SIGKILL)
            return
        node = redis.Redis.from_url(self.settings.get("TEST_EMPTY_NODE"))
        pipe = node.pipeline(transaction=False)
        for key in node.scan_iter(match=self.settings.get("TEST_EMPTY_KEYS"), count=1000):
            pipe.delete(key)  # one at a time: the keys are in many slots
        pipe.execute()
        node.close()


def crawl(site: str, cluster_url: str, prefix: str, pages: list[str], **chaos: Any) -> dict[str, Any]:
    settings = {
        **DEDUP,
        "MAINC_DEDUP_REDIS_URL": cluster_url,
        "MAINC_DEDUP_REDIS_CLUSTER": True,
        "MAINC_DEDUP_REDIS_KEY": prefix,
        "MAINC_DEDUP_REDIS_TIMEOUT": 1.0,
        "ITEM_PIPELINES": {f"{__name__}.ChaosPipeline": 105},
        "TEST_ACT_AT": CHAOS_AT,
        **chaos,
    }
    return {
        "spider": f"{__name__}:SequentialSpider",
        "args": {"base": site, "pages": pages},
        "settings": settings,
    }


def accounted(result: CrawlResult, pages: list[str]) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """The items in crawl order, after checking that every one went out, once."""
    items = sorted(result.items, key=lambda item: item["seq"])
    assert result.stats["finish_reason"] == "finished"
    assert [page(item) for item in items] == pages
    stats = dedup_stats(result)
    clustered = stats.get("unique", 0) + stats.get("duplicates", 0) + stats.get("recrawled", 0)
    assert clustered + stats.get("errors", 0) == len(pages)
    assert sum(not item["cluster_id"] for item in items) == stats.get("errors", 0)
    assert dangling(items) == []
    return items, stats


@pytest.mark.slow
def test_a_crawl_goes_through_a_failover_and_a_master_that_lost_its_data(
    site_server: Any, redis_cluster: LocalCluster, tmp_path: Path
) -> None:
    own = start_cluster(tmp_path / "cluster")
    try:
        victim = own.nodes[0]  # the node the crawl is told about
        assert victim in own.masters()
        emptied = next(node for node in redis_cluster.masters() if node.url != redis_cluster.url)
        # The failover crawl takes some 8 s (DOWNLOAD_DELAY), so that clustering resumes for
        # a good part of its pages after the failover (about 2 s: the node time-out, then the
        # replica's election, then the pipeline's next try).
        slow = {"TEST_KILL_PID": victim.process.pid, "DOWNLOAD_DELAY": PAGE_DELAY}
        empty = {"TEST_EMPTY_NODE": emptied.url, "TEST_EMPTY_KEYS": "emptied:dedup:*"}
        scenarios = [
            {"name": "failover", **crawl(site_server.url, own.url, "failover:dedup", PAGES, **slow)},
            {
                "name": "emptied",
                **crawl(site_server.url, redis_cluster.url, "emptied:dedup", PAGES[:20], **empty),
            },
        ]
        results, warnings = run_crawls(scenarios, tmp_path, timeout=300)
        promoted = own.masters()
    finally:
        own.stop()
    assert warnings == []

    failover = results["failover"]
    items, stats = accounted(failover, PAGES)
    before = items[: CHAOS_AT - 1]
    gap = [item for item in items if not item["cluster_id"]]
    assert all(item["cluster_id"] for item in before)
    assert gap and all(item["seq"] >= CHAOS_AT for item in gap)
    resumed = [item for item in items if item["seq"] > gap[-1]["seq"]]
    assert len(resumed) >= 10 and all(item["cluster_id"] for item in resumed)
    # The figures docs/dedup.md quotes (pytest -s shows them).
    first, passed, again = len(before), len(gap), len(resumed)
    print(f"failover: {first} items clustered, {passed} passed unclustered, {again} clustered again")
    assert "index_lost" not in stats  # the replica had the data
    assert len(promoted) == 3 and victim not in promoted
    assert failover.errors == []
    (failed,) = [
        message for message in failover.warnings_logged if message.startswith("mainc dedup: the index")
    ]
    assert failed.startswith(f"mainc dedup: the index at {own.url} failed (")
    assert any("works again" in message for message in failover.info_logged)

    emptied_crawl = results["emptied"]
    items, stats = accounted(emptied_crawl, PAGES[:20])
    assert stats.get("errors", 0) == 0 and stats["index_lost"] == 1
    assert all(item["cluster_id"] for item in items)
    (lost,) = [message for message in emptied_crawl.warnings_logged if "lost its data" in message]
    address = emptied.url.removeprefix("redis://").removesuffix("/0")
    assert lost.startswith(f"mainc dedup: the index lost its data on node {address} (")
    assert f"the clusters on that node of the {CHAOS_AT - 1} texts this process assigned before" in lost
    assert emptied_crawl.errors == []
