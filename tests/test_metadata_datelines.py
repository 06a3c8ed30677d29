"""Which visible dates date the page, on pages without date markup (issue 19): a dateline
by the headline or the byline, labelled or standing alone, is one; a date inside the
article's sentences is not, and a page whose only dates are such gives no date."""

from __future__ import annotations

import pytest
from test_metadata_dates import ARTICLE_TEXT, dates, page


@pytest.mark.parametrize(
    "paragraph",
    [
        "<p>The senator announced at a rally on Nov. 6, 2019 that she would run again.</p>",
        "<p>Der nächste Stammtisch findet am Mi. 5. Februar 2020 ab 19 Uhr im Café statt.</p>",
        "<p>The report, which was first released on 3 March 2021, is now out of print.</p>",
        "<p>该项目于2023年12月22日正式启动，预计明年完工。</p>",
        "<p>Der Film lief im Kino. Die Premiere am 3. Februar 2019 besuchten mehr als zweitausend Gäste "
        "aus der ganzen Region.</p>",
    ],
    ids=["english", "german", "after-a-comma", "chinese", "german-nouns"],
)
def test_a_page_whose_only_date_is_in_its_prose_gives_none(paragraph: str) -> None:
    assert dates(page(body=paragraph)) == ("", "")


def test_a_prose_date_nearer_the_headline_loses_to_the_dateline() -> None:
    body = (
        "<p>The council said it would close the bridge on January 16, 2023 for a year.</p>"
        "<p>By Ann Lee</p><p>January 18, 2023</p>"
    )
    assert dates(page(body=body)) == ("2023-01-18", "")


@pytest.mark.parametrize(
    ("paragraph", "lang", "expected"),
    [
        ("<p>22.12.2023 - Der Rat hat am Dienstag über den Haushalt beraten und ihn beschlossen.</p>", "de",
         "2023-12-22"),
        ("<p>By Jane Doe and John Smith December 22, 2023</p>", "en", "2023-12-22"),
        ("<p>By Ann Lee • December 22, 2023 • 4 min read</p>", "en", "2023-12-22"),
        ("<p>Posted on December 22, 2023 by Ann Lee in the city section</p>", "en", "2023-12-22"),
        ("<p>时间：2023年12月22日 10:30 作者：张三</p>", "zh", "2023-12-22T10:30:00"),
        ("<p>本报讯 2023年12月22日，市政府召开新闻发布会。</p>", "zh", "2023-12-22"),
    ],
    ids=["opens-paragraph", "after-names", "between-bullets", "labelled", "chinese-label", "chinese-lead"],
)  # fmt: skip
def test_a_dateline_is_read_wherever_it_stands_by_the_headline(
    paragraph: str, lang: str, expected: str
) -> None:
    assert dates(page(body=paragraph, lang=lang))[0] == expected


def test_of_two_datelines_as_near_the_first_wins() -> None:
    # both dates are inside the headline (distance 0): document order decides, not the value
    html = page(title="Evening news of 16.10.2019 (repeat 16.1.2019)", lang="de")
    assert dates(html) == ("2019-10-16", "")


def test_the_article_text_alone_has_no_date() -> None:
    assert "20" not in ARTICLE_TEXT  # the helper page's own text names no year


# Non-news pages (kind 4): blogs, institutions, shops, forums. The date of the page's own
# content, not a sidebar's latest posts, a copyright year or a shop's delivery date.

SIDEBAR = (
    "<aside class='widget'><h3>Recent posts</h3><ul>"
    + "".join(
        f"<li><a href='/p{n}'>Post number {n}</a> <span>December {n}, 2023</span></li>" for n in (20, 18, 15)
    )
    + "</ul></aside>"
)


def _blog(before: str = "", own: str = "", after: str = "") -> str:
    return (
        "<html lang='en'><head><title>Bridge plan</title></head><body><div class='wrap'>"
        f"{before}<article><h1>Bridge plan</h1>{own}{ARTICLE_TEXT}{ARTICLE_TEXT}</article>{after}"
        "</div></body></html>"
    )


@pytest.mark.parametrize(
    ("html", "expected"),
    [
        (_blog(before=SIDEBAR), ""),
        (_blog(after=SIDEBAR), ""),
        (_blog(before=SIDEBAR, own="<p class='meta'>December 22, 2023</p>"), "2023-12-22"),
    ],
    ids=["sidebar-above", "sidebar-below", "own-date"],
)
def test_a_sidebars_latest_posts_do_not_date_the_post(html: str, expected: str) -> None:
    assert dates(html)[0] == expected


def test_the_pages_own_teaser_in_a_list_dates_it() -> None:
    # a section list that includes this very story: its item shows the page's headline
    items = "".join(
        f"<li><a href='/s{n}'>{headline}</a> <span>December {n}, 2023</span></li>"
        for n, headline in ((20, "Tram lines extended"), (18, "Bridge plan"), (15, "Market reopens"))
    )
    html = (
        "<html lang='en'><head><title>Bridge plan</title></head><body>"
        f"<div class='more'><ul>{items}</ul></div><div class='story'>{ARTICLE_TEXT}</div></body></html>"
    )
    assert dates(html)[0] == "2023-12-18"


def test_the_first_post_of_a_thread_dates_it() -> None:
    posts = "".join(
        f"<div class='post'><div class='author'>user{n}</div>"
        f"<div class='date'>Posted: 2023-12-{n} 10:00</div>{ARTICLE_TEXT}</div>"
        for n in (10, 12, 14)
    )
    head = "<html lang='en'><head><title>Bridge plan thread</title></head>"
    html = f"{head}<body><h1>Bridge plan thread</h1>{posts}</body></html>"
    assert dates(html)[0] == "2023-12-10T10:00:00"


def test_an_institutions_copyright_years_are_no_date() -> None:
    html = (
        "<html lang='en'><head><title>Parks department</title></head><body><h1>Parks department</h1>"
        f"{ARTICLE_TEXT}<footer>© 2023 City Council. Site by Acme, 2019.</footer></body></html>"
    )
    assert dates(html) == ("", "")
