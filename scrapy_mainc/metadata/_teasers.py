"""Lists of teasers: the dated items of a "latest posts" sidebar, a section page's story
list, an archive. Their dates are other stories', never the page's own (issue 19, kind 4:
blogs, institutions and shops show such lists beside their content).

A list is an element with :data:`MIN_ITEMS` children or more of one kind (the same tag and
``class``) that each show a date and are short (:data:`TEASER_WORDS` words at most): a
teaser is a link and a date, a summary at most. Repeated long children (the posts of a
forum thread, each dated) are no list: the first of them is the page's own content. The
item that shows the page's own headline is the page's teaser: its date stays.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..core._stats import DomStats

#: Dated items that make a list.
MIN_ITEMS = 3
#: Most words of a teaser (a headline, a date, a line of summary).
TEASER_WORDS = 40
#: Ancestors of a date looked at for the list it is an item of.
LIST_DEPTH = 6


def in_teaser_list(stats: DomStats, holders: list[int], headline: int = -1) -> list[bool]:
    """For each element showing a date, whether it is inside a list of teasers made of the
    elements of ``holders`` (the dates of one window), other than the item holding the
    element ``headline``."""
    if len(holders) < MIN_ITEMS:
        return [False] * len(holders)  # too few dates for a list: the common case, at no cost
    parent, words, nodes, end = stats.parent, stats.words, stats.nodes, stats.end
    chains: list[list[tuple[int, int]]] = []
    items: dict[tuple[int, str, str], set[int]] = {}  # (container, tag, class) -> dated children
    for holder in holders:
        chain = []
        child, node = holder, parent[holder] if holder >= 0 else -1
        for _ in range(LIST_DEPTH):
            if node < 0:
                break
            chain.append((node, child))
            if words[child] <= TEASER_WORDS:
                element = nodes[child]
                items.setdefault((node, stats.tags[child], element.get("class", "")), set()).add(child)
            child, node = node, parent[node]
        chains.append(chain)
    lists = {key[0] for key, children in items.items() if len(children) >= MIN_ITEMS}
    return [
        any(node in lists and not child <= headline < end[child] for node, child in chain) for chain in chains
    ]
