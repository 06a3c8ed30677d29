"""Data tables and layout tables.

Old pages lay out whole pages with ``<table>``: the article can sit in a cell, with
paragraphs, headings and further tables inside. A *data table* is a grid of short
values: a table whose cells hold phrasing content only (text, links, images, emphasis,
line breaks), with no text outside its cells, and a row of at least two cells. Only data
tables become Markdown tables, and only they are dropped by ``tables=False``; a layout
table is page structure, rendered (and kept) as the blocks it holds.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable

from ._stats import DomStats
from ._tags import INLINE_TAGS

#: The elements of a table's own structure (everything else inside must be phrasing content).
TABLE_STRUCTURE = frozenset(
    {"table", "caption", "colgroup", "col", "thead", "tbody", "tfoot", "tr", "td", "th"}
)
#: Elements a data table may hold: its structure, and phrasing content (``INLINE_TAGS``).
_DATA_TABLE_TAGS = (TABLE_STRUCTURE - {"table"}) | INLINE_TAGS | {"picture", "nobr"}
#: Structure elements that may not hold text of their own (text there is outside a cell).
_NO_TEXT = frozenset({"table", "thead", "tbody", "tfoot", "tr", "colgroup"})
_CELLS = frozenset({"td", "th"})


def is_data_table(stats: DomStats, table: int) -> bool:
    """True when the ``<table>`` at ``table`` is a data table (see the module docstring)."""
    tags, end, parent = stats.tags, stats.end, stats.parent
    widest, cells = 0, 0
    last_row = -1
    for position in range(table + 1, end[table]):
        tag = tags[position]
        if tag not in _DATA_TABLE_TAGS:
            return False
        if tag in _NO_TEXT and stats.own_chars[position]:
            return False
        if tag in _CELLS:
            row = parent[position]
            cells = cells + 1 if row == last_row else 1
            last_row = row
            widest = max(widest, cells)
    return widest >= 2 and not stats.own_chars[table]


def data_tables(stats: DomStats, roots: Iterable[int], excluded: Collection[int] = ()) -> list[int]:
    """The data tables inside the subtrees at ``roots`` (the roots themselves included),
    outside ``excluded`` subtrees; a data table holds no table, so none is inside another."""
    tags, end = stats.tags, stats.end
    found = []
    for root in roots:
        position = root
        while True:
            try:  # list.index: a C scan; most selections hold no table at all
                position = tags.index("table", position, end[root])
            except ValueError:
                break
            if is_data_table(stats, position) and not _inside(position, root, excluded, end):
                found.append(position)
                position = end[position]
            else:
                position += 1
    return found


def _inside(position: int, root: int, excluded: Collection[int], end: list[int]) -> bool:
    """True when ``position`` lies in an excluded subtree below ``root``."""
    return any(root < other <= position < end[other] for other in excluded)
