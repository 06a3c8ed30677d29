"""Titles, authors and publication dates against the hand-annotated gold, peers in the same run.

    python3 scripts/dev.py bench-metadata
    .venv/bin/python benchmarks/metadata.py --datasets zh_news --only scrapy_mainc --misses

The gold is ``benchmarks/data/metadata_gold/<dataset>.json`` (how it was annotated:
``RULES.md`` beside it); the pages are ``../shared/datasets/<dataset>/html``. Scores:

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
  F1 over all names are printed beside it.
- **date**: exact day: the first ten characters of the extractor's ISO 8601 date equal the
  gold ``published``; a page whose gold is null is right when the output is empty.

Times are median milliseconds per page of the whole call (decoding and parsing included),
each extractor taking the best of ``--repeat`` passes. Peers get the page as text decoded
by scrapy_mainc's decoder (inside the timed call), as in ``benchmarks/peers.py``:
trafilatura's ``extract_metadata`` and newspaper4k (``Article.parse``, which extracts the
text too: it has no metadata-only call). Last, the time the metadata stage adds: each
scrapinghub page is extracted with ``metadata=True`` and ``metadata=False`` in turns,
each page's fastest of ``--repeat`` runs kept, and the medians compared; and the median
microseconds of each finder of the stage on the prepared document, and of the title
search (``find_titles`` before preparation, ``visible_title`` after the choice), which
runs with or without the stage.
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import sys
import unicodedata
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from time import perf_counter
from typing import Any

from scrapy_mainc import extract
from scrapy_mainc._extract import _page_text, build_document
from scrapy_mainc.algorithms import get_algorithm
from scrapy_mainc.core._decode import decode_html
from scrapy_mainc.core._dom import parse_html
from scrapy_mainc.core._evidence import collect_evidence
from scrapy_mainc.core._title import find_titles, read_page_titles, visible_title
from scrapy_mainc.evaluation._evaluate import load_dataset
from scrapy_mainc.metadata._authors import find_authors
from scrapy_mainc.metadata._dates import find_dates
from scrapy_mainc.metadata._fields import find_fields

HERE = Path(__file__).resolve().parent
GOLD_DIR = HERE / "data" / "metadata_gold"
DATASETS_DIR = HERE.parents[1] / "shared" / "datasets"
DEFAULT_DATASETS = ("scrapinghub", "zh_news")


@dataclass(frozen=True, slots=True)
class Found:
    """What an extractor says about one page."""

    title: str = ""
    authors: tuple[str, ...] = ()
    published: str = ""


#: From page bytes and URL to what the extractor found.
Extractor = Callable[[bytes, str], Found]


def _ours(html: bytes, url: str) -> Found:
    result = extract(html, url=url or None)
    return Found(result.title, result.metadata.authors, result.metadata.published)


def _trafilatura() -> Extractor:
    from trafilatura.metadata import extract_metadata

    def run(html: bytes, url: str) -> Found:
        document = extract_metadata(decode_html(html).text, default_url=url or None)
        if document is None:
            return Found()
        authors = tuple(name.strip() for name in (document.author or "").split(";") if name.strip())
        return Found(document.title or "", authors, document.date or "")

    return run


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


def extractors(only: list[str] | None, peers: bool) -> dict[str, Extractor]:
    found: dict[str, Extractor] = {"scrapy_mainc": _ours}
    if peers:
        for name, make in (("trafilatura", _trafilatura), ("newspaper4k", _newspaper)):
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
class PageScore:
    title: bool
    author_f1: float
    author_hits: int
    author_output: int
    author_gold: int
    date: bool


def score_page(gold: dict[str, Any], found: Found) -> PageScore:
    wanted = {name_key(name) for name in gold["authors"]}
    given = {name_key(name) for name in found.authors if name.strip()}
    hits = len(wanted & given)
    if not wanted and not given:
        f1 = 1.0
    elif not hits:
        f1 = 0.0
    else:
        f1 = 2 * hits / (len(wanted) + len(given))
    published = gold.get("published") or ""
    return PageScore(
        title=collapse(found.title) == collapse(gold["title"]),
        author_f1=f1,
        author_hits=hits,
        author_output=len(given),
        author_gold=len(wanted),
        date=found.published[:10] == published,
    )


@dataclass(frozen=True, slots=True)
class Summary:
    pages: int
    title: float
    author_f1: float
    author_precision: float
    author_recall: float
    author_micro_f1: float
    date: float
    median_ms: float

    def row(self, name: str) -> str:
        return (
            f"| {name} | {self.title:.3f} | {self.author_f1:.3f} | {self.author_precision:.3f} "
            f"| {self.author_recall:.3f} | {self.author_micro_f1:.3f} | {self.date:.3f} "
            f"| {self.median_ms:.2f} |"
        )


def summarize(scores: list[PageScore], times: list[float]) -> Summary:
    count = len(scores) or 1
    hits = sum(score.author_hits for score in scores)
    output = sum(score.author_output for score in scores)
    wanted = sum(score.author_gold for score in scores)
    precision = hits / output if output else 1.0
    recall = hits / wanted if wanted else 1.0
    return Summary(
        pages=len(scores),
        title=sum(score.title for score in scores) / count,
        author_f1=sum(score.author_f1 for score in scores) / count,
        author_precision=precision,
        author_recall=recall,
        author_micro_f1=2 * precision * recall / (precision + recall) if precision + recall else 0.0,
        date=sum(score.date for score in scores) / count,
        median_ms=statistics.median(times) if times else 0.0,
    )


HEADER = (
    "| extractor | title exact | authors F1 | authors P | authors R | authors F1 (names) | date day "
    "| median ms |\n|---|---|---|---|---|---|---|---|"
)


def run_dataset(
    name: str, runs: dict[str, Extractor], repeat: int, misses: bool
) -> dict[str, tuple[list[PageScore], list[float]]]:
    gold = json.loads((GOLD_DIR / f"{name}.json").read_text(encoding="utf-8"))
    pages = [page for page in load_dataset(DATASETS_DIR / name) if page.page_id in gold]
    results: dict[str, tuple[list[PageScore], list[float]]] = {}
    for extractor, run in runs.items():
        run(pages[0].html, pages[0].url)  # imports and caches before timing
        best = [float("inf")] * len(pages)
        scores = []
        for attempt in range(repeat):
            for index, page in enumerate(pages):
                started = perf_counter()
                try:
                    found = run(page.html, page.url)
                except Exception as exc:  # a crash is a finding, scored as nothing found
                    print(f"{extractor} {page.page_id}: {exc!r}", file=sys.stderr)
                    found = Found()
                best[index] = min(best[index], (perf_counter() - started) * 1000)
                if attempt == 0:
                    scores.append(score_page(gold[page.page_id], found))
                    if misses and extractor == "scrapy_mainc":
                        _print_miss(page.page_id, gold[page.page_id], found, scores[-1])
        results[extractor] = (scores, best)
    return results


def _print_miss(page_id: str, gold: dict[str, Any], found: Found, score: PageScore) -> None:
    if not score.title:
        print(f"TITLE  {page_id[:10]} gold={gold['title']!r}\n{'':18}ours={found.title!r}")
    if score.author_f1 < 1:
        print(f"AUTHOR {page_id[:10]} gold={gold['authors']} ours={list(found.authors)}")
    if not score.date:
        print(f"DATE   {page_id[:10]} gold={gold.get('published')} ours={found.published!r}")


def _finder_times(document: Any, content: tuple[int, ...]) -> dict[str, float]:
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
        started = perf_counter()
        finder()
        times[name] = (perf_counter() - started) * 1e6
    return times


def stage_time(name: str, repeat: int) -> str:
    """The time the metadata stage adds on the median page, and each finder's time."""
    pages = load_dataset(DATASETS_DIR / name)
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
                started = perf_counter()
                extract(page.html, url=page.url or None, metadata=flag)
                best[index] = min(best[index], (perf_counter() - started) * 1000)
    auto = get_algorithm("auto")
    for page in pages:
        text, utf8, _ = _page_text(page.html)
        best: dict[str, float] = {}
        for _ in range(repeat):  # a fresh page each time: each finder's first call, as in extract
            root = parse_html(text, utf8)
            evidence = collect_evidence(root)
            started = perf_counter()
            find_titles(root, (), read_page_titles(root, evidence.meta))
            times = {"titles": (perf_counter() - started) * 1e6}
            document = build_document(root, page.url or None)
            content = auto.select(document, auto.params()).nodes
            times.update(_finder_times(document, content))
            best = {key: min(value, best.get(key, value)) for key, value in times.items()}
        for finder_name, value in best.items():
            finders[finder_name].append(value)
    on, off = statistics.median(with_stage), statistics.median(without)
    differences = statistics.median(a - b for a, b in zip(with_stage, without))
    parts = ", ".join(f"{key} {statistics.median(values):.0f} us" for key, values in finders.items())
    return (
        f"metadata stage on {name} ({len(pages)} pages, best of {repeat} per page): median page "
        f"{off:.3f} ms without, {on:.3f} ms with (+{on - off:.3f} ms); median per-page difference "
        f"{differences:.3f} ms. Median time of each finder's first call on the prepared page "
        f"(the chosen text from auto; fastest of {repeat} fresh parses), and of find_titles on "
        f"the parsed page, which runs with or without the stage: {parts}."
    )


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--datasets", nargs="+", default=list(DEFAULT_DATASETS))
    parser.add_argument("--only", nargs="+", default=None, help="only these extractors")
    parser.add_argument("--no-peers", action="store_true")
    parser.add_argument("--repeat", type=int, default=3, help="timing passes; each page's fastest counts")
    parser.add_argument("--misses", action="store_true", help="print scrapy_mainc's wrong pages")
    parser.add_argument("--no-stage-time", action="store_true")
    args = parser.parse_args()
    runs = extractors(args.only, not args.no_peers)
    print(f"measured {date.today()} on {platform.machine()}, Python {platform.python_version()}\n")
    overall: dict[str, tuple[list[PageScore], list[float]]] = {}
    for name in args.datasets:
        results = run_dataset(name, runs, args.repeat, args.misses)
        print(f"### {name} ({len(next(iter(results.values()))[0])} pages)\n\n{HEADER}")
        for extractor, (scores, times) in results.items():
            print(summarize(scores, times).row(extractor))
            total = overall.setdefault(extractor, ([], []))
            total[0].extend(scores)
            total[1].extend(times)
        print()
    if len(args.datasets) > 1:
        print(f"### all ({len(next(iter(overall.values()))[0])} pages)\n\n{HEADER}")
        for extractor, (scores, times) in overall.items():
            print(summarize(scores, times).row(extractor))
        print()
    if not args.no_stage_time and "scrapy_mainc" in runs:
        print(stage_time(args.datasets[0], args.repeat))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
