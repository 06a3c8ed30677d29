"""The choice of an extraction: the algorithm's selection, without reader comments (but on
a page not typed as an article whose selection is all comments: a thread typed wrong), its
text, and whether the page is an article; a page its type called an article and whose
text says otherwise is chosen again as the page-type decision's other type.

The page's type is decided once, before the choice (:mod:`.core._pagetype`), from what
the page shows. What the choice keeps is the second piece of evidence, the article
verdict (:mod:`.core._article`): a few words, or teasers one after another, are no
article. When the verdict contradicts the type ``article``, the page is what the
page-type model decides among the other types (a home page of three teasers is a listing)
and the algorithm chooses again with that type's parameters, unless the model is too sure
of ``article`` for the verdict to overrule it, or the page is too bare to be anything else
(:func:`.core._pagetype.other_than_article`). Pages the type and the verdict agree on are
chosen once.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from .algorithms import Algorithm
from .algorithms._page_type_params import ITEMS_ARE_CONTENT, POSTS_ARE_CONTENT, REVIEWS_ARE_COMMENTS
from .core._article import article_verdict
from .core._comment_params import CommentParams
from .core._comments import comment_nodes
from .core._pagetype import other_than_article
from .core._render import render_text
from .core._tables import data_tables
from .core._types import Document, Selection


@dataclass(frozen=True, slots=True)
class Choice:
    """What an extraction keeps: the document (its type as finally decided), the
    selection, its plain text and the article verdict."""

    document: Document
    selection: Selection
    text: str
    article: bool


@dataclass(frozen=True, slots=True)
class ChoiceOptions:
    """How the choice is made: the algorithm, its parameters, the comment stage, tables
    kept or left out, and whether the caller stated the page's type."""

    algorithm: Algorithm
    params: Any
    strip_comments: bool | CommentParams
    tables: bool
    type_given: bool


def choose(document: Document, options: ChoiceOptions) -> Choice:
    """The choice on ``document`` (see the module docstring)."""
    choice = _choice(document, options)
    if choice.article or options.type_given or document.page_type.name != "article":
        return choice
    other_type = other_than_article(document)
    if other_type is None:  # the model is too sure of an article for the verdict to overrule it
        return choice
    return _choice(replace(document, page_type=other_type), options)


def _choice(document: Document, options: ChoiceOptions) -> Choice:
    selection = options.algorithm.select(document, options.params)
    strip_comments = options.strip_comments
    if strip_comments and selection.nodes and document.page_type.name not in POSTS_ARE_CONTENT:
        comment_params = strip_comments if isinstance(strip_comments, CommentParams) else CommentParams()
        if comment_params.reviews is None:
            comment_params = replace(comment_params, reviews=document.page_type.name in REVIEWS_ARE_COMMENTS)
        if comment_params.dated_runs is None:
            runs = document.page_type.name not in ITEMS_ARE_CONTENT
            comment_params = replace(comment_params, dated_runs=runs)
        stripped = without_comments(document, selection, comment_params)
        if stripped is selection or not _emptied(document, selection, stripped):
            selection = stripped
    stats = document.stats
    if not options.tables and selection.nodes:
        tables = frozenset(data_tables(stats, selection.nodes, selection.excluded))
        selection = replace(selection, excluded=selection.excluded | tables)
    text = render_text(stats, selection.nodes, selection.excluded)
    verdict = document.page_type.name == "article" and article_verdict(document, selection.nodes, text)
    return Choice(document, selection, text, verdict)


def _emptied(document: Document, selection: Selection, stripped: Selection) -> bool:
    """True when the comment stage took every word of ``selection`` on a page not typed as
    an article: a thread (or a page of reviews) read as another type, whose comments are
    all it has; an article's selection that is all comments stays empty."""
    if document.page_type.name == "article":
        return False
    stats = document.stats
    return not render_text(stats, stripped.nodes, stripped.excluded).strip() and bool(
        render_text(stats, selection.nodes, selection.excluded).strip()
    )


def without_comments(document: Document, selection: Selection, params: CommentParams) -> Selection:
    """The selection without reader comments; the headline element and the marked
    article body are never taken for comments."""
    stats = document.stats
    positions = stats.positions
    protected = (document.headline, *(positions.get(element, -1) for element in document.article_bodies))
    comments = comment_nodes(stats, selection.nodes, params, protected)
    if not comments:
        return selection
    nodes = tuple(node for node in selection.nodes if node not in comments)
    return Selection(
        nodes=nodes,
        score=selection.score,
        threshold=selection.threshold,
        excluded=selection.excluded | comments,
        reason=selection.reason or "only reader comments were found",
    )
