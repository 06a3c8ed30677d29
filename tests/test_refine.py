"""``auto``'s refinements of its root on hand-built pages: subheadings, edges, the story's start."""

from __future__ import annotations

import pytest

from helpers import document, node_at
from scrapy_mainc import extract
from scrapy_mainc.algorithms import _blocks, _refine
from scrapy_mainc.algorithms.auto import AutoParams
from scrapy_mainc.core._datetext import stamp_date

#: What these tests check is what happens on articles (see conftest.pages_are_articles).
pytestmark = pytest.mark.usefixtures("pages_are_articles")

SENTENCE = "The council met on Monday, and it agreed on the plan for the new bridge."  # 15 words
OTHER = "Work starts in the spring, and the road stays open to traffic while it lasts."  # 15 words


def _article(middle: str) -> str:
    return f"<html><body><article><p>{SENTENCE}</p>{middle}<p>{OTHER}</p></article></body></html>"


@pytest.mark.parametrize(
    "line",
    [
        "<p><strong>What happens next</strong></p>",
        "<p><b>Who</b> <i>pays for it</i></p>",
        "<p>What happens next?</p>",
        "<p>The costs in short:</p>",
        "<div><em>Costs</em></div>",
    ],
)
def test_a_subheading_between_two_paragraphs_is_kept(line: str) -> None:
    # no period or comma: the line's value is its words minus 8, below zero, so pruning
    # drops it; it is written as a subheading and sits between two paragraphs
    page = _article(line)
    doc = document(page)
    line_node = doc.stats.nodes.index(doc.root.find("article")[1])
    assert _refine.reads_as_subheading(doc.stats, line_node)
    text = extract(page).text
    assert text.splitlines()[1] in {"What happens next", "Who pays for it", "What happens next?"} | {
        "The costs in short:",
        "Costs",
    }
    assert len(extract(page, keep_subheadings=False).text.splitlines()) == 2


@pytest.mark.parametrize(
    "line",
    [
        "<p>Advertisement</p>",  # a label, not set apart as a heading
        "<p><strong>Read more about the <a href='/b'>bridge plan</a></strong></p>",  # a link
        # 13 words in two bold lines (-1 and -2): a box, longer than a line
        "<div><p><b>one two three four five six seven</b></p>"
        "<p><b>eight nine ten eleven twelve thirteen</b></p></div>",
        "<p><b>Photo</b> by Jane Doe</p>",  # only part of it bold
    ],
)
def test_other_short_lines_between_paragraphs_stay_pruned(line: str) -> None:
    assert len(extract(_article(line)).text.splitlines()) == 2


def test_a_subheading_needs_prose_on_both_sides() -> None:
    # after the last paragraph, a bold line is a trailing label (a credit, a call to act)
    story = f"<p>{SENTENCE}</p><p>{OTHER}</p><p><b>Share this story</b></p>"
    page = f"<html><body><article>{story}</article></body></html>"
    assert extract(page).text == f"{SENTENCE}\n{OTHER}"


@pytest.mark.parametrize(
    "line",
    ["<p><em>Eat an hour before</em></p>", "<p>The costs in short:</p>"],
)
def test_a_short_line_under_a_heading_before_a_paragraph_is_kept(line: str) -> None:
    # a section's lead-in (an italic note, a line that introduces what follows) between
    # the section's heading and its first paragraph: pruned for its value, kept as text
    page = _article(f"<h3>Before the workout</h3>{line}")
    lines = extract(page).text.splitlines()
    assert lines[1] == "Before the workout" and len(lines) == 4
    assert lines[2] in {"Eat an hour before", "The costs in short:"}
    assert len(extract(page, keep_subheadings=False).text.splitlines()) == 3


@pytest.mark.parametrize(
    "label",
    [
        "<p><strong>Advertisement</strong></p>",
        "<p>Share this:</p>",
        "<p><i>Sponsored content</i></p>",
        "<p><em>Story continues below</em></p>",
    ],
)
def test_a_label_under_a_heading_is_no_lead_in(label: str) -> None:
    # a page's labels there have one to three words (lead_in_min_words: 4)
    page = _article(f"<h3>Before the workout</h3>{label}")
    assert extract(page).text.splitlines() == [SENTENCE, "Before the workout", OTHER]
    assert len(extract(page, lead_in_min_words=1).text.splitlines()) == 4


def test_a_short_line_before_a_heading_or_under_one_before_no_paragraph_stays_pruned() -> None:
    # a source line after a section and before the next heading is the section's credit
    credit = _article("<p><em>Source: the state government</em></p><h3>Next steps</h3>")
    assert "Source" not in extract(credit).text
    # under a heading, a line followed by a line of links (a product box) is not a lead-in
    box = _article(
        "<h3>The drink</h3><p><em>Take it before you train</em></p><p><a href='/shop'>Energy mix</a></p>"
    )
    assert "Take it" not in extract(box).text
    # a heading with a link is a teaser's, not the section's
    teaser = _article("<h3><a href='/s'>The drink</a></h3><p><em>Take it before you train</em></p>")
    assert "Take it" not in extract(teaser).text


def test_a_leading_heading_is_kept_a_trailing_one_trimmed() -> None:
    page = (
        "<html><body><article><h2>Background</h2>"
        f"<p>{SENTENCE}</p><p>{OTHER}</p><h3>More on this</h3></article></body></html>"
    )
    assert extract(page).text == f"Background\n{SENTENCE}\n{OTHER}"
    assert extract(page, keep_leading_headings=False).text == f"{SENTENCE}\n{OTHER}"
    # a byline before the text is still trimmed, and a linked heading too
    byline = page.replace("<h2>Background</h2>", "<p>By Jane Doe</p><h2><a href='/s'>Section page</a></h2>")
    assert extract(byline).text == f"{SENTENCE}\n{OTHER}"


def _split_story(start: int, body: int = 8) -> str:
    """A headline, ``start`` paragraphs, a box of links the value of which is below zero,
    and the rest of the story in its own container (the subtree of largest total)."""
    links = "".join(f"<li><a href='/v{n}'>Video number {n} of the week</a></li>" for n in range(12))
    opening = "".join(f"<p>{SENTENCE} Part {n}.</p>" for n in range(start))
    rest = "".join(f"<p>{SENTENCE} Later.</p>" for _ in range(body))
    return (
        "<html><head><title>Bridge plan agreed</title></head><body><article>"
        f"<h1>Bridge plan agreed</h1><div class='top'>{opening}</div><ul class='videos'>{links}</ul>"
        f"<div class='rest'>{rest}</div></article></body></html>"
    )


def test_paragraphs_between_the_headline_and_the_root_start_the_story() -> None:
    page = _split_story(3)
    doc = document(page)
    top, rest = node_at(doc, "//div[@class='top']"), node_at(doc, "//div[@class='rest']")
    start = [node_at(doc, f"//div[@class='top']/p[{n}]") for n in (1, 2, 3)]
    # the rest of the story (8 x 16 = 128) outweighs the article: -1 (headline) + 51
    # (3 x 17) - 80 (72 link words, no punctuation) + 128 = 98; the three paragraphs
    # before it are the story's start
    result = extract(page)
    assert result.xpath == " | ".join(doc.stats.xpath(node) for node in (*start, rest))
    assert result.text.count("Part") == 3 and result.text.count("Later") == 8
    assert "Video" not in result.text
    assert top not in start and extract(page, story_start=False).text.count("Part") == 0


def test_one_standfirst_paragraph_is_not_the_story_start() -> None:
    # one block of 17 words against a root of 128 is a standfirst: left out
    assert extract(_split_story(1)).text.count("Part") == 0
    # ...unless it is long next to the root: 17 words before a root of 32 are half a story
    assert extract(_split_story(1, body=2)).text.count("Part") == 1
    assert extract(_split_story(1, body=2), story_start_min_share=0.6).text.count("Part") == 0


def _post(number: int, stamp: str, title: str = "") -> str:
    body = f"<p>Post {number} begins. {SENTENCE}</p><p>{OTHER}</p><p>{SENTENCE} {OTHER}</p>"  # 63 words
    footer = f"<div class='footer'>Posted by Jane | <a href='/p/{number}#comments'>3 comments</a></div>"
    return (
        f"<div class='post'><div class='title'><h2>{title or f'Title of post {number}'}</h2>"
        f"<span>{stamp}</span></div>{body}{footer}</div>"
    )


def _blog(stamps: list[str], head: str = "My blog", titles: tuple[str, ...] = ()) -> str:
    posts = "".join(_post(number, stamp, *titles[number : number + 1]) for number, stamp in enumerate(stamps))
    return (
        f"<html><head><title>{head}</title></head><body><div id='nav'><a href='/'>Home</a></div>"
        f"<div id='posts'>{posts}</div></body></html>"
    )


DAYS = ["2005-03-21 01:20:44", "2005-03-18 01:58:01", "2005-03-15 16:47:37", "2005-03-12 09:02:11"]


def test_a_blogs_front_page_gives_its_first_post() -> None:
    page = _blog(DAYS)
    text = extract(page, page_type="article").text
    assert "Post 0 begins" in text and "Post 1 begins" not in text and "Post 3 begins" not in text
    assert extract(page, page_type="article", first_post=False).text.count("begins") == 4
    # the post that shows the page's headline is the page's post
    headline = "The bridge opens on Friday"
    page = _blog(DAYS, head=f"{headline} | My blog", titles=("One", "Two", headline, "Four"))
    text = extract(page, page_type="article").text
    assert "Post 2 begins" in text and "Post 0 begins" not in text
    # English stamps on lines of their own, dates not numbers only
    english = ["Posted on March 21, 2019", "March 18, 2019 at 3:45 pm", "15 Mar 2019", "12 March 2019"]
    assert extract(_blog(english), page_type="article").text.count("begins") == 1
    # a forum's or a listing's run of posts is all content
    for kind in ("forum", "listing"):
        assert extract(_blog(english), page_type=kind).text.count("begins") == 4


def test_a_stamp_is_a_date_in_numbers_or_english_on_a_short_line() -> None:
    assert stamp_date("Posted on March 5, 2019 by Jane", 8) == (2019, 3, 5)
    assert stamp_date("5 Sept. 2019", 8) == (2019, 9, 5)
    assert stamp_date("2005-03-21 01:20:44", 8) == (2005, 3, 21)
    assert stamp_date("2019年3月15日", 8) == (2019, 3, 15)
    assert stamp_date("21.03.2019", 8) == (2019, 3, 21)  # day first
    assert stamp_date("The council met on March 5, 2019 and agreed on the plan.", 8) is None
    assert stamp_date("21. März 2019", 8) is None  # numbers and English only (core/_datetext.py)


@pytest.mark.parametrize(
    "stamps",
    [
        ["10:45", "10:12", "09:58", "09:30"],  # a live blog: entries stamped with times, one story
        ["2024-05-02 10:45", "2024-05-02 10:12", "2024-05-02 09:58", "2024-05-02 09:30"],  # one day
        ["March 21, 2019", "Mar 21, 2019", "21 March 2019", "2019-03-21"],  # one day, four spellings
        ["Summary 3, 2019", "Summary 4, 2019", "Summary 5, 2019", "Summary 6, 2019"],  # no month
        ["May 1, 2019:", "May 8, 2019:", "May 15, 2019:", "May 22, 2019:"],  # lead-ins of sentences
        DAYS[:2],  # two posts are a pair, not a run
        [DAYS[0], "", DAYS[2], DAYS[3]],  # one post without a stamp
    ],
)
def test_entries_of_one_story_are_no_run_of_posts(stamps: list[str]) -> None:
    assert extract(_blog(stamps)).text.count("begins") == len(stamps)


def test_a_date_in_a_sentence_is_no_post_stamp() -> None:
    # an article in alike chunks whose paragraphs mention dates
    chunk = (
        "<div class='chunk'><p>On 2005-03-{day} the council met again, and it agreed on the plan. "
        "{s}</p><p>{o}</p><p>{s} {o}</p></div>"
    )
    chunks = "".join(chunk.format(day=day, s=SENTENCE, o=OTHER) for day in (11, 14, 18, 21))
    page = f"<html><body><article>{chunks}</article></body></html>"
    doc = document(page)
    root = node_at(doc, "//article")
    assert _refine.first_post(doc, root, set(), _params()) == root
    assert extract(page).text.count("council met again") == 4


def _params() -> AutoParams:
    return AutoParams()


def test_entries_under_the_pages_own_headline_are_one_story() -> None:
    # a timeline article, a live blog over two days, a forum thread: dated entries on
    # several days, but the page's headline stands above them, outside every entry
    page = _blog(DAYS).replace("<div id='posts'>", "<div id='posts'><h1>The bridge, day by day</h1>")
    page = page.replace("<title>My blog</title>", "<title>The bridge, day by day</title>")
    assert extract(page).text.count("begins") == 4


def test_dated_comments_beside_a_post_are_no_run_of_posts() -> None:
    # one post, then four dated reader comments (each long enough to be a post): the
    # comments do not make a run, and the post is never given up for the first of them
    post = _post(0, DAYS[3]).replace("class='post'", "class='entry'")
    comment = (
        "<div class='comment'><b>reader{n}</b> <span>March {n}, 2019</span><p>{s} {o}</p><p>{o} {s}</p></div>"
    )
    comments = "".join(comment.format(n=n, s=SENTENCE, o=OTHER) for n in (2, 3, 5, 8))
    page = f"<html><head><title>Blog</title></head><body><div id='main'>{post}{comments}</div></body></html>"
    doc = document(page)
    root = node_at(doc, "//div[@id='main']")
    assert _refine.first_post(doc, root, set(), _params()) == root  # the post is no run's member
    assert "Post 0 begins" in extract(page).text


def test_an_edge_of_many_short_lines_is_a_list_of_the_text() -> None:
    # A post that ends with the names of its sponsors, one short line each: 32 words in
    # short lines (36 with the thanks line) are more than a byline or a share bar holds
    # (at most edge_max_words, 25)
    names = "".join(f"<li>Sponsor {n}</li>" for n in range(16))
    page = (
        f"<html><body><article><p>{SENTENCE}</p><p>{OTHER}</p><p>Thanks to my sponsors:</p>"
        f"<ul>{names}</ul></article></body></html>"
    )
    doc = document(page)
    root = node_at(doc, "//article")
    regions = _blocks.block_regions(doc.stats)
    assert _refine.edge_blocks(doc.stats, regions, root, set(), AutoParams()) == set()
    assert extract(page).text.count("Sponsor") == 16
    # up to 25 words such lines are trimmed (10 names and the thanks line: 24 words; 11
    # names: 26), and at any length when the limit is raised
    fewer = page.replace("".join(f"<li>Sponsor {n}</li>" for n in range(10, 16)), "")
    assert extract(fewer).text.count("Sponsor") == 0
    eleven = document(page.replace("".join(f"<li>Sponsor {n}</li>" for n in range(11, 16)), ""))
    regions = _blocks.block_regions(eleven.stats)
    assert (
        _refine.edge_blocks(eleven.stats, regions, node_at(eleven, "//article"), set(), AutoParams()) == set()
    )
    assert extract(page, edge_max_words=1_000).text.count("Sponsor") == 0


def test_a_short_lede_written_as_a_sentence_is_not_trimmed() -> None:
    # A nine-word lede is shorter than a sentence-like block (ten words): written as a
    # sentence (a capital first, a full stop last) it is the story's first sentence; the
    # dateline before it, no sentence, is trimmed still
    lede = "Sixteen new officers have joined the city police department."
    page = (
        "<html><body><article><p>Updated December 12, 2023, 3:45 PM</p>"
        f"<p>{lede}</p><p>{SENTENCE}</p><p>{OTHER}</p></article></body></html>"
    )
    assert extract(page).text == f"{lede}\n{SENTENCE}\n{OTHER}"
    assert extract(page, lead_sentence_words=0).text == f"{SENTENCE}\n{OTHER}"
    # at the end a short sentence is as often a call to subscribe: trimmed as before
    tail = "<p>Get local news delivered to your inbox every day!</p>"
    assert extract(page.replace("</article>", f"{tail}</article>")).text.endswith(OTHER)
    # a byline is not written as a sentence, and a line of links is no lede
    byline = page.replace(lede, "By Jane Doe and John Roe, staff writers")
    assert extract(byline).text == f"{SENTENCE}\n{OTHER}"
    links = "<a href='/a'>Sixteen new officers</a> <a href='/b'>have joined the city police department.</a>"
    assert extract(page.replace(lede, links)).text == f"{SENTENCE}\n{OTHER}"


def test_an_edge_is_measured_in_words_outside_links_and_chinese_characters_at_half() -> None:
    # A trailing run of linked tags, 40 words all in links, is a short edge
    tags = "".join(f"<li><a href='/t{n}'>Topic number {n} here</a></li>" for n in range(10))
    doc = document(f"<body><article><p>{SENTENCE}</p><p>{OTHER}</p><ul>{tags}</ul></article></body>")
    regions = _blocks.block_regions(doc.stats)
    trimmed = _refine.edge_blocks(doc.stats, regions, node_at(doc, "//article"), set(), AutoParams())
    assert trimmed == {node_at(doc, "//ul")}
    # A Chinese story's credit, notice and share lines (35 characters, each one word)
    # are a short edge: a Chinese word is about two characters
    story = (
        "<p>"
        + "市政府周一召开会议，会议同意了新大桥的建设计划，工程将于明年春天开工，预计三年完成。" * 3
        + "</p>"
    )
    tail = "<p>责任编辑：李四　审核：王五</p><p>本网站所有内容未经书面授权不得转载</p><p>分享到 微信 微博</p>"
    chinese = (
        "<html><head><title>大桥计划获批</title></head><body><article><h1>大桥计划获批</h1>"
        f"{story * 3}{tail}</article></body></html>"
    )
    text = extract(chinese).text
    assert "责任编辑" not in text and "转载" not in text and text.endswith("预计三年完成。")
