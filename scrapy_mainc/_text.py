"""Text measures shared by every stage: CJK-aware words, characters, punctuation.

"Words" follow the common ground of ALGORITHMS.md: whitespace-separated tokens, except
that every CJK ideograph, kana and hangul syllable is a word of its own.
"""

from __future__ import annotations

import re

# Han ideographs (URO, extension A, compatibility, extension B+), kana, hangul syllables.
_CJK_CLASS = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af\U00020000-\U0002fa1f"
CJK_RE = re.compile(f"[{_CJK_CLASS}]")
#: The UTF-8 prefixes every character of ``CJK_RE`` starts with: lead bytes E3-ED (U+3000
#: to U+DFFF), EF A4-AB (U+F900 to U+FAFF) and F0 A0-AF (U+20000 to U+2FFFF).
_CJK_UTF8_PREFIXES = (
    *(bytes([lead]) for lead in range(0xE3, 0xEE)),
    *(bytes([0xEF, second]) for second in range(0xA4, 0xAC)),
    *(bytes([0xF0, second]) for second in range(0xA0, 0xB0)),
)
HAN_RE = re.compile("[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0002fa1f]")
KANA_RE = re.compile("[\u3040-\u30ff]")
HANGUL_RE = re.compile("[\uac00-\ud7af]")

#: ECON's punc-num marks: periods and commas, ASCII, full-width and ideographic.
PERIODS_AND_COMMAS = ".,。，．"
#: Other sentence marks, counted only when asked (ECON's documented option).
OTHER_SENTENCE_MARKS = "！？；、!?;"

#: CJK characters and the CJK/full-width punctuation that sits between them unspaced;
#: replaced by spaces before counting the remaining whitespace-separated words.
_CJK_OR_MARK_RE = re.compile(
    f"[{_CJK_CLASS}\u3000-\u303f\uff01-\uff0f\uff1a-\uff20\uff3b-\uff40\uff5b-\uff65]"
)
#: Zero-width characters and stray byte-order marks: invisible, so not text.
#: Characters that need the slow path: invisible ones, and everything from the CJK
#: punctuation block up (CJK scripts, full-width forms).
_WIDE_RE = re.compile("[\u200b-\u200d\u2060\u3000-\uffff\U00020000-\U0002fa1f]")
_INVISIBLE_RE = re.compile("[\u200b-\u200d\u2060\ufeff]")
_NON_ASCII_PUNCT_RE = re.compile("[，。．]")
_NON_ASCII_EXTRA_RE = re.compile("[！？；、]")


def has_cjk(text: str) -> bool:
    """True when ``text`` holds a character of ``CJK_RE``.

    A byte search (``memchr``) of the UTF-8 form for the prefixes those characters start
    with rules most non-CJK text out several times faster than the regex would; the regex
    decides for the rest.
    """
    if text.isascii():
        return False
    data = text.encode("utf-8", "surrogatepass")
    if not any(prefix in data for prefix in _CJK_UTF8_PREFIXES):
        return False
    return CJK_RE.search(text) is not None


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
    punct += len(_NON_ASCII_PUNCT_RE.findall(text))
    cjk = len(CJK_RE.findall(text))
    if not cjk:
        return chars, len(parts), punct, 0
    words = len(_CJK_OR_MARK_RE.sub(" ", text).split()) + cjk
    return chars, words, punct, cjk


def count_words(text: str) -> int:
    """CJK-aware word count."""
    return measure(text)[1]


def punctuation_count(text: str, *, all_marks: bool = False) -> int:
    """ECON's punc-num: periods and commas; with ``all_marks`` also ``! ? ; 、``."""
    count = sum(text.count(mark) for mark in PERIODS_AND_COMMAS)
    if all_marks:
        count += sum(text.count(mark) for mark in OTHER_SENTENCE_MARKS)
    return count


def normalize_space(text: str) -> str:
    """Collapse runs of whitespace (and invisible characters) to one space, strip the ends."""
    if not text.isascii() and _INVISIBLE_RE.search(text):
        text = _INVISIBLE_RE.sub(" ", text)
    return " ".join(text.split())
