"""Where each date came from: ``published_from`` and ``modified_from``, one level per
kind of evidence, on an article page that has that evidence only."""

from __future__ import annotations

import json

import pytest
from test_metadata_dates import TODAY, jsonld, meta, page

from helpers import document
from scrapy_mainc import extract
from scrapy_mainc.metadata._dates import SOURCES, FoundDates, find_dates


def found(html: str, url: str | None = None) -> FoundDates:
    return find_dates(document(html, url), today=TODAY)


ARTICLE = {"@type": "NewsArticle", "headline": "Bridge reopens after repairs"}


@pytest.mark.parametrize(
    ("html", "url", "expected"),
    [
        (
            page(jsonld({**ARTICLE, "datePublished": "2023-12-22", "dateModified": "2023-12-23"})),
            None,
            ("2023-12-22", "2023-12-23", "json-ld", "json-ld"),
        ),
        (
            page(body="<p>By Ann Lee <time itemprop='datePublished' datetime='2023-12-22'>22 Dec</time></p>"),
            None,
            ("2023-12-22", "", "microdata", ""),
        ),
        (
            page(meta("article:published_time", "2023-12-22", "property")),
            None,
            ("2023-12-22", "", "meta", ""),
        ),
        (page(body="<p class='meta'>December 22, 2023</p>"), None, ("2023-12-22", "", "dateline", "")),
        (page(), "https://news.example/2023/12/22/bridge", ("2023-12-22", "", "url", "")),
        (page(), None, ("", "", "", "")),
    ],
    ids=["json-ld", "microdata", "meta", "dateline", "url", "none"],
)
def test_each_level_names_itself(html: str, url: str | None, expected: tuple[str, ...]) -> None:
    assert tuple(found(html, url)) == expected


def test_levels_are_the_documented_ones() -> None:
    assert SOURCES == ("json-ld", "microdata", "meta", "dateline", "url")


def test_a_markup_date_and_a_visible_update() -> None:
    # a UTC time: the page is read for its own day, and shows an update
    html = page(
        meta("article:published_time", "2023-12-20T08:00:00Z", "property"),
        body="<p class='meta'>Updated December 22, 2023</p>",
    )
    assert tuple(found(html)) == ("2023-12-20T08:00:00+00:00", "2023-12-22", "meta", "dateline")


def test_the_dateline_overrules_the_markups_first_claim() -> None:
    # the page shows the day of the markup's second claim: that claim wins, and it is the markup's
    markup = jsonld({**ARTICLE, "datePublished": "2023-12-21"})
    head = markup + meta("article:published_time", "2023-12-20", "property")
    html = page(head, body="<p class='meta'>December 20, 2023</p>")
    assert tuple(found(html)) == ("2023-12-20", "", "meta", "")


def test_a_page_showing_only_its_update_is_dated_by_the_dateline() -> None:
    assert tuple(found(page(body="<p class='meta'>Updated January 3, 2024</p>"))) == (
        "2024-01-03",
        "2024-01-03",
        "dateline",
        "dateline",
    )


def test_extract_and_its_json_carry_the_levels() -> None:
    html = page(jsonld({**ARTICLE, "datePublished": "2023-12-22"}))
    metadata = extract(html).metadata
    assert (metadata.published_from, metadata.modified_from) == ("json-ld", "")
    assert json.loads(json.dumps(metadata.as_dict()))["published_from"] == "json-ld"


@pytest.mark.parametrize(
    ("shown", "expected"),
    [
        # the markup's moment told in UTC by the page: the day the page shows counts
        ("Dec 19, 2023 3:57 AM", ("2023-12-19T03:57:00", "dateline")),
        # another time that day: not the same moment, the markup's claim stands
        ("Dec 19, 2023 9:10 AM", ("2023-12-18T22:57:00-05:00", "json-ld")),
    ],
)
def test_a_dateline_showing_the_markups_moment_in_another_zone(shown: str, expected: tuple[str, str]) -> None:
    article = {
        **ARTICLE,
        "datePublished": "2023-12-18T22:57:00-05:00",
        "dateModified": "2023-12-20T10:00:00-05:00",
    }
    html = page(jsonld(article), body=f"<p class='meta'>By Ann Lee | {shown}</p>")
    result = found(html)
    assert (result.published, result.published_from) == expected
