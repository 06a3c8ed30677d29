"""Time against page size: ``extract`` should grow about linearly, on every shape of page.

    .venv/bin/python -m benchmarks.speed.scaling                 # article pages, every algorithm
    .venv/bin/python -m benchmarks.speed.scaling --shapes        # every shape below, too
    .venv/bin/python -m benchmarks.speed.scaling --shapes auto corex
    .venv/bin/python -m benchmarks.speed.scaling --shape "empty leaves" auto   # ms/MB at each size

Builds synthetic pages of growing size and prints milliseconds per megabyte for each
algorithm; a linear algorithm keeps that figure roughly flat from the smallest page to
the largest. The article pages repeat the same blocks of navigation, prose, links and
comments. ``--shapes`` adds pathological shapes that once took quadratic time (thousands
of comment blocks whose subtrees are detached when rendering, tens of thousands of
``<br>`` siblings, nesting as deep as the page is long, empty elements each followed by a
line break, whose tails rendering moved one at a time) or might (one huge text node,
long link lists, flat paragraphs, wide tables, many attributes, hidden blocks), and prints
the ratio of milliseconds per megabyte between the largest page and the smallest.
``--shape NAME`` prints milliseconds per megabyte at each size for one shape, with the
metadata stage and without it.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable

from scrapy_mainc import ALGORITHMS, extract

BLOCK = (
    "<div class='row'><nav><a href='/a'>Home</a> <a href='/b'>World</a> <a href='/c'>Sport</a></nav>"
    "<div class='story'><h2>A heading</h2>"
    + "<p>Some sentence of an article, with commas, periods and a <a href='/x'>link</a>. More words "
    "follow here to make a paragraph of a realistic length for a news page.</p>"
    * 6
    + "</div><ul class='comments'><li><b>reader</b> 2024-01-02 10:11 <p>A comment, short.</p></li></ul>"
    "</div>\n"
)
SIZES = (100_000, 1_000_000, 10_000_000)
PARAGRAPH = (
    "<p>Some sentence of an article, with commas, periods and a <a href='/x'>link</a>. "
    "More words follow here to make a paragraph.</p>"
)
ARTICLE = "<article>" + PARAGRAPH * 10 + "</article>"


def page_of(size: int) -> bytes:
    body = BLOCK * (size // len(BLOCK) + 1)
    return f"<html><head><title>Scaling</title></head><body>{body}</body></html>".encode()


def _repeat(unit: str, size: int) -> str:
    return unit * (size // len(unit) + 1)


def _deep(size: int) -> str:
    depth = size // len("<div></div>")
    return "<div>" * depth + PARAGRAPH + "</div>" * depth


#: Body builders of the pathological shapes, by name: size in characters to body HTML.
SHAPES: dict[str, Callable[[int], str]] = {
    "comment blocks": lambda size: (
        "<article>"
        + PARAGRAPH * 10
        + "<section class='comments'>"
        + _repeat(
            "<div class='comment'><span class='author'>reader</span> <span class='date'>2024-01-02 10:11"
            "</span><p>A comment, short.</p></div>",
            size,
        )
        + "</section></article>"
    ),
    "br siblings": lambda size: ARTICLE + "<div>" + _repeat("<br>", size) + "</div>",
    "deep nesting": _deep,
    "one text node": lambda size: "<p>" + _repeat("word, and words. ", size) + "</p>",
    "flat paragraphs": lambda size: _repeat(PARAGRAPH, size),
    "link list": lambda size: ARTICLE + "<nav>" + _repeat("<a href='/a'>Home</a> ", size) + "</nav>",
    "wide table": lambda size: ARTICLE + "<table><tr>" + _repeat("<td>cell, 1.</td>", size) + "</tr></table>",
    "100 attributes": lambda size: (
        ARTICLE + _repeat("<div " + " ".join(f"a{n}=x" for n in range(100)) + ">t</div>", size)
    ),
    "hidden blocks": lambda size: (
        ARTICLE + _repeat("<div style='display:none'><p>Hidden, text.</p></div>", size)
    ),
    "dates under the headline": lambda size: (
        "<h1>Scaling</h1><p>" + _repeat("22 December 2023, ", size) + "</p>" + ARTICLE
    ),
    "time elements": lambda size: (
        "<h1>Scaling</h1>" + _repeat("<time datetime='2023-12-22'>22 Dec</time> ", size) + ARTICLE
    ),
    "empty leaves": lambda size: ARTICLE + _repeat("<time></time>\n", size),
}


def shape_page(shape: str, size: int) -> bytes:
    return f"<html><head><title>Scaling</title></head><body>{SHAPES[shape](size)}</body></html>".encode()


def milliseconds_per_megabyte(page: bytes, algorithm: str, metadata: bool = True) -> float:
    started = time.perf_counter()
    extract(page, algorithm=algorithm, metadata=metadata)
    return (time.perf_counter() - started) * 1000 / (len(page) / 1e6)


def main() -> int:
    arguments = sys.argv[1:]
    with_shapes = "--shapes" in arguments
    shape = arguments[arguments.index("--shape") + 1] if "--shape" in arguments else None
    skipped = {"--shapes", "--shape", shape}
    names = [name for name in arguments if name not in skipped] or sorted(ALGORITHMS)
    if shape is not None:
        _print_shape(shape, names)
        return 0
    pages = {size: page_of(size) for size in SIZES}
    _print_header("algorithm")
    for name in names:
        extract(pages[SIZES[0]], algorithm=name)  # warm up
        _print_row(name, [milliseconds_per_megabyte(page, name) for page in pages.values()])
    if with_shapes:
        _print_shapes(names)
    return 0


def _print_header(first: str) -> None:
    sizes = " | ".join(f"{size / 1e6:g} MB: ms/MB" for size in SIZES)
    print(f"| {first} | {sizes} | largest/smallest |")
    print("|---|" + "---|" * (len(SIZES) + 1))


def _print_row(label: str, per_mb: list[float]) -> None:
    cells = " | ".join(f"{value:.0f}" for value in per_mb)
    print(f"| {label} | {cells} | {per_mb[-1] / per_mb[0]:.2f} |", flush=True)


def _print_shape(shape: str, names: list[str]) -> None:
    """Milliseconds per megabyte at every size for one shape, with and without metadata."""
    pages = [shape_page(shape, size) for size in SIZES]
    print(f"{shape}: {', '.join(f'{len(page) / 1e6:.2f} MB' for page in pages)}\n")
    _print_header("algorithm")
    for name in names:
        for metadata in (True, False):
            extract(pages[0], algorithm=name, metadata=metadata)  # warm up
            per_mb = [milliseconds_per_megabyte(page, name, metadata) for page in pages]
            _print_row(name if metadata else f"{name}, metadata=False", per_mb)


def _print_shapes(names: list[str]) -> None:
    smallest, largest = SIZES[0], SIZES[-1]
    print(f"\nms/MB at {largest / 1e6:g} MB over ms/MB at {smallest / 1e6:g} MB, per shape:\n")
    print("| shape | " + " | ".join(names) + " |")
    print("|---|" + "---|" * len(names))
    for shape in SHAPES:
        small, large = shape_page(shape, smallest), shape_page(shape, largest)
        ratios = [
            milliseconds_per_megabyte(large, name) / milliseconds_per_megabyte(small, name) for name in names
        ]
        print(f"| {shape} | " + " | ".join(f"{ratio:.2f}" for ratio in ratios) + " |", flush=True)


if __name__ == "__main__":
    raise SystemExit(main())
