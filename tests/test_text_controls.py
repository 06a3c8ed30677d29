"""No control character in any text field: main text, title, metadata (issue 17, item 7).

Titles, site names, authors, tags, descriptions and sections kept the C0 and C1 control
characters of the page (``"Si\\x02te News"``), and so did the main text (``\\x06``). The
characters tried are every control character of the Unicode database.
"""

from __future__ import annotations

import json
import sys
import unicodedata

import pytest

from scrapy_mainc import extract
from scrapy_mainc.core._text import clean_text

CONTROLS = tuple(chr(code) for code in range(sys.maxunicode + 1) if unicodedata.category(chr(code)) == "Cc")
SENTENCE = "The minister said on Tuesday that the budget would rise, a lot, and more words here. "


def _page(c: str) -> str:
    jsonld = json.dumps(
        {
            "@type": "NewsArticle",
            "headline": f"Bridge{c} reopens after repairs",
            "author": [{"@type": "Person", "name": f"Jane{c} Doe"}, {"@type": "Person", "name": f"{c}"}],
            "publisher": {"@type": "Organization", "name": f"City{c} News"},
            "keywords": [f"bri{c}dges", f"{c}", "traffic"],
            "articleSection": f"Lo{c}cal",
            "description": f"The{c} bridge reopens.",
        }
    )
    head = (
        f"<title>Bridge{c} reopens after repairs | City News</title>"
        f"<meta property='og:site_name' content='City{c} News'>"
        f"<meta name='description' content='The{c} bridge reopens.'>"
        f"<meta name='keywords' content='bri{c}dges, {c}, traffic'>"
        f"<meta property='article:section' content='Lo{c}cal'>"
        f"<meta name='author' content='Jane{c} Doe'>"
        f"<script type='application/ld+json'>{jsonld}</script>"
    )
    body = f"<h1>Bridge{c} reopens after repairs</h1><p class='byline'>By Jane{c} Doe</p>"
    body += f"<p>{SENTENCE.replace('Tuesday', f'Tues{c}day') * 3}</p>" * 4
    return f"<html><head>{head}</head><body><article>{body}</article></body></html>"


def _has_control(text: str, allowed: str = "") -> bool:
    return any(unicodedata.category(char) == "Cc" and char not in allowed for char in text)


def test_the_controls_come_from_the_database() -> None:
    assert len(CONTROLS) == 65 and {"\x00", "\x1f", "\x7f", "\x85", "\x9f"} <= set(CONTROLS)


@pytest.mark.parametrize("c", CONTROLS, ids=ascii)
def test_no_control_character_in_any_text_field(c: str) -> None:
    result = extract(_page(c), url="https://news.example/2023/12/22/bridge-reopens")
    metadata = result.metadata
    fields = {
        "title": result.title,
        "site_name": metadata.site_name,
        "description": metadata.description,
        "section": metadata.section,
        **{f"author {n}": author for n, author in enumerate(metadata.authors)},
        **{f"tag {n}": tag for n, tag in enumerate(metadata.tags)},
    }
    for name, value in fields.items():
        assert value.strip(), name  # no field left empty by the removal, or made of it
        assert not _has_control(value), (name, value)
    assert not _has_control(result.text, allowed="\n"), result.text[:200]
    assert "budget would rise" in result.text
    assert metadata.authors and metadata.tags and metadata.site_name and metadata.section


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Ti\x01tle", "Title"),  # a control inside a word: removed
        ("a\x0bb\x0cc\x1cd\x85e", "a b c d e"),  # controls that are whitespace: spaces
        ("  Jane\x7f\x9f  Doe\t", "Jane Doe"),
        ("\x02\x03", ""),
        ("zero\u200bwidth", "zero width"),  # as normalize_space reads it
    ],
)
def test_clean_text(text: str, expected: str) -> None:
    assert clean_text(text) == expected
