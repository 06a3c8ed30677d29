"""Authors: every evidence kind on hand-built pages, and the credit reader on its own."""

from __future__ import annotations

import json

import pytest

from scrapy_mainc import extract
from scrapy_mainc.metadata._credits import Context, read_credit, site_keys

STORY = (
    "<p>"
    + "The council met on Monday and agreed on the plan for the new bridge over the river. " * 4
    + "</p>"
)


def _page(head: str = "", body: str = "", title: str = "Bridge plan agreed") -> str:
    return (
        f"<html><head><title>{title} | City News</title>{head}</head><body>"
        f"<nav><a href='/'>Home</a> <a href='/news'>News</a></nav>"
        f"<article><h1>{title}</h1>{body}{STORY}{STORY}</article></body></html>"
    )


def _jsonld(*objects: object) -> str:
    return "".join(f"<script type='application/ld+json'>{json.dumps(obj)}</script>" for obj in objects)


def _authors(page: str, url: str | None = "https://news.example.com/2023/bridge") -> tuple[str, ...]:
    return extract(page, url=url).metadata.authors


# JSON-LD


def test_jsonld_author_object_string_and_list() -> None:
    article = {"@type": "NewsArticle", "headline": "Bridge plan agreed"}
    assert _authors(_page(_jsonld({**article, "author": {"@type": "Person", "name": "Jane Doe"}}))) == (
        "Jane Doe",
    )
    assert _authors(_page(_jsonld({**article, "author": "John Roe"}))) == ("John Roe",)
    both = {**article, "author": [{"@type": "Person", "name": "Jane Doe"}, "John Roe", "Jane Doe"]}
    assert _authors(_page(_jsonld(both))) == ("Jane Doe", "John Roe")


def test_jsonld_graph_person_referenced_by_id() -> None:
    graph = {
        "@context": "https://schema.org",
        "@graph": [
            {"@type": "WebSite", "@id": "https://news.example.com/#site", "name": "City News"},
            {
                "@type": "Article",
                "headline": "Bridge plan agreed",
                "author": {"@id": "https://news.example.com/#/person/1"},
            },
            {"@type": "Person", "@id": "https://news.example.com/#/person/1", "name": "Ana Lima"},
        ],
    }
    assert _authors(_page(_jsonld(graph))) == ("Ana Lima",)


def test_jsonld_in_several_scripts_and_arrays_with_an_invalid_one() -> None:
    broken = '<script type=\'application/ld+json\'>{"@type": "NewsArticle", "author": </script>'
    listed = _jsonld(
        [
            {"@type": "BreadcrumbList"},
            {"@type": "NewsArticle", "headline": "Bridge plan agreed", "author": [{"name": "Mia Wong"}]},
        ]
    )
    assert _authors(_page(broken + listed)) == ("Mia Wong",)


def test_jsonld_with_raw_line_breaks_and_a_comment_wrapper() -> None:
    raw = (
        "<script type='application/ld+json'><!--\n"
        '{"@type": "NewsArticle", "description": "two\nlines", "author": {"name": "Ola Berg"}}\n-->'
        "</script>"
    )
    assert _authors(_page(raw)) == ("Ola Berg",)


def test_several_articles_the_one_of_the_page_url_wins() -> None:
    related = {"@type": "NewsArticle", "url": "https://news.example.com/other", "author": "Rita Moreno"}
    own = {"@type": "NewsArticle", "url": "https://news.example.com/2023/bridge", "author": "Sam Hill"}
    assert _authors(_page(_jsonld([related, own]))) == ("Sam Hill",)
    # no URL: the one whose headline is the page's
    by_headline = [{**related, "headline": "Other story"}, {**own, "headline": "Bridge plan agreed"}]
    assert _authors(_page(_jsonld(by_headline)), url=None) == ("Sam Hill",)


def test_jsonld_organisation_author_is_no_person() -> None:
    article = {"@type": "NewsArticle", "author": {"@type": "Organization", "name": "City News"}}
    assert _authors(_page(_jsonld(article))) == ()
    agency = {"@type": "NewsArticle", "author": {"@type": "Person", "name": "Reuters"}}
    assert _authors(_page(_jsonld(agency))) == ()


def test_jsonld_byline_with_label_and_job_title() -> None:
    article = {
        "@type": "NewsArticle",
        "author": {"@type": "person", "name": "By TOM KRISHER, AP Auto Writer"},
    }
    assert _authors(_page(_jsonld(article))) == ("TOM KRISHER",)


# microdata, meta names, rel=author


def test_microdata_author_with_nested_name_and_comment_authors_left_out() -> None:
    body = (
        "<div itemprop='author' itemscope itemtype='https://schema.org/Person'>"
        "<span itemprop='name'>Lea Kurz</span><span>Redakteurin</span></div>"
    )
    comments = (
        "<section class='comments'><div itemprop='author'><span itemprop='name'>Troll King</span></div>"
        "</section>"
    )
    page = _page(body=body).replace("</article>", f"</article>{comments}")
    assert _authors(page) == ("Lea Kurz",)


@pytest.mark.parametrize(
    ("head", "expected"),
    [
        ("<meta name='author' content='Jane Doe'>", ("Jane Doe",)),
        ("<meta property='article:author' content='https://facebook.com/janedoe'>", ()),
        ("<meta property='article:author' content='Jane Doe'>", ("Jane Doe",)),
        ("<meta name='dc.creator' content='Jane Doe'>", ("Jane Doe",)),
        ("<meta name='sailthru.author' content='By Jane Doe, Staff writer'>", ("Jane Doe",)),
        ("<meta name='parsely-author' content='Jane Doe'>", ("Jane Doe",)),
        (
            "<meta name='citation_author' content='Doe, Jane'><meta name='citation_author' content='Roe, John'>",
            ("Jane Doe", "John Roe"),  # library style, family name first
        ),
        (
            "<meta name='citation_author' content='Jane Doe'><meta name='citation_author' content='John Roe'>",
            ("Jane Doe", "John Roe"),
        ),
        ("<meta name='byl' content='By Jane Doe and John Roe'>", ("Jane Doe", "John Roe")),
        ("<meta name='parsely-page' content='{\"author\": \"Jane Doe\"}'>", ("Jane Doe",)),
        ("<meta name='author' content='City News'><meta property='og:site_name' content='City News'>", ()),
        ("<meta name='author' content='jdadmin'>", ()),
    ],
)
def test_meta_names(head: str, expected: tuple[str, ...]) -> None:
    assert _authors(_page(head)) == expected


def test_rel_author_link_in_the_byline() -> None:
    body = "<div class='meta'><a rel='author' href='/people/kim-lee'>Kim Lee</a></div>"
    assert _authors(_page(body=body)) == ("Kim Lee",)


# visible bylines


@pytest.mark.parametrize(
    ("byline", "expected"),
    [
        ("<p class='byline'>By <a href='/a'>Mike Wuerthele</a> and <a href='/b'>Malcolm Owen</a></p>",
         ("Mike Wuerthele", "Malcolm Owen")),
        ("<div class='credit'>By LISA MASCARO, MARY CLARE JALONICK and ERIC TUCKER</div>",
         ("LISA MASCARO", "MARY CLARE JALONICK", "ERIC TUCKER")),
        ("<div class='author'>Meg James, Staff Writer</div>", ("Meg James",)),
        ("<p>Von Anna Schmidt und Jonas Weber</p>", ("Anna Schmidt", "Jonas Weber")),
        ("<p>By Jane Doe jane.doe@example.com</p>", ("Jane Doe",)),
        ("<p>By John Roe https://twitter.com/johnroe</p>", ("John Roe",)),
        ("<p>By <a href='/r'>Bryan DeArdo</a> @BryanDeArdo Nov 18, 2019 at 9:24 pm ET</p>", ("Bryan DeArdo",)),
        ("<p>Written by Rachael Link, MS, RD on November 14, 2019</p>", ("Rachael Link",)),
        ("<p>By Reuters</p>", ()),  # an agency byline: no person, whatever the markup says
        ("<p>Текст: Венера Ерофеева</p>", ("Венера Ерофеева",)),
    ],
)  # fmt: skip
def test_english_german_russian_bylines(byline: str, expected: tuple[str, ...]) -> None:
    assert _authors(_page(body=byline)) == expected


def test_a_name_ending_in_a_job_word_is_not_cut_to_its_first_word() -> None:
    # "Writer", "Guest" as surnames read like a job title: no author rather than a half name
    # (a forum poster and their rank, "zboygirl Senior Member", still gives the user name)
    assert _authors(_page(body="<p class='byline'>By Jane Writer</p>")) == ()
    assert _authors(_page(body="<p class='byline'>By Christopher Guest</p>")) == ()
    forum = Context(accounts_are_people=True)
    for credit in ("zboygirl Senior Member", "zboygirl Member", "bigcat 版主"):
        assert read_credit(credit, forum).persons == [credit.split()[0]]


def test_visible_byline_wins_over_markup_and_lists_everyone() -> None:
    head = _jsonld({"@type": "NewsArticle", "author": {"@type": "Person", "name": "Stefan Becket"}})
    body = "<p class='content__meta'>By Stefan Becket, Kathryn Watson, Grace Segers</p>"
    assert _authors(_page(head, body)) == ("Stefan Becket", "Kathryn Watson", "Grace Segers")
    agency = "<p>By Reuters</p>"
    assert _authors(_page(head, agency)) == ()


def test_a_sentence_starting_with_by_is_no_byline() -> None:
    body = "<p>By the time the council met, the plan had changed.</p><p>By 2020 the bridge was open.</p>"
    assert _authors(_page(body=body)) == ()


ZH_STORY = "<p>" + "市政府今天召开会议，研究部署新大桥的建设工作，会议决定加快推进项目进度。" * 4 + "</p>"


def _zh_page(byline: str, after: str = "") -> str:
    return (
        "<html><head><title>大桥建设加快推进_新闻网</title></head><body>"
        f"<div class='main'><h1>大桥建设加快推进</h1>{byline}{ZH_STORY}{ZH_STORY}{after}</div></body></html>"
    )


@pytest.mark.parametrize(
    ("byline", "after", "expected"),
    [
        ("<p>文/记者 张三</p>", "", ("张三",)),
        ("<p>作者：李四</p>", "", ("李四",)),
        ("<p>本报记者 张三 李四</p>", "", ("张三", "李四")),
        ("<p>记者 王建宏、张文攀</p>", "", ("王建宏", "张文攀")),
        ("<p>来源：新华社</p>", "", ()),  # a source, not an author
        ("<p>来源：新华社 编辑：赵六</p>", "", ()),  # an editor, not an author
        ("", "<p>会议决定加快推进项目进度。（记者 王五）</p>", ("王五",)),
        ("", "<p>会议决定加快推进项目进度。（常书香 马丹阳）</p>", ("常书香", "马丹阳")),
        ("<p>本报记者罗科苏盈发自北京</p>", "", ("罗科", "苏盈")),
        ("<p>2004年7月16日08:19 [ 黄宇 ] 来源：[ 国际金融报 ]</p>", "", ("黄宇",)),
        ("<p>由海姑娘张贴 @ 2005-06-14 03:25:55</p>", "", ("海姑娘",)),
        ("<p><b>作者：</b><a href='/u'>芊草凡凡</a> <b>时间：</b>2005-08-22</p>", "", ("芊草凡凡",)),
    ],
)
def test_chinese_bylines(byline: str, after: str, expected: tuple[str, ...]) -> None:
    assert _authors(_zh_page(byline, after)) == expected


def test_korean_columnist_credit_at_the_end() -> None:
    story = "<p>" + "주말 밤 9시 두 방송사는 막장극의 대결로 붙는 경우가 흔하다. " * 6 + "</p>"
    page = (
        "<html><head><title>드라마 리뷰</title></head><body><div class='main'><h1>드라마 리뷰</h1>"
        f"{story}{story}<p>칼럼니스트 박생강 <a href='mailto:x@example.com'>x@example.com</a></p></div></body></html>"
    )
    assert _authors(page) == ("박생강",)


def test_page_without_any_metadata() -> None:
    result = extract("<html><body><p>Just a paragraph of text, nothing else here at all.</p></body></html>")
    assert result.metadata.authors == ()
    assert extract("").metadata.authors == ()


# the credit reader


@pytest.mark.parametrize(
    ("credit", "persons", "organisations"),
    [
        ("By Mike Wuerthele and Malcolm Owen", ["Mike Wuerthele", "Malcolm Owen"], []),
        ("Victor Tangermann, Futurism", ["Victor Tangermann"], ["Futurism"]),
        ("Tom Davies Associated Press", ["Tom Davies"], []),
        ("By MEG KINNARD and ERRIN HAINES, Associated Press", ["MEG KINNARD", "ERRIN HAINES"],
         ["Associated Press"]),
        ("The Associated Press", [], ["The Associated Press"]),
        ("HNN Staff", [], ["HNN Staff"]),
        ("European Space Agency", [], ["European Space Agency"]),
        ("Amy Kuperinsky | NJ Advance Media for NJ.com", ["Amy Kuperinsky"], ["NJ Advance Media for NJ.com"]),
        ("Sarah E. Needleman", ["Sarah E. Needleman"], []),
        ("Troy L. Smith, Cleveland.com", ["Troy L. Smith"], ["Cleveland.com"]),
        ("赵 培", ["赵培"], []),
        ("记者 张三、李四", ["张三", "李四"], []),
        ("大汉网络", [], ["大汉网络"]),
        ("정덕현 칼럼니스트", ["정덕현"], []),
        ("Regan", ["Regan"], []),
        ("admin", [], ["admin"]),
        ("kei_eno", [], ["kei_eno"]),
    ],
)  # fmt: skip
def test_read_credit(credit: str, persons: list[str], organisations: list[str]) -> None:
    found = read_credit(credit, Context(site_keys=site_keys("futurism")))
    assert (found.persons, found.organisations) == (persons, organisations)


def test_user_names_are_people_only_in_visible_credits() -> None:
    assert read_credit("作者:zboygirl", Context(accounts_are_people=True)).persons == ["zboygirl"]
    assert read_credit("zboygirl", Context()).persons == []
