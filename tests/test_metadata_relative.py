"""Relative dates and days without a year (issue 19, kind 3): read against the moment the
page was fetched (``extract(fetched=...)``, the response's HTTP ``Date`` header), never
against the machine's clock."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest
from test_metadata_dates import page

from scrapy_mainc import extract
from scrapy_mainc.metadata._datetext import MAX_TEXT_DATES
from scrapy_mainc.metadata._relative import fetched_moment, find_relative_dates

#: A Date header as servers send it (a Tuesday).
HEADER = "Tue, 19 Nov 2019 08:12:31 GMT"


def published(html: str, fetched: str | datetime | None = HEADER) -> tuple[str, str]:
    metadata = extract(html, fetched=fetched).metadata
    return metadata.published, metadata.published_from


@pytest.mark.parametrize(
    ("dateline", "lang", "expected"),
    [
        ("3 hours ago", "en", "2019-11-19T05:12:31+00:00"),
        ("Published 25 minutes ago", "en", "2019-11-19T07:47:31+00:00"),
        ("an hour ago", "en", "2019-11-19T07:12:31+00:00"),
        ("2 days ago", "en", "2019-11-17"),
        ("Yesterday at 10:30", "en", "2019-11-18T10:30:00"),
        ("yesterday", "en", "2019-11-18"),
        ("Today, 9:05", "en", "2019-11-19T09:05:00"),
        ("vor 2 Stunden", "de", "2019-11-19T06:12:31+00:00"),
        ("vor einem Tag", "de", "2019-11-18"),
        ("il y a 3 jours", "fr", "2019-11-16"),
        ("hace 2 horas", "es", "2019-11-19T06:12:31+00:00"),
        ("3小时前", "zh", "2019-11-19T05:12:31+00:00"),
        ("昨天 08:30", "zh", "2019-11-18T08:30:00"),
        # a day without a year: the year of the fetch, or the one before for a later day
        ("Posted Nov 18, 8:19 PM", "en", "2019-11-18T20:19:00"),
        ("18. November", "de", "2019-11-18"),
        ("Dec 30", "en", "2018-12-30"),
        ("11月18日 08:19", "zh", "2019-11-18T08:19:00"),
    ],
)
def test_relative_and_partial_datelines_are_read_against_the_fetch(
    dateline: str, lang: str, expected: str
) -> None:
    html = page(body=f"<p class='meta'>{dateline}</p>", lang=lang)
    assert published(html) == (expected, "dateline")


def test_without_a_fetch_time_they_give_no_date() -> None:
    # never resolved against the machine's clock: the extraction may run long after the crawl
    for dateline in ("3 hours ago", "Yesterday at 10:30", "Posted Nov 18, 8:19 PM", "vor 2 Stunden"):
        assert published(page(body=f"<p class='meta'>{dateline}</p>"), fetched=None) == ("", "")


def test_a_header_that_cannot_be_read_is_ignored() -> None:
    html = page(body="<p class='meta'>3 hours ago</p>")
    assert published(html, fetched="yesterday-ish") == ("", "")
    assert (
        fetched_moment("not a date") is None and fetched_moment("") is None and fetched_moment(None) is None
    )


def test_fetch_time_forms() -> None:
    moment = datetime(2019, 11, 19, 8, 12, 31, tzinfo=timezone.utc)
    assert fetched_moment(HEADER) == moment
    assert fetched_moment("Tuesday, 19-Nov-19 08:12:31 GMT") == moment  # RFC 850
    assert fetched_moment("Tue Nov 19 08:12:31 2019") == moment  # asctime
    assert fetched_moment(datetime(2019, 11, 19, 8, 12, 31)) == moment  # naive: UTC
    html = page(body="<p class='meta'>3 hours ago</p>")
    assert published(html, fetched=moment) == ("2019-11-19T05:12:31+00:00", "dateline")


def test_a_full_date_wins_over_a_relative_one_further_away() -> None:
    html = page(body="<p class='meta'>November 15, 2019</p><p>Updated 3 hours ago</p>")
    metadata = extract(html, fetched=HEADER).metadata
    assert (metadata.published, metadata.modified) == ("2019-11-15", "2019-11-19T05:12:31+00:00")


def test_a_relative_date_in_a_sentence_is_no_dateline() -> None:
    html = page(body="<p>The fire broke out three hours ago near the river and 2 days ago in town.</p>")
    assert published(html) == ("", "")


def test_the_fetch_time_bounds_plausible_dates() -> None:
    # a page fetched in 2019 cannot be dated 2021, whatever the machine's clock says
    html = page(body="<p class='meta'>March 3, 2021</p>")
    assert published(html) == ("", "")
    assert published(html, fetched=None) == ("2021-03-03", "dateline")


def test_a_shops_delivery_date_and_deals_are_no_dateline() -> None:
    # relative dates and days without a year count only when labelled or standing alone
    body = "<p>Order by Dec 20 for delivery before the holidays.</p><p>Today's deals</p>"
    assert published(page(body=body), fetched="Tue, 12 Dec 2023 08:00:00 GMT") == ("", "")


def test_a_text_of_nothing_but_relative_dates_is_read_up_to_the_cap() -> None:
    moment = fetched_moment(HEADER)
    assert moment is not None
    found = find_relative_dates("1 day ago, " * 5000, moment, [])
    assert len(found) == MAX_TEXT_DATES and found[0].value == "2019-11-18"
