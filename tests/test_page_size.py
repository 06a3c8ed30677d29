"""Pages above a documented size are refused before parsing (issue 17, item 8).

Peak memory grows with the page (``benchmarks/speed/memory.py``): 1.5 GB on a 16 MB page of
small elements. The Scrapy pipeline refused pages over ``MAINC_MAX_PAGE_SIZE``; the
library now refuses pages over ``max_bytes`` (``MAX_PAGE_BYTES`` by default), and the two
defaults are one number.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from scrapy_mainc import MAX_ELEMENTS, MAX_PAGE_BYTES, _extract, extract
from scrapy_mainc.config._registry import DEFAULTS
from scrapy_mainc.core._limits import start_tags
from scrapy_mainc.items import _workers

ARTICLE = (
    "<html><body><article>" + "<p>The minister said on Tuesday that the budget would rise, a lot.</p>" * 20
)
PAGE = ARTICLE + "</article></body></html>"


def test_the_default_lets_the_promised_10_mb_pages_through_and_agrees_with_scrapy() -> None:
    assert MAX_PAGE_BYTES >= 10_000_000
    assert DEFAULTS["MAINC_MAX_PAGE_SIZE"] == MAX_PAGE_BYTES


@pytest.mark.parametrize("page", [PAGE, PAGE.encode()])
def test_a_page_over_max_bytes_is_refused_before_decoding_or_parsing(
    page: str | bytes, monkeypatch: pytest.MonkeyPatch
) -> None:
    def never(*args: object) -> None:
        raise AssertionError("a page over the limit was decoded or parsed")

    monkeypatch.setattr(_extract, "_page_text", never)
    monkeypatch.setattr(_extract, "parse_html", never)
    result = extract(page, max_bytes=len(page) - 1)
    unit = "characters" if isinstance(page, str) else "bytes"
    assert result.reason == f"page too large: {len(page):,} {unit} > max_bytes ({len(page) - 1:,})"
    assert result.text == "" and result.algorithm == "auto"


def test_a_page_at_the_limit_or_without_one_is_extracted() -> None:
    assert "budget would rise" in extract(PAGE, max_bytes=len(PAGE)).text
    assert "budget would rise" in extract(PAGE.encode(), max_bytes=None).text


def test_the_default_limit_applies() -> None:
    page = ARTICLE.encode() + b" " * (MAX_PAGE_BYTES + 1 - len(ARTICLE))  # one byte over
    expected = f"page too large: {MAX_PAGE_BYTES + 1:,} bytes > max_bytes ({MAX_PAGE_BYTES:,})"
    assert extract(page).reason == expected


def test_scrapy_workers_leave_the_limit_to_the_pipeline(monkeypatch: pytest.MonkeyPatch) -> None:
    # the pipeline refuses pages over MAINC_MAX_PAGE_SIZE before they reach a worker; a
    # user who raised it must not see the library's default refuse them there
    seen: dict[str, object] = {}

    def spy(page: object, **options: object) -> object:
        seen.update(options)
        return extract(PAGE)

    monkeypatch.setattr(_workers, "extract", spy)
    task = _workers.ExtractionTask(page=PAGE, url=None, algorithm="auto", strip_comments=True, metadata=True)
    assert "budget would rise" in _workers.run_extraction(task).extraction.text
    assert seen["max_bytes"] is None


def test_start_tags_are_counted_without_end_tags_comments_or_declarations() -> None:
    assert start_tags("<!DOCTYPE html><html><body><p>a<br>b</p><!-- c --></body></html>") == 4
    assert start_tags(PAGE) == 3 + 20  # html, body, article and the paragraphs


@pytest.mark.parametrize("page", [PAGE, PAGE.encode()])
def test_a_page_with_more_elements_than_max_elements_is_refused_before_parsing(
    page: str | bytes, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert extract(page, max_elements=23).text  # exactly at the limit
    assert extract(page, max_elements=None).text

    def never(*args: object) -> None:
        raise AssertionError("a page over the limit was parsed")

    monkeypatch.setattr(_extract, "parse_html", never)
    result = extract(page, max_elements=22)
    assert result.reason == "too many elements: 23 start tags > max_elements (22)"
    assert result.text == ""


def test_ten_megabytes_of_br_are_refused_and_an_article_of_ten_megabytes_is_not() -> None:
    # 10 MB of <br> took 1.4 GB at its peak (benchmarks/speed/memory.py); article pages of 10 MB
    # have about 155,000 elements
    page = "<html><body><p>Text.</p>" + "<br>" * 2_500_000 + "</body></html>"
    assert extract(page).reason.startswith("too many elements: 2,500,003 start tags")
    paragraph = "<p>" + "Words of a long page, with commas, and periods. " * 8 + "</p>"
    article = (
        "<html><body><article>" + paragraph * (10_000_000 // len(paragraph)) + "</article></body></html>"
    )
    assert len(article) >= 9_900_000 and start_tags(article) < MAX_ELEMENTS


def test_mainc_extract_refuses_a_page_over_max_bytes_naming_its_option(tmp_path: Path) -> None:
    page = tmp_path / "page.html"
    page.write_text(PAGE, encoding="utf-8")
    command = [sys.executable, "-m", "scrapy_mainc", "extract", str(page)]
    size = len(PAGE.encode())
    refused = subprocess.run([*command, "--max-bytes", str(size - 1)], capture_output=True, text=True)
    assert refused.returncode == 0 and refused.stdout == ""
    assert refused.stderr == f"mainc: page too large: {size:,} bytes > --max-bytes ({size - 1:,})\n"
    read = subprocess.run([*command, "--max-bytes", str(size)], capture_output=True, text=True)
    assert "budget would rise" in read.stdout
    wrong = subprocess.run([*command, "--max-bytes", "0"], capture_output=True, text=True)
    assert wrong.returncode == 2 and "argument --max-bytes: not a positive integer: '0'" in wrong.stderr
