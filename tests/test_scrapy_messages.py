"""What a crawl tells its user: one WARNING when every item failed (with counts and the
likely cause), one when thread mode cannot enforce a time-out, and nothing for a good crawl.

Real crawls of the bundled site on loopback (``conftest.run_crawls``). A script without the
``__main__`` guard: ``test_scrapy_startup``.
"""

from __future__ import annotations

import logging
from typing import Any

import pytest
from conftest import CrawlResult, run_crawls
from scrapy.utils.test import get_crawler
from test_scrapy_crawl import ADDON, MANUAL, PagesSpider
from test_scrapy_faults import SlowPageSpider

from scrapy_mainc.integration._startup import check_crawl
from scrapy_mainc.items._cluster_index import describe_error
from scrapy_mainc.items._failure_warnings import OutcomeTally
from scrapy_mainc.items._pool import WorkerPool
from scrapy_mainc.items._workers import WORKER_PROCESS_NAME, ExtractionTask

PIPELINE_ONLY = {"ITEM_PIPELINES": {"scrapy_mainc.MaincPipeline": 100}, "MAINC_WORKER_MODE": "inline"}
#: Misspelt settings, and the name each warning suggests ("" for none).
MISSPELT = {
    "MAINC_ALGORITM": ("nce", "MAINC_ALGORITHM"),
    "MAINC_DEDUP_ENABLE": (True, "MAINC_DEDUP_ENABLED"),
    "MAINC_TEXT_FILED": ("body", "MAINC_TEXT_FIELD"),
    "MAINC_QUUX": (1, ""),
}


def mainc_warnings(result: CrawlResult) -> list[str]:
    return [message for message in result.warnings_logged if message.startswith("mainc")]


@pytest.fixture(scope="module")
def crawls(site_server: Any, tmp_path_factory: pytest.TempPathFactory) -> dict[str, CrawlResult]:
    base = {"args": {"base": site_server.url}}
    pages = {"spider": f"{PagesSpider.__module__}:PagesSpider", **base}
    slow = {"spider": f"{SlowPageSpider.__module__}:SlowPageSpider", **base}
    misspelt = {"MAINC_WORKER_MODE": "inline", **{name: value for name, (value, _) in MISSPELT.items()}}
    slow_settings = {**ADDON, "MAINC_WORKERS": 1, "MAINC_MAX_PAGE_SIZE": 10_000_000, "MAINC_TIMEOUT": 0.25}
    scenarios = [
        {"name": "pipeline-only", **pages, "settings": PIPELINE_ONLY},
        {"name": "healthy", **pages, "settings": {**ADDON, "MAINC_WORKER_MODE": "inline"}},
        {"name": "misspelt-addon", **pages, "settings": {**ADDON, **misspelt}},
        {"name": "misspelt-manual", **pages, "settings": {**MANUAL, **misspelt}},
        {"name": "thread-timeout", **slow, "settings": {**slow_settings, "MAINC_WORKER_MODE": "thread"}},
        {"name": "process-timeout", **slow, "settings": slow_settings},
    ]
    results, warnings = run_crawls(scenarios, tmp_path_factory.mktemp("messages"), timeout=300)
    assert warnings == []
    return results


def test_a_crawl_where_every_item_failed_says_so_once(crawls: dict[str, CrawlResult]) -> None:
    result = crawls["pipeline-only"]
    assert result.stats["mainc/failed/no_page"] == 3 and len(result.items) == 3
    # The items came from responses: the reason names what is missing to attach them.
    assert {item["mainc"]["reason"] for item in result.items} == {
        "no page: MaincSpiderMiddleware, which attaches each item's response, is not enabled "
        "(SPIDER_MIDDLEWARES, or the add-on), and the item has no 'raw_html' field"
    }
    (warning,) = mainc_warnings(result)
    assert warning.startswith("mainc: all 3 items failed extraction (no_page: 3)")
    for cause in ("MAINC_PAGE_FIELD ('raw_html')", "scrapy_mainc.Addon", "MaincSpiderMiddleware"):
        assert cause in warning


@pytest.mark.parametrize(
    ("failures", "info", "became"),
    [
        ({"no_page": 2}, "mainc", "they went on with empty fields and the reason in mainc['reason']"),
        ({"timeout": 2}, "meta", "they went on with empty fields and the reason in meta['reason']"),
        ({"worker_died": 2}, "", "they went on with empty fields (no reason: MAINC_INFO_FIELD is off)"),
        ({"missing_field": 3}, "mainc", "they went on unchanged, without the fields their classes lack"),
        (
            {"missing_field": 1, "timeout": 2},
            "mainc",
            "the 1 of classes that lack the fields went on unchanged, without them, the 2 others with "
            "empty fields and the reason in mainc['reason']",
        ),
    ],
)
def test_the_warning_when_every_item_failed_says_what_became_of_them(
    failures: dict[str, int], info: str, became: str
) -> None:
    tally = OutcomeTally("process")
    for kind, count in failures.items():
        for _ in range(count):
            tally.add(kind, f"{kind} reason")
    by_count = sorted(failures.items(), key=lambda pair: (-pair[1], pair[0]))
    total, counts = sum(failures.values()), ", ".join(f"{kind}: {count}" for kind, count in by_count)
    assert tally.all_failed_warning(info_field=info).startswith(
        f"mainc: all {total} items failed extraction ({counts}); {became}. Likely cause: "
    )


def test_a_long_first_reason_is_cut_between_words() -> None:
    tally = OutcomeTally("process")
    words = " ".join(f"word{index}" for index in range(100))  # 689 characters
    tally.add("missing_field", f"declare it  (e.g. main_html = scrapy.Field(), or ...) {words}")
    warning = tally.all_failed_warning()
    quoted = warning.split("(first: ", 1)[1].removesuffix(").")
    assert quoted.endswith(" ...") and len(quoted) <= 240
    assert set(quoted.removesuffix(" ...").split()) <= {
        *words.split(),
        *"declare it (e.g. main_html = scrapy.Field(), or ...)".split(),
    }


def test_an_error_is_described_on_one_line_without_its_closing_period() -> None:
    error = ConnectionError("Error 111 connecting to 127.0.0.1:6391. Connection refused.")
    assert (
        describe_error(error) == "ConnectionError: Error 111 connecting to 127.0.0.1:6391. Connection refused"
    )
    assert describe_error(TimeoutError()) == "TimeoutError"


def test_a_good_crawl_warns_of_nothing(crawls: dict[str, CrawlResult]) -> None:
    result = crawls["healthy"]
    assert result.stats["mainc/extracted"] == 3
    assert mainc_warnings(result) == [] and result.errors == []


@pytest.mark.parametrize("setup", ["addon", "manual"])
def test_a_misspelt_setting_is_said_once_with_the_nearest_name(
    crawls: dict[str, CrawlResult], setup: str
) -> None:
    result = crawls[f"misspelt-{setup}"]
    warnings = sorted(
        message for message in mainc_warnings(result) if "not a scrapy_mainc setting" in message
    )
    expected = []
    for name, (_, nearest) in sorted(MISSPELT.items()):
        hint = f"; did you mean {nearest}?" if nearest else " (see the settings reference)"
        expected.append(f"mainc: {name} is not a scrapy_mainc setting and is ignored{hint}")
    assert warnings == expected
    # The crawl goes on, with the defaults of the settings the misspellings meant.
    assert result.stats["mainc/extracted"] == 3 and result.stats["mainc/algorithm/auto"] == 3
    assert all(item["main_text"] and "body" not in item for item in result.items)


def test_thread_mode_says_once_that_a_time_out_cannot_stop_the_extraction(
    crawls: dict[str, CrawlResult],
) -> None:
    result = crawls["thread-timeout"]
    assert result.stats["mainc/failed/timeout"] >= 1
    thread_warnings = [message for message in mainc_warnings(result) if "in thread mode" in message]
    assert len(thread_warnings) == 1
    assert "slow/big.html overran MAINC_TIMEOUT (0.25 s)" in thread_warnings[0]
    assert 'MAINC_WORKER_MODE = "process" enforces the time-out' in thread_warnings[0]
    assert mainc_warnings(crawls["process-timeout"]) == []  # killed there, nothing runs on


def test_worker_processes_have_the_name_the_warnings_look_for() -> None:
    pool = WorkerPool("process", 1, 60.0)
    try:
        pool.submit(ExtractionTask("<p>warm</p>")).result(120)
        import multiprocessing

        assert [child.name for child in multiprocessing.active_children()] == [WORKER_PROCESS_NAME]
    finally:
        pool.close(5)


@pytest.mark.parametrize(
    ("settings", "expected"),
    [
        ({"MAINC_FALLBACK_BELOW": 0.5}, ["MAINC_FALLBACK_BELOW"]),
        (
            {"MAINC_FALLBACK_BELOW": 0.5, "MAINC_FALLBACK_TIMEOUT": 5},
            ["MAINC_FALLBACK_BELOW", "MAINC_FALLBACK_TIMEOUT"],
        ),
        ({"MAINC_FALLBACK_BELOW": 0.5, "MAINC_FALLBACK": "os.path.join"}, []),  # it has what it needs
        ({}, []),  # the add-on's defaults are not the user's
    ],
)
def test_a_setting_that_does_nothing_without_another_is_said(
    settings: dict[str, Any], expected: list[str], caplog: pytest.LogCaptureFixture
) -> None:
    crawler = get_crawler(settings_dict={"ADDONS": {"scrapy_mainc.Addon": 0}, **settings})
    crawler._apply_settings()  # the add-on writes its defaults at "addon" priority
    with caplog.at_level(logging.WARNING):
        check_crawl(crawler)
    said = [record.getMessage() for record in caplog.records if "so it does nothing" in record.getMessage()]
    assert said == [
        f"mainc: {name} is set but MAINC_FALLBACK is not, so it does nothing" for name in expected
    ]
