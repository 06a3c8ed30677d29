"""What a container's ``class`` and ``id`` say about it: boilerplate or article body.

Markup names are cheap structural evidence a crawler has for free. Names are split into
tokens (``relatedStories`` -> ``related``, ``stories``; ``share-bar`` -> ``share``, ``bar``)
and looked up in two lists of boilerplate words: *strong* names mark parts that are
never article text (captions, share bars, related links, cookie notices), *weak* names
mark page regions that usually are not (navigation, sidebars, footers, widgets).
"""

from __future__ import annotations

import re
from enum import IntEnum

from lxml import etree


class NameClass(IntEnum):
    """Evidence from a container's name."""

    NONE = 0
    CONTENT = 1  #: named as the article body (``article-body``, ``itemprop=articleBody``)
    BOILERPLATE = 2  #: named as a page region that is usually not content
    NOT_CONTENT = 3  #: named as something that is never article text


NOT_CONTENT_TOKENS = frozenset(
    """caption captions credit credits figcaption cookie cookies consent gdpr newsletter
    subscribe subscription share sharing social socials related promo promotion advert
    advertisement advertising sponsor sponsored outbrain taboola breadcrumb breadcrumbs
    byline dateline timestamp copyright disclaimer bio""".split()
)
BOILERPLATE_TOKENS = frozenset(
    """nav navbar navigation menu footer sidebar side aside ad ads banner tags taglist
    popular trending mostread recommended recommendations popup modal widget widgets
    masthead topbar toolbar pagination pager signup login meta""".split()
)
#: Compound names (separators removed) of article-body containers.
CONTENT_NAMES = frozenset(
    """article articlebody articlecontent articletext story storybody storycontent
    entrycontent postcontent postbody contentbody maincontent bodytext textbody""".split()
)
#: Compound names (separators removed) of parts that are never article text.
NOT_CONTENT_NAMES = frozenset({"readmore", "readalso", "alsoread", "seealso", "moreon", "morefrom"})
_ALL_TOKENS = NOT_CONTENT_TOKENS | BOILERPLATE_TOKENS | NOT_CONTENT_NAMES
#: One search over the lowercased names settles most elements before any splitting.
_MAY_MATCH_RE = re.compile(
    "|".join(sorted({token[:5] for token in _ALL_TOKENS | CONTENT_NAMES}, key=len, reverse=True))
)
_SPLIT_RE = re.compile(r"[^a-z0-9]+")
_CAMEL_RE = re.compile(r"(?<=[a-z])(?=[A-Z])")
_SEPARATORS_RE = re.compile(r"[-_]")


def classify_name(element: etree._Element) -> NameClass:
    """Classify ``element`` by its ``class``, ``id`` and ``itemprop`` attributes."""
    if element.get("itemprop") == "articleBody":
        return NameClass.CONTENT
    names = " ".join(value for value in (element.get("id"), element.get("class")) if value)
    return classify_names(names) if names else NameClass.NONE


def classify_names(names: str) -> NameClass:
    """Classify a container by its names (``id`` and ``class`` values joined by spaces)."""
    lowered = names.lower()
    if _MAY_MATCH_RE.search(lowered) is None:
        return NameClass.NONE
    compounds = {_SEPARATORS_RE.sub("", name) for name in lowered.split()}
    if compounds & CONTENT_NAMES:
        return NameClass.CONTENT
    if any(compound.startswith(prefix) for compound in compounds for prefix in NOT_CONTENT_NAMES):
        return NameClass.NOT_CONTENT
    tokens = set(_SPLIT_RE.split(_CAMEL_RE.sub("-", names).lower()))
    if tokens & NOT_CONTENT_TOKENS:
        return NameClass.NOT_CONTENT
    if tokens & BOILERPLATE_TOKENS:
        return NameClass.BOILERPLATE
    return NameClass.NONE
