"""Relative dates and days without a year (issue 19, kind 3): read against the moment the
page was fetched (``extract(fetched=...)``, the response's HTTP ``Date`` header), never
against the machine's clock."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest
from test_metadata_dates import page

from scrapy_mainc import extract
from scrapy_mainc.core._datetext import MAX_TEXT_DATES
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


@pytest.mark.parametrize(
    "sentence",
    [
        "<p>他在4年后的今天回到了这座城市。</p>",  # "four years later, today, he came back"
        "<p>今天是他的生日，全家人都来了。</p>",  # "today is his birthday"
        "<p>记者昨天从市政府获悉，新大桥将于明年通车。</p>",  # "the reporter learnt yesterday"
    ],
)
def test_a_chinese_relative_date_in_a_sentence_is_no_dateline(sentence: str) -> None:
    # Chinese has no lower-case words to show a sentence: Han characters run into the date
    assert published(page(body=sentence, lang="zh")) == ("", "")


def test_a_chinese_day_without_a_year_opening_a_sentence_is_no_dateline() -> None:
    # "On 5 March, we came to his farm...": the sentence's comma, then its words
    assert published(page(body="<p>3月 5日，我们来到他的农庄采访。</p>", lang="zh")) == ("", "")
    # a labelled one, or one set apart by a space, still is
    assert (
        published(page(body="<p class='meta'>发布时间：11月18日 08:19</p>", lang="zh"))[0]
        == "2019-11-18T08:19:00"
    )


# --- A date read against the fetch time is the last resort ------------------------------
# Every crawl passes the response's Date header; a date read against it ("2 days ago", a
# day without a year) must not displace a date the page states in full.


def test_a_relative_text_in_a_time_element_keeps_its_datetime() -> None:
    html = page(body="<p class='meta'><time datetime='2019-11-12T10:00:00'>2 days ago</time></p>")
    assert published(html) == ("2019-11-12T10:00:00", "dateline")
    assert published(html, fetched=None) == ("2019-11-12T10:00:00", "dateline")


def test_the_markup_date_is_not_contradicted_by_a_relative_dateline() -> None:
    # "Today" read on the day after the UTC time of the markup: not a day the page shows
    head = "<meta property='article:published_time' content='2019-11-18T21:10:29+00:00'>"
    html = page(head=head, body="<p class='meta'>Today</p>")
    assert published(html, fetched="Tue, 19 Nov 2019 12:00:00 GMT") == ("2019-11-18T21:10:29+00:00", "meta")
    # a day shown in full still counts in the page's own time zone
    shown = page(head=head, body="<p class='meta'>November 19, 2019</p>")
    assert published(shown, fetched="Tue, 19 Nov 2019 12:00:00 GMT") == ("2019-11-19", "dateline")


def test_a_relative_dateline_still_wins_over_a_full_date_further_down() -> None:
    # an embedded post's or a caption's full date in the article is no dateline
    tweet = "<blockquote><p>The ferry is back. — City Hall (@cityhall) November 2, 2019</p></blockquote>"
    assert published(page(body=f"<p class='meta'>3 hours ago</p>{tweet}")) == (
        "2019-11-19T05:12:31+00:00",
        "dateline",
    )
    caption = "<figure><figcaption>The old bridge, March 3, 2017</figcaption></figure>"
    html = page(body=f"<p class='meta'>Posted Nov 18, 8:19 PM</p>{caption}")
    assert published(html) == ("2019-11-18T20:19:00", "dateline")
    both = page(body="<p class='meta'>Posted 3 hours ago · Updated November 19, 2019 07:50</p>")
    metadata = extract(both, fetched=HEADER).metadata
    assert (metadata.published, metadata.modified) == ("2019-11-19T05:12:31+00:00", "2019-11-19T07:50:00")


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("昨天 08:30 来源：新华网", "2019-11-18T08:30:00"),
        ("11月18日 08:19 来源：新华网", "2019-11-18T08:19:00"),
        ("今天 08:00 阅读 1234", "2019-11-19T08:00:00"),
        ("来源：新华社，今天 08:00", "2019-11-19T08:00:00"),
    ],
)
def test_a_chinese_dateline_with_its_source_or_counter_is_read(line: str, expected: str) -> None:
    assert published(page(body=f"<p class='meta'>{line}</p>", lang="zh")) == (expected, "dateline")


def test_a_day_word_ending_a_name_is_no_date() -> None:
    # a newspaper's or a magazine's name, not "today"
    for byline in ("By Kevin Johnson USA TODAY", "Psychology Today"):
        assert published(page(body=f"<p class='meta'>{byline}</p>")) == ("", "")
        html = page(body=f"<p class='meta'>{byline}</p><p>More.</p><p class='meta'>November 15, 2019</p>")
        assert published(html) == ("2019-11-15", "dateline")
    assert published(page(body="<p class='meta'>Updated Today, 9:05</p>"))[0] == "2019-11-19T09:05:00"


def test_a_labelled_chinese_day_run_into_a_headline_is_no_dateline() -> None:
    # a "latest" list after a credit line: the label is the credit's, the day a teaser's
    html = page(body="<p>素材来源 官方发布 | 最新 11月14日冬奥看点 谷爱凌再度出战</p>", lang="zh")
    assert published(html) == ("", "")


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("发布于3小时前", "2019-11-19T05:12:31+00:00"),  # the Han before it are its label's
        ("发表于昨天 08:30", "2019-11-18T08:30:00"),
        ("11月18日 08:19来源：新华网", "2019-11-18T08:19:00"),  # a clock time closes the date
        ("11月18日星期一", "2019-11-18"),  # so does a weekday
    ],
)
def test_a_chinese_dateline_run_into_its_label_time_or_weekday_is_read(line: str, expected: str) -> None:
    assert published(page(body=f"<p class='meta'>{line}</p>", lang="zh")) == (expected, "dateline")


def test_a_day_word_with_a_time_after_a_name_is_a_date() -> None:
    # "USA TODAY" is never followed by a clock time
    for line, expected in (
        ("By Ann Lee Yesterday 10:30", "2019-11-18T10:30:00"),
        ("Reuters Today 9:05 AM", "2019-11-19T09:05:00"),
    ):
        assert published(page(body=f"<p class='meta'>{line}</p>")) == (expected, "dateline")


def test_a_full_dateline_is_not_taken_for_a_relative_one_of_the_same_day() -> None:
    # a "Yesterday" box further on resolves to the dateline's day: the dateline, shown in
    # full, still moves the markup's UTC time to the day the page shows
    head = "<meta property='article:published_time' content='2019-11-19T01:19:00+00:00'>"
    html = page(
        head=head, body="<p class='meta'>By Ann Lee | November 18, 2019</p><div class='box'>Yesterday</div>"
    )
    assert published(html) == ("2019-11-18", "dateline")


def test_the_days_of_an_agenda_run_into_chinese_text_still_make_it_a_list() -> None:
    # the items run into their text are no datelines, but they show the block is a list of
    # dated items, whose one standing date is no dateline either: the page's full date wins
    agenda = "".join(
        f"<p>{item}</p>"
        for item in (
            "12月10日 代表注册",
            "12月10日晚 院长联席会",
            "12月11日上午 开幕式",
            "12月11日下午 分组讨论",
        )
    )
    text = "<p>第四届中国经济学年会将在南开大学举行，来自全国各地的学者将参加会议。</p>"
    html = (
        "<html lang='zh'><head><title>第四届中国经济学年会</title></head><body>"
        "<div class='info'>2004-12-10 阅读10544次</div><h1>第四届中国经济学年会</h1>"
        f"<div class='agenda'>{agenda}</div>{text * 2}</body></html>"
    )
    assert published(html, fetched="Thu, 26 Nov 2026 12:00:00 GMT") == ("2004-12-10", "dateline")
