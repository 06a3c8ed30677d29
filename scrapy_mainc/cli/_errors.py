"""The one-line errors of the command line."""

from __future__ import annotations


class CommandError(Exception):
    """A file that cannot be read or written: one line, exit status 2 (like argparse)."""


def cannot_read(exc: OSError) -> CommandError:
    return CommandError(f"cannot read {exc.filename}: {exc.strerror}")
