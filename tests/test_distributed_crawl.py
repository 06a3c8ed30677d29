"""Two crawler processes share one crawl of the bundled site through a real Redis server.

Each process is the documented command (``scrapy crawl news`` with the distributed profile,
built by ``example_project/run_distributed.py``) in a subprocess. The site is served from
this process by :class:`SplittingServer`, which records every request and makes sure that
both crawlers fetch a copy of the bridge story (one crawler's second copy waits until the
other crawler has asked for one), so that copies of one story are crawled by different
processes in every run, whatever the scheduling. Nothing here waits on a fixed delay.

Without a ``redis-server`` binary these tests are skipped and say so (``redis_server``).
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from collections import Counter
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
from conftest import EXAMPLE
from newsdemo.server import SiteServer, load_site

from scrapy_mainc.dedup import cluster_id_for

redis = pytest.importorskip("redis", reason="redis-py is not installed (scrapy-mainc[test])")
pytest.importorskip("scrapy_redis", reason="scrapy-redis is not installed (scrapy-mainc[test])")

import run_distributed  # noqa: E402 (example_project, on sys.path through conftest)

BRIDGE = "harbour-bridge-reopens.html"
CRAWLERS = ("newsdemo-crawler-1", "newsdemo-crawler-2")
#: The site's pages and which are articles (its other listing pages, sitemaps and feeds
#: are for ``mainc crawl``).
KINDS = json.loads((EXAMPLE / "site_src" / "page_kinds.json").read_text(encoding="utf-8"))
ARTICLES = sorted(path for path, kind in KINDS.items() if kind["article"])
#: Every page of the site the spider reaches: the three listing pages whose section links
#: it follows, and the ten articles.
SITE_PAGES = sorted(["/index.html", "/en/index.html", "/zh/index.html", *ARTICLES])
#: A liveness guard only: a held copy is answered after this long in any case.
HOLD_LIMIT = 120.0


class SplittingServer(SiteServer):
    """The bundled site; records ``(path, user agent)`` of every request, and holds back a
    crawler's second copy of the bridge story until the other crawler has asked for one.

    With one request in flight per crawler (``CONCURRENT_REQUESTS=1``) this cannot stall:
    the held crawler holds one copy, so the third is left in the shared queue for the other.
    """

    def __init__(self) -> None:
        super().__init__(load_site())
        self.requests: list[tuple[str, str]] = []
        self._copies: Counter[str] = Counter()
        self._asked: asyncio.Condition | None = None

    async def before_answer(self, path: str, headers: Mapping[str, str]) -> None:
        crawler = headers.get("user-agent", "")
        self.requests.append((path, crawler))
        if not path.endswith(BRIDGE):
            return
        if self._asked is None:
            self._asked = asyncio.Condition()
        async with self._asked:
            self._copies[crawler] += 1
            self._asked.notify_all()
            if self._copies[crawler] > 1:
                try:
                    await asyncio.wait_for(self._asked.wait_for(lambda: len(self._copies) > 1), HOLD_LIMIT)
                except TimeoutError:
                    pass  # answer anyway; the test then fails on the split


def read_items(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def problems_in_log(path: Path) -> list[str]:
    """Log lines of errors and warnings, Python warnings included (``SomeWarning: ...``)."""
    markers = (" WARNING: ", " ERROR: ", " CRITICAL: ", "Warning: ", "Traceback")
    lines = path.read_text(encoding="utf-8").splitlines()
    return [line for line in lines if any(marker in line for marker in markers)]


@pytest.fixture(scope="module")
def shared_crawl(redis_server: str, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """Run the two crawler processes once; collect requests, items, logs and Redis keys."""
    client = redis.Redis.from_url(redis_server)
    client.flushdb()
    output = tmp_path_factory.mktemp("shared-crawl")
    server = SplittingServer()
    server.start_in_thread()
    extra = ["-s", "CONCURRENT_REQUESTS=1", "-s", "MAINC_WORKERS=1"]
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("PYTHONWARNINGS", "default")  # show deprecation warnings in the logs
        try:
            codes = run_distributed.run_crawlers(2, server.url + "/", redis_server, output, extra)
        finally:
            server.stop()
    logs = {number: output / f"crawler-{number}.log" for number in (1, 2)}
    items = {number: read_items(output / f"crawler-{number}.jsonl") for number in (1, 2)}
    keys = sorted(key.decode(errors="replace") for key in client.keys("*"))
    # Representatives of clusters: a 9-byte field each, ending in 0 for a cluster's leader.
    fields = [field for key in client.keys("mainc:dedup:rec:*") for field in client.hkeys(key)]
    leaders = sum(field[8] == 0 for field in fields)
    client.close()
    return {
        "codes": codes, "requests": server.requests, "items": items, "logs": logs,
        "keys": keys, "leaders": leaders,
    }  # fmt: skip


def test_both_processes_finish_cleanly(shared_crawl: dict[str, Any]) -> None:
    logs = shared_crawl["logs"]
    assert shared_crawl["codes"] == [0, 0], {n: log.read_text()[-3000:] for n, log in logs.items()}
    for log in logs.values():
        assert problems_in_log(log) == []
        assert "Spider closed (finished)" in log.read_text()


def test_every_page_is_crawled_exactly_once_by_the_two_processes(
    shared_crawl: dict[str, Any],
) -> None:
    requests = shared_crawl["requests"]
    assert sorted(path for path, _ in requests) == SITE_PAGES  # each page once, in all
    assert {crawler for _, crawler in requests} == set(CRAWLERS)
    urls = [item["url"].split("/", 3)[-1] for n in (1, 2) for item in shared_crawl["items"][n]]
    assert sorted(urls) == sorted(path.lstrip("/") for path in ARTICLES)


def test_copies_of_a_story_crawled_by_both_processes_share_a_cluster(
    shared_crawl: dict[str, Any],
) -> None:
    items = [(n, item) for n in (1, 2) for item in shared_crawl["items"][n]]
    bridge = [(n, item) for n, item in items if item["url"].endswith(BRIDGE)]
    assert {n for n, _ in bridge} == {1, 2}  # the copies were crawled by both processes
    (leader,) = [item for _, item in bridge if not item["duplicate_of"]]
    assert {item["cluster_id"] for _, item in bridge} == {cluster_id_for(leader["url"])}
    assert sorted(item["duplicate_of"] for _, item in bridge) == ["", leader["url"], leader["url"]]
    others = [item for _, item in items if not item["url"].endswith(BRIDGE)]
    assert all(item["duplicate_of"] == "" and item["cluster_id"] for item in others)
    other_clusters = {item["cluster_id"] for item in others}
    assert len(other_clusters) == len(others) == 7
    assert leader["cluster_id"] not in other_clusters
    assert shared_crawl["leaders"] == 8  # one index in Redis for both processes


def test_the_last_process_out_clears_the_shared_queue(shared_crawl: dict[str, Any]) -> None:
    assert [key for key in shared_crawl["keys"] if key.startswith("news:")] == []
    assert "mainc:dedup:meta" in shared_crawl["keys"]  # the index outlives the crawl


def test_the_example_script_runs_two_crawler_processes(redis_url: str, tmp_path: Path) -> None:
    command = [
        sys.executable, str(EXAMPLE / "run_distributed.py"), "--redis-url", redis_url,
        "--output-dir", str(tmp_path), "--delay", "0",
    ]  # fmt: skip
    done = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "10 articles in 8 clusters" in done.stdout
    crawled = [item for n in (1, 2) for item in read_items(tmp_path / f"crawler-{n}.jsonl")]
    assert len(crawled) == len({item["url"] for item in crawled}) == 10


@pytest.mark.slow
def test_the_example_script_puts_the_index_on_a_cluster(redis_url: str, tmp_path: Path) -> None:
    from conftest import cluster_binaries

    cluster_binaries()  # skipped, saying why, without redis-cli
    command = [
        sys.executable, str(EXAMPLE / "run_distributed.py"), "--redis-url", redis_url, "--cluster",
        "--output-dir", str(tmp_path), "--delay", "0",
    ]  # fmt: skip
    done = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "index on the cluster at redis://127.0.0.1:" in done.stdout
    assert "10 articles in 8 clusters" in done.stdout
    spread = done.stdout.rsplit("index keys per master of the cluster: ", 1)[1].strip().split(", ")
    assert len(spread) == 3 and all(int(part.rsplit(": ", 1)[1].replace(",", "")) > 0 for part in spread)
    logs = [tmp_path / f"crawler-{n}.log" for n in (1, 2)]
    assert all(problems_in_log(log) == [] for log in logs)
    assert "index in the Redis Cluster at redis://" in logs[0].read_text()
    client = redis.Redis.from_url(redis_url)
    assert client.keys("mainc:dedup*") == []  # the index went to the cluster only
    client.close()
