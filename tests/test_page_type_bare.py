"""Bare pages (issue 39): a page of a heading, a paragraph and a link is too small for the
page-type models' evidence, and is an article or a service page, never a type made of
repeated parts (``core._pagetype.BARE_PAGE_WORDS``). Hand-built pages of that shape, and
the rule's thresholds hit exactly on chosen signal values."""

from __future__ import annotations

import math

import pytest
from conftest import short_gbk_page

from scrapy_mainc import extract
from scrapy_mainc.core._pagetype import (
    BARE_PAGE_TYPES,
    BARE_PAGE_WORDS,
    PAGE_TYPES,
    REPEATED_PARTS,
    possible_types,
)

#: Pages of a heading, one paragraph and a link (or two), in the layouts such pages have.
BARE_PAGES = {
    "reserved name": "<!doctype html><html lang='en'><head><title>Reserved Name</title>"
    "<style>body{margin:10vh auto}</style></head><body><div><h1>Reserved Name</h1>"
    "<p>This name is kept for use in examples of manuals and tutorials, and anyone may quote it "
    "without asking first.</p><p><a href='https://registry.test/r'>"
    "More about it</a></p></div></body></html>",
    "parked": "<html><head><title>Parked</title></head><body><h1>Parked page</h1><p>The owner of this "
    "address has not set up a site here yet. Check back later.</p><a href='https://host.test/'>Host</a>"
    "</body></html>",
    "unclosed paragraphs": "<!doctype html><html lang='en'><head><title>Placeholder</title></head><body>"
    "<div><h1>Placeholder</h1><p>This address stands in for a real one in the examples of a handbook. Do not "
    "send mail to it.<p><a href='https://handbook.test/addresses'>Read why</a></div></body></html>",
    "moved": "<html lang='de'><head><title>Umgezogen</title></head><body><h1>Wir sind umgezogen</h1>"
    "<p>Unsere Praxis finden Sie ab sofort in der Bahnhofstraße 12, gleich neben der Apotheke.</p>"
    "<a href='/kontakt'>Kontakt</a></body></html>",
}


@pytest.mark.parametrize("name", sorted(BARE_PAGES))
def test_a_bare_page_is_an_article_or_a_service_page(name: str) -> None:
    result = extract(BARE_PAGES[name])
    assert result.text and result.page_type in BARE_PAGE_TYPES, result.page_type


#: Pages with no word at all: nothing to read, and a reason that says so.
WORDLESS_PAGES = {
    "empty body": "<html><body></body></html>",
    "whitespace": "<html><head><title></title></head><body>\n  \t\n</body></html>",
    "empty divs": "<!doctype html><html><body><div><div></div><div> </div></div><div></div></body></html>",
}


@pytest.mark.parametrize("name", sorted(WORDLESS_PAGES))
def test_a_page_without_words_says_it_has_no_text(name: str) -> None:
    result = extract(WORDLESS_PAGES[name])
    assert result.parsed and not result.text and result.reason == "the page has no text"
    # its type is the model's: the wordless pages it learnt from are shells that scripts fill
    assert result.page_type in PAGE_TYPES


def test_a_short_undeclared_gbk_page_is_no_forum() -> None:
    assert extract(short_gbk_page()).page_type in BARE_PAGE_TYPES


def signals(words: int, run: int, **stated: float) -> dict[str, float]:
    """The signals the rule reads, encoded as ``_page_signals`` encodes them."""
    return {"words": math.log1p(words) / 10, "rep_count": math.log1p(run) / 3, **stated}


def test_the_bare_page_thresholds() -> None:
    assert BARE_PAGE_TYPES == ("article", "service")
    bare = possible_types(signals(BARE_PAGE_WORDS - 1, REPEATED_PARTS - 1), PAGE_TYPES)
    assert bare == BARE_PAGE_TYPES
    assert possible_types(signals(BARE_PAGE_WORDS - 1, REPEATED_PARTS - 1), PAGE_TYPES[1:]) == ("service",)
    assert possible_types(signals(1, 0), PAGE_TYPES) == BARE_PAGE_TYPES
    # not bare: enough words, a run of posts or items, markup that states a type, no text at all
    assert possible_types(signals(BARE_PAGE_WORDS, REPEATED_PARTS - 1), PAGE_TYPES) == PAGE_TYPES
    assert possible_types(signals(BARE_PAGE_WORDS - 1, REPEATED_PARTS), PAGE_TYPES) == PAGE_TYPES
    assert possible_types(signals(20, 1, ld_forum=1.0), PAGE_TYPES) == PAGE_TYPES
    assert possible_types(signals(20, 1, og_product=1.0), PAGE_TYPES) == PAGE_TYPES
    assert possible_types(signals(0, 0), PAGE_TYPES) == PAGE_TYPES  # a shell that scripts fill
    # among types none of which a bare page may be, the choice is left to the model
    assert possible_types(signals(20, 1), ("forum", "listing")) == ("forum", "listing")
