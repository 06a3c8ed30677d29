"""Publication and modification dates: every evidence kind, conflicts, and pages without."""

from __future__ import annotations

import json
from datetime import date

import pytest

from helpers import document
from scrapy_mainc import extract
from scrapy_mainc.core._datetext import find_text_dates, parse_machine_date, url_date
from scrapy_mainc.metadata._dates import find_dates

TODAY = date(2024, 1, 10)
ARTICLE_TEXT = "<p>" + "The council met on Tuesday to discuss the budget for the coming year. " * 6 + "</p>"


def page(
    head: str = "", body: str = "", title: str = "Bridge reopens after repairs", lang: str = "en"
) -> str:
    """A news page: ``head`` in <head>, then the headline, ``body`` and the article text."""
    return (
        f"<html lang='{lang}'><head><title>{title} | City News</title>{head}</head><body>"
        f"<nav><a href='/'>Home</a> <a href='/news'>News</a></nav><article><h1>{title}</h1>{body}"
        f"{ARTICLE_TEXT}</article></body></html>"
    )


def dates(html: str, url: str | None = None, today: date = TODAY) -> tuple[str, str]:
    return find_dates(document(html, url), today=today)[:2]


def jsonld(*objects: object) -> str:
    return f"<script type='application/ld+json'>{json.dumps(list(objects))}</script>"


def meta(name: str, content: str, attribute: str = "name") -> str:
    return f"<meta {attribute}='{name}' content='{content}'>"


# --- evidence kinds -------------------------------------------------------------------


def test_jsonld_article_dates_with_offset() -> None:
    article = {
        "@type": "NewsArticle",
        "headline": "Bridge reopens after repairs",
        "datePublished": "2023-12-22T10:30:00+08:00",
        "dateModified": "2023-12-23T09:00:00+0800",
    }
    assert dates(page(jsonld(article))) == ("2023-12-22T10:30:00+08:00", "2023-12-23T09:00:00+08:00")


def test_jsonld_graph_date_only_and_date_created() -> None:
    graph = {"@context": "https://schema.org", "@graph": [{"@type": "Article", "dateCreated": "2023-12-22"}]}
    assert dates(page(jsonld(graph))) == ("2023-12-22", "")


def test_jsonld_page_object_dates_an_undated_article() -> None:
    objects = [{"@type": "WebPage", "datePublished": "2023-12-21"}, {"@type": "NewsArticle", "headline": "x"}]
    assert dates(page(jsonld(*objects))) == ("2023-12-21", "")


def test_jsonld_without_article_uses_the_dated_object() -> None:
    assert dates(page(jsonld({"@type": "Event", "datePublished": "2023-11-30"}))) == ("2023-11-30", "")


def test_malformed_jsonld_is_passed_over_for_the_meta_date() -> None:
    broken = '<script type=\'application/ld+json\'>{"@type": "NewsArticle", "datePublished": </script>'
    head = broken + meta("article:published_time", "2023-12-20T08:00:00+01:00", "property")
    assert dates(page(head)) == ("2023-12-20T08:00:00+01:00", "")


def test_several_jsonld_articles_the_one_of_this_url() -> None:
    objects = [
        {"@type": "NewsArticle", "url": "https://news.example/other-story", "datePublished": "2023-11-01"},
        {"@type": "NewsArticle", "url": "https://news.example/bridge", "datePublished": "2023-12-22"},
    ]
    assert dates(page(jsonld(*objects)), url="https://www.news.example/bridge?utm=x") == ("2023-12-22", "")


def test_several_jsonld_articles_none_of_this_page_give_no_date() -> None:
    objects = [
        {
            "@type": "NewsArticle",
            "url": "https://news.example/a",
            "headline": "A",
            "datePublished": "2023-11-01",
        },
        {
            "@type": "NewsArticle",
            "url": "https://news.example/b",
            "headline": "B",
            "datePublished": "2023-11-02",
        },
    ]
    assert dates(page(jsonld(*objects)), url="https://news.example/bridge") == ("", "")


def test_microdata_time_and_meta_itemprop() -> None:
    body = "<p>By Ann Lee <time itemprop='datePublished' datetime='2023-12-22T07:15:00Z'>22 Dec</time></p>"
    assert dates(page(body=body)) == ("2023-12-22T07:15:00+00:00", "")
    head = meta("datePublished", "2023-12-19", "itemprop") + meta("dateModified", "2023-12-21", "itemprop")
    assert dates(page(head)) == ("2023-12-19", "2023-12-21")


def test_microdata_nearest_the_headline() -> None:
    teaser = (
        "<div itemscope itemtype='https://schema.org/NewsArticle'><a href='/other'>Other story</a>"
        "<time itemprop='datePublished' datetime='2023-11-01'>1 Nov</time></div>"
    )
    own = "<p>By Ann Lee <time itemprop='datePublished' datetime='2023-12-22'>22 Dec</time></p>"
    html = page(body=own).replace("<article>", f"<div>{teaser}</div><article>")
    assert dates(html) == ("2023-12-22", "")


def test_microdata_text_value() -> None:
    body = "<span itemprop='datePublished'>December 22, 2023</span>"
    assert dates(page(body=body)) == ("2023-12-22", "")


@pytest.mark.parametrize(
    ("name", "attribute"),
    [
        ("article:published_time", "property"),
        ("og:published_time", "property"),
        ("date", "name"),
        ("dc.date", "name"),
        ("DC.date.issued", "name"),
        ("dcterms.created", "name"),
        ("pubdate", "name"),
        ("publishdate", "name"),
        ("publish-date", "name"),
        ("sailthru.date", "name"),
        ("parsely-pub-date", "name"),
        ("citation_publication_date", "name"),
        ("citation_date", "name"),
        ("article.published", "name"),
        ("cXenseParse:recs:publishtime", "name"),
    ],
)
def test_meta_names(name: str, attribute: str) -> None:
    assert dates(page(meta(name, "2023-12-18 14:05:00"))) == ("2023-12-18T14:05:00", "")


def test_meta_modified_names_and_order() -> None:
    head = (
        meta("og:updated_time", "2023-12-21T10:00:00+00:00", "property")
        + meta("article:modified_time", "2023-12-20T10:00:00+00:00", "property")
        + meta("article:published_time", "2023-12-19", "property")
    )
    assert dates(page(head)) == ("2023-12-19", "2023-12-20T10:00:00+00:00")


def test_parsely_page_json() -> None:
    value = json.dumps({"title": "Bridge", "pub_date": "2023-12-17T06:00:00Z"}).replace('"', "&quot;")
    assert dates(page(f"<meta name='parsely-page' content=\"{value}\">")) == ("2023-12-17T06:00:00+00:00", "")


def test_time_element_near_the_headline() -> None:
    body = "<p class='byline'>By Ann Lee, <time datetime='2023-12-22T10:30:00+08:00'>Friday</time></p>"
    assert dates(page(body=body)) == ("2023-12-22T10:30:00+08:00", "")


def test_time_element_text_shows_the_local_day() -> None:
    body = "<time datetime='2023-12-23T02:24:00+00:00'>Dec 22, 2023 at 9:24 pm ET</time>"
    assert dates(page(body=body)) == ("2023-12-22T21:24:00", "")


@pytest.mark.parametrize(
    ("dateline", "lang", "expected"),
    [
        ("Published December 22, 2023", "en", "2023-12-22"),
        ("Dec. 22, 2023 at 5:30 p.m.", "en", "2023-12-22T17:30:00"),
        ("22. Dezember 2023, 10:30 Uhr", "de", "2023-12-22T10:30:00"),
        ("Stand: 22.12.2023", "de", "2023-12-22"),
        ("22/12/2023", "en-GB", "2023-12-22"),
        ("12/22/2023", "en", "2023-12-22"),
        ("05/06/2023", "en-US", "2023-05-06"),
        ("05/06/2023", "fr", "2023-06-05"),
        ("le 22 décembre 2023", "fr", "2023-12-22"),
        ("22 de diciembre de 2023", "es", "2023-12-22"),
        ("22 декабря 2023 г.", "ru", "2023-12-22"),
        ("2023. december 22.", "hu", "2023-12-22"),
        ("2023年12月22日 10:30", "zh", "2023-12-22T10:30:00"),
        ("发布时间：2023-12-22 08:01 来源：新华网", "zh", "2023-12-22T08:01:00"),
        ("31.10.23", "de", "2023-10-31"),
    ],
)
def test_visible_datelines(dateline: str, lang: str, expected: str) -> None:
    body = f"<p class='meta'>{dateline}</p>"
    published, _ = dates(page(body=body, lang=lang))
    assert published == expected


def test_relative_dates_are_not_dates() -> None:
    assert dates(page(body="<p>vor 2 Stunden</p>", lang="de")) == ("", "")


def test_dateline_above_the_headline() -> None:
    html = (
        "<html><head><title>Storm hits the coast</title></head><body><div><span>News</span>"
        "<span>Monday, 18 December 2023</span></div><h1>Storm hits the coast</h1>"
        f"{ARTICLE_TEXT}</body></html>"
    )
    assert dates(html) == ("2023-12-18", "")


def test_chinese_page_without_heading_element() -> None:
    html = (
        "<html><head><title>春茶开采 茶农盼个好价钱--西岭资讯网</title></head><body><table><tr><td>"
        "<b>春茶开采 茶农盼个好价钱</b></td></tr><tr><td>2005年04月27日 14:32 来源：新华网</td></tr>"
        "<tr><td>"
        + "今年春茶开采时间比往年提前了一周，茶农们忙着采摘新茶。" * 10
        + "</td></tr></table></body></html>"
    )
    assert dates(html) == ("2005-04-27T14:32:00", "")


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("https://news.example/2023/12/22/bridge-reopens/", "2023-12-22"),
        ("https://news.example/news/20231222/bridge.html", "2023-12-22"),
        ("https://news.example/2023-12-22-bridge-reopens", "2023-12-22"),
        ("https://news.example/2023/12/bridge-reopens/", ""),
        ("https://news.example/story/20231399/bridge", ""),
    ],
)
def test_url_dates(url: str, expected: str) -> None:
    assert url_date(url) == expected
    assert dates(page(), url=url) == (expected, "")


# --- conflicts and plausibility ----------------------------------------------------------


def test_jsonld_wins_over_a_visible_date() -> None:
    head = jsonld({"@type": "NewsArticle", "datePublished": "2023-12-20T09:00:00+01:00"})
    body = "<p class='date'>December 27, 2023</p>"
    assert dates(page(head, body)) == ("2023-12-20T09:00:00+01:00", "")


def test_implausible_jsonld_date_gives_way_to_the_visible_one() -> None:
    head = jsonld({"@type": "NewsArticle", "datePublished": "1970-01-01T00:00:00Z"})
    body = "<p class='date'>December 27, 2023</p>"
    assert dates(page(head, body)) == ("2023-12-27", "")


def test_future_dates_are_implausible_and_today_is_injectable() -> None:
    head = meta("article:published_time", "2024-01-11", "property")
    assert dates(page(head), today=date(2024, 1, 10)) == ("2024-01-11", "")  # tomorrow: time zones
    assert dates(page(head), today=date(2024, 1, 9)) == ("", "")


def test_utc_time_one_day_off_takes_the_day_the_page_shows() -> None:
    head = meta("article:published_time", "2023-12-23T03:10:00Z", "property")
    body = "<p class='date'>December 22, 2023</p>"
    assert dates(page(head, body)) == ("2023-12-22", "")
    afternoon = meta(
        "article:published_time", "2023-12-23T16:10:00Z", "property"
    )  # no zone makes it the 22nd
    assert dates(page(afternoon, body)) == ("2023-12-23T16:10:00+00:00", "")


def test_the_claim_the_page_shows_wins_among_markup_claims() -> None:
    head = jsonld({"@type": "NewsArticle", "datePublished": "2015-01-16T14:53:35+01:00"}) + meta(
        "article:published_time", "2017-12-01T12:01:11+01:00", "property"
    )
    body = "<p class='date'>01.12.2017</p>"
    assert dates(page(head, body, lang="de")) == ("2017-12-01T12:01:11+01:00", "")


def test_modified_before_published_is_dropped() -> None:
    article = {"@type": "NewsArticle", "datePublished": "2023-12-22", "dateModified": "2023-12-20"}
    assert dates(page(jsonld(article))) == ("2023-12-22", "")
    same_day = {"@type": "NewsArticle", "datePublished": "2023-12-22T10:00:00", "dateModified": "2023-12-22"}
    assert dates(page(jsonld(same_day))) == ("2023-12-22T10:00:00", "2023-12-22")


def test_published_and_updated_datelines() -> None:
    body = "<p>Published December 22, 2023</p><p>Updated December 23, 2023</p>"
    assert dates(page(body=body)) == ("2023-12-22", "2023-12-23")
    assert dates(page(body="<p>Updated: December 23, 2023</p>")) == ("2023-12-23", "2023-12-23")


# --- what is not a publication date ----------------------------------------------------------


def test_copyright_only_page() -> None:
    html = (
        "<html><head><title>About us</title></head><body><h1>About us</h1>"
        f"{ARTICLE_TEXT}<footer>Copyright 01.01.2023 City News. © 2023</footer></body></html>"
    )
    assert dates(html) == ("", "")


def test_comment_dates_are_not_the_article_date() -> None:
    comments = "".join(
        f"<div class='comment'><span>Reader {n}</span> <span>December {n}, 2023</span><p>Agreed.</p></div>"
        for n in (20, 21, 22)
    )
    html = page(body="<p>By Ann Lee</p>").replace(
        "</article>", f"</article><section id='comments'>{comments}</section>"
    )
    assert dates(html) == ("", "")


def test_related_story_dates_are_not_the_article_date() -> None:
    related = "<aside class='related-stories'><a href='/x'>Old story</a> <span>March 3, 2021</span></aside>"
    body = related + "<p class='date'>December 22, 2023</p>"
    assert dates(page(body=body)) == ("2023-12-22", "")
    assert dates(page(body=related)) == ("", "")


def test_a_date_in_the_prose_ranks_after_the_dateline() -> None:
    body = (
        "<p>FILE PHOTO: The minister speaks at a conference in Paris, France, January 16, 2020. "
        "Photographer via a news agency, who took many pictures there.</p><p>January 18, 2020</p>"
    )
    assert dates(page(body=body)) == ("2020-01-18", "")


def test_listing_page() -> None:
    teasers = "".join(
        f"<div class='teaser'><h2><a href='/s{n}'>Story number {n}</a></h2><span>{n}.12.2023</span>"
        f"<p>Summary of story {n}.</p></div>"
        for n in range(10, 17)
    )
    html = (
        "<html lang='de'><head><title>City News</title></head><body><h1>Latest news</h1>"
        f"{teasers}</body></html>"
    )
    assert dates(html, url="https://news.example/") == ("", "")


def test_no_metadata_at_all() -> None:
    assert dates("<html><body><p>Hello there.</p></body></html>") == ("", "")
    assert dates(page()) == ("", "")
    empty = extract("")
    assert (empty.metadata.published, empty.metadata.modified) == ("", "")


def test_extract_reports_the_dates() -> None:
    html = page(meta("article:published_time", "2023-12-22T10:30:00+08:00", "property"))
    result = extract(html, url="https://news.example/bridge")
    assert result.metadata.published == "2023-12-22T10:30:00+08:00"
    assert extract(html, metadata=False).metadata.published == ""


# --- parsing ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("2023-12-22T10:30:00.123+0800", "2023-12-22T10:30:00+08:00"),
        ("2023-12-22T02:30:00Z", "2023-12-22T02:30:00+00:00"),
        ("2023-12-22 10:30 UTC+8", "2023-12-22T10:30:00+08:00"),
        ("2022-1-26T14:32:06+02:00", "2022-01-26T14:32:06+02:00"),
        ("20231222", "2023-12-22"),
        ("1703212200", "2023-12-22T02:30:00+00:00"),
        ("Fri, 22 Dec 2023 10:30:00 +0100", "2023-12-22T10:30:00+01:00"),
        ("Tue Jan 28 15:28:56 CET 2020", "2020-01-28T15:28:56"),
        ("2023-02-30", ""),
        ("soon", ""),
    ],
)
def test_machine_values(value: str, expected: str) -> None:
    assert parse_machine_date(value) == expected


def test_text_dates_skip_ranges_and_keep_positions() -> None:
    found = find_text_dates("Sale 2020/7/11-12, results 2020年07月12日 | 2020年7月11日～12日")
    assert [(item.value, item.start) for item in found] == [("2020-07-12", 27)]


# --- a generic meta date against the dateline ---------------------------------------------


@pytest.mark.parametrize("name", ["date", "Date", "created", "dc.date", "DCTERMS.date"])
def test_generic_meta_date_gives_way_to_the_dateline(name: str) -> None:
    # A content system's <meta name="date">: when the page was generated or saved, not published.
    head = meta(name, "2023-12-27T14:32:06+02:00")
    body = "<p class='meta'><time datetime='2023-12-21'>21.12.2023 - 13:30</time></p>"
    assert dates(page(head, body)) == ("2023-12-21", "")


def test_generic_meta_date_stands_without_a_dateline() -> None:
    assert dates(page(meta("date", "2023-12-27T14:32:06+02:00"))) == ("2023-12-27T14:32:06+02:00", "")


def test_generic_meta_date_beside_a_named_publication_date_is_not_checked() -> None:
    head = meta("date", "2023-12-27T14:32:06+02:00") + meta(
        "article:published_time", "2023-12-26T08:00:00+02:00", "property"
    )
    body = "<p class='meta'><time datetime='2023-12-21'>21.12.2023 - 13:30</time></p>"
    assert dates(page(head, body)) == ("2023-12-26T08:00:00+02:00", "")


def test_generic_meta_date_gives_its_source() -> None:
    body = "<p class='meta'><time datetime='2023-12-21'>21.12.2023 - 13:30</time></p>"
    found = find_dates(document(page(meta("date", "2023-12-27T14:32:06+02:00"), body)), today=TODAY)
    assert (found.published, found.published_from) == ("2023-12-21", "dateline")
    found = find_dates(document(page(meta("date", "2023-12-21T14:32:06+02:00"), body)), today=TODAY)
    assert (found.published, found.published_from) == ("2023-12-21", "dateline")
