"""Near-duplicate quality: fingerprints of ``main_text`` versus fingerprints of the whole page.

    python -m benchmarks.neardup.quality [--datasets DIR] [--limit N] [--output FILE]
    python -m benchmarks.neardup.quality --test-corpus tests/data/near_duplicates.json

Builds a near-duplicate test set from the shared datasets (``<DIR>/scrapinghub`` and
``<DIR>/zh_news``: ``html/<id>.html`` and ``gold.json`` with ``articleBody``). Every article
with at least 3 paragraphs and 100 words appears as ten pages, nine of them copies of its
story (edits in variants.py):

* ``original``: the dataset's own page (the publisher's real template);
* ``template``: the article in a made-up site;
* ``headline``: in another site, under a changed headline;
* ``paragraph``: in a third site, with a paragraph of another article added (the one
  closest to a tenth of the article's length);
* ``trimmed``: in a fourth site, its last tenth cut off at a sentence end;
* ``resyndicated``: in the first made-up site again, with other comments and links;
* ``cut-lead`` / ``cut-end``: in a random site, the first / last one or two paragraphs gone;
* ``note``: in a random site, with an editor's note above or below the article;

and one a different story on the same news, which must stay apart from them:

* ``rewrite``: another outlet's rewrite of the wire copy (some sentences kept word for
  word, the others rephrased or left out).

Sites differ in navigation, related-links boxes, footers and reader comments (see
templates.py); comments and related links are drawn per page. Different articles,
including the pairs that share the most vocabulary (the same-topic pairs), are the
negatives. For each page three texts are fingerprinted: the article text as placed (the
reference an ideal extractor would reach), ``scrapy_mainc.extract(html).text`` (default
algorithm) and the whole page text (every text node outside script and style). A page pair
is predicted a duplicate when the MinHash estimates reach the thresholds (exhaustively over
all pairs), when the leader-clustering index puts both in one cluster,
or when their SimHashes are at most 3 bits apart. Everything is seeded: reruns print the
same figures. It prints markdown tables and writes them, as the "Near-duplicates" section
of docs/benchmarks.md, to ``--output``.

``--test-corpus FILE`` writes instead the test suite's near-duplicate set (the article texts
as placed, ten pages per story) made the same way from the bundled site's stories
(``example_project/site_src/stories.py``, invented for this project): the tests read that
file, so they run the same in every clone, with or without the development sets.
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
import sys
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from lxml import etree

from benchmarks.devsets import DATASETS_DIR
from benchmarks.neardup.decisions import (
    assignments,
    cluster_pairs,
    exact_overlap,
    local_redis,
    minhash_pairs,
    signatures,
    simhash_pairs,
)
from benchmarks.neardup.report import MAIN_TEXT, PLACED, WHOLE_PAGE, Report, Score, write_report
from benchmarks.neardup.templates import SITES, draw_parts, render_page
from benchmarks.neardup.variants import SENTENCE_END_RE, add_note, add_paragraph, cut, rewrite, trim
from scrapy_mainc import CommentParams, extract
from scrapy_mainc.core._decode import decode_html  # the package's decoder; no public wrapper yet
from scrapy_mainc.dedup import (
    FingerprintParams,
    IndexParams,
    tokens,
)
from scrapy_mainc.evaluation._metric import PageScore, score_page, summarize

SEED = 20240605
COMMAND = "python -m benchmarks.neardup.quality"
DATASETS = {"scrapinghub": "en", "zh_news": "zh"}
#: Pages of each article; every one but ``rewrite`` (another outlet's story) is a copy of it.
VARIANTS = (
    "original",
    "template",
    "headline",
    "paragraph",
    "trimmed",
    "resyndicated",
    "cut-lead",
    "cut-end",
    "note",
    "rewrite",
)
#: The variant that is a different story on the same news, not a copy.
REWRITE = "rewrite"
MIN_PARAGRAPHS = 3
MIN_WORDS = 100
SIMHASH_BITS = 3
SAME_TOPIC_PAIRS = 20
_NON_TEXT_TAGS = ("script", "style", "noscript", "template")


@dataclass(frozen=True, slots=True)
class Article:
    id: str
    lang: str
    title: str
    paragraphs: tuple[str, ...]
    html: bytes


@dataclass(frozen=True, slots=True)
class Page:
    #: Id of the article the page was made from.
    article: str
    lang: str
    variant: str
    html: str | bytes
    #: The article text as placed on the page (no headline): the reference.
    placed_text: str
    #: The made-up site the page was rendered for; "" for the publisher's own page.
    site: str = ""

    @property
    def story(self) -> str:
        """The story the page tells: its article's, except for another outlet's rewrite."""
        return f"{self.article}~{REWRITE}" if self.variant == REWRITE else self.article


def load_articles(root: Path, limit: int) -> list[Article]:
    """Eligible articles of every dataset under ``root``, sorted by id, ``limit`` per dataset."""
    articles = []
    for name, lang in DATASETS.items():
        gold = json.loads((root / name / "gold.json").read_text("utf-8"))
        chosen = 0
        for page_id in sorted(gold):
            body = gold[page_id]["articleBody"]
            paragraphs = tuple(line.strip() for line in body.split("\n") if line.strip())
            if len(paragraphs) < MIN_PARAGRAPHS or len(tokens(" ".join(paragraphs))) < MIN_WORDS:
                continue
            html = (root / name / "html" / f"{page_id}.html").read_bytes()
            title = extract(html).title or " ".join(tokens(paragraphs[0])[:10])
            articles.append(Article(f"{name}/{page_id}", lang, title, paragraphs, html))
            chosen += 1
            if limit and chosen >= limit:
                break
    return articles


def bundled_articles() -> list[Article]:
    """The bundled news site's stories as articles: standfirst and paragraphs (no page)."""
    from example_project.site_src import stories

    return [
        Article(f"site/{story.slug}", lang, story.headline, (story.standfirst, *story.paragraphs), b"")
        for lang, group in (("en", stories.ENGLISH), ("zh", stories.CHINESE))
        for story in group
    ]


def write_test_corpus(path: Path) -> int:
    """The near-duplicate set of the bundled site's stories, as JSON, to ``path``."""
    pages = make_pages(bundled_articles(), random.Random(SEED))
    corpus = {
        "made_by": f"{COMMAND} --test-corpus {path}",
        "source": "example_project/site_src/stories.py: stories invented for this project (its licence)",
        "pages": [
            {"story": page.story, "variant": page.variant, "lang": page.lang, "text": page.placed_text}
            for page in pages
        ],
    }
    path.write_text(json.dumps(corpus, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(f"{len(pages)} pages of {len(pages) // len(VARIANTS)} stories to {path}", file=sys.stderr)
    return 0


def make_pages(articles: Sequence[Article], rng: random.Random) -> list[Page]:
    """Ten pages per article (see the module docstring)."""
    pages = []
    for article in articles:
        peers = [a for a in articles if a.lang == article.lang and a.id != article.id]
        titles = [other.title for other in peers]
        sites = list(SITES)
        rng.shuffle(sites)
        title, paragraphs, lang = article.title, article.paragraphs, article.lang
        edits = {
            "template": (title, paragraphs, sites[0]),
            "headline": (_new_headline(article), paragraphs, sites[1]),
            "paragraph": (title, add_paragraph(paragraphs, rng.choice(peers).paragraphs, rng), sites[2]),
            "trimmed": (title, trim(paragraphs), sites[3]),
            "resyndicated": (title, paragraphs, sites[0]),
            "cut-lead": (title, cut(paragraphs, True, rng), rng.choice(sites)),
            "cut-end": (title, cut(paragraphs, False, rng), rng.choice(sites)),
            "note": (title, add_note(paragraphs, lang, rng), rng.choice(sites)),
            "rewrite": (
                _new_headline(article),
                rewrite(paragraphs, rng.choice(peers).paragraphs, lang, rng),
                rng.choice(sites),
            ),
        }
        placed = "\n".join(paragraphs)
        pages.append(Page(article.id, lang, "original", article.html, placed))
        for variant, (headline, edited, site) in edits.items():
            parts = draw_parts(headline, edited, titles, lang, rng)
            html = render_page(site, parts, lang)
            pages.append(Page(article.id, lang, variant, html, "\n".join(edited), site))
    return pages


def _new_headline(article: Article) -> str:
    first_sentence = SENTENCE_END_RE.split(article.paragraphs[0])[0]
    words = tokens(first_sentence)[: 12 if article.lang == "en" else 20]
    return (" " if article.lang == "en" else "").join(words).capitalize()


def whole_page_text(html: str | bytes) -> str:
    """Every text node of the page outside script, style, noscript and template."""
    text = decode_html(html).text if isinstance(html, bytes) else html
    parser = etree.HTMLParser(remove_comments=True, remove_pis=True, huge_tree=True)
    root = etree.fromstring(text.encode("utf-8", "surrogatepass"), parser)
    if root is None:
        return ""
    etree.strip_elements(root, *_NON_TEXT_TAGS, with_tail=False)
    return " ".join(" ".join(root.itertext()).split())


def score(predicted: set[tuple[int, int]], truth: set[tuple[int, int]], rows: set[int]) -> Score:
    """Pair precision and recall restricted to pages in ``rows``."""
    inside = {pair for pair in predicted if pair[0] in rows and pair[1] in rows}
    true_inside = {pair for pair in truth if pair[0] in rows and pair[1] in rows}
    return Score(len(inside), len(true_inside), len(inside & true_inside))


def same_topic_pairs(articles: Sequence[Article]) -> list[tuple[str, str, float]]:
    """The ``SAME_TOPIC_PAIRS`` pairs of different articles of one dataset with the most
    vocabulary in common (Jaccard of their sets of words of 4+ letters, or of Han bigrams)."""
    vocab = {article.id: _vocabulary(article) for article in articles}
    scored = []
    for first, second in itertools.combinations(articles, 2):
        if first.lang == second.lang:
            a, b = vocab[first.id], vocab[second.id]
            scored.append((len(a & b) / max(len(a | b), 1), first.id, second.id))
    scored.sort(reverse=True)
    return [(first, second, jaccard) for jaccard, first, second in scored[:SAME_TOPIC_PAIRS]]


def _vocabulary(article: Article) -> set[str]:
    words = tokens(" ".join(article.paragraphs))
    if article.lang == "zh":
        return {a + b for a, b in itertools.pairwise(words) if len(a) == len(b) == 1}
    return {word for word in words if len(word) >= 4}


@dataclass(frozen=True, slots=True)
class Outcome:
    """Predicted duplicate pairs of one text source and decision, and their scores."""

    pairs: set[tuple[int, int]]
    scores: dict[str, Score]


def evaluate(
    pages: Sequence[Page], texts: dict[str, list[str]], params: IndexParams, redis_url: str = ""
) -> tuple[dict[tuple[str, str], Outcome], dict[str, bool]]:
    """Every (text source, decision) scored on all pages and on each language; with a
    ``redis_url``, also whether a Redis index assigns every page as the memory index does."""
    truth = true_pairs(pages)
    groups = {"all": set(range(len(pages)))}
    for lang in DATASETS.values():
        groups[lang] = {row for row, page in enumerate(pages) if page.lang == lang}
    order = list(range(len(pages)))
    random.Random(SEED).shuffle(order)
    threshold = params.threshold
    outcomes, same_on_redis = {}, {}
    for source, source_texts in texts.items():
        sig = signatures(source_texts, params.fingerprint)
        assigned = assignments(sig, params, order)
        if redis_url:
            same_on_redis[source] = assignments(sig, replace(params, redis_url=redis_url), order) == assigned
        decisions = {
            f"MinHash J >= {threshold}": minhash_pairs(sig, params, containment=False),
            f"J >= {threshold} or C >= {params.containment}": minhash_pairs(sig, params, containment=True),
            "LSH index clusters": cluster_pairs(assigned),
            f"SimHash <= {SIMHASH_BITS} bits": simhash_pairs(sig, SIMHASH_BITS),
        }
        for decision, predicted in decisions.items():
            scores = {group: score(predicted, truth, rows) for group, rows in groups.items()}
            outcomes[(source, decision)] = Outcome(predicted, scores)
    return outcomes, same_on_redis


def order_note(pages: Sequence[Page], main_texts: Sequence[str], params: IndexParams, orders: int) -> str:
    """The range of ``main_text`` precision and recall through the index over ``orders``
    arrival orders (seeds ``SEED`` to ``SEED + orders - 1``), by language."""
    sig = signatures(main_texts, params.fingerprint)
    truth = true_pairs(pages)
    found: dict[str, list[Score]] = {lang: [] for lang in DATASETS.values()}
    for number in range(orders):
        order = list(range(len(pages)))
        random.Random(SEED + number).shuffle(order)
        predicted = cluster_pairs(assignments(sig, params, order))
        for lang in found:
            rows = {row for row, page in enumerate(pages) if page.lang == lang}
            found[lang].append(score(predicted, truth, rows))

    def span(values: list[float]) -> str:
        return f"{min(values):.3f} to {max(values):.3f}"

    ranges = "; ".join(
        f"{lang}: precision {span([s.precision for s in scores])}, recall {span([s.recall for s in scores])}"
        for lang, scores in found.items()
    )
    return f"`main_text` through the index in {orders} arrival orders: {ranges}."


def extraction_table(pages: Sequence[Page], main_texts: Sequence[str]) -> str:
    """Mean precision and recall of ``main_text`` against the article text as placed, by
    made-up site and language (the benchmark's metric, ``scrapy_mainc.evaluation._metric``)."""
    scores: dict[tuple[str, str], list[PageScore]] = {}
    for page, text in zip(pages, main_texts):
        if page.site:
            scores.setdefault((page.site, page.lang), []).append(score_page(page.placed_text, text))
    lines = [
        "Extraction on the made-up sites: `main_text` against the article text as placed.",
        "",
        "| site | language | pages | precision | recall |",
        "|---|---|---:|---:|---:|",
    ]
    for (site, lang), group in sorted(scores.items()):
        summary = summarize(group)
        lines.append(f"| {site} | {lang} | {len(group)} | {summary.precision:.3f} | {summary.recall:.3f} |")
    return "\n".join(lines) + "\n"


def true_pairs(pages: Sequence[Page]) -> set[tuple[int, int]]:
    """Pairs of pages of one story."""
    rows = range(len(pages))
    return {(i, j) for i, j in itertools.combinations(rows, 2) if pages[i].story == pages[j].story}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--datasets", type=Path, default=DATASETS_DIR
    )
    parser.add_argument("--limit", type=int, default=0, help="articles per dataset (0: all)")
    parser.add_argument("--output", type=Path, default=Path("/tmp/docs_neardup_section.md"))
    parser.add_argument("--threshold", type=float, default=IndexParams().threshold)
    parser.add_argument("--containment", type=float, default=IndexParams().containment)
    parser.add_argument("--min-size-ratio", type=float, default=IndexParams().min_size_ratio)
    parser.add_argument("--word-shingle", type=int, default=FingerprintParams().word_shingle)
    parser.add_argument("--char-shingle", type=int, default=FingerprintParams().char_shingle)
    parser.add_argument(
        "--orders", type=int, default=1, help="also report the index's spread over this many arrival orders"
    )
    parser.add_argument(
        "--redis",
        action="store_true",
        help="also cluster through a Redis index (a redis-server started on loopback) and "
        "check that it assigns every page as the memory index does",
    )
    parser.add_argument(
        "--no-comment-headings",
        action="store_true",
        help="extract without the comment-section heading rule (CommentParams(headings=False))",
    )
    parser.add_argument(
        "--test-corpus",
        type=Path,
        metavar="FILE",
        help="write the tests' near-duplicate set, made from the bundled site's stories, and stop",
    )
    args = parser.parse_args(argv)
    if args.test_corpus:
        return write_test_corpus(args.test_corpus)
    comments = CommentParams(headings=not args.no_comment_headings)

    fingerprint = FingerprintParams(word_shingle=args.word_shingle, char_shingle=args.char_shingle)
    params = IndexParams(
        threshold=args.threshold,
        containment=args.containment,
        min_size_ratio=args.min_size_ratio,
        fingerprint=fingerprint,
    )
    articles = load_articles(args.datasets, args.limit)
    pages = make_pages(articles, random.Random(SEED))
    print(f"{len(articles)} articles, {len(pages)} pages", file=sys.stderr, flush=True)
    texts = {
        PLACED: [page.placed_text for page in pages],
        MAIN_TEXT: [extract(page.html, strip_comments=comments).text for page in pages],
        WHOLE_PAGE: [whole_page_text(page.html) for page in pages],
    }
    with local_redis(args.redis) as redis_url:
        outcomes, same_on_redis = evaluate(pages, texts, params, redis_url)
    notes = [order_note(pages, texts[MAIN_TEXT], params, args.orders)] if args.orders > 1 else []
    if same_on_redis:
        checks = ", ".join(f"{source}: {'yes' if same else 'NO'}" for source, same in same_on_redis.items())
        notes.append(f"A Redis index assigned every page as the memory index did ({checks}).")
    report = Report(
        command=" ".join([COMMAND, *(argv if argv is not None else sys.argv[1:])]),
        params=params,
        articles={lang: sum(a.lang == lang for a in articles) for lang in DATASETS.values()},
        pages=[(page.article, page.lang, page.variant) for page in pages],
        outcomes={key: (outcome.pairs, outcome.scores) for key, outcome in outcomes.items()},
        same_topic=same_topic_pairs(articles),
        overlap=exact_overlap(pages, fingerprint),
        notes=notes,
    )
    extraction = extraction_table(pages, texts[MAIN_TEXT])
    text = write_report(report, args.output, extraction)
    print(text)
    print(extraction)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
