"""Command line: ``mainc extract`` and ``mainc evaluate`` (also ``python -m scrapy_mainc``).

``mainc extract`` prints the page's metadata with its content: ``--format json`` gives the
whole :class:`~scrapy_mainc.Extraction` with its ``metadata`` object (``published``,
``authors``, ``site_name``...; ``""`` or ``[]`` for what the page does not say), and
``--format text`` starts with ``Published:`` and ``Authors:`` lines, then an empty line,
when the page gives them. ``--no-metadata`` skips the metadata stage: plain text only, and
no ``metadata`` object in the JSON.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from ._extract import extract
from .algorithms import ALGORITHMS
from .evaluation._evaluate import Report, evaluate, format_report, load_dataset
from .metadata import Metadata

#: What ``mainc evaluate --help`` says a dataset is (the CLI page of the docs repeats it).
DATASET_LAYOUT = """\
a dataset is any directory holding:
  html/<id>.html   one page per file, as fetched (bytes; the charset is detected)
  gold.json        {"<id>": {"articleBody": "the expected text", "url": "https://..."}, ...}
              or   {"<id>": {"with": ["in the text", ...], "without": ["not in it", ...]}, ...}
Every id of gold.json with an html/<id>.html file is a page; "url" is optional (the
page's address: relative links are resolved against it and auto reads its slug).
HTML files without an entry in gold.json, and entries without a file, are left out.
Text gold is scored by 4-gram shingles; snippet gold (every entry "with"/"without", no
mixing) as trafilatura's evaluation scores it: a snippet is found when it is part of the
text once whitespace runs are made one space; each "with" found is a true positive,
missing a false negative, each "without" found a false positive; precision, recall and
F1 pool the snippets of all pages. "lost" counts the pages whose own F1 is under 0.5."""


class CommandError(Exception):
    """A file that cannot be read or written: one line, exit status 2 (like argparse)."""


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    parser = _parser()
    args = parser.parse_args(argv)
    try:
        return int(args.run(args))
    except CommandError as exc:
        print(f"mainc {args.command}: error: {exc}", file=sys.stderr)
        return 2


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="mainc", description="Main-content extraction.")
    commands = parser.add_subparsers(dest="command", required=True)
    names = sorted(ALGORITHMS)

    extract_command = commands.add_parser("extract", help="extract the main content of a page")
    extract_command.add_argument("path", help="an HTML file, or - for standard input")
    extract_command.add_argument("--algorithm", default="auto", choices=names)
    extract_command.add_argument("--url", default=None, help="the page's URL, if known")
    extract_command.add_argument("--format", default="text", choices=("text", "html", "json"))
    extract_command.add_argument(
        "--no-metadata",
        dest="metadata",
        action="store_false",
        help="skip the metadata stage (publication date, authors...): no Published/Authors "
        "lines before the text, no metadata object in the JSON",
    )
    extract_command.set_defaults(run=_run_extract)

    evaluate_command = commands.add_parser(
        "evaluate",
        help="score algorithms on a dataset",
        description="Score algorithms on a dataset of pages with gold: precision, recall and F1\n"
        "(of 4-gram shingles averaged over pages, or of with/without snippets), the mean of\n"
        "the pages' own F1, the pages lost (own F1 under 0.5), and milliseconds per page.",
        epilog=DATASET_LAYOUT,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    evaluate_command.add_argument("dataset", help="a dataset directory (layout below)")
    evaluate_command.add_argument("--algorithm", default="auto", choices=[*names, "all"])
    evaluate_command.add_argument("--json", dest="json_out", default=None, help="write results here")
    evaluate_command.add_argument("--worst", type=int, default=10, help="worst pages to list")
    evaluate_command.set_defaults(run=_run_evaluate)
    return parser


def _cannot_read(exc: OSError) -> CommandError:
    return CommandError(f"cannot read {exc.filename}: {exc.strerror}")


def _run_extract(args: argparse.Namespace) -> int:
    try:
        data = sys.stdin.buffer.read() if args.path == "-" else Path(args.path).read_bytes()
    except OSError as exc:
        raise _cannot_read(exc) from exc
    result = extract(data, url=args.url, algorithm=args.algorithm, metadata=args.metadata)
    if args.format == "json":
        record = dataclasses.asdict(result)
        if args.metadata:
            record["metadata"] = result.metadata.as_dict()
        else:
            del record["metadata"]  # not looked for: an empty record would say "none found"
        output = json.dumps(record, ensure_ascii=False, indent=2)
    elif args.format == "html":
        output = result.html
    else:
        output = "\n".join(_text_lines(result.metadata, result.text))
    if output:
        sys.stdout.write(output + "\n")
    if result.reason:
        print(f"mainc: {result.reason}", file=sys.stderr)
    return 0


def _text_lines(metadata: Metadata, text: str) -> list[str]:
    """``Published:`` and ``Authors:`` lines for what the page gives, then an empty line
    and ``text`` (if any)."""
    lines = []
    if metadata.published:
        lines.append(f"Published: {metadata.published}")
    if metadata.authors:
        lines.append(f"Authors: {', '.join(metadata.authors)}")
    if text:
        lines.extend(["", text] if lines else [text])
    return lines


def _run_evaluate(args: argparse.Namespace) -> int:
    try:
        pages = load_dataset(args.dataset)
    except OSError as exc:
        raise _cannot_read(exc) from exc
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


def _extractor(name: str):  # type: ignore[no-untyped-def]
    def run(html: bytes, url: str) -> str:
        return extract(html, url=url or None, algorithm=name).text

    return run


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
