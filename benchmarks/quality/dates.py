"""Publication dates: accuracy and time of scrapy_mainc and its peers, in one run.

    python3 scripts/dev.py bench-dates
    .venv/bin/python -m benchmarks.quality.dates --rounds 7 --no-peers

1. The ``dates`` set (460 pages, human-annotated publication day, the page URL given):
   exact-day accuracy and median ms per page of scrapy_mainc (``extract(...).metadata
   .published``; its time is the whole extraction, content included), htmldate fast and
   extensive (``original_date=True``; also handed a tree lxml.html parsed, its parse not
   timed, as scrapy_mainc would hand it its own), trafilatura's ``extract_metadata`` and newspaper4k.
   A page whose gold has no date counts as right when the extractor gives none.
2. The same accuracy on the hand-annotated gold of scrapinghub and zh_news
   (``benchmarks/data/metadata_gold``, field ``published``; ``null`` is right only when
   the extractor gives no date).
3. What the metadata stage adds to ``extract`` on scrapinghub: every page extracted with
   ``metadata=True`` and ``metadata=False`` in turn, ``--rounds`` times; per page the
   fastest time of each; the median over pages of their difference and ratio. Also
   ``find_dates`` alone on the prepared page (median ms).

Peers get text decoded by scrapy_mainc's decoder, inside the timed call (see ``benchmarks/peers.py``).
No network: tldextract (newspaper4k) reads its bundled suffix list, and any connection
outside 127.0.0.1 raises.
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import warnings
from collections.abc import Callable
from pathlib import Path
from time import perf_counter
from typing import Any

from benchmarks.devsets import DATASETS_DIR
from benchmarks.metadata_sets import load_set
from benchmarks.offline import no_network
from scrapy_mainc import extract
from scrapy_mainc._extract import _page_text, build_document
from scrapy_mainc.core._decode import decode_html
from scrapy_mainc.core._dom import parse_html
from scrapy_mainc.metadata._dates import find_dates

#: A page: (id, html bytes, url, gold day or "").
Page = tuple[str, bytes, str, str]
DateFinder = Callable[[bytes, str], str]


def dates_pages(datasets: Path = DATASETS_DIR) -> list[Page]:
    pages = load_set("dates", datasets)
    return [(page.page_id, page.html, page.url, page.gold.published or "") for page in pages]


def gold_pages(name: str) -> list[Page]:
    return [(page.page_id, page.html, page.url, page.gold.published or "") for page in load_set(name)]


def ours_with(algorithm: str) -> DateFinder:
    """scrapy_mainc's publication day with ``algorithm`` choosing the content (the gate's
    ``--algorithm``; the default, ``auto``, is :func:`ours`)."""

    def run(html: bytes, url: str) -> str:
        return extract(html, url=url or None, algorithm=algorithm).metadata.published

    return run


ours = ours_with("auto")


def peers() -> dict[str, DateFinder]:
    """The installed peers, by display name."""
    found: dict[str, DateFinder] = {}
    try:
        from htmldate import find_date

        def htmldate_mode(extensive: bool) -> DateFinder:
            def run(html: bytes, url: str) -> str:
                text = decode_html(html).text
                return find_date(text, url=url or None, extensive_search=extensive, original_date=True) or ""

            return run

        def htmldate_on_tree(extensive: bool) -> DateFinder:
            def run(tree: Any, url: str) -> str:
                return find_date(tree, url=url or None, extensive_search=extensive, original_date=True) or ""

            run.prepare = _lxml_tree  # type: ignore[attr-defined]
            return run

        found["htmldate fast"] = htmldate_mode(False)
        found["htmldate extensive"] = htmldate_mode(True)
        found["htmldate fast, lxml tree given"] = htmldate_on_tree(False)
        found["htmldate extensive, lxml tree given"] = htmldate_on_tree(True)
    except ImportError:
        pass
    try:
        from trafilatura import extract_metadata

        def trafilatura_date(html: bytes, url: str) -> str:
            metadata = extract_metadata(decode_html(html).text, default_url=url or None)
            return (metadata.date or "") if metadata is not None else ""

        found["trafilatura extract_metadata"] = trafilatura_date
    except ImportError:
        pass
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # "nltk is not installed": not needed for dates
            from newspaper import Article

        def newspaper_date(html: bytes, url: str) -> str:
            article = Article(url or "http://localhost/", fetch_images=False)
            article.download(input_html=decode_html(html).text)
            article.parse()
            return article.publish_date.date().isoformat() if article.publish_date else ""

        found["newspaper4k"] = newspaper_date
    except ImportError:
        pass
    return found


def _lxml_tree(html: bytes) -> Any:
    """The page as lxml.html parses it (the tree htmldate would be handed), not timed."""
    from lxml import html as lxml_html

    return lxml_html.fromstring(
        decode_html(html).text.encode("utf-8"), parser=lxml_html.HTMLParser(encoding="utf-8")
    )


def score(finder: DateFinder, pages: list[Page]) -> tuple[float, float, list[str]]:
    """(exact-day accuracy, median ms per page, ids of the pages missed). A finder with a
    ``prepare`` attribute gets ``prepare(html)`` instead of the bytes, made untimed."""
    right, times, missed = 0, [], []
    prepare = getattr(finder, "prepare", None)
    for page_id, html, url, day in pages:
        page = prepare(html) if prepare else html
        started = perf_counter()
        try:
            found = finder(page, url)
        except Exception:  # a peer's crash is a miss, not the end of the run
            found = ""
        times.append((perf_counter() - started) * 1000)
        if (found or "")[:10] == day:
            right += 1
        else:
            missed.append(page_id)
    return right / len(pages), statistics.median(times), missed


def stage_cost(pages: list[Page], rounds: int) -> dict[str, float]:
    """Median over pages of what ``metadata=True`` adds to ``extract`` (fastest of
    ``rounds`` each, the two settings taking turns), and ``find_dates`` alone."""
    differences, ratios, without, with_, dates_only = [], [], [], [], []
    for _, html, url, _ in pages:
        best = {True: math.inf, False: math.inf}
        for _ in range(rounds):
            for setting in (False, True):
                started = perf_counter()
                extract(html, url=url or None, metadata=setting)
                best[setting] = min(best[setting], perf_counter() - started)
        without.append(best[False] * 1000)
        with_.append(best[True] * 1000)
        differences.append((best[True] - best[False]) * 1000)
        ratios.append(best[True] / best[False])
        text, utf8, _ = _page_text(html)
        document = build_document(parse_html(text, utf8), url or None)
        fastest = math.inf
        for _ in range(rounds):
            started = perf_counter()
            find_dates(document)
            fastest = min(fastest, perf_counter() - started)
        dates_only.append(fastest * 1000)
    return {
        "extract ms, metadata=False": statistics.median(without),
        "extract ms, metadata=True": statistics.median(with_),
        "added ms (median of per-page differences)": statistics.median(differences),
        "ratio (median of per-page ratios)": statistics.median(ratios),
        "find_dates alone ms": statistics.median(dates_only),
    }


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--no-peers", action="store_true")
    parser.add_argument("--rounds", type=int, default=5, help="timing rounds per page for the stage cost")
    parser.add_argument("--misses", action="store_true", help="list the pages scrapy_mainc gets wrong")
    args = parser.parse_args()
    no_network("benchmarks/quality/dates.py")
    warnings.simplefilter("ignore")  # dateutil's time-zone warnings, from newspaper4k
    finders: dict[str, DateFinder] = {"scrapy_mainc": ours}
    if not args.no_peers:
        finders.update(peers())

    print("## Publication date, exact day: dates set (460 pages, URL given)\n")
    print("| extractor | accuracy | median ms/page |\n|---|---:|---:|")
    pages = dates_pages()
    for name, finder in finders.items():
        accuracy, median_ms, missed = score(finder, pages)
        print(f"| {name} | {accuracy:.3f} | {median_ms:.2f} |", flush=True)
        if args.misses and name == "scrapy_mainc":
            print("missed:", " ".join(missed), file=sys.stderr)

    print("\n## Publication date, exact day: hand-annotated gold (metadata_gold)\n")
    print("| extractor | scrapinghub (181) | zh_news (69) | both (250) |\n|---|---:|---:|---:|")
    sets = {name: gold_pages(name) for name in ("scrapinghub", "zh_news")}
    for name, finder in finders.items():
        accuracies = {key: score(finder, value)[0] for key, value in sets.items()}
        both = sum(accuracies[key] * len(sets[key]) for key in sets) / sum(
            len(value) for value in sets.values()
        )
        print(
            f"| {name} | {accuracies['scrapinghub']:.3f} | {accuracies['zh_news']:.3f} | {both:.3f} |",
            flush=True,
        )

    print(f"\n## Metadata stage cost on scrapinghub ({args.rounds} rounds, fastest per page)\n")
    for label, value in stage_cost(sets["scrapinghub"], args.rounds).items():
        print(f"- {label}: {value:.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
