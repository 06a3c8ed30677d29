"""Decoding what a page declares against what it holds: every charset a page may declare
(aliases and codecs that raise other errors), declarations and byte-order marks that yield
no markup, and binary data served as a page. Each case was found by fuzzing."""

from __future__ import annotations

import encodings.aliases

import pytest

from scrapy_mainc import extract
from scrapy_mainc.core import _decode
from scrapy_mainc.core._decode import decode_html

SENTENCE = "The minister said on Tuesday that the budget would rise, a lot. "
PARAGRAPH = "<p>" + SENTENCE * 4 + "</p>"
ARTICLE = "<html><head>{head}</head><body><article>" + PARAGRAPH * 3 + "</article></body></html>"


#: Codec names that raise something other than UnicodeDecodeError or LookupError.
_AWKWARD_CODECS = ("undefined", "punycode", "idna", "utf-7", "rot13", "base64", "hex", "uu", "zip", "bz2")


def _codec_names() -> list[str]:
    names = set(encodings.aliases.aliases) | set(encodings.aliases.aliases.values())
    return sorted(names | set(_AWKWARD_CODECS))


@pytest.mark.parametrize("codec", _codec_names())
def test_every_declared_charset_is_safe(codec: str) -> None:
    for head in (
        f'<meta charset="{codec}">',
        f'<meta http-equiv="content-type" content="text/html; charset={codec}">',
    ):
        page = ARTICLE.format(head=head).encode()
        # idna and punycode raise on long labels or on non-ASCII bytes
        for data in (page, page.replace(b"budget", b"b\xc3\xbcdget." + b"x" * 70)):
            result = extract(data)
            assert "The minister said on Tuesday" in result.text, codec


@pytest.mark.parametrize("codec", ["utf-16", "utf-16le", "utf-16be", "utf-32", "cp037", "cp500"])
def test_a_declaration_that_yields_no_markup_is_ignored(codec: str) -> None:
    for head in (
        f'<meta charset="{codec}">',
        f'<meta http-equiv="Content-Type" content="text/html; charset={codec}">',
    ):
        page = ARTICLE.format(head=head) + "\u00e9"  # UTF-8, not ASCII only
        for data in (page.encode("utf-8"), page.encode("ascii", "ignore")):
            decoded = decode_html(data)
            assert decoded.text.startswith("<html>"), (codec, decoded.encoding)
            assert "The minister said on Tuesday" in extract(data).text


def test_an_xml_declaration_that_yields_no_markup_is_ignored() -> None:
    data = ('<?xml version="1.0" encoding="UTF-16"?>' + ARTICLE.format(head="")).encode()
    assert "The minister said on Tuesday" in extract(data).text


@pytest.mark.parametrize("bom", [b"\xff\xfe", b"\xfe\xff", b"\xff\xfe\x00\x00", b"\x00\x00\xfe\xff"])
def test_a_utf16_or_utf32_bom_before_utf8_content_is_ignored(bom: bytes) -> None:
    data = bom + ARTICLE.format(head="").replace("budget", "b\u00fcdget").encode("utf-8")
    decoded = decode_html(data)
    assert decoded.text.startswith("<html>")
    assert "b\u00fcdget" in decoded.text
    assert "The minister said on Tuesday" in extract(data).text


def test_a_true_utf16_page_with_its_bom_still_decodes() -> None:
    page = ARTICLE.format(head='<meta charset="utf-16">').replace("budget", "b\u00fcdget")
    for data in (page.encode("utf-16"), b"\xfe\xff" + page.encode("utf-16-be")):
        assert "b\u00fcdget would rise" in extract(data).text


def test_binary_data_already_decoded_to_text_is_recognised() -> None:
    data = bytes(range(256)) * 200  # what a server may send as text/html
    for codec in ("cp1252", "latin-1", "utf-8"):
        text = data.decode(codec, "replace")
        assert _decode.binary_text_reason(text) == "binary data", codec
        result = extract(text)
        assert (result.text, result.reason) == ("", "not HTML: binary data")
    assert _decode.binary_text_reason("%PDF-1.7\n" + data.decode("latin-1")) == "a PDF document"


def test_real_text_is_not_taken_for_binary_data() -> None:
    assert _decode.binary_text_reason(ARTICLE.format(head="")) == ""
    assert _decode.binary_text_reason("<p>bad \x00 char</p>" + PARAGRAPH) == ""
    mojibake = ("<p>" + "新华社北京电，国务院总理今天会见了代表团。" * 40 + "</p>").encode("gbk")
    assert _decode.binary_text_reason(mojibake.decode("utf-8", "replace")) == ""
