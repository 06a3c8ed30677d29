"""No junk before the story (issue 41): the start of ``auto``'s text on hand-built pages.

A leading run of short lines is trimmed as an edge unless it holds more than
``edge_max_words`` words: a longer run is a list of the text. At the start only lines of
text count in that run (``lead_line_min_words``), so that a video player's controls or a
list of hot searches, sixty short lines before a short story, are no list of the story's;
and the blocks before the page's headline are trimmed at any length, on every page type
(``trim_before_headline``): a forum thread's banner, a listing's site menu.
"""

from __future__ import annotations

import pytest

from helpers import document, node_at
from scrapy_mainc import extract
from scrapy_mainc.algorithms import _blocks, _refine
from scrapy_mainc.algorithms.auto import AutoParams

#: A short Chinese story, three paragraphs (108 characters).
STORY = (
    "记者从市交通局获悉，连接城东和城西的三号公交线路将于本周六正式开通运营。",
    "新线路全长十八公里，沿途设置二十二个站点，首班车早上六点发车，末班车晚上十点收车。",
    "交通局负责人表示，开通初期将根据客流情况及时调整发车间隔。",
)
TITLE = "三号公交线路周六开通"
#: What a video player shows when its menus are open: speeds, qualities, switches.
CONTROLS = (
    "播放速度 2X 1.5X 1.25X 1.0X 0.5X 高清 超清 标清 流畅 自动 循环播放 小窗播放 网页全屏 全屏 静音 "
    "00:00 03:25 弹幕 关闭弹幕 发送弹幕 画中画 倍速 清晰度 设置 镜像画面 播放信息 视频统计信息 "
    "复制视频网址 深色模式 音量 字幕"
).split()
#: Headlines of a list of hot searches (each one shown twice, as such lists repeat topics).
HOT = ("地铁新线今日开通", "高校毕业生就业形势", "夏季用电高峰来临", "暴雨预警发布", "新能源车销量创新高")


def _news_page(before_headline: str = "", before_story: str = "", in_story: str = "") -> str:
    paragraphs = "".join(f"<p>{line}</p>" for line in STORY)
    return (
        f"<html><head><meta charset='utf-8'><title>{TITLE}_城市新闻网</title></head><body>"
        "<div class='top'><a href='/'>首页</a> <a href='/news'>新闻</a> <a href='/city'>城市</a></div>"
        f"<div class='container'>{before_headline}<div class='main'><h1>{TITLE}</h1>"
        f"<div class='info'>2024-06-14 08:30 来源：城市新闻网</div>{before_story}"
        f"<div class='content'>{in_story}{paragraphs}</div></div></div>"
        "<div class='foot'>城市新闻网 版权所有</div></body></html>"
    )


def _player() -> str:
    items = "".join(f"<div class='item'>{label}</div>" for label in CONTROLS * 2)
    return f"<div class='player'><video src='/v.mp4'></video><div class='controls'>{items}</div></div>"


@pytest.mark.parametrize("where", ["before_story", "in_story"])
def test_a_video_players_controls_before_a_short_story_are_trimmed(where: str) -> None:
    # 64 lines of one to six characters, four times the story's length: no list of the text
    page = _news_page(**{where: _player()})
    assert extract(page, page_type="article").text == "\n".join(STORY)
    # counting every line (the rule before issue 41), the run is too long to trim
    assert extract(page, page_type="article", lead_line_min_words=0).text.split("\n")[0] in (
        "播放速度",
        "2024-06-14 08:30 来源：城市新闻网",
    )


def test_a_list_of_hot_searches_before_the_headline_is_trimmed_at_any_length() -> None:
    # sixty lines of a rank, a headline and its heat, which a script links (no <a>): lines
    # of text by their length, but before the page's headline, so not the story
    cells = "<span>{}</span><span>{}</span><span>{}万</span>"
    lines = "".join(
        f"<div class='item'>{cells.format(rank, HOT[rank % 5], rank * 7 + 20)}</div>" for rank in range(1, 61)
    )
    page = _news_page(before_headline=f"<div class='hot'><div class='t'>热搜榜</div>{lines}</div>")
    assert extract(page, page_type="article").text == "\n".join(STORY)
    legacy = extract(page, page_type="article", trim_before_headline=False).text
    assert legacy.startswith(f"1{HOT[1]}27万\n2{HOT[2]}34万\n")


def test_linked_lines_and_labels_add_nothing_to_a_leading_run() -> None:
    # sixty linked headlines beside their rank and heat at the start of the root: the words
    # outside links (180) are no list of the text...
    lines = "".join(
        f"<div class='item'>{rank} <a href='/s{rank}'>{HOT[rank % 5]}</a> {rank + 20}万</div>"
        for rank in range(1, 61)
    )
    paragraphs = "".join(f"<p>{line}</p>" for line in STORY)
    doc = document(f"<body><article>{lines}{paragraphs}</article></body>")
    root = node_at(doc, "//article")
    regions = _blocks.block_regions(doc.stats)
    items = {node_at(doc, f"//article/div[{n}]") for n in range(1, 61)}
    assert _refine.edge_blocks(doc.stats, regions, root, set(), AutoParams()) >= items
    legacy = AutoParams(lead_line_min_words=0)
    assert not _refine.edge_blocks(doc.stats, regions, root, set(), legacy) & items
    # ...and at the end every line counts: a list of names is text (Sponsor 0, Sponsor 1...)
    names = "".join(f"<p>Sponsor {n}</p>" for n in range(16))
    doc = document(f"<body><article>{paragraphs}<p>Thanks to my sponsors:</p>{names}</article></body>")
    regions = _blocks.block_regions(doc.stats)
    assert _refine.edge_blocks(doc.stats, regions, node_at(doc, "//article"), set(), AutoParams()) == set()


def test_a_leading_list_of_lines_of_text_stays() -> None:
    # what a release brings, six lines of five words before the first paragraph: 30 words
    # of text, a list of the story's (the limit is 25)
    news = [
        "New tasks, for two players",
        "More questions, for your opponent",
        "Challenges, coming very soon now",
        "Better support, for older phones",
        "Small bugs, fixed at last",
        "A darker theme, for nights",
    ]
    sentence = "The update reaches every phone this week, and it is free for everyone who owns the game."
    page = (
        "<html><head><title>Version 2.26 is out</title></head><body><article><h1>Version 2.26 is out</h1>"
        "{lines}" + f"<p>{sentence}</p><p>{sentence}</p></article></body></html>"
    )
    text = extract(page.format(lines="".join(f"<p>{line}</p>" for line in news)), page_type="article").text
    assert text == "\n".join((*news, sentence, sentence))
    # ten labels of three words (30 words) are no list of the text: trimmed as an edge,
    # which counting every line would not do
    words = "share save print mail copy like follow rate flag report cite".split()
    labels = page.format(lines="".join(f"<p>{words[n]}, {words[n + 1]}, more</p>" for n in range(10)))
    assert extract(labels, page_type="article").text == f"{sentence}\n{sentence}"
    assert "share, save" in extract(labels, page_type="article", lead_line_min_words=0).text


def _thread_page(banner: str) -> str:
    replies = [
        ("mike_r", "I replaced the pump on my boiler last week, and now the pressure drops overnight."),
        ("heatguy", "Check the expansion vessel first. If it has lost its charge, the pressure swings."),
        ("mike_r", "Thanks, I pumped the vessel up to one bar and the pressure held all night."),
        ("anna_k", "Good to hear. It is worth checking the vessel once a year, as the charge leaks."),
    ]
    posts = "".join(
        f"<article class='post'><div class='author'>{user}</div><div class='date'>May {day}, 2024</div>"
        f"<div class='body'><p>{text}</p></div></article>"
        for day, (user, text) in enumerate(replies, 2)
    )
    title = "Boiler pressure drops overnight after new pump"
    return (
        f"<html><head><title>{title} - Home Repair Forum</title><script src='/app.js'></script></head>"
        f"<body><div id='app'></div><noscript><div class='page'>{banner}<h1>{title}</h1>{posts}</div>"
        "</noscript></body></html>"
    )


def test_a_noscript_banner_before_a_forum_thread_is_trimmed() -> None:
    # a thread a script renders, its no-script version shown: a banner of twelve short
    # lines (35 words) stands before the thread's title
    lines = (
        "JavaScript is disabled",
        "For the full experience",
        "please enable JavaScript",
        "in your browser settings",
        "and reload this page",
        "Some features need it",
        "Posting replies",
        "Reactions and polls",
        "Notifications",
        "Private messages",
        "Search",
        "Dark mode",
    )
    page = _thread_page("<div class='banner'>" + "".join(f"<div>{line}</div>" for line in lines) + "</div>")
    for params in ({}, {"lead_line_min_words": 0}):  # before the headline, at any length
        text = extract(page, page_type="forum", **params).text
        assert text.startswith("I replaced the pump") and "JavaScript" not in text
        assert text.count("May ") == 3  # the replies stay, each with its date
    # without the thread rule the choice is the whole <body>, and the trimming is what cuts
    # the banner; with it, the choice is the thread's part, where pruning drops the banner
    untrimmed = {"trim_before_headline": False, "lead_line_min_words": 0}
    legacy = extract(page, page_type="forum", thread_posts=False, **untrimmed)
    assert legacy.text.startswith("JavaScript is disabled\nFor the full experience\n")
    assert extract(page, page_type="forum", **untrimmed).text.startswith("I replaced the pump")


def _listing_page(title: str = "Technology") -> str:
    sections = "Home News World Business Technology Science Health Sports Culture Travel Opinion Video"
    menu = "".join(f"<li><a href='/{name.lower()}'>{name}</a></li>" for name in sections.split())
    topics = (
        "A new battery design doubles the range of city buses",
        "Researchers map the noise of a busy harbour",
        "The first solar ferry enters service on the lake",
        "A startup turns old tyres into road surfaces",
        "City libraries lend tools as well as books",
        "A museum opens its archive of early computers",
    )
    items = "".join(
        f"<div class='item'><h2><a href='/story/{n}'>{topic}</a></h2>"
        "<p>The project started two years ago with a small team, and it now serves many people.</p>"
        f"<span class='date'>June {n + 3}, 2024</span></div>"
        for n, topic in enumerate(topics)
    )
    return (
        f"<html><head><title>{title} | The Daily Harbour</title></head><body><div class='wrapper'>"
        f"<div class='site-menu'><ul>{menu}</ul></div><h1>{title}</h1>{items}"
        "<div class='pager'><a href='?p=2'>Next page</a></div></div></body></html>"
    )


def test_a_site_menu_before_a_listings_title_is_trimmed() -> None:
    # a listing's preset trims no edges (its items are short lines), but the site's menu
    # before the listing's title is no item
    page = _listing_page()
    text = extract(page, page_type="listing").text
    assert text.startswith("A new battery design") and "Opinion" not in text
    assert text.count("June ") == 6
    assert extract(page, page_type="listing", trim_before_headline=False).text.startswith("Home\nNews")


def test_text_before_a_heading_that_repeats_the_title_stays() -> None:
    # the heading found as the headline repeats the title after the story's introduction:
    # a sentence-like block before it stops the trimming, and the short line before that
    # is trimmed as an edge only
    intro = (
        "Electric boards have changed how people ride to work, and many riders now ask how fast they go.",
        "This article looks at their speed, and at the things that make one board faster than another.",
    )
    rest = "A board for the city reaches thirty kilometres an hour, and a board for rough ground more."
    page = (
        "<html><head><title>How fast do electric skateboards go</title></head><body><article>"
        "<p>Updated May 3</p>" + "".join(f"<p>{line}</p>" for line in intro) + "<h2>How fast do electric "
        f"skateboards go</h2><p>{rest}</p><p>{rest}</p></article></body></html>"
    )
    doc = document(page)
    assert doc.headline == node_at(doc, "//h2")
    assert extract(page, page_type="article").text == "\n".join((*intro, rest, rest))
