"""Decoding bytes: BOM, declarations, and sniffing undeclared Chinese pages."""

from __future__ import annotations

from scrapy_mainc.core._decode import binary_reason, decode_html, sniff_decode

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
