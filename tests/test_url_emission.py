"""URLs are judged as they are emitted, after every transformation (issue 17, item 1).

``href="\\u00a0javascript:alert(1)"`` used to pass the check (which stripped ASCII
whitespace only) and then lose its leading space to ``str.strip`` before ``urljoin``: a
live ``javascript:`` link, in every algorithm. The characters tried here are generated
from the Unicode database: every control, format character and separator.
"""

from __future__ import annotations

import html
import re
import sys
import unicodedata

import pytest
from lxml import etree

from scrapy_mainc import ALGORITHMS, extract
from scrapy_mainc.core._sanitize import is_safe_url

#: Every code point some reader of a URL may drop or take for a space (controls, format
#: characters, separators), or that the sanitiser replaces by a space (noncharacters,
#: surrogates: every 128th, to keep the pages small).
INVISIBLE = tuple(
    char
    for code in range(sys.maxunicode + 1)
    for char in (chr(code),)
    if char.isspace()
    or unicodedata.category(char) in {"Cc", "Cf", "Zs", "Zl", "Zp"}
    or (unicodedata.category(char) == "Cs" and code % 128 == 0)
    or (code & 0xFFFE == 0xFFFE or 0xFDD0 <= code <= 0xFDEF)
)
#: Where the character goes in a ``javascript:`` URL.
PLACES = ("{c}javascript:alert({n})", " {c} javascript:alert({n})", "java{c}script:alert({n})")
PLACE_IDS = ("leading", "between-spaces", "inside")
SENTENCE = "Engineers finished the repairs on the bridge, and traffic returned on Monday morning."
PAGE_URL = "https://news.example/2024/story.html"
#: CoreEx's paper setting picks one link-free paragraph over an article with links in
#: every paragraph; its documented option makes it take the article, links and all.
CHOOSING_THE_ARTICLE = {"corex": {"min_set_text": 150}}


def test_the_characters_come_from_the_database() -> None:
    named = {"\u00a0", "\u3000", "\u2028", "\u0085", "\u2003", "\u200b", "\ufeff", "\x00", "\ufffe", "\ud800"}
    assert named <= set(INVISIBLE)
    assert len(INVISIBLE) > 300


def _paragraph(n: int, url: str) -> str:
    value = url.replace('"', "&quot;")
    return (
        f'<p style="background: url({value})">{SENTENCE} <a href="{value}">a link</a> '
        f'<img src="{value}" srcset="{value} 2x, /fine-{n}.png 1x" longdesc="{value}"> {SENTENCE} '
        f'<q cite="{value}" background="{value}">{SENTENCE}</q> '
        f'<a href="/fine-{n}" ping="{value}">safe</a></p>'
    )


def _page(place: str) -> str:
    urls = [place.format(c=char, n=n) for n, char in enumerate(INVISIBLE)]
    body = "".join(_paragraph(n, url) for n, url in enumerate(urls))
    return f"<html><body><article><h1>Bridge</h1>{body}</article></body></html>"


_INVISIBLE_RE = re.compile(f"[{re.escape(''.join(INVISIBLE))}]")
_SCHEME_RE = re.compile(r"([a-z][a-z0-9+.-]*):")
_CSS_URL_RE = re.compile(r"url\((.*?)\)")


def emitted_urls(fragment: str, absolute: bool) -> list[str]:
    """Every URL of the HTML ``fragment``, as its attributes hold them once parsed again;
    when ``absolute``, only those the sanitiser makes absolute (not the CSS ones)."""
    root = etree.fromstring(f"<html><body>{fragment}</body></html>", etree.HTMLParser())
    urls = []
    for element in root.iter(etree.Element):
        for name, value in element.attrib.items():
            if name == "srcset":
                urls.extend(candidate.split()[0] for candidate in value.split(",") if candidate.split())
            elif name == "ping":
                urls.extend(value.split())
            elif name == "style" and not absolute:
                urls.extend(_CSS_URL_RE.findall(value))
            elif name in {"href", "src", "cite", "longdesc", "background"}:
                urls.append(value)
    return urls


def scheme_as_any_reader_sees_it(url: str) -> str:
    """The scheme of ``url`` with every invisible character taken out and NFKC applied."""
    canonical = unicodedata.normalize("NFKC", _INVISIBLE_RE.sub("", html.unescape(url))).lower()
    scheme = _SCHEME_RE.match(canonical.strip("'\""))
    return scheme.group(1) if scheme else ""


@pytest.mark.parametrize("place", PLACES, ids=PLACE_IDS)
@pytest.mark.parametrize("url", [PAGE_URL, None])
@pytest.mark.parametrize("name", sorted(ALGORITHMS))
def test_no_invisible_character_makes_a_script_url(name: str, url: str | None, place: str) -> None:
    result = extract(_page(place), url=url, algorithm=name, **CHOOSING_THE_ARTICLE.get(name, {}))
    assert SENTENCE in result.text
    urls = emitted_urls(result.html, absolute=False)
    assert sum("/fine-" in emitted for emitted in urls) >= len(INVISIBLE), "the safe links are kept"
    for emitted in urls:
        assert scheme_as_any_reader_sees_it(emitted) in {"", "http", "https"}, emitted
    if url:  # and every URL is made absolute against the page's
        assert all(emitted.startswith("https://news.example/") for emitted in emitted_urls(result.html, True))


@pytest.mark.parametrize("char", INVISIBLE, ids=lambda char: f"U+{ord(char):04X}")
def test_the_check_reads_urls_without_invisible_characters(char: str) -> None:
    assert not is_safe_url(f"{char}javascript:alert(1)")
    assert not is_safe_url(f"java{char}script:alert(1)")
    assert is_safe_url(f"/path{char}/page.html")


def test_full_width_letters_are_read_as_their_ascii_forms() -> None:
    assert not is_safe_url("\uff4aavascript\uff1aalert(1)")  # NFKC: "javascript:alert(1)"


def test_a_url_urllib_cannot_join_is_dropped_not_raised() -> None:
    linked = f"<p>{SENTENCE} <a href='//[bad'>bad host</a> {SENTENCE}</p>"
    page = f"<html><body><article>{linked}</article></body></html>"
    result = extract(page, url=PAGE_URL)
    assert SENTENCE in result.text
    assert "<a>bad host</a>" in result.html


_URL_VALUE_RE = re.compile(r"^https?://[^\s\x00-\x1f\x7f]+$")


@pytest.mark.parametrize("place", PLACES, ids=PLACE_IDS)
def test_metadata_urls_are_absolute_http_without_invisible_characters(place: str) -> None:
    for n, char in enumerate(INVISIBLE):
        url = place.format(c=char, n=n).replace("'", "&#39;")
        inside = f"/img/a{char}b.jpg".replace("'", "&#39;")
        head = (
            f"<link rel='canonical' href='{url}'><meta property='og:url' content='{inside}'>"
            f"<meta property='og:image' content='{url}'><meta name='twitter:image' content='{inside}'>"
        )
        page = f"<html><head>{head}</head><body><article><p>{SENTENCE}</p></article></body></html>"
        metadata = extract(page, url=PAGE_URL).metadata
        for value in (metadata.canonical_url, metadata.image):
            assert _URL_VALUE_RE.match(value), (f"U+{ord(char):04X}", value)


@pytest.mark.parametrize("char", ["\u00a0", "\u3000", "\u2028", "\ufeff"], ids=ascii)
def test_a_base_href_is_read_as_browsers_read_it(char: str) -> None:
    # a browser takes "\u00a0https://mirror.example/x/" for a path relative to the page,
    # not for another site: links resolve against the page's URL
    linked = f"<p>{SENTENCE} <a href='/more'>more</a> {SENTENCE}</p>"
    base = f"<base href='{char}https://mirror.example/x/'>"
    page = f"<html><head>{base}</head><body><article>{linked}</article></body></html>"
    assert 'href="https://news.example/more"' in extract(page, url=PAGE_URL).html
