"""The page's own article among its JSON-LD objects, and plain values out of JSON-LD."""

from __future__ import annotations

from html import unescape
from typing import Any

from ..core._evidence import jsonld_types
from ..core._title import shows_headline

#: schema.org types of a news or blog article (``CreativeWork`` subtypes pages use for one).
ARTICLE_TYPES = frozenset(
    {
        "Article", "NewsArticle", "ReportageNewsArticle", "AnalysisNewsArticle",
        "OpinionNewsArticle", "BackgroundNewsArticle", "ReviewNewsArticle", "BlogPosting",
        "LiveBlogPosting", "SocialMediaPosting", "TechArticle", "ScholarlyArticle", "Report",
        "Review", "CriticReview", "WebPage", "Blog", "MediaObject", "VideoObject",
    }
)  # fmt: skip
#: Of ``ARTICLE_TYPES``, those that describe a page or a medium rather than a story: used
#: only when no story type is there.
_WEAK_TYPES = frozenset({"WebPage", "Blog", "MediaObject", "VideoObject"})


def main_article(
    objects: list[dict[str, Any]], urls: tuple[str, ...], headlines: tuple[str, ...]
) -> dict[str, Any] | None:
    """The JSON-LD object that describes the page's own story, or ``None``.

    Story types win over page types; among several stories (a feed, related stories), the
    one whose ``url``/``mainEntityOfPage`` is one of ``urls`` or whose ``headline`` is one
    of ``headlines``, else the first.
    """
    candidates = _story_candidates(objects)
    if len(candidates) <= 1:
        return candidates[0] if candidates else None
    return _matching(candidates, urls, headlines) or candidates[0]


#: schema.org types of the opening post of a forum thread or of a Q&A page's question.
POSTING_TYPES = frozenset({"DiscussionForumPosting", "Question"})


def thread_posting(objects: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The opening post of a forum or Q&A thread among the page's JSON-LD objects: the first
    object of a posting type, or the first ``mainEntity`` of that type of one of them (a
    ``QAPage``'s ``Question``, a ``WebPage``'s ``DiscussionForumPosting``); ``None``."""
    for obj in objects:
        entity = obj.get("mainEntity")
        if isinstance(entity, list):
            entity = next((item for item in entity if isinstance(item, dict)), None)
        for candidate in (obj, entity):
            if isinstance(candidate, dict) and POSTING_TYPES.intersection(jsonld_types(candidate)):
                return candidate
    return None


def names_page(
    article: dict[str, Any] | None,
    objects: list[dict[str, Any]],
    urls: tuple[str, ...],
    headlines: tuple[str, ...],
) -> bool:
    """Whether ``article`` (:func:`main_article`'s choice) is known to be the page's own:
    the only story, or the one that matched the page's URL or headline (not the first of
    several by default)."""
    if article is None:
        return False
    candidates = _story_candidates(objects)
    return len(candidates) <= 1 or _matching(candidates, urls, headlines) is article


def _story_candidates(objects: list[dict[str, Any]]) -> list[dict[str, Any]]:
    stories = [obj for obj in objects if ARTICLE_TYPES.intersection(jsonld_types(obj))]
    strong = [obj for obj in stories if not _WEAK_TYPES.issuperset(jsonld_types(obj))]
    return strong or stories


def _matching(
    candidates: list[dict[str, Any]], urls: tuple[str, ...], headlines: tuple[str, ...]
) -> dict[str, Any] | None:
    wanted_urls = {_url_key(url) for url in urls}
    for obj in candidates:
        if (
            _url_key(text_of(obj.get("url"))) in wanted_urls
            or _url_key(text_of(obj.get("mainEntityOfPage"))) in wanted_urls
        ):
            return obj
    for obj in candidates:
        headline = text_of(obj.get("headline"))
        if any(shows_headline(headline, wanted) for wanted in headlines):
            return obj
    return None


def text_of(value: Any) -> str:
    """A JSON-LD value as one string: a string, the first of a list, or an object's ``@id``,
    ``url``, ``name`` or ``@value``; ``""`` otherwise."""
    if isinstance(value, list):
        value = next((item for item in value if item), None)
    if isinstance(value, dict):
        value = value.get("@id") or value.get("url") or value.get("name") or value.get("@value")
        if isinstance(value, (list, dict)):
            return text_of(value)
    if isinstance(value, (str, int, float)) and not isinstance(value, bool):
        return " ".join(str(value).split())
    return ""


def plain_text(text: str) -> str:
    """JSON-LD text with its HTML entities decoded (CMSs often escape it twice), whitespace
    normalised."""
    return " ".join(unescape(text).split()) if "&" in text else text


def _url_key(url: str) -> str:
    """``url`` compared without scheme, ``www.``, query, fragment and trailing slash."""
    if not url:
        return "\0"  # matches nothing
    url = url.split("#", 1)[0].split("?", 1)[0]
    url = url.split("://", 1)[-1]
    return url.removeprefix("www.").rstrip("/").lower()


#: schema.org types of organisations (an author of one of these types is not a person).
ORGANISATION_TYPES = frozenset(
    {
        "Organization", "NewsMediaOrganization", "Corporation", "GovernmentOrganization",
        "EducationalOrganization", "NGO", "LocalBusiness", "OnlineBusiness", "Brand",
        "WebSite", "MediaOrganization", "PerformingGroup", "SportsOrganization",
    }
)  # fmt: skip
_ORGANISATION_KEYS = frozenset(kind.lower() for kind in ORGANISATION_TYPES)
#: Deepest nesting of author lists and ``@id`` references followed.
_MAX_CREDIT_DEPTH = 3


#: What a JSON-LD credit's ``@type`` says it is.
PERSON, ORGANISATION, UNTYPED = "person", "organisation", ""


def credits(value: Any, objects: list[dict[str, Any]]) -> list[tuple[str, str]]:
    """The ``(name, kind)`` pairs of a JSON-LD ``author`` or ``creator`` value (``kind``:
    :data:`PERSON` or :data:`ORGANISATION` by its ``@type``, else :data:`UNTYPED`): a
    string, an object with a ``name``, a list of either, or a reference by ``@id`` to a
    ``Person`` elsewhere on the page (``@graph`` members, other scripts)."""
    found: list[tuple[str, str]] = []
    _credits(value, objects, found, depth=0)
    return found


def _credits(value: Any, objects: list[dict[str, Any]], found: list[tuple[str, str]], depth: int) -> None:
    if depth > _MAX_CREDIT_DEPTH:
        return
    if isinstance(value, list):
        for item in value[:20]:
            _credits(item, objects, found, depth + 1)
    elif isinstance(value, str):
        found.append((" ".join(value.split()), UNTYPED))
    elif isinstance(value, dict):
        name = value.get("name")
        if name is None and "@id" in value:
            target = _by_id(objects, value["@id"])
            if target is not None and target is not value:
                _credits(target, objects, found, depth + 1)
            return
        types = jsonld_types(value) or _plain_types(value.get("type"))
        if isinstance(name, list):
            name = next((item for item in name if isinstance(item, str)), None)
        if isinstance(name, str) and name.strip():
            found.append((" ".join(name.split()), _kind(types)))


def _kind(types: tuple[str, ...]) -> str:
    if any(kind.lower() in _ORGANISATION_KEYS for kind in types):
        return ORGANISATION
    return PERSON if "Person" in types else UNTYPED


def _plain_types(value: Any) -> tuple[str, ...]:
    """``type`` without the ``@`` (a common mistake): its names, title-cased."""
    names = value if isinstance(value, list) else [value]
    return tuple(name[:1].upper() + name[1:] for name in names if isinstance(name, str))


def _by_id(objects: list[dict[str, Any]], identifier: Any) -> dict[str, Any] | None:
    if not isinstance(identifier, str):
        return None
    return next((obj for obj in objects if obj.get("@id") == identifier), None)
