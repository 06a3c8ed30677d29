"""Dates a page shows relative to the moment it was fetched: "3 hours ago", "yesterday",
"vor 2 Tagen", "3小时前", and days without a year ("Nov 18, 8:19 PM", "18. November").

They are read only against the fetch time the caller gives (the response's HTTP ``Date``
header): never against the machine's clock, since a page extracted a week after its crawl
would be dated a week late. Without a fetch time they give no date.

Values are ISO 8601 like :mod:`..core._datetext`'s: a day (``2019-11-18``) for "yesterday" and
"N days ago"; a time with the fetch time's offset for "N minutes/hours ago"; a day with the
time the page shows for "yesterday 10:30" and a day without a year.
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta, timezone
from email.utils import parsedate_to_datetime

from ..core._datetext import MAX_TEXT_DATES, MONTHS, TextDate, iso_date

#: Unit words by language, to the number of seconds of one unit.
_UNITS = {
    **dict.fromkeys(("second", "seconds", "sec", "secs"), 1),
    **dict.fromkeys(("minute", "minutes", "min", "mins"), 60),
    **dict.fromkeys(("hour", "hours", "hr", "hrs"), 3600),
    **dict.fromkeys(("day", "days"), 86400),
    **dict.fromkeys(("week", "weeks"), 604800),
    **dict.fromkeys(("sekunde", "sekunden"), 1),
    **dict.fromkeys(("minuten",), 60),
    **dict.fromkeys(("stunde", "stunden"), 3600),
    **dict.fromkeys(("tag", "tagen"), 86400),
    **dict.fromkeys(("woche", "wochen"), 604800),
    **dict.fromkeys(("seconde", "secondes", "segundo", "segundos", "secondi"), 1),
    **dict.fromkeys(("minuto", "minutos", "minuti"), 60),
    **dict.fromkeys(("heure", "heures", "hora", "horas", "ora", "ore", "uur"), 3600),
    **dict.fromkeys(("jour", "jours", "día", "días", "dia", "dias", "giorno", "giorni"), 86400),
    **dict.fromkeys(("dag", "dagen"), 86400),
    **dict.fromkeys(("semaine", "semaines", "semana", "semanas", "settimana", "settimane", "weken"), 604800),
    **dict.fromkeys(("секунду", "секунды", "секунд"), 1),
    **dict.fromkeys(("минуту", "минуты", "минут"), 60),
    **dict.fromkeys(("час", "часа", "часов"), 3600),
    **dict.fromkeys(("день", "дня", "дней"), 86400),
    **dict.fromkeys(("秒", "秒钟", "秒鐘"), 1),
    **dict.fromkeys(("分钟", "分鐘", "分"), 60),
    **dict.fromkeys(("小时", "小時", "个小时", "個小時"), 3600),
    **dict.fromkeys(("天", "日"), 86400),
    **dict.fromkeys(("周", "週", "星期"), 604800),
}  # fmt: skip
#: Words for one: "an hour ago", "vor einer Stunde", "il y a une heure".
_ONE = r"a|an|one|ein|eine|einer|einem|un|une|uno|una|um|uma|één|een"
_COUNT = rf"(\d{{1,3}}|{_ONE})"
_UNIT = r"([^\W\d_]{1,9})"
#: "3 hours ago", "3 ore fa", "3 uur geleden", "3 часа назад"; "vor 3 Stunden", "il y a 3
#: heures", "hace 3 horas", "há 3 horas"; "3小时前".
_AGO_RE = re.compile(
    rf"(?<![^\W\d_]){_COUNT}\s*{_UNIT}\s+(?:ago|fa|geleden|назад)(?![^\W\d_])"
    rf"|(?<![^\W\d_])(?:vor|il y a|hace|há)\s+{_COUNT}\s+{_UNIT}(?![^\W\d_])"
    r"|(\d{1,3})\s*(秒钟?|秒鐘|分钟|分鐘|个?小时|個?小時|天|周|週)\s*(?:之)?前",
    re.IGNORECASE,
)
#: "yesterday" and "today" in the languages read (the Latin and Cyrillic ones).
DAY_WORDS = (
    "yesterday|gestern|ayer|ontem|ieri|gisteren|вчера|today|heute|hoy|hoje|oggi|vandaag|сегодня"
    "|aujourd'hui|aujourd’hui"
)
#: "yesterday", "today", with the time that may follow ("yesterday at 10:30").
_DAY_WORD_RE = re.compile(rf"(?<![^\W\d_])({DAY_WORDS})(?![^\W\d_])|(昨天|今天)", re.IGNORECASE)
_YESTERDAY = frozenset("yesterday gestern ayer ontem ieri gisteren вчера 昨天".split())
#: A day and month without a year, with an optional time: "Nov 18, 8:19 PM", "18 November",
#: "18. November 10:30", "11月18日 08:19" (the patterns with a year, :mod:`..core._datetext`'s,
#: go first). Three patterns: a word that is no month ("repairs 18") must not hide a date.
_MONTH_DAY_RE = re.compile(
    r"(?<![^\W\d_])([^\W\d_]{3,12})\.?\s+(\d{1,2})(?:st|nd|rd|th)?(?!\d|[.:/]\d|,?\s*(?:19|20)\d\d)", re.I
)
_DAY_MONTH_RE = re.compile(
    r"(?<![\d.,/])(\d{1,2})(?:st|nd|rd|th|\.)?\s+(?:de\s+|of\s+)?([^\W\d_]{3,12})"
    r"(?![^\W\d_]|\.?,?\s*(?:de\s+)?(?:19|20)\d\d)",
    re.I,
)
_CJK_MONTH_DAY_RE = re.compile(r"(?<![\d年])(\d{1,2})\s*月\s*(\d{1,2})\s*[日号](?!\s*[-–~至]\s*\d)")
_TIME_RE = re.compile(r"\s*(?:,|at|um|à|-|–)?\s*([01]?\d|2[0-3])[:h.]([0-5]\d)(?!\d)\s*([ap]\.?m\.?)?", re.I)


def fetched_moment(value: str | datetime | None) -> datetime | None:
    """When the page was fetched: an HTTP ``Date`` header (``Tue, 19 Nov 2019 08:12:31
    GMT``; RFC 850 and asctime forms too) or a datetime (naive: UTC). ``None`` for anything
    else: a header that cannot be read is ignored, not guessed."""
    if isinstance(value, datetime):
        return value if value.tzinfo is not None else value.replace(tzinfo=timezone.utc)
    if not isinstance(value, str) or not value.strip():
        return None
    try:
        moment = parsedate_to_datetime(value.strip())
    except (TypeError, ValueError, IndexError, OverflowError):
        return None
    if moment is None:
        return None
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=timezone.utc)


def find_relative_dates(text: str, fetched: datetime, taken: list[tuple[int, int]]) -> list[TextDate]:
    """The relative dates and the days without a year in ``text``, resolved against
    ``fetched``, outside the spans in ``taken`` (dates with a year found there already).
    At most :data:`..core._datetext.MAX_TEXT_DATES` are read, as for dates with a year: the time
    stays linear on a text of nothing but "1 day ago"."""
    found: list[TextDate] = []
    readers = (
        (_AGO_RE, _ago),
        (_DAY_WORD_RE, _day_word),
        (_MONTH_DAY_RE, _month_day),
        (_DAY_MONTH_RE, _day_month),
        (_CJK_MONTH_DAY_RE, _cjk_month_day),
    )
    for pattern, read in readers:
        for match in pattern.finditer(text):
            start, end = match.span()
            if any(start < stop and begin < end for begin, stop in taken):
                continue
            value, end = read(match, text, fetched)
            if value:
                found.append(TextDate(value, start, end))
                taken.append((start, end))
                if len(found) == MAX_TEXT_DATES:
                    return sorted(found, key=lambda text_date: text_date.start)
    found.sort(key=lambda text_date: text_date.start)
    return found


def _ago(match: re.Match[str], text: str, fetched: datetime) -> tuple[str, int]:
    groups = match.groups()
    count, unit = next((groups[i], groups[i + 1]) for i in (0, 2, 4) if groups[i])
    seconds = _UNITS.get(unit.lower())
    if seconds is None:
        return "", match.end()
    number = int(count) if count.isdigit() else 1
    moment = fetched - timedelta(seconds=number * seconds)
    if seconds >= 86400:
        return moment.date().isoformat(), match.end()
    return moment.replace(microsecond=0).isoformat(), match.end()


def _day_word(match: re.Match[str], text: str, fetched: datetime) -> tuple[str, int]:
    word = (match.group(1) or match.group(2)).lower()
    day = fetched.date() - timedelta(days=1 if word in _YESTERDAY else 0)
    time = _TIME_RE.match(text, match.end())
    if time and time.start() - match.end() <= 4:
        clock = _clock(time)
        if clock:
            return f"{day.isoformat()}T{clock}", time.end()
    return day.isoformat(), match.end()


def _month_day(match: re.Match[str], text: str, fetched: datetime) -> tuple[str, int]:
    return _without_year(MONTHS.get(match.group(1).lower(), 0), int(match.group(2)), match, text, fetched)


def _day_month(match: re.Match[str], text: str, fetched: datetime) -> tuple[str, int]:
    return _without_year(MONTHS.get(match.group(2).lower(), 0), int(match.group(1)), match, text, fetched)


def _cjk_month_day(match: re.Match[str], text: str, fetched: datetime) -> tuple[str, int]:
    return _without_year(int(match.group(1)), int(match.group(2)), match, text, fetched)


def _without_year(
    month: int, day: int, match: re.Match[str], text: str, fetched: datetime
) -> tuple[str, int]:
    """The day in the year of the fetch, or in the year before when that day is after the
    fetch ("Dec 30" read in January), with the time that follows it."""
    if not month:
        return "", match.end()
    value = iso_date(fetched.year, month, day)
    if value and value > (fetched.date() + timedelta(days=1)).isoformat():
        value = iso_date(fetched.year - 1, month, day)
    if not value:
        return "", match.end()
    time = _TIME_RE.match(text, match.end())
    clock = _clock(time) if time and time.start() - match.end() <= 4 else ""
    return (f"{value}T{clock}", time.end()) if clock and time else (value, match.end())


def _clock(time: re.Match[str]) -> str:
    hour, minute, meridiem = int(time.group(1)), time.group(2), time.group(3)
    if meridiem:
        if not 1 <= hour <= 12:
            return ""
        hour = hour % 12 + (12 if meridiem[0].lower() == "p" else 0)
    return f"{hour:02d}:{minute}:00"
