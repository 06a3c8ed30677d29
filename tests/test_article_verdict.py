"""``Extraction.article``: hand-built pages of each kind a news crawl meets, and
``Extraction.lang``: the identified language, with the fallbacks."""

from __future__ import annotations

import json

import pytest

import scrapy_mainc.core._langid as langid
from scrapy_mainc import extract
from scrapy_mainc.core import _article as article_module
from scrapy_mainc.core._article import MIN_ARTICLE_WORDS, MIN_MARKED_WORDS, WORDS_SAMPLE_CHARS, words_up_to
from scrapy_mainc.core._text import count_words

SENTENCE = "The council met on Monday, and the members agreed on the budget for the harbour works. "
CHINESE = "市政府昨天宣布，明年将新建三座公园，扩建两条地铁线路，方便市民出行。"
NAV = "<nav>" + "".join(f"<a href='/s{n}'>Section {n}</a> " for n in range(12)) + "</nav>"


def page(body: str, head: str = "", lang: str = "en") -> str:
    footer = "<footer>(c) Paper</footer>"
    return f"<html lang='{lang}'><head><title>T</title>{head}</head><body>{NAV}{body}{footer}</body></html>"


def teasers(count: int, card: str = "li") -> str:
    return "".join(
        f"<{card} class='teaser'><h3><a href='/story-{n}'>Headline number {n} of the day</a></h3>"
        f"<p>A standfirst of the story, in one sentence, number {n}.</p></{card}>"
        for n in range(count)
    )


OG_ARTICLE = "<meta property='og:type' content='article'>"
OG_WEBSITE = "<meta property='og:type' content='website'>"
ITEM_LIST = json.dumps(
    {"@context": "https://schema.org", "@type": "CollectionPage",
     "mainEntity": {"@type": "ItemList", "itemListElement": [
         {"@type": "ListItem", "position": 1, "item": {"@type": "NewsArticle", "headline": "Other"}}]}}
)  # fmt: skip

KINDS = {
    "article without markup": (page("<div class='c'>" + f"<p>{SENTENCE * 2}</p>" * 5 + "</div>"), True),
    "article with markup": (page(f"<article><p>{SENTENCE * 3}</p></article>", OG_ARTICLE), True),
    "short marked article": (page(f"<article><h1>T</h1><p>{SENTENCE}</p></article>", OG_ARTICLE), True),
    "Chinese article": (page("<div>" + f"<p>{CHINESE}</p>" * 6 + "</div>", lang="zh"), True),
    "home page of teasers": (page(f"<main><ul>{teasers(12)}</ul></main>"), False),
    "section front of article cards": (
        page(f"<main><h1>News</h1>{teasers(10, 'article')}</main>",
             OG_WEBSITE + f"<script type='application/ld+json'>{ITEM_LIST}</script>"),
        False,
    ),
    "topic page of dated links": (
        page("<main><h1>Topic: Transport</h1><ul>" + "".join(
            f"<li><a href='/s{n}'>A headline about transport {n}</a> <time>2024-05-{n + 1:02d}</time></li>"
            for n in range(15)
        ) + "</ul></main>"),
        False,
    ),
    "short notice, not marked": (page("<main><p>This page has moved, sorry.</p></main>"), False),
}  # fmt: skip


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_each_kind_of_page(kind: str) -> None:
    html, expected = KINDS[kind]
    assert extract(html).article is expected


def test_the_thresholds() -> None:
    def words(count: int, head: str = "") -> bool:
        body = "<div><p>" + " ".join(["word"] * (count - 1)) + " end.</p></div>"
        return extract(f"<html><head>{head}</head><body>{body}</body></html>", page_type="article").article

    assert words(MIN_ARTICLE_WORDS) and not words(MIN_ARTICLE_WORDS - 1)
    assert words(MIN_MARKED_WORDS, OG_ARTICLE) and not words(MIN_MARKED_WORDS - 1, OG_ARTICLE)
    assert not words(MIN_MARKED_WORDS, OG_WEBSITE)


def test_language_identified_from_the_text() -> None:
    german = page(
        "<div>"
        + "<p>Der Stadtrat hat am Montag den Haushalt für den Hafen beschlossen, sagte die Sprecherin.</p>"
        * 4
        + "</div>"
    )
    assert extract(german).lang == "de"  # the page declares English
    chinese = page(
        "<div>" + "<p>市政府昨天宣布，明年将新建三座公园，扩建两条地铁线路。</p>" * 4 + "</div>", lang=""
    )
    assert extract(chinese).lang == "zh"


def test_without_the_identifier_the_script_or_the_declaration(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(langid, "_cld2", lambda: None)
    assert not langid.identifier_available()
    german = page("<div>" + f"<p>{SENTENCE * 2}</p>" * 4 + "</div>", lang="de-AT")
    assert extract(german).lang == "de"  # what the page declares
    chinese = page(
        "<div>" + "<p>市政府昨天宣布，明年将新建三座公园，扩建两条地铁线路。</p>" * 4 + "</div>", lang=""
    )
    assert extract(chinese).lang == "zh"  # the script
    assert extract(page(f"<div><p>{SENTENCE * 8}</p></div>", lang="")).lang == ""


def test_what_the_identifier_cannot_place_is_empty() -> None:
    assert langid.identify_language("") == ""
    assert langid.identify_language("   ") == ""
    assert langid.identify_language("12345 67890 ...") == ""
    assert langid.identify_language("bad \ud800 surrogate, but English words in a sentence.") == "en"


@pytest.mark.parametrize(
    "text",
    [
        "word " * 10,
        "word " * 400,
        "新闻" * 600,
        # full-width marks are words only in a text without CJK: a start of marks counts
        # more words than the whole text holds once a CJK character follows
        "！（ " * (WORDS_SAMPLE_CHARS // 3 + 1) + "中",
        "！（ " * (WORDS_SAMPLE_CHARS // 3 + 1) + "x",
    ],
)
def test_words_up_to_is_exact_below_the_words_needed(text: str) -> None:
    words = count_words(text)
    found = words_up_to(text, MIN_ARTICLE_WORDS)
    assert found == words if words < MIN_ARTICLE_WORDS else found >= MIN_ARTICLE_WORDS


def test_words_up_to_counts_only_the_start_of_a_long_text(monkeypatch: pytest.MonkeyPatch) -> None:
    counted: list[int] = []
    monkeypatch.setattr(article_module, "count_words", lambda text: counted.append(len(text)) or 0)
    assert words_up_to("word " * 10_000, MIN_ARTICLE_WORDS) >= MIN_ARTICLE_WORDS
    assert words_up_to("word " * 3, MIN_ARTICLE_WORDS) == 0  # too few in the start: the whole text
    assert counted == [15]
