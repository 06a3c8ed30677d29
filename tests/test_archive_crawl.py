"""Archive mode against the crawl: ``mainc warc`` and the Dask job make, from a WARC of the
bundled site, the items and clusters that ``mainc crawl`` makes crawling it.

The site is served on loopback with a fixed ``Date`` header, crawled from its sitemap with
clustering on, and archived as a crawler archives it (a request and a response record per
URL, the WARC-Date the moment of the Date header), with robots.txt and the sitemap (no
pages) and the bad-input pages of the Scrapy tests (a wrong charset, an undeclared GBK
page, an empty page) crawled from a list. Items are compared field by field but the
extraction time; clusters as the groups of URLs they make (which page of a group came
first, and so leads it, depends on the order pages were extracted in).
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import served_pages
from newsdemo.server import SiteServer
from warcs import HTTP_DATE, archive_urls

from scrapy_mainc.core._pagetype import PAGE_TYPES

#: The bad-input pages that are HTML, crawled from a list of URLs.
BAD_PAGES = ("/bad/wrong-charset.html", "/bad/short-gbk.html", "/bad/empty.html")
FAST = ["-s", "MAINC_WORKER_MODE=inline"]


@pytest.fixture(scope="module")
def dated_server() -> Iterator[SiteServer]:
    server = SiteServer(served_pages(), date=HTTP_DATE).start_in_thread()
    yield server
    server.stop()


def run_mainc(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "scrapy_mainc", *args], capture_output=True, text=True, cwd=cwd, timeout=300
    )


def jsonl(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def part_items(parts: Path) -> list[dict[str, Any]]:
    return [item for part in sorted(parts.glob("*.jsonl")) for item in jsonl(part)]


def comparable(items: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Items by URL, without the extraction time and the cluster ids (see the docstring)."""
    found = {}
    for item in items:
        item = dict(item)
        item["mainc"] = {key: value for key, value in item["mainc"].items() if key != "milliseconds"}
        item.pop("cluster_id", None)
        item.pop("duplicate_of", None)
        found[item["url"]] = item
    return found


def clusters(items: list[dict[str, Any]]) -> set[frozenset[str]]:
    """The groups of URLs the items' clusters make; each led by one of its items."""
    groups: dict[str, set[str]] = {}
    for item in items:
        if item["cluster_id"]:
            groups.setdefault(item["cluster_id"], set()).add(item["url"])
    for members in groups.values():
        leaders = {item["duplicate_of"] or item["url"] for item in items if item["url"] in members}
        assert len(leaders) == 1 and leaders <= members
    return {frozenset(members) for members in groups.values()}


@pytest.fixture(scope="module")
def crawled(dated_server: SiteServer, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The crawl's items, and the WARC files of the same pages."""
    work = tmp_path_factory.mktemp("crawl")
    listing = work / "bad.txt"
    listing.write_text("\n".join(dated_server.url + path for path in BAD_PAGES), encoding="utf-8")
    sitemap = f"{dated_server.url}/sitemap.xml"
    done = run_mainc(
        "crawl", sitemap, str(listing), "--dedup", "-o", "crawl.jsonl", *FAST, *STATS_DUMP, cwd=work
    )
    assert done.returncode == 0, done.stderr
    items = jsonl(work / "crawl.jsonl")
    urls = sorted(item["url"] for item in items)
    pages = [url for url in urls if "/zh/" not in url]
    chinese = [url for url in urls if "/zh/" in url]
    extra = [f"{dated_server.url}/robots.txt", sitemap, f"{dated_server.url}/bad/binary.pdf"]
    warcs = [
        archive_urls(pages + extra, work / "site-1.warc.gz"),
        archive_urls(chinese, work / "site-2.warc", gzip=False),
    ]
    return {"items": items, "warcs": warcs, "work": work, "stats": dumped_stats(done.stderr)}


#: Scrapy's closing dump of the crawl's stats, in the log (standard error).
STATS_DUMP = ("-s", "LOG_LEVEL=INFO", "-s", "STATS_DUMP=True")


def dumped_stats(log: str) -> dict[str, float]:
    """The ``mainc/*`` stats of the dump in ``log`` (a dict written by pprint)."""
    dump = log.partition("Dumping Scrapy stats:")[2]
    assert dump, "no stats dump in the crawl's log"
    return {key: float(value) for key, value in re.findall(r"'(mainc/[^']+)': ([0-9.]+)", dump)}


def comparable_stats(stats: dict[str, float]) -> dict[str, float]:
    """``mainc/*`` stats but the extraction time (its key is kept, with no value)."""
    return {key: (0.0 if key == "mainc/ms/total" else value) for key, value in stats.items()}


#: The stats the per-page runner counts for every extracted page, crawl or archive.
RUNNER_STATS = ("mainc/algorithm/", "mainc/ms/total", "mainc/metadata/", "mainc/page_type/")


def test_mainc_warc_makes_the_crawls_items_and_clusters(crawled: dict[str, Any]) -> None:
    work = crawled["work"]
    warcs = [str(path) for path in crawled["warcs"]]
    done = run_mainc("warc", *warcs, "--dedup", "-o", "warc.jsonl", *FAST, cwd=work)
    assert done.returncode == 0, done.stderr
    items = jsonl(work / "warc.jsonl")
    expected = crawled["items"]
    assert len(items) == len(expected) > 15
    assert comparable(items) == comparable(expected)  # the page type too, with no code of its own
    types = {item["page_type"] for item in items}
    assert {"article", "listing", None} <= types <= {*PAGE_TYPES, None}  # None: the empty page
    counts = Counter(item["page_type"] for item in items)
    listed = ", ".join(f"{kind}: {counts[kind]}" for kind in PAGE_TYPES if counts[kind])
    assert f"  page types: {listed}\n" in done.stderr
    assert clusters(items) == clusters(expected)
    assert any(len(group) > 1 for group in clusters(items))  # the wire copies of a story
    assert "not pages: " in done.stderr and "problems: 0" in done.stderr
    founders = sum(bool(item["cluster_id"]) and not item["duplicate_of"] for item in items)
    copies = sum(bool(item["duplicate_of"]) for item in items)
    short = sum(not item["cluster_id"] for item in items)
    counts = f"{founders} new clusters, {copies} duplicates, 0 re-crawls, {short} too short to cluster"
    assert f"  near-duplicates: {counts}\n" in done.stderr  # the summary says the clusters


def test_the_archive_counts_the_crawls_stats_of_the_same_pages(crawled: dict[str, Any]) -> None:
    """The per-page runner and the cluster step count the same ``mainc/*`` stats, with the
    same values, whether the pages come from a crawl or from WARC records."""
    from scrapy_mainc.archive import FileSummary, items_from_files

    summary = FileSummary("run")
    settings = {"MAINC_DEDUP_ENABLED": True, "MAINC_WORKER_MODE": "inline"}
    items = list(items_from_files(crawled["warcs"], settings, summary))
    assert len(items) == len(crawled["items"])
    archived = {key: float(value) for key, value in summary.stats.items()}
    crawl = crawled["stats"]
    for prefix in RUNNER_STATS:
        assert any(key.startswith(prefix) for key in crawl), prefix
    assert comparable_stats(archived) == comparable_stats(crawl)
    assert archived["mainc/ms/total"] > 0


def test_the_dask_job_makes_the_crawls_items_and_clusters(crawled: dict[str, Any], redis_url: str) -> None:
    from dask.distributed import Client, LocalCluster

    from scrapy_mainc.archive import OfflineConfig, run_job

    parts = crawled["work"] / "parts"
    config = OfflineConfig.from_settings({"MAINC_DEDUP_REDIS_URL": redis_url, "MAINC_DEDUP_ENABLED": True})
    with (
        LocalCluster(n_workers=2, threads_per_worker=1, processes=False, dashboard_address=":0") as cluster,
        Client(cluster) as client,
    ):
        summary = run_job(client, crawled["warcs"], parts, config)
        items = part_items(parts)
        expected = crawled["items"]
        assert comparable(items) == comparable(expected)
        assert clusters(items) == clusters(expected)
        assert summary.files == 2 and summary.items == len(expected) and summary.errors == {}
        assert summary.records["request"] == summary.records["response"] == len(expected) + 3
        assert summary.skipped["not HTML"] == 3
        assert len(summary.workers) >= 1 and all(worker.seconds > 0 for worker in summary.workers)
        job_summary = json.loads((parts / "_job.json").read_text())
        assert job_summary["items"] == len(expected)
        # the crawl's mainc/* stats of the runner by the same keys (the shared index of the
        # Redis tests may hold pages already: the clustering's counts are the first test's)
        assert _runner_keys(job_summary["stats"]) == _runner_keys(crawled["stats"])
        assert all(any(key.startswith(prefix) for key in job_summary["stats"]) for prefix in RUNNER_STATS)
        index_before = _index_size(redis_url)
        # again over the same files: the parts are done, nothing is read again
        again = run_job(client, crawled["warcs"], parts, config)
        assert again.resumed == 2 and again.items == summary.items
        # a new job over the same files and index: the same clusters, nothing added
        rerun = run_job(client, crawled["warcs"], crawled["work"] / "parts-again", config)
        items_again = [
            item for part in sorted((crawled["work"] / "parts-again").glob("*.jsonl")) for item in jsonl(part)
        ]
    assert {(item["url"], item["cluster_id"], item["duplicate_of"]) for item in items_again} == {
        (item["url"], item["cluster_id"], item["duplicate_of"]) for item in items
    }
    assert rerun.stats["mainc/dedup/unique"] == 0 and rerun.stats["mainc/dedup/recrawled"] > 0
    assert _index_size(redis_url) == index_before


def _runner_keys(stats: dict[str, Any]) -> set[str]:
    return {key for key in stats if not key.startswith("mainc/dedup/")}


def _index_size(redis_url: str) -> tuple[int, int]:
    """Keys of the index, and fields of its hashes (records and bucket entries)."""
    import redis

    client = redis.Redis.from_url(redis_url)
    try:
        keys = [key for key in client.scan_iter("mainc:dedup:*") if not key.endswith(b"epoch")]
        return len(keys), sum(client.hlen(key) for key in keys if client.type(key) == b"hash")
    finally:
        client.close()


KILLED_JOB = """
import sys
from pathlib import Path
from dask.distributed import Client, LocalCluster
from scrapy_mainc.core._pagetype import PAGE_TYPES
from scrapy_mainc.archive import OfflineConfig, run_job

files, parts, redis_url = [Path(name) for name in sys.argv[3:]], Path(sys.argv[1]), sys.argv[2]
config = OfflineConfig.from_settings({"MAINC_DEDUP_REDIS_URL": redis_url, "MAINC_DEDUP_ENABLED": True})
with LocalCluster(n_workers=1, threads_per_worker=1, processes=False, dashboard_address=":0") as cluster:
    with Client(cluster) as client:
        run_job(client, files, parts, config)
"""


def test_a_killed_job_started_again_loses_and_doubles_nothing(
    crawled: dict[str, Any], redis_url: str, tmp_path: Path
) -> None:
    from dask.distributed import Client, LocalCluster

    from scrapy_mainc.archive import OfflineConfig, run_job

    sources = [tmp_path / f"copy-{number}.warc.gz" for number in range(6)]
    for source in sources:
        source.write_bytes(crawled["warcs"][0].read_bytes())
    parts = tmp_path / "parts"
    job = subprocess.Popen(
        [sys.executable, "-c", KILLED_JOB, str(parts), redis_url, *map(str, sources)],
        start_new_session=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 120
    while not list(parts.glob("*.summary.json")) and time.monotonic() < deadline and job.poll() is None:
        time.sleep(0.05)
    os.killpg(job.pid, signal.SIGKILL)
    job.wait(30)
    finished = len(list(parts.glob("*.summary.json")))
    assert 1 <= finished < len(sources)  # killed half way
    config = OfflineConfig.from_settings({"MAINC_DEDUP_REDIS_URL": redis_url, "MAINC_DEDUP_ENABLED": True})
    with (
        LocalCluster(n_workers=2, threads_per_worker=1, processes=False, dashboard_address=":0") as cluster,
        Client(cluster) as client,
    ):
        summary = run_job(client, sources, parts, config)
    assert summary.resumed == finished and summary.files == len(sources)
    per_file = sum("/zh/" not in item["url"] for item in crawled["items"])  # the others: the other file
    parts_written = sorted(parts.glob("*.jsonl"))
    assert len(parts_written) == len(sources) and not list(parts.glob("*.tmp"))
    for part in parts_written:
        items = jsonl(part)
        assert len(items) == len({item["url"] for item in items}) == per_file
    assert summary.items == per_file * len(sources)


def test_the_archive_clusters_in_a_redis_cluster(crawled: dict[str, Any], redis_cluster: Any) -> None:
    """Many processes share one index on a Redis Cluster: the same clusters as the crawl's."""
    work = crawled["work"]
    warcs = [str(path) for path in crawled["warcs"]]
    prefix = "-s", "MAINC_DEDUP_REDIS_KEY=archive:test"
    cluster = "-s", "MAINC_DEDUP_REDIS_CLUSTER=True"
    done = run_mainc(
        "warc",
        *warcs,
        "--redis",
        redis_cluster.url,
        *prefix,
        *cluster,
        "-o",
        "cluster.jsonl",
        *FAST,
        cwd=work,
    )
    assert done.returncode == 0, done.stderr
    items = jsonl(work / "cluster.jsonl")
    assert clusters(items) == clusters(crawled["items"])


def test_ctrl_c_stops_a_dask_job_in_one_line_and_the_same_command_resumes(
    crawled: dict[str, Any], tmp_path: Path
) -> None:
    """Ctrl+C reaches every process of the terminal's job (here: a SIGINT to the process
    group): one line says what is done, exit status 130, no process is left, and the same
    command again does the rest (the parts folder given with a trailing slash, as a shell's
    completion writes it)."""
    sources, parts = copies(crawled, tmp_path / "sources", 8), tmp_path / "parts"
    command = [*MAINC, "warc", str(sources), "--parts", f"{parts}/", "--dask-workers", "1"]
    with socket.socket() as other_job:  # Dask's usual port taken: no warning of it either
        other_job.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        with contextlib.suppress(OSError):  # taken already
            other_job.bind(("127.0.0.1", DASK_PORT))
            other_job.listen()
        status, stderr = interrupted(command, lambda: bool(list(parts.glob("*.summary.json"))))
    finished = len(list(parts.glob("*.summary.json")))
    assert status == 130 and 1 <= finished < 8, stderr
    said = [line for line in stderr.splitlines() if not re.match(r"mainc warc: \d+/8 files: ", line)]
    assert said == [
        f"mainc warc: interrupted: {finished} of 8 files done; the same command again resumes with the others"
    ]
    again = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert again.returncode == 0, again.stderr
    assert f"({finished} done by an earlier run, skipped)" in again.stderr
    per_file = sum("/zh/" not in item["url"] for item in crawled["items"])
    assert f"  items written: {per_file * 8} to {parts}/\n" in again.stderr
    assert all(len(jsonl(part)) == per_file for part in parts.glob("*.jsonl"))


def test_ctrl_c_stops_mainc_warc_in_one_process_in_one_line(crawled: dict[str, Any], tmp_path: Path) -> None:
    out = tmp_path / "items.jsonl"
    sources = copies(crawled, tmp_path / "sources", 8)
    command = [*MAINC, "warc", str(sources), "-o", str(out), "-s", "MAINC_WORKERS=2"]
    status, stderr = interrupted(command, lambda: out.exists() and out.stat().st_size > 0)
    assert status == 130, stderr
    said = [line for line in stderr.splitlines() if " s: " not in line]  # not the progress lines
    assert said == [f"mainc warc: interrupted: the items read so far are in {out}"]
    assert all(json.loads(line)["url"] for line in out.read_text(encoding="utf-8").splitlines())


#: ``python -m scrapy_mainc`` as a terminal starts it, Ctrl+C heard: a test run started in
#: the background (``.ci/run &``) passes SIGINT on ignored, and Python keeps it ignored.
MAINC = [
    sys.executable,
    "-c",
    "import runpy, signal; signal.signal(signal.SIGINT, signal.default_int_handler); "
    "runpy.run_module('scrapy_mainc', run_name='__main__', alter_sys=True)",
]
#: The port a Dask scheduler's HTTP server takes by default.
DASK_PORT = 8787


def copies(crawled: dict[str, Any], folder: Path, count: int) -> Path:
    """``folder`` with ``count`` copies of the first WARC of the crawl."""
    folder.mkdir()
    for number in range(count):
        (folder / f"copy-{number}.warc.gz").write_bytes(crawled["warcs"][0].read_bytes())
    return folder


def interrupted(command: list[str], started: Callable[[], bool]) -> tuple[int, str]:
    """Run ``command`` in a process group of its own, press Ctrl+C (SIGINT to the group)
    once ``started()``, and return its exit status and standard error, once every process
    of the group is gone (a dead one may wait a moment to be reaped)."""
    job = subprocess.Popen(command, start_new_session=True, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 120
    while not started() and time.monotonic() < deadline and job.poll() is None:
        time.sleep(0.05)
    os.killpg(job.pid, signal.SIGINT)
    _, stderr = job.communicate(timeout=60)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            os.killpg(job.pid, 0)
        except ProcessLookupError:
            return job.returncode, stderr
        time.sleep(0.1)
    raise AssertionError(f"processes of {command} left behind; {stderr}")
