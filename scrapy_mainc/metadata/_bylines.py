"""The visible byline: the credit a reader sees near the headline, at the start of the
chosen text, or at its end (where Chinese papers credit their reporters).

Only a few places are looked at: the elements just after the headline (NCE's title search
found it, or the metadata stage found the element showing it), those around the start of
the chosen text, and those around its end. There an
element is a byline candidate when

- its own text starts with a credit label ("By", "Written by", "Von", "Par", "Текст:",
  "作者：", "文/"...), or its tail does ("<span>Photo</span> By <a>A</a>"): an *author
  label*, the strongest evidence;
- its own text starts with a reporter label ("记者 张三", "本报记者 张三") or holds a
  Chinese reporter credit ("（记者 张三）", "张三/文": :mod:`._cjk_credits`), or it is
  named as a byline (``class``/``id`` with ``author``, ``byline``, ``writer``,
  ``reporter``; ``rel="author"``; a link to an author's page) and reads as names only;
- it holds a poster's credit ("由张三张贴", "张三 发表于"), the chosen text closes with a
  credit in brackets ("……。（张三 李四）"), or it is a bare name right before a date
  ("<span>Jane Doe</span><span>Dec 05, 2023</span>"): the weakest.

On a page of type forum a forum's labels of the original poster count as author labels
("Thread starter", "started by"), and an element named as a user name gives its user name
(the thread's first poster).

The strongest candidate wins, the earliest among equals (headline first). A byline naming
only organisations ("By Reuters") says the page has no person author. The credit's text
is read with its text pieces apart ("By <a>A</a><span>Opinion</span>" is "A", not
"A Opinion"), then cleaned by :func:`._credits.read_credit`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..core._datetext import find_text_dates
from ._cjk_credits import (
    AUTHOR_LABEL,
    HAN_HINT_RE,
    POSTER_CREDIT,
    REPORTER_CREDIT,
    closing_credit,
    han_credit,
    visible_context,
)
from ._credits import FORUM, Context, Credit, read_credit

if TYPE_CHECKING:
    from lxml import etree

    from ..core._stats import DomStats
    from ..core._types import Document

#: Longest text read as a byline, in words (a CJK character is a word). The statistics'
#: word counts are used because the algorithms have computed them already.
MAX_BYLINE_WORDS = 40
#: The same on a CJK page, where a credit often opens a paragraph of a hundred characters.
MAX_BYLINE_WORDS_CJK = 100
#: Characters of an element's text or tail read for a label.
MAX_BYLINE_CHARS = 160
#: Where bylines are looked for, as (first, last) offsets from an anchor element: the
#: headline, the first chosen element, the last element of the chosen text.
HEADLINE_WINDOW = (-3, 30)
START_WINDOW = (-40, 50)
NEAR_START_WINDOW = (-15, 25)
END_WINDOW = (-20, 10)
#: Most words of a byline found by its element's name (a few names and a job title).
MAX_NAMED_WORDS = 16
#: Most characters before a label in a tail ("<span>Photo</span> By <a>A</a>").
MAX_LEAD_CHARS = 30
#: Ancestors of a labelled credit's element read for names set in elements of their own.
WIDEN_LEVELS = 3
#: An author label at the start of a text.
_AUTHOR_LABEL_RE = re.compile(
    r"^[\W_]{0,3}(?:(?:written|posted|reported|analysis|story|words|text|commentary|"
    r"published|photos and text)\s+by\b|by\b(?:\s*:)?(?:\s+(?=(?-i:[^a-z]))|$)|von\s+(?-i:[A-ZÄÖÜ])|"
    r"par\s+(?-i:[A-Z])|por\s*:?\s+(?-i:[A-Z])|publicado\s+por|escrito\s+por|door\s+(?-i:[A-Z])|"
    r"texto?\s*:|текст\s*:|"
    r"автор\s*:|autor(?:in)?\s*:|author\s*:|作\s*者\s*[:：]|文\s*[/／:：]|撰文|执笔人?\s*[:：])",
    re.I,
)
#: An author label inside a text ("05/10/2018 - Publicado por: A - Categoria: ...").
_INNER_LABEL_RE = re.compile(
    r"\b(?:written|posted|publicado|escrito)\s+(?:by|por)\b\s*:?|作\s*者\s*[:：]", re.I
)
#: A lower-case word right before a label, and one right after it.
_LOWER_END_RE = re.compile(r"\b[a-z]+\s+$")
_LOWER_START_RE = re.compile(r"\s*[a-z]")
#: A forum's label of a thread's original poster ("Thread starter", "started by"), read
#: inside a text on forum pages, as the inner labels are.
_FORUM_INNER_LABEL_RE = re.compile(
    _INNER_LABEL_RE.pattern
    + r"|\b(?:(?:thread|topic|discussion)\s+starter|started\s+by|original\s+poster)\b\s*:?",
    re.I,
)
#: Class and id words of a forum's user name elements.
_USER_NAME_RE = re.compile(r"user-?name|poster", re.I)
#: Class and id words of byline elements, and of author boxes that are not the byline.
_BYLINE_NAME_RE = re.compile(r"author|byline|by-line|writer|reporter|contributor|creator|autor|auteur", re.I)
#: The path of an author's page (WordPress ``/author/jane-doe/`` and its kin).
_AUTHOR_PAGE_RE = re.compile(
    r"/(?:authors?|autor(?:es|en)?|auteurs?|writers?|journalists?|reporters?|contributors?|columnists?)/[^/?#]",
    re.I,
)
#: The start of a text that goes on with more names after a credit.
_MORE_NAMES_RE = re.compile(r"\s*(?:,|&|and\b|und\b|et\b|y\b|e\b|en\b|og\b|och\b|i\b|и\b|、|，)", re.I)
#: A bare name: two to four capitalised words ("Jane Doe", "Daisy-Mae O'Neil", "Ann B. Lee").
_BARE_NAME_RE = re.compile(r"^\s*[A-Z][\w'’.-]*(?:\s+[A-Z][\w'’.-]*){1,3}\s*$")
#: Class and id words of elements that name a topic, not a person.
_TOPIC_NAME_RE = re.compile(r"tag|categor|section|topic|rubri|kicker|label|channel|breadcrumb|location", re.I)
#: What may stand between a name and its date ("Jane Doe - December 21, 2023").
_DATE_LEAD = " \t\r\n-–—|•·,/"
#: Characters read after a name for its date.
_DATE_CHARS = 40
_NOT_BYLINE_NAME_RE = re.compile(r"bio|about|avatar|image|photo|img|comment|more|other|related", re.I)


def find_byline(
    document: Document, content: tuple[int, ...], context: Context, named: bool = True, headline: int = -1
) -> Credit:
    """The strongest visible byline near the headline (the element ``headline``) or the
    chosen text (empty if none).

    ``named`` looks at elements named as bylines too (the caller leaves them out when the
    markup names the authors already: they mostly repeat it, and reading every short
    element's names is the costliest part of the search).
    """
    stats = document.stats
    if not stats.tags:
        return Credit()
    best, best_strength = Credit(), 0
    seen: set[int] = set()
    parent, tags, words, link_words = stats.parent, stats.tags, stats.words, stats.link_words
    cjk_page = bool(document.lang)
    windows = _windows(document, content, headline, named)
    under_headline = range(*windows[0]) if headline >= 0 else range(0)
    limit = MAX_BYLINE_WORDS_CJK if cjk_page else MAX_BYLINE_WORDS
    scan = _Scan(stats, context, named, limit, under_headline, document.page_type.name == FORUM)
    for start, stop in windows:
        for node in range(start, stop):
            up = parent[node]
            size = words[node]
            if (
                node in seen
                or up >= 0
                and words[up] > scan.limit
                and (size > scan.limit or tags[up] == "p" or not size and not cjk_page)
            ):
                continue  # its tail is in a long text, and it is long, in a paragraph, or empty
            # (on a CJK page an empty element's tail may hold "记者 张三" inside a long text)
            seen.add(node)
            if not named and words[node] and link_words[node] == words[node]:
                continue  # a link (a menu item, a name linked after its label): no label of its own
            strength, credit = _candidate(scan, node)
            if strength > best_strength:
                best, best_strength = credit, strength
                if strength == AUTHOR_LABEL:
                    return best
    if not best_strength and content and document.lang:
        return closing_credit(stats, content, context)
    return best


def _windows(
    document: Document, content: tuple[int, ...], headline: int, named: bool
) -> list[tuple[int, int]]:
    """Where to look: after the headline; around the start of the chosen text (only near
    it when the markup names the authors: a byline listing more of them sits by the
    headline); around its end on CJK pages."""
    anchors = []
    if headline >= 0:
        anchors.append((headline, HEADLINE_WINDOW))
    if content and (named or headline < 0):
        anchors.append((content[0], START_WINDOW if named else NEAR_START_WINDOW))
    if content and document.lang:  # Chinese, Japanese and Korean papers credit at the end
        last = max(document.stats.end[node] for node in content) - 1
        anchors.append((last, END_WINDOW))
    count = len(document.stats.tags)
    return [(max(anchor + low, 0), min(anchor + high, count)) for anchor, (low, high) in anchors]


@dataclass(frozen=True, slots=True)
class _Scan:
    """What the search for a byline reads with."""

    stats: DomStats
    context: Context
    #: Whether elements named as bylines are read.
    named: bool
    #: Most words of a text read as a credit.
    limit: int
    #: The elements around the headline, where a bare name beside a date is a byline.
    under_headline: range = range(0)
    #: Whether the page is a forum thread (:attr:`Document.page_type`): its labels of the
    #: original poster count, and an element named as a user's name gives its user name.
    forum: bool = False


def _candidate(scan: _Scan, node: int) -> tuple[int, Credit]:
    """The strength and the credit of ``node`` as a byline (0 when it is none)."""
    stats, context, named = scan.stats, scan.context, scan.named
    own = (stats.texts[node] or "")[:MAX_BYLINE_CHARS].strip()  # (the tree as parsed)
    tail = (stats.tails[node] or "")[:MAX_BYLINE_CHARS].strip()
    up = stats.parent[node]
    short = stats.words[node] <= scan.limit
    for piece, holders in ((own, (node, up)), (tail, (up,))):
        if piece:
            match = _AUTHOR_LABEL_RE.match(piece)
            inner = match is None and (short or piece is tail)
            match = (
                (_FORUM_INNER_LABEL_RE if scan.forum else _INNER_LABEL_RE).search(piece) if inner else match
            )
            if match is not None and not (inner and _in_sentence(piece, match)):
                credit = _labelled_credit(scan, piece[match.start() :], holders, inner)
                if credit.persons or credit.organisations:
                    return AUTHOR_LABEL, credit
    if not short:
        return 0, Credit()
    if stats.own_cjk[node] or up >= 0 and stats.own_cjk[up]:
        text = _hinted_text(scan, node, own, tail)
        strength, credit = han_credit(text, context) if text else (0, Credit())
        if strength:
            return strength, credit
    element = stats.nodes[node]
    if named and scan.forum and stats.words[node] <= MAX_NAMED_WORDS and _named_user(element):
        credit = read_credit(_pieces(element), visible_context(context))
        if credit.persons and credit.unread <= 1:
            return REPORTER_CREDIT, Credit(credit.persons[:1])  # the thread's first poster
    if named and 2 <= stats.words[node] <= MAX_NAMED_WORDS and _named_byline(element):
        credit = read_credit(_pieces(element), context)
        if credit.persons and credit.unread <= 1 and all(_full_name(name) for name in credit.persons):
            return REPORTER_CREDIT, credit
    bare = (
        named and node in scan.under_headline and 2 <= stats.words[node] <= 4 and not stats.link_words[node]
    )
    if bare and _name_beside_date(stats, node):
        credit = read_credit(own, context)
        if len(credit.persons) == 1 and not credit.unread:
            return POSTER_CREDIT, credit
    return 0, Credit()


def _name_beside_date(stats: DomStats, node: int) -> bool:
    """Whether the element's own text is a bare name (a few capitalised words) and the
    text right after it (its tail, else the next element's text) opens with a date:
    "<span>Jane Doe</span><span>Dec 05, 2023</span>" under a headline."""
    element = stats.nodes[node]
    if len(element) or not _BARE_NAME_RE.match(element.text or ""):
        return False
    if _TOPIC_NAME_RE.search(f"{element.get('class', '')} {element.get('id', '')}"):
        return False  # a tag or a section beside the date: "<div class='tags'>Winter Games</div>"
    after = (element.tail or "").strip(_DATE_LEAD)
    if not after and stats.end[node] < len(stats.texts):
        after = (stats.texts[stats.end[node]] or "").strip(_DATE_LEAD)
    found = find_text_dates(after[:_DATE_CHARS]) if after[:1].isalnum() else []
    return bool(found) and found[0].start == 0


def _in_sentence(piece: str, label: re.Match[str]) -> bool:
    """Whether a label inside a text is a sentence's passive voice, lower-case words on
    both sides ("All of our content is written by humans"), not a credit."""
    return bool(_LOWER_END_RE.search(piece, 0, label.start()) and _LOWER_START_RE.match(piece, label.end()))


def _labelled_credit(scan: _Scan, labelled: str, holders: tuple[int, ...], inner: bool) -> Credit:
    """The credit that starts at a label: read in the first short holder (the element
    whose text or tail holds the label, or its parent: "<b>作者：</b><a>A</a>"), from the
    label on; else in the labelled text alone ("文：张三" in a long text). A label that
    starts a text must be near the holder's start ("<span>Photo</span> By <a>A</a>")."""
    for holder in holders:
        credit = _credit_from(scan, holder, labelled, inner)
        if credit.persons or credit.organisations:
            return _widened(scan, holder, labelled, inner, credit)
    return read_credit(labelled, visible_context(scan.context))


def _credit_from(scan: _Scan, holder: int, labelled: str, inner: bool) -> Credit:
    """The credit in short element ``holder`` from the label on (none when the label is
    not near its start)."""
    stats = scan.stats
    if holder < 0 or stats.words[holder] > scan.limit:
        return Credit()
    text = _pieces(stats.nodes[holder])
    position = text.find(labelled[:12])
    if position < 0 or not inner and position > MAX_LEAD_CHARS:
        return Credit()
    return read_credit(text[position:], visible_context(scan.context))


def _widened(scan: _Scan, holder: int, labelled: str, inner: bool, credit: Credit) -> Credit:
    """The credit of the largest short ancestor of ``holder`` (up to :data:`WIDEN_LEVELS`
    up) that starts with the same label and names the same people and more: names set in
    elements of their own beside the label's ("<span><span>By</span> <a>A</a></span> and
    <span><a>B</a></span>")."""
    if not _continues(scan.stats, holder):
        return credit
    parent = scan.stats.parent
    ancestor = parent[holder]
    for _ in range(WIDEN_LEVELS):
        wider = _credit_from(scan, ancestor, labelled, inner)
        known = len(credit.persons)
        if len(wider.persons) <= known or wider.persons[:known] != credit.persons:
            break
        credit, ancestor = wider, parent[ancestor]
    return credit


def _pieces(element: etree._Element) -> str:
    """The text of ``element`` with its pieces joined by `` | `` (a separator of names),
    except where a word goes on in the next piece ("Molly Woo<span>d</span>"): no space
    between them, and the next one lower-case ("Jane Doe</a> <a>on Dec 5" is two)."""
    text = ""
    spaced = False  # whether white space came between the last piece and this one
    for piece in element.itertext():
        if not piece or piece.isspace():
            spaced = spaced or bool(piece)
            continue
        glued = (
            text
            and not spaced
            and not text[-1].isspace()
            and piece[0].islower()
            and " " not in piece.rstrip()
        )
        spaced = piece[-1].isspace()
        text = f"{text}{piece}" if glued or not text else f"{text} | {piece}"
        if len(text) > 2 * MAX_BYLINE_CHARS:
            break
    return " ".join(text.split())


def _continues(stats: DomStats, holder: int) -> bool:
    """Whether the text right after element ``holder`` (its tail, else the next element's
    text) goes on with more names: it opens with "and", "&" or a comma."""
    after = stats.tails[holder] or ""
    if (not after or after.isspace()) and stats.end[holder] < len(stats.texts):
        after = stats.texts[stats.end[holder]] or ""
    return _MORE_NAMES_RE.match(after) is not None


def _named_byline(element: etree._Element) -> bool:
    """Whether the element is named or marked as a byline: ``rel="author"``, a link to an
    author's page (``/author/jane-doe/``), a byline ``class`` or ``id``."""
    if element.get("rel", "").lower() == "author":
        return True
    if element.tag == "a" and _AUTHOR_PAGE_RE.search(element.get("href", "")):
        return True
    name = f"{element.get('class', '')} {element.get('id', '')}"
    return bool(_BYLINE_NAME_RE.search(name)) and not _NOT_BYLINE_NAME_RE.search(name)


def _named_user(element: etree._Element) -> bool:
    """Whether the element is named as a user's name or a byline (on a forum page, where
    a poster goes by a user name)."""
    name = f"{element.get('class', '')} {element.get('id', '')}"
    return bool(_USER_NAME_RE.search(name) or _named_byline(element)) and not _NOT_BYLINE_NAME_RE.search(name)


def _full_name(name: str) -> bool:
    """A name of several words, or in a script written without spaces."""
    return " " in name or not name.isascii()


def _hinted_text(scan: _Scan, node: int, own: str, tail: str) -> str:
    """The text to read for a CJK credit whose hint word is in ``own`` (the element's
    text) or in ``tail`` (then its parent's text, or the tail alone in a long text)."""
    stats = scan.stats
    if own and HAN_HINT_RE.search(own):
        return " ".join(" ".join(stats.nodes[node].itertext()).split())
    if tail and HAN_HINT_RE.search(tail):
        up = stats.parent[node]
        if up >= 0 and stats.words[up] <= scan.limit:
            return " ".join(" ".join(stats.nodes[up].itertext()).split())
        return tail
    return ""
