"""Exact numbers of the shared statistics pass on a hand-built tree."""

from __future__ import annotations

from helpers import deep_chain, document
from scrapy_mainc.core._stats import DomStats
from scrapy_mainc.core._text import measure

PAGE = (
    "<html><body>"
    '<div id="main"><p>Hello world, again.</p><p>Second <a href="/x">link text</a> here.</p></div>'
    '<ul><li><a href="/a">Home</a></li><li><a>no href</a></li></ul>'
    "</body></html>"
)
# Pre-order: 0 body, 1 div, 2 p, 3 p, 4 a[href], 5 ul, 6 li, 7 a[href], 8 li, 9 a (no href)


def test_structure_in_pre_order() -> None:
    stats = document(PAGE).stats
    assert stats.tags == ["body", "div", "p", "p", "a", "ul", "li", "a", "li", "a"]
    assert stats.parent == [-1, 0, 1, 1, 3, 0, 5, 6, 5, 8]
    assert stats.end == [10, 5, 3, 5, 5, 10, 8, 8, 10, 10]
    assert stats.depth == [0, 1, 2, 2, 3, 1, 2, 3, 2, 3]
    assert stats.children[0] == [1, 5]
    assert stats.children[5] == [6, 8]
    assert stats.elements(1) == 4


def test_own_counts_take_text_and_child_tails() -> None:
    stats = document(PAGE).stats
    # "Hello world, again." -> 5 + 6 + 6 characters, 3 words, a comma and a period
    assert (stats.own_chars[2], stats.own_words[2], stats.own_punct[2]) == (17, 3, 2)
    # second <p>: its text "Second " and the tail " here." of its link
    assert (stats.own_chars[3], stats.own_words[3], stats.own_punct[3]) == (11, 2, 1)
    assert (stats.own_chars[4], stats.own_words[4]) == (8, 2)


def test_subtree_totals_and_links() -> None:
    stats = document(PAGE).stats
    assert stats.chars[1] == 17 + 11 + 8
    assert stats.words[1] == 7
    assert stats.punct[1] == 3
    assert stats.link_chars[1] == 8
    assert stats.link_words[1] == 2
    assert stats.links[1] == 1
    # an <a> without href is not a link: only "Home" is link text in the list
    assert (stats.chars[5], stats.link_chars[5], stats.links[5]) == (10, 4, 1)
    assert stats.in_link == [False, False, False, False, True, False, False, True, False, False]
    assert (stats.chars[0], stats.link_chars[0], stats.links[0]) == (46, 12, 2)
    assert stats.link_density(5) == 0.4
    assert stats.leaves[0] == 4  # p, a, a, a


def test_cjk_words_and_punctuation() -> None:
    stats = document("<body><p>中文测试，好。</p><p>日本語のテキスト、です。 abc</p></body>").stats
    # five ideographs are five words; the full-width comma and period are punctuation, not words
    assert (stats.own_chars[1], stats.own_words[1], stats.own_punct[1], stats.own_cjk[1]) == (7, 5, 2, 5)
    # 8 + 2 CJK characters and "abc"; the ideographic comma is not one of ECON's marks
    assert (stats.own_words[2], stats.own_punct[2], stats.own_cjk[2]) == (11, 1, 10)
    assert stats.cjk[0] == 15


def test_measure_ascii_and_whitespace() -> None:
    assert measure("  a  bb\n ccc ") == (6, 3, 0, 0)
    assert measure(" \n\t ") == (0, 0, 0, 0)


def test_deep_tree_has_no_recursion_limit() -> None:
    root = deep_chain(100_000, "deep text here", top="body")
    stats = DomStats(root)
    assert len(stats) == 100_001
    assert stats.words[0] == 3
    assert stats.depth[-1] == 100_000
    assert stats.end[0] == 100_001


def test_invisible_characters_are_not_text() -> None:
    assert measure("\ufeff") == (0, 0, 0, 0)
    assert measure("\u200b caf\u00e9 \ufeff") == (4, 1, 0, 0)


def test_alike_groups_are_siblings_of_one_tag_and_class() -> None:
    stats = document(
        '<body><ul><li class="a">1</li><li class="b">2</li><li class="a">3</li><p class="a">4</p>'
        '<li>5</li><li class="b">6</li><li class="a">7</li></ul></body>'
    ).stats
    # Pre-order: 0 body, 1 ul, 2 li.a, 3 li.b, 4 li.a, 5 p.a, 6 li, 7 li.b, 8 li.a
    assert (stats.kind(2), stats.kind(5), stats.kind(6)) == (("li", "a"), ("p", "a"), ("li", ""))
    children = stats.children_of(1)
    assert stats.alike_groups(children, 1) == [[2, 4, 8], [3, 7], [5], [6]]
    assert stats.alike_groups(children, 2) == [[2, 4, 8], [3, 7]]
    assert stats.alike_groups(children, 3) == [[2, 4, 8]]
    # the groups keep the order of the nodes given, first member first
    assert stats.alike_groups(reversed(children), 2) == [[8, 4, 2], [7, 3]]


def test_release_drops_every_element() -> None:
    stats = document("<body><div><p>one</p><p>two</p></div></body>").stats
    stats.release()
    assert (stats.nodes, stats.positions) == ([], {})


def _measure_by_character(text: str) -> tuple[int, int, int, int]:
    """The definition of :func:`measure`, one character at a time (slow, plain)."""
    from scrapy_mainc.core._text import _INVISIBLE_RE, CJK_RE

    text = _INVISIBLE_RE.sub(" ", text)
    chars = sum(1 for char in text if not char.isspace() and char not in "\x1c\x1d\x1e\x1f")
    cjk = sum(1 for char in text if CJK_RE.match(char))
    marks = "\u3000\u3001\u3002" + "".join(chr(code) for code in range(0x3003, 0x3040))
    full_width = [
        *range(0xFF01, 0xFF10),
        *range(0xFF1A, 0xFF21),
        *range(0xFF3B, 0xFF41),
        *range(0xFF5B, 0xFF66),
    ]
    marks += "".join(map(chr, full_width))
    spaced = "".join(" " if CJK_RE.match(char) or char in marks else char for char in text)
    words = len(spaced.split()) + cjk if cjk else len(text.split())
    punct = sum(text.count(mark) for mark in ".,。，．")
    return chars, words, punct, cjk


def test_measure_counts_runs_as_their_characters() -> None:
    """Runs of CJK characters and marks are counted as the characters they hold: kana,
    hangul, extension B ideographs, full-width punctuation between words, mixed scripts."""
    texts = [
        "中文测试，好。",
        "日本語のテキスト、です。 abc def",
        "한국어 텍스트입니다. 좋아요!",
        "\U00020000\U00020001 ext-B, 𠀀x",
        "abc中def文。ghi，jkl．mno",
        "（记者 张三）北京12月5日电：ＡＢＣ！ok？",
        "\u200b中\ufeff文 caf\u00e9",
        "ümlaut “quotes” — dash",
    ]
    for text in texts:
        assert measure(text) == _measure_by_character(text), text
