"""``auto``'s checks that its choice is the page's story: the headline's topic, other
stories beside it, legal and consent notices, and overlays."""

from __future__ import annotations

import pytest

from helpers import document, node_at
from scrapy_mainc import extract
from scrapy_mainc.algorithms import _blocks, _context, _notices, _story, auto
from scrapy_mainc.core._types import Document

#: What these tests check is what happens on articles (see conftest.pages_are_articles).
pytestmark = pytest.mark.usefixtures("pages_are_articles")

SENTENCE = "The council met on Monday, and it agreed on the plan for the new bridge."  # 15 words
OTHER = "The harbour festival drew record crowds, and the ferries ran late into the night."  # 14 words
NAV = "<nav>" + "".join(f"<a href='/s{n}'>Section {n}</a> " for n in range(8)) + "</nav>"

CONSENT = (
    "We and our partners store and access information on your device, such as cookies, and "
    "process personal data such as your IP address. Some partners rely on legitimate interest, "
    "which you can object to; others ask for your consent. You can withdraw your consent at any "
    "time in the privacy settings. Read our privacy policy and cookie policy to learn about your "
    "rights and the third parties we work with."
)
DISCLAIMER = (
    "免责声明：本网站所载文章凡注明来源为其他媒体的，均转载自其他媒体，并不代表本网站赞同其观点。"
    "版权声明：凡注明来源为本报的作品，版权均属本网站所有，未经书面授权，不得转载、摘编或复制。"
    "隐私保护：未经用户同意，本网站不会向任何第三方提供用户的个人信息。"
)
PRIVACY_NEWS = (
    "The data protection regulator fined a social network 40 million euros on Tuesday for showing "
    "advertisements based on what users read without asking for their consent first. The company said "
    "it would appeal. Investigators found that the network had kept personal data about its users' "
    "reading habits for up to seven years, far longer than it needed, and had shared some of it with "
    "advertisers. The regulator said the fine was the largest it had imposed since the new privacy "
    "rules took effect, and that two other companies were under investigation. Consumer groups welcomed "
    "the decision but said the fine was small next to the company's annual revenue."
)
LINKS = (
    "<ul class='more'>"
    + "".join(f"<li><a href='/m{n}'>More news number {n} today</a></li>" for n in range(12))
    + "</ul>"
)


def test_topic_is_headline_stems_cjk_bigrams_and_url_slug_words() -> None:
    topic = _story.page_topic(
        ["Council approves the bridge plan"], ["https://x.org/2024/05/new-bridge-tolls.html"]
    )
    # words of four letters or more, cut to five letters; the slug adds its own words
    assert topic.stems == {"counc", "appro", "bridg", "plan", "tolls"}
    assert topic.coverage("The council approved the plan.") == pytest.approx(3 / 5)  # counc appro plan
    assert _story.page_topic(["江边步道开放"], []).bigrams == {"江边", "边步", "步道", "道开", "开放"}
    assert _story.url_slug("https://x.org/news/123456.html") == ""  # an id, not a slug
    assert _story.url_slug("https://x.org/news/") == ""  # a section name
    assert not _story.page_topic(["Home"], []).usable  # fewer than two terms say nothing
    assert _story.page_topic(["Home"], []).coverage("home") == 0.0


def test_notices_are_dense_varied_legal_vocabulary() -> None:
    assert _notices.is_notice(CONSENT)
    assert _notices.is_notice(DISCLAIMER)
    # an article about a privacy case: 4 hits of 4 terms in 650 characters
    assert not _notices.is_notice(PRIVACY_NEWS)
    assert not _notices.is_notice(PRIVACY_NEWS + " It breached the cookie rules too.")  # 5 hits, too sparse
    assert not _notices.is_notice(SENTENCE * 20)
    # the thresholds: five hits of four terms, one per 130 characters
    assert not _notices.is_notice("cookie consent privacy gdpr")  # too short to say
    assert _notices.is_notice("cookie, consent, privacy, gdpr and one more cookie.")
    assert not _notices.is_notice("cookie, cookie, cookie, privacy, privacy and consent.")  # 3 terms
    assert not _notices.is_notice("cookie consent privacy gdpr cookie " + "x" * 700)  # too sparse


def _page(body: str, title: str = "Bridge plan agreed") -> str:
    return f"<html><head><title>{title}</title></head><body>{NAV}{body}</body></html>"


def _story_div(paragraphs: int = 2) -> str:
    return "<div class='story'><h1>Bridge plan agreed</h1>" + f"<p>{SENTENCE}</p>" * paragraphs + "</div>"


def _chosen(page: str) -> tuple[Document, _blocks.Regions, auto.AutoParams, auto.Choice | None]:
    """The page's document, its block regions, the default parameters and ``auto``'s choice."""
    doc = document(page)
    params = auto.AutoParams()
    regions = _blocks.block_regions(doc.stats)
    context = _context.block_context(doc, regions, params)
    return doc, regions, params, auto.choose(doc, regions, context, params)


def test_a_longer_story_beside_the_page_story_is_cut() -> None:
    feature = "<div class='feature'><h2>Festival night</h2>" + f"<p>{OTHER}</p>" * 6 + "</div>"
    page = _page(f"<div id='wrap'>{_story_div()}{feature}</div>")
    doc, regions, params, choice = _chosen(page)
    assert choice is not None and choice.root == node_at(doc, "//div[@id='wrap']")
    assert _story.foreign_parts(doc, regions, choice.totals, choice.root, params) == [
        node_at(doc, "//div[@class='feature']")
    ]
    assert extract(page).text == f"{SENTENCE}\n{SENTENCE}"
    assert "festival" in extract(page, check_story=False).text
    assert extract(page, check_notices=False).text == f"{SENTENCE}\n{SENTENCE}"


def test_a_thread_s_replies_are_not_another_story() -> None:
    # A question, then its answers under a heading of their own: on an article such a part
    # is another story, on a forum or Q&A thread the replies are the thread
    answers = "<div class='answers'><h2>2 Answers</h2>" + f"<p>{OTHER}</p>" * 6 + "</div>"
    page = _page(f"<div id='wrap'>{_story_div()}{answers}</div>")
    assert "festival" not in extract(page, page_type="article").text
    assert "festival" in extract(page, page_type="forum").text


def test_a_long_guide_s_sections_are_not_another_story() -> None:
    # A roundup: a short introduction, then a part of eight sections, each under its own
    # heading, two sentences each, no links. Its opening covers the headline's words
    # poorly and opens with a heading, as another story would; it is the guide's body
    picks = "".join(f"<h3>Pick {n}: the harbour ferry</h3><p>{OTHER}</p><p>{OTHER}</p>" for n in range(8))
    page = _page(f"<div id='wrap'>{_story_div(6)}<div class='picks'>{picks}</div></div>")
    doc = document(page)
    regions = _blocks.block_regions(doc.stats)
    part = node_at(doc, "//div[@class='picks']")
    assert _story.long_body(doc.stats, regions, part, auto.AutoParams())
    assert extract(page).text.count("festival") == 16
    assert "festival" not in extract(page, guide_min_sections=0).text
    # seven sections, or a part whose words are a third links, is read as before
    fewer = page.replace("<h3>Pick 7: the harbour ferry</h3>", "")
    assert "festival" not in extract(fewer).text
    # eight headings over fewer than ten sentences are no long body
    thin = page.replace(f"<p>{OTHER}</p><p>{OTHER}</p>", f"<p>{OTHER}</p>", 7)
    assert "festival" not in extract(thin).text
    # nor is the next story of an endless page, under its own headline
    next_story = page.replace("<div class='picks'>", "<div class='picks'><h1>Harbour festival night</h1>")
    assert "festival" not in extract(next_story).text
    linked = document(page.replace("<p>" + OTHER, "<p><a href='/x'>Read the festival story</a> " + OTHER))
    linked_part = node_at(linked, "//div[@class='picks']")
    regions = _blocks.block_regions(linked.stats)
    assert not _story.long_body(linked.stats, regions, linked_part, auto.AutoParams())


def test_a_section_with_story_after_it_is_not_another_story() -> None:
    # The story, a section under its own heading ("Festival night") whose opening covers
    # the headline's words poorly, then more of the story: the section is inside the story
    feature = "<div class='feature'><h2>Festival night</h2>" + f"<p>{OTHER}</p>" * 6 + "</div>"
    more = f"<div class='more'><p>{SENTENCE}</p></div>"
    page = _page(f"<div id='wrap'>{_story_div()}{feature}{more}</div>")
    doc = document(page)
    regions = _blocks.block_regions(doc.stats)
    part, later = node_at(doc, "//div[@class='feature']"), [node_at(doc, "//div[@class='more']")]
    assert _story.inner_section(doc.stats, regions, part, later, auto.AutoParams())
    assert extract(page).text.count("festival") == 6
    assert "festival" not in extract(page, keep_inner_sections=False).text
    # the same part at the end is another story appended to the page's
    # (test_a_longer_story_beside_the_page_story_is_cut)
    assert not _story.inner_section(doc.stats, regions, part, [], auto.AutoParams())
    # and text after it that is no sentence (a short line) does not make it a section
    short = page.replace(f"<p>{SENTENCE}</p></div></div>", "<p>Share this story now</p></div></div>")
    assert "festival" not in extract(short).text


@pytest.mark.parametrize(
    ("opening", "heading", "closing"),
    [
        ("<div class='feature'><h3>Late ferries</h3>", "h2", "</div>"),  # two headings
        ("<aside class='feature'>", "h2", "</aside>"),  # a unit of its own
        ("<dialog class='feature' open>", "h2", "</dialog>"),  # an overlay (closed ones: test_dom)
        ("<div class='feature'>", "h1", "</div>"),  # a headline of its own
    ],
)
def test_a_story_of_its_own_is_no_section(opening: str, heading: str, closing: str) -> None:
    # the part of the test above, with story after it, but a story of its own: cut
    feature = f"{opening}<{heading}>Festival night</{heading}>" + f"<p>{OTHER}</p>" * 6 + closing
    page = _page(f"<div id='wrap'>{_story_div()}{feature}<div class='more'><p>{SENTENCE}</p></div></div>")
    assert "festival" not in extract(page).text
    doc = document(page)
    part, later = node_at(doc, "//*[@class='feature']"), [node_at(doc, "//div[@class='more']")]
    regions = _blocks.block_regions(doc.stats)
    assert not _story.inner_section(doc.stats, regions, part, later, auto.AutoParams())


def test_only_the_story_s_own_text_makes_a_section() -> None:
    # Two appended stories in a row: the first is followed by the second's prose, which is
    # cut itself; both go. A feature before the story (the story is the text after it) goes.
    feature = "<div class='feature'><h2>Festival night</h2>" + f"<p>{OTHER}</p>" * 6 + "</div>"
    second = "<div class='second'><h2>Ferry timetable</h2>" + f"<p>{OTHER}</p>" * 6 + "</div>"
    two = _page(f"<div id='wrap'>{_story_div(6)}{feature}{second}</div>")
    assert "festival" not in extract(two).text
    assert extract(two, keep_inner_sections=False).text == extract(two).text
    before = _page(f"<div id='wrap'>{feature}{_story_div(6)}</div>")
    assert "festival" not in extract(before).text


def test_a_part_without_a_story_headline_is_not_another_story() -> None:
    # Same page, but the other part opens with prose (a fact box among the sections of
    # the story, a continuation): low coverage alone does not make it another story.
    box = "<div class='box'>" + f"<p>{OTHER}</p>" * 6 + "</div>"
    assert "festival" in extract(_page(f"<div id='wrap'>{_story_div()}{box}</div>")).text
    # a question heading (h4) titles a section of one story, not another story
    box = "<div class='box'><h4>Who came?</h4>" + f"<p>{OTHER}</p>" * 6 + "</div>"
    assert "festival" in extract(_page(f"<div id='wrap'>{_story_div()}{box}</div>")).text


def test_alike_columns_are_one_body() -> None:
    # Two alike containers, neither holding the headline (which sits in a header above):
    # columns of one story, even when the second shares none of the headline's words.
    columns = (
        "<div class='column'><h2>Vote</h2>" + f"<p>{SENTENCE}</p>" * 3 + "</div>"
        "<div class='column'><h2>Festival</h2>" + f"<p>{OTHER}</p>" * 5 + "</div>"
    )
    page = _page(f"<header><h1>Bridge plan agreed</h1></header><div id='wrap'>{columns}</div>")
    assert "festival" in extract(page).text
    # when one of the alike containers holds the headline, they are posts of a feed
    feed = columns.replace("<h2>Vote</h2>", "<h1>Bridge plan agreed</h1>")
    assert "festival" not in extract(_page(f"<div id='wrap'>{feed}</div>")).text


def test_a_notice_beside_the_story_is_cut_unless_the_page_is_about_it() -> None:
    notice = "<div class='x7'>" + f"<p>{CONSENT}</p>" * 3 + "</div>"
    page = _page(f"<div id='wrap'>{_story_div(3)}{notice}</div>")
    assert extract(page).text == "\n".join([SENTENCE] * 3)
    assert "cookie" in extract(page, check_notices=False).text
    assert extract(page, check_story=False).text == "\n".join([SENTENCE] * 3)  # notices alone
    # a page whose headline is about the notice's subject keeps it
    about = _page(
        f"<div id='wrap'>{_story_div(3)}{notice}</div>", title="Partners store cookies and personal data"
    )
    assert "cookie" in extract(about).text


def test_a_chinese_disclaimer_beside_the_story_is_cut() -> None:
    story = (
        "<div class='txt'><p>记者从市园林局获悉，沿江步道三期工程已经完工，本周六起全线向市民开放。</p></div>"
    )
    page = (
        "<html><head><title>江边步道全线开放_滨江日报</title></head><body>"
        f"<div class='tt'>江边步道全线开放</div>{story}"
        f"<div class='bq'><p>{DISCLAIMER}</p><p>{DISCLAIMER}</p></div></body></html>"
    )
    assert extract(page).text == "记者从市园林局获悉，沿江步道三期工程已经完工，本周六起全线向市民开放。"
    assert "免责声明" in extract(page, check_notices=False).text


def test_a_story_elsewhere_wins_over_a_longer_one_that_the_headline_does_not_lead_to() -> None:
    # The feature wins alone: a link list lies between the page's story and it.
    links = LINKS
    feature = "<div class='rail'><h3>Festival night</h3>" + f"<p>{OTHER}</p>" * 8 + "</div>"
    page = _page(f"{_story_div(3)}{links}{feature}")
    doc, regions, params, choice = _chosen(page)
    assert choice is not None and choice.root == node_at(doc, "//div[@class='rail']")
    # 3 sentences, 45 words of value, lie between the headline and the feature
    assert _story.story_elsewhere(doc, choice.values, choice.root, 30.0)
    assert not _story.story_elsewhere(doc, choice.values, choice.root, 50.0)
    assert extract(page).text == "\n".join([SENTENCE] * 3)
    assert "festival" in extract(page, check_story=False).text


def test_a_notice_that_wins_alone_gives_way_without_a_headline() -> None:
    links = LINKS
    notice = "<div class='x7'>" + f"<p>{CONSENT}</p>" * 3 + "</div>"
    page = f"<html><body><div class='story'>{f'<p>{SENTENCE}</p>' * 3}</div>{links}{notice}</body></html>"
    assert document(page).headline == -1
    assert extract(page).text == "\n".join([SENTENCE] * 3)
    assert "cookie" in extract(page, check_notices=False).text


def test_a_teaser_heading_is_not_the_headline() -> None:
    # A most-read list links to this very story before the story itself.
    page = _page("<ul><li><h3><a href='/bridge'>Bridge plan agreed</a></h3></li></ul>" + _story_div())
    doc = document(page)
    assert doc.headline == node_at(doc, "//div[@class='story']/h1")


@pytest.mark.parametrize(
    "overlay", ["<dialog open>{}</dialog>", "<dialog class='ovl' open><div>{}</div></dialog>"]
)
def test_overlays_are_cut(overlay: str) -> None:
    # an open dialog; preparation empties the closed ones and the dialog roles (test_dom)
    prompt = overlay.format("<p>Subscribe today, and you get the first month free of charge with us.</p>")
    page = _page(f"<div id='wrap'>{_story_div(3)}{prompt}</div>")
    assert "Subscribe" not in extract(page).text
    assert "Subscribe" in extract(page, cut_overlays=False).text


def test_an_overlay_holding_the_headline_is_the_story() -> None:
    page = _page(f"<div role='dialog'>{_story_div(3)}</div>{LINKS}<div><p>{OTHER}</p></div>")
    doc = document(page)
    assert doc.stats.words[node_at(doc, "//div[@role='dialog']")] < 0.5 * doc.stats.words[0]  # not a wrapper
    assert extract(page).text == "\n".join([SENTENCE] * 3)


def test_a_body_that_follows_its_standfirst_inside_one_article_is_the_story() -> None:
    # An interview: the headline, a standfirst of 45 words and a list of links (the books
    # it is about), then the answers, which name none of the headline's words; one
    # <article> holds both parts.
    head = "<div class='head'><h1>Bridge plan agreed</h1>" + f"<p>{SENTENCE}</p>" * 3 + LINKS + "</div>"
    body = "<div class='answers'>" + f"<p>{OTHER}</p>" * 10 + "</div>"
    page = _page(f"<article>{head}{body}</article>")
    doc, regions, params, choice = _chosen(page)
    assert choice is not None and choice.root == node_at(doc, "//div[@class='answers']")
    assert not _story.story_elsewhere(doc, choice.values, choice.root, 30.0)
    # and the story starts at its standfirst (three blocks: story_start)
    assert extract(page).text == "\n".join([SENTENCE] * 3 + [OTHER] * 10)
    # Without the <article>, the answers are another story the headline does not lead to.
    apart = extract(_page(f"<div>{head}{body}</div>")).text
    assert "harbour" not in apart and SENTENCE in apart


def test_a_body_named_as_its_story_container_is_the_story() -> None:
    # A newsletter's issue: the site names the story's container and its body "newsletter",
    # a word that names a sign-up box elsewhere; readers' quotes on the page hold more prose.
    issue = (
        "<section class='hero newsletter'><div class='head'><h1>Bridge plan agreed</h1></div>"
        "<div class='newsletter-body'>" + f"<p>{SENTENCE}</p>" * 4 + "</div></section>"
    )
    quotes = "<div class='quotes'>" + f"<div><p>{OTHER}</p></div>" * 5 + "</div>"
    text = extract(_page(issue + quotes)).text
    assert text.startswith("\n".join([SENTENCE] * 4)), text
    # the same body under a container named otherwise is a sign-up box's name: cut
    apart = extract(_page(issue.replace("hero newsletter", "hero") + quotes)).text
    assert SENTENCE not in apart, apart
