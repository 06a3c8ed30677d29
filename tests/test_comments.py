"""The shared reader-comment stage: named containers, NCE's repetitive dated blocks and
comment-section headings."""

from __future__ import annotations

import pytest
from lxml import etree

from helpers import document, node_at
from scrapy_mainc import extract
from scrapy_mainc.core._comment_names import has_comment_name
from scrapy_mainc.core._comment_params import CommentParams
from scrapy_mainc.core._comment_regions import comment_heading, comment_region_start
from scrapy_mainc.core._comments import comment_nodes

#: What these tests check is what happens on articles (see conftest.pages_are_articles).
pytestmark = pytest.mark.usefixtures("pages_are_articles")

BODY = "".join(
    f"<p>Paragraph {n}: the council met on Monday, and it agreed on the plan.</p>" for n in range(4)
)


def _comment(n: int, date: str = "2021-03-0{n} 10:1{n}") -> str:
    return (
        f"<div class='c'><span class='who'>reader{n}</span><span>{date.format(n=n)}</span>"
        f"<p>I think this is comment number {n}.</p></div>"
    )


def test_names_that_mark_comments() -> None:
    for markup in (
        '<div id="comments"/>',
        '<ol class="comment-list"/>',
        '<div class="userComments"/>',
        '<section id="disqus_thread"/>',
        '<div itemprop="comment"/>',
        '<div itemtype="https://schema.org/Comment"/>',
        '<table class="pinglun"/>',
    ):
        assert has_comment_name(etree.fromstring(markup)), markup
    for markup in ('<div class="commentary"/>', '<div id="content"/>', "<p/>"):
        assert not has_comment_name(etree.fromstring(markup)), markup


def test_three_alike_dated_blocks_start_the_region() -> None:
    doc = document(f"<body><div id='a'>{BODY}{_comment(1)}{_comment(2)}{_comment(3)}</div></body>")
    root = node_at(doc, "//div[@id='a']")
    first = node_at(doc, "//div[@class='c'][1]")
    assert comment_region_start(doc.stats, (root,)) == first
    # everything from the first comment onward is dropped: the three comment blocks
    assert comment_nodes(doc.stats, (root,)) == {first, first + 4, first + 8}


def test_two_blocks_are_not_enough() -> None:
    doc = document(f"<body><div id='a'>{BODY}{_comment(1)}{_comment(2)}</div></body>")
    assert comment_region_start(doc.stats, (node_at(doc, "//div[@id='a']"),)) is None


def test_undated_alike_blocks_are_not_comments_unless_asked() -> None:
    undated = "".join(_comment(n, date="a reader") for n in range(1, 4))
    doc = document(f"<body><div id='a'>{BODY}{undated}</div></body>")
    root = (node_at(doc, "//div[@id='a']"),)
    assert comment_region_start(doc.stats, root) is None
    assert comment_region_start(doc.stats, root, CommentParams(require_date=False)) is not None


def test_blocks_far_apart_are_not_joined() -> None:
    spacer = "<div><p>x</p><p>y</p></div>" * 10
    parts = [_comment(1), spacer, _comment(2), spacer, _comment(3)]
    doc = document(f"<body><div id='a'>{BODY}{''.join(parts)}</div></body>")
    assert comment_region_start(doc.stats, (node_at(doc, "//div[@id='a']"),)) is None


def test_extract_strips_comments_by_default_and_can_keep_them() -> None:
    page = (
        f"<html><body><div id='story'>{BODY}<div id='comments'><p>Nice article, thanks.</p>"
        "<p>I disagree with it.</p></div></div></body></html>"
    )
    assert "thanks" not in extract(page, algorithm="cectd-ds", page_type="article").text
    assert "thanks" in extract(page, algorithm="cectd-ds", page_type="article", strip_comments=False).text
    # a forum thread's posts are its content: the comment stage leaves them in
    assert "thanks" in extract(page, algorithm="cectd-ds", page_type="forum").text


def _undated_thread(heading: str) -> str:
    """A comment section under ``heading``: plain list items, no dates, no names."""
    items = "".join(f"<li><b>reader{n}</b>: I think this is comment number {n}.</li>" for n in range(3))
    return f"<div class='responses'><h3>{heading}</h3><ol>{items}</ol></div>"


def test_a_comment_section_heading_starts_the_region() -> None:
    for heading in ("Comments", "3 comments", "Reader comments (12)", "Leave a Reply", "网友评论", "评论："):
        doc = document(f"<body><div id='a'>{BODY}{_undated_thread(heading)}</div></body>")
        root = node_at(doc, "//div[@id='a']")
        title = node_at(doc, "//h3")
        assert comment_heading(doc.stats, (root,)) == title, heading
        # the heading and the list after it; the article's paragraphs stay
        assert comment_nodes(doc.stats, (root,)) == {title, node_at(doc, "//ol")}, heading
        assert comment_nodes(doc.stats, (root,), CommentParams(headings=False)) == set()


def test_headings_that_only_mention_comments_are_article_text() -> None:
    for heading in ("Comments from the minister", "Discussion", "No comment on the plan"):
        doc = document(f"<body><div id='a'>{BODY}{_undated_thread(heading)}</div></body>")
        assert comment_heading(doc.stats, (node_at(doc, "//div[@id='a']"),)) is None, heading


def test_a_comment_heading_near_the_top_is_not_a_comment_region() -> None:
    # Less than min_preceding_share (a fifth) of the text before it: a heading at the top
    # of the selection titles the selection itself, which is not dropped.
    doc = document(f"<body><div id='a'><h2>Comments</h2>{BODY}</div></body>")
    root = (node_at(doc, "//div[@id='a']"),)
    assert comment_heading(doc.stats, root) is None
    assert comment_heading(doc.stats, root, CommentParams(min_preceding_share=0.0)) == node_at(doc, "//h2")


def test_extract_takes_comment_params() -> None:
    page = f"<html><body><div id='story'>{BODY}{_undated_thread('Comments')}</div></body></html>"
    assert "comment number" not in extract(page, algorithm="cectd-ds").text
    kept = extract(page, algorithm="cectd-ds", strip_comments=CommentParams(headings=False)).text
    assert "comment number 2" in kept


# A real article must survive the comment stage: the stage may not leave fewer than a few
# sentences of a selection that had more, unless the evidence is strong.

OPINION = (
    "<html><head><title>The bridge plan deserves a second look | The Courier</title></head><body>"
    "<article class='story'><header><p class='kicker'>Comment</p>"
    "<h1>The bridge plan deserves a second look</h1></header>"
    "<p class='standfirst'>A decision this large should not be made in one evening, argues Lena Varga.</p>"
    # BEM modifier naming the opinion section ("Comment"), not reader comments
    "<div class='article-body article-body--comment'>"
    "<p>The council approved the new bridge in a single evening, after a debate that lasted "
    "less than an hour, and most residents heard about it only the next morning.</p>"
    "<p>Nobody doubts that the old crossing is failing. But a project that will shape traffic, "
    "rents and the riverfront for fifty years deserves more than one evening of questions.</p>"
    "<p>The council should publish the traffic study, hold two public hearings and vote again "
    "in the spring, when people have had time to read what they are paying for.</p>"
    "</div></article></body></html>"
)


def test_a_comment_name_on_the_article_body_does_not_empty_it() -> None:
    result = extract(OPINION)
    assert "single evening" in result.text and "public hearings" in result.text
    # with the guard off, the name alone removes the body and leaves the standfirst
    unguarded = extract(OPINION, strip_comments=CommentParams(min_kept_words=0)).text
    assert unguarded == "A decision this large should not be made in one evening, argues Lena Varga."


def test_a_comment_section_with_corroborating_evidence_may_take_everything() -> None:
    # A named section that also carries a comment heading is strong evidence: a selection
    # holding only such a section is reader comments, and removing it empties the result.
    items = "".join(f"<li>I think this is comment number {n}, and I stand by it.</li>" for n in range(4))
    page = f"<body><div id='a'><div class='comments'><h3>Comments</h3><ol>{items}</ol></div></div></body>"
    doc = document(page)
    root = (node_at(doc, "//div[@id='a']"),)
    assert comment_nodes(doc.stats, root) == {node_at(doc, "//div[@class='comments']")}
    # without the heading the name is the only evidence: it may not empty the selection
    doc = document(page.replace("<h3>Comments</h3>", ""))
    assert comment_nodes(doc.stats, (node_at(doc, "//div[@id='a']"),)) == set()


TIMELINE = (
    "<html><head><title>How the dam was built</title></head><body><div class='entry'>"
    "<p>The dam above the village took four years to build, and these are the days on which "
    "the crews finished each of its sections.</p>"
    + "".join(
        f"<div class='step'><h3>{day} March 201{n}</h3><p>Step {n}: the crews poured concrete for "
        f"section {n}, and inspectors signed it off.</p></div>"
        for n, day in enumerate(("3", "9", "14", "21"), start=1)
    )
    + "</div></body></html>"
)


def test_dated_paragraphs_of_a_short_article_are_not_a_comment_region() -> None:
    # Four alike dated blocks after a one-sentence intro: NCE's comment region, which would
    # leave the intro's 24 words of a 92-word article.
    # (Each block opens with a heading, so the region is not one any more; without that
    # rule the guard keeps the article.)
    doc = document(TIMELINE)
    root = (node_at(doc, "//div[@class='entry']"),)
    assert comment_region_start(doc.stats, root) is None
    sections_too = CommentParams(sections_are_text=False)
    assert comment_region_start(doc.stats, root, sections_too) == node_at(doc, "//div[@class='step'][1]")
    assert comment_nodes(doc.stats, root, sections_too) == set()
    assert extract(TIMELINE).text.count("inspectors signed it off") == 4


def test_a_comment_heading_does_not_empty_a_short_article() -> None:
    page = (
        "<body><div id='a'><p>The agency asked the public about the new river crossing.</p>"
        "<h2>Responses</h2><p>Most of the 412 replies favoured a tunnel, and a third asked for "
        "a ferry. The cyclists' union wanted a separate lane on any new bridge.</p></div></body>"
    )
    doc = document(page)
    root = (node_at(doc, "//div[@id='a']"),)
    assert comment_heading(doc.stats, root) == node_at(doc, "//h2")
    assert comment_nodes(doc.stats, root) == set()
    assert comment_nodes(doc.stats, root, CommentParams(min_kept_words=0)) != set()


def test_a_container_holding_the_headline_is_not_a_comment_section() -> None:
    page = OPINION.replace("<article class='story'>", "<article class='story comment'>")
    doc = document(f"<div id='page'>{page}<p>Footer text, for the test.</p></div>")
    page_root = (node_at(doc, "//div[@id='page']"),)
    story = node_at(doc, "//article")
    assert story in comment_nodes(doc.stats, page_root, CommentParams(min_kept_words=0))
    assert story not in comment_nodes(doc.stats, page_root, protected=(doc.headline,))


def test_a_selection_named_as_comments_with_named_entries_is_strong_evidence() -> None:
    # An algorithm chose the comment section itself (the article was too short to win):
    # the section and its entries are both named as comments, so the stage may take it all.
    entries = "".join(
        f"<div class='comment'><p class='author'>reader{n}</p>"
        f"<p>I think this is comment number {n}, and I stand by it.</p></div>"
        for n in range(4)
    )
    doc = document(f"<body><section id='comments'>{entries}</section></body>")
    root = (node_at(doc, "//section"),)
    assert comment_nodes(doc.stats, root) == {node_at(doc, f"//div[{n}]") for n in range(1, 5)}
    # the same 48 words in a section not named as comments: names on the entries alone
    doc = document(f"<body><section id='thread'>{entries}</section></body>")
    assert comment_nodes(doc.stats, (node_at(doc, "//section"),)) == set()


def test_names_inside_a_story_named_as_comments_are_the_section_s_name() -> None:
    # An opinion column: the section's modifier names the article and its body
    # ("content--comment", "content__body--comment"). With the article chosen, the
    # body's name alone is no evidence (the 31 words of header and standfirst left would
    # have passed the guard); a comment section after it keeps its own name and heading.
    page = (
        "<body><main><article class='content content--comment'><header><h1>The bus lanes are working, "
        "keep them</h1><p>Ingrid Solheim</p></header><p class='standfirst'>A year of red paint on Quay "
        "Road has cut journey times for thousands of people, and it should stay.</p>"
        f"<div class='content__body content__body--comment'>{BODY}</div></article>"
        "<section id='comments'><h2>Comments</h2><p>Comments on this piece are closed for now.</p>"
        "</section></main></body>"
    )
    doc = document(page)
    article, main, body = node_at(doc, "//article"), node_at(doc, "//main"), node_at(doc, "//article/div")
    headline = node_at(doc, "//h1")
    assert comment_nodes(doc.stats, (article,), protected=(headline,)) == set()
    assert body in comment_nodes(doc.stats, (article,))  # without the headline: names are evidence
    in_main = comment_nodes(doc.stats, (main,), protected=(headline,))
    assert node_at(doc, "//section") in in_main and body not in in_main and article not in in_main


def test_the_dated_items_of_a_listicle_are_not_comments() -> None:
    # each item opens with its heading and tells a date: alike, dated blocks after the
    # introduction, as comments would be, but sections of the text
    item = (
        "<div class='item'><h2>Time {n}: at the premiere</h2><p>On December {n}, 2022, she arrived "
        "at the premiere with almost no make-up, and the photographers loved it.</p></div>"
    )
    intro = "<p>" + "She has been in the public eye for years, and her style is famous. " * 4 + "</p>"
    page = f"<body><article>{intro}{''.join(item.format(n=n) for n in range(1, 5))}</article></body>"
    doc = document(page)
    root = (node_at(doc, "//article"),)
    assert comment_region_start(doc.stats, root) is None
    assert comment_region_start(doc.stats, root, CommentParams(sections_are_text=False)) is not None
    assert extract(page).text.count("December") == 4


def test_a_reference_list_s_volume_and_pages_are_no_time() -> None:
    # "2017;68:491-516" holds "68:49", which read as a time made every reference a dated
    # block and a reference list a comment region; a time has no digit either side
    reference = (
        "<li><span>Author{n} JD, Other K.</span> <span>A study of meditation, part {n}. "
        "Annu Rev Psychol. 2017;6{n}:491-516.</span></li>"
    )
    # two-digit pages after the volume ("2020;12:45-50") are no time either
    short = "<li><span>Author{n} JD.</span> <span>Part {n}. J Clin. 2020;1{n}:45-50.</span></li>"
    shorts = "<ul>" + "".join(short.format(n=n) for n in range(1, 5)) + "</ul>"
    short_doc = document(f"<body><div id='a'>{BODY}{shorts}</div></body>")
    assert comment_region_start(short_doc.stats, (node_at(short_doc, "//div[@id='a']"),)) is None
    references = "<ul>" + "".join(reference.format(n=n) for n in range(1, 5)) + "</ul>"
    page = f"<body><div id='a'>{BODY}{references}</div></body>"
    doc = document(page)
    root = (node_at(doc, "//div[@id='a']"),)
    assert comment_region_start(doc.stats, root) is None
    assert extract(page, algorithm="cectd-ds").text.count("Annu Rev Psychol") == 4
    # a byline's time still dates a comment, followed by letters or not
    timed = "".join(_comment(n, date="posted at 10:1{n}pm") for n in range(1, 4))
    timed_doc = document(f"<body><div id='a'>{BODY}{timed}</div></body>")
    assert comment_region_start(timed_doc.stats, (node_at(timed_doc, "//div[@id='a']"),)) is not None


def test_a_product_s_customer_reviews_are_comments() -> None:
    reviews = (
        "<div class='customer-reviews'><h2>What buyers say</h2>"
        + "".join(
            f"<div class='r'><b>buyer{n}</b><p>Great kettle, it boils fast, five stars.</p></div>"
            for n in range(3)
        )
        + "</div>"
    )
    page = (
        "<html><head><title>Kettle</title></head><body><main><div id='product'><h1>Kettle</h1>"
        f"{BODY}{reviews}</div></main></body></html>"
    )
    doc = document(page)
    root = (node_at(doc, "//div[@id='product']"),)
    section = node_at(doc, "//div[@class='customer-reviews']")
    assert comment_nodes(doc.stats, root) == frozenset()
    assert comment_nodes(doc.stats, root, CommentParams(reviews=True)) == {section}
    # the product type sets it: a product's reviews go, an article's section so named stays
    assert "Great kettle" not in extract(page, algorithm="cectd-ds", page_type="product").text
    assert "Great kettle" in extract(page, algorithm="cectd-ds", page_type="article").text
    # one review's summary (a star rating beside the name, class "review") is no section
    single = page.replace("customer-reviews", "review")
    assert "Great kettle" in extract(single, algorithm="cectd-ds", page_type="product").text
    # the caller decides: CommentParams(reviews=False) keeps them on a product page too
    kept = extract(
        page, algorithm="cectd-ds", page_type="product", strip_comments=CommentParams(reviews=False)
    )
    assert "Great kettle" in kept.text


def test_a_product_s_container_named_for_its_reviews_is_not_a_review_section() -> None:
    # The product's own container, named for a state ("product--has-reviews", a BEM
    # modifier; "reviews-enabled", more than two thirds of the selection without dated
    # reviews), holds its description: it stays
    description = "".join(
        f"<p>The kettle boils a litre in {n} minutes and keeps it warm.</p>" for n in range(3, 11)
    )
    shipping = "<p>" + "Free shipping on every order, and returns are free for a month. " * 3 + "</p>"
    for name in ("product product--has-reviews", "js-reviews-enabled"):
        page = (
            "<html><head><title>Kettle</title></head><body><main><h1>Kettle</h1>"
            f"<div class='{name}'>{description}</div>{shipping}</main></body></html>"
        )
        doc = document(page)
        main = (node_at(doc, "//main"),)
        assert comment_nodes(doc.stats, main, CommentParams(reviews=True)) == frozenset(), name
        # named so and smaller, it is a section of reviews
        small = document(page.replace(description, "<p>Nice kettle, it works fine, five stars.</p>"))
        section = node_at(small, f"//div[@class='{name}']")
        taken = comment_nodes(small.stats, (node_at(small, "//main"),), CommentParams(reviews=True))
        assert taken == ({section} if name == "js-reviews-enabled" else frozenset()), name
    # a section of dated reviews is taken however much of the page it holds
    dated = "".join(
        f"<div class='r'><b>buyer{n}</b><span>2024-05-0{n}</span><p>It boils fast and looks fine.</p></div>"
        for n in range(1, 7)
    )
    page = (
        "<html><head><title>Kettle</title></head><body><main><div id='p'><h1>Kettle</h1>"
        f"<p>A kettle of steel, it boils a litre in three minutes.</p><div class='reviews'>{dated}</div>"
        "</div></main></body></html>"
    )
    doc = document(page)
    root = (node_at(doc, "//div[@id='p']"),)
    reviews = node_at(doc, "//div[@class='reviews']")
    assert doc.stats.words[reviews] > 2 / 3 * doc.stats.words[root[0]]
    assert reviews in comment_nodes(doc.stats, root, CommentParams(reviews=True))


def test_a_listing_s_dated_items_are_not_a_comment_region() -> None:
    # a news section: its title and lead, then its teasers, alike and dated, as a comment
    # thread's entries are; on a listing (or a collection) they are the page's items
    teaser = (
        "<div class='teaser'><span>2024-05-0{n} 09:3{n}</span><p>Story {n}: the ferry timetable "
        "changes again for the summer season.</p></div>"
    )
    section = f"<div id='a'>{BODY}{''.join(teaser.format(n=n) for n in range(1, 5))}</div>"
    doc = document(f"<body>{section}</body>")
    root = (node_at(doc, "//div[@id='a']"),)
    assert comment_region_start(doc.stats, root) is not None
    assert len(comment_nodes(doc.stats, root)) == 4
    page = f"<html><body>{section}</body></html>"
    for page_type in ("listing", "collection"):
        assert extract(page, algorithm="cectd-ds", page_type=page_type).text.count("ferry timetable") == 4
    assert "ferry timetable" not in extract(page, algorithm="cectd-ds", page_type="article").text
    assert comment_nodes(doc.stats, root, CommentParams(dated_runs=False)) == frozenset()
    # the caller decides: dated_runs=True reads the run as comments on a listing too
    params = CommentParams(dated_runs=True)
    result = extract(page, algorithm="cectd-ds", page_type="listing", strip_comments=params)
    assert "ferry timetable" not in result.text


def test_a_page_not_typed_as_an_article_keeps_a_selection_that_is_all_comments() -> None:
    # a discussion whose every post is named as a comment: typed as a product (or any type
    # but article and forum), the comment stage would leave nothing; the thread is the page
    posts = "".join(
        f"<li class='comment'><p>Post {n}: I think the ferry timetable should change for the summer.</p></li>"
        for n in range(5)
    )
    page = f"<html><body><ul id='comments'>{posts}</ul></body></html>"
    for page_type in ("product", "listing", "service"):
        result = extract(page, algorithm="cectd-ds", page_type=page_type)
        assert result.text.count("ferry timetable") == 5, page_type
    # an article's selection that is all comments stays empty, and says why
    result = extract(page, algorithm="cectd-ds", page_type="article")
    assert result.text == "" and result.reason == "only reader comments were found"
