"""Bylines as news sites lay them out (issue 19): affiliations after the names, the label in
an element of its own, names split over elements, author links, a name beside the date,
and the credits around them (photographers, buttons, the site's own name)."""

from __future__ import annotations

import pytest
from test_metadata_authors import _authors, _page

from scrapy_mainc.metadata._credits import Context, read_credit, site_keys


@pytest.mark.parametrize(
    ("byline", "expected"),
    [
        # an affiliation after "for": a publication, not part of the name
        ("<p class='byline'>By <span>Jane Doe For Eastgate.com</span></p>", ("Jane Doe",)),
        ("<p class='byline'>By Jane Doe For Daily Courier Australia</p>", ("Jane Doe",)),
        # an agency with its article after the name
        ("<p>By <span>Sean O'Hara The Associated Press</span></p>", ("Sean O'Hara",)),
        # a name ending in an initial keeps its full stop
        ("<p class='byline'>By <a href='/a'>Maria T.K.</a></p>", ("Maria T.K.",)),
        # the second name in its own element, after "and"
        ("<div class='byline__names'>By <span>Jane Doe</span> <span>and John Smith, CNN</span></div>",
         ("Jane Doe", "John Smith")),
        # the label in an element of its own, each name in another, "and" between them
        ("<p><span><span>By </span><a href='/a'>Jane Doe</a></span> and <span><a href='/b'>John Smith</a>"
         "</span></p>", ("Jane Doe", "John Smith")),
        # the photographer's credit after the writer's
        ("<p class='byline'><span>By</span> <a href='/a'>Jane Doe</a> <span>Photography by</span> "
         "<a href='/b'>John Smith</a></p>", ("Jane Doe",)),
        ("<p>By Jane Doe. Photos by John Smith</p>", ("Jane Doe",)),
        # contributors after the byline
        ("<div class='byline'><div>By <a href='/a'>Jane Doe</a></div><span>Contributions from <a href='/b'>"
         "John Smith</a>, <a href='/c'>Ann Lee</a></span></div>", ("Jane Doe",)),
        ("<p>By Jane Doe, with reporting by John Smith</p>", ("Jane Doe",)),
        # the buttons of an author box
        ("<div class='byline'>By <span>Social Links for</span> <a href='/a'>Ann Lee</a> "
         "<a href='/a'>View Author Archive</a> <a href='/rss'>Get author RSS feed</a></div>", ("Ann Lee",)),
        # a job title where a name should be
        ("<p class='byline'>By <a href='/a'>Executive Content Editor</a></p>", ()),
    ],
    ids=["for-domain", "for-paper", "the-agency", "initial", "and-element", "label-element", "photography",
         "photos", "contributions", "reporting", "buttons", "job-title"],
)  # fmt: skip
def test_bylines(byline: str, expected: tuple[str, ...]) -> None:
    assert _authors(_page(body=byline)) == expected


def test_the_sites_own_name_after_each_author_is_no_person() -> None:
    head = "<meta property='og:site_name' content='Harbor City Daily News'>"
    body = (
        "<div class='byline'>By <a href='/a'>Jane Doe</a> <span>Harbor City Daily News and</span> "
        "<a href='/b'>John Smith</a> <span>Harbor City Daily News</span></div>"
    )
    assert _authors(_page(head, body), url="https://www.hcdn.example/story") == (
        "Jane Doe",
        "John Smith",
    )


@pytest.mark.parametrize(
    ("credit", "persons", "organisations"),
    [
        ("Redazione Cronaca", [], ["Redazione Cronaca"]),
        ("NJ Advance Media for NJ.com", [], ["NJ Advance Media for NJ.com"]),  # no name before "for"
        ("Jane Doe for the Courier", ["Jane Doe"], []),
    ],
)
def test_read_credit(credit: str, persons: list[str], organisations: list[str]) -> None:
    found = read_credit(credit, Context(site_keys=site_keys("courier")))
    assert (found.persons, found.organisations) == (persons, organisations)


def test_a_link_to_the_authors_page_is_a_byline() -> None:
    link = "<a href='https://news.example.com/author/janedoe/'>Jane Doe</a>"
    body = f"<p class='e-date'>{link} - December 21, 2023</p>"
    assert _authors(_page(body=body)) == ("Jane Doe",)
    tag = "<p class='tags'><a href='https://news.example.com/tag/jane-doe/'>Jane Doe</a></p>"
    assert _authors(_page(body=tag)) == ()


def test_a_name_beside_the_date_under_the_headline() -> None:
    body = (
        "<span class='meta'><span><span>Jane Doe</span></span><span>Dec 05, 2023</span>"
        "<span><span>2 Shares</span><span>1530 Views</span></span></span>"
    )
    assert _authors(_page(body=body)) == ("Jane Doe",)
    section = "<span class='meta'><span>World News</span><span>Dec 05, 2023</span></span>"
    assert _authors(_page(body=section)) == ()
    tags = "<div class='story-meta'><div class='story-tags'>Winter Games</div><div>02 Feb. 2022</div></div>"
    assert _authors(_page(body=tags)) == ()


# Chinese bylines under a headline set in a table cell (old portal layouts): no heading, so
# the byline search starts where the page shows its headline, as the dateline search does

ZH_STORY = "<p>" + "市政府今天召开会议，研究部署新大桥的建设工作，会议决定加快推进项目进度。" * 4 + "</p>"
#: Toolbars and advertising cells between the credit line and the story (sixty elements).
ZH_FILLER = "<table>" + "<tr><td><a href='/x'><img src='/a.gif'></a></td></tr>" * 20 + "</table>"


def _zh_portal_page(credit_line: str) -> str:
    return (
        "<html><head><title>大桥建设加快推进_新闻网</title></head><body>"
        "<table><tr><td class='nav'><a href='/'>首页</a> &gt; <a href='/n'>国内新闻</a></td></tr></table>"
        "<table><tr><td class='title'><b>大桥建设加快推进</b></td></tr>"
        f"<tr><td class='info'>{credit_line}</td></tr></table>{ZH_FILLER}"
        f"<table><tr><td class='content'>{ZH_STORY}{ZH_STORY}</td></tr></table></body></html>"
    )


@pytest.mark.parametrize(
    ("credit_line", "expected"),
    [
        ("时间：2004年10月21日14:18 &nbsp;&nbsp; 作者：王建国", ("王建国",)),
        ("<font>2004年7月16日08:19 [ 李明 ]\ue5c2 来源：[ <a href='/p'>国际金融报</a> ]</font>", ("李明",)),
        ("时间：2004年10月21日14:18 编辑：王建国", ()),
        ("作者：王建国 责任编辑：李明", ("王建国",)),
    ],
    ids=["time-and-author", "bracketed-reporter", "editor-only", "author-and-editor"],
)
def test_chinese_credit_line_under_a_table_cell_headline(credit_line: str, expected: tuple[str, ...]) -> None:
    assert (
        _authors(_zh_portal_page(credit_line), url="https://business.example.cn/20041021/n1.shtml")
        == expected
    )
