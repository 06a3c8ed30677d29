"""The headline as the chosen text shows it, for pages whose title is no heading of the
page (:func:`visible_title`): a column name before it, or a headline-styled element near
the start of the text when the metadata's title is not shown there."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ._text import measure
from ._title import _headline_like, heading_text, shows_headline

if TYPE_CHECKING:
    from ._stats import DomStats

#: Where the headline shown with the chosen text is looked for: offsets from the first
#: chosen element (the headline sits just above the text, or opens it).
VISIBLE_WINDOW = (-45, 30)
#: Where the title is looked for among the elements before replacing it.
SHOWN_WINDOW = (-120, 30)
#: An element showing the title has at most twice its words and five more (a kicker, a
#: column name, a date line around it), or it is a section holding the title, not its element.
SHOWN_SCALE = 2
SHOWN_EXTRA_WORDS = 5
#: Longest text read as a headline, in words (a CJK character is a word; the statistics'
#: word counts are used because the algorithms have computed them already).
MAX_HEADLINE_WORDS = 60
#: Class and id words of headline elements ("title", "headline", "bt_title", "tit2").
_TITLE_NAME_RE = re.compile(r"title|headline|heading|subject|(?:^|[\W_])(?:bt|tit\d?)(?:$|[\W_])", re.I)
_STRONG_TAGS = frozenset({"h1", "h2", "h3"})
_EMPHASIS_TAGS = frozenset({"h4", "h5", "h6", "b", "strong", "big", "font"})


def visible_title(stats: DomStats, content: tuple[int, ...], title: str, headlines: tuple[str, ...]) -> str:
    """The headline as shown with the chosen text, when ``title`` is not shown there.

    ``title`` (from the metadata and the headings) stays when an element near the start of
    the chosen text shows it; a headline-styled element there that shows more of it (a
    column name before it) replaces it, one that shows it first and more after it (a
    forum thread's category, tags) does not. Otherwise the best headline-like element near the
    start wins: one whose text the page's ``<title>``/``og:title`` contain, then the most
    headline-styled (a heading or an element named as a title, then bold or large text),
    then the nearest to the text; ``title`` stays when there is none.
    """
    if not content:
        return title
    shown = _showing(stats, content[0], title)
    if shown >= 0:
        text = heading_text(stats.nodes[shown])
        more_before = not _key(text).startswith(_key(title))  # not a category or tags after it
        return (
            text if _title_style(stats, shown) == 3 and len(text) <= 2 * len(title) and more_before else title
        )
    best, best_rank = "", (0, 0, 0)
    for node, text, style in _title_candidates(stats, content[0]):
        agrees = any(
            shows_headline(text, headline) or shows_headline(headline, text) for headline in headlines
        )
        rank = (int(agrees), style, -abs(node - content[0]))
        if (agrees or style) and rank > best_rank:
            best, best_rank = text, rank
    return best or title


def _key(text: str) -> str:
    """``text`` compared without white space and case."""
    return "".join(text.split()).lower()


def _showing(stats: DomStats, first: int, title: str) -> int:
    """The outermost short element near ``first`` whose text holds ``title``, or -1."""
    wanted = _key(title)
    if not wanted:
        return -1
    words, parent, nodes = stats.words, stats.parent, stats.nodes
    least = measure(title)[1]
    longest = SHOWN_SCALE * least + SHOWN_EXTRA_WORDS
    start, stop = max(first + SHOWN_WINDOW[0], 0), min(first + SHOWN_WINDOW[1], len(words))
    for node in range(start, stop):
        size = words[node]
        if least <= size <= longest and not (parent[node] >= 0 and words[parent[node]] == size):
            if wanted in "".join("".join(nodes[node].itertext()).split()).lower():
                return node
    return -1


def _title_candidates(stats: DomStats, first: int) -> list[tuple[int, str, int]]:
    """(node, text, style) of the short elements near ``first``, outermost for each
    text; style 3 for a heading or an element named as a title, 2 for bold or large
    text, 0 otherwise."""
    parent, nodes, tags = stats.parent, stats.nodes, stats.tags
    words, link_words = stats.words, stats.link_words
    start, stop = max(first + VISIBLE_WINDOW[0], 0), min(first + VISIBLE_WINDOW[1], len(tags))
    found = []
    for node in range(start, stop):
        size = words[node]
        up = parent[node]
        if not 1 <= size <= MAX_HEADLINE_WORDS or up >= 0 and words[up] == size:
            continue  # empty, long, or the same text as its parent
        style = _title_style(stats, node)
        if not style and link_words[node] * 2 > words[node]:
            continue  # a plain link: a menu item or a teaser
        text = heading_text(nodes[node])
        if _headline_like(text) or style and len(text) >= 2:
            found.append((node, text, style))
    return found


def _title_style(stats: DomStats, node: int) -> int:
    """How headline-like an element looks, counting the descendants holding all its text."""
    words, nodes, tags = stats.words, stats.nodes, stats.tags
    size, style = words[node], 0
    for inner in range(node, stats.end[node]):
        if words[inner] != size:
            continue
        tag = tags[inner]
        element = nodes[inner]
        names = f"{element.get('class', '')} {element.get('id', '')}"
        if tag in _STRONG_TAGS or _TITLE_NAME_RE.search(names):
            return 3
        if tag in _EMPHASIS_TAGS:
            style = 2
    return style
