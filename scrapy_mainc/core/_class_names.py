"""What a container's ``class`` and ``id`` say about it: boilerplate or article body.

Markup names are cheap structural evidence a crawler has for free. A name matches a word
when the word stands alone in it, delimited by spaces, hyphens, underscores, or a
camelCase boundary (``relatedStories`` and ``share-bar`` hold ``related`` and ``share``;
``sharedContent`` holds neither). *Not-content* words mark parts that are never article
text (captions, share bars, related links, cookie notices), *boilerplate* words mark page
regions that usually are not (navigation, sidebars, footers, widgets), and whole class
names such as ``article-body`` or ``entry-content`` mark the article body itself.
"""

from __future__ import annotations

import re
from enum import IntEnum


class NameClass(IntEnum):
    """Evidence from a container's name."""

    NONE = 0
    CONTENT = 1  #: named as the article body (``article-body``, ``itemprop=articleBody``)
    BOILERPLATE = 2  #: named as a page region that is usually not content
    NOT_CONTENT = 3  #: named as something that is never article text


#: (``cta``: a call to action, the box that asks the reader to subscribe, donate or send
#: a tip.)
NOT_CONTENT_TOKENS = frozenset(
    """caption captions credit credits figcaption cookie cookies consent gdpr newsletter
    subscribe subscription share sharing social socials related promo promotion advert
    advertisement advertising sponsor sponsored outbrain taboola breadcrumb breadcrumbs
    byline dateline timestamp copyright disclaimer bio cta""".split()
)
BOILERPLATE_TOKENS = frozenset(
    """nav navbar navigation menu footer sidebar side aside ad ads banner tags taglist
    popular trending mostread recommended recommendations popup modal widget widgets
    masthead topbar toolbar pagination pager signup login meta""".split()
)
#: Words of a social network's post embedded in a story (``social-media-embed``): what
#: would otherwise be a share bar is a quotation the story makes.
EMBED_TOKENS = frozenset({"embed", "embedded"})
SOCIAL_TOKENS = frozenset({"social", "socials"})
#: Whole class names (separators removed) of article-body containers.
CONTENT_NAMES = frozenset(
    """article articlebody articlecontent articletext story storybody storycontent
    entrycontent postcontent postbody contentbody maincontent bodytext textbody""".split()
)
#: Beginnings of class names (separators removed) of promotions of other pages.
NOT_CONTENT_PREFIXES = ("readmore", "readalso", "alsoread", "seealso", "moreon", "morefrom")


#: Words of a name: lowercase runs with an optional capital (camelCase parts) or
#: all-capital runs; digits and punctuation separate them.
_WORD_RE = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])")
_NOT_CONTENT_PREFIX_RE = re.compile(f"(?:^|\\s)(?:{'|'.join(NOT_CONTENT_PREFIXES)})")


def name_words(names: str) -> set[str]:
    """The lowercased words of class/id names (``relatedStories-2`` -> related, stories)."""
    lowered = names.lower()
    if lowered == names:  # no camelCase: splitting at the usual separators is enough (and fast)
        return set(lowered.replace("-", " ").replace("_", " ").split())
    return set(" ".join(_WORD_RE.findall(names)).lower().split())


def _bem_blocks(names: str) -> set[str]:
    """The names without their BEM modifiers (``article__body--wide`` -> ``articlebody``)."""
    return {name.split("--")[0].lower().replace("-", "").replace("_", "") for name in names.split()}


def classify_names(names: str) -> NameClass:
    """Classify a container by its names (``id`` and ``class`` values joined by spaces)."""
    squeezed = names.lower().replace("-", "").replace("_", "")
    if not CONTENT_NAMES.isdisjoint(squeezed.split()):
        return NameClass.CONTENT
    if "--" in names and not CONTENT_NAMES.isdisjoint(_bem_blocks(names)):
        return NameClass.CONTENT  # a modifier of the article body ("article__body--cta")
    words = name_words(names)
    if not EMBED_TOKENS.isdisjoint(words):
        words -= SOCIAL_TOKENS  # an embedded post quoted by the story, not a share bar
    if not NOT_CONTENT_TOKENS.isdisjoint(words):
        return NameClass.NOT_CONTENT
    if ("read" in squeezed or "also" in squeezed or "more" in squeezed) and _NOT_CONTENT_PREFIX_RE.search(
        squeezed
    ):
        return NameClass.NOT_CONTENT
    if not BOILERPLATE_TOKENS.isdisjoint(words):
        return NameClass.BOILERPLATE
    return NameClass.NONE
