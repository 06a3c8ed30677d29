"""WLR: the Words/Leaves Ratio (Insa, Silva, Tamarit, JLAMP 2013), with CNR, WNR and CLR.

Definitions 4.1-4.7 and Algorithm 1 as ALGORITHMS.md (section 2) states them, over the
analysis tree (``<body>``):

* content nodes: preparation already dropped the ``meta title head link style script
  select noscript`` subtrees and comments and emptied hidden subtrees; dropping word-less
  leaves until none is left then converges to "an element is a content node iff its
  subtree has words", which :func:`content_nodes` reads off ``DomStats.words``;
* ids: pre-order numbers from 0 at the root, over the content elements;
* static position: false only for a ``div`` with inline ``position:absolute|fixed``;
* total words ``tw(n)``: the words of the subtree (``DomStats.words``);
* leaves ``l(n)``: Figure 5's ``leaves`` function: a run of consecutive formatting
  children (``#text p a u b i em span sub sup strong div`` that are static and have
  exactly one leaf) counts as one leaf, any other child ``c`` adds ``l(c)``;
* words/leaves ratio ``WLR(n) = tw(n) / l(n)``; initial nodes have
  ``WLR(n) >= sqrt(max_WLR * WLR(root))``;
* weight ``W(n) = r_pos(n) * r_WLR(n)`` for initial nodes (0 otherwise), with
  ``r_pos = 1 - (id - min_id) / (max_id - min_id)`` over the initial nodes and
  ``r_WLR = (WLR - min_WLR) / (max_WLR - min_WLR)`` over all content nodes (a zero
  denominator gives 1);
* Algorithm 1: relevance ``R(n) = WLR(n) * max(W(n), sum of R(children))``, bottom-up in
  reverse pre-order; the node with the highest ``R`` (ties to the lower id) is the
  output. By default ``WLR(n)`` in ``R`` is divided by ``max_WLR``: the formula as
  written never decreases towards the root, see :class:`WlrParams`.

Text nodes. The paper's leaves are ``#text`` nodes, while ``DomStats`` has elements only
and folds a node's direct text into its ``own_*`` counts. Only the ``leaves`` function
needs the text children: :func:`leaf_counts` rebuilds each element's child sequence on
the fly from its ``.text`` and its children's ``.tail`` (a text is a child only when it
has words), reading each text once, so the cost stays linear. Texts are not candidates
(the output is an element) and are not counted as ``nodes`` by CNR and WNR.

The variants replace ``WLR`` everywhere by chars/leaves (CLR), words/nodes (WNR) or
chars/nodes (CNR), ``nodes`` being the content elements of the subtree, itself included.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from ..core._stats import DomStats
from ..core._types import Document, Selection
from ._base import Algorithm

#: Figure 5's formatting nodes (``#text`` is handled apart: every text is one).
FORMATTING_TAGS = frozenset({"p", "a", "u", "b", "i", "em", "span", "sub", "sup", "strong", "div"})
#: Static position: an inline style that takes a ``div`` out of the static flow.
_NOT_STATIC_RE = re.compile(r"position\s*:\s*(?:absolute|fixed)", re.IGNORECASE)

#: Ratio name -> (numerator, denominator).
_RATIOS = {
    "wlr": ("words", "leaves"),
    "clr": ("chars", "leaves"),
    "wnr": ("words", "nodes"),
    "cnr": ("chars", "nodes"),
}


@dataclass(frozen=True, slots=True)
class WlrParams:
    """Parameters of WLR and its ratio variants."""

    #: ``"wlr"`` words/leaves (the paper's method), ``"clr"`` chars/leaves, ``"wnr"``
    #: words/nodes or ``"cnr"`` chars/nodes (the ratios the paper compares against).
    ratio: str = "wlr"
    #: Measure the ratio in ``R(n)`` in units of its maximum: ``WLR(n) / max_WLR``. As
    #: ALGORITHMS.md transcribes Algorithm 1, ``R(n) = WLR(n) * max(W(n), sum R(children))``
    #: never decreases going up, since every content node has ``WLR >= 1`` (each leaf
    #: holds a word; ``CLR >= 1`` too), so the root always wins. That cannot give the
    #: paper's figures, where WLR and CNR differ widely; on the shared datasets the literal
    #: formula chose ``<body>`` on 250 of 250 pages for WLR, CLR and CNR, 249 for WNR.
    #: Dividing by ``max_WLR`` (a factor in ``(0, 1]``) lets low-ratio ancestors lose
    #: relevance (F1 0.800 scrapinghub, 0.891 zh_news for WLR). Scaling by the weight's
    #: ``r_WLR`` instead scored within 0.002 F1 of that. ``False`` keeps the literal formula.
    normalize_relevance: bool = True

    def __post_init__(self) -> None:
        if self.ratio not in _RATIOS:
            raise ValueError(f"unknown ratio {self.ratio!r}; valid: {', '.join(_RATIOS)}")


def content_nodes(stats: DomStats) -> list[bool]:
    """Content nodes: True for elements whose subtree has words (the fix point's result)."""
    return [words > 0 for words in stats.words]


def content_ids(content: list[bool]) -> list[int]:
    """Ids: pre-order numbers from 0 at the root over the content elements (-1 for others)."""
    ids = [-1] * len(content)
    next_id = 0
    for node, kept in enumerate(content):
        if kept:
            ids[node] = next_id
            next_id += 1
    return ids


def is_static(stats: DomStats, node: int) -> bool:
    """Static position: false only for a ``div`` with inline ``position:absolute|fixed``."""
    if stats.tags[node] != "div":
        return True
    return _NOT_STATIC_RE.search(stats.nodes[node].get("style") or "") is None


def leaf_counts(stats: DomStats, content: list[bool]) -> list[int]:
    """Leaves ``l(n)`` (Figure 5) of every content element (0 for the others).

    A node's items are, in document order, its ``.text``, then each content child
    followed by that child's ``.tail``; a text is an item only when it has words, and a
    run of formatting items counts once. Runs count the same read backwards, so one
    sweep in reverse pre-order adds each child (tail first) to its parent, which is
    finished when reached: all its descendants come after it.
    """
    count = len(content)
    leaves = [0] * count
    in_run = [False] * count  # is the item last added to a node (its next one) formatting?
    nodes, tags, parent, own_words = stats.nodes, stats.tags, stats.parent, stats.own_words
    for node in range(count - 1, -1, -1):
        if own_words[node] and not in_run[node] and _has_words(nodes[node].text):
            leaves[node] += 1
        up = parent[node]
        if up < 0:
            break
        if own_words[up] and _has_words(nodes[node].tail):
            leaves[up] += not in_run[up]
            in_run[up] = True
        if not content[node]:
            continue
        if leaves[node] == 1 and tags[node] in FORMATTING_TAGS and is_static(stats, node):
            leaves[up] += not in_run[up]
            in_run[up] = True
        else:
            leaves[up] += leaves[node]
            in_run[up] = False
    return leaves


def ratios(stats: DomStats, content: list[bool], ratio: str) -> list[float]:
    """Words/leaves ratio ``tw(n) / l(n)`` (or a variant's ratio) of content elements, else 0."""
    numerator_name, denominator_name = _RATIOS[ratio]
    numerators = stats.words if numerator_name == "words" else stats.chars
    if denominator_name == "leaves":
        denominators = leaf_counts(stats, content)
    else:
        denominators = stats.subtree_totals([int(kept) for kept in content])
    return [
        numerator / denominator if kept else 0.0
        for numerator, denominator, kept in zip(numerators, denominators, content)
    ]


def initial_nodes(content: list[bool], values: list[float]) -> tuple[list[int], float]:
    """Initial nodes: those with ``WLR(n) >= sqrt(max_WLR * WLR(root))``, and that bound.

    Compared as squares, so that the node with the largest ratio always passes.
    """
    top = max(value for value, kept in zip(values, content) if kept)
    bound = top * values[0]
    chosen = [node for node, value in enumerate(values) if content[node] and value * value >= bound]
    return chosen, math.sqrt(bound)


def weights(content: list[bool], values: list[float], ids: list[int], initial: list[int]) -> list[float]:
    """Weight: ``W(n) = r_pos(n) * r_WLR(n)`` for initial nodes, 0 otherwise."""
    kept_values = [value for value, kept in zip(values, content) if kept]
    low, high = min(kept_values), max(kept_values)
    first, last = ids[initial[0]], ids[initial[-1]]
    result = [0.0] * len(values)
    for node in initial:
        r_pos = 1.0 - (ids[node] - first) / (last - first) if last > first else 1.0
        r_ratio = (values[node] - low) / (high - low) if high > low else 1.0
        result[node] = r_pos * r_ratio
    return result


def relevances(
    stats: DomStats, content: list[bool], factors: list[float], weight: list[float]
) -> list[float]:
    """Algorithm 1: ``R(n) = factor(n) * max(W(n), sum of R(children))``, bottom-up.

    ``factor`` is ``WLR(n)`` in the paper's formula (or ``WLR(n) / max_WLR``, see
    :class:`WlrParams`); the sweep runs in reverse pre-order, so every child is done
    before its parent.
    """
    relevance = [0.0] * len(factors)
    child_sums = [0.0] * len(factors)
    parent = stats.parent
    for node in range(len(factors) - 1, -1, -1):
        if not content[node]:
            continue
        relevance[node] = factors[node] * max(weight[node], child_sums[node])
        if node:
            child_sums[parent[node]] += relevance[node]
    return relevance


def select(document: Document, params: WlrParams) -> Selection:
    """Algorithm 1: the subtree of the content node with the highest relevance."""
    stats = document.stats
    if not stats.words[0]:
        return Selection(reason="the page has no words")
    content = content_nodes(stats)
    values = ratios(stats, content, params.ratio)
    initial, threshold = initial_nodes(content, values)
    weight = weights(content, values, content_ids(content), initial)
    factors = values
    if params.normalize_relevance:
        top = max(values)
        factors = [value / top for value in values]
    relevance = relevances(stats, content, factors, weight)
    best = max(range(len(relevance)), key=relevance.__getitem__)  # first maximum: lower id
    return Selection(nodes=(best,), score=relevance[best], threshold=threshold)


def _has_words(text: str | None) -> bool:
    """True for a text with at least one word (any non-whitespace character)."""
    return bool(text and not text.isspace())


VARIANTS = (
    Algorithm(
        "wlr",
        "WLR: words/leaves ratio over the DOM tree (Insa, Silva, Tamarit)",
        select,
        WlrParams(ratio="wlr"),
    ),
    Algorithm("cnr", "CNR: the WLR method with the chars/nodes ratio", select, WlrParams(ratio="cnr")),
    Algorithm("wnr", "WNR: the WLR method with the words/nodes ratio", select, WlrParams(ratio="wnr")),
    Algorithm("clr", "CLR: the WLR method with the chars/leaves ratio", select, WlrParams(ratio="clr")),
)
