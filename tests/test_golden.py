"""Golden pages: ``tests/data/<name>.html`` and the text ``auto`` must extract from it,
``<name>.txt``, checked by hand when the page was written."""

from __future__ import annotations

from pathlib import Path

import pytest

from scrapy_mainc import extract

DATA = Path(__file__).parent / "data"
PAGES = sorted(path.stem for path in DATA.glob("*.html"))


@pytest.mark.parametrize("name", PAGES)
def test_golden_page(name: str) -> None:
    result = extract((DATA / f"{name}.html").read_bytes())
    expected = (DATA / f"{name}.txt").read_text(encoding="utf-8").strip()
    assert result.text == expected
    assert not result.reason


def test_golden_pages_exist() -> None:
    assert len(PAGES) >= 3
    assert all((DATA / f"{name}.txt").exists() for name in PAGES)


def test_english_page_html_and_metadata() -> None:
    result = extract((DATA / "news_en.html").read_bytes())
    assert result.title == "Harbour bridge reopens after two years of repairs"
    assert result.xpath == "/html/body/main/article/div[2]"
    assert result.html.startswith('<div class="story-body">')
    for absent in ("figcaption", "Related stories", "harbourfan", "<script", "Share on"):
        assert absent not in result.html
    assert "<h2>Ferries keep their summer timetable</h2>" in result.html


def test_undeclared_gbk_page_is_decoded_and_guessed_chinese() -> None:
    result = extract((DATA / "news_zh_gbk.html").read_bytes())
    assert result.lang == "zh"
    assert result.title == "山区小学建成新图书馆"
    assert "相关新闻" not in result.text and "版权所有" not in result.text


def test_comment_thread_is_kept_only_when_asked() -> None:
    html = (DATA / "blog_comments.html").read_bytes()
    assert "cherry variety did you use" in extract(html, strip_comments=False).text
