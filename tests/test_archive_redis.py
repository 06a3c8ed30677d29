"""Archive mode with a Redis index that is not there or stops answering: as in a crawl, an
index that cannot be opened stops the run in one line (or, when not required, leaves an
index in memory, said at WARNING), and one that stops answering lets the items through
unclustered without waiting for it item after item, said once at WARNING."""

from __future__ import annotations

import json
import logging
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from newsdemo.localredis import LocalRedis, free_port
from warcs import write_warc

from scrapy_mainc.archive import FileSummary, OfflineConfig, items_from_files

pytest.importorskip("redis", reason="redis-py is not installed (scrapy-mainc[test])")

SITE = Path(__file__).resolve().parent.parent / "example_project" / "site" / "en"
#: Articles of the bundled site, long enough to cluster.
PAGES = [
    SITE / name for name in ("harbour-bridge-reopens.html", "river-festival.html", "school-gardens.html")
]


def site_warc(path: Path, count: int) -> Path:
    records = [
        ("response", f"http://redis.test/{n}.html", PAGES[n % len(PAGES)].read_bytes(), {})
        for n in range(count)
    ]
    return write_warc(path, records)


def _warc(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "scrapy_mainc", "warc", *args, "-s", "MAINC_WORKER_MODE=inline"],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=cwd,
    )


def test_an_unreachable_redis_stops_mainc_warc_in_one_line(tmp_path: Path) -> None:
    warc = site_warc(tmp_path / "site.warc.gz", 2)
    url = f"redis://127.0.0.1:{free_port()}"
    done = _warc(str(warc), "--redis", url, cwd=tmp_path)
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    assert done.stderr.startswith(f"mainc warc: error: cannot open the index at {url}: ConnectionError")
    assert "MAINC_DEDUP_REDIS_REQUIRED = False" in done.stderr and not (tmp_path / "items.jsonl").exists()
    # not required: the crawl's fallback, an index in this process's memory, said
    done = _warc(str(warc), "--redis", url, "-s", "MAINC_DEDUP_REDIS_REQUIRED=False", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert f"cannot reach the index at {url}" in done.stderr and "in this process's memory" in done.stderr
    items = [json.loads(line) for line in (tmp_path / "items.jsonl").read_text().splitlines()]
    assert len(items) == 2 and all(item["cluster_id"] for item in items)


def test_a_dask_job_refuses_an_unreachable_redis_before_it_starts() -> None:
    from scrapy_mainc.archive._job import JobError, check_job

    url = f"redis://127.0.0.1:{free_port()}"
    config = OfflineConfig.from_settings(
        {"MAINC_DEDUP_ENABLED": True, "MAINC_DEDUP_REDIS_URL": url, "MAINC_DEDUP_REDIS_REQUIRED": False}
    )
    with pytest.raises(JobError, match=f"cannot open the index at {url}: ConnectionError") as error:
        check_job(config)
    assert "REQUIRED" not in str(error.value)  # a job's tasks never fall back to memory


def test_a_frozen_redis_lets_the_items_through_without_waiting_for_each(
    tmp_path: Path, own_redis: LocalRedis, caplog: pytest.LogCaptureFixture
) -> None:
    warc = site_warc(tmp_path / "site.warc.gz", 24)
    settings = {
        "MAINC_WORKER_MODE": "inline",
        "MAINC_DEDUP_ENABLED": True,
        "MAINC_DEDUP_REDIS_URL": own_redis.url,
        "MAINC_DEDUP_REDIS_TIMEOUT": 0.5,
    }
    summary = FileSummary(str(warc))
    items: list[dict[str, Any]] = []
    with caplog.at_level(logging.WARNING):
        for item in items_from_files([warc], settings, summary):
            items.append(item)
            if len(items) == 4:
                os.kill(own_redis.process.pid, signal.SIGSTOP)
                frozen = time.perf_counter()
    ended = time.perf_counter()
    assert len(items) == 24 and all(item["cluster_id"] for item in items[:4])
    elapsed = ended - frozen
    unclustered = [item for item in items if not item["cluster_id"]]
    assert len(unclustered) >= 16 and summary.stats["mainc/dedup/errors"] == len(unclustered)
    assert summary.errors["index error"] == len(unclustered)
    # the items after the first failure did not each wait for the frozen server: after a
    # timeout (0.5 s) the index is tried again once a pause as long has passed, so the
    # waits are about one plus the time spent extracting, not waiting, over 0.5 s (2 on
    # an idle machine; a loaded one extracts slower, which allows one or two more)
    waited = [problem for problem in summary.problems if "Timeout" in problem.reason]
    working = elapsed - 0.5 * len(waited)
    assert 1 <= len(waited) <= 2 + working / 0.5, ([problem.reason for problem in summary.problems], elapsed)
    assert len(waited) < len(unclustered)
    warnings = [record.getMessage() for record in caplog.records if "mainc dedup" in record.getMessage()]
    assert len(warnings) == 1 and warnings[0].startswith(f"mainc dedup: the index at {own_redis.url} failed")
