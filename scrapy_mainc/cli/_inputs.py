"""What ``mainc extract`` reads: a file, standard input, an http(s) URL, a directory of
pages, or several of these; each becomes a :class:`Source` read on demand."""

from __future__ import annotations

import sys
from dataclasses import dataclass
from http import HTTPStatus
from pathlib import Path
from urllib.error import HTTPError, URLError
from urllib.parse import unquote, urlsplit
from urllib.request import Request, urlopen

from ..core._limits import MAX_PAGE_BYTES

#: File names taken from a directory (case-insensitive suffixes).
PAGE_SUFFIXES = (".html", ".htm")
#: Seconds a fetch of one page may take (connecting and reading).
FETCH_TIMEOUT = 30.0
#: The User-Agent of ``mainc extract URL``.
USER_AGENT = "scrapy-mainc (mainc extract; +https://docs.scrapy.org)"


class InputError(Exception):
    """An input that cannot be read or fetched: one line for the user."""


@dataclass(frozen=True, slots=True)
class Source:
    """One page to extract: a path, ``-`` (standard input) or a URL; ``name`` is where its
    output goes in an output directory (its path below the directory given, for pages
    found in one)."""

    location: str
    name: str

    @property
    def is_url(self) -> bool:
        return is_url(self.location)

    def read(self) -> tuple[bytes, str | None]:
        """The page's bytes and the URL it came from (None for files and standard input)."""
        if self.location == "-":
            return sys.stdin.buffer.read(), None
        if self.is_url:
            return fetch(self.location)
        try:
            return Path(self.location).read_bytes(), None
        except OSError as exc:
            raise InputError(f"cannot read {exc.filename}: {exc.strerror}") from exc


def is_url(argument: str) -> bool:
    """True for anything with a URL scheme (``http://``, ``ftp://``...), which is no path."""
    scheme = urlsplit(argument).scheme
    return len(scheme) > 1 and "://" in argument


def sources(arguments: list[str]) -> list[Source]:
    """The pages named by ``arguments``: directories expand to their ``*.html`` and
    ``*.htm`` files, at any depth, in sorted order."""
    found = []
    for argument in arguments:
        path = Path(argument)
        if argument == "-" or is_url(argument) or not path.is_dir():
            found.append(Source(argument, _output_stem(argument)))
            continue
        pages = sorted(
            page for page in path.rglob("*") if page.suffix.lower() in PAGE_SUFFIXES and page.is_file()
        )
        if not pages:
            raise InputError(f"no HTML files ({', '.join('*' + s for s in PAGE_SUFFIXES)}) in {argument}")
        found.extend(Source(str(page), str(page.relative_to(path).with_suffix(""))) for page in pages)
    return found


def _output_stem(argument: str) -> str:
    if argument == "-":
        return "stdin"
    if is_url(argument):
        parts = urlsplit(argument)
        last = unquote(parts.path.rstrip("/").rpartition("/")[2]) or parts.hostname or "page"
        return Path(last).stem or "page"
    return Path(argument).stem


def fetch(url: str) -> tuple[bytes, str]:
    """The body of ``url`` (http or https, redirects followed) and the final URL."""
    if urlsplit(url).scheme.lower() not in ("http", "https"):
        raise InputError(
            f"cannot fetch {url}: only http and https URLs are fetched (mainc crawl fetches many pages)"
        )
    request = Request(url, headers={"User-Agent": USER_AGENT})
    try:
        with urlopen(request, timeout=FETCH_TIMEOUT) as response:  # noqa: S310 - the scheme is checked
            body = response.read(MAX_PAGE_BYTES + 1)
            return body, response.geturl()
    except HTTPError as exc:
        raise InputError(f"cannot fetch {url}: HTTP {exc.code} {_phrase(exc.code)}") from None
    except (URLError, OSError, ValueError) as exc:
        reason = exc.reason if isinstance(exc, URLError) else exc
        raise InputError(f"cannot fetch {url}: {reason}") from None


def _phrase(status: int) -> str:
    try:
        return HTTPStatus(status).phrase
    except ValueError:
        return ""
