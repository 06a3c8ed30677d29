"""Command line: ``mainc extract``, ``mainc crawl``, ``mainc warc`` and ``mainc evaluate``
(also ``python -m scrapy_mainc``).

Each command has a module of its own: ``_extract`` (pages, one or many, from files, URLs
or standard input; ``_inputs`` reads them), ``_crawl`` (a Scrapy crawl with the add-on:
its body, the spider and the run, is ``_crawl_job``, imported only when crawling, so
that ``mainc extract`` never imports Scrapy), ``_warc`` (the archive mode:
:mod:`scrapy_mainc.archive`) and ``_evaluate``; ``_options`` holds the options ``crawl``
and ``warc`` share.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from importlib.metadata import PackageNotFoundError, version

from . import _crawl, _evaluate, _extract, _warc
from ._errors import CommandError
from ._evaluate import DATASET_LAYOUT

__all__ = ["DATASET_LAYOUT", "CommandError", "main"]

#: The distribution whose version ``mainc --version`` prints.
DISTRIBUTION = "scrapy-mainc"
#: The exit status when the reader of standard output has gone (``mainc extract ... | head``):
#: 128 + SIGPIPE, what a shell reports for a Unix tool (``cat``) that SIGPIPE stopped there.
CLOSED_OUTPUT_STATUS = 141


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    parser = _parser()
    args = parser.parse_args(argv)
    try:
        status = int(args.run(args))
        sys.stdout.flush()  # here, not at exit, so that a reader gone is caught below
    except CommandError as exc:
        print(f"mainc {args.command}: error: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        return _output_closed()
    return status


def _output_closed() -> int:
    """Stop quietly, as Unix tools do, when the reader of standard output has gone: what is
    still buffered goes to the null device (flushed at exit, it would raise again)."""
    os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return CLOSED_OUTPUT_STATUS


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="mainc", description="Main-content extraction.")
    parser.add_argument("--version", action="version", version=f"mainc {_version()}")
    commands = parser.add_subparsers(dest="command", required=True)
    _extract.add_parser(commands)
    _crawl.add_parser(commands)
    _warc.add_parser(commands)
    _evaluate.add_parser(commands)
    return parser


def _version() -> str:
    """The installed package's version (its metadata, written from ``__version__``)."""
    try:
        return version(DISTRIBUTION)
    except PackageNotFoundError:  # pragma: no cover - run from a source tree never installed
        return "(not installed)"


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
