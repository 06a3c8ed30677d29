"""Typed records passed between the stages of an extraction, and its results
(:class:`Extraction`, with the page's :class:`Metadata`)."""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from lxml import etree

    from ._evidence import Evidence
    from ._stats import DomStats


@dataclass(frozen=True, slots=True)
class Metadata:
    """What a page says about its article, beside the text: every field empty when unknown.

    Dates are ISO 8601: ``2023-12-22``, or ``2023-12-22T10:30:00+08:00`` when the page
    gives a time with its offset (``2023-12-22T10:30:00`` when it gives no offset).
    """

    #: Original publication date (not a copyright year, a crawl date or a comment's date).
    published: str = ""
    #: Date of the last modification, never earlier than ``published``.
    modified: str = ""
    #: Where ``published`` came from, most trusted first: ``json-ld`` (the page's article
    #: object), ``microdata`` (``itemprop`` in the body), ``meta`` (meta names such as
    #: ``article:published_time``), ``dateline`` (a date the reader sees by the headline),
    #: ``url`` (a day in the page's URL); ``""`` without a date.
    published_from: str = ""
    #: Where ``modified`` came from, as ``published_from``.
    modified_from: str = ""
    #: Person names, in page order, without "By", job titles, e-mail addresses or URLs.
    authors: tuple[str, ...] = ()
    #: Name of the publication (``og:site_name``, the JSON-LD publisher...).
    site_name: str = ""
    #: Absolute canonical URL of the article.
    canonical_url: str = ""
    #: The page's summary of the article.
    description: str = ""
    #: Absolute URL of the lead image.
    image: str = ""
    #: Section of the publication the article is in.
    section: str = ""
    #: Keywords and tags, in page order, without duplicates.
    tags: tuple[str, ...] = ()

    def as_dict(self) -> dict[str, object]:
        """The fields as a plain dict (tuples as lists), for JSON and items."""
        return {
            name: list(value) if isinstance(value, tuple) else value
            for name in (item.name for item in fields(self))
            for value in (getattr(self, name),)
        }


@dataclass(frozen=True, slots=True)
class Extraction:
    """The main content of one page, as returned by :func:`scrapy_mainc.extract`."""

    #: Clean plain text of the main content: one block per line, whitespace normalised, no
    #: control characters.
    text: str = ""
    #: The main content as an HTML fragment, safe to index and to show: structure kept;
    #: allowed elements and attributes only (no script, style, iframe, object, embed,
    #: portal, form, form-control, ``plaintext`` or custom elements; no ``on*``, ``data-*``
    #: or framework attributes), no URL whose scheme is not http, https or mailto as read
    #: or as emitted (``javascript:``, ``vbscript:``, ``data:`` are dropped), no ``style``
    #: with ``expression()``, ``behavior``, ``-moz-binding`` or such a ``url()``, no HTML
    #: comments, no reader-comment sections. With a page ``url`` (or a ``<base href>``),
    #: relative URLs are made absolute.
    html: str = ""
    #: The main content as Markdown (with ``extract(markdown=True)``, else ``""``): headings,
    #: paragraphs, lists, block quotes, fenced code, GFM tables, emphasis, links and image
    #: alt text, no HTML; the words of ``text``, no others (image descriptions aside); text
    #: escaped and URLs checked as in ``html``.
    markdown: str = ""
    #: The page's headline (``<h1>`` matching the title, ``og:title`` or ``<title>``).
    title: str = ""
    #: Name of the algorithm that produced this result.
    algorithm: str = ""
    #: XPath of the chosen node, or a union (``a | b``) of the chosen nodes.
    xpath: str = ""
    #: The algorithm's score of its choice (its own scale; for explanation only).
    score: float = 0.0
    #: Language of ``text``, an ISO 639-1 code (``en``, ``de``, ``zh``...): identified from
    #: the text when the identifier is installed (the ``lang`` extra: CLD2), else the
    #: script of CJK text (``zh``, ``ja``, ``ko``) or the language the page declares
    #: (``<html lang>``, primary subtag); ``""`` when none of them says.
    lang: str = ""
    #: Why ``text`` is empty, when it is; ``""`` otherwise.
    reason: str = ""
    #: True when the page is an article, not a home page, section front or list of
    #: teasers: its main text has 30 words, or 15 and its markup says it is an article
    #: (:mod:`scrapy_mainc.core._article`).
    article: bool = False
    #: The page's type: ``article``, ``forum``, ``listing``, ``collection``, ``product``,
    #: ``documentation`` or ``service`` (:mod:`scrapy_mainc.core._pagetype`; WCXB's
    #: types), decided from the page before the content is chosen; the choice follows it.
    page_type: str = ""
    #: How good ``text`` likely is, 0 to 1: its expected word F1 against a human's choice of
    #: the page's main content, estimated from what the extraction shows
    #: (:mod:`scrapy_mainc.core._quality_model`); for an empty text, how likely the page
    #: has no main content at all. 0 for a page that was refused before parsing (not
    #: HTML, too large).
    quality: float = 0.0
    #: Wall time of the extraction, decoding and parsing included.
    milliseconds: float = 0.0
    #: Publication date, authors and the page's other metadata (empty with ``metadata=False``).
    metadata: Metadata = field(default_factory=Metadata)

    @property
    def parsed(self) -> bool:
        """Whether the page was parsed: False for one refused before (not HTML, empty, too
        large: ``reason`` says), which has no page type, no text and quality 0."""
        return bool(self.page_type)


@dataclass(frozen=True, slots=True)
class OutputOptions:
    """What the outputs keep (the ``tables``, ``links``, ``images``, ``formatting`` and
    ``markdown`` keywords of :func:`scrapy_mainc.extract`)."""

    #: Keep data tables (``False``: left out of every output; layout tables holding the
    #: content are structure, and stay: :mod:`scrapy_mainc.core._tables`).
    tables: bool = True
    #: Keep links in ``html`` and ``markdown`` (``False``: their text stays, as text).
    links: bool = True
    #: Keep images in ``html`` and ``markdown``.
    images: bool = True
    #: Keep emphasis, code and the other phrasing markup (``FORMATTING_TAGS``) in ``html``
    #: and ``markdown`` (``False``: their text stays, as text).
    formatting: bool = True
    #: Render ``Extraction.markdown``.
    markdown: bool = False


@dataclass(frozen=True, slots=True)
class PageType:
    """The page's type (:data:`scrapy_mainc.core._pagetype.PAGE_TYPES`) and how sure the
    model is (its probability, 0 to 1)."""

    name: str = "article"
    confidence: float = 0.0
    #: Each type's probability by the full model (in :data:`PAGE_TYPES` order), when the
    #: page took it (not the pages the quick model settles): the second look reads them.
    probabilities: tuple[float, ...] = ()


@dataclass(frozen=True, slots=True)
class Document:
    """A prepared page: the private analysis tree, its statistics and page-level facts."""

    root: etree._Element  #: analysis root (``<body>``) of a private tree
    stats: DomStats
    title: str = ""
    #: Script guess from the page's text: ``zh``, ``ja``, ``ko`` or ``""``.
    lang: str = ""
    url: str | None = None
    #: Elements the page marks as its article body (``itemprop="articleBody"``).
    article_bodies: tuple[etree._Element, ...] = ()
    #: Every headline string the page states, best first (``title``, ``og:title``,
    #: ``<title>`` without the site name). Sources say which story the page is about;
    #: more of them (a JSON-LD ``headline``) are simply appended.
    headlines: tuple[str, ...] = ()
    #: URLs the page is known by (the URL it was fetched from; a canonical URL is one
    #: more). Their paths' slugs are headline words too.
    urls: tuple[str, ...] = ()
    #: Index of the heading element that shows ``title`` (NCE's title search), or -1.
    headline: int = -1
    #: What the page's relative URLs are relative to (``<base href>`` or ``url``).
    base_url: str | None = None
    #: Meta tags, link relations and JSON-LD of the page, read before preparation.
    evidence: Evidence | None = None
    #: Microdata in the analysis tree: (lower-cased ``itemprop`` token, element), in order.
    itemprops: tuple[tuple[str, etree._Element], ...] = ()
    #: schema.org types the body's ``itemtype`` attributes name, in order (``Product``).
    itemtypes: tuple[str, ...] = ()
    #: The JSON-LD object of the page's own article (:func:`metadata.main_article`), if any.
    article: dict[str, Any] | None = None
    #: The language the root element declares (``<html lang>``), primary subtag, lower case.
    declared_lang: str = ""
    #: The page's type, decided once from the statistics (:mod:`._pagetype`).
    page_type: PageType = field(default_factory=PageType)


@dataclass(frozen=True, slots=True)
class Selection:
    """What an algorithm chose, in terms of :class:`DomStats` node indices."""

    #: Roots of the chosen subtrees, in document order, none inside another.
    nodes: tuple[int, ...] = ()
    #: Score of the choice, on the algorithm's own scale.
    score: float = 0.0
    #: Threshold the algorithm decided with, where it has one.
    threshold: float | None = None
    #: Roots of subtrees inside ``nodes`` that are not content (pruned noise, comments).
    excluded: frozenset[int] = field(default_factory=frozenset)
    #: Why nothing was chosen, when ``nodes`` is empty.
    reason: str = ""
