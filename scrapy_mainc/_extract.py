"""The public entry points: ``extract`` (text or bytes) and ``extract_tree`` (an lxml tree).

An extraction reads as its stages: decode -> parse -> prepare -> statistics -> select
(the algorithm) -> strip comments -> metadata -> render text and HTML. This module
composes the layers below it (:mod:`.core`, :mod:`.algorithms`, :mod:`.metadata`); see
docs/development.md, "Layers".
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from datetime import datetime
from time import perf_counter
from typing import Any
from urllib.parse import urljoin
from xml.sax.saxutils import escape as xml_escape

from lxml import etree

from ._choice import ChoiceOptions, choose
from .algorithms import Algorithm, get_algorithm
from .algorithms._auto_params import favor_overrides
from .core._attributes import attributes_reason
from .core._comment_params import CommentParams
from .core._decode import MARKUP_RE, MARKUP_SCAN_CHARS, binary_reason, binary_text_reason, decode_html
from .core._dom import ParseError, copy_tree, parse_html, prepare
from .core._evidence import collect_evidence
from .core._lang import DECLARED_CJK_SHARE, guess_script
from .core._langid import identify_language
from .core._limits import MAX_ELEMENTS, MAX_PAGE_BYTES, elements_reason, too_large_reason
from .core._markdown import render_markdown
from .core._markup import escape, escape_line_start
from .core._pagetype import PAGE_TYPES, page_type
from .core._quality import quality_features
from .core._quality_model import estimate_quality
from .core._render import render_html
from .core._sanitize import URL_ENDS, usable_url
from .core._shown_title import visible_title
from .core._stats import DomStats
from .core._text import CJK_RUN_RE, clean_text, count_matching
from .core._title import find_headline, find_titles, read_page_titles
from .core._types import Document, Extraction, Metadata, OutputOptions, PageType
from .metadata import extract_metadata
from .metadata._fields import canonical_url
from .metadata._jsonld import main_article, names_page, plain_text, text_of
from .metadata._product import missing_description
from .metadata._relative import fetched_moment


def extract(
    html: str | bytes,
    *,
    url: str | None = None,
    algorithm: str = "auto",
    strip_comments: bool | CommentParams = True,
    metadata: bool = True,
    max_bytes: int | None = MAX_PAGE_BYTES,
    max_elements: int | None = MAX_ELEMENTS,
    fetched: str | datetime | None = None,
    markdown: bool = False,
    tables: bool = True,
    links: bool = True,
    images: bool = True,
    formatting: bool = True,
    favor: str = "balanced",
    page_type: str | None = None,
    **params: Any,
) -> Extraction:
    """Extract the main content of the page ``html``.

    ``html`` is text, or bytes decoded by BOM, then ``<meta charset>``/``http-equiv``,
    then by sniffing (UTF-8, GB18030, Big5, Shift_JIS, EUC-KR, cp1252). ``algorithm`` is a
    name from :data:`scrapy_mainc.ALGORITHMS`; ``params`` override fields of its
    parameters dataclass. ``strip_comments`` runs the reader-comment stage, with its
    default :class:`CommentParams` or the ones given. ``metadata`` runs the metadata
    stage (publication date, authors...: :class:`Metadata`). ``fetched`` is when the page
    was fetched: the response's HTTP ``Date`` header as sent (``Tue, 19 Nov 2019 08:12:31
    GMT``) or a datetime (naive: UTC); relative dates the page shows ("3 hours ago",
    "yesterday", a day without a year) are read against it, and only then (never against
    the machine's clock); a header that cannot be read is ignored. A page longer than
    ``max_bytes`` (bytes, or characters of text; None: no limit) is refused before it is
    decoded: peak memory grows with the page (:data:`MAX_PAGE_BYTES`); so is one with more
    than ``max_elements`` start tags (None: no limit), before it is parsed: peak memory
    grows with the elements (:data:`~scrapy_mainc.core._limits.MAX_ELEMENTS`). ``markdown`` renders
    ``Extraction.markdown``; ``tables``, ``links``, ``images`` and ``formatting`` keep or
    leave out those in the outputs (:class:`~scrapy_mainc.core._types.OutputOptions`).
    ``favor`` (``"precision"``, ``"balanced"`` or ``"recall"``) tilts ``auto`` towards less
    boilerplate or more content (:data:`~scrapy_mainc.algorithms._auto_params.FAVOR_PRESETS`;
    other algorithms ignore it). ``page_type`` (one of :data:`PAGE_TYPES`) says what kind
    of page this is instead of the page-type model (``None``: the model decides;
    ``Extraction.page_type``). Bad input never raises: the result then has empty ``text``
    and a ``reason``.
    """
    output = OutputOptions(tables, links, images, formatting, markdown)
    run = _run(algorithm, params, favor, url, strip_comments, metadata, fetched, output, page_type)
    if max_bytes is not None and isinstance(html, str | bytes) and len(html) > max_bytes:
        return _empty(run, too_large_reason(html, max_bytes, "max_bytes"))
    text, utf8, reason = _page_text(html)
    reason = reason or markup_reason(text)
    if not reason and max_elements is not None:
        reason = elements_reason(text, max_elements, "max_elements")
    reason = reason or attributes_reason(text)
    if reason:
        return _empty(run, reason)
    try:
        tree = [parse_html(text, utf8)]
    except ParseError as exc:
        return _empty(run, f"unparseable HTML: {exc}")
    del text, utf8  # the tree holds the page now: free the decoded copy before extracting
    return _extract_tree(tree, run)


def extract_tree(
    tree: etree._Element | etree._ElementTree,
    *,
    url: str | None = None,
    algorithm: str = "auto",
    strip_comments: bool | CommentParams = True,
    metadata: bool = True,
    fetched: str | datetime | None = None,
    markdown: bool = False,
    tables: bool = True,
    links: bool = True,
    images: bool = True,
    formatting: bool = True,
    favor: str = "balanced",
    page_type: str | None = None,
    **params: Any,
) -> Extraction:
    """Like :func:`extract` for an lxml tree the caller already has; it is not modified."""
    output = OutputOptions(tables, links, images, formatting, markdown)
    run = _run(algorithm, params, favor, url, strip_comments, metadata, fetched, output, page_type)
    return _extract_tree([copy_tree(tree)], run)


def _run(
    algorithm: str,
    params: dict[str, Any],
    favor: str,
    url: str | None,
    strip_comments: bool | CommentParams,
    metadata: bool,
    fetched: str | datetime | None,
    output: OutputOptions,
    page_type: str | None,
) -> _Run:
    """The run of one extraction from the arguments of :func:`extract`; an unknown algorithm,
    ``favor`` or ``page_type`` raises ``ValueError``."""
    chosen, chosen_params = _resolve(algorithm, params, favor)
    return _Run(
        chosen,
        chosen_params,
        url,
        strip_comments,
        metadata,
        fetched_moment(fetched),
        output,
        _given(page_type),
    )


#: The first character that is not whitespace (as ``str.isspace`` has it).
_VISIBLE_RE = re.compile(r"\S")


def markup_reason(text: str) -> str:
    """Why ``text`` cannot be an HTML page, or "" when it may be one."""
    head = _VISIBLE_RE.search(text)  # (text.lstrip() would copy the page)
    if head is None:
        return "empty document"
    if head.group() in "{[":
        return "not HTML: JSON or other data"
    if not MARKUP_RE.search(text, 0, MARKUP_SCAN_CHARS):
        return "not HTML: no markup"
    return ""


def _page_text(html: str | bytes) -> tuple[str, bytes | None, str]:
    """The page's text; its UTF-8 bytes when ``html`` was valid UTF-8 already; the reason
    when it is binary data (as bytes, or already decoded to text, as Scrapy hands it over)."""
    if isinstance(html, bytes):
        reason = binary_reason(html)
        if reason:
            return "", None, f"not HTML: {reason}"
        decoded = decode_html(html)
        exact_utf8 = decoded.encoding == "utf-8" and decoded.exact and decoded.source != "bom"
        return decoded.text, html if exact_utf8 else None, ""
    if not isinstance(html, str):
        raise TypeError(f"html must be str or bytes, not {type(html).__name__}")
    reason = binary_text_reason(html)
    return html, None, f"not HTML: {reason}" if reason else ""


def _given(page_type: str | None) -> PageType | None:
    """The page type the caller gives (certain), or None; ValueError names the valid ones."""
    if page_type is None:
        return None
    if page_type not in PAGE_TYPES:
        raise ValueError(f"unknown page_type {page_type!r}; valid: {', '.join(PAGE_TYPES)}")
    return PageType(page_type, 1.0)


def _resolve(name: str, params: dict[str, Any], favor: str) -> tuple[Algorithm, Any]:
    """The algorithm and its parameters: ``favor``'s preset for ``auto``, then ``params``."""
    chosen = get_algorithm(name)
    preset = favor_overrides(favor)  # checked for every algorithm: a typo is an error anywhere
    if chosen.name != "auto":
        return chosen, chosen.params(**params)
    given = {**preset, **params}
    given["pinned"] = frozenset(
        name for name in given if name != "pinned"
    )  # a page type's preset leaves them
    return chosen, chosen.params(**given)


@dataclass(frozen=True, slots=True)
class _Run:
    """What one extraction was asked for, besides the page, and when it started."""

    algorithm: Algorithm
    params: Any
    url: str | None
    strip_comments: bool | CommentParams
    metadata: bool
    fetched: datetime | None
    output: OutputOptions
    page_type: PageType | None = None
    started: float = field(default_factory=perf_counter)


def _extract_tree(tree: list[etree._Element], run: _Run) -> Extraction:
    """The extraction of a private tree; ``tree`` holds its root, the only reference to it.

    The root is taken out of ``tree``, and the statistics release the elements children
    before parents (see :meth:`DomStats.release`), so that the tree is freed, in linear
    time, before the extraction's time is taken.
    """
    document = build_document(tree.pop(), run.url, run.page_type)
    options = ChoiceOptions(
        run.algorithm, run.params, run.strip_comments, run.output.tables, bool(run.page_type)
    )
    choice = choose(document, options)
    document, selection, text, output = choice.document, choice.selection, choice.text, run.output
    stats = document.stats
    title, reason = document.title, selection.reason
    if document.headline < 0:  # the title is not a heading of the page: what does it show?
        title = visible_title(stats, selection.nodes, title, document.headlines)
    # the metadata stage reads the tree as parsed: before rendering, which edits it
    page_metadata = extract_metadata(document, selection.nodes, run.fetched) if run.metadata else Metadata()
    nodes, excluded = selection.nodes, selection.excluded
    markdown = (
        render_markdown(stats, nodes, excluded, document.base_url, output) if text and output.markdown else ""
    )
    xpath = " | ".join(stats.xpath(node) for node in nodes)  # before rendering renames
    html = render_html(stats, nodes, excluded, document.base_url, output) if text else ""
    verdict, kind = choice.article, document.page_type.name
    lacking = missing_description(document, text) if kind == "product" else ""
    if lacking:  # what the page states of its product and the choice does not show
        text, html, markdown = _with_description(lacking, text, html, markdown, output.markdown)
    lang = identify_language(text) or document.lang or document.declared_lang
    quality = estimate_quality(quality_features(document, selection, text, verdict))
    stats.release()
    del document, stats, choice  # the last references to the tree, which is freed here
    return Extraction(
        text=text,
        html=html,
        markdown=markdown,
        title=clean_text(title),
        algorithm=run.algorithm.name,
        xpath=xpath,
        score=selection.score,
        lang=lang,
        reason="" if text else reason or "the chosen content has no text",
        article=verdict,
        page_type=kind,
        quality=quality,
        milliseconds=(perf_counter() - run.started) * 1000,
        metadata=page_metadata,
    )


def build_document(
    root: etree._Element, url: str | None = None, known_type: PageType | None = None
) -> Document:
    """Prepare a private tree (modified in place), compute its shared statistics and
    decide its page type (``known_type`` when the caller knows it).

    A ``url`` urllib cannot take apart is ignored, as if none was given."""
    url = usable_url(url)
    base_url = _base_url(root, url)
    declared_lang = (root.get("lang") or root.get("xml:lang") or "") if root.tag == "html" else ""
    evidence = collect_evidence(root)  # the title reads it too (og:title, the JSON-LD headline)
    urls = tuple(dict.fromkeys(filter(None, (url, canonical_url(evidence, {}, base_url or "")))))
    page_titles = read_page_titles(root, evidence.meta)
    article = main_article(evidence.jsonld, urls, page_titles.headlines)
    # the JSON-LD headline states the page's headline only when that article is the page's
    # (not the first of several stories, which main_article falls back to)
    own = names_page(article, evidence.jsonld, urls, page_titles.headlines)
    titles = find_titles(root, _jsonld_headlines(article) if own else (), page_titles)
    body, itemprops, itemtypes = prepare(root)
    article_bodies = tuple(dict.fromkeys(element for prop, element in itemprops if prop == "articlebody"))
    stats = DomStats(body)
    document = Document(
        body,
        stats,
        title=titles.title,
        lang=_guess_lang(stats, declared_lang),
        url=url,
        article_bodies=article_bodies,
        headlines=titles.headlines,
        urls=urls,
        headline=find_headline(stats, titles.shown),
        base_url=base_url,
        evidence=evidence,
        itemprops=itemprops,
        itemtypes=itemtypes,
        article=article,
        declared_lang=declared_lang.strip().lower().replace("_", "-").split("-")[0],
    )
    return replace(document, page_type=known_type or page_type(document))  # decided once, from the statistics


def _jsonld_headlines(article: dict[str, Any] | None) -> tuple[str, ...]:
    """The JSON-LD article's ``headline`` (or ``name``), as a headline string."""
    if not article:
        return ()
    headline = plain_text(text_of(article.get("headline") or article.get("name")))
    return (headline,) if headline else ()


_BASE_HREF_XPATH = etree.XPath("string(head/base/@href)")


def _base_url(root: etree._Element, url: str | None) -> str | None:
    """The URL relative links of the page are relative to: its ``<base href>``, or ``url``
    (also when the ``<base href>`` is no URL urllib can read: ``//[bad``)."""
    href = str(_BASE_HREF_XPATH(root)).strip(URL_ENDS)  # what browsers strip, no more
    if not href:
        return url
    try:
        joined = urljoin(url, href) if url else href
    except ValueError:
        return url
    return usable_url(joined) or url


def _with_description(
    description: str, text: str, html: str, markdown: str, with_markdown: bool
) -> tuple[str, str, str]:
    """The outputs with a product's ``description`` from its structured data after them."""
    paragraph = clean_text(description)
    markdown_paragraph = escape_line_start(escape(paragraph)) if with_markdown else ""
    return (
        f"{text}\n{paragraph}" if text else paragraph,
        f"{html}\n<p>{xml_escape(paragraph)}</p>" if html else f"<p>{xml_escape(paragraph)}</p>",
        "\n\n".join(filter(None, (markdown, markdown_paragraph))),
    )


def _guess_lang(stats: DomStats, declared: str) -> str:
    cjk = sum(stats.own_cjk)
    if not cjk or cjk < DECLARED_CJK_SHARE * sum(stats.own_chars):
        return ""  # too few CJK characters for any guess: skip rendering the page's text
    # the text is the statistics' texts and tails, and the root's tail: CJK counted already
    cjk += count_matching(CJK_RUN_RE, stats.tails[0] or "")
    return guess_script(etree.tostring(stats.nodes[0], method="text", encoding="unicode"), declared, cjk)


def _empty(run: _Run, reason: str) -> Extraction:
    milliseconds = (perf_counter() - run.started) * 1000
    return Extraction(algorithm=run.algorithm.name, reason=reason, milliseconds=milliseconds)
