"""Labels a heading shows around its headline: a kicker before it ("Politics | ...",
"<span>Opinion</span> ..."), a tag in brackets after it ("... [Watch]", "(VIDEO)"). The
title search (:mod:`._title`) leaves them out where the metadata states the headline
without them."""

from __future__ import annotations

import re

from lxml import etree

from ._text import normalize_space

_TOKEN_RE = re.compile(r"\w+")
#: A kicker (a section or column label a heading shows before the headline: "Opinion",
#: "Politics |") has at most this many words (the longest seen on the development pages:
#: one; a two-word column name is common on news sites).
KICKER_MAX_WORDS = 2
#: " | " sets a kicker off from the headline, in a heading and in ``og:title``.
_KICKER_SEPARATOR_RE = re.compile(r"\s+\|\s+")
#: A tag in brackets at a heading's end, after the headline ("... Finale [Watch]",
#: "... (VIDEO)"): a medium or a label, as short as a kicker.
_TRAILING_TAG_RE = re.compile(r"\s+[\[(]([^\[\]()]+)[\])]$")


def tokens(text: str) -> list[str]:
    """The lower-cased ``\\w+`` tokens of ``text``."""
    return [token.lower() for token in _TOKEN_RE.findall(text)]


def without_kicker(text: str, element: etree._Element, references: list[str]) -> str:
    """The heading ``text`` without the kicker it shows before the headline (a label of
    at most ``KICKER_MAX_WORDS`` words, set off by " | " or in an element of its own at
    the heading's start: "Politics | Gov. Hochul vetoes...", "<span>Opinion</span> What
    I'll be..."), when the metadata states the headline without it or sets it off by " | "
    too (``og:title`` "Opinion | What I'll be..."); else ``text`` as it is."""
    kicker = _kicker(text, element)
    if not kicker:
        return text
    rest = text[len(kicker) :].lstrip(" |")
    for reference in references:
        if reference == rest or _KICKER_SEPARATOR_RE.split(reference, maxsplit=1) == [kicker, rest]:
            return rest
    return text


def without_trailing_tag(text: str, references: list[str]) -> str:
    """The heading ``text`` without the tag in brackets it shows after the headline (at
    most ``KICKER_MAX_WORDS`` words: "[Watch]", "(VIDEO)"), when the metadata states the
    headline without it, word for word (its quotes may be straight where the heading's are
    curly); else ``text`` as it is."""
    match = _TRAILING_TAG_RE.search(text)
    if match is None or len(match.group(1).split()) > KICKER_MAX_WORDS:
        return text
    rest = text[: match.start()]
    wanted = tokens(rest)
    return rest if wanted and any(tokens(reference) == wanted for reference in references) else text


def _kicker(text: str, element: etree._Element) -> str:
    """The label ``text`` opens with: before " | ", or the text of the heading's first
    child element when no text precedes it; "" when it has none that short."""
    parts = _KICKER_SEPARATOR_RE.split(text, maxsplit=1)
    label = parts[0] if len(parts) == 2 else ""
    if not label:
        first = next(iter(element), None)
        if first is not None and not (element.text or "").strip() and isinstance(first.tag, str):
            label = normalize_space("".join(first.itertext()))
    if label and len(label.split()) <= KICKER_MAX_WORDS and text.startswith(label) and len(label) < len(text):
        return label
    return ""
