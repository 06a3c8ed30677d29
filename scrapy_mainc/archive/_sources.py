"""The archives named on the command line, and the WARC streams of each.

A path is a file, a folder (its ``.warc``, ``.warc.gz`` and ``.wacz`` files at any depth)
or a glob pattern (``crawl/*.warc.gz``, ``**`` for any depth). A WACZ file is a zip whose
``archive/`` folder holds the WARC files of a crawl (Webrecorder's format): its WARC
members are read in order, as one input.
"""

from __future__ import annotations

import glob
import zipfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO

#: File names taken from a folder, and the only ones a pattern or a path may name.
ARCHIVE_SUFFIXES = (".warc", ".warc.gz", ".wacz")
#: The suffixes of the WARC members of a WACZ file.
WARC_SUFFIXES = (".warc", ".warc.gz")


class SourceError(Exception):
    """A path that names no archive: one line for the user."""


def is_archive(path: Path) -> bool:
    return path.name.lower().endswith(ARCHIVE_SUFFIXES)


def archive_files(arguments: list[str]) -> list[Path]:
    """The archives named by ``arguments``, in order, each once. A folder or a pattern that
    matches none, or a file of another kind, is a :class:`SourceError`."""
    found: dict[Path, None] = {}
    for argument in arguments:
        path = Path(argument)
        if path.is_dir():
            matches = sorted(child for child in path.rglob("*") if is_archive(child) and not child.is_dir())
            what = f"no {', '.join('*' + s for s in ARCHIVE_SUFFIXES)} files in {argument}"
        elif glob.has_magic(argument):
            names = glob.glob(argument, recursive=True)
            matches = sorted(Path(name) for name in names if is_archive(Path(name)))
            what = f"no archive matches {argument}"
        elif not path.exists():
            raise SourceError(f"{argument}: no such file or folder")
        elif not is_archive(path):
            suffixes = ", ".join(ARCHIVE_SUFFIXES)
            raise SourceError(f"{argument}: not a WARC or WACZ file (their names end in {suffixes})")
        else:  # a file that cannot be read is reported when it is read, and the others go on
            matches, what = [path], ""
        if not matches:
            raise SourceError(what)
        found.update(dict.fromkeys(matches))
    return list(found)


@contextmanager
def warc_streams(path: Path) -> Iterator[Iterator[tuple[str, IO[bytes]]]]:
    """``(name, stream)`` of each WARC stream of ``path``: the file itself, or the WARC
    members of a WACZ file. Opening errors (OSError, a bad zip) are raised."""
    if not path.name.lower().endswith(".wacz"):
        with path.open("rb") as stream:
            yield iter([(str(path), stream)])
        return
    with zipfile.ZipFile(path) as wacz:
        yield _members(path, wacz)


def _members(path: Path, wacz: zipfile.ZipFile) -> Iterator[tuple[str, IO[bytes]]]:
    names = sorted(
        name
        for name in wacz.namelist()
        if name.startswith("archive/") and name.lower().endswith(WARC_SUFFIXES)
    )
    if not names:
        raise SourceError(f"{path}: a WACZ file without WARC files in archive/")
    for name in names:
        with wacz.open(name) as member:
            yield f"{path}!{name}", member
