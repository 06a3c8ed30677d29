"""ECON: exact punc-num, big-nodes, text-node-sets, Joint-para and backtracking on
hand-built pages, plus selection, edge cases and the Chinese path."""

from __future__ import annotations

from helpers import document, node_at, text_of
from scrapy_mainc import ALGORITHMS, extract
from scrapy_mainc.algorithms.econ import (
    EconParams,
    TextNodeSet,
    big_nodes,
    joint_para,
    longest_text_para,
    select,
    subtree_punctuation,
    summary_node,
    text_node_sets,
)

PARAMS = EconParams()
ALL_MARKS = EconParams(all_marks=True)


def sets_of(html: str, params: EconParams = PARAMS) -> list[TextNodeSet]:
    stats = document(html).stats
    return text_node_sets(stats, subtree_punctuation(stats, params.all_marks), params.all_marks)


# -- punc-num -------------------------------------------------------------------------

MARKS_PAGE = "<body><p>a！b？c；d、e!f?g;h.</p><div>x，y<b>z。</b>w?</div></body>"
# Pre-order: 0 body, 1 p, 2 div, 3 b


def test_punc_num_counts_periods_and_commas_only_by_default() -> None:
    stats = document(MARKS_PAGE).stats
    # p: only the final "." (the seven other marks are not punc-num)
    # div: "，" in its text and "。" inside <b>; the "?" of the tail "w?" is not counted
    assert subtree_punctuation(stats) == [1 + 2, 1, 2, 1]


def test_all_marks_adds_the_other_sentence_marks() -> None:
    stats = document(MARKS_PAGE).stats
    # p: ！ ？ ； 、 ! ? ; = 7 more -> 8; div: 2 + the "?" of <b>'s tail, counted in
    # the div's own text -> 3; b: "。" -> 1; body: 8 + 3 = 11
    assert subtree_punctuation(stats, all_marks=True) == [11, 8, 3, 1]


def test_full_width_and_ideographic_marks_count() -> None:
    stats = document("<body><p>一，二。三．四, five.</p></body>").stats
    # ， 。 ． , . -> 5
    assert subtree_punctuation(stats)[1] == 5


# -- big-node -------------------------------------------------------------------------


def test_big_node_is_a_text_parent_or_a_listed_tag() -> None:
    doc = document(
        "<body><div>"
        "<p></p><span>text</span><div>x</div><div><span>y</span></div>"
        '<br><img src="x.png"><font></font><a href="/">link</a><section> </section>'
        "</div></body>"
    )
    # 0 body, 1 div, 2 p, 3 span, 4 div, 5 div, 6 span, 7 br, 8 img, 9 font, 10 a, 11 section
    assert big_nodes(doc.stats) == [
        False,  # body: no text of its own
        False,  # outer div: only whitespace-free children, no text node
        True,  # empty <p>: listed tag
        True,  # span with text
        True,  # div with text
        False,  # div whose only text is inside its child
        True,  # inner span with text
        True,  # br: listed tag
        False,  # img: no text, not listed
        True,  # empty <font>: listed tag
        True,  # link with text
        False,  # whitespace is not a non-empty text node
    ]


# -- text-node-set and Joint-para ------------------------------------------------------

MIXED_PAGE = (
    '<body><div>Lead, <b>bold</b> tail one<img src="x.png">after img. '
    "<i>it</i> <span></span><em>e</em> end</div></body>"
)
# Pre-order: 0 body, 1 div, 2 b, 3 img, 4 i, 5 span, 6 em


def test_runs_split_at_non_big_elements_and_keep_the_text_between() -> None:
    sets = sets_of(MIXED_PAGE)
    assert sets == [
        # body's only child is the div, a big-node: one run, the whole subtree:
        # "Lead," 5 + "bold" 4 + "tail" 4 + "one" 3 + "after" 5 + "img." 4 + "it" 2
        # + "e" 1 + "end" 3 = 31 characters, "," and "." -> 2
        TextNodeSet((1,), 31, 2),
        # the div's text "Lead, " (5, 1) + <b> (4, 0) + its tail " tail one" (7, 0)
        TextNodeSet((2,), 16, 1),
        # <img> ends the run; its tail "after img. " (9, 1) starts the next: + <i> (2, 0)
        TextNodeSet((4,), 11, 1),
        # the empty <span> ends it again: <em> "e" (1) + its tail " end" (3), no marks
        TextNodeSet((6,), 4, 0),
    ]


def test_joint_para_prunes_sets_without_punctuation() -> None:
    kept, pruned = joint_para(sets_of(MIXED_PAGE))
    assert [text_set.members for text_set in kept] == [(1,), (2,), (4,)]
    assert pruned == [6]


def test_a_run_is_built_once_not_once_per_member() -> None:
    paragraphs = "<p>Words, more words.</p>" * 2000
    html = "<body><div>" + paragraphs + "<hr>" + "<p>x</p>" * 3 + "</div></body>"
    doc = document(html)
    sets = sets_of(html)
    assert [len(text_set.members) for text_set in sets] == [2000, 3]
    # 2000 x ("Words," 6 + "more" 4 + "words." 6) and 2000 x 2 marks
    assert (sets[0].chars, sets[0].punct) == (32_000, 4000)
    members = [node for text_set in sets for node in text_set.members]
    big = big_nodes(doc.stats)
    assert sorted(members) == [node for node in range(1, len(big)) if big[node]]


def test_longest_text_para_ties_go_to_the_first_in_document_order() -> None:
    first, second = TextNodeSet((7, 8), 40, 3), TextNodeSet((3,), 40, 9)
    assert longest_text_para([first, second]) is second  # node 3 comes first
    assert longest_text_para([TextNodeSet((3,), 39, 9), first]) is first


# -- Extract-news: backtracking -------------------------------------------------------

NEWS_PAGE = (
    '<body><div id="page">'
    '<div id="nav"><a href="/">Home</a> <a href="/news">News</a></div>'
    '<div id="main"><h1>Headline here</h1>'
    "<p>First sentence, with a comma.</p><p>Second sentence. Third one.</p></div>"
    '<div id="side"><p>{side}</p></div>'
    "</div></body>"
)


def test_backtracking_stops_where_the_parent_adds_no_punctuation() -> None:
    doc = document(NEWS_PAGE.format(side="Related story"))
    stats = doc.stats
    main = node_at(doc, "//div[@id='main']")
    snippet = node_at(doc, "//h1")
    sets = sets_of(NEWS_PAGE.format(side="Related story"))
    kept, _ = joint_para(sets)
    longest = longest_text_para(kept)
    # h1 "Headline here" 12 + "First sentence, with a comma." 25 + "Second sentence.
    # Third one." 24 = 61 characters; marks 0 + 2 + 2 = 4
    assert (longest.members[0], longest.chars, longest.punct) == (snippet, 61, 4)
    punct = subtree_punctuation(stats)
    # h1 -> main: 4 - 0 = 4; main -> page: 4 - 4 = 0, so main is the summary-node
    assert punct[snippet] == 0
    assert punct[main] == punct[node_at(doc, "//div[@id='page']")] == 4
    assert summary_node(stats, punct, snippet) == main
    selection = select(doc, PARAMS)
    assert selection.nodes == (main,)
    assert (selection.score, selection.threshold) == (61.0, 0.0)
    assert selection.excluded == frozenset()  # the pruned nav and side are outside main


def test_a_punctuated_sidebar_makes_backtracking_climb() -> None:
    doc = document(NEWS_PAGE.format(side="Related story, short."))
    page = node_at(doc, "//div[@id='page']")
    punct = subtree_punctuation(doc.stats)
    # main -> page: 6 - 4 = 2 (the sidebar); page -> body: 6 - 6 = 0: page is chosen
    assert punct[page] == punct[0] == 6
    selection = select(doc, PARAMS)
    assert selection.nodes == (page,)
    # the navigation run ("Home News", no mark) was pruned: both links are excluded
    assert selection.excluded == {node_at(doc, "//a[1]"), node_at(doc, "//a[2]")}
    text = extract(NEWS_PAGE.format(side="Related story, short."), algorithm="econ").text
    assert "Home" not in text and "First sentence" in text and "Related story" in text


def test_pruned_nodes_inside_the_summary_are_left_out_of_the_text() -> None:
    html = (
        "<body><div id='story'>"
        "<p>Opening paragraph, with words.</p><p>Second paragraph, more words.</p>"
        "<figure><img src='x.png'></figure><br><p>Photo credit Agency</p>"
        "<div><p>Closing paragraph, last words.</p></div>"
        "</div><div id='foot'><p>About Contact</p></div></body>"
    )
    doc = document(html)
    selection = select(doc, PARAMS)
    assert selection.nodes == (node_at(doc, "//div[@id='story']"),)
    # the <br> and the credit line are a run of their own (the <figure> ends the
    # paragraphs' run), with no mark: Joint-para pruned both; the <br> has no text, so
    # only the paragraph is excluded
    assert selection.excluded == {node_at(doc, "//p[text()='Photo credit Agency']")}
    text = extract(html, algorithm="econ").text
    assert text.splitlines() == [
        "Opening paragraph, with words.",
        "Second paragraph, more words.",
        "Closing paragraph, last words.",
    ]


def test_text_between_big_nodes_keeps_inline_links_with_their_sentence() -> None:
    html = (
        "<body><div><p>据<a href='/x'>新华社</a>报道，今天<b>北京</b>下雨。</p>"
        "<p>第二段<a href='/y'>链接</a>内容，结束。</p></div></body>"
    )
    doc = document(html)
    # <a> and <b> join runs with their tails, which carry the marks: nothing is pruned
    assert joint_para(sets_of(html))[1] == []
    assert text_of(doc, select(doc, PARAMS).nodes[0]) == "据新华社报道，今天北京下雨。第二段链接内容，结束。"


# -- edge cases -----------------------------------------------------------------------


def test_empty_body_gives_a_reason() -> None:
    selection = select(document("<html><body></body></html>"), PARAMS)
    assert selection.nodes == ()
    assert selection.reason == "the page has no text"
    assert select(document("<body><img src='x.png'></body>"), PARAMS).reason


def test_page_without_punctuation_gives_a_reason() -> None:
    html = "<body><div><a href='/'>Home</a> <a href='/x'>News</a></div><p>Just some words</p></body>"
    selection = select(document(html), PARAMS)
    assert selection.nodes == ()
    assert "punc-num is 0" in selection.reason
    result = extract(html, algorithm="econ")
    assert result.text == "" and "punc-num" in result.reason


def test_one_sentence_body_is_found() -> None:
    html = (
        "<body><div id='nav'><a href='/'>Home</a><a href='/about'>About</a></div>"
        "<div id='story'><p>The only sentence, and short.</p></div>"
        "<div id='foot'>Copyright Example</div></body>"
    )
    doc = document(html)
    # <p> -> story: 2 - 2 = 0 at the first step: the paragraph itself is the summary-node
    assert select(doc, PARAMS).nodes == (node_at(doc, "//p"),)
    assert extract(html, algorithm="econ").text == "The only sentence, and short."


def test_one_sentence_body_loses_to_a_longer_punctuated_footer() -> None:
    # The paper's known weakness on short pages: the longest text-para wins.
    html = (
        "<body><div id='story'><p>Short news, here.</p></div>"
        "<div id='foot'><p>Copyright 2020, Example Inc. All rights reserved.</p></div></body>"
    )
    doc = document(html)
    assert select(doc, PARAMS).nodes == (node_at(doc, "//div[@id='foot']/p"),)


def test_text_directly_in_body_is_the_fallback_candidate() -> None:
    doc = document("<body>One sentence, in the body itself.</body>")
    selection = select(doc, PARAMS)
    assert selection.nodes == (0,)
    # "One" 3 + "sentence," 9 + "in" 2 + "the" 3 + "body" 4 + "itself." 7 = 28
    assert selection.score == 28.0


def test_body_text_does_not_outrank_real_sets() -> None:
    html = "<body>stray <div><p>Real paragraph, with marks.</p></div> text</body>"
    doc = document(html)
    assert select(doc, PARAMS).nodes == (node_at(doc, "//p"),)


def test_equal_text_paras_choose_the_first() -> None:
    # "Alpha beta, gamma." and "Delta epsi, lonzz." are both 16 characters, 2 marks
    html = "<body><div><p>Alpha beta, gamma.</p></div><div><p>Delta epsi, lonzz.</p></div></body>"
    doc = document(html)
    assert select(doc, PARAMS).nodes == (node_at(doc, "//div[1]/p"),)


def test_page_without_links() -> None:
    html = "<body><h2>Menu Items</h2><div><p>One paragraph, no link.</p><p>Another one.</p></div></body>"
    doc = document(html)
    selection = select(doc, PARAMS)
    assert selection.nodes == (node_at(doc, "//div"),)


def test_other_marks_option_rescues_exclamations_and_questions() -> None:
    html = "<body><div><p>真的吗？</p><p>太好了！</p></div><div>导航 首页</div></body>"
    doc = document(html)
    assert select(doc, PARAMS).nodes == ()
    # with all marks: p1 -> div: 2 - 1 = 1; div -> body: 2 - 2 = 0
    assert select(doc, ALL_MARKS).nodes == (node_at(doc, "//div[1]"),)
    assert extract(html, algorithm="econ", all_marks=True).text == "真的吗？\n太好了！"


# -- the Chinese path -----------------------------------------------------------------

CHINESE_PAGE = (
    "<html><head><meta charset='gbk'><title>标题</title></head><body>"
    "<div id='nav'><a href='/'>首页</a> <a href='/n'>新闻</a></div>"
    "<div id='art'><h1>标题</h1><p>第一段，内容。</p><p>第二段．更多内容，结束。</p></div>"
    "<div id='links'><a href='/a'>相关新闻一</a><br><a href='/b'>相关新闻二</a></div>"
    "</body></html>"
)


def test_chinese_article_in_gbk_bytes() -> None:
    doc = document(CHINESE_PAGE)
    sets = sets_of(CHINESE_PAGE)
    art = node_at(doc, "//div[@id='art']")
    # h1 "标题" 2 + "第一段，内容。" 7 + "第二段．更多内容，结束。" 12 = 21 characters,
    # marks 2 + 3 = 5 (the full-width period "．" counts)
    assert TextNodeSet(tuple(doc.stats.children[art]), 21, 5) in sets
    # h1 -> art: 5 - 0 = 5; art -> body: 5 - 5 = 0
    assert select(doc, PARAMS).nodes == (art,)
    result = extract(CHINESE_PAGE.encode("gbk"), algorithm="econ")
    assert result.text == "标题\n第一段，内容。\n第二段．更多内容，结束。"


def test_registered_with_the_papers_defaults() -> None:
    algorithm = ALGORITHMS["econ"]
    assert algorithm.select is select
    assert algorithm.defaults == EconParams(all_marks=False)
