"""Dates read out of strings: machine values (``2023-12-22T10:30:00+08:00``, Unix times,
RFC 2822), visible datelines in many languages (``December 22, 2023``, ``22. Dezember
2023``, ``22.12.2023``, ``2023年12月22日 10:30``) and URLs (``/2023/12/22/``).

Every function returns ISO 8601 strings: ``2023-12-22``, or ``2023-12-22T10:30:00`` when
a time is given, with ``+08:00`` appended when its offset is given too (``Z``, ``UTC`` and
``GMT`` are ``+00:00``). Impossible days (``2023-02-30``) are never returned; whether a
date is *plausible* (not before 1995, not in the future) is the caller's judgement.
"""

from __future__ import annotations

import re
from calendar import monthrange
from datetime import datetime, timezone
from typing import NamedTuple
from urllib.parse import urlsplit

#: Month names and their usual abbreviations, lower-case, by language, January first
#: (genitive forms where a language writes "22 December" with one: pl, cs, ru, uk, el...).
#: A token two languages give different months (Croatian "listopad" is October, Polish
#: and Czech "listopad" November) keeps the first meaning listed.
_MONTH_NAMES = (
    "january february march april may june july august september october november december",  # en
    "jan feb mar apr may jun jul aug sep oct nov dec",
    "januar februar märz april mai juni juli august september oktober november dezember",  # de
    "jan feb mär apr mai jun jul aug sep okt nov dez",
    "janvier février mars avril mai juin juillet août septembre octobre novembre décembre",  # fr
    "janv févr mars avr mai juin juil août sept oct nov déc",
    "enero febrero marzo abril mayo junio julio agosto septiembre octubre noviembre diciembre",  # es
    "ene feb mar abr may jun jul ago sep oct nov dic",
    "janeiro fevereiro março abril maio junho julho agosto setembro outubro novembro dezembro",  # pt
    "jan fev mar abr mai jun jul ago set out nov dez",
    "gennaio febbraio marzo aprile maggio giugno luglio agosto settembre ottobre novembre dicembre",  # it
    "gen feb mar apr mag giu lug ago set ott nov dic",
    "januari februari maart april mei juni juli augustus september oktober november december",  # nl
    "jan feb mrt apr mei jun jul aug sep okt nov dec",
    "januari februari mars april maj juni juli augusti september oktober november december",  # sv
    "januar februar marts april maj juni juli august september oktober november december",  # da
    "januar februar mars april mai juni juli august september oktober november desember",  # nb
    "tammikuuta helmikuuta maaliskuuta huhtikuuta toukokuuta kesäkuuta heinäkuuta elokuuta"  # fi
    " syyskuuta lokakuuta marraskuuta joulukuuta",
    "tammikuu helmikuu maaliskuu huhtikuu toukokuu kesäkuu heinäkuu elokuu syyskuu lokakuu"
    " marraskuu joulukuu",
    "stycznia lutego marca kwietnia maja czerwca lipca sierpnia września października listopada"  # pl
    " grudnia",
    "styczeń luty marzec kwiecień maj czerwiec lipiec sierpień wrzesień październik listopad grudzień",
    "ledna února března dubna května června července srpna září října listopadu prosince",  # cs
    "leden únor březen duben květen červen červenec srpen září říjen listopad prosinec",
    "januára februára marca apríla mája júna júla augusta septembra októbra novembra decembra",  # sk
    "januar februar mart april maj jun jul avgust septembar oktobar novembar decembar",  # bs/sr
    "siječnja veljače ožujka travnja svibnja lipnja srpnja kolovoza rujna listopada studenoga"  # hr
    " prosinca",
    "siječanj veljača ožujak travanj svibanj lipanj srpanj kolovoz rujan listopad studeni prosinac",
    "januar februar marec april maj junij julij avgust september oktober november december",  # sl
    "ianuarie februarie martie aprilie mai iunie iulie august septembrie octombrie noiembrie"  # ro
    " decembrie",
    "január február március április május június július augusztus szeptember október november"  # hu
    " december",
    "ocak şubat mart nisan mayıs haziran temmuz ağustos eylül ekim kasım aralık",  # tr
    "oca şub mar nis may haz tem ağu eyl eki kas ara",
    "januari februari maret april mei juni juli agustus september oktober november desember",  # id
    "jan feb mar apr mei jun jul agu sep okt nov des",
    "enero pebrero marso abril mayo hunyo hulyo agosto setyembre oktubre nobyembre disyembre",  # tl
    "január február márc ápr máj jún júl aug szept okt nov dec",
    "sausio vasario kovo balandžio gegužės birželio liepos rugpjūčio rugsėjo spalio lapkričio"  # lt
    " gruodžio",
    "janvāris februāris marts aprīlis maijs jūnijs jūlijs augusts septembris oktobris novembris"  # lv
    " decembris",
    "jaanuar veebruar märts aprill mai juuni juuli august september oktoober november detsember",  # et
    "gener febrer març abril maig juny juliol agost setembre octubre novembre desembre",  # ca
    "января февраля марта апреля мая июня июля августа сентября октября ноября декабря",  # ru
    "январь февраль март апрель май июнь июль август сентябрь октябрь ноябрь декабрь",
    "янв фев мар апр мая июн июл авг сен окт ноя дек",
    "січня лютого березня квітня травня червня липня серпня вересня жовтня листопада грудня",  # uk
    "січень лютий березень квітень травень червень липень серпень вересень жовтень листопад грудень",
    "януари февруари март април май юни юли август септември октомври ноември декември",  # bg
    "јануар фебруар март април мај јун јул август септембар октобар новембар децембар",  # sr
    "يناير فبراير مارس أبريل مايو يونيو يوليو أغسطس سبتمبر أكتوبر نوفمبر ديسمبر",  # ar
    "كانون_الثاني شباط آذار نيسان أيار حزيران تموز آب أيلول تشرين_الأول تشرين_الثاني كانون_الأول",
    "ιανουαρίου φεβρουαρίου μαρτίου απριλίου μαΐου ιουνίου ιουλίου αυγούστου σεπτεμβρίου"  # el
    " οκτωβρίου νοεμβρίου δεκεμβρίου",
)
#: Other spellings: Austrian, unaccented, and "Sept".
_MORE_MONTHS = {
    "jänner": 1, "feber": 2, "maerz": 3, "sept": 9, "fevrier": 2, "fév": 2, "aout": 8, "decembre": 12,
    "setiembre": 9, "marco": 3, "agt": 8, "ابريل": 4, "إبريل": 4, "اغسطس": 8, "اكتوبر": 10, "يونيه": 6,
    "يوليه": 7,
}  # fmt: skip
MONTHS: dict[str, int] = {}
for _line in _MONTH_NAMES:
    for _number, _name in enumerate(_line.split(), start=1):
        MONTHS.setdefault(_name, _number)
for _name, _number in _MORE_MONTHS.items():
    MONTHS.setdefault(_name, _number)
del _line, _name, _number

_YEAR = r"((?:19|20)\d\d)"
_TIME = (
    r"(?:\s*(?:,|um|at|à|às|alle|a las|kl\.?|klo|saat|-|–|—|\||/)?\s*"
    r"(?<!\d)([01]?\d|2[0-3])(?::|h(?=\d\d))([0-5]\d)(?::([0-5]\d))?(?!\d)\s*([ap]\.?m\.?)?)?"
)
_OFFSET = (
    r"\s*(Z(?![a-z])|(?:UTC|GMT)?\s?[+-](?:0\d|1[0-4]):?[0-5]\d(?!\d)"
    r"|(?:UTC|GMT)?[+-](?:1[0-4]|0?\d)(?![\d:])|UTC|GMT)?"
)

#: 2023-12-22, 2023/12/22, 2023.12.22 with an optional time and offset (machine values).
_ISO_RE = re.compile(
    r"(?<!\d)((?:19|20)\d\d)(?:([-/.])(\d\d?)\2(\d\d?)|(\d\d)(\d\d))(?!\d)"
    r"(?:[T\s]+([01]?\d|2[0-3]):?([0-5]\d)(?::?([0-5]?\d)(?![\d:])(?:[.,]\d+)?)?" + _OFFSET + ")?",
    re.IGNORECASE,
)
#: Dates as people write them, each with its field order.
_YMD_RE = re.compile(
    _YEAR + r"\s?([-/.])\s?(\d{1,2})\s?\2\s?(\d{1,2})(?!\d|\s?[-–~～]\s?\d)" + _TIME, re.IGNORECASE
)
_CJK_RE = re.compile(
    _YEAR + r"\s*[年년]\s*(\d{1,2})\s*[月월]\s*(\d{1,2})"
    r"(?!\d|\s?[-–~～－至到]\s?\d|\s*[日일号]\s?[-–~～－至到]\s?\d)\s*[日일号]?"
    r"(?:\s*(?:星期|周)[一二三四五六日天])?" + _TIME,
    re.IGNORECASE,
)
_DMY_RE = re.compile(
    r"(?<![\d.,/-])(\d{1,2})\s?([./-])\s?(\d{1,2})\s?\2\s?" + _YEAR + r"(?![\d])" + _TIME, re.I
)
#: 22.12.23 and 12/22/23: a two-digit year (German, Russian...; American).
_DMY_SHORT_RE = re.compile(r"(?<![\d.,/-])(\d{1,2})([./])(\d{1,2})\2(\d\d)(?![\d.]\d?|/)" + _TIME, re.I)
#: A month name (a word starts a pattern only after a character that is not a letter:
#: the engine then tries few places).
_WORD = r"([^\W\d_]{3,12})"
_DAY_MONTH_RE = re.compile(
    r"(?<!\d)(\d{1,2})(?:st|nd|rd|th|er|e|º|\.)?\s*(?:de\s+|of\s+)?" + _WORD
    + r"\.?,?\s*(?:de\s+|del\s+)?" + _YEAR + r"(?!\d)(?:\s*[.,]|\s*р\.|\s*г\.)?" + _TIME,
    re.IGNORECASE,
)  # fmt: skip
_MONTH_DAY_RE = re.compile(
    r"(?<![^\W\d_])" + _WORD + r"\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+" + _YEAR + r"(?!\d)" + _TIME,
    re.IGNORECASE,
)
_YEAR_MONTH_DAY_RE = re.compile(_YEAR + r"\.?\s+" + _WORD + r"\.?\s+(\d{1,2})\.?(?!\d)" + _TIME, re.I)
#: Tue Jan 28 15:28:56 CET 2020 (the C library's and Java's format).
_CTIME_RE = re.compile(
    r"(?<![^\W\d_])"
    + _WORD
    + r"\s+(\d{1,2})\s+([01]?\d|2[0-3]):([0-5]\d):([0-5]\d)\s+(?:[A-Z]{3,5}\s+)?"
    + _YEAR
    + r"(?!\d)"
)
#: Each pattern, the field order of its first groups ("y", "m", "d"; "n" is a month name;
#: "-" a separator), and characters one of which its text has (none: any text).
_TEXT_PATTERNS = (
    (_CJK_RE, "ymd", "年년"),
    (_YMD_RE, "y-md", "-/."),
    (_DAY_MONTH_RE, "dny", ""),
    (_MONTH_DAY_RE, "ndy", ""),
    (_YEAR_MONTH_DAY_RE, "ynd", ""),
    (_DMY_RE, "d-my", "-/."),
    (_DMY_SHORT_RE, "d-myy", "./"),
    (_CTIME_RE, "ctime", ":"),
)

#: Where a date can be: a year of four digits, or a day and month before a year of two.
#: (ASCII digits: the plain scan is three times as fast as one with a look-behind.)
_YEAR_SPOT_RE = re.compile(r"[0-9][0-9][0-9][0-9]|[0-9]([./])[0-9][0-9]?\1[0-9][0-9]")
#: Characters read before and after a year for the rest of its date.
_SPAN_BEFORE = 30
_SPAN_AFTER = 40

#: /2023/12/22/, /2023-12-22/, /20231222/, _2023_12_22 in a URL path.
_URL_RE = re.compile(
    r"(?<![\d])((?:19|20)\d\d)(?:([-/_.])(\d{1,2})\2(\d{1,2})|(\d\d)(\d\d))(?![\d])"
)  # fmt: skip
_OFFSET_RE = re.compile(_OFFSET, re.IGNORECASE)
#: A Unix time in seconds or milliseconds (2001-09-09 to 2286 for ten digits).
_EPOCH_RE = re.compile(r"^\s*(1\d{9})(\d{3})?(?:\.\d+)?\s*$")


class TextDate(NamedTuple):
    """A date found in visible text: its ISO value and where it starts and ends."""

    value: str
    start: int
    end: int


def iso_date(year: int, month: int, day: int) -> str:
    """``YYYY-MM-DD``, or ``""`` when there is no such day."""
    if not (1 <= month <= 12 and 1 <= day <= monthrange(year, month)[1]):
        return ""
    return f"{year:04d}-{month:02d}-{day:02d}"


def parse_machine_date(value: str, day_first: bool = True) -> str:
    """The date of a machine-readable value (a meta ``content``, a JSON-LD or ``datetime``
    value): ISO 8601 and its compact or slashed forms, Unix times, then anything
    :func:`find_text_dates` reads (RFC 2822, ``22.12.2023``...). ``""`` when none."""
    match = _ISO_RE.search(value, 0, 80)
    if match and match.start() <= 12:
        year, _, month, day, compact_month, compact_day, hour, minute, second, offset = match.groups()
        date = iso_date(int(year), int(month or compact_month), int(day or compact_day))
        if hour is not None:
            hour, second = hour.zfill(2), (second or "00").zfill(2)
        if date:
            return date + _iso_time(hour, minute, second, offset)
    epoch = _EPOCH_RE.match(value)
    if epoch:
        moment = datetime.fromtimestamp(int(epoch.group(1)), tz=timezone.utc)
        return moment.strftime("%Y-%m-%dT%H:%M:%S+00:00")
    found = find_text_dates(value[:80], day_first)
    if not found:
        return ""
    date = found[0].value
    offset = _OFFSET_RE.match(value, found[0].end) if "T" in date else None
    return date + _iso_offset(offset.group(1)) if offset else date


#: The most dates read from one text (a window near the headline shows a few; a page
#: with more is a listing, which five distinct days already reveal).
MAX_TEXT_DATES = 64


def find_text_dates(text: str, day_first: bool = True) -> list[TextDate]:
    """The dates written in ``text``, in order of position, with the time that follows a
    date (``22.12.2023 10:30``) when there is one. ``day_first`` decides ``05/06/2023``
    (both numbers possible months); ``13/06/2023`` and ``06/13/2023`` decide themselves.

    Every date has a year: the patterns run only around the years in ``text``
    (:data:`_YEAR_SPOT_RE`), so that a window of prose costs a scan for four digits. At
    most :data:`MAX_TEXT_DATES` dates are read, which keeps the time linear on text that
    is nothing but dates (a calendar, an archive, a hostile page).
    """
    found: list[TextDate] = []
    for low, high in _year_spans(text):
        span = text[low:high]
        taken: list[tuple[int, int]] = []  # spans are disjoint: a match overlaps only its own
        for pattern, order, needs in _TEXT_PATTERNS:
            if needs and not any(character in span for character in needs):
                continue
            for match in pattern.finditer(text, low, high):
                start, end = match.span()
                if any(start < stop and begin < end for begin, stop in taken):
                    continue
                date = _date_of(match, order, day_first)
                if date:
                    time = "T{}:{}:{}".format(*match.groups()[2:5]) if order == "ctime" else _text_time(match)
                    found.append(TextDate(date + time, start, end))
                    taken.append((start, end))
                    if len(taken) == MAX_TEXT_DATES:
                        break
            if len(taken) == MAX_TEXT_DATES:
                break
        if len(found) >= MAX_TEXT_DATES:
            break
    found.sort(key=lambda text_date: text_date.start)
    return found


def _year_spans(text: str) -> list[tuple[int, int]]:
    """Disjoint ranges of ``text`` around its years, wide enough for the rest of a date
    before a year ("Wednesday, 22 de diciembre de") and its time after one."""
    spans: list[tuple[int, int]] = []
    for match in _YEAR_SPOT_RE.finditer(text):
        if match.group()[:2] not in ("19", "20") and match.group()[1] not in "./":
            continue
        low, high = max(0, match.start() - _SPAN_BEFORE), match.end() + _SPAN_AFTER
        if spans and low <= spans[-1][1]:
            spans[-1] = (spans[-1][0], high)
        else:
            spans.append((low, high))
    return spans


#: A blog post's stamp ("2005-03-21 01:20:44", "Posted on March 5, 2019 by Jane"), as
#: (year, month, day) in each of these orders: numeric or CJK year-month-day, numeric
#: day-month-year (day first), English month name day year, day English month name year.
#: Numbers and English only: reading stamps with :func:`find_text_dates` (every language)
#: changes the first-post rule on two development pages, a change to measure on its own.
_ENGLISH_MONTH = (
    "jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?"
    "|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?"
)
_STAMP_YMD_RE = re.compile(
    r"(?<!\d)((?:19|20)\d\d)\s*[-/.\u5e74]\s*(\d{1,2})\s*[-/.\u6708]\s*(\d{1,2})(?!\d)"
)
_STAMP_DMY_RE = re.compile(r"(?<!\d)(\d{1,2})[-/.](\d{1,2})[-/.]((?:19|20)\d\d)(?!\d)")
_STAMP_MDY_NAME_RE = re.compile(
    rf"\b({_ENGLISH_MONTH})\.?\s+(\d{{1,2}})(?:st|nd|rd|th)?,?\s+((?:19|20)\d\d)\b", re.IGNORECASE
)
_STAMP_DMY_NAME_RE = re.compile(
    rf"\b(\d{{1,2}})\.?\s+({_ENGLISH_MONTH})\.?,?\s+((?:19|20)\d\d)\b", re.IGNORECASE
)


def stamp_date(line: str, most_other_words: int) -> tuple[int, int, int] | None:
    """The date (year, month, day) of a post's stamp ``line``: the first of the stamp
    patterns that ``line`` holds, when at most ``most_other_words`` words stand beside it
    (else None: a date in a sentence)."""
    for pattern in (_STAMP_YMD_RE, _STAMP_DMY_RE, _STAMP_MDY_NAME_RE, _STAMP_DMY_NAME_RE):
        found = pattern.search(line)
        if found is None:
            continue
        if len((line[: found.start()] + " " + line[found.end() :]).split()) > most_other_words:
            return None
        first, second, third = found.groups()
        if pattern is _STAMP_YMD_RE:
            return int(first), int(second), int(third)
        if pattern is _STAMP_DMY_RE:
            return int(third), int(second), int(first)
        if pattern is _STAMP_MDY_NAME_RE:
            return int(third), MONTHS[first.lower()], int(second)
        return int(third), MONTHS[second.lower()], int(first)
    return None


def url_date(url: str) -> str:
    """The full date in the path of ``url`` (``/2023/12/22/``, ``/20231222/``,
    ``-2023-12-22``); ``""`` when it gives none or only a month (``/2023/12/``)."""
    try:
        path = urlsplit(url).path
    except ValueError:  # an invalid IPv6 host: "//[bad"
        return ""
    for match in _URL_RE.finditer(path):
        year, _, month, day, compact_month, compact_day = match.groups()
        date = iso_date(int(year), int(month or compact_month), int(day or compact_day))
        if date:
            return date
    return ""


def _date_of(match: re.Match[str], order: str, day_first: bool) -> str:
    groups = match.groups()
    if order == "ymd":
        return iso_date(int(groups[0]), int(groups[1]), int(groups[2]))
    if order == "y-md":
        return iso_date(int(groups[0]), int(groups[2]), int(groups[3]))
    if order in ("d-my", "d-myy"):
        first, separator, second, year = int(groups[0]), groups[1], int(groups[2]), int(groups[3])
        year += 2000 if year < 100 else 0
        month_first = not day_first or bool(groups[-1])  # 7/5/2005 9:23:57 PM: the US order
        if separator != "." and (second > 12 or (month_first and first <= 12)):
            first, second = second, first  # month first: 12/22/2023, or so read on this page
        return iso_date(year, second, first)
    if order == "dny":
        month = MONTHS.get(groups[1].lower(), 0)
        return iso_date(int(groups[2]), month, int(groups[0])) if month else ""
    if order == "ndy":
        month = MONTHS.get(groups[0].lower(), 0)
        return iso_date(int(groups[2]), month, int(groups[1])) if month else ""
    if order == "ctime":
        month = MONTHS.get(groups[0].lower(), 0)
        return iso_date(int(groups[5]), month, int(groups[1])) if month else ""
    month = MONTHS.get(groups[1].lower(), 0)  # "ynd": 2023. december 22.
    return iso_date(int(groups[0]), month, int(groups[2])) if month else ""


def _text_time(match: re.Match[str]) -> str:
    """``THH:MM:SS`` from the time groups that end every text pattern, or ``""``."""
    hour, minute, second, meridiem = match.groups()[-4:]
    if hour is None:
        return ""
    number = int(hour)
    if meridiem:
        if number > 12 or number == 0:
            return ""
        number = number % 12 + (12 if meridiem[0].lower() == "p" else 0)
    return f"T{number:02d}:{minute}:{second or '00'}"


def _iso_time(hour: str | None, minute: str | None, second: str | None, offset: str | None) -> str:
    if hour is None:
        return ""
    return f"T{hour}:{minute}:{second or '00'}{_iso_offset(offset)}"


def _iso_offset(offset: str | None) -> str:
    """``+08:00`` from ``+08:00``, ``+0800`` or ``+08``; ``+00:00`` from ``Z``, ``UTC``, ``GMT``."""
    if not offset:
        return ""
    if offset.upper() in ("Z", "UTC", "GMT"):
        return "+00:00"
    offset = offset.lstrip("UTCGMutcgm ")
    sign, rest = offset[0], offset[1:]
    hours, minutes = (
        rest.split(":") if ":" in rest else (rest[:-2], rest[-2:]) if len(rest) > 2 else (rest, "00")
    )
    return f"{sign}{hours.zfill(2)}:{minutes}"
