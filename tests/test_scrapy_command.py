"""``scrapy mainc URL_OR_FILE``: the command registered through the entry point."""

from __future__ import annotations

import dataclasses
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from conftest import EXAMPLE, GBK_HEADLINE, GBK_SENTENCE
from newsdemo.localredis import free_port

from scrapy_mainc import extract
from scrapy_mainc.metadata import Metadata

METADATA_NAMES = tuple(field.name for field in dataclasses.fields(Metadata))
CORE_FIELDS = {"url", "main_text", "main_html", "title", "mainc", "page_type"}


def scrapy(*args: str, cwd: Path = EXAMPLE) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "scrapy", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_a_local_file_through_the_project_settings() -> None:
    page = EXAMPLE / "site" / "zh" / "chuncha-kaicai.html"
    done = scrapy("mainc", str(page))
    assert done.returncode == 0, done.stderr
    item: dict[str, Any] = json.loads(done.stdout)
    assert item["url"] == page.resolve().as_uri()
    assert GBK_SENTENCE in item["main_text"]
    assert item["title"].startswith(GBK_HEADLINE)
    assert item["main_html"].startswith("<")
    assert item["mainc"]["algorithm"] == "auto" and item["mainc"]["lang"] == "zh"
    assert item["mainc"]["page"]["encoding"] == "gb18030"


def test_a_url_with_a_chosen_algorithm(site_server: Any, tmp_path: Path) -> None:
    url = f"{site_server.url}/en/harbour-bridge-reopens.html"
    done = scrapy("mainc", url, "--algorithm", "cectd-s", cwd=tmp_path)  # outside a project
    assert done.returncode == 0, done.stderr
    item = json.loads(done.stdout)
    assert item["url"] == url
    assert item["mainc"]["algorithm"] == "cectd-s"
    assert "two-year repair programme" in item["main_text"]


def test_the_metadata_fields_are_printed(tmp_path: Path) -> None:
    page = EXAMPLE / "site" / "en" / "harbour-bridge-reopens.html"
    url = page.resolve().as_uri()
    metadata = extract(page.read_bytes(), url=url).metadata
    done = scrapy("mainc", str(page), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    item = json.loads(done.stdout)
    assert set(item) == CORE_FIELDS | set(METADATA_NAMES)
    for name in METADATA_NAMES:  # as an item holds them: lists, and None for nothing
        value = getattr(metadata, name)
        assert item[name] == (list(value) if isinstance(value, tuple) else value or None), name
    done = scrapy("mainc", "--no-metadata", str(page), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    plain = json.loads(done.stdout)
    assert set(plain) == CORE_FIELDS
    assert plain["main_text"] == item["main_text"]


def test_bad_arguments(tmp_path: Path) -> None:
    done = scrapy("mainc", str(tmp_path / "missing.html"), cwd=tmp_path)
    assert done.returncode != 0
    assert "not a URL or a file" in done.stderr
    done = scrapy("mainc", "--algorithm", "nope", "http://127.0.0.1/", cwd=tmp_path)
    assert done.returncode != 0
    assert "invalid choice" in done.stderr


def test_a_page_that_is_not_there_says_its_http_status(site_server: Any, tmp_path: Path) -> None:
    url = f"{site_server.url}/en/no-such-story.html"
    done = scrapy("mainc", url, cwd=tmp_path)
    assert done.returncode == 1
    assert done.stdout == ""
    assert done.stderr.splitlines() == [f"scrapy mainc: no page from {url}: HTTP 404 Not Found"]


def test_a_server_that_is_not_there_says_why_in_one_line(tmp_path: Path) -> None:
    # A new project obeys robots.txt (scrapy startproject writes ROBOTSTXT_OBEY = True): its
    # fetch fails first, and Scrapy's robots.txt middleware and retry middleware log their
    # own errors, with a 70-line traceback; the command's own line says it all.
    url = f"http://127.0.0.1:{free_port()}/story.html"
    for obey in ("False", "True"):
        done = scrapy("mainc", "-s", f"ROBOTSTXT_OBEY={obey}", url, cwd=tmp_path)
        assert done.returncode == 1
        [line] = done.stderr.splitlines()
        assert line.startswith(f"scrapy mainc: no page from {url}: ")
        assert "ConnectionRefusedError" in line and "Connection refused" in line


def test_a_robots_txt_that_cannot_be_fetched_is_one_warning_line(site_server: Any, tmp_path: Path) -> None:
    # robots.txt answers 404 here, which allows everything: no message
    url = f"{site_server.url}/en/harbour-bridge-reopens.html"
    done = scrapy("mainc", "-s", "ROBOTSTXT_OBEY=True", url, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["url"] == url
    assert done.stderr == ""


def test_a_bad_setting_value_is_said_in_one_line(tmp_path: Path) -> None:
    page = EXAMPLE / "site" / "en" / "harbour-bridge-reopens.html"
    done = scrapy("mainc", "-s", "MAINC_TIMEOUT=abc", str(page), cwd=tmp_path)
    assert done.returncode == 1
    assert done.stderr.splitlines()[-2].endswith(
        "ERROR: mainc: MAINC_TIMEOUT must be a positive number; got 'abc'"
    )
    assert done.stderr.splitlines()[-1].endswith("the crawl did not start (the ERROR above says why)")
    assert "Traceback" not in done.stderr
