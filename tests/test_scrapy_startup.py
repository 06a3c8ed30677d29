"""What a crawl does when it should not, or cannot, start: real scripts and ``scrapy crawl``
run as their own processes against the bundled site on 127.0.0.1, whose server counts every
request.

- A script without the ``__main__`` guard runs again in every worker process; that copy of
  the crawl stops before its spider opens, with one line, and the workers serve the crawl
  that started them.
- A bad setting value, or a near-duplicate index that cannot be opened, stops the crawl
  before it starts: one ERROR line, exit status 1 (``scrapy crawl``, and a script that
  returns ``process.bootstrap_failed`` as the documented one does), no request, the feed
  untouched.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from collections import Counter
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest
from conftest import served_pages
from newsdemo.localredis import free_port
from newsdemo.server import SiteServer
from test_scrapy_command import scrapy

#: The pages the scripts below crawl, one request each.
PAGES = ("/en/harbour-bridge-reopens.html", "/en/river-festival.html", "/zh/shuiku-kuorong.html")
#: Worker processes of the scripts' crawls.
WORKERS = 2
#: The line a worker process logs when it stops the copy of the crawl it was made to run.
GUARD_LINE = "mainc: this crawl runs inside a scrapy_mainc worker process"


class CountingServer(SiteServer):
    """The test site; counts the requests for each path."""

    def __init__(self) -> None:
        super().__init__(served_pages())
        self.requests: Counter[str] = Counter()

    async def before_answer(self, path: str, headers: Mapping[str, str]) -> None:
        self.requests[path] += 1


@pytest.fixture
def server() -> Iterator[CountingServer]:
    counting = CountingServer().start_in_thread()
    yield counting
    counting.stop()


def run_script(source: str, directory: Path, *args: str) -> subprocess.CompletedProcess[str]:
    script = directory / "crawl.py"
    script.write_text(textwrap.dedent(source), encoding="utf-8")
    return subprocess.run(
        [sys.executable, str(script), *args],
        cwd=directory,
        capture_output=True,
        text=True,
        timeout=300,
    )


def read_jsonlines(path: Path) -> list[dict[str, Any]]:
    """Every line of ``path`` as JSON (a line that is not valid JSON fails the test)."""
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def error_lines(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if " ERROR: " in line or " CRITICAL: " in line]


#: A crawl script: the settings are given as JSON, after the site's URL; ``{entry}`` runs
#: ``main()``, with or without the ``__main__`` guard.
SCRIPT = """
    import json
    import sys

    import scrapy
    from scrapy.crawler import {process_class}

    PAGES = {pages!r}


    class Articles(scrapy.Spider):
        name = "articles"

        async def start(self):
            for page in PAGES:
                yield scrapy.Request(sys.argv[1] + page)

        def parse(self, response):
            yield {{"url": response.url}}


    def main() -> int:
        settings = {{
            "FEEDS": {{"items.jsonl": {{"format": "jsonlines", "overwrite": True}}}},
            "LOG_LEVEL": "INFO",
            "TELNETCONSOLE_ENABLED": False,
            **json.loads(sys.argv[2]),
        }}
        process = {process_class}(settings)
        process.crawl(Articles)
        process.start()
        return 1 if process.bootstrap_failed else 0


    {entry}
"""
GUARDED = 'if __name__ == "__main__":\n        sys.exit(main())'
ADDON = {"ADDONS": {"scrapy_mainc.Addon": 0}}


def run_crawl_script(
    server: SiteServer, directory: Path, process_class: str, settings: dict[str, Any], entry: str = GUARDED
) -> subprocess.CompletedProcess[str]:
    source = SCRIPT.format(process_class=process_class, pages=PAGES, entry=entry)
    return run_script(source, directory, server.url, json.dumps(settings))


# --- A script without the __main__ guard -------------------------------------------------


@pytest.mark.parametrize("process_class", ["CrawlerProcess", "AsyncCrawlerProcess"])
def test_a_script_without_the_main_guard_crawls_once(
    server: CountingServer, tmp_path: Path, process_class: str
) -> None:
    settings = {**ADDON, "MAINC_WORKERS": WORKERS}
    done = run_crawl_script(server, tmp_path, process_class, settings, entry="main()")
    assert done.returncode == 0, done.stderr[-3000:]
    # Each worker imported the script again and stopped its copy of the crawl before the
    # spider opened, saying so once; then it served the crawl that started it.
    assert dict(server.requests) == {page: 1 for page in PAGES}
    items = read_jsonlines(tmp_path / "items.jsonl")
    assert sorted(item["url"] for item in items) == sorted(server.url + page for page in PAGES)
    for item in items:
        assert len(item["main_text"]) > 200 and item["mainc"]["reason"] == "", item["mainc"]
    lines = [line for line in error_lines(done.stderr) if GUARD_LINE in line]
    assert len(lines) == WORKERS, done.stderr[-3000:]
    assert '`if __name__ == "__main__":`' in lines[0]
    if process_class == "AsyncCrawlerProcess":  # CrawlerProcess: Twisted reports the Deferred
        assert "Traceback" not in done.stderr


# --- Crawls that cannot start: one line, a non-zero exit, nothing fetched or written -------

MANUAL = {
    "DOWNLOADER_MIDDLEWARES": {"scrapy_mainc.MaincDownloaderMiddleware": 585},
    "SPIDER_MIDDLEWARES": {"scrapy_mainc.MaincSpiderMiddleware": 10},
    "ITEM_PIPELINES": {"scrapy_mainc.MaincPipeline": 100},
}
BAD_VALUES = {
    "MAINC_WORKER_MODE": (
        "threads",
        "MAINC_WORKER_MODE must be one of process, thread, inline; got 'threads'",
    ),
    "MAINC_TIMEOUT": ("abc", "MAINC_TIMEOUT must be a positive number; got 'abc'"),
    "MAINC_PAGE_TYPES": (
        "article,blog",
        "MAINC_PAGE_TYPES: 'blog' is not a page type; valid: article, forum, listing, collection, "
        "product, documentation, service",
    ),
}


def scrapy_crawl(server: SiteServer, feed: Path, *options: str) -> subprocess.CompletedProcess[str]:
    """``scrapy crawl news`` in the example project, over ``server``, exporting to ``feed``."""
    return scrapy("crawl", "news", "-a", f"start_url={server.url}/", "-O", str(feed), *options)


def assert_stopped_in_one_line(done: subprocess.CompletedProcess[str], message: str) -> None:
    """Exit status 1, one ERROR line (``message``) and, with asyncio, no traceback."""
    assert done.returncode == 1, done.stderr[-3000:]
    (line,) = error_lines(done.stderr)
    assert f"ERROR: mainc: {message}" in line, line
    assert "Traceback" not in done.stderr, done.stderr[-3000:]


@pytest.mark.parametrize("name", sorted(BAD_VALUES))
def test_scrapy_crawl_with_a_bad_value_exits_1_with_one_line(
    server: CountingServer, tmp_path: Path, name: str
) -> None:
    value, message = BAD_VALUES[name]
    feed = tmp_path / "items.jsonl"
    feed.write_text("yesterday's items\n", encoding="utf-8")
    done = scrapy_crawl(server, feed, "-s", f"{name}={value}")
    assert_stopped_in_one_line(done, message)
    assert not server.requests and feed.read_text(encoding="utf-8") == "yesterday's items\n"


@pytest.mark.parametrize("setup", ["add-on", "manual"])
@pytest.mark.parametrize("process_class", ["CrawlerProcess", "AsyncCrawlerProcess"])
def test_a_script_with_a_bad_value_exits_1_with_one_line(
    server: CountingServer, tmp_path: Path, process_class: str, setup: str
) -> None:
    value, message = BAD_VALUES["MAINC_WORKER_MODE"]
    settings = {**(ADDON if setup == "add-on" else MANUAL), "MAINC_WORKER_MODE": value}
    done = run_crawl_script(server, tmp_path, process_class, settings)
    assert not server.requests and not (tmp_path / "items.jsonl").exists()
    if process_class == "AsyncCrawlerProcess":
        assert_stopped_in_one_line(done, message)
    else:  # Twisted reports the crawl's failed Deferred after the line
        assert done.returncode == 1, done.stderr[-3000:]
        assert f"ERROR: mainc: {message}" in error_lines(done.stderr)[0]


# --- A shared index that cannot be opened -------------------------------------------------


def closed_redis_url() -> str:
    """A Redis URL on a loopback port nothing listens on."""
    pytest.importorskip("redis", reason="redis-py is not installed (scrapy-mainc[test])")
    return f"redis://127.0.0.1:{free_port()}/0"


def test_scrapy_crawl_without_its_redis_exits_1_with_one_line(server: CountingServer, tmp_path: Path) -> None:
    url = closed_redis_url()
    feed = tmp_path / "items.jsonl"
    feed.write_text("yesterday's items\n", encoding="utf-8")
    done = scrapy_crawl(server, feed, "-s", "MAINC_DEDUP_ENABLED=True", "-s", f"MAINC_DEDUP_REDIS_URL={url}")
    assert done.returncode == 1, done.stderr[-3000:]
    (line,) = error_lines(done.stderr)
    assert f"ERROR: mainc dedup: cannot open the index at {url}: ConnectionError" in line
    assert "MAINC_DEDUP_REDIS_REQUIRED = False" in line
    assert "Traceback" not in done.stderr
    assert not server.requests and feed.read_text(encoding="utf-8") == "yesterday's items\n"


def test_a_script_without_its_redis_exits_1(server: CountingServer, tmp_path: Path) -> None:
    settings = {**ADDON, "MAINC_DEDUP_ENABLED": True, "MAINC_DEDUP_REDIS_URL": closed_redis_url()}
    done = run_crawl_script(server, tmp_path, "AsyncCrawlerProcess", settings)
    assert done.returncode == 1, done.stderr[-3000:]
    (line,) = error_lines(done.stderr)
    assert "ERROR: mainc dedup: cannot open the index at redis://127.0.0.1:" in line
    assert "Traceback" not in done.stderr
    assert not server.requests and not (tmp_path / "items.jsonl").exists()
