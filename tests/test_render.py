"""Rendering a selection as text and as a cleaned HTML fragment."""

from __future__ import annotations

import time

from helpers import document, node_at
from scrapy_mainc import extract
from scrapy_mainc.core._render import render_html, render_text

PAGE = (
    "<html><body><div id='story' onclick='x()'>"
    "<h2>Heading</h2><p>First   line with <b>bold</b> words.</p>"
    "<p>Second<br>line after a break.</p>"
    "<form action='/s'><p>Inside a form.</p><input name='q'></form>"
    "<div class='share'>Share this</div> tail text"
    "<script>var x = 1;</script><!-- a comment -->"
    "</div><p>Outside.</p></body></html>"
)


def test_text_has_one_block_per_line() -> None:
    doc = document(PAGE)
    story = node_at(doc, "//div[@id='story']")
    text = render_text(doc.stats, (story,))
    assert text.split("\n") == [
        "Heading",
        "First line with bold words.",
        "Second",
        "line after a break.",
        "Inside a form.",
        "Share this",
        "tail text",
    ]


def test_soft_hyphens_are_dropped_from_the_text() -> None:
    # a hyphenation hint inside a word (&shy;) is invisible unless the word breaks there
    doc = document("<html><body><p>Im Mit&shy;tel&shy;al&shy;ter, zart\u00adbitter.</p></body></html>")
    assert render_text(doc.stats, (node_at(doc, "//p"),)) == "Im Mittelalter, zartbitter."


def test_text_is_in_unicode_normalization_form_c() -> None:
    # a letter written decomposed (e + combining acute) is composed; U+09DC, a Bengali
    # letter excluded from composition, becomes its canonical sequence
    doc = document("<html><body><p>Caf\u0065\u0301 \u09b8\u09be\u09dc\u09c7</p></body></html>")
    text = render_text(doc.stats, (node_at(doc, "//p"),))
    assert text == "Caf\u00e9 \u09b8\u09be\u09a1\u09bc\u09c7"


def test_excluded_subtrees_are_skipped_but_their_tails_kept() -> None:
    doc = document(PAGE)
    story = node_at(doc, "//div[@id='story']")
    share = node_at(doc, "//div[@class='share']")
    text = render_text(doc.stats, (story,), {share})
    assert "Share this" not in text
    assert text.endswith("tail text")


def test_html_is_cleaned() -> None:
    doc = document(PAGE)
    story = node_at(doc, "//div[@id='story']")
    share = node_at(doc, "//div[@class='share']")
    fragment = render_html(doc.stats, (story,), {share})
    assert fragment.startswith('<div id="story">')
    for absent in ("onclick", "<form", "<input", "<script", "<!--", "Share this", "Outside"):
        assert absent not in fragment
    assert "<p>Inside a form.</p>" in fragment
    assert "tail text" in fragment
    assert "<b>bold</b>" in fragment


def test_several_roots_render_in_order() -> None:
    doc = document("<body><p>one</p><div>skip</div><p>two</p></body>")
    first, second = node_at(doc, "//p[1]"), node_at(doc, "//p[2]")
    assert render_text(doc.stats, (first, second)) == "one\ntwo"
    assert render_html(doc.stats, (first, second)) == "<p>one</p>\n<p>two</p>"


def test_a_chosen_root_that_is_unsafe_is_left_out() -> None:
    doc = document("<body><p>one</p><portal src='https://evil.example/'>x</portal><p>two</p></body>")
    first, portal, second = node_at(doc, "//p[1]"), node_at(doc, "//portal"), node_at(doc, "//p[2]")
    assert render_html(doc.stats, (first, portal, second)) == "<p>one</p>\n<p>two</p>"


def test_removed_elements_keep_their_tails_in_order() -> None:
    page = (
        "<body><div id='story'>a<time></time> b<span class='x'>kept</span>"
        "<i></i>c<div class='share'>Share <b>this</b></div>d<em> </em>e<br>f<time></time></div></body>"
    )
    doc = document(page)
    story, share = node_at(doc, "//div[@id='story']"), node_at(doc, "//div[@class='share']")
    assert render_html(doc.stats, (story,), {share}) == (
        '<div id="story">a b<span class="x">kept</span>cde<br>f</div>'
    )


def _fastest_of_three(leaves: int) -> float:
    """CPU seconds to extract an article followed by ``leaves`` empty elements, fastest of
    three (CPU time: other jobs on the machine do not count in, as they do in wall time)."""
    article = "<article>" + "<p>Words of the story, with a comma, and a period.</p>" * 20 + "</article>"
    page = "<html><body>" + article + "<time></time>\n" * leaves + "</body></html>"
    times = []
    for _ in range(3):
        started = time.process_time()
        extract(page, metadata=False)
        times.append(time.process_time() - started)
    return min(times)


def test_time_is_linear_in_the_number_of_empty_elements() -> None:
    # Each empty element's tail was moved onto the text before it one at a time, a string
    # growing with every element: 32,000 empty <time> elements, each followed by a line
    # break, took 7 s, 2,000 of them 0.1 s (a ratio of 70 for 16 times the elements).
    # Linear time gives a ratio of about 16, whatever the machine's speed.
    assert _fastest_of_three(32_000) / _fastest_of_three(2_000) < 32
