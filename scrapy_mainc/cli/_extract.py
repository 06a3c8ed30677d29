"""``mainc extract``: the main content of pages, one or many.

One page (a file, ``-`` for standard input, or an http(s) URL, fetched) prints its
content in ``--format``. Several pages, or a directory (its ``*.html`` and ``*.htm``
files at any depth), print JSON Lines, one record per page with its ``source``; with
``--output-dir`` each page's output goes into a file of its own instead, named after the
page (a directory's layout is kept); a page without text gets no file, and standard error
says why, one line a page (the exit status stays 0). A page that cannot be read is
reported in one line and the others are extracted (exit status 1).

The text format starts with ``Published:`` and ``Authors:`` lines, then an empty line,
when the page gives them; the JSON is the whole :class:`~scrapy_mainc.Extraction` with its
``metadata`` object (``published``, ``authors``, ``site_name``...; ``""`` or ``[]`` for what
the page does not say). ``--no-metadata`` skips the metadata stage: plain text only, and
no ``metadata`` object in the JSON.

``--min-quality Q`` leaves out the pages whose quality estimate (``Extraction.quality``) is
under ``Q``: nothing is printed or written for them, and standard error says so, one line
a page (the exit status stays 0).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from pathlib import Path
from typing import Any

from .._extract import extract
from ..algorithms import ALGORITHMS
from ..algorithms._auto_params import FAVOR_PRESETS
from ..core._limits import MAX_PAGE_BYTES, too_large_reason
from ..core._types import Extraction, Metadata
from ._errors import CommandError
from ._inputs import InputError, Source, sources
from ._options import add_min_quality
from ._values import whole_number

#: Output formats and the suffix of their files in an output directory.
FORMATS = {"text": ".txt", "html": ".html", "markdown": ".md", "json": ".json"}
#: The output switches: ``--no-tables`` and so on (``extract(tables=False)``...).
SWITCHES = ("tables", "links", "images", "formatting")


def add_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    command = commands.add_parser(
        "extract",
        help="extract the main content of pages",
        description="Extract the main content of one page, or of many (JSON Lines on standard "
        "output, or one file per page with --output-dir).",
    )
    command.add_argument(
        "inputs",
        nargs="+",
        metavar="PAGE",
        help="an HTML file, a directory of them (*.html, *.htm), an http(s) URL (fetched), or - "
        "for standard input",
    )
    command.add_argument("--algorithm", default="auto", choices=sorted(ALGORITHMS))
    command.add_argument("--url", default=None, help="the page's URL, if known (one page only)")
    command.add_argument("--format", default="text", choices=tuple(FORMATS))
    command.add_argument(
        "--output-dir",
        type=Path,
        default=None,
        help="write each page's output to a file of its own in this directory",
    )
    command.add_argument(
        "--no-metadata",
        dest="metadata",
        action="store_false",
        help="skip the metadata stage (publication date, authors...): no Published/Authors "
        "lines before the text, no metadata object in the JSON",
    )
    for switch in SWITCHES:
        what = (
            "data tables (left out of every output)"
            if switch == "tables"
            else f"{switch} in the HTML and Markdown"
        )
        command.add_argument(f"--no-{switch}", dest=switch, action="store_false", help=f"leave out {what}")
    command.add_argument("--favor", choices=tuple(FAVOR_PRESETS), default="balanced", help="how auto leans")
    add_min_quality(command, "leave out pages")
    command.add_argument(
        "--max-bytes",
        type=whole_number(1, "not a positive integer: {!r}"),
        default=MAX_PAGE_BYTES,
        metavar="N",
        help=f"refuse a page of more than N bytes, as a crawl's MAINC_MAX_PAGE_SIZE does (default "
        f"{MAX_PAGE_BYTES:,}: peak memory grows with the page)",
    )
    command.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    try:
        found = sources(args.inputs)
    except InputError as exc:
        raise CommandError(str(exc)) from None
    single = len(args.inputs) == 1 and len(found) == 1 and found[0].location == args.inputs[0]
    if args.url and not single:
        raise CommandError("--url names the URL of one page: give one page")
    if single and args.output_dir is None:
        return _print_one(found[0], args)
    return _extract_many(found, args)


def _print_one(source: Source, args: argparse.Namespace) -> int:
    try:
        result = _extract(source, args)
    except InputError as exc:
        raise CommandError(str(exc)) from None
    if _left_out(result, args.min_quality, ""):
        return 0
    output = render(result, args.format, args.metadata)
    if output:
        sys.stdout.write(output + "\n")
    if result.reason:
        print(f"mainc: {result.reason}", file=sys.stderr)
    return 0


def _extract_many(found: list[Source], args: argparse.Namespace) -> int:
    """Every page in turn; a page that cannot be read is said and skipped (status 1)."""
    targets = _targets(found, args.output_dir, FORMATS[args.format])
    failed = False
    for source, target in zip(found, targets):
        try:
            result = _extract(source, args)
        except InputError as exc:
            print(f"mainc extract: error: {exc}", file=sys.stderr)
            failed = True
            continue
        if _left_out(result, args.min_quality, f"{source.location}: "):
            continue
        if target is None:
            record = {"source": source.location, **_record(result, args.metadata)}
            sys.stdout.write(json.dumps(record, ensure_ascii=False) + "\n")
            continue
        if not result.text:  # no empty file: the reason, on standard error
            print(f"mainc: {source.location}: {result.reason}: no file written", file=sys.stderr)
            continue
        _write(target, render(result, args.format, args.metadata))
    return 1 if failed else 0


def _write(target: Path, output: str) -> None:
    """Write ``output`` to ``target``, making its folder; CommandError when it cannot."""
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(output + "\n", encoding="utf-8")
    except OSError as exc:
        raise CommandError(f"cannot write {exc.filename}: {exc.strerror}") from exc


def _left_out(result: Extraction, min_quality: float | None, where: str) -> bool:
    """Whether ``result`` is under ``--min-quality`` (said on standard error); a page refused
    before it was parsed (not HTML, empty, too large: its reason says) is not judged."""
    if min_quality is None or result.quality >= min_quality or not result.parsed:
        return False
    print(
        f"mainc: {where}quality {result.quality:.3f} under --min-quality {min_quality:g}: left out",
        file=sys.stderr,
    )
    return True


def _targets(found: list[Source], output_dir: Path | None, suffix: str) -> list[Path | None]:
    """The output file of each page (None: standard output); two pages may not share one."""
    if output_dir is None:
        return [None] * len(found)
    targets: list[Path | None] = []
    taken: dict[Path, str] = {}
    for source in found:
        target = output_dir / (source.name + suffix)
        other = taken.setdefault(target, source.location)
        if other != source.location:
            raise CommandError(f"{other} and {source.location} would both be written to {target}")
        targets.append(target)
    return targets


def _extract(source: Source, args: argparse.Namespace) -> Extraction:
    page, fetched_from = source.read()
    if len(page) > args.max_bytes:  # refused here, so that the reason names the option
        reason = too_large_reason(page, args.max_bytes, "--max-bytes")
        return Extraction(algorithm=args.algorithm, reason=reason)
    switches = {switch: getattr(args, switch) for switch in SWITCHES}
    return extract(
        page,
        max_bytes=None,
        url=args.url or fetched_from,
        algorithm=args.algorithm,
        metadata=args.metadata,
        markdown=args.format in ("markdown", "json"),
        favor=args.favor,
        **switches,
    )


def render(result: Extraction, output_format: str, metadata: bool) -> str:
    """``result`` in ``output_format`` (see the module docstring)."""
    if output_format == "json":
        return json.dumps(_record(result, metadata), ensure_ascii=False, indent=2)
    if output_format == "html":
        return result.html
    if output_format == "markdown":
        return result.markdown
    return "\n".join(text_lines(result.metadata, result.text))


def _record(result: Extraction, metadata: bool) -> dict[str, Any]:
    record = dataclasses.asdict(result)
    if metadata:
        record["metadata"] = result.metadata.as_dict()
    else:
        del record["metadata"]  # not looked for: an empty record would say "none found"
    return record


def text_lines(metadata: Metadata, text: str) -> list[str]:
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
