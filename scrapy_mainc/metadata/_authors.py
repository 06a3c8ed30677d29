"""The article's authors: person names, from the page's markup and its visible byline.

Evidence, in the order it is read:

1. the JSON-LD article's ``author`` (and ``creator``): strings, objects with a ``name``,
   lists, references by ``@id`` to a ``Person`` elsewhere on the page; an author typed as
   an organisation is one; then the opening post of a forum or Q&A thread
   (:func:`._jsonld.thread_posting`), whose user names are people's;
2. microdata: ``itemprop="author"``/``"creator"`` elements (their nested
   ``itemprop="name"`` when there is one) outside reader comments and answers (user
   names too on a page of type forum);
3. meta names: ``author``, ``article:author`` (when it is a name, not a profile URL),
   ``dc.creator``, ``dcterms.creator``, ``sailthru.author``, ``parsely-author``,
   ``citation_author``, ``byl``, and the author of ``parsely-page``;
4. ``<a rel="author">`` and the visible byline near the headline and at the start or
   the end of the chosen text (:mod:`._bylines`).

The markup's first source that credits anyone is its answer. The visible byline is what
the reader sees, so it wins when it names people (it lists every author where the
markup often holds the first only, and a CMS account or the publisher where the page
credits a writer); when it names only organisations (an agency byline) the page has no
person author, whatever the markup says. On a forum thread the poster the markup names
wins: the posts below quote other people's bylines. Each credit is cleaned by
:mod:`._credits`; a domain word that is the full name of a person the JSON-LD credits is no
site name (a personal domain).

Measured with ``benchmarks/quality/metadata.py`` (2026-11-25), authors F1 (mean of the page
F1s): 0.989 on scrapinghub and 0.783 on zh_news (0.932 on the 250 hand-annotated pages),
0.913 on the newspaper4k half as its gold gives it and 0.958 by RULES.md, where
trafilatura's ``extract_metadata`` scores 0.672 / 0.333 and 0.762 / 0.748 and newspaper4k
0.616 / 0.314 and 0.690 / 0.687; neither library reads Chinese bylines or tells agencies
from people, so the stage is written here. extruct was not measured: the evidence it would
give (JSON-LD, microdata) is read already by :mod:`._evidence` in one pass over three tags.
On WCXB's development split (2026-11-28, issue 33): 0.784 over its 1,497 pages, 0.761 on
its forum threads, against trafilatura's 0.739 and 0.277.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from ..core._evidence import load_json
from ._bylines import find_byline
from ._credits import FORUM, Context, Credit, read_credit, site_keys
from ._jsonld import ORGANISATION, PERSON, credits, thread_posting

if TYPE_CHECKING:
    from collections.abc import Callable

    from lxml import etree

    from ..core._types import Document

#: Meta names whose value is an author credit, most common first.
AUTHOR_META = (
    "author", "article:author", "og:article:author", "dc.creator", "dcterms.creator",
    "sailthru.author", "parsely-author", "citation_author", "byl", "byline",
)  # fmt: skip
#: Meta names that write a name family name first ("Doe, Jane", library style).
_INVERTED_NAME_META = frozenset({"citation_author", "dc.creator", "dcterms.creator"})
_SURNAME_FIRST_RE = re.compile(r"^([^\W\d_][\w'’.\-]*(?: [^\W\d_][\w'’.\-]*)?),\s*([^\W\d_][\w'’.\- ]*)$")
#: Class or ``itemtype`` words of reader-comment containers.
_COMMENT_WORDS = ("comment", "reply", "respons", "review", "answer")
#: How far up from a microdata author element a comment container is looked for.
_COMMENT_DEPTH = 8
#: Domain labels that are not the site's name.
_GENERIC_LABELS = frozenset("www m mobile amp edition news blog blogs com net org co cn uk de".split())


def find_authors(
    document: Document, content: tuple[int, ...] = (), headline: int | None = None
) -> tuple[str, ...]:
    """The article's authors: person names in page order, without duplicates.

    ``content`` holds the statistics indices of the chosen text's roots, where the
    visible byline is looked for (beside the headline). ``headline`` is the element that
    shows the headline (default :attr:`Document.headline`; the metadata stage gives the
    element showing it when that is no heading).
    """
    evidence = document.evidence
    if evidence is None:
        return ()
    context = page_context(document)
    markup = markup_credit(document, context)
    anchor = document.headline if headline is None else headline
    if markup.persons and document.page_type.name == FORUM:
        return _distinct(markup.persons[:1])  # the thread's poster: the posts below quote others
    visible = find_byline(document, content, context, named=not markup.persons, headline=anchor)
    if visible.persons:
        return _distinct(visible.persons)
    if visible.organisations:
        return ()
    return _distinct(markup.persons)


def page_context(document: Document) -> Context:
    """The page's own names, which are organisations when credited: the names it states
    (``og:site_name``, ``application-name``, the JSON-LD publisher's name) and the words of
    its domain, except a domain word that is the full name of a person its JSON-LD credits
    (a personal domain: ``janedoe.com`` crediting ``{"@type": "Person", "name": "Jane
    Doe"}``)."""
    evidence = document.evidence
    assert evidence is not None
    names = [*evidence.meta.get("og:site_name", ()), *evidence.meta.get("application-name", ())]
    publisher = (document.article or {}).get("publisher")
    if isinstance(publisher, dict) and isinstance(publisher.get("name"), str):
        names.append(publisher["name"])
    labels: list[str] = []
    for url in (*document.urls, *evidence.links.get("canonical", ())[:1]):
        try:
            host = urlsplit(url).hostname or ""
        except ValueError:
            continue
        labels.extend(label for label in host.split(".") if label not in _GENERIC_LABELS)
    return Context(site_keys=site_keys(*names) | (site_keys(*labels) - _person_keys(document)))


def _person_keys(document: Document) -> frozenset[str]:
    """Keys of the full names (two words or more) the page's JSON-LD article or thread
    post credits as ``Person``s."""
    objects = document.evidence.jsonld if document.evidence is not None else []
    return site_keys(
        *(
            name
            for article in (document.article, thread_posting(objects))
            for key in ("author", "creator")
            for name, kind in credits((article or {}).get(key), objects)
            if kind == PERSON and " " in name
        )
    )


def markup_credit(document: Document, context: Context) -> Credit:
    """The credit of the first markup source that names anyone (persons or organisations):
    the JSON-LD article, the opening post of a forum or Q&A thread, microdata, meta names."""
    objects = document.evidence.jsonld if document.evidence is not None else []
    posters = replace(context, accounts_are_people=True)  # forum users go by user names
    forum = document.page_type.name == FORUM
    credits_in_order: tuple[Callable[[], Credit], ...] = (
        lambda: _jsonld_credit(document.article, objects, context),
        lambda: _jsonld_credit(thread_posting(objects), objects, posters),
        lambda: _microdata_credit(document, posters if forum else context),
    )
    for read in credits_in_order:
        credit = read()
        if credit.persons or credit.organisations:
            return credit
    return _meta_credit(document, context)


def _jsonld_credit(article: dict[str, Any] | None, objects: list[dict[str, Any]], context: Context) -> Credit:
    """The credit of a JSON-LD object's ``author`` (else its ``creator``)."""
    credit = Credit()
    if not article:
        return credit
    for key in ("author", "creator"):
        for name, kind in credits(article.get(key), objects):
            if kind == ORGANISATION:
                credit.organisations.append(name)
            else:
                _add(credit, read_credit(name, context))
        if credit.persons or credit.organisations:
            break
    return credit


def _microdata_credit(document: Document, context: Context) -> Credit:
    credit = Credit()
    names = {id(element): element for prop, element in document.itemprops if prop == "name"}
    for prop, element in document.itemprops:
        if prop not in ("author", "creator") or _in_comment(element):
            continue
        named = next((names[id(child)] for child in element.iterdescendants() if id(child) in names), None)
        source = named if named is not None else element
        text = source.get("content") or " ".join("".join(source.itertext()).split())
        if text and len(text) < 200:
            _add(credit, read_credit(text, context))
    return credit


def _in_comment(element: etree._Element) -> bool:
    for depth, ancestor in enumerate(element.iterancestors()):
        if depth == _COMMENT_DEPTH:
            break
        marks = f"{ancestor.get('class', '')} {ancestor.get('id', '')} {ancestor.get('itemtype', '')}".lower()
        if any(word in marks for word in _COMMENT_WORDS):
            return True
    return False


def _meta_credit(document: Document, context: Context) -> Credit:
    evidence = document.evidence
    assert evidence is not None
    credit = Credit()
    for name in AUTHOR_META:
        for value in evidence.meta.get(name, ()):
            if value and not value.startswith(("http://", "https://", "//", "www.")):
                if name in _INVERTED_NAME_META:
                    value = _SURNAME_FIRST_RE.sub(r"\2 \1", value)
                _add(credit, read_credit(value, context))
        if credit.persons:
            return credit
    for value in evidence.meta.get("parsely-page", ())[:1]:
        _add(credit, read_credit(_parsely_author(value), context))
    return credit


def _parsely_author(value: str) -> str:
    """The author of a ``parsely-page`` meta (a JSON object), or ``""``."""
    data = load_json(value)
    if not isinstance(data, dict):
        return ""
    author = data.get("author") or data.get("authors") or ""
    if isinstance(author, list):
        return ", ".join(item for item in author if isinstance(item, str))
    return author if isinstance(author, str) else ""


def _add(credit: Credit, more: Credit) -> None:
    credit.persons.extend(more.persons)
    credit.organisations.extend(more.organisations)


def _distinct(names: list[str]) -> tuple[str, ...]:
    """``names`` without repeats (compared case-blind), in order, first spelling kept."""
    seen: dict[str, str] = {}
    for name in names:
        seen.setdefault(" ".join(name.casefold().split()), name)
    return tuple(seen.values())
