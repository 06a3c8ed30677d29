"""Bytes to text: BOM, then the declared charset, then sniffing.

A BOM or a declaration is followed only when it decodes the bytes into markup: a page
declaring UTF-16 or an EBCDIC code page over ASCII bytes, or a UTF-16 BOM in front of
UTF-8, would otherwise turn into text without a single tag.

Chinese sites often serve GB2312/GBK pages that declare no charset at all; a decoder that
falls back to cp1252 turns them into mojibake. The sniffer tries strict UTF-8 first (a
page that is valid multi-byte UTF-8 is UTF-8 whatever it declares), then the common
East Asian multi-byte encodings, scored by how many of the decoded characters are among
the most frequent CJK characters, and ends with cp1252.
"""

from __future__ import annotations

import codecs
import re
from dataclasses import dataclass

from w3lib.encoding import html_body_declared_encoding, read_bom, resolve_encoding

from ._text import CJK_RE

#: Magic numbers of common non-HTML payloads served as pages.
_BINARY_SIGNATURES = (
    (b"%PDF-", "a PDF document"),
    (b"\x89PNG", "a PNG image"),
    (b"GIF8", "a GIF image"),
    (b"\xff\xd8\xff", "a JPEG image"),
    (b"PK\x03\x04", "a ZIP archive"),
    (b"\x1f\x8b", "gzip data"),
    (b"RIFF", "a RIFF media file"),
)
_SIGNATURES = tuple(signature for signature, _ in _BINARY_SIGNATURES)
#: Multi-byte encodings tried when a page is not UTF-8, in order of prior likelihood.
SNIFF_CANDIDATES = ("gb18030", "big5", "shift_jis", "euc-kr")
#: Characters among the most frequent in Chinese, Japanese and Korean running text. A
#: right decoding of a CJK page has many of them; a wrong one has almost none.
_COMMON_CJK = frozenset(
    "的一是不了在人有我他这个们中来上大为和国地到以说时要就出会可也你对生能而子那得于着下"
    "自之年过发后作里用道行所然家种事成方多经么去法学如都同现当没动面起看定天分还进好小部"
    "其些主样理心她本前开但因只从想实日軍國時來說們個會對這為發後現動學當開進與"
    "のにはをたがでてとしれさいるもなかあ이의가에는을를다고하한"
)  # fmt: skip
#: Share of replacement characters above which a decoding counts as failed.
_MAX_ERROR_SHARE = 0.002
#: A tag, end tag, comment or declaration: what every HTML page has near its start.
MARKUP_RE = re.compile(r"<[A-Za-z!/?]")
#: How far into a page markup is looked for.
MARKUP_SCAN_CHARS = 200_000


@dataclass(frozen=True, slots=True)
class DecodedHtml:
    """The text of a page and how it was obtained."""

    text: str
    encoding: str  #: the codec used, a Python codec name
    declared: str  #: the charset the page (or the caller) declared, "" when none
    source: str  #: "bom", "declared", "sniffed" or "declared-invalid"
    #: True when every byte decoded (no replacement characters were needed).
    exact: bool = False


def binary_reason(data: bytes) -> str:
    """Say what ``data`` is when it is clearly not a text page, else return ""."""
    if data.startswith(_SIGNATURES):
        return next(
            description for signature, description in _BINARY_SIGNATURES if data.startswith(signature)
        )
    head = data[:1024]
    if b"\x00" in head and read_bom(head)[0] is None:
        return "binary data"
    return ""


#: Control characters that text never holds but binary data decoded as text does: C0
#: controls other than whitespace, DEL and the C1 range (Latin-1 decoding).
_CONTROL_RE = re.compile("[\x00-\x08\x0b\x0e-\x1f\x7f-\x9f]")
#: The start of a text checked for binary content, and the share of control characters
#: in it (at least a few of them) that makes it binary. Random bytes decoded as cp1252 or
#: UTF-8 have 10% or more; real pages have none, or a stray one.
_BINARY_SAMPLE_CHARS = 1024
_BINARY_CONTROL_SHARE = 0.05
_BINARY_MIN_CONTROLS = 16


def binary_text_reason(text: str) -> str:
    """Say what ``text`` is when it is binary data already decoded as text, else ""."""
    for signature, description in _BINARY_SIGNATURES:
        if signature.isascii() and text.startswith(signature.decode("ascii")):
            return description
    if text[1:4] == "PNG" and not text[:1].isascii():
        return "a PNG image"
    if _CONTROL_RE.search(text, 0, _BINARY_SAMPLE_CHARS) is None:
        return ""
    sample = text[:_BINARY_SAMPLE_CHARS]
    controls = len(_CONTROL_RE.findall(sample))
    if controls >= _BINARY_MIN_CONTROLS and controls > _BINARY_CONTROL_SHARE * len(sample):
        return "binary data"
    return ""


def decode_html(data: bytes, *, declared: str | None = None) -> DecodedHtml:
    """Decode ``data``, an HTML page, to text.

    ``declared`` is a charset the caller knows of (an HTTP header); without one the page's
    own ``<meta charset>`` or ``http-equiv`` declaration is used. A declaration that does
    not decode the bytes cleanly is ignored in favour of sniffing.
    """
    bom_encoding, bom = read_bom(data)
    if bom_encoding and bom:
        bom_codec = resolve_encoding(bom_encoding) or "utf-8"
        text = data[len(bom) :].decode(bom_codec, "replace")
        if has_markup(text):
            return DecodedHtml(text, bom_codec, declared or "", "bom")
        data = data[len(bom) :]  # a BOM in front of bytes in another encoding
    declared = declared or html_body_declared_encoding(data) or ""
    codec = resolve_encoding(declared) if declared else None
    if codec:
        decoded, exact = _decode_if_clean(data, codec)
        if decoded is not None and has_markup(decoded) and not _utf8_misdeclared(data, codec):
            return DecodedHtml(decoded, codec, declared, "declared", exact)
    text, codec = sniff_decode(data)
    source = "declared-invalid" if declared else "sniffed"
    return DecodedHtml(text, codec, declared, source, exact=codec == "utf-8")


def sniff_decode(data: bytes) -> tuple[str, str]:
    """Guess the encoding of undeclared ``data``; return the text and the codec name."""
    try:
        return data.decode("utf-8"), "utf-8"
    except UnicodeDecodeError:
        pass
    best: tuple[float, str, str] | None = None
    for codec in SNIFF_CANDIDATES:
        text, _ = _decode_if_clean(data, codec)
        if text is None:
            continue
        score = _common_cjk_share(text)
        if best is None or score > best[0]:
            best = (score, text, codec)
    if best is not None and best[0] > 0.05:
        return best[1], best[2]
    return data.decode("cp1252", "replace"), "cp1252"


def has_markup(text: str) -> bool:
    """True when ``text`` has a tag (or comment, declaration) near its start."""
    return MARKUP_RE.search(text, 0, MARKUP_SCAN_CHARS) is not None


def _decode_if_clean(data: bytes, codec: str) -> tuple[str | None, bool]:
    """The text, if ``codec`` decodes ``data`` with few errors, and whether it had none.

    Any codec name is safe: ``undefined``, ``punycode`` and ``idna`` raise plain
    ``UnicodeError``, bytes-to-bytes codecs (``hex``, ``zip``) ``LookupError``.
    """
    try:
        return data.decode(codec), True
    except UnicodeDecodeError:
        pass
    except (LookupError, ValueError, TypeError):
        return None, False
    try:
        text = data.decode(codec, "replace")
    except (LookupError, ValueError, TypeError):
        return None, False
    errors = text.count("\ufffd")
    if errors > _MAX_ERROR_SHARE * len(text) + 2:
        return None, False
    return text, False


def _utf8_misdeclared(data: bytes, codec: str) -> bool:
    """True when a page declaring a single-byte charset is really valid multi-byte UTF-8."""
    if codec == "utf-8" or data.isascii() or codecs.lookup(codec).name in _MULTIBYTE:
        return False
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


_MULTIBYTE = frozenset(
    {
        "gb18030",
        "gbk",
        "gb2312",
        "big5",
        "shift_jis",
        "euc_jp",
        "euc_kr",
        "utf-16",
        "utf-32",
        "cp932",
        "cp949",
        "big5hkscs",
        "iso2022_jp",
    }
)


def _common_cjk_share(text: str) -> float:
    """Share of the CJK characters of ``text`` that are among the most common ones; 0 when
    fewer than ``MIN_CJK_RUN_SHARE`` of them stand next to another (Latin text decoded as
    Shift_JIS: each curly quote or dash pairs with the next letter into a lone kanji)."""
    sample = text[:200_000]
    positions = [match.start() for match in CJK_RE.finditer(sample)]
    if len(positions) < 20:
        return 0.0
    taken = set(positions)
    in_runs = sum(1 for position in positions if position - 1 in taken or position + 1 in taken)
    if in_runs < MIN_CJK_RUN_SHARE * len(positions):
        return 0.0
    return sum(1 for position in positions if sample[position] in _COMMON_CJK) / len(positions)


#: Least share of a decoding's CJK characters that stand next to another CJK character.
#: CJK text is written in runs: 0.95 to 0.98 on the non-UTF-8 pages of zh_news. The
#: development pages in cp1252 with an empty ``charset=`` that sniffing took for
#: Shift_JIS (36 of 521) have 0.00: every "kanji" sits between Latin letters.
MIN_CJK_RUN_SHARE = 0.5
