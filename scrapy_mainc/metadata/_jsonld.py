"""The page's own article among its JSON-LD objects, and plain values out of JSON-LD."""

from __future__ import annotations

from typing import Any

from ._evidence import jsonld_types

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
    stories = [obj for obj in objects if ARTICLE_TYPES.intersection(jsonld_types(obj))]
    strong = [obj for obj in stories if not _WEAK_TYPES.issuperset(jsonld_types(obj))]
    candidates = strong or stories
    if len(candidates) <= 1:
        return candidates[0] if candidates else None
    wanted_urls = {_url_key(url) for url in urls}
    wanted_headlines = {" ".join(headline.split()).lower() for headline in headlines}
    for obj in candidates:
        if (
            _url_key(text_of(obj.get("url"))) in wanted_urls
            or _url_key(text_of(obj.get("mainEntityOfPage"))) in wanted_urls
        ):
            return obj
    for obj in candidates:
        if " ".join(text_of(obj.get("headline")).split()).lower() in wanted_headlines:
            return obj
    return candidates[0]


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


def _url_key(url: str) -> str:
    """``url`` compared without scheme, ``www.``, query, fragment and trailing slash."""
    if not url:
        return "\0"  # matches nothing
    url = url.split("#", 1)[0].split("?", 1)[0]
    url = url.split("://", 1)[-1]
    return url.removeprefix("www.").rstrip("/").lower()
