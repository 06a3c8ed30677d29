"""Fixtures for the Scrapy tests: the bundled site on loopback, a Redis server, real crawls.

A ``redis-server`` for the Redis tests is started on a free loopback port once per session
(:func:`redis_server`), and a Redis Cluster of three masters with a replica each for the
cluster tests (:func:`redis_cluster`); without the binaries (Debian package
``redis-server``, which the CI installs) those tests are skipped and say so.

Crawls run in a subprocess (a Twisted reactor runs once per process, and other tests must
not inherit it): :func:`run_crawls` writes a list of scenarios to a JSON file, a fresh
interpreter runs them one after the other with ``CrawlerRunner`` on one reactor
(:func:`crawl_main`), and the items, stats, error logs and warnings come back as JSON.
"""

from __future__ import annotations

import json
import logging
import os
import signal
import subprocess
import sys
import warnings
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

TESTS = Path(__file__).resolve().parent
EXAMPLE = TESTS.parent / "example_project"
if str(EXAMPLE) not in sys.path:
    sys.path.insert(0, str(EXAMPLE))

from newsdemo.localcluster import LocalCluster, find_redis_cli, start_redis_cluster  # noqa: E402
from newsdemo.localredis import LocalRedis, find_redis_server, start_redis_server  # noqa: E402
from newsdemo.server import Page, SiteServer, load_site  # noqa: E402

#: A short undeclared GBK page that Scrapy's own charset detection gets wrong (cp949).
SHORT_GBK_TEXT = "明前茶是真的好喝，就是价格有点贵。春茶开采 茶农盼个好价钱。"
#: A UTF-8 page that declares iso-8859-1 starts with this text.
WRONG_CHARSET_TEXT = "服务器声明的字符集是错的，这段文字其实是 UTF-8 编码。"
#: Text of the site's undeclared GBK article, as the tests expect to read it.
GBK_HEADLINE = "春茶开采 茶农盼个好价钱"
GBK_SENTENCE = "清晨六点，西岭茶区的山坡上已经有不少茶农在忙着采摘。"


def short_gbk_page() -> bytes:
    """The short undeclared GBK page (see SHORT_GBK_TEXT)."""
    return f"<html><head><title>x</title></head><body><p>{SHORT_GBK_TEXT}</p></body></html>".encode("gbk")


def big_page(megabytes: float) -> bytes:
    """A valid article page of about ``megabytes`` MB (slow to extract on purpose)."""
    block = "<div class='c'><p>" + "Words of a long page, with commas, and periods. " * 20
    block += "</p><a href='/x'>link</a></div>"
    count = int(megabytes * 1_000_000 / len(block)) + 1
    return ("<html><body>" + block * count + "</body></html>").encode()


def served_pages() -> dict[str, Page]:
    """The example site plus pages for bad input, under ``/bad/`` and ``/slow/``."""
    html = "text/html"
    pages = load_site()
    pages.update(
        {
            "/bad/binary.pdf": (b"%PDF-1.7\n" + bytes(range(256)) * 40, "application/pdf"),
            "/bad/empty.html": (b"", html),
            "/bad/data.json": (b'{"headline": "not a page", "n": [1, 2]}', "application/json"),
            "/bad/huge.html": (big_page(10.5), html),
            "/bad/deep.html": (
                ("<html><body>" + "<div>" * 100_000 + "deep text" + "</div>" * 100_000).encode(),
                html,
            ),
            "/bad/wrong-charset.html": (
                f'<html><head><meta charset="iso-8859-1"></head><body><p>{WRONG_CHARSET_TEXT * 3}'
                "</p></body></html>".encode(),
                html,
            ),
            "/bad/short-gbk.html": (short_gbk_page(), html),
            "/slow/big.html": (big_page(7), html),
        }
    )
    return pages


@pytest.fixture(scope="session")
def site_server() -> Iterator[SiteServer]:
    """The example site and the bad-input pages, served on 127.0.0.1 from a thread."""
    server = SiteServer(served_pages()).start_in_thread()
    yield server
    server.stop()


@pytest.fixture(scope="session")
def redis_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """URL of a fresh redis-server on loopback, stopped at the end of the session."""
    pytest.importorskip("redis", reason="redis-py is not installed (scrapy-mainc[test])")
    binary = find_redis_server()
    if binary is None:
        pytest.skip(
            "no redis-server binary found: install Debian's redis-server package (or put "
            "redis-server on the PATH) to run the Redis tests"
        )
    try:
        server = start_redis_server(binary, tmp_path_factory.mktemp("redis"))
    except RuntimeError as exc:
        pytest.fail(str(exc))
    yield server.url
    server.stop()


@pytest.fixture
def own_redis(tmp_path: Path) -> Iterator[LocalRedis]:
    """A redis-server of this test alone, which it may stop (SIGSTOP) or kill.

    Afterwards the server is resumed (SIGCONT) if it was stopped, then shut down.
    """
    pytest.importorskip("redis", reason="redis-py is not installed (scrapy-mainc[test])")
    binary = find_redis_server()
    if binary is None:
        pytest.skip("no redis-server binary found: install Debian's redis-server package")
    try:
        server = start_redis_server(binary, tmp_path / "redis")
    except RuntimeError as exc:
        pytest.fail(str(exc))
    try:
        yield server
    finally:
        if server.process.poll() is None:
            os.kill(server.process.pid, signal.SIGCONT)
        server.stop()


def cluster_binaries() -> tuple[str, str]:
    """``redis-server`` and ``redis-cli``, or the test is skipped and says which is missing."""
    pytest.importorskip("redis", reason="redis-py is not installed (scrapy-mainc[test])")
    server, cli = find_redis_server(), find_redis_cli()
    if server is None or cli is None:
        missing = "redis-server" if server is None else "redis-cli"
        pytest.skip(
            f"no {missing} binary found: install Debian's redis-server package (it brings "
            "redis-cli) to run the Redis Cluster tests"
        )
    return server, cli


def start_cluster(directory: Path) -> LocalCluster:
    """Three masters with a replica each on free loopback ports, nothing kept on disk."""
    server, cli = cluster_binaries()
    try:
        return start_redis_cluster(server, cli, directory)
    except RuntimeError as exc:
        pytest.fail(str(exc))


@pytest.fixture(scope="session")
def redis_cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalCluster]:
    """A Redis Cluster for the session (``newsdemo.localcluster``), stopped at its end."""
    cluster = start_cluster(tmp_path_factory.mktemp("cluster"))
    yield cluster
    cluster.stop()


@pytest.fixture
def redis_url(redis_server: str) -> Iterator[str]:
    """The server's URL, with an empty database for each test."""
    import redis

    client = redis.Redis.from_url(redis_server)
    client.flushdb()
    client.close()
    yield redis_server


@dataclass
class CrawlResult:
    """What a crawl in the subprocess produced."""

    items: list[dict[str, Any]]
    stats: dict[str, Any]
    errors: list[str]
    children_after: int
    spider_output: list[dict[str, Any]] = field(default_factory=list)
    #: Messages logged at WARNING (not ERROR: those are in ``errors``).
    warnings_logged: list[str] = field(default_factory=list)
    #: Messages scrapy_mainc's own loggers logged at INFO.
    info_logged: list[str] = field(default_factory=list)
    #: ``Type: message`` of the error that kept the crawl from starting; "" if it started.
    start_error: str = ""


def run_crawls(
    scenarios: list[dict[str, Any]], tmp_path: Path, reactor: str = "asyncio", timeout: float = 600
) -> tuple[dict[str, CrawlResult], list[str]]:
    """Run ``scenarios`` (name, spider "module:Class", settings, args) in one subprocess.

    Returns the results by scenario name and every warning raised during the crawls. The
    subprocess is killed, and the test fails, after ``timeout`` seconds.
    """
    spec = tmp_path / "crawls.json"
    out = tmp_path / "results.json"
    spec.write_text(json.dumps({"scenarios": scenarios, "reactor": reactor}), encoding="utf-8")
    code = "import sys, conftest; conftest.crawl_main(sys.argv[1], sys.argv[2])"
    try:
        process = subprocess.run(
            [sys.executable, "-c", code, str(spec), str(out)],
            cwd=TESTS,
            capture_output=True,
            text=True,
            timeout=timeout,
        )
    except subprocess.TimeoutExpired as exc:
        stderr = exc.stderr.decode(errors="replace") if isinstance(exc.stderr, bytes) else exc.stderr
        pytest.fail(f"crawl subprocess still running after {timeout:g} s:\n{(stderr or '')[-6000:]}")
    if process.returncode != 0 or not out.exists():
        pytest.fail(f"crawl subprocess failed ({process.returncode}):\n{process.stderr[-6000:]}")
    data = json.loads(out.read_text(encoding="utf-8"))
    results = {name: CrawlResult(**result) for name, result in data["results"].items()}
    return results, data["warnings"]


# --- The subprocess side --------------------------------------------------------------

REACTORS = {
    "asyncio": "twisted.internet.asyncioreactor.AsyncioSelectorReactor",
    "select": "twisted.internet.selectreactor.SelectReactor",
}


class _ErrorLog(logging.Handler):
    """Collects ERROR (and worse) messages, apart from them WARNING messages, and the INFO
    messages of scrapy_mainc's loggers."""

    def __init__(self) -> None:
        super().__init__(logging.INFO)
        self.messages: list[str] = []
        self.warnings: list[str] = []
        self.infos: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        if record.levelno < logging.WARNING:
            if record.name.startswith("scrapy_mainc"):
                self.infos.append(record.getMessage())
            return
        message = record.getMessage()
        if record.exc_info and record.exc_info[1] is not None:
            message += f" | {type(record.exc_info[1]).__name__}: {record.exc_info[1]}"
        (self.messages if record.levelno >= logging.ERROR else self.warnings).append(message)


def crawl_main(spec_path: str, out_path: str) -> None:
    """Subprocess entry point: run the scenarios of ``spec_path``, write ``out_path``."""
    spec = json.loads(Path(spec_path).read_text(encoding="utf-8"))
    sys.path[:0] = [str(TESTS), str(EXAMPLE)]
    from scrapy.utils.reactor import install_reactor

    install_reactor(REACTORS[spec["reactor"]])
    from twisted.internet import defer, reactor

    results: dict[str, Any] = {}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        failures: list[Any] = []

        def start() -> None:  # once the reactor runs: an early failure must be able to stop it
            finished = defer.Deferred.fromCoroutine(_run_all(spec, results))
            finished.addErrback(failures.append)
            finished.addBoth(lambda _: reactor.stop())

        reactor.callWhenRunning(start)
        reactor.run()
    if failures:
        failures[0].raiseException()
    found = [f"{w.category.__name__}: {w.message} ({w.filename}:{w.lineno})" for w in caught]
    Path(out_path).write_text(
        json.dumps({"results": results, "warnings": found}, default=str, ensure_ascii=False),
        encoding="utf-8",
    )


async def _run_all(spec: dict[str, Any], results: dict[str, Any]) -> None:
    import multiprocessing
    from importlib import import_module

    from itemadapter import ItemAdapter
    from scrapy import signals
    from scrapy.crawler import CrawlerRunner
    from scrapy.settings import Settings

    from scrapy_mainc.integration._startup import StartupError

    base = {"LOG_LEVEL": "DEBUG", "TELNETCONSOLE_ENABLED": False, "ROBOTSTXT_OBEY": False}
    logging.getLogger("scrapy_mainc").setLevel(logging.INFO)  # the root logger stays at WARNING
    if spec["reactor"] != "asyncio":
        base["TWISTED_REACTOR"] = REACTORS[spec["reactor"]]
    for scenario in spec["scenarios"]:
        module, _, name = scenario["spider"].partition(":")
        spider_class = getattr(import_module(module), name)
        runner = CrawlerRunner(Settings({**base, **scenario.get("settings", {})}))
        crawler = runner.create_crawler(spider_class)
        items: list[dict[str, Any]] = []

        def scraped(item: Any, items: list[dict[str, Any]] = items) -> None:
            items.append({"_type": type(item).__name__, **ItemAdapter(item).asdict()})

        crawler.signals.connect(scraped, signal=signals.item_scraped)
        errors = _ErrorLog()
        logging.getLogger().addHandler(errors)
        start_error = ""
        try:
            await runner.crawl(crawler, **scenario.get("args", {}))
        except StartupError as error:  # scrapy_mainc stopped it before the engine started
            start_error = f"{type(error).__name__}: {error}"
        finally:
            logging.getLogger().removeHandler(errors)
        results[scenario["name"]] = {
            "start_error": start_error,
            "items": items,
            "stats": crawler.stats.get_stats() if crawler._stats is not None else {},
            "errors": errors.messages,
            "warnings_logged": errors.warnings,
            "info_logged": errors.infos,
            "children_after": len(multiprocessing.active_children()),
            "spider_output": list(getattr(crawler.spider, "seen", [])),
        }


@pytest.fixture
def pages_are_articles(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every extraction reads its page as an article, as if ``page_type="article"`` were
    given: for the tests of what ``auto`` and the comment stage do on articles, whose
    hand-built pages of a few lines the page-type model (trained on real pages) may read
    as another kind (tests/test_pagetype.py tests the model and the types' presets)."""
    import scrapy_mainc._extract as extract_module
    from scrapy_mainc.core._types import PageType

    monkeypatch.setattr(extract_module, "_given", lambda given: PageType(given or "article", 1.0))
