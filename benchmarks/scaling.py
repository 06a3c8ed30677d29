"""Time against page size: ``extract`` should grow about linearly.

    .venv/bin/python benchmarks/scaling.py

Builds synthetic article pages of growing size (the same blocks of navigation, prose,
links and comments repeated) and prints milliseconds per megabyte for each algorithm; a
linear algorithm keeps that figure roughly flat from the smallest page to the largest.
"""

from __future__ import annotations

import sys
import time

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


def page_of(size: int) -> bytes:
    body = BLOCK * (size // len(BLOCK) + 1)
    return f"<html><head><title>Scaling</title></head><body>{body}</body></html>".encode()


def main() -> int:
    names = sys.argv[1:] or sorted(ALGORITHMS)
    pages = {size: page_of(size) for size in SIZES}
    print(
        "| algorithm | " + " | ".join(f"{size / 1e6:g} MB: ms/MB" for size in SIZES) + " | largest/smallest |"
    )
    print("|---|" + "---|" * (len(SIZES) + 1))
    for name in names:
        per_mb = []
        extract(pages[SIZES[0]], algorithm=name)  # warm up
        for page in pages.values():
            started = time.perf_counter()
            extract(page, algorithm=name)
            per_mb.append((time.perf_counter() - started) * 1000 / (len(page) / 1e6))
        cells = " | ".join(f"{value:.0f}" for value in per_mb)
        print(f"| {name} | {cells} | {per_mb[-1] / per_mb[0]:.2f} |", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
