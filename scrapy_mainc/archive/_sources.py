"""The archives named on the command line, and the WARC streams of each.

A path is a file, a folder (its ``.warc``, ``.warc.gz``, ``.wacz``, ``.arc`` and ``.arc.gz``
files at any depth) or a glob pattern (``crawl/*.warc.gz``, ``**`` for any depth). An ARC
file (the format before WARC) is read as WARC records. A WACZ file is a zip whose
``archive/`` folder holds the WARC files of a crawl (Webrecorder's format): its WARC
members are read in order, as one input. The reader seeks back and forth in a stream (to
check where each record ended), which a zip member's own stream does by reading the member
again from its start: a stored member (WACZ stores its WARC files) is read as the window
of the zip file it occupies, and a compressed one from a temporary copy.
"""

from __future__ import annotations

import glob
import io
import shutil
import struct
import tempfile
import zipfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

#: File names taken from a folder, and the only ones a pattern or a path may name (ARC, the
#: format before WARC, is read as warcio reads it: as WARC records).
ARCHIVE_SUFFIXES = (".warc", ".warc.gz", ".wacz", ".arc", ".arc.gz")
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
            raise SourceError(f"{argument}: not a WARC, WACZ or ARC file (their names end in {suffixes})")
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
        with _seekable_member(path, wacz, wacz.getinfo(name)) as member:
            yield f"{path}!{name}", member


#: A zip entry's local header (its fixed part; the last two fields: the lengths of the name
#: and the extra field that follow it, then the entry's data).
_LOCAL_HEADER = struct.Struct("<4s5H3L2H")


@contextmanager
def _seekable_member(path: Path, wacz: zipfile.ZipFile, info: zipfile.ZipInfo) -> Iterator[IO[bytes]]:
    """The member ``info`` as a stream whose seeks cost nothing."""
    if info.compress_type != zipfile.ZIP_STORED:
        with wacz.open(info) as member, tempfile.TemporaryFile() as copy:
            shutil.copyfileobj(member, copy, 1 << 20)
            copy.seek(0)
            yield copy
        return
    with path.open("rb") as raw:
        raw.seek(info.header_offset)
        *_, name_length, extra_length = _LOCAL_HEADER.unpack(raw.read(_LOCAL_HEADER.size))
        start = info.header_offset + _LOCAL_HEADER.size + name_length + extra_length
        with io.BufferedReader(_Window(raw, start, info.file_size)) as window:
            yield window


class _Window(io.RawIOBase):
    """``length`` bytes of ``raw`` from ``start``, as a stream of their own."""

    def __init__(self, raw: IO[bytes], start: int, length: int) -> None:
        super().__init__()
        self._raw, self._start, self._length, self._position = raw, start, length, 0

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        wanted = min(len(buffer), self._length - self._position)
        if wanted <= 0:
            return 0
        self._raw.seek(self._start + self._position)
        data = self._raw.read(wanted)
        buffer[: len(data)] = data
        self._position += len(data)
        return len(data)

    def seek(self, offset: int, whence: int = io.SEEK_SET) -> int:
        base = {io.SEEK_SET: 0, io.SEEK_CUR: self._position, io.SEEK_END: self._length}[whence]
        self._position = max(0, base + offset)
        return self._position

    def tell(self) -> int:
        return self._position
