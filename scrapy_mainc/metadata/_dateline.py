"""Dates the reader sees near the headline: ``<time>`` elements and written datelines.

Only bounded windows of the tree are read, in turn until one shows a date
(:func:`._windows.dateline_windows`): the elements around the headline (a kicker line
"News | 22.12.2023" above it, the byline below), then other anchors for pages whose
headline was not found, the headline's article down to its footer, and the longest text
block. Containers whose class or id names comments or related stories are not read, so
comment and related-story dates stay out; a window away from the headline that shows many
days is a list of teasers (a home or section page), not a dateline, and so are the dated
items of a list of teasers in any window (:mod:`._teasers`).

Within a window the dateline is the date closest to the headline, in characters of
text between them (above the headline they count double: the page's header and
navigation are there); the first of equals. A date inside a sentence (:func:`_in_sentence`:
"...announced at a rally on Nov. 6, 2019") is a date the article talks about, not when
it was written: it is never the dateline, and a window that shows only such dates shows
none. A date right after "©" or "Copyright" is never one; a date after "Updated",
"Aktualisiert", "更新"... is the modification date; one after "Published", "发布" ranks
as if nearer.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable
from datetime import datetime
from itertools import islice
from typing import TYPE_CHECKING, NamedTuple
from urllib.parse import urlsplit

from ..core._datetext import TextDate, find_text_dates
from ._relative import DAY_WORDS, find_relative_dates
from ._teasers import in_teaser_list
from ._windows import WindowText, dateline_windows, window_text

if TYPE_CHECKING:
    from ..core._stats import DomStats
    from ..core._types import Document

#: Characters before a date read for its label ("Published:", "Updated on", "发布日期："):
#: a label and its punctuation, not the sentence before it.
LABEL_CHARS = 40
#: Rank taken from a date labelled as the publication ("Published", "发布日期"): as if
#: that many characters nearer the headline.
_LABEL_BONUS = 200

#: Words that say the date after them is an update, not the publication.
_MODIFIED_LABEL_RE = re.compile(
    r"(?:updated?|modified|last edited|aktualisiert|geändert|stand|mis à jour|actualizado|actualización"
    r"|atualizado|aggiornato|bijgewerkt|päivitetty|uppdaterad|oppdatert|opdateret|zaktualizowano"
    r"|aktualizováno|ažurirano|güncelleme|обновлено|оновлено|更新|修改)\W{0,3}(?:\w+\W{1,3}){0,2}$",
    re.IGNORECASE,
)
#: Words that say the date after them is the publication ("成文日期", the day a notice
#: was signed, is not).
_PUBLISHED_LABEL_RE = re.compile(
    r"(?:publi|posted|erschienen|veröffentlicht|gepubliceerd|opublikowano|objavljeno|yayınlan|опубликовано"
    r"|发布|發佈|發布|发表|發表|刊登|登载|公開)\w*\W{0,3}(?:\w+\W{1,3}){0,2}$",
    re.IGNORECASE,
)
_COPYRIGHT_RE = re.compile(
    r"(?:©|\(c\)|copyright|版权所有|版權所有)\W{0,3}(?:\w+\W{1,3}){0,2}$", re.IGNORECASE
)
#: Regions of English that write the day first (05/06/2023 is 5 June there).
_DAY_FIRST_ENGLISH = (
    "en-gb",
    "en-au",
    "en-nz",
    "en-ie",
    "en-in",
    "en-za",
    "en-sg",
    "en-ng",
    "en-ke",
    "en-pk",
)
_DAY_FIRST_HOSTS = (".uk", ".au", ".nz", ".ie", ".in", ".za", ".sg", ".ng", ".ke", ".pk")


class PageDates(NamedTuple):
    """What the reader sees near the headline."""

    #: The dateline: the best-ranked publication date, ISO 8601, or ``""``.
    published: str = ""
    #: The best-ranked date labelled as an update, or ``""``.
    modified: str = ""
    #: Every day the window's datelines show (not the dates in its prose).
    days: frozenset[str] = frozenset()
    #: ``published`` is read against the fetch time ("3 hours ago", a day without a year).
    relative: bool = False


def page_dates(
    document: Document,
    plausible: Callable[[str], bool],
    tries: int = 6,
    shown: int | None = None,
    fetched: datetime | None = None,
) -> PageDates:
    """The dates the reader sees in the first of ``tries`` windows
    (:func:`._windows.dateline_windows`) that shows any. ``shown`` is
    :func:`._windows.shown_headline` when the caller has it already; with ``fetched``
    (when the page was fetched) relative dates and days without a year are read too
    (:mod:`._relative`)."""
    day_first = _day_first(document)
    for window in islice(dateline_windows(document, shown), tries):
        text = window_text(document, window)
        published: list[tuple[int, str]] = []
        modified: list[tuple[int, str]] = []
        weak: list[bool] = []  # of each of published: read against the fetch time
        for rank, value, label, relative in _candidates(
            text, day_first, document.stats, fetched, window.anchor
        ):
            if label != "copyright" and plausible(value):
                if label == "modified":
                    modified.append((rank, value))
                else:
                    published.append((rank, value))
                    weak.append(relative)
        days = _days(published)
        if window.list_days and len(days) >= window.list_days:
            continue  # a list (a home or section page: teasers, each dated)
        if published or modified:
            # the best rank, the first of equals
            best = min(range(len(published)), key=lambda index: published[index][0], default=-1)
            return PageDates(
                published[best][1] if best >= 0 else "",
                min(modified, key=_rank)[1] if modified else "",
                days,
                best >= 0 and weak[best],
            )
    return PageDates()


def _rank(candidate: tuple[int, str]) -> int:
    return candidate[0]


def _days(published: list[tuple[int, str]]) -> frozenset[str]:
    """The days the datelines (not the dates in prose) of a window show."""
    return frozenset(value[:10] for _, value in published)


def _candidates(
    text: WindowText, day_first: bool, stats: DomStats, fetched: datetime | None = None, anchor: int = -1
) -> list[tuple[int, str, str, bool]]:
    """(rank, ISO value, label, read against the fetch time) of every date in the window;
    lower ranks are better.

    A ``<time>`` element counts once, with its ``datetime``, unless its text shows
    another day: the reader sees that one (``datetime`` in UTC, the text local time).
    Dates in a sentence, relative dates that do not stand alone, and the dates of a list
    of teasers are none."""
    # and the element showing the date, read against the fetch time, in a Chinese sentence
    found: list[tuple[int, str, str, int, bool, bool]] = []
    shown_in_time: dict[int, str] = {}
    dates = find_text_dates(text.text, day_first)
    weak: set[int] = set()
    if fetched is not None:
        relative = find_relative_dates(text.text, fetched, [(date.start, date.end) for date in dates])
        weak = {date.start for date in relative}
        dates = sorted(dates + relative, key=lambda date: date.start)
    for date in dates:
        time = next((start for start, end, _, _, _ in text.times if start <= date.start < end), -1)
        if time >= 0:
            if date.start not in weak:  # "2 days ago" in a <time>: its datetime says when
                shown_in_time.setdefault(time, date.value)
            continue
        piece = bisect_right(text.piece_starts, date.start) - 1
        label = _label(text.text[max(0, date.start - LABEL_CHARS) : date.start])
        is_weak = date.start in weak
        # run into Chinese text: a sentence's (a label before it, "发布于3小时前", is its own;
        # after it, "最新 2月14日冬奥看点", the date is a teaser's); still a date of the window
        # for telling a list of dated items
        in_sentence = is_weak and _in_han_sentence(text, piece, date, before=not label)
        if not label and not in_sentence and _talked_about(text, piece, date, is_weak):
            continue
        rank = _distance(text, date.start, date.end)
        rank = rank - _LABEL_BONUS if label == "published" else rank
        found.append((rank, date.value, label, text.piece_nodes[piece], is_weak, in_sentence))
    for start, end, value, label, node in text.times:
        shown = shown_in_time.get(start, value)
        value = value if shown[:10] == value[:10] else shown
        label = label or _label(text.text[max(0, start - LABEL_CHARS) : start])
        rank = _distance(text, start, end)
        rank = rank - _LABEL_BONUS if label == "published" else rank
        found.append((rank, value, label, node, False, False))
    teasers = in_teaser_list(stats, [found_date[3] for found_date in found], anchor)
    return [
        (rank, value, label, relative)
        for (rank, value, label, _, relative, in_sentence), teaser in zip(found, teasers)
        if not teaser and not in_sentence
    ]


def _talked_about(text: WindowText, piece: int, date: TextDate, relative: bool) -> bool:
    """Whether an unlabelled date in text piece ``piece`` is one the article talks about,
    not when it was written: a date inside a sentence (:func:`_in_sentence`), or a relative
    date or a day without a year that does not stand alone ("Order by Dec 20 for
    delivery", "Today's deals")."""
    whole = text.text
    start = text.piece_starts[piece]
    end = text.piece_starts[piece + 1] - 1 if piece + 1 < len(text.piece_starts) else len(whole)
    other = len(whole[start:end].strip()) - (date.end - date.start)
    if _in_sentence(whole[start : date.start], whole[date.end : end] if other > PROSE_CHARS else ""):
        return True
    return relative and not _stands_alone(whole, start, date, end)


def _distance(text: WindowText, start: int, end: int) -> int:
    """Characters between a date and the headline; doubled above it."""
    if start >= text.headline_end:
        return start - text.headline_end
    if end <= text.headline_start:
        return 2 * (text.headline_start - end)
    return 0


def _label(preceding: str) -> str:
    if _COPYRIGHT_RE.search(preceding):
        return "copyright"
    if _MODIFIED_LABEL_RE.search(preceding):
        return "modified"
    if _PUBLISHED_LABEL_RE.search(preceding):
        return "published"
    return ""


def _day_first(document: Document) -> bool:
    """Whether ``05/06/2023`` is 5 June on this page: everywhere but in American English
    (an ``en`` page not marked or hosted as British, Australian, Indian...)."""
    html = document.root.getparent()
    lang = ((html.get("lang") or html.get("xml:lang") or "") if html is not None else "").lower()
    if lang and not lang.startswith("en"):
        return True
    host = _host(document.urls[0]) if document.urls else ""
    if lang.startswith(_DAY_FIRST_ENGLISH) or host.endswith(_DAY_FIRST_HOSTS):
        return True
    return not lang and not host.endswith((".com", ".org", ".net", ".us", ".edu", ".gov"))


#: Marks that end a clause (or a credit line's part): the words before one are not in the
#: date's sentence. ASCII and CJK punctuation, brackets, bullets and dashes; a full stop
#: after a word of three letters or more (not an abbreviation: "Mi. 5. Februar", "Nov. 6").
_CLAUSE_END_RE = re.compile(r"[!?|•·—–:;()\[\]。，！？：；、（）【】]|(?<=[^\W\d_]{3})\.(?=\s)")
#: A lower-case word: letters only, its first one lower-case (scripts without case have none).
_LOWER_WORD_RE = re.compile(r"(?<![^\W\d_])[^\W\d_]+")
#: Han characters right before the date, run into it ("该公司于2023年12月22日").
_HAN_LEAD_RE = re.compile(r"[\u3400-\u9fff]{4}$")
#: Two Han characters run into a relative date or a day without a year, right before it,
#: or right after it or after a sentence's comma that follows it: the words of a sentence
#: ("4年后的今天", "今天是他的生日", "3月5日，我们来到..."), which a dateline keeps apart
#: ("昨天 08:30 来源：新华网", "发布时间：11月18日", "来源：新华社，今天 08:00").
_HAN_TOUCHING_RE = re.compile(r"[\u3400-\u9fff]{2}$")
_HAN_FOLLOWING_RE = re.compile(r"[，、]?[\u3400-\u9fff]{2}")
#: A capitalised word right before "today"/"yesterday": the day word ends a name ("USA
#: TODAY", "Psychology Today", "India Today"), unless a label precedes it ("Updated Today").
_NAMED_DAY_RE = re.compile(r"(?<![^\W\d_])[A-Z][\w&.'’-]*[^\W_] +$")
_DAY_WORD_START_RE = re.compile(rf"(?i)(?:{DAY_WORDS})(?![^\W\d_])")
#: A weekday after a day ("11月18日星期一", "周一"): part of the dateline.
_WEEKDAY_RE = re.compile(r"\s*[（(]?(?:星期|礼拜|周)[一二三四五六日天][）)]?")
#: Lower-case words of its own clause before a date that put the date inside a sentence.
PROSE_WORDS = 3
#: Characters besides the date (whitespace at its ends left out) from which its text
#: piece is running text: then one lower-case word before the date in its clause and one
#: after it are enough.
PROSE_CHARS = 80


def _in_sentence(before: str, after: str = "") -> bool:
    """Whether a date whose text piece starts with ``before`` is inside a sentence: at
    least :data:`PROSE_WORDS` lower-case words of its clause precede it ("announced at a
    rally on Nov. 6, 2019", "findet am Mi. 5. Februar 2020 statt"); or, in running text
    (``after`` is the rest of a piece of more than :data:`PROSE_CHARS` other characters),
    one precedes it and one follows it in its clause (German capitalises its nouns: "Die
    Erstausstrahlung am 3. Februar 2019 sahen 9,77 Millionen Zuschauer"); or four Han
    characters run into it ("该项目于2023年12月22日启动"). A dateline stands alone, opens its
    piece ("22.12.2023 - Der Rat..."), follows a label, a separator or names ("By Ann Lee •
    December 22, 2023", "By Jane Doe and John Smith December 22, 2023")."""
    clause = _CLAUSE_END_RE.split(before[-200:])[-1].rstrip()
    if _HAN_LEAD_RE.search(clause):
        return True
    lower = _lower_words(clause, PROSE_WORDS)
    if lower >= PROSE_WORDS:
        return True
    return (
        lower >= 1 and bool(after) and _lower_words(_CLAUSE_END_RE.split(after[:200], maxsplit=1)[0], 1) >= 1
    )


def _lower_words(text: str, enough: int) -> int:
    """How many lower-case words ``text`` has, counting up to ``enough``."""
    lower = 0
    for word in _LOWER_WORD_RE.findall(text):
        if word[0].islower():
            lower += 1
            if lower == enough:
                break
    return lower


def _stands_alone(text: str, piece_start: int, date: TextDate, piece_end: int) -> bool:
    """Whether a relative date or a day without a year stands alone in its clause: no
    lower-case word before it or after it ("3 hours ago", "By Ann Lee, yesterday 10:30",
    "Nov 18, 8:19 PM • 4 min read"; not "Order by Dec 20 for delivery", "Today's deals"),
    and not a day word that ends a name ("USA TODAY", "Psychology Today"). (In Chinese,
    which has no case: :func:`_in_han_sentence`.)"""
    bare = not any(character.isdigit() for character in text[date.start : date.end])  # no time after it
    named = bare and _NAMED_DAY_RE.search(text, max(piece_start, date.start - 40), date.start)
    if named and _DAY_WORD_START_RE.match(text, date.start):
        return False
    before = _CLAUSE_END_RE.split(text[max(piece_start, date.start - 200) : date.start])[-1]
    after = _CLAUSE_END_RE.split(text[date.end : min(piece_end, date.end + 200)], maxsplit=1)[0]
    return not any(word[0].islower() for word in _LOWER_WORD_RE.findall(before + " " + after))


def _in_han_sentence(text: WindowText, piece: int, date: TextDate, before: bool = True) -> bool:
    """Whether a relative date or a day without a year is run into Chinese text: two Han
    characters right before it (when ``before``: not where a label precedes it), or right
    after it or after a sentence's comma that follows it; a sentence's words, not a
    dateline. A clock time ("今天 08:00阅读") or a weekday ("11月18日星期一") after it closes
    the date."""
    whole, start = text.text, text.piece_starts[piece]
    end = text.piece_starts[piece + 1] - 1 if piece + 1 < len(text.piece_starts) else len(whole)
    if before and _HAN_TOUCHING_RE.search(whole, max(start, date.start - 2), date.start):
        return True
    last = whole[date.end - 1 : date.end]
    if not last or last.isspace() or last.isdigit():  # a match may end with a space or a time
        return False
    weekday = _WEEKDAY_RE.match(whole, date.end, end)
    after = weekday.end() if weekday else date.end
    return bool(_HAN_FOLLOWING_RE.match(whole, after, min(end, after + 3)))


def _host(url: str) -> str:
    """The host name of ``url`` (no port, no user), lower-cased; "" when there is none."""
    try:
        return urlsplit(url).hostname or ""
    except ValueError:  # an invalid IPv6 host: "//[bad"
        return ""
