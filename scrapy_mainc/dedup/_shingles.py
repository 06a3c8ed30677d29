"""Tokens and shingles of a text: word shingles, or character shingles for CJK text.

Text is NFKC-normalised (full-width letters and digits become ASCII) and case-folded, then
cut into tokens: runs of word characters (``\\w+``), except that every CJK ideograph, kana
and hangul syllable is a token of its own (the project's definition of a word, see
``scrapy_mainc.core._text``). Punctuation and whitespace never reach a token, so a re-punctuated
or re-wrapped copy of an article has the same tokens.

Shingles are runs of ``k`` consecutive tokens (Broder's *w-shingling*). Text in which CJK
characters are at least half of the tokens is shingled with the character size (a Chinese
or Japanese article with Latin names and numbers in it); any other text with the word size
(an English article quoting a Chinese name). Mixed text thus keeps one token sequence and
changes only the window length.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence

from ..core._text import CJK_RE

_WORD_RUN_RE = re.compile(r"\w+")
_CJK_SPLIT_RE = re.compile(f"({CJK_RE.pattern})")


def tokens(text: str) -> list[str]:
    """Normalised tokens of ``text``: ``\\w+`` runs, with each CJK character on its own."""
    normalized = unicodedata.normalize("NFKC", text).casefold()
    result: list[str] = []
    for run in _WORD_RUN_RE.findall(normalized):
        if run.isascii() or not CJK_RE.search(run):
            result.append(run)
        else:
            result.extend(part for part in _CJK_SPLIT_RE.split(run) if part)
    return result


def cjk_flags(token_list: Sequence[str]) -> list[bool]:
    """For each token, whether it is a CJK character (ideograph, kana or hangul syllable)."""
    cjk = {token for token in set(token_list) if len(token) == 1 and CJK_RE.match(token)}
    return [token in cjk for token in token_list]


def shingle_size(token_list: Sequence[str], word_size: int, char_size: int) -> int:
    """``char_size`` when CJK characters are at least half of the tokens, else ``word_size``."""
    flags = cjk_flags(token_list)
    return char_size if flags and 2 * sum(flags) >= len(flags) else word_size


def shingles(token_list: Sequence[str], size: int) -> list[str]:
    """Every run of ``size`` consecutive tokens, in order, duplicates kept.

    A shingle is its tokens joined by a space, except that two adjacent CJK characters are
    joined with nothing (``"北京市"``, ``"in 北京"``); as CJK characters are always tokens of
    their own, the joined form still identifies the tokens. A text shorter than ``size``
    tokens is one shingle; no tokens give no shingles.
    """
    if size < 1:
        raise ValueError(f"shingle size must be at least 1, not {size}")
    if not token_list:
        return []
    flags = cjk_flags(token_list)
    # The whole text joined once; shingle i is a slice of it from token i to token i+size-1.
    parts = [token_list[0]]
    starts = [0]
    offset = len(token_list[0])
    for index in range(1, len(token_list)):
        if not (flags[index] and flags[index - 1]):
            parts.append(" ")
            offset += 1
        starts.append(offset)
        parts.append(token_list[index])
        offset += len(token_list[index])
    joined = "".join(parts)
    ends = [start + len(token) for start, token in zip(starts, token_list)]
    count = max(len(token_list) - size + 1, 1)
    last = len(token_list) - 1
    return [joined[starts[i] : ends[min(i + size - 1, last)]] for i in range(count)]
