"""CETD: Content Extraction via Text Density (Sun, Song, Liao, SIGIR 2011).

Definitions (ALGORITHMS.md section 5), per element ``i`` over its subtree, with any zero
denominator replaced by 1:

* text density ``TD_i = C_i / T_i`` (characters per tag);
* composite text density
  ``CTD_i = (C_i / T_i) * log_base((C_i / LC_i) * (T_i / LT_i))`` with
  ``base = ln((C_i / nLC_i) * LC_i + (LC_b / C_b) * C_i + e)``;
* DensitySum of ``N``: the sum of the densities of ``N``'s element children;
* threshold: the smallest density on the path from the node with the largest DensitySum
  up to ``<body>``;
* ExtractContent(N): when ``density(N) >= threshold``, mark the node with the largest
  DensitySum inside ``N`` and recurse into the children. Content is the marked subtrees.

The recursion is run as one pre-order sweep (a node is visited when all its ancestors
passed), so deep pages cost linear time. CECTD-S replaces each density by a weighted
average with its neighbouring siblings before thresholding.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..core._stats import DomStats
from ..core._types import Document, Selection
from ._base import Algorithm


@dataclass(frozen=True, slots=True)
class CetdParams:
    """Parameters of CETD and its variants."""

    #: ``"td"`` (CETD, characters per tag) or ``"ctd"`` (CECTD, composite text density).
    density: str = "ctd"
    #: Weights of (previous sibling, node, next sibling) for CECTD-S's smoothing; ``None``
    #: for no smoothing. The paper does not print its kernel: (1/4, 1/2, 1/4) is the
    #: smallest discrete Gaussian, renormalised at the ends of a sibling list.
    smoothing: tuple[float, float, float] | None = None


def text_densities(stats: DomStats) -> list[float]:
    """``TD_i = C_i / T_i`` for every node."""
    return [chars / (stop - start) for start, (chars, stop) in enumerate(zip(stats.chars, stats.end))]


def composite_densities(stats: DomStats) -> list[float]:
    """``CTD_i`` for every node, with the paper's zero-denominator rule."""
    body_chars = stats.chars[0] or 1
    body_link_ratio = stats.link_chars[0] / body_chars
    densities = []
    for start, (chars, link_chars, links, stop) in enumerate(
        zip(stats.chars, stats.link_chars, stats.links, stats.end)
    ):
        if not chars:
            densities.append(0.0)
            continue
        tags = stop - start
        non_link_chars = chars - link_chars or 1
        base = math.log(chars / non_link_chars * link_chars + body_link_ratio * chars + math.e)
        log_base = math.log(base) or 1.0  # base 1 only without any link text: use ln
        ratio = (chars / (link_chars or 1)) * (tags / (links or 1))
        densities.append(chars / tags * math.log(ratio) / log_base)
    return densities


def smooth(stats: DomStats, densities: list[float], weights: tuple[float, float, float]) -> list[float]:
    """Each density averaged with its neighbouring siblings' (CECTD-S's data smoothing)."""
    smoothed = list(densities)
    before, own, after = weights
    for siblings in stats.children:
        for place, node in enumerate(siblings):
            total, weight = own * densities[node], own
            if place > 0:
                total += before * densities[siblings[place - 1]]
                weight += before
            if place + 1 < len(siblings):
                total += after * densities[siblings[place + 1]]
                weight += after
            smoothed[node] = total / weight
    return smoothed


def density_sums(stats: DomStats, densities: list[float]) -> list[float]:
    """DensitySum of every node: the sum of its element children's densities."""
    sums = [0.0] * len(densities)
    parent = stats.parent
    for node in range(1, len(densities)):
        sums[parent[node]] += densities[node]
    return sums


def best_in_subtree(stats: DomStats, sums: list[float]) -> list[int]:
    """For every node, the node of its subtree with the largest DensitySum (first wins)."""
    best = list(range(len(sums)))
    parent = stats.parent
    for node in range(len(sums) - 1, 0, -1):
        up = parent[node]
        if sums[best[node]] > sums[best[up]]:
            best[up] = best[node]
    return best


def threshold_on_path(stats: DomStats, densities: list[float], node: int) -> float:
    """The smallest density from ``node`` up to the analysis root."""
    threshold = densities[node]
    while node > 0:
        node = stats.parent[node]
        threshold = min(threshold, densities[node])
    return threshold


def select(document: Document, params: CetdParams) -> Selection:
    """Mark content by density, threshold and DensitySum (ExtractContent)."""
    stats = document.stats
    if not stats.chars[0]:
        return Selection(reason="the page has no text")
    densities = composite_densities(stats) if params.density == "ctd" else text_densities(stats)
    if params.smoothing:
        densities = smooth(stats, densities, params.smoothing)
    sums = density_sums(stats, densities)
    best = best_in_subtree(stats, sums)
    threshold = threshold_on_path(stats, densities, best[0])
    passed = [False] * len(densities)
    marked: set[int] = set()
    for node, density in enumerate(densities):
        up = stats.parent[node]
        if density >= threshold and (up < 0 or passed[up]):
            passed[node] = True
            marked.add(best[node])
    roots = outermost(stats, sorted(marked))
    roots = tuple(node for node in roots if stats.chars[node])
    if not roots:
        return Selection(threshold=threshold, reason="no node reached the density threshold")
    return Selection(nodes=roots, score=sums[best[0]], threshold=threshold)


def outermost(stats: DomStats, nodes: list[int]) -> tuple[int, ...]:
    """The nodes of a sorted list that are not inside another one of the list."""
    kept: list[int] = []
    for node in nodes:
        if not kept or node >= stats.end[kept[-1]]:
            kept.append(node)
    return tuple(kept)


VARIANTS = (
    Algorithm(
        "cetd-ds",
        "CETD: text density (characters per tag) with DensitySum",
        select,
        CetdParams(density="td"),
    ),
    Algorithm(
        "cectd-ds",
        "CECTD-DS: composite text density with DensitySum (the paper's best)",
        select,
        CetdParams(density="ctd"),
    ),
    Algorithm(
        "cectd-s",
        "CECTD-S: composite text density smoothed over siblings",
        select,
        CetdParams(density="ctd", smoothing=(0.25, 0.5, 0.25)),
    ),
)
