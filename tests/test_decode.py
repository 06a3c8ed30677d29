"""Decoding bytes: BOM, declarations, and sniffing undeclared Chinese pages."""

from __future__ import annotations

import pytest

from scrapy_mainc import extract
from scrapy_mainc._extract import markup_reason
from scrapy_mainc.core._decode import (
    _COMMON_CJK,
    MAX_INVALID_PER_MULTIBYTE,
    MIN_CJK_RUN_SHARE,
    _common_cjk_share,
    binary_reason,
    decode_html,
    sniff_decode,
)
from scrapy_mainc.core._text import CJK_RE

CHINESE = (
    "<html><body><p>新华社北京电，国务院总理今天在人民大会堂会见了来访的代表团。"
    "双方就经济合作交换了意见，表示要进一步加强交流。</p></body></html>"
)


def test_gbk_without_declaration_is_sniffed() -> None:
    decoded = decode_html(CHINESE.encode("gbk"))
    assert decoded.text == CHINESE
    assert (decoded.encoding, decoded.source, decoded.declared) == ("gb18030", "sniffed", "")


def test_big5_without_declaration_is_sniffed() -> None:
    traditional = (
        "<p>中央社記者今天報導，政府將在明年推動新的經濟政策，"
        "以促進國內的發展與就業。這是一個重要的決定。</p>"
    )
    text, codec = sniff_decode(traditional.encode("big5"))
    assert (text, codec) == (traditional, "big5")


def test_wrong_declared_charset_falls_back_to_sniffing() -> None:
    page = '<html><head><meta charset="utf-8"></head>' + CHINESE[6:]
    decoded = decode_html(page.encode("gbk"))
    assert decoded.text == page
    assert decoded.source == "declared-invalid"
    assert decoded.declared == "utf-8"


def test_declared_charset_is_used() -> None:
    page = '<meta charset="windows-1252"><p>caf\u00e9 cr\u00e8me</p>'
    decoded = decode_html(page.encode("cp1252"))
    assert decoded.text == page
    assert decoded.source == "declared"


def test_valid_utf8_wins_over_a_latin1_declaration() -> None:
    page = '<meta charset="iso-8859-1"><p>caf\u00e9 na\u00efve</p>'
    assert decode_html(page.encode("utf-8")).encoding == "utf-8"


def test_bom_wins() -> None:
    decoded = decode_html("<p>caf\u00e9</p>".encode("utf-16"))  # Python writes the BOM
    assert decoded.text == "<p>caf\u00e9</p>"
    assert decoded.source == "bom"


def test_undeclared_latin_text_falls_back_to_cp1252() -> None:
    assert sniff_decode("<p>Caf\u00e9 \u2014 d\u00e9j\u00e0 vu</p>".encode("cp1252"))[1] == "cp1252"


def test_latin_text_with_curly_quotes_and_an_empty_charset_is_not_cjk() -> None:
    # cp1252 curly quotes, bullets and dashes followed by a letter are valid Shift_JIS
    # kanji, some of them common ones ("\u201cI" is \u7684, "\u2019n" \u5730, "\u2022s" \u4e0d); the
    # few followed by a space fail, under the error budget of a page of mostly ASCII.
    # Every "kanji" stands alone between Latin letters. An empty declaration leaves the
    # choice to sniffing, which took the page for Shift_JIS.
    plain = "<p>The council met on Monday and agreed on the plan for the new bridge over the river.</p>"
    quoted = "<p>\u201cIt\u2019s not about money,\u201d the mayor said. \u2022so it goes \u2014 \u201cIn time.\u201d</p>"
    page = (
        '<html><head><meta http-equiv="Content-Type" content="text/html; charset=">'
        f"</head><body>{(plain * 16 + quoted) * 8}</body></html>"
    )
    decoded = decode_html(page.encode("cp1252"))
    assert (decoded.encoding, decoded.source, decoded.declared) == ("cp1252", "sniffed", "")
    assert decoded.text == page
    assert decode_html(page.replace("charset=", 'charset=""').encode("cp1252")).encoding == "cp1252"


def test_binary_payloads_are_named() -> None:
    assert binary_reason(b"%PDF-1.7 ...") == "a PDF document"
    assert binary_reason(b"\x89PNG\r\n") == "a PNG image"
    assert binary_reason(b"abc\x00def") == "binary data"
    assert binary_reason(b"<html></html>") == ""


# --- UTF-8 with a few bad bytes (issue 17, item 5) ----------------------------------------

GERMAN = (
    "<html><body><p>Der Bürgermeister eröffnete am Montag die neue Brücke über die Spree. "
    "Die Bauarbeiten dauerten länger als geplant, die Kosten stiegen um ein Fünftel.</p></body></html>"
)


def test_one_bad_byte_does_not_make_a_utf8_page_cp1252() -> None:
    data = GERMAN.encode("utf-8").replace(b"Montag", b"Mon\xfftag")
    decoded = decode_html(data)
    assert (decoded.encoding, decoded.exact) == ("utf-8", False)
    assert "Der Bürgermeister" in decoded.text
    assert "Mon\ufffdtag" in decoded.text
    assert "Der Bürgermeister eröffnete" in extract(data).text


def test_a_utf8_chinese_page_with_a_bad_byte_stays_utf8() -> None:
    data = CHINESE.encode("utf-8").replace("会见".encode(), b"\xff\xfe" + "会见".encode())
    assert decode_html(data).text == CHINESE.replace("会见", "\ufffd\ufffd会见")


def test_a_latin1_declaration_over_mostly_utf8_is_overruled() -> None:
    page = '<meta charset="iso-8859-1">' + GERMAN
    data = page.encode("utf-8").replace(b"Montag", b"Mon\xe9tag")  # one byte of Latin-1
    assert decode_html(data).text == page.replace("Montag", "Mon\ufffdtag")


def _mixed(valid: int, invalid: int) -> bytes:
    """ASCII markup with ``valid`` multi-byte characters and ``invalid`` bad bytes."""
    return b"<p>" + "\u00fc".encode() * valid + b" x" + b"\xff" * invalid + b"</p>"


def test_the_share_of_invalid_sequences_decides() -> None:
    assert MAX_INVALID_PER_MULTIBYTE == 0.25
    assert sniff_decode(_mixed(valid=4, invalid=1))[1] == "utf-8"  # one per four
    assert sniff_decode(_mixed(valid=40, invalid=10))[1] == "utf-8"
    assert sniff_decode(_mixed(valid=39, invalid=10))[1] == "cp1252"
    assert sniff_decode(_mixed(valid=0, invalid=1))[1] == "cp1252"  # no UTF-8 to speak of


def test_the_pages_of_other_encodings_are_not_taken_for_utf8() -> None:
    latin = "<p>Der Bürgermeister eröffnete die Brücke, à la française: «déjà vu» — 5 €.</p>"
    assert sniff_decode(latin.encode("cp1252")) == (latin, "cp1252")
    assert decode_html(CHINESE.encode("gbk")).encoding == "gb18030"


# --- UTF-16 and UTF-32 without a BOM (issue 17, item 6) -----------------------------------

WIDE_PAGE = (
    "<html><head>{declaration}</head><body><article>"
    + "<p>Der Bürgermeister eröffnete am Montag die neue Brücke über die Spree, 5 €.</p>" * 6
    + "</article></body></html>"
)


@pytest.mark.parametrize(
    ("codec", "declared"),
    [
        ("utf-16-le", "utf-16"),
        ("utf-16-le", "UTF-16LE"),
        ("utf-16-be", "utf-16"),
        ("utf-16-be", "utf-16be"),
        ("utf-32-le", "utf-32"),
        ("utf-32-be", "UTF-32BE"),
    ],
)
@pytest.mark.parametrize(
    "form", ["<meta charset='{}'>", "<meta http-equiv='Content-Type' content='text/html; charset={}'>"]
)
def test_utf16_and_utf32_without_a_bom_but_declared(codec: str, declared: str, form: str) -> None:
    page = WIDE_PAGE.format(declaration=form.format(declared))
    data = page.encode(codec)
    assert binary_reason(data) == ""
    decoded = decode_html(data)
    assert (decoded.text, decoded.encoding) == (page, codec)
    result = extract(data)
    assert "Der Bürgermeister eröffnete am Montag" in result.text, result.reason


@pytest.mark.parametrize("codec", ["utf-16-le", "utf-32-be"])
def test_wide_text_declaring_another_encoding_or_none_is_still_binary(codec: str) -> None:
    for declaration in ("<meta charset='utf-8'>", "", "<meta charset='utf-32'>" if "16" in codec else ""):
        data = WIDE_PAGE.format(declaration=declaration).encode(codec)
        assert extract(data).reason == "not HTML: binary data"


def _common_share_by_character(text: str) -> float:
    """The per-character definition ``_common_cjk_share`` counts by runs."""
    positions = [match.start() for match in CJK_RE.finditer(text)]
    if len(positions) < 20:
        return 0.0
    taken = set(positions)
    in_runs = sum(1 for position in positions if position - 1 in taken or position + 1 in taken)
    if in_runs < MIN_CJK_RUN_SHARE * len(positions):
        return 0.0
    return sum(1 for position in positions if text[position] in _COMMON_CJK) / len(positions)


@pytest.mark.parametrize(
    "text",
    [
        CHINESE,
        CHINESE.encode("gb18030").decode("big5", "replace"),  # a wrong decoding
        CHINESE.encode("gb18030").decode("shift_jis", "replace"),
        "Caf\u00e9 \u2014 d\u00e9j\u00e0 vu, \u201cquoted\u201d".encode("cp1252").decode(
            "shift_jis", "replace"
        )
        * 9,
        "<p>日本語のテキストです。한국어 문장도 있습니다 \U00020000\U00020001 一 x 二 y 三</p>" * 3,
        "a一b二c三d四e五f六g七h八i九j十k百l千m万n亿o的p是q不r了s在t人u有" * 2,
    ],
)
def test_common_cjk_share_counts_runs_as_their_characters(text: str) -> None:
    assert _common_cjk_share(text) == pytest.approx(_common_share_by_character(text), abs=0)


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("", "empty document"),
        (" \t\r\n\u3000\u00a0\x1c\u2028" * 1000, "empty document"),  # whitespace as str.isspace has it
        ("\u3000\n [1, 2]", "not HTML: JSON or other data"),
        ('\u00a0{"a": "<b>"}', "not HTML: JSON or other data"),
        ("\u200b{", "not HTML: no markup"),  # a zero-width space is no whitespace
        ("\n\n<!doctype html><p>x</p>", ""),
    ],
)
def test_markup_reason_reads_the_first_character_that_is_not_whitespace(text: str, reason: str) -> None:
    assert markup_reason(text) == reason
