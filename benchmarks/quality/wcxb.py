"""WCXB, the web of seven page types: word F1 by page type, ours beside the peers, one run.

    python3 scripts/dev.py bench-wcxb                          # auto, cectd-ds and the peers
    python3 scripts/dev.py bench-wcxb --only auto --jobs 2     # scores only, two processes
    python3 scripts/dev.py bench-wcxb --save wcxb.json         # keep every text: --load reuses them
    python3 scripts/dev.py bench-wcxb --load wcxb.json --only auto --list auto

The set: ``../shared/datasets/wcxb``, the development split of WCXB (1,497 pages of about
1,300 sites; gold main text, with/without snippets and a page type per page: article,
forum, listing, collection, product, documentation, service). Its test split is held out
and is not read here.

The metric is the benchmark's own (:mod:`scrapy_mainc.evaluation._words`): word-level F1
of lower-cased ``\\w+`` tokens, mean over pages, an empty gold text scoring 1 only when
nothing is extracted. Beside it, per extractor: the pages under F1 0.5 and at F1 0 (a
zero is almost always an empty output), this project's usual metric (the mean page F1 of
4-gram shingles, :mod:`scrapy_mainc.evaluation._metric`), the share of ``with`` snippets
found and of ``without`` snippets found (the benchmark's snippet rates, lower is better
for ``without``), and the CPU milliseconds per page (median and mean; decoding and parsing
included; the extractors take turns page by page). With ``--jobs`` over 1 the pages are
shared among processes and the times are not comparable: use it for scores only.

Peers (the ``peers`` extra) get the page decoded by our decoder, as in ``quality.articles``:
trafilatura 2.3 (default and ``fast=True``) and readability-lxml.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from time import perf_counter, process_time

from benchmarks.devsets import ours
from benchmarks.peers import available_peers
from benchmarks.wcxb_set import PAGE_TYPES, WcxbPage, load_pages
from scrapy_mainc import extract
from scrapy_mainc.evaluation._metric import score_page
from scrapy_mainc.evaluation._snippets import normalize_whitespace
from scrapy_mainc.evaluation._words import WordScore, score_words, word_tokens

#: A page under this word F1 is lost; at 0 it is empty (or all wrong).
LOST_F1 = 0.5
#: What runs without ``--only``: ``auto``, the whole-page density algorithm, the peers.
DEFAULT_ROWS = ("auto", "cectd-ds", "trafilatura", "trafilatura fast", "readability-lxml")
#: The column of ``auto`` given each page's type as predicted by the page-type model trained
#: on the other folds (``training/page_types.py``): the page-type model ships trained on
#: these pages, so ``auto``'s own column reads types it has seen (in-sample); this one reads
#: types as a crawl of unseen sites gets them, every figure of the table beside ``auto``'s
#: (``--held-out``; needs the ``train`` extra). The types are those the trainer's last run
#: kept (``training/.cache/held_out_types.json``) while what made them is unchanged; else
#: the folds run again, about 15 minutes on two cores (:func:`held_out_types`).
HELD_OUT = "auto, held-out types"


@dataclass(frozen=True, slots=True)
class Scored:
    """One extractor's output on one page, scored."""

    words: WordScore
    shingle_f1: float
    with_rate: float
    without_rate: float
    milliseconds: float


def snippet_rate(text: str, snippets: tuple[str, ...]) -> float:
    """The share of ``snippets`` found in ``text`` (case-insensitive, whitespace made one
    space); 1 with no snippets, as the benchmark counts it."""
    if not snippets:
        return 1.0
    haystack = normalize_whitespace(text).lower()
    return sum(normalize_whitespace(snippet).lower() in haystack for snippet in snippets) / len(snippets)


def score(page: WcxbPage, text: str, milliseconds: float) -> Scored:
    return Scored(
        score_words(word_tokens(page.gold), text),
        score_page(page.gold, text).f1,
        snippet_rate(text, page.wanted),
        snippet_rate(text, page.unwanted) if page.unwanted else 0.0,
        milliseconds,
    )


def _extractors(names: list[str], held_out: dict[str, str]) -> dict[str, object]:
    peers = available_peers()
    runs: dict[str, object] = {name: peers[name] for name in names if name in peers}
    runs.update({name: ours(name) for name in names if name not in peers and name != HELD_OUT})
    if HELD_OUT in names:
        runs[HELD_OUT] = held_out
    return runs


def _held_out_run(types: dict[str, str], page: WcxbPage, html: bytes) -> str:
    return extract(html, url=page.url or None, metadata=False, page_type=types[page.page_id]).text


def _run_chunk(
    task: tuple[list[str], list[WcxbPage], dict[str, str]],
) -> dict[str, dict[str, tuple[str, float]]]:
    """Texts and CPU ms of ``names`` on ``pages``, taking turns page by page."""
    names, pages, held_out = task
    runs = _extractors(names, held_out)
    outputs: dict[str, dict[str, tuple[str, float]]] = {name: {} for name in names}
    for page in pages:
        html = page.html()
        for name, run in runs.items():
            started = process_time()
            try:
                if isinstance(run, dict):  # the held-out page types
                    text = _held_out_run(run, page, html)
                else:
                    text = run(html, page.url)  # type: ignore[operator]
            except Exception as exc:  # a crash is a finding: report it as an empty page
                print(f"  {name} raised on {page.page_id}: {exc!r}", file=sys.stderr)
                text = ""
            outputs[name][page.page_id] = (text or "", (process_time() - started) * 1000)
    return outputs


def run_all(names: list[str], pages: list[WcxbPage], jobs: int) -> dict[str, dict[str, tuple[str, float]]]:
    """Every extractor's text and time on every page (``jobs`` processes)."""
    if not names:
        return {}
    held_out: dict[str, str] = {}
    if HELD_OUT in names:
        from training.page_types import held_out_types

        held_out = held_out_types(jobs=jobs)
    chunks = [pages[index::jobs] for index in range(jobs)]
    outputs: dict[str, dict[str, tuple[str, float]]] = {name: {} for name in names}
    if jobs == 1:
        results = [_run_chunk((names, pages, held_out))]
    else:
        with ProcessPoolExecutor(jobs) as pool:
            results = list(pool.map(_run_chunk, [(names, chunk, held_out) for chunk in chunks]))
    for result in results:
        for name, texts in result.items():
            outputs[name].update(texts)
    return outputs


def _mean(values: Iterator[float] | list[float]) -> float:
    values = list(values)
    return statistics.fmean(values) if values else 0.0


def table(scores: dict[str, dict[str, Scored]], pages: list[WcxbPage]) -> str:
    """Word F1 by page type (a column per extractor), then the misses, the usual metric,
    snippets and time."""
    names = list(scores)
    by_type = {kind: [page for page in pages if page.page_type == kind] for kind in PAGE_TYPES}
    lines = [
        "| dev split (pages) | " + " | ".join(names) + " |",
        "|---|" + "---:|" * len(names),
    ]

    def row(label: str, values: list[str]) -> None:
        lines.append(f"| {label} | " + " | ".join(values) + " |")

    def word_f1(name: str, subset: list[WcxbPage]) -> float:
        return _mean(scores[name][page.page_id].words.f1 for page in subset)

    row(f"all ({len(pages)})", [f"{word_f1(name, pages):.3f}" for name in names])
    for kind, subset in by_type.items():
        row(f"{kind} ({len(subset)})", [f"{word_f1(name, subset):.3f}" for name in names])
    f1s = {name: [scores[name][page.page_id].words.f1 for page in pages] for name in names}
    row(f"pages under F1 {LOST_F1}", [str(sum(f < LOST_F1 for f in f1s[name])) for name in names])
    row("pages at F1 0", [str(sum(f == 0 for f in f1s[name])) for name in names])
    row("word precision", [f"{_mean(s.words.precision for s in scores[n].values()):.3f}" for n in names])
    row("word recall", [f"{_mean(s.words.recall for s in scores[n].values()):.3f}" for n in names])
    row(
        "mean page F1, 4-gram shingles",
        [f"{_mean(s.shingle_f1 for s in scores[n].values()):.3f}" for n in names],
    )
    row("with snippets found", [f"{_mean(s.with_rate for s in scores[n].values()):.1%}" for n in names])
    row("without snippets found", [f"{_mean(s.without_rate for s in scores[n].values()):.1%}" for n in names])
    row("median / mean ms", [_times(scores[name]) for name in names])
    return "\n".join(lines)


def _times(scored: dict[str, Scored]) -> str:
    times = [entry.milliseconds for entry in scored.values()]
    return f"{statistics.median(times):.1f} / {statistics.fmean(times):.1f}" if times else ""


def worst(scores: dict[str, Scored], pages: list[WcxbPage], count: int) -> str:
    """The ``count`` lowest pages of each type: F1, precision, recall, id, URL."""
    lines = []
    for kind in PAGE_TYPES:
        subset = sorted(
            (page for page in pages if page.page_type == kind), key=lambda page: scores[page.page_id].words.f1
        )
        lines.append(f"{kind}:")
        for page in subset[:count]:
            words = scores[page.page_id].words
            lines.append(
                f"  {words.f1:.3f} {words.precision:.3f} {words.recall:.3f} {page.page_id} {page.url[:90]}"
            )
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--only", nargs="+", default=list(DEFAULT_ROWS), help="these extractors (ours or peers)"
    )
    parser.add_argument(
        "--jobs", type=int, default=1, help="processes (scores only: times are not comparable)"
    )
    parser.add_argument("--save", type=Path, help="save every extractor's texts and times here")
    parser.add_argument("--load", type=Path, help="texts saved by --save: extractors found there are not run")
    parser.add_argument("--held-out", action="store_true", help=f"add the row {HELD_OUT!r}")
    parser.add_argument("--list", metavar="EXTRACTOR", help="print this extractor's worst pages of each type")
    parser.add_argument("--worst", type=int, default=8, help="pages per type for --list")
    args = parser.parse_args()
    pages = load_pages()
    if args.held_out and HELD_OUT not in args.only:
        args.only.insert(1, HELD_OUT)
    saved: dict[str, dict[str, list[object]]] = json.loads(args.load.read_text()) if args.load else {}
    started = perf_counter()
    missing = [name for name in args.only if name not in saved]
    outputs = {
        name: {key: (str(v[0]), float(v[1])) for key, v in texts.items()} for name, texts in saved.items()
    }
    outputs.update(run_all(missing, pages, max(1, args.jobs)))
    print(f"ran {', '.join(missing) or 'nothing'} in {perf_counter() - started:.0f} s", file=sys.stderr)
    if args.save:
        args.save.write_text(
            json.dumps({name: {k: list(v) for k, v in t.items()} for name, t in outputs.items()})
        )
    scores = {
        name: {page.page_id: score(page, *outputs[name][page.page_id]) for page in pages}
        for name in args.only
    }
    print(table(scores, pages))
    if args.list:
        print(worst(scores[args.list], pages, args.worst))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
