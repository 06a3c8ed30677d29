"""A thread's posts for ``auto``: the replies kept with the post the choice found.

On a forum every post carries the same short lines without punctuation (the author's
name and rank, the date, a post count, the Like and Quote buttons), each of which loses
the punctuation penalty. A reply of one or two sentences is then worth less than its
lines, its subtree totals below zero, and the choice keeps one post, the longest (often
the first), while pruning drops every short reply whole, its words with its labels.

Here the posts are a run of alike siblings (same tag and class, ``post_min_count`` or
more), each of at least ``post_min_count`` of them holding a block worth a sentence
(``sentence_min_words``). When the root lies outside every such run, it widens to the
smallest part of the page (never the page itself) around the root and a run; inside it,
a part of negative total that holds a post's sentence-worth block is opened rather than
dropped: its negative parts go (the labels and buttons), the replies stay.
"""

from __future__ import annotations

from ..core._stats import DomStats


def post_runs(stats: DomStats, values: list[float], min_count: int, min_value: float) -> list[list[int]]:
    """The runs of posts on the page: for each container, its alike children (same tag
    and class) when at least ``min_count`` of them hold a block worth at least
    ``min_value`` (a sentence's worth once the penalties are paid)."""
    best = _best_block(stats, values)
    runs = []
    for up, count in enumerate(stats.child_counts):
        if count < min_count:
            continue
        for alike in stats.alike_groups(stats.children_of(up), min_count):
            if sum(best[child] >= min_value for child in alike) >= min_count:
                runs.append(alike)
    return runs


def _best_block(stats: DomStats, values: list[float]) -> list[float]:
    """For every node, the largest value of a block in its subtree (itself included)."""
    best = list(values)
    parent = stats.parent
    for node in range(len(values) - 1, 0, -1):  # children after parents in document order
        up = parent[node]
        if up >= 0 and best[node] > best[up]:
            best[up] = best[node]
    return best


def thread_root(stats: DomStats, root: int, runs: list[list[int]]) -> tuple[int, list[int]]:
    """The smallest ancestor of ``root`` (not the page) that holds the container of a run
    of posts outside ``root``, and the posts it holds; ``root`` and no posts when none."""
    parent = stats.parent
    outside = [run for run in runs if not stats.contains(root, parent[run[0]])]
    node = parent[root]
    while node > 0:
        held = [post for run in outside if stats.contains(node, parent[run[0]]) for post in run]
        if held:
            return node, held
        node = parent[node]
    return root, []


def opened(stats: DomStats, values: list[float], root: int, posts: list[int], min_value: float) -> set[int]:
    """The nodes inside ``root`` that pruning opens rather than drops: the ancestors (up
    to ``root``) of every block worth ``min_value`` in a post."""
    keep: set[int] = set()
    parent = stats.parent
    for post in posts:
        for node in range(post, stats.end[post]):
            if values[node] >= min_value:
                up = node
                while up != root and up not in keep and up >= 0:
                    keep.add(up)
                    up = parent[up]
    return keep
