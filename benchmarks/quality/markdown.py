"""Markdown of the main content: our renderer against the converters of the HTML fragment.

    .venv/bin/python -m benchmarks.quality.markdown [--datasets DIR ...]   (needs the peers extra and
    the Markdown converters: pip install markdownify html2text html-to-markdown markdown-it-py)

For every page of the development sets, ``extract(markdown=True)`` renders the Markdown
over the statistics (``scrapy_mainc.core._markdown``); the converters (markdownify,
html2text, html-to-markdown) convert ``Extraction.html``, the same content. Each output is
read back by a CommonMark reader (markdown-it-py with GFM tables, ``tests/markdown_reader``)
and compared with ``main_text``: pages whose words are exactly those of ``main_text``, in
order; words lost and added over all pages (multisets, image descriptions left out); pages
where the reader finds raw HTML. Time is CPU time of the conversion alone per page (ours:
the ``render_markdown`` call), the fastest of ``--repeat`` passes.
"""

from __future__ import annotations

import argparse
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from statistics import mean, median
from time import process_time

import scrapy_mainc._extract as extract_module
from benchmarks.devsets import DEFAULT_DATASETS, load_sets
from scrapy_mainc import extract
from tests.markdown_reader import read


def converters() -> dict[str, Callable[[str], str]]:
    """The HTML-to-Markdown converters that are installed, by name."""
    found: dict[str, Callable[[str], str]] = {}
    try:
        from markdownify import markdownify

        found["markdownify"] = lambda html: markdownify(html, heading_style="ATX")
    except ImportError:
        pass
    try:
        import html2text

        def run_html2text(html: str) -> str:
            converter = html2text.HTML2Text()
            converter.body_width = 0
            return converter.handle(html)

        found["html2text"] = run_html2text
    except ImportError:
        pass
    try:
        import html_to_markdown

        found["html-to-markdown"] = lambda html: html_to_markdown.convert(html).content
    except ImportError:
        pass
    return found


class Timed:
    """Wraps ``render_markdown`` in the extraction module to time each call."""

    def __init__(self) -> None:
        self.original = extract_module.render_markdown
        self.last = 0.0

    def __call__(self, *args: object, **kwargs: object) -> str:
        started = process_time()
        result = self.original(*args, **kwargs)  # type: ignore[arg-type]
        self.last = process_time() - started
        return result


class Tally:
    """Fidelity and time of one renderer over the pages."""

    def __init__(self) -> None:
        self.pages = self.exact = self.with_html = 0
        self.words = self.lost = self.added = 0
        self.ms: list[float] = []

    def add(self, markdown: str, text: str, seconds: float) -> None:
        found = read(markdown)
        expected, got = text.split(), found.text.split()
        self.pages += 1
        self.exact += got == expected
        self.with_html += bool(found.html)
        self.words += len(expected)
        self.lost += sum((Counter(expected) - Counter(got)).values())
        self.added += sum((Counter(got) - Counter(expected)).values())
        self.ms.append(seconds * 1000)

    def row(self, name: str) -> str:
        ms = sorted(self.ms)
        p95 = ms[int(0.95 * (len(ms) - 1))]
        return (
            f"| {name} | {self.exact}/{self.pages} | {self.lost / self.words:.2%} "
            f"| {self.added / self.words:.2%} | {self.with_html} "
            f"| {median(ms):.3f} | {mean(ms):.3f} | {p95:.3f} |"
        )


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--datasets", nargs="+", type=Path, default=DEFAULT_DATASETS)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    timed = Timed()
    extract_module.render_markdown = timed  # type: ignore[assignment]
    peers = converters()
    tallies = {name: Tally() for name in ["scrapy_mainc", *peers]}
    for pages in load_sets(args.datasets).values():
        for page in pages:
            best = float("inf")
            for _ in range(args.repeat):
                result = extract(page.html, url=page.url or None, markdown=True)
                best = min(best, timed.last)
            if not result.text:
                continue
            tallies["scrapy_mainc"].add(result.markdown, result.text, best)
            for name, convert in peers.items():
                best = float("inf")
                for _ in range(args.repeat):
                    started = process_time()
                    markdown = convert(result.html)
                    best = min(best, process_time() - started)
                tallies[name].add(markdown, result.text, best)
    print(
        "| renderer | pages with main_text's words exactly | words lost | words added "
        "| pages with raw HTML | median ms | mean ms | p95 ms |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for name, tally in tallies.items():
        print(tally.row(name))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
