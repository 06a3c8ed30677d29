"""NCE on hand-built trees: every definition with exact numbers, then whole pages.

Texts are runs of one letter so that character counts can be read off: ``"x" * 30`` is
30 characters of one word. Small thresholds (α2 = 50, α3 = 20) keep the pages short.
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from lxml import etree

from helpers import document, node_at
from scrapy_mainc import extract
from scrapy_mainc._extract import build_document
from scrapy_mainc.algorithms import get_algorithm
from scrapy_mainc.algorithms.nce import (
    NceParams,
    _agreement,
    _Blocks,
    _share,
    _words,
    content_forest,
    low_link_children,
    select,
    separator_node,
    text_holder,
    text_sizes,
    title_node,
)

SMALL = NceParams(min_block_chars=50, min_leaf_chars=20, cjk_char_weight=1.0)


def text(letter: str, count: int) -> str:
    return letter * count


def page(body: str, head: str = "") -> str:
    return f"<html><head>{head}</head><body>{body}</body></html>"


# --- |text| with CJK weighting -------------------------------------------------------


def test_text_sizes_weight_cjk_characters() -> None:
    doc = document(page("<div>abc 中文</div><p>xy</p>"))
    # pre-order: 0 body, 1 div, 2 p; div has 3 + 2 = 5 characters, 2 of them CJK
    assert doc.stats.chars == [7, 5, 2]
    subtree, own = text_sizes(doc.stats, replace(SMALL, cjk_char_weight=3.0))
    # weight 3: each CJK character adds 2 more -> div 5 + 2*2 = 9, body 7 + 2*2 = 11
    assert list(subtree) == [11, 9, 2]
    assert list(own) == [0, 9, 2]
    # weight 1 reads the shared statistics as they are
    assert text_sizes(doc.stats, SMALL) == (doc.stats.chars, doc.stats.own_chars)


# --- content blocks and condition (iii) ------------------------------------------------

BLOCKS = page(
    '<div id="c">abcdefg<a href="/x">hij</a></div>'  # 10 chars, 3 linked: ld 0.3
    '<div id="e">abcdefghij</div>'  # 10 chars, no link: ld 0
    '<div id="a">abcdef<a href="/x">ghij</a></div>'  # 10 chars, 4 linked: ld 0.4
    '<div id="d">abcdefgh</div>'  # 8 chars: too small
)


def blocks_of(html: str, params: NceParams) -> tuple[_Blocks, object]:
    doc = document(html)
    return _Blocks(doc.stats, params, text_sizes(doc.stats, params)[0]), doc


def test_content_block_needs_size_and_link_density_below_alpha1() -> None:
    params = replace(SMALL, min_block_chars=10)
    blocks, doc = blocks_of(BLOCKS, params)
    at = {name: node_at(doc, f"//div[@id='{name}']") for name in "ceda"}
    assert blocks.is_content(at["c"])  # 10 >= 10 and 3/10 = 0.3 < 0.4
    assert blocks.is_content(at["e"])  # 10 >= 10 and 0 < 0.4
    assert not blocks.is_content(at["a"])  # 4/10 = 0.4 is not below 0.4
    assert not blocks.is_content(at["d"])  # 8 < 10
    assert blocks_of(BLOCKS, replace(params, block_link_density=0.41))[0].is_content(at["a"])


def test_rival_siblings_are_the_other_content_blocks() -> None:
    blocks, doc = blocks_of(BLOCKS, replace(SMALL, min_block_chars=10))
    # body has two content children (c, e)
    assert blocks.rival_siblings(node_at(doc, "//div[@id='c']")) == 2 - 1
    assert blocks.rival_siblings(node_at(doc, "//div[@id='a']")) == 2 - 0
    assert blocks.rival_siblings(0) == 0  # the root has no siblings


# --- phase 1: the separator node -----------------------------------------------------

STORY = page(
    f"<div id='top'><span>short</span></div>"
    f"<div id='main'><div id='story'><p>{text('x', 30)}</p><p>{text('y', 30)}</p></div>"
    f"<div id='aside'><a href='/a'>{text('z', 10)}</a></div></div>"
)


def test_separator_is_the_closest_qualifying_ancestor_of_the_first_long_leaf() -> None:
    doc = document(STORY)
    # first leaf with >= 20 characters: the first <p> (30); it is a p, so (i) fails;
    # story: 60 >= 50 and its sibling aside (10 characters) is no content block
    assert separator_node(doc.stats, SMALL) == node_at(doc, "//div[@id='story']")
    # main (70 characters) qualifies too, but story is closer
    assert separator_node(doc.stats, replace(SMALL, min_block_chars=61)) == node_at(doc, "//div[@id='main']")


def sections(count: int) -> str:
    blocks = "".join(f"<div id='s{n}'><p>{text('w', 60)}</p></div>" for n in range(2, count + 1))
    return page(
        f"<div id='main'><div id='s1'><p>{text('x', 30)}</p><p>{text('y', 30)}</p></div>"
        f"{blocks}</div><div id='foot'>tiny</div>"
    )


def test_at_most_one_rival_sibling() -> None:
    two = document(sections(2))  # s1 (60) has one rival (s2): still a separator
    assert separator_node(two.stats, SMALL) == node_at(two, "//div[@id='s1']")
    three = document(sections(3))  # s1 has two rivals: up to main (180, sibling foot 4)
    assert separator_node(three.stats, SMALL) == node_at(three, "//div[@id='main']")


LINK_LIST = (
    f"<div id='list'><p>{text('t', 25)}</p>"
    f"<a href='/1'>{text('l', 40)}</a><a href='/2'>{text('m', 40)}</a></div>"
)  # 105 characters, 80 linked: ld 0.76


def test_separator_must_be_a_content_block_unless_none_is() -> None:
    doc = document(page(LINK_LIST + f"<div id='story'><p>{text('x', 60)}</p></div>"))
    story, listing = node_at(doc, "//div[@id='story']"), node_at(doc, "//div[@id='list']")
    # list: 105 >= 50, one rival (story): the paper's conditions accept it
    assert separator_node(doc.stats, replace(SMALL, separator_is_content=False)) == listing
    # as a content block it fails (0.76 >= 0.4); its links' leaves stop at list; story wins
    assert separator_node(doc.stats, SMALL) == story
    # without any content block, the paper's conditions decide
    only_links = document(page(LINK_LIST + "<div>tiny</div>"))
    assert separator_node(only_links.stats, SMALL) == node_at(only_links, "//div[@id='list']")


def test_short_leaves_are_skipped_and_the_root_is_never_the_separator() -> None:
    doc = document(page(f"<p>{text('x', 19)}</p><p>{text('y', 60)}</p>"))
    # the 19-character leaf is under α3; the 60-character one is a p under the root only
    assert separator_node(doc.stats, SMALL) is None
    # then U is the whole tree: the lowest node holding all of its text is the body
    assert content_forest(doc.stats, SMALL) == (None, (0,), set())


def test_whole_tree_descends_through_wrappers_without_recursion() -> None:
    depth = 5_000  # beyond the recursion limit; built directly (the parser caps nesting)
    root = etree.Element("html")
    node = etree.SubElement(root, "body")
    for _ in range(depth):
        node = etree.SubElement(node, "div")
    node.text = text("x", 30)
    doc = build_document(root)
    assert separator_node(doc.stats, SMALL) is None  # 30 < α2 all the way up
    assert text_holder(doc.stats) == depth  # the innermost div
    assert content_forest(doc.stats, SMALL)[1] == (depth,)


# --- F(u, α4) and the content forest ------------------------------------------------


def test_low_link_children_keep_link_density_at_most_alpha4() -> None:
    doc = document(
        page(
            "<div id='u'><div id='k'>abcdef<a href='/x'>ghij</a></div>"  # 4/10 = 0.4: kept
            "<div id='d'>abcde<a href='/x'>fghij</a></div><br></div>"  # 5/10 = 0.5: left out
        )
    )
    u = node_at(doc, "//div[@id='u']")
    kept, dropped = low_link_children(doc.stats, u, 0.4)
    assert kept == [node_at(doc, "//div[@id='k']"), node_at(doc, "//br")]  # no text: ld 0
    assert dropped == [node_at(doc, "//div[@id='d']")]


def test_forest_is_the_kept_children_of_the_separator() -> None:
    doc = document(
        page(
            f"<div id='story'><p>{text('x', 40)}</p>"
            f"<div id='related'><a href='/r'>{text('r', 20)}</a></div><p>{text('y', 40)}</p></div>"
        )
    )
    separator, roots, excluded = content_forest(doc.stats, SMALL)
    assert separator == node_at(doc, "//div[@id='story']")  # 100 >= 50, ld 0.2
    assert roots == (node_at(doc, "//p[1]"), node_at(doc, "//p[2]"))
    assert excluded == set()


def test_separator_with_direct_text_is_kept_whole_minus_link_heavy_children() -> None:
    doc = document(
        page(
            f"<div id='art'>{text('x', 40)}<br>{text('y', 40)}<a href='/x'>{text('l', 10)}</a>"
            "<br></div><div id='nav'><a href='/n'>Home</a></div>"
        )
    )
    art = node_at(doc, "//div[@id='art']")
    # art's own text (80) is the first long leaf; art: 90 >= 50, ld 10/90 = 0.11
    separator, roots, excluded = content_forest(doc.stats, SMALL)
    assert (separator, roots) == (art, (art,))
    assert excluded == {node_at(doc, "//div[@id='art']/a")}  # ld 1.0 > 0.4


def comment(author: str) -> str:
    return f"<div class='c'><span>{author}</span><span>2019-11-20</span></div>"


def test_phase_two_drops_the_comment_region_from_the_forest() -> None:
    def story(*authors: str) -> str:
        blocks = "".join(comment(author) for author in authors)
        return page(f"<div id='story'><p>{text('x', 60)}</p><div id='after'>{blocks}</div></div>")

    doc = document(story("Ann", "Bob", "Cyd"))
    separator, roots, excluded = content_forest(doc.stats, SMALL)
    assert separator == node_at(doc, "//div[@id='story']")  # 60 + 3 * 13 = 99 >= 50
    assert roots == (node_at(doc, "//p"), node_at(doc, "//div[@id='after']"))
    # three alike dated blocks close in DFS order: everything from the first is dropped
    assert excluded == {node_at(doc, f"//div[@class='c'][{n}]") for n in (1, 2, 3)}
    # two alike blocks are no comment region (the paper: at least 3)
    assert content_forest(document(story("Ann", "Bob")).stats, SMALL)[2] == set()


# --- phase 3: the title ------------------------------------------------------------


def test_words_share_and_agreement() -> None:
    assert _words("The U.S.-backed plan") == ["the", "u", "s", "backed", "plan"]
    assert sorted(_words("Apple发布")) == ["apple", "发", "布"]
    assert _share(["a", "b", "c", "d"], frozenset("abx")) == 2 / 4
    assert _share([], frozenset("abx")) == 0.0
    # a, b of 4 words are in the headline (0.5); a, b of its 3 words are in them (0.67)
    assert _agreement(["a", "b", "c", "d"], ["a", "b", "x"]) == 0.5
    assert _agreement(["c", "d"], ["a", "b"]) == 0.0


BODY = (
    "<div id='story'><p>The harbour bridge reopens today after repairs that took "
    "engineers two years, the council said.</p>"
    "<p>Traffic returned to the harbour bridge on Monday morning, and the council "
    "approved the budget for the repairs.</p></div>"
)


def title_of(html: str, params: NceParams = SMALL) -> str | None:
    doc = document(html)
    separator, roots, excluded = content_forest(doc.stats, params)
    node = title_node(doc, roots, excluded, params)
    return None if node is None else doc.stats.nodes[node].get("id") or doc.stats.tags[node]


def test_title_agreeing_with_the_headline_wins() -> None:
    html = page(
        "<div id='nav'><a href='/'>Home</a> <a href='/w'>World</a></div>"
        "<div id='kicker'>the harbour bridge reopens today</div>"
        "<h1 id='headline'>Harbour bridge reopens after repairs</h1>" + BODY,
        head="<title>Harbour bridge reopens after repairs | Daily</title>",
    )
    # kicker: 5 words, all in the body (the paper's test) and more text than the h1...
    assert document(html).title == "Harbour bridge reopens after repairs"
    # ...but the h1 agrees with the page headline (1.0 both ways)
    assert title_of(html) == "headline"


def test_without_headline_the_candidate_with_most_text_in_the_body_wins() -> None:
    html = page(
        "<div id='menu'>Sport Weather Culture Travel</div>"  # 4 words, none in the body
        "<div id='short'>bridge reopens today</div>"  # 3 words, all in the body
        "<div id='long'>harbour bridge reopens after repairs</div>" + BODY  # 5 words
    )
    assert document(html).title == ""
    assert title_of(html) == "long"
    assert title_of(html, replace(SMALL, title_max_words=4)) == "short"  # β4 bound
    assert title_of(html, replace(SMALL, title_min_words=6)) is None  # β3 bound


def test_headings_first_then_most_text_then_document_order() -> None:
    html = page(
        "<div id='long'>harbour bridge reopens after repairs</div>"
        "<h2 id='heading'>bridge reopens today</h2>" + BODY
    )
    assert title_of(html) == "heading"
    tie = page("<div id='first'>bridge reopens today</div><div id='second'>today reopens bridge</div>" + BODY)
    assert title_of(tie) == "first"


def test_title_candidates_end_before_the_forest() -> None:
    # the only heading sits after the first forest node: it is no candidate
    html = page(f"<div id='story'><p>{text('x', 60)}</p><h2>bridge reopens today</h2></div>")
    assert title_of(html) is None


# --- the whole selection ------------------------------------------------------------

ARTICLE = page(
    "<div id='nav'><a href='/'>Home</a> <a href='/world'>World news</a></div>"
    "<h1>Harbour bridge reopens after repairs</h1>"
    + BODY
    + "<div id='more'><a href='/1'>Other stories from the harbour</a></div>",
    head="<title>Harbour bridge reopens after repairs</title>",
)


def test_selection_is_title_then_forest_in_document_order() -> None:
    doc = document(ARTICLE)
    selection = select(doc, SMALL)
    h1, story = node_at(doc, "//h1"), node_at(doc, "//div[@id='story']")
    assert selection.nodes == (h1, story + 1, story + 2)  # h1, then the two <p>
    # score: |text(T_story)| against the threshold α2
    assert (selection.score, selection.threshold) == (doc.stats.chars[story], 50)
    assert not selection.reason
    without = select(doc, replace(SMALL, include_title=False))
    assert without.nodes == (story + 1, story + 2)


def test_extract_with_defaults_finds_the_article() -> None:
    result = extract(ARTICLE, algorithm="nce", min_block_chars=50, min_leaf_chars=20)
    assert result.text.splitlines()[0] == "Harbour bridge reopens after repairs"
    assert "council approved the budget" in result.text
    assert "Other stories" not in result.text and "World news" not in result.text


def test_empty_body_says_why() -> None:
    selection = select(document(page("")), SMALL)
    assert (selection.nodes, selection.reason) == ((), "the page has no text")


def test_page_without_links() -> None:
    doc = document(page(f"<div id='a'><p>{text('x', 30)}</p><p>{text('y', 30)}</p></div>"))
    assert select(doc, SMALL).nodes == (node_at(doc, "//p[1]"), node_at(doc, "//p[2]"))


def test_registered_with_tuned_defaults() -> None:
    algorithm = get_algorithm("nce")
    defaults = algorithm.defaults
    assert defaults == NceParams()
    # α1 = 0.4 as the paper observed; α4 = 0.5 tuned; α2 = 1000, α3 = 150 characters
    assert (defaults.block_link_density, defaults.forest_link_density) == (0.4, 0.5)
    assert (defaults.min_block_chars, defaults.min_leaf_chars) == (1000, 150)
    assert algorithm.params(min_leaf_chars=20).min_leaf_chars == 20
    with pytest.raises(ValueError):
        algorithm.params(alpha=1)
