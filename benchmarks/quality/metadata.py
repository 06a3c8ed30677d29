"""Titles, authors and publication dates on every metadata development set, peers in the
same run.

    python3 scripts/dev.py bench-metadata
    .venv/bin/python -m benchmarks.quality.metadata --datasets newspaper4k --only scrapy_mainc --misses

The sets (:mod:`metadata_sets`): the hand-annotated gold of scrapinghub and zh_news
(``benchmarks/data/metadata_gold``, annotated by its ``RULES.md``), the newspaper4k
development half (gold by that dataset's authors), the ``dates`` set (publication day
only) and the WCXB development split (``wcxb``: 1,497 pages of seven page types, its gold
author strings read into names by ``metadata_sets.split_wcxb_authors``). Scores:

- **title**: exact match of the extractor's title with the gold ``title``, both with
  whitespace collapsed to single spaces (casing and punctuation count).
- **authors**: the names are compared as a set per page, after NFKC normalisation,
  whitespace collapsing and case folding (the gold keeps the page's casing; a name in
  capitals on the page and in title case in the markup is the same person). A page's
  precision is the share of output names in the gold, its recall the share of gold names in
  the output, its F1 their harmonic mean. The gold's ``[]`` is an answer (no byline, or an
  organisation only: RULES.md): a page with no gold author and no output scores 1; no gold
  author and some output scores 0, as does some gold author and no output. **authors F1**
  is the mean of the page F1s over all pages; the name-level (micro) precision, recall and
  F1 over all names are printed beside it. On newspaper4k, whose gold credits
  organisations as authors, **authors F1 (RULES.md)** scores the same output against the
  gold read by RULES.md (``benchmarks/data/newspaper4k_conventions.json`` lists the gold
  names that are organisations or job titles: they are left out).
- **date**: exact day: the first ten characters of the extractor's ISO 8601 date equal the
  gold ``published`` (the first seven, where the gold gives a month: two WCXB pages); a
  page whose gold has no date is right when the output is empty. A WCXB page whose gold
  date is null has no publication date (the dataset's SOURCE.md): scored as the ``dates``
  set's pages without one. Its null or empty gold author is scored as the hand gold's
  ``[]``: right when the extractor gives no name.
- **by page type** (sets whose gold gives one: WCXB): title, authors F1, authors F1 over
  the pages whose gold names someone (the mean the issue tracker's WCXB figures use), and
  date, for each page type and all pages, every extractor.
- **provenance** (scrapy_mainc): per ``published_from`` level, how many pages were dated
  from it and the share of them dated right; and how many of its date misses have a
  gold day the page shows nowhere (:func:`shows_day`: neither in its source as
  ``2023-12-22``, ``2023/12/22``, ``20231222`` nor as a date written in its text), which
  no extractor can find.

Times are median milliseconds per page of the whole call (decoding and parsing included),
each extractor taking the best of ``--repeat`` passes. Peers get the page as text decoded
by scrapy_mainc's decoder (inside the timed call), as in ``benchmarks/peers.py``:
trafilatura's ``extract_metadata``, htmldate (``find_date``, ``original_date=True``, fast
and extensive; dates only) and newspaper4k (``Article.parse``, which extracts the text
too: it has no metadata-only call). Last, the time the metadata stage adds: each
scrapinghub page is extracted with ``metadata=True`` and ``metadata=False`` in turns,
each page's fastest of ``--repeat`` runs kept, and the medians compared; and the median
microseconds of each finder of the stage on the prepared document, and of the title
search (``find_titles`` before preparation, ``visible_title`` after the choice), which
runs with or without the stage. ``--clock cpu`` times the stage in this thread's CPU time,
which other processes on a busy machine disturb less than the wall clock. To compare with
another tree, run this module with that tree first on ``PYTHONPATH`` and this checkout
second (for ``benchmarks``), from outside the repository (``cd /tmp &&
PYTHONPATH=<tree>:<repo> <repo>/.venv/bin/python -m benchmarks.quality.metadata --datasets
scrapinghub --no-peers --clock cpu``).
"""

from __future__ import annotations

import argparse
import json
import platform
import re
import statistics
import sys
import unicodedata
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, datetime, timedelta, timezone
from email.utils import format_datetime
from pathlib import Path
from time import perf_counter, thread_time
from typing import Any

from benchmarks.metadata_sets import ALL_SETS, GoldPage, load_set
from benchmarks.offline import no_network
from scrapy_mainc import extract
from scrapy_mainc._extract import _page_text, build_document
from scrapy_mainc.algorithms import get_algorithm
from scrapy_mainc.core._datetext import find_text_dates
from scrapy_mainc.core._decode import decode_html
from scrapy_mainc.core._dom import parse_html
from scrapy_mainc.core._evidence import collect_evidence
from scrapy_mainc.core._shown_title import visible_title
from scrapy_mainc.core._title import find_titles, read_page_titles
from scrapy_mainc.metadata._authors import find_authors
from scrapy_mainc.metadata._dates import find_dates
from scrapy_mainc.metadata._fields import find_fields


@dataclass(frozen=True, slots=True)
class Found:
    """What an extractor says about one page (``None``: it does not read that field)."""

    title: str | None = ""
    authors: tuple[str, ...] | None = ()
    published: str = ""
    #: Where scrapy_mainc's date came from (``Metadata.published_from``).
    published_from: str = ""


#: From page bytes and URL to what the extractor found.
Extractor = Callable[..., Found]  # (html, url), and scrapy_mainc's fetched=
#: Clocks for the stage's time: the wall clock, or this thread's CPU time.
CLOCKS: dict[str, Callable[[], float]] = {"wall": perf_counter, "cpu": thread_time}


def _ours(html: bytes, url: str, fetched: str | None = None) -> Found:
    result = extract(html, url=url or None, fetched=fetched)
    metadata = result.metadata
    return Found(result.title, metadata.authors, metadata.published, getattr(metadata, "published_from", ""))


def _trafilatura() -> Extractor:
    from trafilatura.metadata import extract_metadata

    def run(html: bytes, url: str) -> Found:
        document = extract_metadata(decode_html(html).text, default_url=url or None)
        if document is None:
            return Found()
        authors = tuple(name.strip() for name in (document.author or "").split(";") if name.strip())
        return Found(document.title or "", authors, document.date or "")

    return run


def _htmldate(extensive: bool) -> Callable[[], Extractor]:
    def make() -> Extractor:
        from htmldate import find_date

        def run(html: bytes, url: str) -> Found:
            text = decode_html(html).text
            found = find_date(text, url=url or None, extensive_search=extensive, original_date=True)
            return Found(None, None, found or "")

        return run

    return make


def _newspaper() -> Extractor:
    warnings.filterwarnings("ignore", message="nltk is not installed")
    from newspaper import Article, Config

    config = Config()
    config.fetch_images = False  # it would download the page's images to size them
    config.memorize_articles = False

    def run(html: bytes, url: str) -> Found:
        article = Article(url or "http://localhost/", config=config)
        article.download(input_html=decode_html(html).text)
        article.parse()
        published = article.publish_date.date().isoformat() if article.publish_date else ""
        return Found(article.title or "", tuple(article.authors), published)

    return run


PEERS: dict[str, Callable[[], Extractor]] = {
    "trafilatura": _trafilatura,
    "htmldate fast": _htmldate(False),
    "htmldate extensive": _htmldate(True),
    "newspaper4k": _newspaper,
}


def extractors(only: list[str] | None, peers: bool) -> dict[str, Extractor]:
    found: dict[str, Extractor] = {"scrapy_mainc": _ours}
    if peers:
        for name, make in PEERS.items():
            if only and name not in only:
                continue
            try:
                found[name] = make()
            except ImportError:
                print(f"{name} is not installed (peers extra): left out", file=sys.stderr)
    return {name: run for name, run in found.items() if not only or name in only}


def collapse(text: str) -> str:
    return " ".join(text.split())


def name_key(name: str) -> str:
    return collapse(unicodedata.normalize("NFKC", name)).casefold()


@dataclass(frozen=True, slots=True)
class AuthorScore:
    f1: float
    hits: int
    output: int
    gold: int


def score_authors(wanted_names: tuple[str, ...], given_names: tuple[str, ...]) -> AuthorScore:
    wanted = {name_key(name) for name in wanted_names}
    given = {name_key(name) for name in given_names if name.strip()}
    hits = len(wanted & given)
    if not wanted and not given:
        f1 = 1.0
    elif not hits:
        f1 = 0.0
    else:
        f1 = 2 * hits / (len(wanted) + len(given))
    return AuthorScore(f1, hits, len(given), len(wanted))


@dataclass(frozen=True, slots=True)
class PageScore:
    """One page's scores; ``None`` where the set or the extractor has no such field."""

    title: bool | None
    authors: AuthorScore | None
    date: bool | None
    #: Against the gold read by RULES.md (newspaper4k only).
    rules_authors: AuthorScore | None = None
    rules_date: bool | None = None
    published_from: str = ""
    #: What the extractor gave (``--dump`` writes scrapy_mainc's).
    found: Found | None = None


def score_page(page: GoldPage, found: Found) -> PageScore:
    gold = page.gold
    title = None
    if gold.title is not None and found.title is not None:
        title = collapse(found.title) == collapse(gold.title)
    authors = rules_authors = None
    if gold.authors is not None and found.authors is not None:
        authors = score_authors(gold.authors, found.authors)
        if page.rules is not None and page.rules.authors is not None:
            rules_authors = score_authors(page.rules.authors, found.authors)
    day = None if gold.published is None else same_day(found.published, gold.published)
    rules_day = None
    if page.rules is not None and page.rules.published is not None:
        rules_day = found.published[:10] == page.rules.published
    source = found.published_from if found.published else "none"
    return PageScore(title, authors, day, rules_authors, rules_day, source, found)


def same_day(found: str, gold: str) -> bool:
    """Whether ISO date ``found`` gives the gold day (``2023-12-22``), or the gold month
    where the gold gives only a month (``2015-11``); the gold ``""`` (no date) wants none."""
    return found[: len(gold) or 10] == gold


def _share(values: list[bool]) -> str:
    return f"{sum(values) / len(values):.3f}" if values else "–"


def _author_cells(scores: list[AuthorScore]) -> list[str]:
    if not scores:
        return ["–"] * 4
    hits = sum(score.hits for score in scores)
    output = sum(score.output for score in scores)
    wanted = sum(score.gold for score in scores)
    precision = hits / output if output else 1.0
    recall = hits / wanted if wanted else 1.0
    micro = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    mean = sum(score.f1 for score in scores) / len(scores)
    return [f"{mean:.3f}", f"{precision:.3f}", f"{recall:.3f}", f"{micro:.3f}"]


def row(name: str, scores: list[PageScore], times: list[float], rules: bool) -> str:
    authors = _author_cells([score.authors for score in scores if score.authors is not None])
    cells = [
        name,
        _share([score.title for score in scores if score.title is not None]),
        authors[0],
        *([_author_cells([s.rules_authors for s in scores if s.rules_authors])[0]] if rules else []),
        *authors[1:],
        _share([score.date for score in scores if score.date is not None]),
        *([_share([s.rules_date for s in scores if s.rules_date is not None])] if rules else []),
        f"{statistics.median(times):.2f}" if times else "–",
    ]
    return "| " + " | ".join(cells) + " |"


def header(rules: bool) -> str:
    columns = [
        "extractor", "title exact", "authors F1", *(["authors F1 (RULES.md)"] if rules else []),
        "authors P", "authors R", "authors F1 (names)", "date day",
        *(["date day (RULES.md)"] if rules else []), "median ms",
    ]  # fmt: skip
    return "| " + " | ".join(columns) + " |\n|" + "---|" * len(columns)


def by_page_type(pages: list[GoldPage], results: Results) -> str:
    """A set's scores by page type (WCXB): title, authors F1 over all pages and over the
    pages whose gold names someone, and date, for each extractor; ``""`` when the set has
    no page types."""
    kinds = sorted({page.page_type for page in pages if page.page_type}, key=_kind_order)
    if not kinds:
        return ""
    groups = {"all": list(range(len(pages)))}
    groups.update({kind: [i for i, page in enumerate(pages) if page.page_type == kind] for kind in kinds})
    credited = {i for i, page in enumerate(pages) if page.gold.authors}
    columns = [f"{kind} ({len(members)})" for kind, members in groups.items()]
    lines = [
        "| extractor | score | " + " | ".join(columns) + " |",
        "|---|---|" + "---:|" * len(columns),
    ]
    for extractor, (scores, _) in results.items():
        for label, cell in _TYPE_ROWS:
            cells = [cell([scores[i] for i in members], [scores[i] for i in members if i in credited])
                     for members in groups.values()]  # fmt: skip
            if any(value != "–" for value in cells):
                lines.append(f"| {extractor} | {label} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def _kind_order(kind: str) -> tuple[int, str]:
    order = ("article", "forum", "listing", "collection", "product", "documentation", "service")
    return (order.index(kind) if kind in order else len(order), kind)


def _authors_mean(scores: list[PageScore]) -> str:
    return _author_cells([score.authors for score in scores if score.authors is not None])[0]


#: The rows of :func:`by_page_type`: a label and the cell from a group's scores (all
#: pages, and those whose gold names an author).
_TYPE_ROWS: tuple[tuple[str, Callable[[list[PageScore], list[PageScore]], str]], ...] = (
    ("title exact", lambda every, _: _share([s.title for s in every if s.title is not None])),
    ("authors F1", lambda every, _: _authors_mean(every)),
    ("authors F1, gold author pages", lambda _, credited: _authors_mean(credited)),
    ("date day", lambda every, _: _share([s.date for s in every if s.date is not None])),
)


def shows_day(html: bytes, day: str) -> bool:
    """Whether the page gives ``day`` anywhere: in its source as ``2023-12-22``,
    ``2023/12/22``, ``2023.12.22`` or ``20231222``, or as a date written in its text."""
    if day.count("-") != 2:
        return True  # a month only (two WCXB pages): not looked for
    text = decode_html(html).text
    year, month, number = day.split("-")
    if any(f"{year}{mark}{month}{mark}{number}" in text for mark in ("-", "/", ".", "")):
        return True
    root = parse_html(text, None)
    words = " ".join(" ".join(root.itertext()).split())
    step = 1000  # find_text_dates reads at most 64 dates a call: chunks, overlapping by a date
    return any(
        found.value[:10] == day
        for start in range(0, len(words), step)
        for found in find_text_dates(words[start : start + step + 40])
    )


def shows_title(html: bytes, title: str) -> bool:
    """Whether the page shows ``title`` (whitespace collapsed, casing and punctuation
    counting, as the score does) anywhere as whole words: in its text, its ``<title>``, a
    ``<meta>`` value or a script (JSON-LD's headline). A gold title that has lost its
    opening quote is not shown."""
    wanted = re.compile(r"(?<!\S)" + re.escape(collapse(title)) + r"(?!\S)")
    root = parse_html(decode_html(html).text, None)
    texts = [" ".join(root.itertext()), "".join(root.itertext())]
    texts += [value for value in root.xpath("//meta/@content") if isinstance(value, str)]
    return any(wanted.search(collapse(text)) for text in texts)


def shows_name(html: bytes, name: str) -> bool:
    """Whether the page's source holds ``name`` anywhere (as the score compares names:
    NFKC, whitespace collapsed, case folded), markup and scripts included."""
    return name_key(name) in name_key(decode_html(html).text)


def ceilings(pages: list[GoldPage], scores: list[PageScore]) -> str:
    """The misses no extractor can avoid: gold titles the page shows nowhere
    (:func:`shows_title`), author pages with a gold name its source holds nowhere
    (:func:`shows_name`), and what the title and date scores could reach without them."""
    parts = []
    missed = [page for page, score in zip(pages, scores) if score.title is False]
    if missed:
        unshown = sum(not shows_title(page.html, page.gold.title or "") for page in missed)
        titled = sum(score.title is not None for score in scores)
        parts.append(
            f"Title misses: {len(missed)}, {unshown} of them with a gold title the page shows nowhere "
            f"(the most any extractor can score: {1 - unshown / titled:.3f})."
        )
    missed = [
        page for page, score in zip(pages, scores) if score.authors is not None and score.authors.f1 < 1
    ]
    if missed:
        unshown = sum(
            any(not shows_name(page.html, name) for name in page.gold.authors or ()) for page in missed
        )
        parts.append(
            f"Author pages under F1 1: {len(missed)}, "
            f"{unshown} of them with a gold name the page holds nowhere."
        )
    return " ".join(parts)


def provenance(scores: list[PageScore]) -> str:
    """Pages dated from each level, and the share of them dated right (also by RULES.md
    where the set has that reading)."""
    levels: dict[str, list[PageScore]] = {}
    for score in scores:
        if score.date is not None:
            levels.setdefault(score.published_from or "?", []).append(score)
    parts = []
    for level, group in sorted(levels.items()):
        share = f"{sum(bool(score.date) for score in group) / len(group):.3f}"
        rules = [score.rules_date for score in group if score.rules_date is not None]
        if rules:
            share += f" / {sum(rules) / len(rules):.3f}"
        parts.append(f"{level} {len(group)} ({share})")
    return ", ".join(parts)


Results = dict[str, tuple[list[PageScore], list[float]]]


#: ``--fetched``: when scrapy_mainc is told the page was fetched (the HTTP ``Date`` header a
#: crawl passes, which dates "3 hours ago" and days without a year): never (as a library
#: call without one), the day after the gold day (a crawl of fresh news), or one moment
#: years after every page (a crawl of an archive).
FETCHED_MODES = ("none", "fresh", "archive")
ARCHIVE_CRAWL = "Thu, 26 Nov 2026 12:00:00 GMT"


def fetch_time(page: GoldPage, mode: str) -> str | None:
    """The ``Date`` header a crawl in ``mode`` would have passed for ``page``."""
    if mode == "archive":
        return ARCHIVE_CRAWL
    if mode == "fresh" and page.gold.published:
        day = date.fromisoformat(page.gold.published[:10]) + timedelta(days=1)
        return format_datetime(datetime(day.year, day.month, day.day, 12, tzinfo=timezone.utc), usegmt=True)
    return None


def run_set(
    pages: list[GoldPage], runs: dict[str, Extractor], repeat: int, misses: bool, fetched: str = "none"
) -> Results:
    results: Results = {}
    for extractor, run in runs.items():
        run(pages[0].html, pages[0].url)  # imports and caches before timing
        best = [float("inf")] * len(pages)
        scores = []
        for attempt in range(repeat):
            for index, page in enumerate(pages):
                started = perf_counter()
                told = fetch_time(page, fetched) if extractor == "scrapy_mainc" else None
                try:
                    found = run(page.html, page.url, told) if told else run(page.html, page.url)
                except Exception as exc:  # a crash is a finding, scored as nothing found
                    print(f"{extractor} {page.page_id}: {exc!r}", file=sys.stderr)
                    found = Found()
                best[index] = min(best[index], (perf_counter() - started) * 1000)
                if attempt == 0:
                    scores.append(score_page(page, found))
                    if misses and extractor == "scrapy_mainc":
                        _print_miss(page, found, scores[-1])
        results[extractor] = (scores, best)
    return results


def _dumped(score: PageScore) -> dict[str, Any]:
    """One page's output and scores for ``--dump`` (to compare two trees page by page)."""
    found = score.found or Found()
    return {
        "title": found.title,
        "authors": list(found.authors or ()),
        "published": found.published,
        "title_right": score.title,
        "authors_f1": score.authors.f1 if score.authors else None,
        "rules_authors_f1": score.rules_authors.f1 if score.rules_authors else None,
        "date_right": score.date,
    }


def _print_miss(page: GoldPage, found: Found, score: PageScore) -> None:
    gold, page_id = page.gold, page.page_id
    if score.title is False:
        nowhere = "" if shows_title(page.html, gold.title or "") else " [gold title nowhere on the page]"
        print(f"TITLE  {page_id} gold={gold.title!r}{nowhere}\n{'':18}ours={found.title!r}")
    if score.authors is not None and score.authors.f1 < 1:
        print(f"AUTHOR {page_id} gold={list(gold.authors or ())} ours={list(found.authors or ())}")
    if score.date is False:
        source = f" ({found.published_from})" if found.published_from else ""
        nowhere = (
            " [gold day nowhere on the page]"
            if gold.published and not shows_day(page.html, gold.published)
            else ""
        )
        print(f"DATE   {page_id} gold={gold.published} ours={found.published!r}{source}{nowhere}")


def _finder_times(document: Any, content: tuple[int, ...], clock: Callable[[], float]) -> dict[str, float]:
    """The time of each finder's first call on one prepared page, microseconds."""
    finders: dict[str, Callable[[], object]] = {
        "dates": lambda: find_dates(document),
        "authors": lambda: find_authors(document, content),
        "fields": lambda: find_fields(document),
        "title shown": lambda: visible_title(document.stats, content, document.title, document.headlines),
    }
    if document.headline >= 0:  # extract looks for the shown title only without a headline
        finders["title shown"] = lambda: None
    times = {}
    for name, finder in finders.items():
        started = clock()
        finder()
        times[name] = (clock() - started) * 1e6
    return times


def stage_time(name: str, repeat: int, clock_name: str = "wall") -> str:
    """The time the metadata stage adds on the median page, and each finder's time, by the
    wall clock or by this thread's CPU time (``cpu``: steadier on a machine other
    processes keep busy)."""
    clock = CLOCKS[clock_name]
    pages = load_set(name)
    with_stage = [float("inf")] * len(pages)
    without = [float("inf")] * len(pages)
    finders: dict[str, list[float]] = {
        "dates": [],
        "authors": [],
        "fields": [],
        "title shown": [],
        "titles": [],
    }
    for _ in range(repeat):
        for index, page in enumerate(pages):
            for flag, best in ((True, with_stage), (False, without)):
                started = clock()
                extract(page.html, url=page.url or None, metadata=flag)
                best[index] = min(best[index], (clock() - started) * 1000)
    auto = get_algorithm("auto")
    for page in pages:
        text, utf8, _ = _page_text(page.html)
        best: dict[str, float] = {}
        for _ in range(repeat):  # a fresh page each time: each finder's first call, as in extract
            root = parse_html(text, utf8)
            evidence = collect_evidence(root)
            started = clock()
            find_titles(root, (), read_page_titles(root, evidence.meta))
            times = {"titles": (clock() - started) * 1e6}
            document = build_document(root, page.url or None)
            content = auto.select(document, auto.params()).nodes
            times.update(_finder_times(document, content, clock))
            best = {key: min(value, best.get(key, value)) for key, value in times.items()}
        for finder_name, value in best.items():
            finders[finder_name].append(value)
    on, off = statistics.median(with_stage), statistics.median(without)
    differences = statistics.median(a - b for a, b in zip(with_stage, without))
    parts = ", ".join(f"{key} {statistics.median(values):.0f} us" for key, values in finders.items())
    return (
        f"metadata stage on {name} ({len(pages)} pages, best of {repeat} per page, {clock_name} time): "
        f"median page "
        f"{off:.3f} ms without, {on:.3f} ms with (+{on - off:.3f} ms); median per-page difference "
        f"{differences:.3f} ms. Median time of each finder's first call on the prepared page "
        f"(the chosen text from auto; fastest of {repeat} fresh parses), and of find_titles on "
        f"the parsed page, which runs with or without the stage: {parts}."
    )


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--datasets", nargs="+", default=list(ALL_SETS))
    parser.add_argument("--only", nargs="+", default=None, help="only these extractors")
    parser.add_argument("--no-peers", action="store_true")
    parser.add_argument("--repeat", type=int, default=3, help="timing passes; each page's fastest counts")
    parser.add_argument("--misses", action="store_true", help="print scrapy_mainc's wrong pages")
    parser.add_argument("--no-stage-time", action="store_true")
    parser.add_argument(
        "--dump", metavar="PATH", help="write scrapy_mainc's title, authors and date of every page (JSON)"
    )
    parser.add_argument(
        "--fetched",
        choices=FETCHED_MODES,
        default="none",
        help="the fetch time scrapy_mainc is told: none, the day after the gold day, or 2026-11-26",
    )
    parser.add_argument(
        "--clock", choices=sorted(CLOCKS), default="wall", help="clock of the stage time (cpu: this thread's)"
    )
    args = parser.parse_args()
    no_network("benchmarks/quality/metadata.py")
    warnings.simplefilter("ignore")  # dateutil's time-zone warnings, from newspaper4k
    runs = extractors(args.only, not args.no_peers)
    print(f"measured {date.today()} on {platform.machine()}, Python {platform.python_version()}\n")
    gold_sets: Results = {}
    dumped: dict[str, dict[str, Any]] = {}
    for name in args.datasets:
        pages = load_set(name)
        rules = any(page.rules is not None for page in pages)
        results = run_set(pages, runs, args.repeat, args.misses, args.fetched)
        print(f"### {name} ({len(pages)} pages)\n\n{header(rules)}")
        for extractor, (scores, times) in results.items():
            print(row(extractor, scores, times, rules))
            if name in ("scrapinghub", "zh_news"):
                total = gold_sets.setdefault(extractor, ([], []))
                total[0].extend(scores)
                total[1].extend(times)
        if "scrapy_mainc" in results:
            ours = results["scrapy_mainc"][0]
            missed = [page for page, score in zip(pages, ours) if score.date is False]
            nowhere = sum(
                not shows_day(page.html, page.gold.published or "") for page in missed if page.gold.published
            )
            rules_note = " as given / by RULES.md" if rules else ""
            print(
                f"\npublished_from, pages (share right{rules_note}): {provenance(ours)}. "
                f"Date misses: {len(missed)}, "
                f"{nowhere} of them with a gold day the page shows nowhere "
                f"(the most any extractor can score: {1 - nowhere / len(pages):.3f}). "
                f"{ceilings(pages, ours)}".rstrip()
            )
            dumped[name] = {page.page_id: _dumped(score) for page, score in zip(pages, ours)}
        kinds = by_page_type(pages, results)
        if kinds:
            print(f"\n#### {name} by page type\n\n{kinds}")
        print(flush=True)
    if len({"scrapinghub", "zh_news"} & set(args.datasets)) == 2:
        count = len(next(iter(gold_sets.values()))[0])
        print(f"### hand-annotated gold, both ({count} pages)\n\n{header(False)}")
        for extractor, (scores, times) in gold_sets.items():
            print(row(extractor, scores, times, False))
        print()
    if args.dump:
        Path(args.dump).write_text(json.dumps(dumped, ensure_ascii=False, indent=1), encoding="utf-8")
    if not args.no_stage_time and "scrapy_mainc" in runs:
        print(stage_time("scrapinghub", args.repeat, args.clock))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
