"""Script guess: Chinese, Japanese, Korean, or none of them."""

from __future__ import annotations

from ._text import CJK_RUN_RE, count_kana_hangul, count_matching

#: Share of a page's characters that must be CJK for it to count as a CJK page.
CJK_PAGE_SHARE = 0.2
#: Lower share accepted when the page declares a CJK language itself.
DECLARED_CJK_SHARE = 0.05
#: Japanese text mixes kana with Han; this share of kana among CJK characters marks it.
KANA_SHARE = 0.05
_CJK_LANGS = ("zh", "ja", "ko")


#: Characters of a text the guess reads.
SCRIPT_SAMPLE_CHARS = 100_000


def guess_script(text: str, declared: str = "", cjk: int | None = None) -> str:
    """``zh``, ``ja`` or ``ko`` when ``text`` is mostly in that script, else ``""``.

    ``declared`` is a language tag the page gives (``<html lang>``, ``content-language``);
    it lowers the share of CJK characters needed and settles Han-only text. ``cjk`` is the
    number of CJK characters of a text no longer than ``SCRIPT_SAMPLE_CHARS``, when the
    caller counted them already.
    """
    sample = text[:SCRIPT_SAMPLE_CHARS]
    if cjk is None or len(text) > SCRIPT_SAMPLE_CHARS:
        cjk = count_matching(CJK_RUN_RE, sample)
    if not cjk:
        return ""
    chars = len("".join(sample.split()))
    declared_lang = declared.strip().lower()[:2]
    needed = DECLARED_CJK_SHARE if declared_lang in _CJK_LANGS else CJK_PAGE_SHARE
    if cjk < needed * chars:
        return ""
    return script_of_cjk(sample, cjk, declared_lang)


def script_of_cjk(sample: str, cjk: int, declared_lang: str = "") -> str:
    """Tell Japanese and Korean from Chinese among ``cjk`` CJK characters of ``sample``."""
    kana, hangul = count_kana_hangul(sample)
    if hangul > cjk / 2:
        return "ko"
    if kana >= KANA_SHARE * cjk:
        return "ja"
    if declared_lang in _CJK_LANGS:
        return declared_lang
    return "zh"
