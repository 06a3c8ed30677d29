"""Publication and modification dates of a page, and where each came from.

Evidence, from most to least trusted (every value must be *plausible*: not before 1995,
not after the day after the fetch, or after ``today`` without a fetch time); each level
names itself in :attr:`FoundDates.published_from` (:data:`SOURCES`):

1. ``json-ld``: JSON-LD of the page's own article (``datePublished``, else
   ``dateCreated``; ``dateModified``); a page object (``WebPage``) when the article gives
   no date; any dated object when the page has no article at all. Of several stories, one
   that is not this page's (by URL or headline) gives no date: the page lists them.
2. ``microdata``: ``itemprop="datePublished"`` in the body (``datetime``, ``content`` or
   text), nearest the headline first.
3. ``meta``: OpenGraph ``article:*``, schema.org ``<meta itemprop>``, Parse.ly, Sailthru,
   cXense, Dublin Core, ``citation_*`` and the other names in :data:`PUBLISHED_META`; then
   ``parsely-page`` JSON. A generic name alone (``<meta name="date">``, :data:`GENERIC_META`)
   is checked against the dateline, which wins when it shows a date.
4. ``dateline``: what the reader sees near the headline (:mod:`._dateline`): ``<time>``
   elements and written datelines in many languages, not dates inside sentences or a list
   of teasers'; relative dates ("3 hours ago") only against the fetch time.
5. ``url``: ``/2023/12/22/``, ``/20231222/`` (a month alone is no date).

The markup's first claim is the publication date, except where the page contradicts it
(:func:`_reconcile`): the dateline shows the day of another of the markup's claims and not
the first's, or the first is a UTC time one day from the day shown (the day counts in the
page's own time zone), or the dateline shows the first claim's moment told in another zone.
The dateline is read only when the markup has no date, disagrees with itself, gives a
UTC time or one without offset, or dates the page by a generic meta name alone (then the
dateline wins); otherwise only the markup is read. ``modified`` comes from
the markup, else from a visible "Updated ..." date; when it is earlier than ``published``
the page contradicts itself and ``modified`` is dropped (``published`` is the
better-attested claim).

Written here rather than taken from htmldate, which accepts an lxml tree: measured with
``benchmarks/quality/metadata.py`` in one run (2026-11-25), htmldate 1.11.0 with
``original_date=True`` reaches 0.876 (fast) and 0.913 (extensive) exact-day accuracy on the
460-page dates set against 0.933 here, 0.856 / 0.820 on the hand-annotated gold of
scrapinghub and zh_news against 0.960 (0.739 / 0.580 against 0.942 on zh_news alone), and
0.869 on the newspaper4k half (by RULES.md) against 0.930. Its time is no obstacle when it
is handed a tree (median 0.15 ms a page in both modes, 1.25 / 1.36 ms with its own parse,
against 0.15 ms for :func:`find_dates`; 2026-11-23), the accuracy is.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date, datetime, timedelta, timezone
from typing import TYPE_CHECKING, Any, NamedTuple

from ..core._datetext import parse_machine_date, url_date
from ..core._evidence import jsonld_types, load_json
from ..core._title import shows_headline
from ._dateline import PageDates, page_dates
from ._jsonld import ARTICLE_TYPES, _url_key, text_of

if TYPE_CHECKING:
    from ..core._evidence import Evidence
    from ..core._types import Document

#: JSON-LD types of a story (not of a page or a medium).
_STORY_TYPES = ARTICLE_TYPES - {"WebPage", "Blog", "MediaObject", "VideoObject"}
#: Windows read to check the markup's date against the page (around the headline and the
#: first <h1>): the later ones, reaching further, are for pages without markup.
NEAR_WINDOWS = 2
#: No web page was published before this day.
EARLIEST = "1995-01-01"

#: Meta names and properties (lower-case) that state the publication date, best first:
#: OpenGraph and its variants, schema.org microdata in ``<meta itemprop>``, news-platform
#: names (Parse.ly, Sailthru, cXense, Outbrain, Shareaholic...), Dublin Core, Highwire
#: ``citation_*`` and PRISM, then generic names.
PUBLISHED_META = (
    "article:published_time", "og:article:published_time", "article:published",
    "og:published_time", "article:published_date", "date:published_time", "datepublished",
    "parsely-pub-date", "sailthru.date", "cxenseparse:recs:publishtime", "cxenseparse:publishtime",
    "bt:pubdate", "shareaholic:article_published_time", "outbrain-date", "og:release_date",
    "dc.date.issued", "dcterms.issued", "dc.date.created", "dcterms.created", "dc.date",
    "dcterms.date", "citation_publication_date", "citation_online_date", "citation_date",
    "prism.publicationdate", "datecreated", "article.published", "published_time",
    "publish_date", "publish-date", "publishdate", "publication_date", "pubdate", "pub_date",
    "date", "created", "release_date", "original-publish-date", "og:pubdate",
)  # fmt: skip
#: Meta names that say "date" and no more. Many content systems write into them when the
#: page was generated or last saved: on a page whose markup has no other publication date,
#: a dateline near the headline showing another day is the page's. On the ``dates`` set 4
#: pages date themselves by such a name alone and show a dateline; on one, the meta is five
#: days after the article's ``<time>`` (the gold's day), on the other three they agree.
GENERIC_META = ("date", "created", "dc.date", "dcterms.date")
#: Meta names and properties that state the last modification.
MODIFIED_META = (
    "article:modified_time", "og:article:modified_time", "article:modified", "article:updated_time",
    "og:updated_time", "article:modified_date", "datemodified", "bt:moddate",
    "shareaholic:article_modified_time", "dc.date.modified", "dcterms.modified", "modified",
    "last_updated_date", "last-updated", "dateupdate", "updated", "revision_date",
)  # fmt: skip


class FoundDates(NamedTuple):
    """The page's dates and where each came from (:data:`SOURCES`, ``""`` with no date)."""

    published: str = ""
    modified: str = ""
    published_from: str = ""
    modified_from: str = ""


#: The levels of evidence a date comes from, most trusted first.
SOURCES = ("json-ld", "microdata", "meta", "dateline", "url")
#: A claim: (ISO value, source).
Claim = tuple[str, str]


def find_dates(
    document: Document, today: date | None = None, shown: int | None = None, fetched: datetime | None = None
) -> FoundDates:
    """The page's publication and modification dates, ISO 8601 (``""`` when unknown), and
    where each came from.

    ``fetched`` (when the page was fetched: :func:`._relative.fetched_moment`) bounds
    plausible dates (none after its next day) and dates relative dates ("3 hours ago")
    and days without a year; without it they are not read, and ``today`` (default the
    local date) bounds plausible dates. ``shown`` is :func:`._windows.shown_headline`
    when the caller has it already.
    """
    if fetched is not None:
        today = fetched.date()
    latest = ((today or date.today()) + timedelta(days=1)).isoformat()

    def plausible(value: str) -> bool:
        return EARLIEST <= value[:10] <= latest

    evidence = document.evidence
    published: list[Claim] = []
    modified: list[Claim] = []
    for source, name in ((_jsonld_dates, "json-ld"), (_microdata_dates, "microdata"), (_meta_dates, "meta")):
        claims = source(document, evidence)
        published += [(value, name) for value in _parsed(claims[0], plausible)]
        modified += [(value, name) for value in _parsed(claims[1], plausible)]
    generic = _generic_only(published, evidence)
    page = PageDates()
    if generic or _needs_page(published, modified):
        tries = NEAR_WINDOWS if published else 6
        page = page_dates(document, plausible, tries, shown, fetched)
    # a date read against the fetch time dates a page whose markup gives none, and never
    # contradicts the markup (its day is the fetch's, not one the page shows)
    visible: Claim = ("", "dateline") if page.relative and published else (page.published, "dateline")
    if not visible[0]:
        urls = _page_urls(document, evidence)
        visible = (next(iter(_parsed([url_date(url) for url in urls], plausible)), ""), "url")
    dateline = visible[0] and visible[1] == "dateline"
    chosen = visible if generic and dateline else _reconcile(published, visible, page.days)
    if not chosen[0] and page.modified:
        chosen = (page.modified, "dateline")  # the page shows nothing but its update
    last = modified[0] if modified else (page.modified, "dateline")
    if not last[0] or not chosen[0] or _earlier(last[0], chosen[0]):
        last = ("", "")
    return FoundDates(chosen[0], last[0], chosen[1] if chosen[0] else "", last[1])


def _generic_only(published: list[Claim], evidence: Evidence | None) -> bool:
    """Whether the markup dates the page only by a generic meta name (:data:`GENERIC_META`),
    which a dateline near the headline overrides."""
    if evidence is None or not published or any(source != "meta" for _, source in published):
        return False
    meta = evidence.meta
    return not any(meta.get(name) for name in (*PUBLISHED_META, "parsely-page") if name not in GENERIC_META)


def _parsed(values: list[str], plausible: Callable[[str], bool]) -> list[str]:
    """The values that read as plausible dates, as ISO 8601, in order."""
    parsed = [parse_machine_date(value) for value in values if value]
    return [value for value in parsed if value and plausible(value)]


def _needs_page(published: list[Claim], modified: list[Claim]) -> bool:
    """Whether the visible dateline is read: when the markup gives no publication date,
    dates that disagree, or a time in UTC or without offset (whose day may not be the
    page's own)."""
    if not published:
        return True
    first = published[0][0]
    if len(first) > 10 and (len(first) == 19 or first.endswith("+00:00")):
        return True
    return any(value[:10] != first[:10] for value, _ in (*published, *modified))


def _reconcile(published: list[Claim], shown: Claim, days: frozenset[str]) -> Claim:
    """The publication date from the markup's claims (best first) and the date the page
    shows as its publication (the dateline, else the URL's date).

    - No markup claim: the shown date.
    - The markup's first claim, unless the page's dateline is the day of another of its
      claims of publication and no dateline near the headline shows the first claim's day
      (``days``; a claim of modification does not count: a page that shows only its
      update date is still dated by its publication), or the first claim is a time one
      day from the day shown (a time zone apart: the page's own day counts).
    """
    if not published:
        return shown
    first = published[0]
    day = shown[0][:10]
    if not day or day == first[0][:10] or first[0][:10] in days:
        return first
    for claim in published:
        if claim[0][:10] == day:
            return claim
    if _in_other_zone(first[0], day) or _same_moment(first[0], shown[0]):
        return shown
    return first


def _same_moment(value: str, shown: str) -> bool:
    """Whether a dateline's time without offset (``2023-12-19T03:57:00``) is the markup's
    time with offset (``2023-12-18T22:57:00-05:00``) told in another zone (a whole number of
    quarter hours from UTC-12 to UTC+14 apart from UTC): the same moment, whose day the
    page shows."""
    if len(value) <= 19 or len(shown) != 19 or value[10:19] == "T00:00:00":
        return False
    try:
        moment = datetime.fromisoformat(value).astimezone(timezone.utc).replace(tzinfo=None)
        minutes = (datetime.fromisoformat(shown) - moment).total_seconds() / 60
    except ValueError:
        return False
    return minutes % 15 == 0 and -12 * 60 <= minutes <= 14 * 60


def _in_other_zone(value: str, day: str) -> bool:
    """Whether time ``value`` may fall on ``day``, one day off, in the page's own time zone:
    a UTC time when some zone (UTC-12 to UTC+14) puts it there (2020-05-02T02:54:29+00:00
    is 1 May in New York), a time without offset always. A time with another offset
    states its own zone."""
    if len(value) <= 10 or value[10:19] == "T00:00:00":
        return False  # a date, or a date given as its midnight
    days = (date.fromisoformat(day) - date.fromisoformat(value[:10])).days
    if len(value) == 19:
        return abs(days) == 1
    if not value.endswith("+00:00"):
        return False
    hour = int(value[11:13])
    return (days == -1 and hour < 12) or (days == 1 and hour >= 10)


def _earlier(first: str, second: str) -> bool:
    """Whether ISO value ``first`` is before ``second``: as moments when both have an
    offset, else by their common precision (``2023-12-22`` is not before ``...T10:00``)."""
    if len(first) > 19 and len(second) > 19:
        return datetime.fromisoformat(first) < datetime.fromisoformat(second)
    common = min(len(first), len(second), 19)
    return first[:common] < second[:common]


def _jsonld_dates(document: Document, evidence: Evidence | None) -> tuple[list[str], list[str]]:
    """Dates of the page's article; of a page object when the article has none; of any
    dated object when the page has no article (other articles are other stories)."""
    article = document.article
    objects = evidence.jsonld if evidence else []
    if article is not None and not _names_page(article, objects, document):
        return [], []  # a list of stories (a home page's), none of them this page
    if article is not None:
        chosen = [article, *(obj for obj in objects if "WebPage" in jsonld_types(obj))]
    else:
        chosen = [obj for obj in objects if "datePublished" in obj or "dateCreated" in obj][:1]
    published: list[str] = []
    modified: list[str] = []
    for obj in chosen:
        published += [_jsonld_text(obj.get(key)) for key in ("datePublished", "dateCreated", "uploadDate")]
        modified.append(_jsonld_text(obj.get("dateModified")))
    return published, modified


def _names_page(article: dict[str, Any], objects: list[dict[str, Any]], document: Document) -> bool:
    """Whether the JSON-LD article is this page's: the only story, or the one whose URL
    or headline is the page's (:func:`main_article` falls back to the first of several)."""
    stories = [obj for obj in objects if _STORY_TYPES.intersection(jsonld_types(obj))]
    if len(stories) <= 1:
        return True
    urls = {_url_key(url) for url in document.urls}
    if (
        _url_key(text_of(article.get("url"))) in urls
        or _url_key(text_of(article.get("mainEntityOfPage"))) in urls
    ):
        return True
    headline = text_of(article.get("headline"))
    return any(shows_headline(headline, page_headline) for page_headline in document.headlines)


def _jsonld_text(value: Any) -> str:
    return text_of(value) if value is not None else ""


def _microdata_dates(document: Document, evidence: Evidence | None) -> tuple[list[str], list[str]]:
    """``itemprop`` dates in the body (``<meta itemprop>`` is a meta), nearest to the
    headline first, in elements, doubled above it (teasers of other stories carry their
    own ``datePublished``)."""
    published: list[tuple[int, str]] = []
    modified: list[tuple[int, str]] = []
    headline, positions = document.headline, document.stats.positions
    for prop, element in document.itemprops:
        if prop in ("datepublished", "datecreated", "datemodified"):
            position = positions.get(element, 0) - headline
            distance = (position if position >= 0 else -2 * position) if headline >= 0 else 0
            claims = modified if prop == "datemodified" else published
            claims.append((distance, _element_value(element)))
    published.sort(key=lambda claim: claim[0])  # stable: document order among equals
    modified.sort(key=lambda claim: claim[0])
    return [value for _, value in published], [value for _, value in modified]


def _element_value(element: Any) -> str:
    """The machine value of a microdata element, else the start of its text."""
    value = element.get("datetime") or element.get("content") or element.get("value")
    if value:
        return str(value)
    text = element.text or ""
    if len(text) < 80:
        for piece in element.itertext():
            text += piece
            if len(text) >= 80:
                break
    return " ".join(text[:80].split())


def _meta_dates(document: Document, evidence: Evidence | None) -> tuple[list[str], list[str]]:
    if evidence is None:
        return [], []
    meta = evidence.meta
    published = [value for name in PUBLISHED_META for value in meta.get(name, ())]
    modified = [value for name in MODIFIED_META for value in meta.get(name, ())]
    for value in meta.get("parsely-page", ()):
        published.append(_parsely_date(value))
    return published, modified


def _parsely_date(value: str) -> str:
    """``pub_date`` of Parse.ly's ``parsely-page`` meta (a JSON object)."""
    data = load_json(value)
    return str(data.get("pub_date") or "") if isinstance(data, dict) else ""


def _page_urls(document: Document, evidence: Evidence | None) -> list[str]:
    """The URL the page was fetched from, then its canonical and OpenGraph URLs."""
    urls = list(document.urls)
    if evidence is not None:
        urls += evidence.links.get("canonical", [])[:1] + evidence.meta.get("og:url", [])[:1]
    return urls
