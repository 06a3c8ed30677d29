"""The page headline: an ``<h1>`` that agrees with the page title, else metadata; the
headline strings the page states; and NCE's title search for the headline element."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from lxml import etree

from ._tags import HEADING_TAGS
from ._text import CJK_RE, measure, normalize_space
from ._title_labels import tokens as _tokens
from ._title_labels import without_kicker as _without_kicker
from ._title_labels import without_trailing_tag as _without_trailing_tag

if TYPE_CHECKING:
    from ._stats import DomStats

#: Separators between a headline and the site name in ``<title>``.
_SITE_SEPARATOR_RE = re.compile(
    r"\s+[|\-–—:»·]\s+|_+|-{2,}|\s*｜\s*|\s*–\s*|(?<=[\u2018-\u201d\u3000-\u303f\u4e00-\u9fff\uff01-\uff5e])-(?=[\u4e00-\u9fff])"
)
#: Icon-font glyphs (Unicode private use area), never text.
_PRIVATE_USE_RE = re.compile("[\ue000-\uf8ff]")
#: A label before a forum thread's title, and the dashes a blog puts after one.
_HEADING_LABEL_RE = re.compile(r"^(?:主\s*题|标\s*题|subject|topic)\s*[:：]\s*|\s*(?:-\s*){2,}$", re.I)
#: Marks of a heading's link to itself, which documentation generators add after it.
_PERMALINK_MARKS = ("¶", "#", "§")
#: ``<meta>`` names and properties that carry the headline.
_TITLE_META = frozenset({"og:title", "twitter:title"})
#: Share of an ``<h1>``'s tokens that must occur in the page's headline strings for it to be
#: the headline.
H1_TITLE_AGREEMENT = 0.6
#: The same for an ``<h2>``: pages with a logo or a section name in ``<h1>`` put the headline
#: in an ``<h2>``, which must then say what the metadata says nearly word for word.
H2_TITLE_AGREEMENT = 0.9
#: The share of its words an ``<h1>`` that does not agree must still share with the
#: metadata to be the headline when it is the page's only one (a third of the words:
#: the scrapinghub pages whose visible headline is worded differently share 0.33 to 0.53).
FALLBACK_H1_AGREEMENT = 0.25
#: A heading of one word longer than this (a German compound, a product name) covers a
#: headline whose tokens it does not split into.
ONE_WORD_TITLE_CHARS = 8
#: Headings read, by tag.
_MAX_HEADINGS = {"h1": 5, "h2": 10}


@dataclass(frozen=True, slots=True)
class Titles:
    """The headline of a page and every headline string the page states."""

    #: The best headline (:func:`find_title`).
    title: str
    #: Distinct headline strings, best first: the headline, ``og:title`` and
    #: ``twitter:title``, the JSON-LD headline, and ``<title>`` without the site name.
    headlines: tuple[str, ...]
    #: The text of the heading that shows the headline: ``title``, or ``title`` after a
    #: kicker the title leaves out ("Politics | ..."); what NCE's title search looks for.
    shown: str = ""


@dataclass(frozen=True, slots=True)
class PageTitles:
    """What the page's ``<head>`` says its headline is."""

    #: ``og:title`` and ``twitter:title`` values, in page order.
    meta: tuple[str, ...]
    #: ``<title>``, whitespace collapsed.
    page: str
    #: ``<title>`` without the site name.
    stripped: str
    #: ``og:site_name`` and the parts of ``<title>`` other than the headline.
    site_names: tuple[str, ...]

    @property
    def headlines(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(text for text in (*self.meta, self.stripped) if text))


def find_title(root: etree._Element) -> str:
    """Best headline of the page at ``root`` (a full, unprepared tree)."""
    return find_titles(root).title


def read_page_titles(root: etree._Element, meta: dict[str, list[str]] | None = None) -> PageTitles:
    """The headline strings of the page's metadata (``root``: a full, unprepared tree);
    ``meta`` holds its meta tags already read (:attr:`Evidence.meta`), if they were."""
    meta = _read_meta(root) if meta is None else meta
    meta_titles = [*meta.get("og:title", ()), *meta.get("twitter:title", ())]
    site_names = list(meta.get("og:site_name", ()))
    title_element = next(root.iter("title"), None)
    page_title = normalize_space(title_element.text or "") if title_element is not None else ""
    meta_titles = [title for title in meta_titles if title]
    parts = _title_parts(page_title)
    stripped = _headline_part(parts, meta_titles, site_names) if parts else page_title
    if len(parts) > 1 and parts[-1] != stripped and parts[-1] not in meta_titles:
        site_names.append(parts[-1])  # "Headline | Section | Site"
    return PageTitles(tuple(meta_titles), page_title, stripped, tuple(filter(None, site_names)))


def _read_meta(root: etree._Element) -> dict[str, list[str]]:
    """The title and site-name meta tags of ``<head>`` (of the page, when it lost it)."""
    head = root.find("head")  # metadata lives in <head>, unless a broken page lost it
    meta: dict[str, list[str]] = {}
    for element in (head if head is not None and len(head) else root).iter("meta"):
        key = (element.get("property") or element.get("name") or "").lower()
        if key in _TITLE_META or key == "og:site_name":
            meta.setdefault(key, []).append(normalize_space(element.get("content") or ""))
    return meta


def _headline_part(parts: list[str], meta_titles: list[str], site_names: list[str]) -> str:
    """The part of ``<title>`` that is the headline: one ``og:title`` repeats, else the
    longest that is not the site name."""
    for part in parts:
        if part in meta_titles:
            return part
    others = [part for part in parts if part not in site_names] or parts
    return max(others, key=len)


def find_titles(
    root: etree._Element, more_headlines: tuple[str, ...] = (), page: PageTitles | None = None
) -> Titles:
    """The headline and the headline strings of the page at ``root`` (a full, unprepared
    tree); ``more_headlines`` are further statements of it (the JSON-LD headline).

    The headline is the ``<h1>`` (or an ``<h2>`` that says it nearly word for word) that
    agrees best with what the metadata says, leaving out headings that only repeat the
    site name; else the page's only headline-like ``<h1>``; else ``og:title`` or
    ``<title>`` without the site name. ``page`` is :func:`read_page_titles` of ``root``,
    when the caller has it.
    """
    page = read_page_titles(root) if page is None else page
    headings = _headings(root)
    page = _with_visible_part(page, headings)
    references = [text for text in (*page.meta, *more_headlines, page.page) if text]
    site_tokens = {token for name in page.site_names for token in _tokens(name)}
    heading = _agreeing_heading(headings, references, site_tokens)
    if heading is not None:
        shown, title = heading[0], _without_trailing_tag(_without_kicker(*heading, references), references)
    else:
        title = _fallback(page, headings, references, site_tokens)
        shown = title
    return Titles(
        title,
        tuple(dict.fromkeys(text for text in (title, *page.meta, *more_headlines, page.stripped) if text)),
        shown,
    )


def _with_visible_part(page: PageTitles, headings: list[tuple[str, str, etree._Element]]) -> PageTitles:
    """``page`` with the part of ``<title>`` a heading shows as its headline, when one
    does ("金锺国 - 维基百科，自由的百科全书" with ``<h1>金锺国</h1>``)."""
    texts = {text for _, text, _ in headings}
    parts = _title_parts(page.page)
    shown = next((part for part in parts if part in texts and part not in page.site_names[:1]), "")
    if not shown or shown == page.stripped:
        return page
    site_names = tuple(name for name in page.site_names if name != shown) + (page.stripped,)
    return PageTitles(page.meta, page.page, shown, site_names)


def heading_text(element: etree._Element) -> str:
    """The text of a heading as a reader sees it: line breaks as spaces, without a
    forum's "主题:" label or icon-font characters (private use area)."""
    if next(element.iter("br"), None) is None:
        text = "".join(element.itertext())
    else:
        pieces = []
        for event, node in etree.iterwalk(element, events=("start", "end")):
            if event == "start":
                pieces.append(" " if node.tag == "br" else node.text or "")
            elif node is not element:
                pieces.append(node.tail or "")
        text = "".join(pieces)
    text = _PRIVATE_USE_RE.sub("", text) if not text.isascii() else text
    if text.rstrip().endswith(_PERMALINK_MARKS) and _has_permalink(element):
        text = text.rstrip()[:-1]  # "Data Structures<a href='#data-structures'>¶</a>"
    return _HEADING_LABEL_RE.sub("", normalize_space(text))


def _has_permalink(element: etree._Element) -> bool:
    """Whether a heading holds a link to its own anchor shown as a mark (Sphinx's "¶")."""
    return any(
        link.get("href", "").startswith("#") and "".join(link.itertext()).strip() in _PERMALINK_MARKS
        for link in element.iter("a")
    )


def _headings(root: etree._Element) -> list[tuple[str, str, etree._Element]]:
    """(tag, text, element) of the first ``<h1>`` and ``<h2>`` elements, in page order."""
    found = []
    counts = {"h1": 0, "h2": 0}
    for element in root.iter("h1", "h2"):
        tag = element.tag
        if counts[tag] < _MAX_HEADINGS[tag]:
            counts[tag] += 1
            text = heading_text(element)
            if text:
                found.append((tag, text, element))
    return found


def _agreeing_heading(
    headings: list[tuple[str, str, etree._Element]], references: list[str], site_tokens: set[str]
) -> tuple[str, etree._Element] | None:
    """(text, element) of the heading that agrees with the metadata's headlines (an
    ``<h1>`` at ``H1_TITLE_AGREEMENT``, an ``<h2>`` at ``H2_TITLE_AGREEMENT``) and covers
    most of one of them; None if none agrees."""
    if not references:
        return None
    reference = " ".join(references)
    reference_tokens = [set(_tokens(text)) for text in references]
    every_token = set().union(*reference_tokens)
    best: tuple[str, etree._Element] | None = None
    best_rank = (0.0, False)
    for tag, text, element in headings:
        if _site_like(text, site_tokens):
            continue
        score = _agreement(text, reference, every_token)
        if score < (H1_TITLE_AGREEMENT if tag == "h1" else H2_TITLE_AGREEMENT):
            continue
        tokens = set(_tokens(text))
        coverage = max(
            (len(tokens & wanted) / len(wanted) for wanted in reference_tokens if wanted), default=0.0
        )
        one_long_word = len(tokens) == 1 and len(text) > ONE_WORD_TITLE_CHARS
        rank = (score * max(coverage, 1.0 if one_long_word else coverage), tag == "h1")
        if rank > best_rank:
            best, best_rank = (text, element), rank
    return best


def _fallback(
    page: PageTitles,
    headings: list[tuple[str, str, etree._Element]],
    references: list[str],
    site_tokens: set[str],
) -> str:
    """No heading agrees with the metadata: the page's only headline-like ``<h1>`` when
    it shares ``FALLBACK_H1_AGREEMENT`` of its words with the metadata (the same story,
    worded differently for search engines), else ``og:title``, ``<title>`` without the
    site name, or the first headline-like heading."""
    reference = " ".join(references)
    every_token = {token for text in references for token in _tokens(text)}
    plausible = [
        text
        for tag, text, element in headings
        if tag == "h1"
        and _headline_like(text)
        and not _site_like(text, site_tokens)
        and not _home_link(element)
    ]
    if len(plausible) == 1 and (
        not references or _agreement(plausible[0], reference, every_token) >= FALLBACK_H1_AGREEMENT
    ):
        return plausible[0]
    if page.meta:
        return _without_site_part(page.meta[0], page)
    return page.stripped or next((text for _, text, _ in headings if _headline_like(text)), "")


def _without_site_part(meta_title: str, page: PageTitles) -> str:
    """``og:title`` without a site name set off in it as in ``<title>`` ("PolitiFact -
    Headline" where ``<title>`` is "PolitiFact | Headline"): the part that is ``<title>``'s
    headline, when every other part is no headline (:func:`_headline_like`) and a part of
    ``<title>`` or a site name too; else ``meta_title`` as it is."""
    parts = _title_parts(meta_title)
    if len(parts) < 2 or page.stripped not in parts:
        return meta_title
    known = set(_title_parts(page.page)) | set(page.site_names)
    others = [part for part in parts if part != page.stripped]
    if all(part in known and not _headline_like(part) for part in others):
        return page.stripped
    return meta_title


def _headline_like(text: str) -> bool:
    """Long enough for a headline: three words, or six CJK characters."""
    return len(text.split()) >= 3 or len(CJK_RE.findall(text)) >= 6


def _site_like(text: str, site_tokens: set[str]) -> bool:
    """A heading that only repeats the site's name ("The Spokesman-Review")."""
    tokens = _tokens(text)
    return bool(tokens) and bool(site_tokens) and all(token in site_tokens for token in tokens)


#: Paths of a site's home page.
_HOME_PATHS = frozenset({"", "index.html", "index.php"})


def _home_link(element: etree._Element) -> bool:
    """A heading that links to the site's home page (a logo): a link to a host without a
    path (``http://example.com``), to ``/``, ``#`` or an index page, without a query."""
    link = next(element.iter("a"), None)
    href = (link.get("href") or "").strip() if link is not None else ""
    if not href:
        return False
    try:
        parts = urlsplit(href)
    except ValueError:  # an invalid IPv6 host: "//[bad"
        return False
    if parts.scheme not in ("", "http", "https") or (parts.scheme and not parts.netloc):
        return False
    return parts.path.lstrip("/") in _HOME_PATHS and not parts.query and not parts.fragment


def shows_headline(text: str, headline: str) -> bool:
    """True when ``text`` is the headline ``headline``, or a part of it that is headline-like
    itself (:func:`_headline_like`: three words, or six CJK characters): the headline
    without its kicker or its site name. Whitespace runs and letter case do not count.

    One test for the four places that ask (the headline element, the headline shown with
    the text, the dateline's anchor, the JSON-LD article's headline), which took 4, 6, 10
    or 11 characters, or exact equality; shorter parts ("News", "Sport") occur in many
    headlines, and a length in characters does not fit CJK headlines.
    """
    text, headline = " ".join(text.split()).casefold(), " ".join(headline.split()).casefold()
    if not text:
        return False
    return text == headline or (text in headline and _headline_like(text))


def find_headline(stats: DomStats, title: str) -> int:
    """NCE's title search: the first heading whose text is the headline ``title``, or -1.

    A heading that is a link (most of its words link text) is a teaser pointing to a
    story, possibly this one from a list of most-read stories, not the page's headline.
    """
    title = " ".join(title.split()).lower()
    if not title:
        return -1
    longest = measure(title)[1] + 1  # a heading with more words cannot be the title
    words, nodes, link_words = stats.words, stats.nodes, stats.link_words
    for node in [node for node, tag in enumerate(stats.tags) if tag in HEADING_TAGS]:
        if 0 < words[node] <= longest and 2 * link_words[node] <= words[node]:
            text = " ".join(" ".join(nodes[node].itertext()).split()).lower()
            if shows_headline(text, title):
                return node
    return -1


def _agreement(heading: str, reference: str, reference_tokens: set[str]) -> float:
    """Share of the heading's tokens in ``reference`` (whose tokens are ``reference_tokens``)."""
    heading_tokens = _tokens(heading)
    if not heading_tokens:
        return 0.0
    if len(heading_tokens) == 1 and len(heading) > 8:  # an unsegmented CJK headline
        return 1.0 if heading in reference else 0.0
    if " " in heading and CJK_RE.search(heading) and "".join(heading.split()) in "".join(reference.split()):
        return 1.0  # a CJK headline broken over two lines, run together in <title>
    return sum(token in reference_tokens for token in heading_tokens) / len(heading_tokens)


def _title_parts(title: str) -> list[str]:
    """The parts of ``<title>`` between site-name separators."""
    return [part.strip() for part in _SITE_SEPARATOR_RE.split(title) if part.strip()] if title else []
