"""Text measures shared by every stage: CJK-aware words, characters, punctuation.

"Words" follow the common ground of ALGORITHMS.md: whitespace-separated tokens, except
that every CJK ideograph, kana and hangul syllable is a word of its own.
"""

from __future__ import annotations

import re
import unicodedata

# Han ideographs (URO, extension A, compatibility, extension B+), kana, hangul syllables.
_CJK_CLASS = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af\U00020000-\U0002fa1f"
CJK_RE = re.compile(f"[{_CJK_CLASS}]")
#: UTF-8 lead bytes of U+3000 to U+DFFF (E3-ED), which hold most of ``CJK_RE``: single
#: bytes, so each is one ``memchr`` over the encoded text.
_CJK_UTF8_LEADS = tuple(range(0xE3, 0xEE))
#: The rest of ``CJK_RE`` by lead byte and the range of the byte after it: EF A4-AB
#: (U+F900 to U+FAFF) and F0 A0-AF (U+20000 to U+2FFFF).
_RARE_CJK_UTF8 = ((0xEF, 0xA4, 0xAB), (0xF0, 0xA0, 0xAF))
#: Runs of the characters of ``CJK_RE``, of kana (U+3040 to U+30FF) and of hangul syllables
#: (U+AC00 to U+D7AF): counted as the sum of the runs' lengths (:func:`count_matching`), one
#: match per run instead of per character.
CJK_RUN_RE = re.compile(f"[{_CJK_CLASS}]+")
KANA_RUN_RE = re.compile("[\u3040-\u30ff]+")
HANGUL_RUN_RE = re.compile("[\uac00-\ud7af]+")

#: ECON's punc-num marks: periods and commas, ASCII, full-width and ideographic.
PERIODS_AND_COMMAS = ".,。，．"
#: Other sentence marks, counted only when asked (ECON's documented option).
OTHER_SENTENCE_MARKS = "！？；、!?;"

#: Runs of CJK characters and of the CJK/full-width punctuation that sits between them
#: unspaced; replaced by a space before counting the remaining whitespace-separated words.
_CJK_OR_MARK_RE = re.compile(
    f"[{_CJK_CLASS}\u3000-\u303f\uff01-\uff0f\uff1a-\uff20\uff3b-\uff40\uff5b-\uff65]+"
)
#: Zero-width characters and stray byte-order marks: invisible, so not text.
#: Characters that need the slow path: invisible ones, and everything from the CJK
#: punctuation block up (CJK scripts, full-width forms).
_WIDE_RE = re.compile("[\u200b-\u200d\u2060\u3000-\uffff\U00020000-\U0002fa1f]")
_INVISIBLE_RE = re.compile("[\u200b-\u200d\u2060\ufeff]")


def count_matching(runs: re.Pattern[str], text: str) -> int:
    """Characters of ``text`` in the runs that ``runs`` (a character class with ``+``) finds.

    ``len(pattern.findall(text))`` with a one-character pattern makes a string per
    character; on a Chinese page that was a fifth of the statistics' time.
    """
    return sum(map(len, runs.findall(text)))


def has_cjk(text: str) -> bool:
    """True when ``text`` holds a character of ``CJK_RE``.

    Searching the UTF-8 form for single lead bytes (``memchr``, microseconds for a page)
    rules most non-CJK text out several times faster than the regex would; the regex
    decides when one of them occurs. (Two-byte needles are no shortcut: a scan for one costs
    about a fifth of the regex, and the rare ranges would need 24 of them.)
    """
    if text.isascii():
        return False
    data = text.encode("utf-8", "surrogatepass")
    if any(lead in data for lead in _CJK_UTF8_LEADS) or _may_have_rare_cjk(data):
        return CJK_RE.search(text) is not None
    return False


def _may_have_rare_cjk(data: bytes) -> bool:
    """True when UTF-8 ``data`` holds a prefix of ``_RARE_CJK_UTF8``; visits only the
    occurrences of the two lead bytes (emoji share F0, private-use icons EF)."""
    for lead, low, high in _RARE_CJK_UTF8:
        position = data.find(lead)
        while position != -1:
            follower = data[position + 1 : position + 2]
            if follower and low <= follower[0] <= high:
                return True
            position = data.find(lead, position + 1)
    return False


#: UTF-8 forms of the characters of ``KANA_RUN_RE`` and ``HANGUL_RUN_RE``: kana (U+3040 to U+30FF)
#: start with E3 81, E3 82 or E3 83, hangul syllables (U+AC00 to U+D7AF) with a lead byte
#: EA to ED (lead bytes are never continuation bytes). An encoded text without any of them
#: has none of those characters.
_KANA_UTF8 = (b"\xe3\x81", b"\xe3\x82", b"\xe3\x83")
_HANGUL_UTF8_LEADS = (b"\xea", b"\xeb", b"\xec", b"\xed")


def count_kana_hangul(text: str) -> tuple[int, int]:
    """The kana and the hangul syllables of ``text``. Each is counted by a regex pass
    (:func:`count_matching`) only when the UTF-8 form of ``text`` holds one of its first
    bytes: Chinese text has neither, and the ``memchr`` scans take about a quarter of the
    time of the two passes."""
    data = text.encode("utf-8", "surrogatepass")
    kana = count_matching(KANA_RUN_RE, text) if any(start in data for start in _KANA_UTF8) else 0
    hangul = count_matching(HANGUL_RUN_RE, text) if any(lead in data for lead in _HANGUL_UTF8_LEADS) else 0
    return kana, hangul


#: Counts for one run of text: (characters, words, punctuation, CJK characters) --
#: non-whitespace characters, CJK-aware words, periods and commas (ECON's punc-num), and
#: CJK ideographs, kana and hangul. A plain tuple: it is made for every text piece.
TextMeasure = tuple[int, int, int, int]

EMPTY_MEASURE: TextMeasure = (0, 0, 0, 0)


def measure(text: str) -> TextMeasure:
    """Count characters, words, punctuation and CJK characters of ``text``."""
    parts = text.split()
    if not parts:
        return EMPTY_MEASURE
    chars = len("".join(parts))
    punct = text.count(".") + text.count(",")
    if text.isascii() or not _WIDE_RE.search(text):  # e.g. curly quotes: no CJK, no marks
        return chars, len(parts), punct, 0
    if _INVISIBLE_RE.search(text):
        return measure(_INVISIBLE_RE.sub(" ", text))
    punct += text.count("，") + text.count("。") + text.count("．")
    cjk = count_matching(CJK_RUN_RE, text)
    if not cjk:
        return chars, len(parts), punct, 0
    words = len(_CJK_OR_MARK_RE.sub(" ", text).split()) + cjk
    return chars, words, punct, cjk


def count_words(text: str) -> int:
    """CJK-aware word count."""
    return measure(text)[1]


#: Control characters that are not whitespace: C0 but tab, line feed, vertical tab, form
#: feed, carriage return and the separators ``\x1c``-``\x1f`` (``str.split`` splits on
#: those), DEL, C1 but NEL. They are never text.
_CONTROL_RE = re.compile("[\x00-\x08\x0e-\x1b\x7f-\x84\x86-\x9f]")


def clean_text(text: str) -> str:
    """:func:`normalize_space` of ``text`` without its control characters (removed): what
    every text field of a result (main text lines, title, metadata) is made of."""
    return normalize_space(_CONTROL_RE.sub("", text))


def normalize_space(text: str) -> str:
    """Collapse runs of whitespace (and invisible characters) to one space, strip the ends;
    drop soft hyphens (hyphenation hints inside words: ``Mit\u00adtel\u00adal\u00adter``);
    put the text in Unicode normalization form C (the form the W3C character model asks of
    web text: a page may write one letter precomposed where its quotations, or a search,
    hold the canonical sequence, ``\u09dc`` for ``\u09a1\u09bc``)."""
    if not text.isascii():
        if _INVISIBLE_RE.search(text):
            text = _INVISIBLE_RE.sub(" ", text)
        if _SOFT_HYPHEN in text:
            text = text.replace(_SOFT_HYPHEN, "")
        if not unicodedata.is_normalized("NFC", text):
            text = unicodedata.normalize("NFC", text)
    return " ".join(text.split())


#: U+00AD SOFT HYPHEN: where a word may break, invisible unless it does.
_SOFT_HYPHEN = "\u00ad"
