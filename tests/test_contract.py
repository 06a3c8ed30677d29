"""Contract tests run against every registered algorithm: bad input never raises or hangs,
an empty result always says why, and the caller's tree is never modified."""

from __future__ import annotations

import random

import pytest
from lxml import etree
from lxml import html as lxml_html

from helpers import deep_chain
from scrapy_mainc import ALGORITHMS, Extraction, extract, extract_tree

NAMES = sorted(ALGORITHMS)
ARTICLE = (
    "<html><head><title>Harbour bridge reopens</title></head><body>"
    "<nav><a href='/'>Home</a> <a href='/world'>World</a> <a href='/sport'>Sport</a></nav>"
    "<div class='story'><h1>Harbour bridge reopens</h1>"
    + "".join(
        f"<p>Paragraph {n} of the story says that engineers finished the repairs, "
        f"that traffic returned on Monday, and that the city council approved the budget.</p>"
        for n in range(8)
    )
    + "</div><footer><a href='/about'>About us</a> <a href='/jobs'>Jobs</a></footer></body></html>"
)


def _random_bytes(size: int) -> bytes:
    generator = random.Random(7)
    return bytes(generator.randrange(256) for _ in range(size))


BAD_INPUTS = {
    "empty bytes": b"",
    "empty text": "",
    "whitespace": "  \n\t  ",
    "binary garbage": _random_bytes(4096),
    "pdf": b"%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\n%%EOF",
    "json": '{"title": "not a page", "items": [1, 2, 3]}',
    "plain text": "just some words without any markup at all",
    "no body": "<p>A page without html or body tags, just a paragraph of text.</p>",
    "only head": "<html><head><title>Nothing here</title></head></html>",
    "unclosed tags": "<html><body><div><p>Unclosed paragraph <b>bold <i>italic <div>more",
    "comment only": "<html><body><!-- nothing but a comment --></body></html>",
    "script only": "<html><body><script>var a = 'text, text.';</script></body></html>",
    "wrong charset": b'<meta charset="utf-8"><p>' + "中文内容，测试。".encode("gbk") + b"</p>",
    "nul in text": "<html><body><p>bad \x00 char</p></body></html>",
    "lone surrogate": "<html><body><p>bad \ud800 surrogate</p></body></html>",
}


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("label", sorted(BAD_INPUTS))
def test_bad_input_returns_a_result_with_a_reason(name: str, label: str) -> None:
    result = extract(BAD_INPUTS[label], algorithm=name)
    assert isinstance(result, Extraction)
    assert result.algorithm == name
    if not result.text:
        assert result.reason, f"{label}: empty text without a reason"
    else:
        assert not result.reason


@pytest.mark.parametrize("name", NAMES)
def test_deep_nesting(name: str) -> None:
    page = "<html><body>" + "<div>" * 100_000 + "deep text" + "</div>" * 100_000 + "</body></html>"
    result = extract(page, algorithm=name)
    assert result.text or result.reason


@pytest.fixture(scope="module")
def deep_tree() -> etree._Element:
    return deep_chain(100_000, "Some words at the bottom of a very deep tree, with punctuation.")


@pytest.mark.parametrize("name", NAMES)
def test_deep_tree_built_by_the_caller(name: str, deep_tree: etree._Element) -> None:
    result = extract_tree(deep_tree, algorithm=name)
    assert result.text or result.reason


@pytest.fixture(scope="module")
def huge_page() -> bytes:
    paragraph = "<p>" + "word " * 80 + "end, of sentence.</p>"
    block = "<div class='c'>" + paragraph * 10 + "<a href='/x'>link</a></div>\n"
    body = block * (10_000_000 // len(block) + 1)
    return ("<html><body>" + body + "</body></html>").encode()


@pytest.mark.parametrize("name", NAMES)
def test_ten_megabyte_page(name: str, huge_page: bytes) -> None:
    assert len(huge_page) >= 10_000_000
    result = extract(huge_page, algorithm=name)
    assert result.text or result.reason


@pytest.mark.parametrize("name", NAMES)
def test_input_tree_is_not_modified(name: str) -> None:
    tree = lxml_html.fromstring(ARTICLE + "<!-- a comment --><script>x=1</script>")
    before = etree.tostring(tree)
    extract_tree(tree, algorithm=name)
    extract_tree(tree.getroottree(), algorithm=name)
    assert etree.tostring(tree) == before


@pytest.mark.parametrize("name", NAMES)
def test_article_text_is_found(name: str) -> None:
    result = extract(ARTICLE, algorithm=name)
    assert "engineers finished the repairs" in result.text
    assert result.xpath
    assert "<script" not in result.html


@pytest.mark.parametrize("name", NAMES)
def test_str_and_bytes_agree(name: str) -> None:
    from_text = extract(ARTICLE, algorithm=name)
    from_bytes = extract(ARTICLE.encode("utf-8"), algorithm=name)
    assert (from_text.text, from_text.xpath) == (from_bytes.text, from_bytes.xpath)


@pytest.mark.parametrize("name", NAMES)
def test_extract_tree_matches_extract(name: str) -> None:
    tree = lxml_html.document_fromstring(ARTICLE)
    assert extract_tree(tree, algorithm=name).text == extract(ARTICLE, algorithm=name).text


MINISTER = "The minister said on Tuesday that the budget would rise, a lot. "
MINISTER_PARAGRAPH = "<p>" + MINISTER * 4 + "</p>"


@pytest.mark.parametrize("name", NAMES)
def test_control_character_after_a_removed_element(name: str) -> None:
    page = (
        "<html><body><article>"
        + MINISTER_PARAGRAPH * 3
        + "<nav><a href=/>Home</a></nav>\x0b</article></body></html>"
    )
    result = extract(page, algorithm=name)
    assert MINISTER.strip() in result.text
    assert "\x0b" not in result.html
