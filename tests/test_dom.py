"""Parsing: the fallback for pages nested deeper than the parser allows."""

from __future__ import annotations

from scrapy_mainc.core._dom import flatten_deep_nesting, parse_html


def test_flattening_drops_only_the_tags_below_the_limit() -> None:
    page = "<div><p>one<b>two<i>three</i></b><br>four</p></div><p>five</p>"
    assert flatten_deep_nesting(page, limit=2) == "<div><p>onetwothreefour</p></div><p>five</p>"
    assert flatten_deep_nesting(page, limit=3) == "<div><p>one<b>twothree</b><br>four</p></div><p>five</p>"
    assert flatten_deep_nesting(page, limit=10) == page


def test_a_page_deeper_than_the_parser_limit_is_parsed_whole() -> None:
    depth = 3_000
    root = parse_html("<body><p>top</p>" + "<div>" * depth + "deep" + "</div>" * depth + "<p>end</p></body>")
    assert "".join(root.itertext()) == "topdeepend"
    assert max(len(list(node.iterancestors())) for node in root.iter()) < 2_048
