"""CoreEx: exact counts and scores on hand-built pages, ties, forms, and the contract."""

from __future__ import annotations

import pytest
from lxml import etree

from helpers import document, node_at, text_of
from scrapy_mainc import ALGORITHMS, extract, extract_tree
from scrapy_mainc._extract import build_document
from scrapy_mainc.algorithms.corex import CorexParams, count, scores, select
from scrapy_mainc.core._render import render_text

PARAMS = CorexParams()


def words(number: int, stem: str = "w") -> str:
    """``number`` distinct words."""
    return " ".join(f"{stem}{index}" for index in range(number))


def link(number: int) -> str:
    return f'<a href="/x">{words(number, "l")}</a>'


def paper_score(set_text: int, set_links: int, page_text: int) -> float:
    """The paper's score with its default weights."""
    return 0.99 * (set_text - set_links) / set_text + 0.01 * set_text / page_text


# -- counts ---------------------------------------------------------------------------


def test_text_count_is_non_link_words_plus_one_per_link() -> None:
    doc = document(f"<body><div><p>{words(10)} {link(5)} {words(3)}</p></div></body>")
    counts = count(doc.stats, PARAMS)
    p = node_at(doc, "//p")
    assert counts.text[p] == 14  # 13 words outside the link, the 5-word link counts 1
    assert counts.links[p] == 1
    anchor = node_at(doc, "//a")
    assert (counts.text[anchor], counts.links[anchor]) == (1, 1)
    assert counts.text[0] == 14  # pageText


def test_direct_text_is_one_child_with_ratio_one() -> None:
    doc = document(f"<body><div>{words(4)} {link(2)} {words(6)}<br>{words(2)}</div></body>")
    counts = count(doc.stats, PARAMS)
    div = node_at(doc, "//div")
    # Own text 4 + 6 (tail of the link) + 2 (tail of <br>); the link itself is not in S.
    assert counts.set_text[div] == 12
    assert counts.set_links[div] == 0
    assert counts.text[div] == 13


def test_set_takes_children_above_the_threshold_only() -> None:
    # p1: 19 words + 1 link -> textCnt 20, ratio 19/20 = 0.95 > 0.9: in S.
    # p2: 9 words + 1 link -> textCnt 10, ratio 0.9, not above 0.9: out of S.
    # ul: 3 links -> ratio 0: out of S.  img: no text, no ratio: out of S.
    doc = document(
        f"<body><div><p>{words(19)} {link(2)}</p><p>{words(9)} {link(1)}</p>"
        f"<ul><li>{link(2)}</li><li>{link(2)}</li><li>{link(2)}</li></ul>"
        '<img src="x.png"></div></body>'
    )
    counts = count(doc.stats, PARAMS)
    div = node_at(doc, "//div")
    p1, p2 = node_at(doc, "//p[1]"), node_at(doc, "//p[2]")
    assert counts.in_set[p1] and not counts.in_set[p2]
    assert not counts.in_set[node_at(doc, "//ul")]
    assert not counts.in_set[node_at(doc, "//img")]
    assert (counts.set_text[div], counts.set_links[div]) == (20, 1)
    assert counts.text[div] == 33
    assert scores(doc.stats, counts, PARAMS)[div] == pytest.approx(paper_score(20, 1, 33))


def test_threshold_is_a_parameter() -> None:
    doc = document(f"<body><div><p>{words(9)} {link(1)}</p></div></body>")
    p, div = node_at(doc, "//p"), node_at(doc, "//div")
    assert not count(doc.stats, PARAMS).in_set[p]
    assert count(doc.stats, CorexParams(threshold=0.85)).in_set[p]
    assert count(doc.stats, CorexParams(threshold=0.85)).set_text[div] == 10


def test_score_uses_the_weights() -> None:
    doc = document(f"<body><div><p>{words(19)} {link(1)}</p></div><p>{words(20)}</p></body>")
    div = node_at(doc, "//div")
    custom = CorexParams(weight_ratio=0.5, weight_text=0.5)
    value = scores(doc.stats, count(doc.stats, custom), custom)[div]
    assert value == pytest.approx(0.5 * 19 / 20 + 0.5 * 20 / 40)


def test_nodes_inside_links_and_empty_nodes_are_not_candidates() -> None:
    doc = document(f'<body><a href="/"><div>{words(50)}</div></a><p>{words(5)}</p><p></p></body>')
    node_scores = scores(doc.stats, count(doc.stats, PARAMS), PARAMS)
    assert node_scores[node_at(doc, "//a")] is None
    assert node_scores[node_at(doc, "//a/div")] is None
    assert node_scores[node_at(doc, "//p[2]")] is None
    assert node_scores[node_at(doc, "//p[1]")] is not None


def test_cjk_words_count_one_per_ideograph() -> None:
    doc = document("<body><div><p>中文新闻正文</p><p>第二段。</p></div></body>")
    counts = count(doc.stats, PARAMS)
    assert counts.set_text[node_at(doc, "//div")] == 9


# -- selection ------------------------------------------------------------------------


def test_main_content_node_and_its_set() -> None:
    article = "".join(f"<p>{words(30)}</p>" for _ in range(3))
    nav = "".join(f"<li>{link(2)}</li>" for _ in range(8))
    doc = document(
        f"<body><ul>{nav}</ul><div id='main'><h1>{words(6)}</h1>{article}"
        f"<div class='related'>{link(4)} {link(4)}</div></div><p>{words(8)}</p></body>"
    )
    selection = select(doc, PARAMS)
    main = node_at(doc, "//div[@id='main']")
    assert selection.nodes == (main,)
    assert selection.excluded == {node_at(doc, "//div[@class='related']")}
    assert selection.threshold == 0.9
    page_text = 8 + 6 + 3 * 30 + 2 + 8
    assert selection.score == pytest.approx(paper_score(6 + 3 * 30, 0, page_text))


def test_a_paragraph_sets_its_own_links_aside() -> None:
    # S(p) is p's text nodes: the link child has ratio 0 and stays out.
    doc = document(f"<body><p>{words(20)} {link(3)} {words(5, 'v')}</p></body>")
    counts = count(doc.stats, PARAMS)
    p = node_at(doc, "//p")
    assert (counts.set_text[p], counts.set_links[p]) == (25, 0)
    assert scores(doc.stats, counts, PARAMS)[p] == pytest.approx(paper_score(25, 0, 26))
    assert select(doc, PARAMS).excluded == {node_at(doc, "//a")}


def test_tie_goes_to_the_higher_node() -> None:
    # div and p have the same set {p's text}: same score, the div is higher. The body's
    # set adds the second paragraph and its link, which lowers its ratio.
    doc = document(f"<body><div><p>{words(20)}</p></div><p>{words(10, 'v')} {link(3)}</p></body>")
    node_scores = scores(doc.stats, count(doc.stats, PARAMS), PARAMS)
    div, p = node_at(doc, "//div"), node_at(doc, "//div/p")
    assert node_scores[div] == node_scores[p]
    assert node_scores[0] == pytest.approx(paper_score(31, 1, 31))
    assert select(doc, PARAMS).nodes == (div,)


def test_tied_siblings_go_to_the_first() -> None:
    doc = document(f"<body><p id='a'>{words(20)}</p><p id='b'>{words(20, 'v')}</p></body>")
    node_scores = scores(doc.stats, count(doc.stats, PARAMS), PARAMS)
    first, second = node_at(doc, "//p[@id='a']"), node_at(doc, "//p[@id='b']")
    assert node_scores[first] == node_scores[second]
    # The body holds both paragraphs and scores higher still; compare the siblings alone.
    assert node_scores[0] > node_scores[first]
    assert select(doc, PARAMS).nodes == (0,)
    doc = document(
        f"<body><div><p id='a'>{words(20)}</p>{link(1)}</div>"
        f"<div><p id='b'>{words(20, 'v')}</p>{link(1)}</div></body>"
    )
    assert select(doc, PARAMS).nodes == (node_at(doc, "//div[1]"),)


def test_largest_link_free_block_wins_as_the_paper_says() -> None:
    # Each paragraph's set is its own text (ratio 1); the article's set carries the links.
    article = "".join(f"<p>{words(30, f'p{index}_')} {link(2)}</p>" for index in range(5))
    aside = f"<aside><div id='bio'>{words(40, 'b')}</div><ul>{link(1) * 10}</ul></aside>"
    html = f"<body><div id='article'>{article}</div>{aside}</body>"
    doc = document(html)
    page_text = 5 * 31 + 40 + 10
    node_scores = scores(doc.stats, count(doc.stats, PARAMS), PARAMS)
    bio, article_node = node_at(doc, "//div[@id='bio']"), node_at(doc, "//div[@id='article']")
    assert node_scores[bio] == pytest.approx(paper_score(40, 0, page_text))
    assert node_scores[article_node] == pytest.approx(paper_score(155, 5, page_text))
    # The aside's set is the bio alone (the link list is out): a tie the higher node wins.
    aside_node = node_at(doc, "//aside")
    assert node_scores[aside_node] == node_scores[bio]
    assert select(doc, PARAMS).nodes == (aside_node,)
    # With a minimum only the article and the body (whose set is the article alone, a tie
    # that goes to the higher node) compete; the aside is left out of the body's set.
    with_minimum = select(doc, CorexParams(min_set_text=100))
    assert with_minimum.nodes == (0,)
    assert with_minimum.excluded == {aside_node}
    text = extract(html, algorithm="corex", min_set_text=100).text
    assert "p4_29" in text and "b0" not in text


def test_minimum_falls_back_to_the_paper_choice_when_no_set_is_large_enough() -> None:
    doc = document(f"<body><div>{link(2)}{link(2)}</div><p>{words(30)}</p></body>")
    assert select(doc, CorexParams(min_set_text=100)).nodes == select(doc, PARAMS).nodes
    assert select(doc, PARAMS).nodes == (0,)


def test_empty_page_has_a_reason() -> None:
    selection = select(document("<body><div><img src='x'></div></body>"), PARAMS)
    assert selection.nodes == ()
    assert selection.reason


def test_link_only_page_has_no_choice() -> None:
    selection = select(document(f"<body><ul><li>{link(3)}</li><li>{link(3)}</li></ul></body>"), PARAMS)
    assert selection.nodes == ()


# -- forms ----------------------------------------------------------------------------


def test_small_forms_are_ignored_entirely() -> None:
    doc = document(
        f"<body><div id='main'><p>{words(40)}</p>"
        f"<form action='/search'><p>{words(10, 's')}</p></form></div></body>"
    )
    counts = count(doc.stats, PARAMS)
    form = node_at(doc, "//form")
    assert counts.text[form] == 0
    assert counts.text[0] == 40  # the form's words are not in pageText
    assert counts.ignored_forms == (form,)
    node_scores = scores(doc.stats, counts, PARAMS)
    assert node_scores[node_at(doc, "//form/p")] is None
    selection = select(doc, PARAMS)
    assert selection.nodes == (0,)  # the body's set is the div's set: a tie
    assert selection.excluded == {form}


def test_ignored_form_deep_inside_the_content_is_excluded() -> None:
    doc = document(
        f"<body><div><section><p>{words(40)}</p>"
        f"<form><label>{words(5, 'f')}</label></form></section></div></body>"
    )
    selection = select(doc, PARAMS)
    form = node_at(doc, "//form")
    assert form in selection.excluded
    text = render_text(doc.stats, selection.nodes, selection.excluded)
    assert "f0" not in text and "w0" in text


def test_page_wrapping_form_is_an_ordinary_container() -> None:
    nav = "".join(f"<li>{link(2)}</li>" for _ in range(6))
    html = (
        "<body><form id='aspnetForm' action='default.aspx'>"
        f"<ul>{nav}</ul><div id='article'><p>{words(50)}</p><p>{words(40, 'v')}</p></div>"
        "<div><form action='/search'><span>Search</span></form></div>"
        "</form></body>"
    )
    doc = document(html)
    counts = count(doc.stats, PARAMS)
    wrapper, search = node_at(doc, "//form[@id='aspnetForm']"), node_at(doc, "//div/form")
    assert counts.ignored_forms == (search,)
    assert counts.text[0] == 90 + 6
    # The wrapper's set is the article alone, a tie with the article that the higher wins.
    selection = select(doc, PARAMS)
    assert selection.nodes == (wrapper,)
    assert selection.excluded == {node_at(doc, "//ul"), node_at(doc, "//div[2]"), search}
    result = extract(html, algorithm="corex")
    assert result.text.split("\n") == [words(50), words(40, "v")]
    # Ignoring every form, as the paper's preprocessing reads literally, wipes the page out.
    assert select(doc, CorexParams(form_page_share=1.01)).nodes == ()


def test_form_share_is_a_parameter() -> None:
    doc = document(f"<body><form><p>{words(30)}</p></form><p>{words(20, 'v')}</p></body>")
    form = node_at(doc, "//form")
    assert count(doc.stats, PARAMS).ignored_forms == ()  # 30 of 50 words: a wrapper
    assert count(doc.stats, CorexParams(form_page_share=0.7)).ignored_forms == (form,)


# -- through the public API -----------------------------------------------------------


def test_registered_and_extracts_the_set_only() -> None:
    assert ALGORITHMS["corex"].defaults == CorexParams()
    html = (
        f"<html><body><div id='story'><h1>{words(5, 'h')}</h1><p>{words(40)}</p>"
        f"<div class='share'>{link(1)} {link(1)} {link(1)}</div><p>{words(30, 'v')}</p>"
        "</div></body></html>"
    )
    result = extract(html, algorithm="corex")
    assert result.algorithm == "corex"
    assert result.xpath == "/html/body/div"
    assert result.text.split("\n") == [words(5, "h"), words(40), words(30, "v")]
    assert "share" not in result.html
    assert result.score == pytest.approx(paper_score(75, 0, 78))


def test_params_override_through_extract() -> None:
    html = f"<body><p>{words(12)}</p><p>{words(4, 'v')} {link(1)}</p></body>"
    # The second paragraph's ratio is 4/5: out of the body's set, whose score ties the first's.
    assert extract(html, algorithm="corex").score == pytest.approx(paper_score(12, 0, 17))
    weighted = extract(html, algorithm="corex", weight_ratio=0.5, weight_text=0.5)
    assert weighted.score == pytest.approx(0.5 + 0.5 * 12 / 17)
    assert weighted.text == words(12)
    # At threshold 0.75 it joins the set, and with these weights the larger set wins.
    lowered = extract(html, algorithm="corex", weight_ratio=0.5, weight_text=0.5, threshold=0.75)
    assert lowered.score == pytest.approx(0.5 * 16 / 17 + 0.5)
    assert lowered.text.split("\n") == [words(12), f"{words(4, 'v')} l0"]
    with pytest.raises(ValueError):
        extract(html, algorithm="corex", no_such_parameter=1)


def test_caller_tree_is_not_modified() -> None:
    html = f"<html><body><form><p>{words(3)}</p></form><div><p>{words(40)}</p></div></body></html>"
    tree = etree.fromstring(html, etree.HTMLParser())
    before = etree.tostring(tree)
    assert "w39" in extract_tree(tree, algorithm="corex").text
    assert etree.tostring(tree) == before


@pytest.mark.parametrize(
    "html",
    [b"", b"\x00\x01\x02\xff" * 100, "<!-- only a comment -->", "<html><body></body></html>"],
)
def test_bad_input_never_raises(html: str | bytes) -> None:
    result = extract(html, algorithm="corex")
    assert result.text == ""
    assert result.reason


def test_deep_nesting_has_no_recursion_limit() -> None:
    # Built with lxml, ten times Python's recursion limit deep: the HTML parser stops
    # nesting at about 2,000 levels, and lxml builds deeper trees in quadratic time.
    root = etree.Element("html")
    node = etree.SubElement(root, "body")
    for _ in range(10_000):
        node = etree.SubElement(node, "div")
    node.text = words(20)
    doc = build_document(root)
    selection = select(doc, PARAMS)
    assert selection.nodes == (0,)  # every level has the same set: the highest wins
    assert selection.score == pytest.approx(1.0)


def test_selected_text_matches_the_set() -> None:
    doc = document(
        f"<body><div><p>{words(12)}</p><nav>{link(1)}{link(1)}</nav>tail {words(3, 't')}</div></body>"
    )
    selection = select(doc, PARAMS)
    assert selection.nodes == (node_at(doc, "//div"),)
    assert text_of(doc, node_at(doc, "//nav")).startswith("l0l0")
    text = render_text(doc.stats, selection.nodes, selection.excluded)
    assert "l0" not in text and "t2" in text
