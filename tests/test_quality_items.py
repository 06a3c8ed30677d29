"""The quality estimate on items (issue 41): ``mainc["quality"]``, ``MAINC_MIN_QUALITY``
(``--min-quality``) and the fallback for doubtful pages (``MAINC_FALLBACK``,
``MAINC_FALLBACK_BELOW``), through the pipeline, a real ``mainc crawl`` of the bundled
site, the archive mode and ``mainc extract``."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import logging
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from scrapy.settings import Settings
from scrapy.utils.test import get_crawler
from test_cli_crawl import ARTICLES, FAST, LISTINGS, PRINT_VIEW, crawl, paths
from test_scrapy_content import KINDS, SITE, run_pipeline
from warcs import write_warc

from scrapy_mainc import MaincPipeline, extract
from scrapy_mainc.archive import FileSummary, JobSummary, OfflineConfig, items_from_files
from scrapy_mainc.config._fallback_path import load_fallback
from scrapy_mainc.config._mainc_config import MaincConfig
from scrapy_mainc.core._decode import decode_html
from scrapy_mainc.core._types import Extraction
from scrapy_mainc.dedup._params import FingerprintParams
from scrapy_mainc.items import _workers
from scrapy_mainc.items._fallback import FallbackResult
from scrapy_mainc.items._pool import WorkerPool
from scrapy_mainc.items._workers import ExtractionTask, preload_for, run_extraction

PATHS = sorted(KINDS)
#: The site's pages a sitemap crawl fetches (robots.txt forbids the print view).
FETCHED = sorted((ARTICLES | LISTINGS) - {PRINT_VIEW})
ORIGIN = "http://127.0.0.1:8000"


def quality_of(path: str, origin: str = ORIGIN) -> float:
    """The estimate ``extract`` gives the site's page at ``path``."""
    return extract((SITE / path.lstrip("/")).read_bytes(), url=origin + path).quality


@pytest.fixture(scope="module")
def qualities() -> dict[str, float]:
    return {path: quality_of(path) for path in PATHS}


#: A threshold between the site's listings (0.5 to 0.77 today) and its articles (over 0.84).
THRESHOLD = 0.8
#: Under it, a doubtful page for the fallback tests: the site's lowest listings (0.5 to 0.6 today).
DOUBTFUL = 0.6


def test_the_sites_estimates_today(qualities: dict[str, float]) -> None:
    # what the tests below rely on: the threshold splits the site, articles above
    assert {path for path, value in qualities.items() if value >= THRESHOLD} == ARTICLES
    assert {path for path, value in qualities.items() if value < DOUBTFUL}  # some doubtful too


# --- mainc["quality"] and MAINC_MIN_QUALITY through the pipeline ---------------------------


def test_every_item_carries_its_quality_and_none_is_dropped_by_default(qualities: dict[str, float]) -> None:
    kept, dropped, stats = run_pipeline(PATHS)
    assert not dropped and sorted(kept) == PATHS
    assert {path: item["mainc"]["quality"] for path, item in kept.items()} == {
        path: round(value, 3) for path, value in qualities.items()
    }
    assert "mainc/dropped/quality" not in stats
    assert all("fallback" not in item["mainc"] for item in kept.values())  # no fallback set


def test_min_quality_drops_the_items_under_it_counts_them_and_says_so_once(
    qualities: dict[str, float], caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.INFO, logger="scrapy_mainc"):
        kept, dropped, stats = run_pipeline(PATHS, MAINC_MIN_QUALITY=THRESHOLD)
    under = sorted(path for path, value in qualities.items() if value < THRESHOLD)
    assert sorted(dropped) == under and sorted(kept) == sorted(set(PATHS) - set(under))
    assert stats["mainc/dropped/quality"] == len(under)
    lowest = min(qualities, key=qualities.__getitem__)
    assert dropped[lowest] == f"mainc: quality {qualities[lowest]:.3f}, under MAINC_MIN_QUALITY ({THRESHOLD})"
    said = [record.getMessage() for record in caplog.records if "MAINC_MIN_QUALITY" in record.getMessage()]
    assert said == [f"mainc: dropping items whose quality estimate is under MAINC_MIN_QUALITY ({THRESHOLD}); "
                    "said once, counted in mainc/dropped/quality"]  # fmt: skip
    kept, dropped, _ = run_pipeline(PATHS, MAINC_MIN_QUALITY="0")  # -s MAINC_MIN_QUALITY=0: none
    assert not dropped


def test_an_item_whose_extraction_failed_is_not_judged_by_its_quality() -> None:
    # a page over MAINC_MAX_PAGE_SIZE: quality 0, its reason in the item, kept
    kept, dropped, stats = run_pipeline(
        ["/en/school-gardens.html"], MAINC_MIN_QUALITY=0.5, MAINC_MAX_PAGE_SIZE=100
    )
    [item] = kept.values()
    assert (
        not dropped and item["mainc"]["quality"] == 0 and item["mainc"]["reason"].startswith("page too large")
    )
    assert stats["mainc/failed/too_large"] == 1


@pytest.mark.parametrize("page", [b"%PDF-1.7\n" + bytes(range(256)) * 8, b"", b'{"not": "a page"}'])
def test_a_page_refused_before_parsing_is_not_judged_by_its_quality(page: bytes) -> None:
    """Its estimate is 0, but it has no text to judge: MAINC_DROP_EMPTY decides on it."""
    crawler = get_crawler(settings_dict={"MAINC_WORKER_MODE": "inline", "MAINC_MIN_QUALITY": 0.5})
    pipeline = MaincPipeline(crawler)
    pipeline.open_spider()
    item = asyncio.run(pipeline.process_item({"url": "http://x.test/file", "raw_html": page}))
    pipeline.close_spider()
    assert item["mainc"]["quality"] == 0 and item["mainc"]["reason"] and item["main_text"] == ""
    assert crawler.stats.get_value("mainc/dropped/quality") is None


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ({"MAINC_MIN_QUALITY": "high"}, "MAINC_MIN_QUALITY must be a number from 0 to 1; got 'high'"),
        ({"MAINC_MIN_QUALITY": 1.5}, "MAINC_MIN_QUALITY must be a number from 0 to 1; got 1.5"),
        ({"MAINC_FALLBACK_BELOW": -0.1}, "MAINC_FALLBACK_BELOW must be a number from 0 to 1; got -0.1"),
        ({"MAINC_FALLBACK": "no_such_module_here.extract"},
         "MAINC_FALLBACK = 'no_such_module_here.extract': cannot import 'no_such_module_here': "
         "ModuleNotFoundError: No module named 'no_such_module_here'"),
        ({"MAINC_FALLBACK": "json.no_such_function"},
         "MAINC_FALLBACK = 'json.no_such_function': 'json' has no 'no_such_function'"),
        ({"MAINC_FALLBACK": "json.decoder.NaN"},
         "MAINC_FALLBACK = 'json.decoder.NaN' is not callable (a float); it must take the page's HTML "
         "and URL and return its text or None"),
        ({"MAINC_FALLBACK": "json.loads"},
         "MAINC_FALLBACK = 'json.loads' cannot be called with a page's HTML and URL (too many "
         "positional arguments); it must take them"),
        ({"MAINC_FALLBACK": "os.getcwd"},
         "MAINC_FALLBACK = 'os.getcwd' cannot be called with a page's HTML and URL"),
        ({"MAINC_FALLBACK": "extract"}, "MAINC_FALLBACK must be the dotted path of a callable"),
        ({"MAINC_FALLBACK": 3}, "MAINC_FALLBACK must be the dotted path of a callable; got 3"),
    ],
)  # fmt: skip
def test_bad_values_are_refused(settings: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError) as raised:
        MaincConfig.from_settings(Settings(settings))
    assert str(raised.value).startswith(message)


@pytest.mark.parametrize("path", ["json.decoder:JSONDecoder.decode", "difflib.get_close_matches"])
def test_a_fallback_that_takes_html_and_url_is_accepted(path: str) -> None:
    """Two positional arguments bind (more, with defaults, may follow)."""
    assert MaincConfig.from_settings(Settings({"MAINC_FALLBACK": path})).content.fallback == path


def test_a_fallback_path_takes_a_colon_or_dots() -> None:
    assert load_fallback("json:dumps") is json.dumps is load_fallback("json.dumps")
    assert load_fallback("json.decoder:JSONDecoder.decode") is json.decoder.JSONDecoder.decode


# --- The fallback, where the worker runs it ------------------------------------------------

#: A page whose extraction is replaced by a chosen one, so that the estimate is what the test says.
PAGE = "<html><body><p>A page.</p></body></html>"


def _extraction(quality: float) -> Extraction:
    return Extraction(text="The doubtful text", html="<p>The doubtful text</p>", markdown="The doubtful text",
                      algorithm="auto", page_type="listing", quality=quality)  # fmt: skip


def answer(html: str, url: str) -> str | None:
    """A fallback for the tests: its answer depends on the URL it is given."""
    if url.endswith("/raises"):
        raise ValueError(f"no luck with {len(html)} characters")
    if url.endswith("/none"):
        return None
    if url.endswith("/number"):
        return 42  # type: ignore[return-value]
    return f"  The fallback's text of {url}, from {len(html)} characters  "


def _run(monkeypatch: pytest.MonkeyPatch, quality: float, url: str, **task: Any) -> Any:
    """The page's outcome from an inline pool: the extraction, then the fallback step."""
    monkeypatch.setattr(_workers, "extract", lambda page, **kwargs: _extraction(quality))
    options = {"fallback": f"{__name__}.answer", "fallback_below": 0.5, **task}
    return WorkerPool("inline", 1, 10.0).submit(ExtractionTask(PAGE, url=url, **options)).result()


def test_a_doubtful_page_is_two_tasks(monkeypatch: pytest.MonkeyPatch) -> None:
    """The extraction says the fallback is due (no fingerprint yet); the step runs it alone."""
    monkeypatch.setattr(_workers, "extract", lambda page, **kwargs: _extraction(0.2))
    params = FingerprintParams()
    task = ExtractionTask(PAGE, url="http://x.test/none", fallback=f"{__name__}.answer", fallback_below=0.5,
                          fingerprint=params)  # fmt: skip
    extracted = run_extraction(task)
    assert (extracted.fallback_due, extracted.fallback, extracted.fingerprint) == (True, None, None)
    assert extracted.extraction == _extraction(0.2)
    step = run_extraction(dataclasses.replace(task, fallback_for=extracted.extraction.text))
    assert step.fallback == FallbackResult() and step.failure == ""  # none: the extraction's text stays
    assert step.fingerprint == _workers.fingerprint_of("The doubtful text", params)
    assert run_extraction(dataclasses.replace(task, fallback_below=0.2)).fallback_due is False


def test_the_fallback_replaces_a_doubtful_text(monkeypatch: pytest.MonkeyPatch) -> None:
    outcome = _run(monkeypatch, 0.4, "http://x.test/page")
    assert outcome.fallback == FallbackResult(
        f"The fallback's text of http://x.test/page, from {len(PAGE)} characters"
    )
    assert outcome.fallback.outcome == "used"
    extraction = outcome.extraction
    assert extraction.text == outcome.fallback.text  # stripped
    assert (extraction.html, extraction.markdown) == ("", "")  # they were the replaced choice's
    assert (extraction.quality, extraction.page_type) == (0.4, "listing")  # the estimate that led to it


def test_the_fallback_runs_only_under_the_threshold(monkeypatch: pytest.MonkeyPatch) -> None:
    outcome = _run(monkeypatch, 0.5, "http://x.test/page")  # not under 0.5
    assert outcome.fallback is None and outcome.extraction.text == "The doubtful text"
    outcome = _run(monkeypatch, 0.1, "http://x.test/page", fallback="")  # no fallback set
    assert outcome.fallback is None and outcome.extraction.text == "The doubtful text"


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("http://x.test/none", FallbackResult()),
        ("http://x.test/raises", FallbackResult(error=f"ValueError: no luck with {len(PAGE)} characters")),
        ("http://x.test/number", FallbackResult(error="returned a int, not text or None")),
    ],
)
def test_a_fallback_without_text_leaves_the_extraction(
    monkeypatch: pytest.MonkeyPatch, url: str, expected: FallbackResult
) -> None:
    outcome = _run(monkeypatch, 0.2, url)
    assert outcome.fallback == expected and outcome.failure == ""
    assert outcome.extraction == _extraction(0.2)


@pytest.mark.parametrize("page", [b"%PDF-1.7\n" + bytes(range(256)) * 8, b"", b"  \n", b'{"not": "a page"}'])
def test_a_page_refused_before_parsing_goes_to_no_fallback(page: bytes) -> None:
    """Its estimate is 0, under any threshold, but there is nothing for a fallback to read."""
    task = ExtractionTask(page, url="http://x.test/page", fallback=f"{__name__}.answer", fallback_below=1.0)
    outcome = WorkerPool("inline", 1, 10.0).submit(task).result()
    assert outcome.extraction.reason and outcome.extraction.quality == 0.0
    assert not outcome.extraction.parsed and extract(PAGE).parsed
    assert (outcome.fallback, outcome.extraction.text, outcome.failure) == (None, "", "")


def test_the_fingerprint_is_the_fallbacks_text(monkeypatch: pytest.MonkeyPatch) -> None:
    params = FingerprintParams()
    outcome = _run(monkeypatch, 0.2, "http://x.test/" + "long/" * 40, fingerprint=params)
    assert outcome.fingerprint == _workers.fingerprint_of(outcome.extraction.text, params)
    assert outcome.fingerprint is not None


def test_the_fallback_gets_the_page_as_text() -> None:
    page = (SITE / "zh/index.html").read_bytes()
    task = ExtractionTask(page, url=None, fallback=f"{__name__}.record", fallback_below=1.0)
    RECORDED.clear()
    WorkerPool("inline", 1, 10.0).submit(task).result()
    assert RECORDED == [(decode_html(page).text, "")]  # decoded as the extraction decodes it; no URL: ""


RECORDED: list[tuple[str, str]] = []


def record(html: str, url: str) -> None:
    RECORDED.append((html, url))


def test_two_outcomes_join_into_one_that_never_loses_the_extraction() -> None:
    extracted = _workers.ExtractionOutcome(_extraction(0.2), fallback_due=True)
    used = _workers.with_fallback(
        extracted, _workers.ExtractionOutcome(Extraction(), fallback=FallbackResult("Its text"))
    )
    assert (used.extraction.text, used.extraction.html, used.fallback) == (
        "Its text",
        "",
        FallbackResult("Its text"),
    )
    died = _workers.with_fallback(
        extracted, _workers.failed(ExtractionTask(PAGE), "worker_died", "worker died")
    )
    assert died.extraction == _extraction(0.2) and died.fallback == FallbackResult(error="worker died")
    silent = _workers.with_fallback(
        extracted, _workers.ExtractionOutcome(Extraction())
    )  # no fallback step ran
    assert silent.extraction == _extraction(0.2) and silent.fallback is not None and silent.fallback.error


def slow_answer(html: str, url: str) -> str:
    """A fallback that takes ``?sleep=S`` seconds (a model or a service that is slow today)."""
    time.sleep(float(url.rsplit("=", 1)[1]))
    return "The slow fallback's text"


@pytest.mark.parametrize(
    ("budgets", "reason"),
    [
        (
            {"budget": 3.0},
            "timeout: the fallback took longer than 3 s (MAINC_FALLBACK_TIMEOUT)",
        ),  # MAINC_TIMEOUT's
        (
            {"budget": 60.0, "fallback_budget": 2.5},
            "timeout: the fallback took longer than 2.5 s (MAINC_FALLBACK_TIMEOUT)",
        ),
    ],
)
def test_a_fallback_over_its_budget_costs_the_fallback_not_the_extraction(
    budgets: dict[str, float], reason: str
) -> None:
    page = (SITE / "en/library-robots.html").read_text(encoding="utf-8")
    slow = ExtractionTask(page, url="http://x.test/page?sleep=30", fallback=f"{__name__}.slow_answer",
                          fallback_below=1.0, fingerprint=FingerprintParams())  # fmt: skip
    quick = dataclasses.replace(slow, url="http://x.test/page?sleep=0")
    pool = WorkerPool("process", 1, preload=preload_for(True, slow.fallback), **budgets)
    try:
        late, rescued = pool.submit(slow).result(60), pool.submit(quick).result(60)
    finally:
        pool.kill_workers()
        pool.close(5)
    expected = extract(page, url=slow.url)
    assert late.failure == "" and late.fallback == FallbackResult(error=reason)
    assert late.extraction.text == expected.text and late.extraction.text  # the extraction's, whole
    assert late.fingerprint is None  # NearDuplicatePipeline makes it
    # The worker the slow fallback held was replaced; the next doubtful page gets its fallback.
    assert rescued.fallback == FallbackResult("The slow fallback's text")
    assert rescued.extraction.text == "The slow fallback's text" and rescued.fingerprint is None  # too short


# --- With trafilatura as the fallback -------------------------------------------------------


def test_trafilatura_as_the_fallback(qualities: dict[str, float]) -> None:
    trafilatura = pytest.importorskip("trafilatura", reason="trafilatura is in the test extra")
    doubtful = sorted(path for path, value in qualities.items() if value < DOUBTFUL)
    settings = {"MAINC_FALLBACK": "trafilatura.extract", "MAINC_FALLBACK_BELOW": DOUBTFUL}
    kept, dropped, stats = run_pipeline(PATHS, **settings)
    assert not dropped and sorted(kept) == PATHS
    used = 0
    for path, item in kept.items():
        page = (SITE / path.lstrip("/")).read_bytes()
        if path not in doubtful:
            assert item["mainc"]["fallback"] is False
            assert item["main_text"] == extract(page, url=ORIGIN + path).text
            continue
        text = (trafilatura.extract(decode_html(page).text, ORIGIN + path) or "").strip()
        if text:
            used += 1
            assert item["mainc"]["fallback"] == "trafilatura.extract"
            assert item["main_text"] == text and item["main_html"] == ""
        else:
            assert item["mainc"]["fallback"] is False
    assert used and stats["mainc/fallback/used"] == used
    assert stats.get("mainc/fallback/empty", 0) == len(doubtful) - used


# --- A real crawl ---------------------------------------------------------------------------

#: A fallback module the crawl imports from its working directory (``python -m`` puts it
#: first on ``sys.path``; worker processes get the same path).
FALLBACK_MODULE = """
def text_of(html, url):
    if "/news/" in url:
        raise RuntimeError("cannot read " + url.rsplit("/", 1)[1])
    if "/zh/" in url:
        return None
    return "Fallback text of " + url.rsplit("/", 1)[1]
"""


def test_min_quality_in_a_crawl(site_server: Any, tmp_path: Path) -> None:
    done, items = crawl(
        f"{site_server.url}/sitemap.xml", *FAST, "--min-quality", str(THRESHOLD), cwd=tmp_path
    )
    assert done.returncode == 0, done.stderr
    estimates = {path: quality_of(path, site_server.url) for path in FETCHED}
    kept = sorted(path for path, value in estimates.items() if value >= THRESHOLD)
    assert kept and len(kept) < len(FETCHED)
    assert paths(items, site_server.url) == kept
    assert all(item["mainc"]["quality"] >= THRESHOLD for item in items)
    summary = done.stderr[done.stderr.index("mainc crawl: finished") :]
    others = len(FETCHED) - len(kept)
    assert f"items dropped: {others} (quality: {others})" in summary


def test_the_fallback_in_a_crawl_with_worker_processes(site_server: Any, tmp_path: Path) -> None:
    (tmp_path / "my_fallback.py").write_text(FALLBACK_MODULE, encoding="utf-8")
    args = [
        "-s",
        "MAINC_FALLBACK=my_fallback.text_of",
        "-s",
        f"MAINC_FALLBACK_BELOW={DOUBTFUL}",
        "--min-quality",
        str(DOUBTFUL),
    ]
    done, items = crawl(
        f"{site_server.url}/sitemap.xml", "-s", "AUTOTHROTTLE_START_DELAY=0", *args, cwd=tmp_path
    )
    assert done.returncode == 0, done.stderr
    estimates = {path: quality_of(path, site_server.url) for path in FETCHED}
    doubtful = {path for path, value in estimates.items() if value < DOUBTFUL}
    raising = {path for path in doubtful if "/news/" in path}
    nothing = {path for path in doubtful if "/zh/" in path}
    rescued = doubtful - raising - nothing
    assert len(raising) >= 2 and nothing and rescued  # every way, the failure twice
    by_path = {item["url"].removeprefix(site_server.url): item for item in items}
    # the doubtful items without the fallback's text are dropped by --min-quality; those
    # with it are kept, whatever their estimate
    assert sorted(by_path) == sorted(set(FETCHED) - raising - nothing)
    for path in rescued:
        item = by_path[path]
        assert item["main_text"] == "Fallback text of " + path.rsplit("/", 1)[1]
        assert item["mainc"]["fallback"] == "my_fallback.text_of" and item["main_html"] == ""
        assert item["mainc"]["quality"] == round(estimates[path], 3) < DOUBTFUL
    assert all(by_path[path]["mainc"]["fallback"] is False for path in set(by_path) - rescued)
    summary = done.stderr[done.stderr.index("mainc crawl: finished") :]
    assert f"  fallback: {len(rescued)} texts used, {len(nothing)} none, {len(raising)} failed\n" in summary
    dropped = len(raising) + len(nothing)
    assert f"items dropped: {dropped} (quality: {dropped})" in summary
    warnings = [line for line in done.stderr.splitlines() if "WARNING" in line and "MAINC_FALLBACK" in line]
    assert len(warnings) == 1 and "my_fallback.text_of failed again, on " in warnings[0]
    assert "RuntimeError: cannot read" in warnings[0] and "not said again" in warnings[0]


def test_a_fallback_that_does_not_import_stops_the_crawl(tmp_path: Path) -> None:
    from test_cli_crawl import stopped_before_it_started

    line = stopped_before_it_started("-s", "MAINC_FALLBACK=my_missing_module.text_of", cwd=tmp_path)
    assert line.endswith(
        "ERROR: mainc: MAINC_FALLBACK = 'my_missing_module.text_of': cannot import "
        "'my_missing_module': ModuleNotFoundError: No module named 'my_missing_module'"
    ), line


# --- The archive mode and mainc extract -----------------------------------------------------


def test_min_quality_and_the_fallback_in_the_archive_mode(tmp_path: Path) -> None:
    bodies = {f"http://site.test{path}": (SITE / path.lstrip("/")).read_bytes() for path in PATHS}
    warc = write_warc(
        tmp_path / "site.warc.gz", [("response", url, body, {}) for url, body in bodies.items()]
    )
    estimates = {url: extract(body, url=url).quality for url, body in bodies.items()}
    summary = FileSummary(str(warc))
    settings = {"MAINC_WORKER_MODE": "inline", "MAINC_MIN_QUALITY": THRESHOLD}
    kept = [item["url"] for item in items_from_files([warc], settings, summary)]
    assert kept == [url for url, value in estimates.items() if value >= THRESHOLD]
    under = len(bodies) - len(kept)
    assert summary.stats["mainc/dropped/quality"] == under
    assert f"  items dropped: {under} (quality: {under})" in JobSummary.of([summary]).lines("w", "o")
    settings = {
        "MAINC_WORKER_MODE": "inline",
        "MAINC_FALLBACK": f"{__name__}.answer",
        "MAINC_FALLBACK_BELOW": DOUBTFUL,
    }
    summary = FileSummary(str(warc))
    items = {item["url"]: item for item in items_from_files([warc], settings, summary)}
    rescued = [url for url, value in estimates.items() if value < DOUBTFUL]
    assert rescued and all(items[url]["mainc"]["fallback"] == f"{__name__}.answer" for url in rescued)
    assert summary.stats["mainc/fallback/used"] == len(rescued)
    assert f"  fallback: {len(rescued)} texts used, 0 none, 0 failed" in JobSummary.of([summary]).lines(
        "w", "o"
    )
    with pytest.raises(ValueError, match="MAINC_FALLBACK = 'json.nothing'"):
        OfflineConfig.from_settings({"MAINC_FALLBACK": "json.nothing"})


def test_mainc_warc_takes_min_quality(tmp_path: Path) -> None:
    bodies = {f"http://site.test{path}": (SITE / path.lstrip("/")).read_bytes() for path in PATHS}
    warc = write_warc(
        tmp_path / "site.warc.gz", [("response", url, body, {}) for url, body in bodies.items()]
    )
    out = tmp_path / "items.jsonl"
    command = [
        sys.executable,
        "-m",
        "scrapy_mainc",
        "warc",
        str(warc),
        "-o",
        str(out),
        "--min-quality",
        "0.7",
    ]
    done = subprocess.run([*command, "-s", "MAINC_WORKER_MODE=inline"], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    urls = [json.loads(line)["url"] for line in out.read_text(encoding="utf-8").splitlines()]
    assert urls == [url for url, body in bodies.items() if extract(body, url=url).quality >= 0.7]
    refused = subprocess.run([*command[:-1], "1.2"], capture_output=True, text=True)
    assert refused.returncode == 2
    assert refused.stderr.splitlines()[-1].endswith("argument --min-quality: not a number from 0 to 1: '1.2'")


def test_mainc_extract_leaves_out_pages_under_min_quality(tmp_path: Path) -> None:
    low, high = SITE / "news/local.html", SITE / "en/school-gardens.html"
    lowest, highest = extract(low.read_bytes()).quality, extract(high.read_bytes()).quality
    threshold = round((lowest + highest) / 2, 2)
    command = [sys.executable, "-m", "scrapy_mainc", "extract", "--min-quality", str(threshold)]
    one = subprocess.run([*command, str(low)], capture_output=True, text=True)
    assert one.returncode == 0 and one.stdout == ""
    assert one.stderr == f"mainc: quality {lowest:.3f} under --min-quality {threshold:g}: left out\n"
    many = subprocess.run([*command, str(low), str(high)], capture_output=True, text=True)
    assert many.returncode == 0
    assert [json.loads(line)["source"] for line in many.stdout.splitlines()] == [str(high)]
    assert many.stderr == f"mainc: {low}: quality {lowest:.3f} under --min-quality {threshold:g}: left out\n"


def test_mainc_extract_does_not_judge_a_refused_page_by_its_quality(tmp_path: Path) -> None:
    """A PDF gets its record and its reason, as without --min-quality."""
    pdf = tmp_path / "report.pdf"
    pdf.write_bytes(b"%PDF-1.7\n" + bytes(range(256)) * 8)
    command = [sys.executable, "-m", "scrapy_mainc", "extract", "--min-quality", "0.5", str(pdf)]
    done = subprocess.run(command, capture_output=True, text=True)
    assert done.returncode == 0 and "left out" not in done.stderr
    assert done.stderr.startswith("mainc: not HTML")
    many = subprocess.run([*command, str(SITE / "en/school-gardens.html")], capture_output=True, text=True)
    records = [json.loads(line) for line in many.stdout.splitlines()]
    assert [record["source"] for record in records] == [str(pdf), str(SITE / "en/school-gardens.html")]
