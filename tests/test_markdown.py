"""``Extraction.markdown``: Markdown rendered over the statistics, read back by a
CommonMark reader (``markdown_reader``): its words are ``main_text``'s, it holds no HTML
and no unsafe URL, and each kind of block comes out as Markdown."""

from __future__ import annotations

import pytest
from markdown_reader import read

from benchmarks import devsets
from helpers import deep_chain, document, node_at
from scrapy_mainc import extract, extract_tree
from scrapy_mainc.core._markdown import render_markdown
from scrapy_mainc.core._render import render_text

STORY = "<p>Every paragraph of this story has commas, periods and enough words to be the article.</p>"


def _page(body: str) -> str:
    article = f"<article>{STORY}{body}{STORY * 2}</article>"
    return f"<html><body><nav><a href='/'>Home</a></nav>{article}</body></html>"


def md(body: str, **keywords: object) -> str:
    return extract(_page(body), url="https://news.example/story", markdown=True, **keywords).markdown  # type: ignore[arg-type]


def test_markdown_is_off_by_default() -> None:
    assert extract(_page("<p>Words.</p>")).markdown == ""


def rendered(body: str) -> str:
    """The Markdown of ``<div id="root">body</div>``, rendered as the selection's root; its
    words are checked against the plain text's."""
    doc = document(f"<html><body><div id='root'>{body}</div></body></html>", "https://news.example/story")
    root = node_at(doc, "//div[@id='root']")
    markdown = render_markdown(doc.stats, (root,), (), doc.base_url)
    assert read(markdown).text.split() == render_text(doc.stats, (root,)).split()
    return markdown


def test_blocks() -> None:
    body = (
        "<h2>A heading</h2><p>First <b>bold</b> and <i>italic</i>, <code>x = 1</code>, "
        "<del>gone</del>.<br>After a break.</p>"
        "<ul><li>one</li><li>two<ul><li>nested</li></ul></li></ul>"
        "<ol start='3'><li>third</li><li>fourth</li></ol>"
        "<blockquote><p>Quoted.</p><p>Twice.</p></blockquote>"
        "<pre>def f():\n    return '*'</pre><hr>"
    )
    assert rendered(body).split("\n\n") == [
        "## A heading",
        "First **bold** and *italic*, `x = 1`, ~~gone~~.\\\nAfter a break.",
        "- one\n- two\n  - nested",
        "3. third\n4. fourth",
        "> Quoted.\n>\n> Twice.",
        "```\ndef f():\n    return '*'\n```",
        "---",
    ]


def test_links_and_images_are_absolute_and_safe() -> None:
    body = (
        "<p>See <a href='/a b(1)'>the report</a>, <a href='javascript:alert(1)'>this</a> and "
        "<a href='java&#x09;script:x'>that</a>. <img src='/i.jpg' alt='A [harbour]'>"
        "<img src='javascript:x' alt='bad'> <a href='/x'><img src='/t.png' alt='T'></a></p>"
    )
    read_back = read(rendered(body))
    assert read_back.urls == [
        "https://news.example/a%20b%281%29",
        "https://news.example/i.jpg",
        "https://news.example/x",
        "https://news.example/t.png",
    ]
    assert "See the report, this and that." in read_back.text
    assert "![A \\[harbour\\]](https://news.example/i.jpg)" in rendered(body)


@pytest.mark.parametrize(
    "text",
    [
        "*not emphasis* and _not either_",
        "[a link](javascript:alert(1)) that is text",
        "<img src=x onerror=alert(1)> and <script>alert(1)</script>",
        "# not a heading",
        "- not a list",
        "1. not a list either",
        "> not a quote",
        "| a | b |",
        "&amp; &#60; entities stay text",
        "```fence``` and `code` ~~struck~~ \\ backslash",
    ],
)
def test_page_text_that_looks_like_markdown_stays_text(text: str) -> None:
    escaped = text.replace("&", "&amp;").replace("<", "&lt;")
    found = read(rendered(f"<p>{escaped}</p><p>{escaped}<br>{escaped}</p>"))
    assert found.text.split("\n") == [text] * 3
    assert not found.html and not found.urls and not found.inline
    assert found.blocks == {"paragraph"}


def test_words_are_those_of_the_plain_text() -> None:
    """Soft hyphens go, decomposed letters are composed (NFC), zero-width spaces split
    words, as in ``Extraction.text`` (found by the slow test below on 20 pages)."""
    body = "<p>Mit\u00adtel\u00adal\u00adter, Rene\u0301 Descartes and zero\u200bwidth.</p>"
    markdown = md(body)
    assert "Mittelalter, Ren\u00e9 Descartes and zero width." in markdown
    assert read(markdown).text.split() == extract(_page(body)).text.split()


def test_data_tables_and_layout_tables() -> None:
    data = (
        "<table><caption>Results</caption><tr><th>Team</th><th>Points</th></tr>"
        "<tr><td>Harbour | FC</td><td><b>12</b></td></tr><tr><td>Rovers</td></tr></table>"
    )
    cell = "<p>A paragraph in a layout table, with words.</p><p>Another one.</p>"
    layout = f"<table><tr><td>{cell}</td></tr></table>"
    markdown = rendered(data + layout)
    assert (
        "Results\n\n| Team | Points |\n| --- | --- |\n| Harbour \\| FC | **12** |\n| Rovers |  |" in markdown
    )
    assert markdown.endswith("\n\nA paragraph in a layout table, with words.\n\nAnother one.")
    without = extract(_page(data + layout), markdown=True, tables=False)
    assert "Team" not in without.text and "Team" not in without.html and "Team" not in without.markdown
    assert "Results" not in without.text  # the caption is the table's
    assert "Another one." in without.text and "Another one." in without.markdown


def test_output_switches() -> None:
    body = (
        "<p>A <a href='/x'>link</a>, an <img src='/i.jpg' alt='image'> and <strong>bold</strong> words, "
        "in a sentence of some length.</p>"
    )
    page = _page(body)
    full = extract(page, url="https://news.example/", markdown=True)
    assert "<a href" in full.html and "<img" in full.html and "<strong>" in full.html
    plain = extract(
        page, url="https://news.example/", markdown=True, links=False, images=False, formatting=False
    )
    assert plain.text == full.text
    assert "<a " not in plain.html and "<img" not in plain.html and "<strong" not in plain.html
    assert "<p>A link, an  and bold words, in a sentence of some length.</p>" in plain.html
    assert "\n\nA link, an and bold words, in a sentence of some length.\n\n" in plain.markdown
    found = read(plain.markdown)
    assert not found.urls and not found.inline


def test_deep_nesting_and_the_callers_tree() -> None:
    tree = deep_chain(100_000, "deep text, with commas. " * 10)
    result = extract_tree(tree, markdown=True)
    assert result.markdown.startswith("deep text, with commas.")
    deep = extract(
        "<html><body>" + "<blockquote>" * 3_000 + "quoted words, here." + "</blockquote>" * 3_000,
        markdown=True,
    )
    assert read(deep.markdown).text.split() == deep.text.split()


def _development_pages() -> list[tuple[str, bytes, str]]:
    if not all(path.is_dir() for path in devsets.DEFAULT_DATASETS):
        pytest.skip("the development sets (../shared/datasets) are not here")
    return [
        (f"{name}/{page.page_id}", page.html, page.url)
        for name, pages in devsets.load_sets(devsets.DEFAULT_DATASETS).items()
        for page in pages
    ]


@pytest.mark.slow
def test_every_development_page_keeps_the_words_of_main_text() -> None:
    differing, with_html = [], []
    for page_id, html, url in _development_pages():
        result = extract(html, url=url or None, markdown=True)
        found = read(result.markdown)
        if found.text.split() != result.text.split():
            differing.append(page_id)
        if found.html:
            with_html.append(page_id)
    assert differing == [] and with_html == []
