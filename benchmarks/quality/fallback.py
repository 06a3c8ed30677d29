"""``MAINC_FALLBACK`` on the development sets: what a fallback extractor does to the pages
whose quality estimate is under ``MAINC_FALLBACK_BELOW``, at a few thresholds.

    python3 scripts/dev.py quality-model --cache ../qcache     # first: the held-out types and features
    .venv/bin/python -m benchmarks.quality.fallback --cache ../qcache
    .venv/bin/python -m benchmarks.quality.fallback --cache ../qcache --fallback trafilatura.extract \\
        --below 0.3 0.5 0.7

Every development page is taken as on a site never seen, as ``training/quality.py``
measures the estimate: ``auto``'s text extracted with the page type of a page-type model
trained on the other folds (folds grouped by registered domain), and its quality estimate
from a model trained on the other folds (the first draw, seed 20261201). The fallback
(``trafilatura.extract`` by default: the ``peers`` extra) runs as the crawl runs it
(:mod:`scrapy_mainc.items._fallback`: the page decoded by our decoder, its text
replacing ``auto``'s only when it returns some) on every page estimated under the highest
threshold; its texts are kept in ``--cache`` (``fallback_<path>.json``).

For each threshold and set: the pages under it (the fallback runs), those whose text it
replaced (and of those, how many it scores above and below ``auto``'s), and the set's mean
page F1 and lost pages (F1 under 0.5) without and with the
fallback, each page scored by its own set's metric. The fallback's time is not measured
here (see ``benchmarks/speed``).
"""

from __future__ import annotations

import argparse
import json
import statistics
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from scrapy_mainc.core._decode import decode_html
from scrapy_mainc.evaluation._evaluate import LOST_F1
from scrapy_mainc.items._fallback import cached_fallback, call_fallback
from training import held_out, quality

#: The fallback each worker process calls (set by :func:`_start`).
_PATH = [""]


def _start(path: str) -> None:
    _PATH[0] = path


def _fallback_text(page: held_out.Page) -> tuple[str, str]:
    """The fallback's text of ``page`` ("" for none) and its error ("" for none)."""
    result = call_fallback(cached_fallback(_PATH[0]), decode_html(page.html()).text, page.url)
    return result.text, result.error


def fallback_texts(
    pages: list[held_out.Page], path: str, cache: Path, jobs: int
) -> dict[str, tuple[str, str]]:
    """The fallback's text and error of each of ``pages``, by key, cached."""
    stored = cache / f"fallback_{path.replace(':', '.')}.json"
    known: dict[str, list[str]] = json.loads(stored.read_text(encoding="utf-8")) if stored.exists() else {}
    missing = [page for page in pages if page.key not in known]
    if missing:
        with ProcessPoolExecutor(jobs, initializer=_start, initargs=(path,)) as pool:
            for page, answer in zip(missing, pool.map(_fallback_text, missing, chunksize=4)):
                known[page.key] = list(answer)
        stored.write_text(json.dumps(known), encoding="utf-8")
    return {page.key: (known[page.key][0], known[page.key][1]) for page in pages}


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--cache", type=Path, required=True, help="training/quality.py's cache directory")
    parser.add_argument("--fallback", default="trafilatura.extract", help="the callable's dotted path")
    parser.add_argument("--below", type=float, nargs="+", default=[0.3, 0.5, 0.7], help="thresholds")
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    cached_fallback(args.fallback)  # a bad path: its ValueError now, not in a worker
    pages = held_out.development_pages()
    types = held_out.held_out_types(held_out.fold_of([page.site for page in pages]), args.cache, args.jobs)
    table = quality.collect(pages, types, args.cache, args.jobs)
    estimate = quality.cross_validated(table, held_out.SEED)
    doubtful = [page for page, value in zip(pages, estimate) if value < max(args.below)]
    answers = fallback_texts(doubtful, args.fallback, args.cache, args.jobs)
    fallback_f1 = {page.key: held_out.page_f1(page, answers[page.key][0]) for page in doubtful}
    failed = sum(bool(error) for _, error in answers.values())
    print(f"fallback {args.fallback}: {len(doubtful)} pages run, {failed} raised\n")
    print(
        "| threshold | set | pages | under it | replaced | up / down | mean F1 | with the fallback "
        "| lost | with the fallback |"
    )
    print("|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for below in sorted(args.below):
        for name in (*held_out.SETS, "all"):
            chosen = [index for index, page in enumerate(pages) if name in ("all", page.source)]
            before, after, under, replaced, up, down = [], [], 0, 0, 0, 0
            for index in chosen:
                page, f1 = pages[index], table.f1[index]
                before.append(f1)
                if estimate[index] < below:
                    under += 1
                    if answers[page.key][0]:
                        replaced += 1
                        up += fallback_f1[page.key] > f1
                        down += fallback_f1[page.key] < f1
                        f1 = fallback_f1[page.key]
                after.append(f1)
            lost_before = sum(value < LOST_F1 for value in before)
            lost_after = sum(value < LOST_F1 for value in after)
            means = f"{statistics.fmean(before):.4f} | {statistics.fmean(after):.4f}"
            print(
                f"| {below:g} | {name} | {len(chosen):,} | {under} | {replaced} | {up} / {down} | "
                f"{means} | {lost_before} | {lost_after} |"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
