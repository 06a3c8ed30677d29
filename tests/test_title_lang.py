"""Headline search and the script guess."""

from __future__ import annotations

import pytest
from lxml import html as lxml_html

import scrapy_mainc._extract as extract_module
from scrapy_mainc import extract, extract_tree
from scrapy_mainc.core._lang import guess_script
from scrapy_mainc.core._text import (
    CJK_RE,
    HANGUL_RUN_RE,
    KANA_RUN_RE,
    count_kana_hangul,
    count_matching,
    has_cjk,
)
from scrapy_mainc.core._title import find_title, shows_headline


def _title(page: str) -> str:
    return find_title(lxml_html.document_fromstring(page))


def test_h1_agreeing_with_the_title_wins() -> None:
    page = (
        "<html><head><title>Bridge reopens after repairs | City News</title></head>"
        "<body><h1>Site name</h1><h1>Bridge reopens after repairs</h1></body></html>"
    )
    assert _title(page) == "Bridge reopens after repairs"


def test_og_title_then_title_without_site_name() -> None:
    page = (
        "<html><head><meta property='og:title' content='The real headline'>"
        "<title>Other | Site</title></head><body><h1>Menu</h1></body></html>"
    )
    assert _title(page) == "The real headline"
    assert _title("<html><head><title>Storm hits the coast - Daily Paper</title></head></html>") == (
        "Storm hits the coast"
    )
    assert _title("<html><head><title>春茶开采 茶农盼个好价钱--西岭资讯网</title></head></html>") == (
        "春茶开采 茶农盼个好价钱"
    )


def test_no_title_at_all() -> None:
    assert _title("<html><body><p>x</p></body></html>") == ""


def test_script_guess() -> None:
    assert guess_script("今天天气很好，我们去公园散步。") == "zh"
    assert guess_script("今日はいい天気ですね。公園に行きましょう。") == "ja"
    assert guess_script("오늘은 날씨가 좋습니다. 공원에 갑시다.") == "ko"
    assert guess_script("The weather is nice today.") == ""
    # a few CJK characters in an English page are not enough, unless the page says so
    # (7 CJK characters among 51: 14%, under the 20% share but over the 5% a declaration needs)
    mixed = "The words 中华人民共和国 are the name of the country in Chinese." * 3
    assert guess_script(mixed) == ""
    assert guess_script(mixed, declared="zh-CN") == "zh"


def test_extraction_reports_the_script() -> None:
    page = (
        "<html lang='zh'><body><div><p>今天天气很好，我们去公园散步，然后回家吃饭。</p></div></body></html>"
    )
    assert extract(page, algorithm="cectd-ds").lang == "zh"


def test_has_cjk_agrees_with_the_cjk_class_at_every_range_edge() -> None:
    # The first and last character of each range of the class, and their neighbours outside.
    edges = [0x3040, 0x30FF, 0x3400, 0x4DBF, 0x4E00, 0x9FFF, 0xF900, 0xFAFF, 0xAC00, 0xD7AF]
    edges += [0x20000, 0x2FA1F]
    probes = {code + step for code in edges for step in (-1, 0, 1)}
    probes |= {0x2019, 0x3000, 0xE000, 0xFFFD, 0xFEFF, 0x1F600, 0x30000}  # near misses
    for code in sorted(probes):
        text = f"caf\u00e9 {chr(code)} end"
        assert has_cjk(text) == bool(CJK_RE.search(text)), hex(code)
    assert not has_cjk("plain ASCII") and not has_cjk("")
    assert has_cjk("\u2019" * 1000 + "\u4e2d")
    # The rare ranges behind lead bytes shared with emoji (F0) and private-use icons (EF).
    assert has_cjk("\U0001f600" * 100 + "\U00020000")
    assert has_cjk("\ue000" * 100 + "\uf900")
    assert not has_cjk("\U0001f600" * 100 + "\ue000" * 100 + "\uffff\U00030000")


def test_one_test_says_whether_a_text_shows_the_headline() -> None:
    headline = "Analysis: Bridge plan agreed after a long night"
    assert shows_headline("analysis:  bridge plan AGREED after a long night", headline)  # case, spaces
    assert shows_headline("Bridge plan agreed", headline)  # a headline-like part: three words
    assert not shows_headline("Bridge plan", headline)  # two words occur in many headlines
    assert not shows_headline("Analysis", headline) and not shows_headline("", headline)
    assert not shows_headline("Bridge plan agreed on Monday", headline)  # not a part of it
    assert shows_headline("国务院总理会见代表团", "新华社：国务院总理会见代表团")  # six CJK characters
    assert not shows_headline("总理会见", "新华社：国务院总理会见代表团")  # four


def test_guess_script_takes_the_callers_count_of_a_short_text() -> None:
    text = "今天天气很好，我们去公园散步。The weather is nice."
    counted = len(CJK_RE.findall(text))
    assert guess_script(text, cjk=counted) == guess_script(text) == "zh"
    assert guess_script(text, cjk=0) == ""  # the caller's count is the one read
    assert guess_script(text * 10_000, cjk=0) == "zh"  # a text past the sample: counted here


def test_the_page_script_guess_counts_cjk_as_the_text_has_it(monkeypatch: pytest.MonkeyPatch) -> None:
    # the statistics count the texts and tails of the analysis tree; the text guessed from
    # also has the root's tail ("<body>...</body>尾巴": lxml keeps text after the body there)
    root = lxml_html.document_fromstring(
        "<html><body><div>新闻<b>报道</b>今天天气很好</div>公园散步</body></html>"
    )
    root.find("body").tail = "尾巴的文字"
    seen: list[tuple[str, int | None]] = []

    def recording(text: str, declared: str = "", cjk: int | None = None) -> str:
        seen.append((text, cjk))
        return ""

    monkeypatch.setattr(extract_module, "guess_script", recording)
    extract_tree(root)
    assert [(len(CJK_RE.findall(text)), cjk) for text, cjk in seen] == [(19, 19)]


@pytest.mark.parametrize(
    "text",
    [
        "今天天气很好，我们去公园散步。「新闻」、《报道》",  # neither: no regex pass
        "今日はいい天気ですね。ア\u3040\u30ff",  # kana, and its range's ends
        "오늘은 날씨가 좋습니다 \uac00\ud7af",  # hangul syllables and their range's ends
        "\u3000\u303f\u3100\ua000\ud7b0\uff0c",  # neighbours of both ranges: none of them
        "\ud800 lone surrogate \U00020000 \u2e80",
    ],
)
def test_count_kana_hangul_counts_as_the_regex_passes(text: str) -> None:
    expected = (count_matching(KANA_RUN_RE, text), count_matching(HANGUL_RUN_RE, text))
    assert count_kana_hangul(text) == expected
