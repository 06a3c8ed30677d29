"""What a page shows of its kind: the signals the page-type model reads (:mod:`._pagetype`).

Seven kinds of page reach a crawler (article, forum, listing, collection, product,
documentation, service: WCXB's types). Each leaves traces a reader sees at a glance, and
the signals here measure them on the prepared page, before any algorithm chooses:

* **markup** the page states: schema.org types (JSON-LD and microdata: an article, a
  product, a discussion, a list...), ``og:type``, a publication date and an author;
* **shape** of the text: words, the share in links, in paragraphs, in headings and list
  items, paragraph length, punctuation;
* **elements** counted: ``<article>``, ``<pre>``, ``<code>``, tables, ``<time>``, images,
  forms, headings, links to anchors of the page (a table of contents);
* **repetition**: the largest run of alike siblings (same parent and tag: cards, rows,
  posts), how much text it holds and how much of it is links; and the
  run that holds the most prose, whether its members are dated (the posts of a thread);
* **names**: how many ``class``/``id`` names hold words of each kind's vocabulary (post,
  reply, thread...; price, cart...; card, grid...; toc, sidebar, highlight...);
* **prices** shown (currency signs), and **words** the model weighs one by one: those of
  the page's short labels (links, menu items of four words at most), of its buttons, and
  of the start of its paragraphs.

Every count is taken from the shared statistics (:class:`DomStats`) or one XPath over
attributes; nothing here reads the text twice.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Mapping
from typing import Any

from lxml import etree

from ._evidence import jsonld_types
from ._page_shape import shape_signals
from ._stats import DomStats
from ._tags import HEADING_TAGS
from ._types import Document

#: schema.org types by the kind of page they state.
SCHEMA_GROUPS = {
    "article": frozenset(
        """Article NewsArticle BlogPosting ReportageNewsArticle OpinionNewsArticle AnalysisNewsArticle
        BackgroundNewsArticle Report ScholarlyArticle LiveBlogPosting Blog""".split()
    ),
    "product": frozenset(
        "Product ProductGroup Offer AggregateOffer IndividualProduct ProductModel Vehicle Car".split()
    ),
    "forum": frozenset("DiscussionForumPosting QAPage Question Answer Comment SocialMediaPosting".split()),
    "list": frozenset("ItemList CollectionPage SearchResultsPage OfferCatalog".split()),
    "doc": frozenset("TechArticle APIReference SoftwareSourceCode HowTo Course LearningResource".split()),
    "org": frozenset(
        """Organization LocalBusiness Service ProfessionalService FAQPage ContactPage AboutPage
        Corporation MedicalBusiness HomeAndConstructionBusiness Store WebApplication""".split()
    ),
}
#: Words of ``class``/``id`` names by the kind of part they name.
NAME_GROUPS = {
    "forum": frozenset(
        """post posts message messages reply replies thread threads topic topics forum forums
        answer answers question vote votes avatar username userinfo postbit poster""".split()
    ),
    "comment": frozenset({"comment", "comments"}),
    "product": frozenset(
        """product products price prices cart basket sku buy variant variants quantity qty
        stock checkout""".split()
    ),
    "card": frozenset(
        """card cards grid tile tiles item items listing listings result results teaser
        teasers collection""".split()
    ),
    "doc": frozenset(
        "doc docs documentation toc sidebar api highlight syntax language code codeblock".split()
    ),
    "service": frozenset(
        """hero cta feature features testimonial testimonials pricing contact service
        services benefits faq""".split()
    ),
    "article": frozenset({"article", "entry", "story", "byline", "author", "headline"}),
}
# (plain strings: lxml's "smart" ones each keep a reference to their element)
_CLASSES = etree.XPath("descendant-or-self::*/@class", smart_strings=False)
_IDS = etree.XPath("descendant-or-self::*/@id", smart_strings=False)
#: Currency signs: a page's prices show them.
CURRENCY_SIGNS = "$€£¥₹"
#: A date as a post's stamp shows it (numeric, ISO, English month names, "3 days ago").
_DATE_RE = re.compile(
    r"\b(?:\d{1,2}[/.-]\d{1,2}[/.-]\d{2,4}|\d{4}-\d{2}-\d{2}"
    r"|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.? \d{1,2},? \d{4}"
    r"|\d{1,2} (?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]* \d{4}"
    r"|\d+ (?:minutes?|hours?|days?|weeks?|months?|years?) ago)\b",
    re.IGNORECASE,
)
#: What a label's words are stripped of: punctuation at their ends, as written.
_LABEL_MARKS = (
    "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~\u00a0\u00ab\u00bb\u2013\u2014\u2018\u2019\u201c\u201d\u2022\u2026"
)
#: A label has at most this many words (a link, a button, a menu item, a heading of a card).
LABEL_MAX_WORDS = 4
#: Characters of the paragraphs' text whose words the model weighs.
PROSE_CHARS = 3000
#: A member of a run of posts has this many words outside links, with punctuation.
POST_MIN_WORDS = 10
#: Text pieces of a post read for its date stamp.
STAMP_PIECES = 60


def _log(value: float) -> float:
    return math.log1p(max(value, 0.0))


#: The page's words by where they stand: its short labels, its buttons, its paragraphs.
PageWords = Mapping[str, frozenset[str]]


def quick_signals(document: Document) -> tuple[dict[str, float], PageWords]:
    """The signals that cost one pass or none (markup, shape, labels and prices), and the
    page's words (:data:`PageWords`: ``label``, ``button`` and ``prose``): enough to tell
    most articles."""
    stats = document.stats
    signals = _markup(document)
    signals.update(_shape(stats))
    labelled, prices = labels(stats)
    signals["prices"] = _log(prices)
    evidence = document.evidence
    buttons = _words(evidence.buttons.lower()) if evidence is not None and evidence.buttons else frozenset()
    prose = frozenset(prose_start(stats).split())
    return signals, {"label": labelled, "button": buttons, "prose": prose}


def more_signals(document: Document) -> tuple[dict[str, float], frozenset[str]]:
    """The signals that cost more (names, runs of alike siblings, posts, the layout:
    :mod:`._page_shape`), and the words of the page's ``class`` and ``id`` names."""
    signals, names = _names(document.root)
    runs = sibling_runs(document.stats)
    signals.update(_runs(document.stats, runs))
    signals.update(shape_signals(document, runs))
    return signals, names


def _markup(document: Document) -> dict[str, float]:
    """schema.org groups, ``og:type``, a publication date and an author."""
    evidence, article = document.evidence, document.article or {}
    objects: list[dict[str, Any]] = evidence.jsonld if evidence is not None else []
    types = {name for obj in objects for name in jsonld_types(obj)}
    types.update(document.itemtypes)
    signals = {f"ld_{group}": float(not names.isdisjoint(types)) for group, names in SCHEMA_GROUPS.items()}
    meta = evidence.meta if evidence is not None else {}
    og_type = evidence.first_meta("og:type").strip().lower() if evidence is not None else ""
    signals["og_article"] = float(og_type == "article")
    signals["og_product"] = float("product" in og_type)
    signals["og_website"] = float(og_type == "website")
    dated = bool(meta.get("article:published_time") or article.get("datePublished"))
    signals["has_pubdate"] = float(dated or any("datePublished" in obj for obj in objects))
    signals["has_author"] = float(
        bool(meta.get("author") or meta.get("article:author") or article.get("author"))
    )
    return signals


#: The tags whose nodes :func:`_shape` reads one by one.
_SHAPE_TAGS = frozenset({"p", "li", *HEADING_TAGS})


def _shape(stats: DomStats) -> dict[str, float]:
    """Words, links, element counts and where the text stands."""
    tags, words, link_words, own_words = stats.tags, stats.words, stats.link_words, stats.own_words
    total = words[0] or 1
    per_hundred = total / 100 + 1
    counts = Counter(tags)
    paragraphs, heading_words, item_words = [], 0, 0
    for node in [node for node, tag in enumerate(tags) if tag in _SHAPE_TAGS]:
        tag = tags[node]
        if tag == "p":
            paragraphs.append(words[node] - link_words[node])
        elif tag == "li":
            item_words += own_words[node]
        else:
            heading_words += words[node]
    headings = sum(counts[tag] for tag in HEADING_TAGS)
    return {
        "words": _log(words[0]) / 10,
        "link_share": link_words[0] / total,
        "links_per": _log(len(stats.link_positions) / per_hundred),
        "articles": _log(counts["article"]),
        "pre": _log(counts["pre"]),
        "code": _log(counts["code"]),
        "table": _log(counts["table"]),
        "th": _log(counts["th"]),
        "time": _log(counts["time"]),
        "h1": _log(counts["h1"]),
        "h23": _log(counts["h2"] + counts["h3"]),
        "headings_per": _log(headings / per_hundred),
        "li_per": _log(counts["li"] / per_hundred),
        "img_per": _log(counts["img"] / per_hundred),
        "p_per": _log(counts["p"] / per_hundred),
        "form": _log(counts["form"]),
        "p_share": sum(paragraphs) / total,
        "p_mean": _log(sum(paragraphs) / len(paragraphs)) / 5 if paragraphs else 0.0,
        "long_p": _log(sum(1 for count in paragraphs if count >= 40)) / 3,
        "heading_share": heading_words / total,
        "li_share": item_words / total,
        "punct_rate": stats.punct[0] / total * 10,
    }


def page_words(signals: Mapping[str, float]) -> int:
    """The page's words, read back from its ``words`` signal."""
    return round(math.expm1(signals["words"] * 10))


def largest_run(signals: Mapping[str, float]) -> int:
    """The members of the page's largest run of alike siblings, read back from its
    ``rep_count`` signal (:func:`more_signals`)."""
    return round(math.expm1(signals.get("rep_count", 0.0) * 3))


def labels(stats: DomStats) -> tuple[frozenset[str], int]:
    """The lower-cased words of the page's short labels (elements whose whole text has at
    most :data:`LABEL_MAX_WORDS` words: a link, a button's text, a menu item, a card's
    name), and the currency signs they show (prices stand in short elements)."""
    short = " ".join(
        [
            text
            for text, own, count in zip(stats.texts, stats.own_words, stats.words)
            if text and own and count <= LABEL_MAX_WORDS
        ]
    ).lower()
    prices = sum(short.count(sign) for sign in CURRENCY_SIGNS)
    return frozenset(short.split()), prices


def prose_start(stats: DomStats) -> str:
    """The first :data:`PROSE_CHARS` characters of the page's paragraphs (``<p>``' own
    text), lower-cased: how the page speaks to its reader ("we", "our", "you" on a
    company's page; "said", "according" in a story)."""
    pieces: list[str] = []
    total = 0
    for text, tag in zip(stats.texts, stats.tags):
        if text and tag == "p":
            pieces.append(text)
            total += len(text)
            if total >= PROSE_CHARS:
                break
    return " ".join(pieces)[:PROSE_CHARS].lower()


def _words(text: str) -> frozenset[str]:
    """The words of ``text``, split at spaces, without the punctuation at their ends."""
    return frozenset(word.strip(_LABEL_MARKS) for word in text.split()) - {""}


def _names(root: etree._Element) -> tuple[dict[str, float], frozenset[str]]:
    """How often the page's ``class`` and ``id`` values use a word of each group of names
    (split at spaces, hyphens and underscores, lower-cased: one pass over their joined
    text), and the words they use (the full model weighs them one by one)."""
    joined = " ".join(_CLASSES(root) + _IDS(root)).lower().replace("-", " ").replace("_", " ")
    found = Counter(joined.split())
    signals = {
        f"c_{group}": _log(sum(found[name] for name in names)) / 5 for group, names in NAME_GROUPS.items()
    }
    return signals, frozenset(found)


def sibling_runs(stats: DomStats) -> dict[tuple[int, str], list[int]]:
    """The page's runs of alike siblings: elements of three words or more, not leaves, by
    their parent and tag (the layout's items are read from them too: :mod:`._page_shape`)."""
    tags, words, end, parent = stats.tags, stats.words, stats.end, stats.parent
    runs: dict[tuple[int, str], list[int]] = {}
    for node in [node for node, count in enumerate(words) if count >= 3 and end[node] > node + 1]:
        runs.setdefault((parent[node], tags[node]), []).append(node)
    runs.pop((-1, tags[0]), None)  # the analysis root is no member of a run
    return runs


def _runs(stats: DomStats, runs: dict[tuple[int, str], list[int]]) -> dict[str, float]:
    """The largest run of alike siblings (same parent and tag, three words or more, not
    a leaf), and the run of alike siblings holding the most prose (posts): how many, how
    much text, links, punctuation, dates."""
    words, link_words = stats.words, stats.link_words
    signals = dict.fromkeys(
        ("rep_count", "rep_words", "rep_link", "rep_cover", "rep_punct"), 0.0
    ) | dict.fromkeys(("post_count", "post_cover", "post_dated", "post_first_share"), 0.0)
    if not runs:
        return signals
    total = words[0] or 1
    largest = max(runs.values(), key=len)
    run_words = sum(words[node] for node in largest) or 1
    signals.update(
        rep_count=_log(len(largest)) / 3,
        rep_words=_log(run_words / len(largest)) / 5,
        rep_link=sum(link_words[node] for node in largest) / run_words,
        rep_cover=run_words / total,
        rep_punct=sum(stats.punct[node] for node in largest) / run_words * 10,
    )
    signals.update(_posts(stats, runs))
    return signals


def _posts(stats: DomStats, runs: dict[tuple[int, str], list[int]]) -> dict[str, float]:
    """The run of alike siblings with the most prose (each with ``POST_MIN_WORDS`` words
    outside links and some punctuation), read as a thread's posts."""
    words, link_words, punct = stats.words, stats.link_words, stats.punct
    best: list[int] = []
    best_words = 0
    for members in runs.values():
        posts = [node for node in members if words[node] - link_words[node] >= POST_MIN_WORDS and punct[node]]
        prose = sum(words[node] - link_words[node] for node in posts)
        if len(posts) >= 2 and prose > best_words:
            best, best_words = posts, prose
    if not best:
        return {}
    prose_total = sum(count for count, marks in zip(stats.own_words, stats.own_punct) if marks) or 1
    first = best[0]
    return {
        "post_count": _log(len(best)) / 3,
        "post_cover": min(best_words / prose_total, 1.5),
        "post_dated": sum(_dated(stats, post) for post in best) / len(best),
        "post_first_share": (words[first] - link_words[first]) / best_words,
    }


def _dated(stats: DomStats, post: int) -> bool:
    """Whether ``post`` shows a ``<time>`` or a date among its first text pieces."""
    stop = stats.end[post]
    if "time" in stats.tags[post:stop]:
        return True
    texts = [text for text in stats.texts[post : min(stop, post + STAMP_PIECES)] if text]
    return bool(_DATE_RE.search(" ".join(texts)))
