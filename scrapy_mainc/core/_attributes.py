"""A cap on attributes per element, checked before parsing.

libxml2 appends each attribute of an element by walking the element's attribute list, so
building an element with *n* attributes costs time quadratic in *n* (an element with 40,000
attributes takes seconds to parse). Real pages stay far below the cap (64 at most on the
three development datasets); a page above it is not parsed.

The check is cheap on real pages (0.05 ms): it looks for runs of over 1,024 characters
without a ``>`` (an element with *n* attributes needs at least 2*n* characters), with one
``find`` per 512 characters, and in those runs for start tags with 1,024 characters
before the run's end, whose attributes it counts as the HTML tokenizer reads them. A tag
over the cap inside a script or style (the nearest one before it, found without reading
the markup around it) is passed over; any other calls a full tokenizer pass, which
knows what is script, style, comment or quoted value, to decide. The check is not proof
against a page written to defeat it: it does not see an attribute list broken up by ``>`` inside quoted values
every 1,024 characters, and a ``<script`` start inside a comment hides what follows. An
exact tokenizer pass over every page would cost 1 to 3 ms.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

#: Most attributes one element may have (real pages: 64 at most on the development sets;
#: building an element of this many takes about 0.3 ms).
MAX_ATTRIBUTES = 512

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
_SCRIPT_STATES = {  # script data, escaped and double-escaped: what ends each, and where it goes
    "data": re.compile(rf"<!--|</(?i:script)(?=[{_WS}/>])"),
    "escaped": re.compile(rf"-->|</(?i:script)(?=[{_WS}/>])|<(?i:script)(?=[{_WS}/>])"),
    "double": re.compile(rf"-->|</(?i:script)(?=[{_WS}/>])"),
}


def attributes_reason(text: str) -> str:
    """Why ``text`` must not be parsed for its attributes, or ``""``."""
    skip_until = 0  # the end of the last script or style a candidate was found in
    for start, end in _long_runs(text):
        hit = _LONG_TAG_RE.search(text, max(start, skip_until), end)
        if hit is None or not _over_cap(text, hit.start()):  # (attributes run on through "<")
            continue
        skip_until = _raw_text_end(text, hit.start())
        if skip_until < 0:
            return _full_pass_reason(text)  # decides, knowing comments and quoted values
    return ""


def _long_runs(text: str) -> Iterator[tuple[int, int]]:
    """The runs of text without ">" long enough to hold a tag over the cap, in order.

    Such a run (over 2 * MAX_ATTRIBUTES characters) covers a whole window of
    MAX_ATTRIBUTES characters at a multiple of that width; a window with a ">" in it, as
    nearly every window of a real page has, is passed over with one ``find``.
    """
    size, width, position = len(text), MAX_ATTRIBUTES, 0
    while position + width <= size:
        if text.find(">", position, position + width) >= 0:
            position += width
            continue
        end = text.find(">", position + width)
        end = size if end < 0 else end
        yield text.rfind(">", 0, position) + 1, end
        position = end + 1


def _raw_text_end(text: str, position: int) -> int:
    """Where the script or style content holding ``position`` ends, or -1.

    Scripts often have a "<" and a letter with hundreds of words after it: they must not
    count as elements. This looks only at the nearest ``<script`` (then ``<style``) before
    ``position`` and for an end tag between, without reading the markup around them (a
    start tag in a comment counts); when it finds none, the full tokenizer pass decides.
    """
    floor = 0
    for name in ("script", "style"):
        start = text.rfind(f"<{name}", floor, position)
        if start < 0 or text[start + len(name) + 1 : start + len(name) + 2] not in _TAG_NAME_ENDS:
            continue
        closed = _end_tag(text, name, start, position)
        if closed < 0:
            end = _end_tag(text, name, position, len(text))
            return len(text) if end < 0 else end
        floor = closed
    return -1


def _end_tag(text: str, name: str, start: int, end: int) -> int:
    """The first ``</name`` (lower or upper case) in ``text[start:end]``, or -1."""
    found = text.find(f"</{name}", start, end)
    upper = text.find(f"</{name.upper()}", start, found if found >= 0 else end)
    return upper if upper >= 0 else found


_TAG_NAME_ENDS = frozenset("\t\n\f\r />")


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
