"""A small HTTP/1.1 server for the bundled news site, on loopback, with an optional delay.

    python example_project/newsdemo/server.py [--port 8000] [--delay 0.05] [--articles DIR]

Serves ``example_project/site``, or with ``--articles DIR`` a site made of the saved pages
in ``DIR`` (``*.html``): a front page linking to every one of them as a story.

Any path may start with ``/c<N>/`` (``/c17/en/index.html``) to get a copy of the site under
another URL, which is how the benchmark crawls the site repeated many times. The absolute
URLs of the sitemaps, feeds and robots.txt (``SITE_ORIGIN``) are served with the server's
own address. Pages go out as ``text/html`` with no charset, like many real servers, with a
``Date`` header (the time of the answer, or a fixed one given to :class:`SiteServer`).
``--delay`` holds every response that many seconds (the server stays concurrent: it is
asyncio, one task per connection).
"""

from __future__ import annotations

import argparse
import asyncio
import re
import threading
from collections.abc import Mapping
from email.utils import formatdate
from pathlib import Path
from urllib.parse import unquote, urlsplit

SITE = Path(__file__).resolve().parent.parent / "site"
_COPY_RE = re.compile(r"^/c\d+(/.*)$")
_TYPES = {".html": "text/html", ".css": "text/css", ".txt": "text/plain", ".xml": "application/xml"}
#: The address the site's sitemaps, feeds and robots.txt give (``site_src/listings.py``,
#: the server's default port); the server writes its own address there when it serves them.
SITE_ORIGIN = b"http://127.0.0.1:8000"
_WITH_ADDRESSES = (".xml", ".txt")
_REASONS = {200: "OK", 400: "Bad Request", 404: "Not Found"}

#: A page the server can answer with: its body and Content-Type.
Page = tuple[bytes, str]


def load_site(root: Path = SITE) -> dict[str, Page]:
    """Every file under ``root`` by URL path (``/en/index.html``); ``/`` is the front page."""
    pages = {
        "/" + path.relative_to(root).as_posix(): (path.read_bytes(), content_type(path))
        for path in sorted(root.rglob("*"))
        if path.is_file()
    }
    pages["/"] = pages["/index.html"]
    return pages


def articles_site(directory: Path) -> dict[str, Page]:
    """A site of the saved pages ``directory/*.html``: ``/index.html`` links to each one
    as a story (``/a/<file name>``), the way the bundled front page links to its stories."""
    files = sorted(directory.glob("*.html"))
    links = "".join(f'<li><a class="story-link" href="a/{path.name}">{path.stem}</a></li>' for path in files)
    front = f"<!DOCTYPE html><html><head><title>Saved pages</title></head><body><ul>{links}</ul>"
    pages: dict[str, Page] = {f"/a/{path.name}": (path.read_bytes(), "text/html") for path in files}
    pages["/index.html"] = pages["/"] = (front.encode(), "text/html; charset=utf-8")
    return pages


def content_type(path: Path) -> str:
    return _TYPES.get(path.suffix, "application/octet-stream")


class SiteServer:
    """Serve ``pages`` (path -> body, Content-Type) on 127.0.0.1, each after ``delay`` s,
    with ``date`` as every answer's ``Date`` header (default: the time of the answer)."""

    def __init__(
        self, pages: Mapping[str, Page] | None = None, delay: float = 0.0, date: str | None = None
    ) -> None:
        self.pages = dict(load_site() if pages is None else pages)
        self.delay = delay
        self.date = date
        self.port = 0
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._server: asyncio.Server | None = None
        self._connections: set[asyncio.StreamWriter] = set()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    async def serve(self, port: int = 0) -> asyncio.Server:
        """Start listening (on the running loop) and return the asyncio server."""
        self._server = await asyncio.start_server(self._handle, "127.0.0.1", port)
        self.port = self._server.sockets[0].getsockname()[1]
        return self._server

    def start_in_thread(self) -> SiteServer:
        """Run the server on its own event loop in a daemon thread; returns when listening."""
        ready = threading.Event()
        self._loop = asyncio.new_event_loop()

        def run() -> None:
            loop = self._loop
            assert loop is not None
            asyncio.set_event_loop(loop)
            loop.run_until_complete(self.serve())
            ready.set()
            try:
                loop.run_forever()
            finally:
                loop.run_until_complete(self._shut_down())
                loop.close()

        self._thread = threading.Thread(target=run, name="site-server", daemon=True)
        self._thread.start()
        ready.wait(10)
        return self

    def stop(self) -> None:
        """Stop a server started with :meth:`start_in_thread`."""
        if self._loop is not None and self._thread is not None:
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join(10)

    async def _shut_down(self) -> None:
        if self._server is not None:
            self._server.close()
        for writer in list(self._connections):
            writer.close()
        current = asyncio.current_task()
        pending = [task for task in asyncio.all_tasks() if task is not current]
        for task in pending:
            task.cancel()
        await asyncio.gather(*pending, return_exceptions=True)
        if self._server is not None:
            await self._server.wait_closed()

    async def before_answer(self, path: str, headers: Mapping[str, str]) -> None:
        """Called before each answer with the request's path and headers (names and values
        lower-cased): a subclass may record requests or hold an answer back. Does nothing."""

    def lookup(self, target: str) -> tuple[int, Page]:
        path = unquote(urlsplit(target).path)
        match = _COPY_RE.match(path)
        page = self.pages.get(path) or (self.pages.get(match.group(1)) if match else None)
        if page is None:
            return 404, (b"<html><body><h1>Not found</h1></body></html>", "text/html")
        if path.endswith(_WITH_ADDRESSES) and self.port:
            return 200, (page[0].replace(SITE_ORIGIN, self.url.encode()), page[1])
        return 200, page

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self._connections.add(writer)
        try:
            while await self._answer(reader, writer):
                pass
        except (ConnectionError, asyncio.IncompleteReadError, ValueError):
            pass
        finally:
            self._connections.discard(writer)
            writer.close()

    async def _answer(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> bool:
        """Answer one request; False when the connection should close."""
        request_line = await reader.readline()
        if not request_line.strip():
            return False
        method, target, version = request_line.decode("latin-1").split()
        headers = {}
        while (line := await reader.readline()) not in (b"\r\n", b"\n", b""):
            name, _, value = line.decode("latin-1").partition(":")
            headers[name.strip().lower()] = value.strip().lower()
        await self.before_answer(unquote(urlsplit(target).path), headers)
        status, (body, content_type) = self.lookup(target)
        keep_alive = version == "HTTP/1.1" and headers.get("connection") != "close"
        if self.delay:
            await asyncio.sleep(self.delay)
        head = (
            f"HTTP/1.1 {status} {_REASONS.get(status, 'OK')}\r\n"
            f"Date: {self.date or formatdate(usegmt=True)}\r\n"
            f"Content-Type: {content_type}\r\nContent-Length: {len(body)}\r\n"
            f"Connection: {'keep-alive' if keep_alive else 'close'}\r\n\r\n"
        )
        writer.write(head.encode("latin-1") + (b"" if method == "HEAD" else body))
        await writer.drain()
        return keep_alive


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--port", type=int, default=8000, help="0 picks a free port")
    parser.add_argument("--delay", type=float, default=0.0, help="seconds before each response")
    parser.add_argument("--articles", type=Path, help="serve the saved pages DIR/*.html instead")
    args = parser.parse_args()
    pages = articles_site(args.articles) if args.articles else None
    server = SiteServer(pages, delay=args.delay)

    async def run() -> None:
        listening = await server.serve(args.port)
        served = args.articles or SITE
        print(f"serving {served} at {server.url}/ (delay {args.delay:g} s)", flush=True)
        async with listening:
            await listening.serve_forever()

    try:
        asyncio.run(run())
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
