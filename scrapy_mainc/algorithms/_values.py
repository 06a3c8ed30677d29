"""The value of every block of text for ``auto``, and what a root keeps of it.

A block's value is its words outside links, less ``link_weight`` times its link words,
less ``unpunctuated_penalty`` when it has no punctuation (an item of a grid of alike
cards pays that once for all its short lines), scaled down in a weak region; a cut part
and the headline are worth nothing or less. A root keeps the blocks of its subtree but
for the cut parts and the blocks whose subtree totals below zero (:func:`pruned`).
"""

from __future__ import annotations

from ..core._stats import DomStats
from ..core._tags import HEADING_TAGS
from ..core._types import Selection
from ._auto_params import AutoParams
from ._blocks import Regions, alike_items
from ._context import CUT as _CUT
from ._context import WEAK as _WEAK

#: The value of the headline's block: below zero, so that pruning drops it (it is
#: ``Extraction.title``), by one word only, so that the story's container keeps its total.
HEADLINE_VALUE = -1.0


def block_values(
    stats: DomStats, regions: Regions, context: list[int], headline: int, params: AutoParams
) -> list[float]:
    """Value in words of every block's region (0 for non-blocks and cut parts)."""
    values = [0.0] * len(stats)
    keep = 1.0 - params.boilerplate_factor
    region_words, region_link_words, region_punct = regions.words, regions.link_words, regions.punct
    item_of = (
        alike_items(stats, params.item_max_words, params.card_min_alike) if params.item_max_words else []
    )
    charged: set[int] = set()  # the items that paid their penalty already
    for node in regions.with_text:
        if context[node] == _CUT:
            continue
        words, link_words = region_words[node], region_link_words[node]
        value = words - params.link_weight * link_words
        if not region_punct[node] and stats.tags[node] not in HEADING_TAGS:
            item = item_of[node] if item_of else -1
            if item < 0 or item == node:
                value -= params.unpunctuated_penalty
            elif item not in charged:  # the card pays once for its name, price and badges
                values[item] -= params.unpunctuated_penalty
            charged.add(item)
        if node == headline:
            value = HEADLINE_VALUE
        if context[node] == _WEAK:
            value = value * keep if value > 0 else value * (2.0 - keep)
        values[node] = value
    return values


def kept_value(stats: DomStats, values: list[float], root: int, excluded: set[int]) -> float:
    """Positive block value left inside ``root`` once ``excluded`` subtrees are dropped."""
    kept, node, stop = 0.0, root, stats.end[root]
    while node < stop:
        if node in excluded:
            node = stats.end[node]
            continue
        kept += max(values[node], 0.0)
        node += 1
    return kept


def kept_words(stats: DomStats, regions: Regions, selection: Selection) -> tuple[int, int]:
    """Words outside links, and link words, in the blocks ``selection`` keeps."""
    words = link_words = 0
    for root in selection.nodes:
        node, stop = root, stats.end[root]
        while node < stop:
            if node in selection.excluded:
                node = stats.end[node]
                continue
            words += regions.words[node]
            link_words += regions.link_words[node]
            node += 1
    return words, link_words


def pruned(
    stats: DomStats,
    regions: Regions,
    context: list[int],
    totals: list[float],
    root: int,
    keep: set[int] | frozenset[int] = frozenset(),
) -> set[int]:
    """Outermost cut parts and negative-total blocks inside ``root`` (not those in ``keep``)."""
    excluded: set[int] = set()
    node, stop = root + 1, stats.end[root]
    while node < stop:
        is_cut = context[node] == _CUT and context[stats.parent[node]] != _CUT
        if is_cut or (regions.is_block[node] and totals[node] < 0 and node not in keep):
            excluded.add(node)
            node = stats.end[node]
        else:
            node += 1
    return excluded
