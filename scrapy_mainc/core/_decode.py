"""Bytes to text: BOM, then the declared charset, then sniffing.

A BOM or a declaration is followed only when it decodes the bytes into markup: a page
declaring UTF-16 or an EBCDIC code page over ASCII bytes, or a UTF-16 BOM in front of
UTF-8, would otherwise turn into text without a single tag.

Chinese sites often serve GB2312/GBK pages that declare no charset at all; a decoder that
falls back to cp1252 turns them into mojibake. The sniffer tries strict UTF-8 first (a
page that is valid multi-byte UTF-8 is UTF-8 whatever it declares), then UTF-8 with
replacement characters when only a few sequences are invalid (a stray byte must not turn
every "ü" of a page into "Ã¼"), then the common East Asian multi-byte encodings, scored
by how many of the decoded characters are among the most frequent CJK characters, and
ends with cp1252.
"""

from __future__ import annotations

import codecs
import re
from dataclasses import dataclass

from w3lib.encoding import html_body_declared_encoding, read_bom, resolve_encoding

from ._text import CJK_RUN_RE, count_matching

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
#: Runs of ``_COMMON_CJK`` characters (all of them are characters of ``CJK_RE``).
_COMMON_CJK_RUN_RE = re.compile(f"[{''.join(sorted(_COMMON_CJK))}]+")
#: Share of replacement characters above which a decoding counts as failed.
_MAX_ERROR_SHARE = 0.002
#: Most invalid UTF-8 sequences per valid multi-byte character for bytes to be UTF-8 with
#: replacement characters. The development pages (939) re-encoded in cp1252, latin-1,
#: cp1251, iso-8859-2, koi8-r, GBK, Big5, Shift_JIS and EUC-KR have at least 1.0 invalid
#: sequence per valid one (0.6 on one page that already held mojibake), the undeclared
#: GB18030 pages 3.6 or more; the one UTF-8 page with stray bytes has 0.03. At 0.25 a page
#: needs four good multi-byte characters per bad sequence.
MAX_INVALID_PER_MULTIBYTE = 0.25
_HIGH_BYTES = bytes(range(0x80, 0x100))
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
    if b"\x00" in head and read_bom(head)[0] is None and declared_wide_codec(data) is None:
        return "binary data"
    return ""


#: UTF-16 and UTF-32 by byte order: pages in them without a BOM are full of zero bytes.
_WIDE_CODECS = ("utf-16-le", "utf-16-be", "utf-32-le", "utf-32-be")
#: How far into such a page its ``<meta charset>`` is looked for (1,024 characters of UTF-32).
_WIDE_SCAN_BYTES = 4096


def declared_wide_codec(data: bytes) -> str | None:
    """The UTF-16 or UTF-32 codec of ``data``, a page without BOM, when decoded with it the
    page declares that encoding (``<meta charset="utf-16">``: either byte order, or
    ``utf-16le`` for this one); else None."""
    head = data[:_WIDE_SCAN_BYTES]
    for codec in _WIDE_CODECS:
        unit = 4 if codec.startswith("utf-32") else 2
        text = head[: len(head) - len(head) % unit].decode(codec, "replace")
        declared = html_body_declared_encoding(text)
        codec_name = resolve_encoding(declared) if declared else None
        if codec_name in (codec, codec[:6]):  # "utf-16-le", or "utf-16"
            return codec
    return None


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
    wide = declared_wide_codec(data) if b"\x00" in data[:1024] else None
    if wide:
        return DecodedHtml(data.decode(wide, "replace"), wide, declared or wide, "declared")
    declared = declared or html_body_declared_encoding(data) or ""
    codec = resolve_encoding(declared) if declared else None
    if codec:
        decoded, exact = _decode_if_clean(data, codec)
        if decoded is not None and has_markup(decoded) and not _utf8_misdeclared(data, codec):
            return DecodedHtml(decoded, codec, declared, "declared", exact)
    text, codec = sniff_decode(data)
    source = "declared-invalid" if declared else "sniffed"
    return DecodedHtml(text, codec, declared, source, exact=codec == "utf-8" and "\ufffd" not in text)


def sniff_decode(data: bytes) -> tuple[str, str]:
    """Guess the encoding of undeclared ``data``; return the text and the codec name."""
    try:
        return data.decode("utf-8"), "utf-8"
    except UnicodeDecodeError:
        pass
    mostly = mostly_utf8(data)
    if mostly is not None:
        return mostly, "utf-8"
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


def mostly_utf8(data: bytes) -> str | None:
    """The text of ``data``, UTF-8 with U+FFFD for its invalid sequences, when those are at
    most ``MAX_INVALID_PER_MULTIBYTE`` per valid multi-byte character; else None."""
    text = data.decode("utf-8", "replace")
    invalid = text.count("\ufffd") - data.count(b"\xef\xbf\xbd")  # (U+FFFD in the page itself)
    multibyte = len(text) - len(data.translate(None, _HIGH_BYTES)) - invalid
    return text if invalid <= MAX_INVALID_PER_MULTIBYTE * multibyte else None


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
    """True when a page declaring a single-byte charset is really multi-byte UTF-8 (with at
    most a few invalid sequences: :func:`mostly_utf8`)."""
    if codec == "utf-8" or data.isascii() or codecs.lookup(codec).name in _MULTIBYTE:
        return False
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return mostly_utf8(data) is not None
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
    Shift_JIS: each curly quote or dash pairs with the next letter into a lone kanji).

    Counted by runs (:func:`count_matching`): a character stands next to another exactly
    when its run is longer than one.
    """
    sample = text[:200_000]
    runs = CJK_RUN_RE.findall(sample)
    cjk = sum(map(len, runs))
    if cjk < 20:
        return 0.0
    in_runs = sum(len(run) for run in runs if len(run) > 1)
    if in_runs < MIN_CJK_RUN_SHARE * cjk:
        return 0.0
    return count_matching(_COMMON_CJK_RUN_RE, sample) / cjk


#: Least share of a decoding's CJK characters that stand next to another CJK character.
#: CJK text is written in runs: 0.95 to 0.98 on the non-UTF-8 pages of zh_news. The
#: development pages in cp1252 with an empty ``charset=`` that sniffing took for
#: Shift_JIS (36 of 521) have 0.00: every "kanji" sits between Latin letters.
MIN_CJK_RUN_SHARE = 0.5
