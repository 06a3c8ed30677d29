"""The largest page the core extracts, and the reason a larger one gets: by length, and
by its number of elements.

Peak memory grows with the page: ``benchmarks/speed/memory.py`` measures what an extraction adds
at its peak, per megabyte of input. Article-like pages take about 20 MB per MB (a synthetic
10 MB article page: 200 MB); the largest development pages (1.4 to 2.9 MB, mostly scripts)
4 to 7; pages made of nothing but small elements (``<br>`` after ``<br>``: 250,000 elements
per MB) about 130 MB per MB, since each element costs some 550 bytes (libxml2's node,
lxml's proxy, the statistics' lists). The limit is checked before decoding, on the length
of the page as given: bytes, or characters of text (as ``MAINC_MAX_PAGE_SIZE`` is in the
Scrapy layer, whose default it is).
"""

from __future__ import annotations

#: Pages longer than this (bytes, or characters of text) are not extracted (reason
#: ``page too large: ...``): 10 MiB lets through the 10 MB pages the library is tested and
#: benchmarked on, and bounds the peak memory of one extraction to about 200 MB on
#: article-like pages, 1.4 GB on a page of nothing but small elements.
MAX_PAGE_BYTES = 10 * 1024 * 1024


def too_large_reason(page: str | bytes, limit: int, name: str) -> str:
    """The reason given to ``page``, longer than ``limit`` (the setting or parameter ``name``)."""
    unit = "characters" if isinstance(page, str) else "bytes"
    return f"page too large: {len(page):,} {unit} > {name} ({limit:,})"


#: Pages with more start tags than this are not extracted (reason ``too many elements:
#: ...``). Peak memory goes with the number of elements, 550 bytes to 1.2 KB each at the
#: peak (``benchmarks/speed/memory.py``: a ``<br>``, an empty leaf, a link with its text), so
#: this bounds one extraction to about 400 MB whatever the page is made of, where 10 MB of
#: ``<br>`` took 1.4 GB. The largest development pages have about 10,000 start tags, a
#: synthetic 10 MB article page 155,000.
MAX_ELEMENTS = 300_000


def start_tags(text: str) -> int:
    """The start tags of ``text``, counted before parsing: its ``<`` that open neither an
    end tag nor a comment or declaration. An upper bound of the elements (a ``<`` in a
    script or in text counts too), three scans in C."""
    return text.count("<") - text.count("</") - text.count("<!")


def elements_reason(text: str, limit: int, name: str) -> str:
    """The reason given to ``text`` when it has more than ``limit`` start tags (the
    parameter ``name``), or ``""``."""
    if len(text) <= limit or text.count("<") <= limit:
        return ""  # bounds of the start tags (one "<" each), cheaper than counting them
    count = start_tags(text)
    return f"too many elements: {count:,} start tags > {name} ({limit:,})" if count > limit else ""
