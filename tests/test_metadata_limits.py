"""Hostile input to the metadata stage: JSON nested past the decoder's limit, JSON-LD nested
past what the readers follow, text that is nothing but dates. Never an error; the text is
still extracted; the time stays linear (the number of dates read is capped)."""

from __future__ import annotations

import pytest

from scrapy_mainc import extract
from scrapy_mainc.core._datetext import MAX_TEXT_DATES, find_text_dates
from scrapy_mainc.core._evidence import load_json, parse_jsonld

PARAGRAPH = "<p>" + "The minister said on Tuesday that the budget would rise, a lot. " * 4 + "</p>"


def _page(head: str, body: str = "") -> str:
    article = f"<article>{PARAGRAPH * 3}</article>"
    return f"<html><head>{head}</head><body><h1>Budget</h1>{body}{article}</body></html>"


@pytest.mark.parametrize("opening, closing", [("[", "]"), ('{"a":', "}")])
def test_json_ld_nested_past_the_decoders_limit_is_no_json(opening: str, closing: str) -> None:
    deep = opening * 100_000 + "1" + closing * 100_000
    assert load_json(deep) is None
    assert parse_jsonld(deep) == []
    result = extract(_page(f'<script type="application/ld+json">{deep}</script>'))
    assert result.reason == ""
    assert result.text.count("The minister said") == 12
    assert result.metadata.published == ""


def test_json_ld_nested_deep_inside_an_article_loses_only_what_is_too_deep() -> None:
    def nested(value: str) -> str:
        return "[" * 500 + f'"{value}"' + "]" * 500

    article = (
        '{"@type": "NewsArticle", "headline": "Budget", "datePublished": "2023-12-22",'
        f' "image": {nested("http://example.com/a.png")}, "keywords": {nested("budget")}}}'
    )
    meta = '<meta name="parsely-page" content="' + "[" * 50_000 + "]" * 50_000 + '">'
    result = extract(_page(f'<script type="application/ld+json">{article}</script>{meta}'))
    assert result.metadata.published == "2023-12-22"
    assert result.metadata.image == ""  # a list in a list in a list...: not followed
    assert result.text.count("The minister said") == 12


def test_text_of_nothing_but_dates_reads_a_bounded_number_of_them() -> None:
    text = "22 December 2023, " * 20_000
    found = find_text_dates(text)
    assert len(found) == MAX_TEXT_DATES
    assert found[0].value == "2023-12-22"
    assert found[0].start == 0
    result = extract(_page("", "<p>" + text + "</p>"))
    assert result.metadata.published == "2023-12-22"
    assert result.text.count("The minister said") == 12
