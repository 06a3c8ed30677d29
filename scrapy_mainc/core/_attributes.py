"""A cap on attributes per element, checked before parsing.

libxml2 appends each attribute of an element by walking the element's attribute list, so
building an element with *n* attributes costs time quadratic in *n* (an element with 40,000
attributes takes seconds to parse). Real pages stay far below the cap (64 at most on the
three development datasets); a page above it is not parsed.

The check is cheap on real pages: one regular-expression scan finds start tags with a
long run of characters before the first ``>`` (an element with *n* attributes needs at
least 2*n* characters), and the attributes of each such tag are counted as the HTML
tokenizer reads them. A tag over the cap inside a script or style (found without reading
the markup around it) is passed over; any other decides a full tokenizer pass, which
knows what is script, style, comment or quoted value. The check is not proof against a
page written to defeat it: the scan does not see an attribute list broken up by ``>``
inside quoted values within its first 512 characters, and a ``<script`` start inside a
comment hides what follows. An exact tokenizer pass over every page would cost 1 to 3 ms.
"""

from __future__ import annotations

import re

#: Most attributes one element may have (real pages: 64 at most on the development sets).
MAX_ATTRIBUTES = 256

_WS = "\\t\\n\\f\\r "
#: One attribute as the HTML tokenizer reads it: a name (which may start with "="), then
#: optionally "=" and a quoted (possibly unterminated) or unquoted value.
_ATTRIBUTE = rf"""[^{_WS}/>][^{_WS}/>=]*(?:[{_WS}]*=[{_WS}]*(?:"[^"]*"?|'[^']*'?|[^{_WS}>]*))?"""
#: A start or end tag up to the cap of attributes; it always matches, without backtracking
#: between attributes. Attributes remain when the next character is not ">" (or the end).
_TAG_RE = re.compile(rf"</?([A-Za-z][^{_WS}/>]*)(?:[{_WS}/]*{_ATTRIBUTE}){{0,{MAX_ATTRIBUTES}}}[{_WS}/]*")
#: A start tag with at least as many characters before its first ">" as a tag over the cap.
_LONG_TAG_RE = re.compile(rf"<[A-Za-z][^>]{{{2 * MAX_ATTRIBUTES}}}")
_RAW_TEXT_TAGS = frozenset(
    {"style", "xmp", "iframe", "noembed", "noframes", "textarea", "title", "plaintext"}
)
_RAW_TEXT_START_RE = re.compile(rf"<(?i:script|{'|'.join(sorted(_RAW_TEXT_TAGS))})(?=[{_WS}/>])")
_SCRIPT_STATES = {  # script data, escaped and double-escaped: what ends each, and where it goes
    "data": re.compile(rf"<!--|</(?i:script)(?=[{_WS}/>])"),
    "escaped": re.compile(rf"-->|</(?i:script)(?=[{_WS}/>])|<(?i:script)(?=[{_WS}/>])"),
    "double": re.compile(rf"-->|</(?i:script)(?=[{_WS}/>])"),
}


def attributes_reason(text: str) -> str:
    """Why ``text`` must not be parsed for its attributes, or ``""``."""
    position, raw_text = 0, _RawText(text)
    while (hit := _LONG_TAG_RE.search(text, position)) is not None:
        position = text.find(">", hit.end())
        if _over_cap(text, hit.start()):
            raw_end = raw_text.end_around(hit.start())
            if raw_end < 0:
                return _full_pass_reason(text)  # decides, knowing comments and quoted values
            position = max(position, raw_end)
        if position < 0:
            break
    return ""


class _RawText:
    """The script, style and other raw-text contents of a page, found left to right.

    Scripts often have a "<" and a letter with hundreds of words after it: they must not
    count as elements. Markup is not read here (a "<script" in a comment counts), which
    is enough to spare real pages the full pass.
    """

    def __init__(self, text: str) -> None:
        self.text = text
        self.start, self.end = -1, -1  # the last raw-text content found

    def end_around(self, position: int) -> int:
        """The end of the raw-text content holding ``position``, or -1."""
        while self.end <= position:
            found = _RAW_TEXT_START_RE.search(self.text, max(self.end, 0), position)
            if found is None:
                return -1
            self.start = found.start()
            self.end = max(_after_start_tag(self.text, found.start()), found.end())
        return self.end if self.start < position else -1


def _tag(text: str, start: int) -> re.Match[str]:
    """The tag at ``start`` (a "<" and a letter, or "</" and a letter), up to the cap."""
    tag = _TAG_RE.match(text, start)
    assert tag is not None  # every part of the pattern can be empty
    return tag


def _over_cap(text: str, start: int) -> bool:
    """True when the tag at ``start`` has more attributes than the cap."""
    end = _tag(text, start).end()
    return end < len(text) and text[end] != ">"


def _full_pass_reason(text: str) -> str:
    """Read ``text`` as the HTML tokenizer does; the reason when a start tag is over the cap."""
    position, size = 0, len(text)
    while (position := text.find("<", position)) >= 0 and position + 1 < size:
        following = text[position + 1]
        if following.isascii() and following.isalpha():
            if _over_cap(text, position):
                return f"too many attributes: an element has more than {MAX_ATTRIBUTES:,}"
            position = _after_start_tag(text, position)
        elif following in "/!?":
            position = _after_other_markup(text, position)
        else:
            position += 1
    return ""


def _after_start_tag(text: str, start: int) -> int:
    tag = _tag(text, start)
    position = tag.end() + 1
    name = tag.group(1).lower()
    if name == "script":
        return _after_script_data(text, position)
    if name in _RAW_TEXT_TAGS:
        if name == "plaintext":
            return len(text)
        end = re.compile(rf"</(?i:{name})(?=[{_WS}/>])").search(text, position)
        return end.start() if end else len(text)
    return position


def _after_script_data(text: str, position: int) -> int:
    """Where the script's content that starts at ``position`` ends (HTML's escape states)."""
    state = "data"
    while (found := _SCRIPT_STATES[state].search(text, position)) is not None:
        token, position = found.group().lower(), found.end()
        if token.startswith("</") and state != "double":
            return found.start()
        if token == "<!--":
            state = "escaped" if not text.startswith(">", position) else "data"
        elif token == "-->":
            state = "data"
        else:  # "<script" from escaped, "</script" from double-escaped
            state = "double" if state == "escaped" else "escaped"
    return len(text)


def _after_other_markup(text: str, start: int) -> int:
    """Past the end tag, comment, doctype or bogus comment at ``start``."""
    if text.startswith("<!--", start):
        comment_end = _EMPTY_COMMENT_END_RE.match(text, start + 4) or _COMMENT_END_RE.search(text, start + 4)
        return comment_end.end() if comment_end else len(text)
    if _END_TAG_START_RE.match(text, start):  # attributes of end tags are read, never built
        return _tag(text, start).end() + 1
    end = text.find(">", start + 1)
    return len(text) if end < 0 else end + 1


#: The end of a comment: "-->" or "--!>", or at once for "<!-->" and "<!--->".
_EMPTY_COMMENT_END_RE = re.compile("-?>")
_COMMENT_END_RE = re.compile("--!?>")
_END_TAG_START_RE = re.compile("</[A-Za-z]")
