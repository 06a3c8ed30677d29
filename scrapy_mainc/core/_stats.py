"""The single statistics pass shared by every algorithm.

Elements of the analysis tree are numbered in pre-order (document order), so the subtree
of node ``i`` is the contiguous range ``i .. end[i] - 1``. One linear walk collects each
node's *own* counts (its direct text: ``.text`` plus the tails of its children); every
subtree total is then a difference of two prefix sums over those, for all nodes at once.
Nothing recurses and no text is measured twice, so the cost is linear on any depth.

Totals are computed on first use and cached, so an algorithm pays only for the numbers
it reads.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from functools import cached_property
from itertools import accumulate
from sys import intern
from typing import TypeVar, cast

from lxml import etree

from ._text import measure

#: Counts are ints; scores summed over subtrees the same way are floats.
Number = TypeVar("Number", int, float)


class DomStats:
    """Per-node counts of one analysis tree, indexed by pre-order position.

    ``own_*`` lists count a node's direct text only; the unprefixed properties are totals
    over the node's subtree, the node included. Links follow ALGORITHMS.md: a link is an
    ``<a>`` element with an ``href``, and text anywhere inside one is link text.
    Instances are read-only by convention: algorithms never write to these lists.
    """

    def __init__(self, root: etree._Element) -> None:
        nodes = list(root.iter())
        count = len(nodes)
        #: One int object per position, shared by every list of positions (``parent``,
        #: ``end``, the index): 28 bytes an element less for each list that holds them.
        numbers = list(range(count + 1))
        # deepest first, so that dropping the dict frees the elements in a linear time
        # (see release) even when release is not called
        index = {nodes[position]: numbers[position] for position in range(count - 1, -1, -1)}
        parent = [index.get(node.getparent(), -1) for node in nodes]
        parent[0] = -1
        own_chars, own_words, own_punct, own_cjk = [0] * count, [0] * count, [0] * count, [0] * count
        texts = [node.text for node in nodes]
        for position in [position for position, text in enumerate(texts) if text and not text.isspace()]:
            counts = measure(texts[position])
            own_chars[position], own_words[position], own_punct[position], own_cjk[position] = counts
        tails = [node.tail for node in nodes]
        written = enumerate(tails[1:], start=1)  # the root's tail is outside the analysis tree
        for position in [position for position, tail in written if tail and not tail.isspace()]:
            chars, words, punct, cjk = measure(tails[position])  # a tail is its parent's text
            up = parent[position]
            own_chars[up] += chars
            own_words[up] += words
            own_punct[up] += punct
            own_cjk[up] += cjk
        size = [1] * count
        for position in range(count - 1, 0, -1):
            size[parent[position]] += size[position]
        #: Elements in pre-order; ``nodes[0]`` is the analysis root.
        self.nodes: list[etree._Element] = nodes
        #: Pre-order index of each element.
        self.positions: dict[etree._Element, int] = index
        #: (interned: lxml makes a new string at each read; 59 bytes an element less)
        self.tags: list[str] = [intern(node.tag) for node in nodes]
        #: Index of each node's parent, -1 for the root.
        self.parent: list[int] = parent
        #: One past the last descendant: the subtree of ``i`` is ``range(i, end[i])``.
        self.end: list[int] = [numbers[position + span] for position, span in enumerate(size)]
        self.own_chars: list[int] = own_chars
        self.own_words: list[int] = own_words
        self.own_punct: list[int] = own_punct
        self.own_cjk: list[int] = own_cjk
        #: Each node's ``.text`` and ``.tail`` as read here (lxml builds a new string at
        #: each read): for the readers of the tree as parsed, before rendering edits it.
        self.texts: list[str | None] = texts
        self.tails: list[str | None] = tails

    def __len__(self) -> int:
        return len(self.nodes)

    def release(self) -> None:
        """Drop the references to the tree's elements, deepest (last in pre-order) first.

        lxml frees an element's proxy by walking up to the nearest ancestor that still has
        one, and, in a subtree detached from the document (as rendering leaves excluded
        subtrees), by scanning the subtree for other proxies: released in document order,
        as a dict or a list built in that order would be, freeing costs time quadratic in
        depth or in the size of detached subtrees (17 s for a page with 8,000 comment
        blocks, minutes for a 100,000-deep tree). Children before parents keeps every
        step O(1). The statistics must not be used afterwards.
        """
        self.positions.clear()  # the list still holds every element
        self.nodes.clear()  # CPython empties a list from its end: deepest first

    @cached_property
    def children(self) -> list[Sequence[int]]:
        """Child indices of every node, in document order (one shared empty tuple for
        every leaf: a list per node took 64 bytes an element)."""
        end = self.end
        children: list[Sequence[int]] = [()] * len(self.nodes)
        for node in [node for node, stop in enumerate(end) if stop > node + 1]:
            children[node] = self.children_of(node)
        return children

    @cached_property
    def child_counts(self) -> list[int]:
        """Number of element children of every node."""
        counts = [0] * len(self.nodes)
        for up, count in Counter(self.parent).items():
            if up >= 0:
                counts[up] = count
        return counts

    def children_of(self, index: int) -> list[int]:
        """Child indices of one node (walks the subtree bounds, no full child lists)."""
        found, child, stop, end = [], index + 1, self.end[index], self.end
        while child < stop:
            found.append(child)
            child = end[child]
        return found

    def kind(self, index: int) -> tuple[str, str]:
        """A node's tag and ``class`` attribute ("" when absent): siblings of one kind are
        *alike* (a list's items, a grid's cards, a feed's posts)."""
        return self.tags[index], self.nodes[index].get("class") or ""

    def alike_groups(self, nodes: Iterable[int], min_count: int) -> list[list[int]]:
        """The ``nodes`` grouped by kind, each group of ``min_count`` nodes or more, in the
        order of ``nodes``; the groups in the order of their first members."""
        groups: dict[tuple[str, str], list[int]] = {}
        for node in nodes:
            groups.setdefault(self.kind(node), []).append(node)
        return [group for group in groups.values() if len(group) >= min_count]

    @cached_property
    def depth(self) -> list[int]:
        """Distance from the analysis root."""
        depth = [0] * len(self.nodes)
        parent = self.parent
        for position in range(1, len(parent)):
            depth[position] = depth[parent[position]] + 1
        return depth

    @cached_property
    def link_positions(self) -> list[int]:
        """Indices of the links (``<a href>`` elements), in document order."""
        nodes = self.nodes
        anchors = [position for position, tag in enumerate(self.tags) if tag == "a"]
        return [position for position in anchors if nodes[position].get("href") is not None]

    @cached_property
    def is_link(self) -> list[int]:
        """1 for an ``<a href>`` element, else 0."""
        is_link = [0] * len(self.nodes)
        for position in self.link_positions:
            is_link[position] = 1
        return is_link

    @cached_property
    def in_link(self) -> list[bool]:
        """True for a link and for every node inside one."""
        in_link = [False] * len(self.nodes)
        end = self.end
        for position in self.link_positions:
            in_link[position : end[position]] = [True] * (end[position] - position)
        return in_link

    @cached_property
    def chars(self) -> list[int]:
        """Non-whitespace characters in the subtree."""
        return self.subtree_totals(self.own_chars)

    @cached_property
    def words(self) -> list[int]:
        """CJK-aware words in the subtree."""
        return self.subtree_totals(self.own_words)

    @cached_property
    def punct(self) -> list[int]:
        """Periods and commas in the subtree (ECON's punc-num)."""
        return self.subtree_totals(self.own_punct)

    @cached_property
    def cjk(self) -> list[int]:
        """CJK ideographs, kana and hangul in the subtree."""
        return self.subtree_totals(self.own_cjk)

    @cached_property
    def link_chars(self) -> list[int]:
        """Characters of link text in the subtree."""
        return self.subtree_totals(
            [chars if linked else 0 for chars, linked in zip(self.own_chars, self.in_link)]
        )

    @cached_property
    def link_words(self) -> list[int]:
        """Words of link text in the subtree."""
        return self.subtree_totals(
            [words if linked else 0 for words, linked in zip(self.own_words, self.in_link)]
        )

    @cached_property
    def links(self) -> list[int]:
        """Links (``<a href>`` elements) in the subtree, the node included."""
        return self.subtree_totals(self.is_link)

    @cached_property
    def leaves(self) -> list[int]:
        """Element leaves (nodes without element children) in the subtree."""
        end = self.end
        return self.subtree_totals([1 if stop == position + 1 else 0 for position, stop in enumerate(end)])

    def elements(self, index: int) -> int:
        """Elements (tags) in the subtree of ``index``, itself included."""
        return self.end[index] - index

    def link_density(self, index: int) -> float:
        """Share of the subtree's characters that are link text (0 for an empty subtree)."""
        chars = self.chars[index]
        return self.link_chars[index] / chars if chars else 0.0

    def contains(self, ancestor: int, index: int) -> bool:
        """True when ``index`` lies in the subtree of ``ancestor`` (or is it)."""
        return ancestor <= index < self.end[ancestor]

    def xpath(self, index: int) -> str:
        """Absolute XPath of node ``index``, in lxml's ``getpath`` form.

        Built from the statistics (lxml's own ``getpath`` is quadratic in the depth,
        which matters on pathological pages).
        """
        steps = []
        node = index
        while node > 0:
            up = self.parent[node]
            tag = self.tags[node]
            position, same_tag = self._positions_among_siblings(up)[node]
            steps.append(f"{tag}[{position}]" if same_tag > 1 else tag)
            node = up
        root = self.nodes[0]
        steps.append(root.getroottree().getpath(root).rstrip("/"))
        return "/".join(reversed(steps))

    def _positions_among_siblings(self, parent: int) -> dict[int, tuple[int, int]]:
        """For each child of ``parent``: its 1-based position among same-tag siblings and
        how many there are (computed once per parent, on demand)."""
        cache: dict[int, dict[int, tuple[int, int]]] = self.__dict__.setdefault("_sibling_positions", {})
        if parent not in cache:
            tags = self.tags
            seen: dict[str, int] = {}
            positions = {}
            for node in self.children_of(parent):
                seen[tags[node]] = positions[node] = seen.get(tags[node], 0) + 1
            cache[parent] = {node: (place, seen[tags[node]]) for node, place in positions.items()}
        return cache[parent]

    def subtree_totals(self, own: list[Number]) -> list[Number]:
        """Sum a per-node list over every subtree (linear: prefix-sum differences)."""
        prefix = cast("list[Number]", [0, *accumulate(own)])
        return [prefix[stop] - before for stop, before in zip(self.end, prefix)]
