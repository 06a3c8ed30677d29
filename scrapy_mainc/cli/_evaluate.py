"""``mainc evaluate``: score algorithms on a dataset of pages with gold."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from .._extract import extract
from ..algorithms import ALGORITHMS
from ..evaluation._evaluate import Estimated, Extractor, Report, evaluate, format_report, load_dataset
from ._errors import CommandError, cannot_read
from ._values import whole_number

#: What ``mainc evaluate --help`` says a dataset is (the CLI page of the docs repeats it).
DATASET_LAYOUT = """\
a dataset is any directory holding:
  html/<id>.html   one page per file, as fetched (bytes; the charset is detected)
  gold.json        {"<id>": {"articleBody": "the expected text", "url": "https://..."}, ...}
              or   {"<id>": {"with": ["in the text", ...], "without": ["not in it", ...]}, ...}
Every id of gold.json with an html/<id>.html file is a page; "url" is optional (the
page's address: relative links are resolved against it, and auto reads its slug and its
shape to decide the page's type, so a page scored without it may be typed, and extracted,
otherwise than in a crawl).
HTML files without an entry in gold.json, and entries without a file, are left out.
Text gold is scored by 4-gram shingles; snippet gold (every entry "with"/"without", no
mixing) as trafilatura's evaluation scores it: a snippet is found when it is part of the
text once whitespace runs are made one space; each "with" found is a true positive,
missing a false negative, each "without" found a false positive; precision, recall and
F1 pool the snippets of all pages. "lost" counts the pages whose own F1 is under 0.5."""


def add_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    names = sorted(ALGORITHMS)
    command = commands.add_parser(
        "evaluate",
        help="score algorithms on a dataset",
        description="Score algorithms on a dataset of pages with gold: precision, recall and F1\n"
        "(of 4-gram shingles averaged over pages, or of with/without snippets), the mean of\n"
        "the pages' own F1, the pages lost (own F1 under 0.5), milliseconds per page, and how\n"
        "well the quality estimate finds the lost pages (ROC AUC) and orders the pages by\n"
        "their F1 (Spearman rank correlation).",
        epilog=DATASET_LAYOUT,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    command.add_argument("dataset", help="a dataset directory (layout below)")
    command.add_argument("--algorithm", default="auto", choices=[*names, "all"])
    command.add_argument("--json", dest="json_out", default=None, help="write results here")
    command.add_argument(
        "--worst",
        type=whole_number(0, "not 0 (none) or a positive integer: {!r}"),
        default=10,
        metavar="N",
        help="worst pages to list (10)",
    )
    command.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    try:
        pages = load_dataset(args.dataset)
    except OSError as exc:
        raise cannot_read(exc) from exc
    except ValueError as exc:
        raise CommandError(str(exc)) from exc
    names = sorted(ALGORITHMS) if args.algorithm == "all" else [args.algorithm]
    reports: list[Report] = []
    for name in names:
        report = evaluate(name, _extractor(name), pages)
        reports.append(report)
        print(format_report(report, args.worst), flush=True)
    if args.json_out:
        try:
            Path(args.json_out).write_text(
                json.dumps([report.to_json() for report in reports], indent=1), encoding="utf-8"
            )
        except OSError as exc:
            raise CommandError(f"cannot write {exc.filename}: {exc.strerror}") from exc
    return 1 if any(report.errors for report in reports) else 0


def _extractor(name: str) -> Extractor:
    def run(html: bytes, url: str) -> Estimated:
        extraction = extract(html, url=url or None, algorithm=name)
        return Estimated(extraction.text, extraction.quality)

    return run
