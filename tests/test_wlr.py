"""WLR (Insa, Silva, Tamarit) and its ratio variants: exact numbers on hand-built trees."""

from __future__ import annotations

import math
import random

import pytest
from lxml import etree

from helpers import document, node_at, text_of
from scrapy_mainc._extract import build_document
from scrapy_mainc.algorithms import get_algorithm
from scrapy_mainc.algorithms.wlr import (
    FORMATTING_TAGS,
    VARIANTS,
    WlrParams,
    content_ids,
    content_nodes,
    initial_nodes,
    is_static,
    leaf_counts,
    ratios,
    relevances,
    select,
    weights,
)
from scrapy_mainc.core._stats import DomStats

# Pre-order: 0 body, 1 div#a, 2 b, 3 a, 4 div#b, 5 p, 6 ul, 7 li, 8 li, 9 p
LEAVES_PAGE = """<html><body>
<div id="a">Intro text <b>bold</b> more <a href="/x">link</a></div>
<div id="b"><p>First para here</p><ul><li>x y</li><li>z</li></ul><p>Last one</p></div>
</body></html>"""

# Pre-order: 0 body, 1 ul, 2 li, 3 a, 4 li, 5 a, 6 li, 7 a, 8 div#main, 9 p, 10 p
MENU_PAGE = """<html><body>
<ul><li><a href="/1">Home</a></li><li><a href="/2">News</a></li><li><a href="/3">Sport</a></li></ul>
<div id="main"><p>Rain fell on the quiet town</p><p>Roads were closed overnight</p></div>
</body></html>"""

# No links at all. Pre-order: 0 body, 1 div#x, 2 section, 3 p, 4 section, 5 p, 6 ul, 7-10 li
SECTIONS_PAGE = """<html><body>
<div id="x">
  <section><p>one two three four five six</p></section>
  <section><p>one two three four five six seven eight</p></section>
</div>
<ul><li>m1</li><li>m2</li><li>m3</li><li>m4</li></ul>
</body></html>"""


def wlr_values(html: str, ratio: str = "wlr") -> list[float]:
    stats = document(html).stats
    return ratios(stats, content_nodes(stats), ratio)


def reference_content(stats: DomStats) -> list[bool]:
    """Definition 4.1 literally: drop word-less leaves until none is left (a fix point).

    Text children with words make an element an inner node; word-less texts are leaves
    dropped in the first round, so an element is a word-less leaf when it has no words of
    its own and no element child left.
    """
    alive = set(range(len(stats)))
    changed = True
    while changed:
        changed = False
        for node in sorted(alive):
            has_child = any(child in alive for child in stats.children[node])
            if not stats.own_words[node] and not has_child:
                alive.discard(node)
                changed = True
    return [node in alive for node in range(len(stats))]


def reference_leaves(stats: DomStats, content: list[bool]) -> list[int]:
    """Figure 5 read forwards over each node's items (text, child, tail, child, tail...)."""

    def has_words(text: str | None) -> bool:
        return bool(text and text.split())

    leaves = [0] * len(stats)
    for node in range(len(stats) - 1, -1, -1):
        if not content[node]:
            continue
        items: list[tuple[bool, int]] = []  # (formatting, l)
        if has_words(stats.nodes[node].text):
            items.append((True, 1))
        for child in stats.children[node]:
            if content[child]:
                formatting = (
                    stats.tags[child] in FORMATTING_TAGS and is_static(stats, child) and leaves[child] == 1
                )
                items.append((formatting, leaves[child]))
            if has_words(stats.nodes[child].tail):
                items.append((True, 1))
        total = 0
        for place, (formatting, count) in enumerate(items):
            next_formatting = place + 1 < len(items) and items[place + 1][0]
            if not (formatting and next_formatting):
                total += count
        leaves[node] = total
    return leaves


def random_tree(seed: int) -> etree._Element:
    """A random page: formatting and block tags, texts, tails, empty and positioned divs."""
    rng = random.Random(seed)
    tags = ["div", "p", "span", "a", "b", "ul", "li", "section", "br", "img"]
    html = etree.Element("html")
    body = etree.SubElement(html, "body")
    open_nodes = [body]
    for _ in range(300):
        parent = rng.choice(open_nodes[-6:])
        child = etree.SubElement(parent, rng.choice(tags))
        if child.tag == "div" and rng.random() < 0.2:
            child.set("style", "position: absolute")
        child.text = rng.choice([None, "", "  ", "word", "two words"])
        child.tail = rng.choice([None, " ", "tail", "tail words here"])
        if child.tag not in ("br", "img"):
            open_nodes.append(child)
    return html


# --- content nodes and ids ------------------------------------------------------------


def test_content_nodes_are_the_fix_point_of_dropping_wordless_leaves() -> None:
    html = """<html><body>
    <div><p>One two</p><span></span><div><br><img src="a.png"></div>  </div>
    <ul><li> </li></ul>
    <div><div><div></div></div>tail words</div>
    </body></html>"""
    stats = document(html).stats
    assert stats.tags == [
        "body", "div", "p", "span", "div", "br", "img", "ul", "li", "div", "div", "div"
    ]  # fmt: skip
    expected = [True, True, True, False, False, False, False, False, False, True, False, False]
    assert reference_content(stats) == expected
    assert content_nodes(stats) == expected


@pytest.mark.parametrize("seed", range(8))
def test_content_nodes_match_the_fix_point_on_random_trees(seed: int) -> None:
    stats = build_document(random_tree(seed)).stats
    assert content_nodes(stats) == reference_content(stats)


def test_ids_number_content_elements_in_pre_order() -> None:
    assert content_ids([True, False, True, True, False]) == [0, -1, 1, 2, -1]


# --- static position and leaves -------------------------------------------------------


def test_static_position_is_false_only_for_positioned_divs() -> None:
    html = """<html><body><div style="POSITION: Fixed">a</div><div style="position:absolute">b</div>
    <div style="position: relative">c</div><span style="position:absolute">d</span><div>e</div>
    </body></html>"""
    stats = document(html).stats
    assert [is_static(stats, node) for node in range(1, 6)] == [False, False, True, True, True]


def test_leaves_join_runs_of_formatting_children() -> None:
    stats = document(LEAVES_PAGE).stats
    content = content_nodes(stats)
    # div#a: "Intro text ", <b>, " more ", <a>: one run of formatting items -> 1
    # ul: two <li> (not formatting) of one leaf each -> 2
    # div#b: <p> (run) + ul (2, breaks the run) + <p> (new run) -> 1 + 2 + 1 = 4
    # body: div#a (a static div with one leaf: formatting) + div#b (4 leaves) -> 1 + 4 = 5
    assert leaf_counts(stats, content) == [5, 1, 1, 1, 4, 1, 2, 1, 1, 1]


def test_a_positioned_div_breaks_a_run_and_a_static_one_joins_it() -> None:
    html = """<html><body><div id="s">alpha <div style="position:absolute">beta</div> gamma</div>
    <div id="t">alpha <div style="top: 0">beta</div> gamma</div></body></html>"""
    stats = document(html).stats
    # div#s: "alpha " (1) + positioned div (not formatting: +1) + " gamma" (new run: +1) = 3
    # div#t: one run of three formatting items = 1; body: div#s 3 + div#t 1 = 4
    assert leaf_counts(stats, content_nodes(stats)) == [4, 3, 1, 1, 1]


def test_wordless_children_do_not_break_a_run() -> None:
    joined = document(
        '<html><body><div><b>one</b> <br> <img src="x.png"> <span> </span> <i>two</i></div></body></html>'
    ).stats
    split = document("<html><body><div><b>one</b><ul><li>x</li></ul><i>two</i></div></body></html>").stats
    # <br>, <img>, the empty <span> and whitespace are no content nodes: <b> and <i> are adjacent
    assert leaf_counts(joined, content_nodes(joined))[1] == 1
    # a <ul> between them is a content node that is not formatting: 1 + 1 + 1
    assert leaf_counts(split, content_nodes(split))[1] == 3


def test_a_formatting_child_with_two_leaves_is_not_joined() -> None:
    html = "<html><body><div>x <p>a</p><div><p>b</p><ul><li>c</li></ul></div> y</div></body></html>"
    stats = document(html).stats
    # Pre-order: 0 body, 1 div, 2 p, 3 div, 4 p, 5 ul, 6 li
    # inner div: <p> (1) + <ul> (1) = 2, so it is no formatting leaf in the outer div:
    # "x " and <p> (one run: 1) + inner div (2) + " y" (1) = 4
    assert leaf_counts(stats, content_nodes(stats)) == [4, 4, 1, 2, 1, 1, 1]


@pytest.mark.parametrize("seed", range(8))
def test_backward_sweep_matches_figure_5_read_forwards(seed: int) -> None:
    stats = build_document(random_tree(seed)).stats
    content = content_nodes(stats)
    assert leaf_counts(stats, content) == reference_leaves(stats, content)


# --- the ratios -----------------------------------------------------------------------


def test_words_leaves_ratio() -> None:
    values = wlr_values(LEAVES_PAGE)
    # tw: div#a 2 + 1 + 1 + 1 = 5; div#b 3 + 2 + 1 + 2 = 8; body 13
    # body 13/5, div#a 5/1, b 1, a 1, div#b 8/4, p 3, ul 3/2, li 2, li 1, p 2
    assert values == pytest.approx([2.6, 5.0, 1.0, 1.0, 2.0, 3.0, 1.5, 2.0, 1.0, 2.0])


def test_variant_ratios() -> None:
    # characters: div#a 9 + 4 + 4 + 4 = 21, div#b 13 + 2 + 1 + 7 = 23, body 44
    # content elements: body 10, div#a 3, div#b 6, ul 3
    assert wlr_values(LEAVES_PAGE, "cnr")[:2] == pytest.approx([44 / 10, 21 / 3])
    assert wlr_values(LEAVES_PAGE, "cnr")[4] == pytest.approx(23 / 6)
    assert wlr_values(LEAVES_PAGE, "wnr")[:2] == pytest.approx([13 / 10, 5 / 3])
    assert wlr_values(LEAVES_PAGE, "wnr")[6] == pytest.approx(3 / 3)
    assert wlr_values(LEAVES_PAGE, "clr")[:2] == pytest.approx([44 / 5, 21 / 1])
    assert wlr_values(LEAVES_PAGE, "clr")[4] == pytest.approx(23 / 4)


def test_non_content_nodes_get_no_ratio() -> None:
    values = wlr_values("<html><body><p>three words here</p><div><img src='a.png'></div></body></html>")
    assert values == [3.0, 3.0, 0.0, 0.0]


# --- initial nodes, weights, relevance --------------------------------------------------


def test_initial_nodes_weights_and_relevance_on_a_menu_page() -> None:
    stats = document(MENU_PAGE).stats
    content = content_nodes(stats)
    values = ratios(stats, content, "wlr")
    # the menu: a/li 1 each, ul 3 words / 3 leaves; the <p>s form one run in div#main
    # body: ul (3) + div#main (1) = 4 leaves, 3 + 10 = 13 words
    assert values == pytest.approx([13 / 4, 1, 1, 1, 1, 1, 1, 1, 10, 6, 4])
    initial, threshold = initial_nodes(content, values)
    assert threshold == pytest.approx(math.sqrt(10 * 3.25))  # 5.70: p#10 (4) is below
    assert initial == [8, 9]
    weight = weights(content, values, content_ids(content), initial)
    # div#main: r_pos 1, r_WLR (10-1)/(10-1) = 1; p#9: r_pos 0, r_WLR 5/9
    assert weight == pytest.approx([0.0] * 8 + [1.0, 0.0, 0.0])
    literal = relevances(stats, content, values, weight)
    # R(div#main) = 10 * max(1, 0 + 0) = 10; R(body) = 3.25 * max(0, 10) = 32.5
    assert literal[8] == pytest.approx(10.0)
    assert literal[0] == pytest.approx(32.5)
    scaled = relevances(stats, content, [value / 10 for value in values], weight)
    # R(div#main) = 1 * 1 = 1; R(body) = 0.325 * 1 = 0.325
    assert (scaled[8], scaled[0]) == pytest.approx((1.0, 0.325))


def test_relevance_sums_children_and_keeps_the_larger_own_weight() -> None:
    stats = document(SECTIONS_PAGE).stats
    content = content_nodes(stats)
    values = ratios(stats, content, "wlr")
    # div#x: two sections (not formatting) = 2 leaves, 14 words; ul: 4 leaves, 4 words
    assert values == pytest.approx([18 / 6, 7, 6, 6, 8, 8, 1, 1, 1, 1, 1])
    initial, threshold = initial_nodes(content, values)
    assert threshold == pytest.approx(math.sqrt(8 * 3))  # 4.90
    assert initial == [1, 2, 3, 4, 5]
    weight = weights(content, values, content_ids(content), initial)
    # r_pos 1, 3/4, 1/2, 1/4, 0; r_WLR (v - 1)/7: 6/7, 5/7, 5/7, 1, 1
    assert weight[1:6] == pytest.approx([6 / 7, 15 / 28, 5 / 14, 1 / 4, 0.0])
    scaled = relevances(stats, content, [value / 8 for value in values], weight)
    # p5 1 * max(0, 0) = 0; section4 1 * max(1/4, 0) = 1/4; p3 3/4 * 5/14 = 15/56
    # section2 3/4 * max(15/28, 15/56) = 45/112
    # div#x 7/8 * max(6/7, 45/112 + 1/4 = 73/112) = 3/4; body 3/8 * 3/4 = 9/32
    assert scaled[:6] == pytest.approx([9 / 32, 3 / 4, 45 / 112, 15 / 56, 1 / 4, 0.0])
    literal = relevances(stats, content, values, weight)
    # section4 8/4 = 2; p3 6 * 5/14 = 15/7; section2 6 * 15/7 = 90/7
    # div#x 7 * max(6/7, 90/7 + 2) = 104; body 3 * 104 = 312
    assert literal[:6] == pytest.approx([312, 104, 90 / 7, 15 / 7, 2, 0.0])


@pytest.mark.parametrize("html", [LEAVES_PAGE, MENU_PAGE, SECTIONS_PAGE])
@pytest.mark.parametrize("ratio", ["wlr", "clr"])
def test_literal_relevance_never_decreases_towards_the_root(html: str, ratio: str) -> None:
    """Why ``normalize_relevance`` exists: every content node has WLR >= 1 (and CLR >= 1)."""
    doc = document(html)
    stats = doc.stats
    content = content_nodes(stats)
    values = ratios(stats, content, ratio)
    assert min(value for value, kept in zip(values, content) if kept) >= 1
    initial, _ = initial_nodes(content, values)
    weight = weights(content, values, content_ids(content), initial)
    relevance = relevances(stats, content, values, weight)
    assert all(relevance[stats.parent[node]] >= relevance[node] for node in range(1, len(stats)))
    assert select(doc, WlrParams(ratio=ratio, normalize_relevance=False)).nodes == (0,)


# --- selection ----------------------------------------------------------------------------

ARTICLE_PAGE = """<html><head><title>Harbour reopens</title></head><body>
<header><ul class="menu"><li><a href="/">Home</a></li><li><a href="/world">World</a></li>
<li><a href="/sport">Sport</a></li><li><a href="/about">About us</a></li></ul></header>
<div id="page">
 <article>
  <h1>Harbour reopens after the storm</h1>
  <p class="byline">By A. Writer</p>
  <p>The old harbour reopened on Monday after a week of repairs to the sea wall,
     which had been damaged by waves during the storm.</p>
  <p>Fishing boats returned at dawn, and the <a href="/market">market</a> opened
     two hours later than usual while crates were unloaded.</p>
  <p>Engineers said the wall would be <em>inspected again</em> next spring, once
     the winter tides have passed and the stones have settled.</p>
 </article>
 <aside><h2>Related</h2><ul><li><a href="/a">Storm closes roads</a></li>
 <li><a href="/b">Ferry times change</a></li>
 <li><a href="/c">Rain warning issued</a></li></ul></aside>
</div>
<footer><p>Copyright the town paper</p><a href="/contact">Contact</a></footer>
</body></html>"""


@pytest.mark.parametrize("name", ["wlr", "clr"])
def test_selects_the_article_on_a_hand_built_page(name: str) -> None:
    doc = document(ARTICLE_PAGE)
    algorithm = get_algorithm(name)
    selection = algorithm.select(doc, algorithm.defaults)
    assert selection.nodes == (node_at(doc, "//article"),)
    assert selection.threshold is not None and selection.score > 0
    assert text_of(doc, selection.nodes[0]).startswith("Harbour reopens after the storm")


def test_selects_main_over_the_menu_and_the_root() -> None:
    doc = document(MENU_PAGE)
    selection = select(doc, WlrParams())
    assert selection.nodes == (8,)
    assert selection.score == pytest.approx(1.0)
    assert selection.threshold == pytest.approx(math.sqrt(32.5))


def test_page_without_links_selects_the_block_with_the_largest_own_weight() -> None:
    assert select(document(SECTIONS_PAGE), WlrParams()).nodes == (1,)


def test_ties_go_to_the_lower_id() -> None:
    html = """<html><body><div>Lead <section>one two three four</section><p>five six</p>
    <section>seven eight nine ten</section><section>eleven twelve thirteen fourteen</section>
    </div></body></html>"""
    doc = document(html)
    stats = doc.stats
    content = content_nodes(stats)
    # Pre-order: 0 body, 1 div, 2 section, 3 p, 4 section, 5 section
    # div: "Lead " (run) + section + <p> (new run) + section + section = 5 leaves, 15 words
    values = ratios(stats, content, "wlr")
    assert values == pytest.approx([3, 3, 4, 2, 4, 4])
    initial, _ = initial_nodes(content, values)
    assert initial == [2, 4, 5]  # threshold sqrt(4 * 3) = 3.46
    weight = weights(content, values, content_ids(content), initial)
    # r_pos 1, 1/3, 0; r_WLR (4 - 2) / (4 - 2) = 1 for all three
    assert weight == pytest.approx([0, 0, 1, 0, 1 / 3, 0])
    relevance = relevances(stats, content, [value / 4 for value in values], weight)
    # section#5 0, section#4 1/3, p 0, section#2 1 * max(1, 0) = 1
    # div 3/4 * max(0, 1 + 1/3) = 1: a tie with section#2; body 3/4 * 1 = 3/4
    assert relevance[1] == relevance[2] == 1.0
    assert select(doc, WlrParams()).nodes == (1,)


def test_a_single_initial_node_has_full_position_weight() -> None:
    doc = document(
        "<html><body><ul><li>one two three four five six</li><li>x</li></ul><p>y</p></body></html>"
    )
    stats = doc.stats
    content = content_nodes(stats)
    # Pre-order: 0 body, 1 ul, 2 li, 3 li, 4 p; ul 7 words / 2 leaves, body 8 / (2 + 1)
    values = ratios(stats, content, "wlr")
    assert values == pytest.approx([8 / 3, 3.5, 6, 1, 1])
    initial, threshold = initial_nodes(content, values)
    assert (initial, threshold) == ([2], pytest.approx(4.0))  # sqrt(6 * 8/3) = 4 > 3.5
    # max_id = min_id: r_pos is 1 (zero denominator guard); r_WLR (6 - 1) / (6 - 1) = 1
    weight = weights(content, values, content_ids(content), initial)
    assert weight == pytest.approx([0, 0, 1, 0, 0])
    selection = select(doc, WlrParams())
    # R(li) = 1 * 1 = 1; R(ul) = 3.5/6 * 1 = 7/12; R(body) = (8/3)/6 * 7/12 = 7/27
    assert selection.nodes == (2,)
    assert selection.score == pytest.approx(1.0)


def test_equal_ratios_use_the_zero_denominator_guard() -> None:
    # body -> ul -> li, li: every ratio is 1 (ul: 2 words / 2 leaves), so max_WLR = min_WLR
    # and r_WLR is 1; all four are initial (threshold sqrt(1 * 1) = 1), ids 0..3 give
    # W = 1, 2/3, 1/3, 0 and R(li#3) = 0, R(li#2) = 1/3, R(ul) = max(2/3, 1/3) = 2/3,
    # R(body) = max(1, 2/3) = 1.
    doc = document("<html><body><ul><li>one</li><li>two</li></ul></body></html>")
    stats = doc.stats
    content = content_nodes(stats)
    values = ratios(stats, content, "wlr")
    initial, threshold = initial_nodes(content, values)
    assert (initial, threshold) == ([0, 1, 2, 3], 1.0)
    weight = weights(content, values, content_ids(content), initial)
    assert weight == pytest.approx([1, 2 / 3, 1 / 3, 0])
    assert relevances(stats, content, values, weight) == pytest.approx([1, 2 / 3, 1 / 3, 0])
    assert select(doc, WlrParams()).nodes == (0,)


# --- edge cases and registration ---------------------------------------------------------


@pytest.mark.parametrize(
    "html",
    [
        "<html><body></body></html>",
        "<html><body>   <img src='a.png'><br> <div> </div></body></html>",
        "<html><head><title>Only a title</title></head><body><script>var a = 1;</script></body></html>",
    ],
)
def test_pages_without_words_select_nothing(html: str) -> None:
    selection = select(document(html), WlrParams())
    assert selection.nodes == ()
    assert selection.reason == "the page has no words"


def test_text_directly_in_body_selects_the_body() -> None:
    selection = select(document("<html><body>Just a few words here</body></html>"), WlrParams())
    assert selection.nodes == (0,)


def test_very_deep_tree_without_recursion() -> None:
    # 10,000 levels: ten times Python's recursion limit (lxml's SubElement walks up the
    # ancestors on every insert, so building 100,000 levels alone takes a minute)
    html = etree.Element("html")
    node = etree.SubElement(html, "body")
    for _ in range(10_000):
        node = etree.SubElement(node, "section")
    node.text = "deep words"
    doc = build_document(html)
    # a chain of non-formatting nodes with one leaf each: every WLR is 2, all initial;
    # only the body has r_pos 1, so it has the largest relevance
    assert select(doc, WlrParams()).nodes == (0,)


def test_select_does_not_modify_the_tree() -> None:
    doc = document(ARTICLE_PAGE)
    before = etree.tostring(doc.root)
    for algorithm in VARIANTS:
        algorithm.select(doc, algorithm.defaults)
    assert etree.tostring(doc.root) == before


def test_variants_share_select_and_differ_only_in_ratio() -> None:
    assert [algorithm.name for algorithm in VARIANTS] == ["wlr", "cnr", "wnr", "clr"]
    for algorithm in VARIANTS:
        assert algorithm.select is select
        assert algorithm.defaults == WlrParams(ratio=algorithm.name)
        assert get_algorithm(algorithm.name) is algorithm
    assert get_algorithm("wlr").params(ratio="cnr") == WlrParams(ratio="cnr")


def test_unknown_ratio_is_rejected() -> None:
    with pytest.raises(ValueError, match="unknown ratio"):
        WlrParams(ratio="tags")
