"""What markup names say of reader comments: the class, id and microdata names that mark a
comment container, or a section of customer reviews (one kind of evidence of the comment
stage, :mod:`._comments`; the algorithms' context reads them too).
"""

from __future__ import annotations

import re

from lxml import etree

from ._class_names import name_words
from ._stats import DomStats
from ._tags import INLINE_TAGS

#: Class/id tokens that name a reader-comment container.
COMMENT_TOKENS = frozenset(
    {
        "comment", "comments", "commentlist", "commentslist", "commentarea", "commentsarea",
        "comentarios", "kommentare", "commentaires", "disqus", "disqusthread", "respond",
        "replies", "usercomments", "readercomments", "talkback", "pinglun",
    }
)  # fmt: skip
#: Class/id tokens that name a section of customer reviews (plural: ``review`` also
#: names one review's summary, such as a product's star rating beside its name).
REVIEW_TOKENS = frozenset({"reviews", "customerreviews", "productreviews"})
#: Substrings of every word of COMMENT_TOKENS (first letter left out for camelCase):
#: a cheap test before the names are split into words.
_COMMENT_STEM_RE = re.compile("omment|oment|isqus|espond|eplies|alkback|pinglun")
#: The same for REVIEW_TOKENS (``CommentParams.reviews``).
REVIEW_STEM_RE = re.compile("eviews")
#: Fewest words of a named comment section worth removing.
_MIN_SECTION_WORDS = 3
#: Microdata of comments: ``itemprop="comment"``, ``itemtype=".../Comment"``. Selecting the
#: attributes (then their elements) is four times faster in libxml2 than testing every
#: element with a predicate.
_COMMENT_MICRODATA_XPATH = etree.XPath(
    "descendant::*/@itemprop[. = 'comment'] | descendant::*/@itemtype[contains(., 'Comment')]"
)


def has_comment_name(element: etree._Element, tokens: frozenset[str] = COMMENT_TOKENS) -> bool:
    """True when ``class``, ``id`` or microdata name ``element`` as a reader comment (or
    by another of ``tokens``)."""
    names = " ".join(
        value for value in (element.get("id"), element.get("class"), element.get("itemprop")) if value
    )
    itemtype = element.get("itemtype") or ""
    if "Comment" in itemtype:
        return True
    return _is_comment_name(names, tokens)


def _is_comment_name(names: str, tokens: frozenset[str] = COMMENT_TOKENS) -> bool:
    return bool(names) and not tokens.isdisjoint(name_words(names))


def named_comment_nodes(stats: DomStats, roots: tuple[int, ...]) -> set[int]:
    """Outermost nodes inside ``roots`` whose markup names them as comments."""
    return outermost(stats, [*named_by_class(stats, roots), *microdata_comments(stats, roots)])


def microdata_comments(stats: DomStats, roots: tuple[int, ...]) -> list[int]:
    positions = stats.positions
    return [
        positions[attribute.getparent()]
        for root in roots
        for attribute in _COMMENT_MICRODATA_XPATH(stats.nodes[root])
    ]


def named_by_class(
    stats: DomStats,
    roots: tuple[int, ...],
    stems: re.Pattern[str] = _COMMENT_STEM_RE,
    tokens: frozenset[str] = COMMENT_TOKENS,
    modifiers: bool = True,
) -> list[int]:
    """Outermost sections inside ``roots`` whose ``class`` or ``id`` holds one of
    ``tokens`` (without ``modifiers``: not in a BEM modifier, ``card--has-reviews``)."""
    named: list[int] = []
    tags, words, nodes, end = stats.tags, stats.words, stats.nodes, stats.end
    verdicts: dict[str, bool] = {}  # class and id values repeat: decide each once
    for root in roots:
        sections = [
            node
            for node in range(root + 1, end[root])
            if words[node] >= _MIN_SECTION_WORDS and tags[node] not in INLINE_TAGS
        ]
        covered_until = -1  # the end of the last named section: the outermost one is enough
        for node in sections:
            if node >= covered_until:
                element = nodes[node]
                if _names_comment(element.get("class"), verdicts, stems, tokens, modifiers) or _names_comment(
                    element.get("id"), verdicts, stems, tokens, modifiers
                ):
                    named.append(node)
                    covered_until = end[node]
    return named


def outermost(stats: DomStats, nodes: list[int]) -> set[int]:
    found: set[int] = set()
    covered_until = -1
    for node in sorted(nodes):
        if node >= covered_until:
            found.add(node)
            covered_until = stats.end[node]
    return found


def _names_comment(
    name: str | None,
    verdicts: dict[str, bool],
    stems: re.Pattern[str],
    tokens: frozenset[str],
    modifiers: bool,
) -> bool:
    if not name:
        return False
    verdict = verdicts.get(name)
    if verdict is None:
        read = name
        if not modifiers and "--" in name:
            read = " ".join(part.split("--")[0] for part in name.split())
        verdict = verdicts[name] = bool(stems.search(read)) and _is_comment_name(read, tokens)
    return verdict
