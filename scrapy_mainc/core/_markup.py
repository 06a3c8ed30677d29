"""Markdown syntax for :mod:`._markdown`: escaping text, emphasis that parses, code spans,
URLs, and the GFM table block.

The renderer writes a block's inline content with placeholder characters for emphasis
(``STRONG``, ``EMPHASIS``, ``STRIKE`` opening and closing) and hard line breaks; control
characters, which these are, never reach it from the page (``plain`` removes them, as the
plain text does). :func:`inline_text` then turns a block into Markdown: each pair of
placeholders becomes ``**``/``*``/``~~`` only where CommonMark reads it back as emphasis
(the delimiters' flanking rules), otherwise it is left out and the words stay as they are.
"""

from __future__ import annotations

import re
import unicodedata
from urllib.parse import quote

from ._sanitize import is_safe_url
from ._text import _CONTROL_RE, _INVISIBLE_RE, _SOFT_HYPHEN

#: Placeholders: opening and closing strong, emphasis, strikethrough; a hard line break.
STRONG = ("\x01", "\x02")
EMPHASIS = ("\x03", "\x04")
STRIKE = ("\x05", "\x06")
HARD_BREAK = "\x07"
#: What encloses a piece of Markdown syntax among a block's text (``markup``), which
#: :func:`inline_text` escapes, the enclosed pieces apart.
_MARKUP_START, _MARKUP_END = "\x0e", "\x0f"
_MARKUP_RE = re.compile(f"{_MARKUP_START}([^{_MARKUP_END}]*){_MARKUP_END}")
_DELIMITERS = {STRONG[0]: "**", EMPHASIS[0]: "*", STRIKE[0]: "~~"}
_CLOSING = {STRONG[0]: STRONG[1], EMPHASIS[0]: EMPHASIS[1], STRIKE[0]: STRIKE[1]}
_OPENERS = frozenset(_CLOSING)
_CLOSERS = frozenset(_CLOSING.values())
_MARKS = _OPENERS | _CLOSERS
_MARK_RE = re.compile(f"[{''.join(sorted(_MARKS))}]")

#: Characters that are Markdown syntax anywhere in a line (CommonMark's backslash escapes
#: make each one literal): emphasis, code, links and images, raw HTML and autolinks,
#: GFM's strikethrough and table cells.
_ESCAPED_RE = re.compile(r"[\\`*_\[\]<~|]|&(?=#?\w+;)")
#: What is syntax at the start of a line only: headings, block quotes, list items
#: (``-``, ``+``, ``1.``, ``1)``), setext underlines.
_LINE_START_RE = re.compile(r"[#>+=-]|\d{1,9}(?=[.)])")
_LINE_STARTS = frozenset("#>+=-0123456789")
#: Characters a URL keeps as they are in ``[text](url)``; the rest is percent-encoded
#: (spaces, parentheses, angle brackets, backslashes, pipes, non-ASCII).
_URL_SAFE = "!#$%&'*+,-./:;=?@[]^_`{}~"


def plain(text: str) -> str:
    """Page text as every text field has it (see :func:`scrapy_mainc.core._text.normalize_space`
    and ``clean_text``): no control characters, invisible characters (zero-width spaces) as
    spaces, no soft hyphens, in Unicode normalization form C."""
    if text.isascii():
        return text if text.isprintable() else _CONTROL_RE.sub("", text)
    if not text.isprintable():  # a control, invisible, format or line-break character
        text = _INVISIBLE_RE.sub(" ", _CONTROL_RE.sub("", text)).replace(_SOFT_HYPHEN, "")
    return text if unicodedata.is_normalized("NFC", text) else unicodedata.normalize("NFC", text)


def escape(text: str) -> str:
    """``text`` with the characters that are Markdown syntax anywhere backslash-escaped."""
    return _ESCAPED_RE.sub(r"\\\g<0>", text) if _ESCAPED_RE.search(text) else text


def markup(syntax: str) -> str:
    """``syntax`` (a link's brackets, an image, a code span) as a piece of a block that
    :func:`inline_text` does not escape."""
    return _MARKUP_START + syntax + _MARKUP_END


def _escape_text(text: str) -> str:
    """A block's text escaped, its markup pieces kept as they are."""
    if _MARKUP_START not in text:
        return escape(text)
    parts = _MARKUP_RE.split(text)  # text, markup, text, markup, ..., text
    return "".join(part if index % 2 else escape(part) for index, part in enumerate(parts))


def escape_line_start(line: str) -> str:
    """``line`` with a backslash before what would start a block at the start of a line."""
    match = _LINE_START_RE.match(line) if line[:1] in _LINE_STARTS else None
    if match is None:
        return line
    cut = match.end() if match.group()[0].isdigit() else 0
    return line[:cut] + "\\" + line[cut:]


def markdown_url(url: str) -> str | None:
    """``url`` (as the HTML output emits it: :func:`scrapy_mainc.core._sanitize.safe_url`)
    as the destination of a Markdown link or image, or None when it is unsafe (its scheme
    not http, https or mailto, as read by any reader)."""
    encoded = quote(url, safe=_URL_SAFE)  # percent-encoding makes no scheme: judged as emitted
    return encoded if is_safe_url(encoded) else None


def code_span(text: str) -> str:
    """``text`` as a code span: fenced by more backticks than it holds in a row."""
    text = " ".join(text.split())
    if not text:
        return ""
    longest = max((len(run) for run in re.findall("`+", text)), default=0)
    fence = "`" * (longest + 1)
    if text.startswith("`") or text.endswith("`") or (text[0] == " " and text[-1] == " "):
        text = f" {text} "
    return f"{fence}{text}{fence}"


def code_fence(lines: list[str]) -> list[str]:
    """``lines`` as a fenced code block, fenced by more backticks than any line holds."""
    longest = max((len(run) for line in lines for run in re.findall("`+", line)), default=0)
    fence = "`" * max(3, longest + 1)
    return [fence, *lines, fence]


def inline_text(pieces: list[str], *, breaks: bool = True, marked: bool = True) -> list[str]:
    """The lines of one block from its pieces: whitespace collapsed, emphasis resolved
    (``marked``: the pieces may hold its placeholders), hard breaks as line ends (or
    spaces, without ``breaks``), each line's start escaped."""
    text = " ".join(_escape_text("".join(pieces)).split())
    if marked:
        text = _resolve_emphasis(_hug_words(text))
    if HARD_BREAK not in text:
        return [escape_line_start(text) if breaks else text] if text else []
    parts = text.split(HARD_BREAK)
    if not breaks:
        return [" ".join(" ".join(parts).split())] if text.strip(f" {HARD_BREAK}") else []
    lines = [escape_line_start(line.strip()) for line in parts if line.strip()]
    return [line + "\\" for line in lines[:-1]] + lines[-1:]


_OPENER_THEN_SPACE_RE = re.compile(f"([{''.join(_OPENERS)}])([ {HARD_BREAK}])")
_SPACE_THEN_CLOSER_RE = re.compile(f"([ {HARD_BREAK}])([{''.join(_CLOSERS)}])")


def _hug_words(text: str) -> str:
    """Move spaces and line breaks out of emphasis: ``a\x01 b\x02`` becomes ``a \x01b\x02``."""
    previous = None
    while previous != text:
        previous = text
        text = _OPENER_THEN_SPACE_RE.sub(r"\2\1", text)
        text = _SPACE_THEN_CLOSER_RE.sub(r"\2\1", text)
    return text


def _resolve_emphasis(text: str) -> str:
    """Placeholders to delimiters where they pair up and flank words as CommonMark needs;
    adjacent spans of one kind are merged, empty and unpaired ones left out."""
    previous = None
    while previous != text:  # empty spans go; **a****b** reads badly: **ab**
        previous = text
        for opener, closer in _CLOSING.items():
            text = text.replace(opener + closer, "").replace(closer + opener, "")
    keep: dict[int, str] = {}
    stack: list[int] = []
    for mark in _MARK_RE.finditer(text):
        position, char = mark.start(), mark.group()
        if char in _OPENERS:
            stack.append(position)
        elif stack and _CLOSING[text[stack[-1]]] == char:
            start = stack.pop()
            nested = any(text[outer] == text[start] for outer in stack)  # **a **b** c**: one is enough
            if not nested and _flanks(text, start, position):
                keep[start] = keep[position] = _DELIMITERS[text[start]]
        else:
            stack.clear()  # misnested: none of the open ones pairs any more
    return _MARK_RE.sub(lambda mark: keep.get(mark.start(), ""), text)


def _flanks(text: str, start: int, end: int) -> bool:
    """True when delimiters at ``start`` and ``end`` open and close emphasis of the words
    between (CommonMark's left- and right-flanking rules)."""
    first, last = _neighbour(text, start, 1), _neighbour(text, end, -1)
    if not first or not last or first.isspace() or last.isspace():
        return False
    before, after = _neighbour(text, start, -1), _neighbour(text, end, 1)
    if _is_punctuation(first) and before and not (before.isspace() or _is_punctuation(before)):
        return False
    return not (_is_punctuation(last) and after and not (after.isspace() or _is_punctuation(after)))


def _neighbour(text: str, position: int, step: int) -> str:
    """The first character from ``position`` in direction ``step`` that is not a placeholder."""
    position += step
    while 0 <= position < len(text):
        if text[position] == HARD_BREAK:
            return " "  # a line break is whitespace
        if text[position] not in _MARKS:
            return text[position]
        position += step
    return ""


def _is_punctuation(char: str) -> bool:
    return unicodedata.category(char)[0] in "PS"


def table_lines(rows: list[list[str]]) -> list[str]:
    """A GFM table of ``rows`` (Markdown cells); the first row is the header."""
    width = max(len(row) for row in rows)
    padded = [row + [""] * (width - len(row)) for row in rows]
    lines = ["| " + " | ".join(row) + " |" for row in padded]
    return [lines[0], "|" + " --- |" * width, *lines[1:]]
