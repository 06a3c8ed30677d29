"""The quality estimate on items (issue 41): ``mainc["quality"]`` and ``MAINC_MIN_QUALITY``
(``--min-quality``), through the pipeline, a real ``mainc crawl`` of the bundled site, the
archive mode and ``mainc extract``."""

from __future__ import annotations

import json
import logging
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from scrapy.settings import Settings
from test_cli_crawl import ARTICLES, FAST, LISTINGS, PRINT_VIEW, crawl, paths
from test_scrapy_content import KINDS, SITE, run_pipeline
from warcs import write_warc

from scrapy_mainc import extract
from scrapy_mainc.archive import FileSummary, JobSummary, items_from_files
from scrapy_mainc.config._mainc_config import MaincConfig

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


#: A threshold between the site's listings (0.3 to 0.65 today) and its articles (over 0.8).
THRESHOLD = 0.7


def test_the_sites_estimates_today(qualities: dict[str, float]) -> None:
    # what the tests below rely on: the threshold splits the site, articles above
    assert {path for path, value in qualities.items() if value >= THRESHOLD} == ARTICLES
    assert {path for path, value in qualities.items() if value < 0.5}  # some under 0.5 too


# --- mainc["quality"] and MAINC_MIN_QUALITY through the pipeline ---------------------------


def test_every_item_carries_its_quality_and_none_is_dropped_by_default(qualities: dict[str, float]) -> None:
    kept, dropped, stats = run_pipeline(PATHS)
    assert not dropped and sorted(kept) == PATHS
    assert {path: item["mainc"]["quality"] for path, item in kept.items()} == {
        path: round(value, 3) for path, value in qualities.items()
    }
    assert "mainc/dropped/quality" not in stats


def test_min_quality_drops_the_items_under_it_counts_them_and_says_so_once(
    qualities: dict[str, float], caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.INFO, logger="scrapy_mainc"):
        kept, dropped, stats = run_pipeline(PATHS, MAINC_MIN_QUALITY=THRESHOLD)
    under = sorted(path for path, value in qualities.items() if value < THRESHOLD)
    assert sorted(dropped) == under and sorted(kept) == sorted(set(PATHS) - set(under))
    assert stats["mainc/dropped/quality"] == len(under)
    lowest = min(qualities, key=qualities.__getitem__)
    assert dropped[lowest] == f"mainc: quality {qualities[lowest]:.3f}, under MAINC_MIN_QUALITY (0.7)"
    said = [record.getMessage() for record in caplog.records if "MAINC_MIN_QUALITY" in record.getMessage()]
    assert said == ["mainc: dropping items whose quality estimate is under MAINC_MIN_QUALITY (0.7); said "
                    "once, counted in mainc/dropped/quality"]  # fmt: skip
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


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ({"MAINC_MIN_QUALITY": "high"}, "MAINC_MIN_QUALITY must be a number from 0 to 1; got 'high'"),
        ({"MAINC_MIN_QUALITY": 1.5}, "MAINC_MIN_QUALITY must be a number from 0 to 1; got 1.5"),
    ],
)  # fmt: skip
def test_bad_values_are_refused(settings: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError) as raised:
        MaincConfig.from_settings(Settings(settings))
    assert str(raised.value).startswith(message)


# --- A real crawl ---------------------------------------------------------------------------


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


# --- The archive mode and mainc extract -----------------------------------------------------


def test_min_quality_in_the_archive_mode(tmp_path: Path) -> None:
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
    assert f"  items dropped: {under} (mainc/dropped/quality: {under})" in JobSummary.of([summary]).lines(
        "w", "o"
    )


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
