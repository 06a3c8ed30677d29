"""Tables and the documentation section written by quality.py.

The section is "## Near-duplicates" of docs/benchmarks.md; the "## Near-duplicate index at
scale" section after it holds the figures of benchmarks/speed/dedup_scale.py and is kept by hand.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from pathlib import Path

from scrapy_mainc.dedup import IndexParams

PLACED = "article text as placed"
MAIN_TEXT = "`main_text` (extract)"
WHOLE_PAGE = "whole page text"
INDEX = "LSH index clusters"
REWRITE = "rewrite"
#: The copies of a story, by variant name (quality.py).
COPIES = {
    "original": "the publisher's own page",
    "template": "a made-up site",
    "resyndicated": "same site, other comments and links",
    "headline": "other site, changed headline",
    "paragraph": "a paragraph of another article added",
    "trimmed": "last tenth cut",
    "cut-lead": "first 1 or 2 paragraphs gone",
    "cut-end": "last 1 or 2 paragraphs gone",
    "note": "an editor's note added",
}


@dataclass(frozen=True, slots=True)
class Score:
    """Pair counts of one decision on one group of pages."""

    predicted: int
    true: int
    correct: int

    @property
    def precision(self) -> float:
        return self.correct / self.predicted if self.predicted else 1.0

    @property
    def recall(self) -> float:
        return self.correct / self.true if self.true else 1.0

    @property
    def f1(self) -> float:
        total = self.precision + self.recall
        return 2 * self.precision * self.recall / total if total else 0.0


@dataclass(frozen=True, slots=True)
class Report:
    command: str
    params: IndexParams
    articles: dict[str, int]
    #: (article id, language, variant) per page row.
    pages: list[tuple[str, str, str]]
    #: (text source, decision) -> (predicted pairs, scores by page group).
    outcomes: dict[tuple[str, str], tuple[set[tuple[int, int]], dict[str, Score]]]
    #: Same-topic article pairs: (first id, second id, vocabulary Jaccard).
    same_topic: list[tuple[str, str, float]]
    #: Variant -> median exact Jaccard and containment of its placed text's shingles with
    #: the whole article's.
    overlap: dict[str, tuple[float, float]]
    #: Sentences appended to the figures (other arrival orders, the Redis check).
    notes: list[str]


def figures(report: Report) -> str:
    """The measured figures as markdown."""
    pages = len(report.pages)
    true = next(iter(report.outcomes.values()))[1]["all"].true
    fingerprint = report.params.fingerprint
    lines = [
        f"{sum(report.articles.values())} articles ({report.articles.get('en', 0)} from "
        f"scrapinghub, mostly English; {report.articles.get('zh', 0)} from zh_news, Chinese), "
        f"{len(report.pages) // max(len({p[0] for p in report.pages}), 1)} pages each: {pages} pages, {pages * (pages - 1) // 2:,} page pairs of which "
        f"{true:,} are pairs of copies of one story. Threshold {report.params.threshold}, {fingerprint.num_perm} permutations, "
        f"{fingerprint.word_shingle}-word / {fingerprint.char_shingle}-character shingles, "
        f"minimum {fingerprint.min_words} words. Command: `{report.command}`.",
        "",
        "| Text fingerprinted | Decision | Precision | Recall | F1 | P / R (en) | P / R (zh) |",
        "|---|---|---:|---:|---:|---:|---:|",
    ]
    for (source, decision), (_, scores) in report.outcomes.items():
        total, en, zh = scores["all"], scores["en"], scores["zh"]
        lines.append(
            f"| {source} | {decision} | {total.precision:.3f} | {total.recall:.3f} "
            f"| {total.f1:.3f} | {en.precision:.3f} / {en.recall:.3f} "
            f"| {zh.precision:.3f} / {zh.recall:.3f} |"
        )
    lines += ["", *_variant_table(report), "", *_same_topic_lines(report)]
    for note in report.notes:
        lines += ["", note]
    return "\n".join(lines)


def _variant_table(report: Report) -> list[str]:
    """Recall of the pairs of each variant with the other pages of its story."""
    columns = [
        (source, decision)
        for source in (PLACED, MAIN_TEXT)
        for decision in dict.fromkeys(decision for _, decision in report.outcomes)
        if not decision.startswith("SimHash") and (source, decision) in report.outcomes
    ]
    header = " | ".join(f"{_short(source)}, {decision} (en / zh)" for source, decision in columns)
    lines = [
        "Recall by variant: pairs of each page with the other pages of its story; J and C are the "
        "median exact Jaccard similarity and containment of the variant's shingles (article text "
        "as placed) with the whole article's.",
        "",
        f"| Variant | J / C | {header} |",
        "|---|---:|" + "---:|" * len(columns),
    ]
    for variant, label in {**COPIES, REWRITE: "another outlet's rewrite (joined: wrong)"}.items():
        jaccard, containment = report.overlap.get(variant, (float("nan"), float("nan")))
        cells = [f"{jaccard:.2f} / {containment:.2f}"]
        for key in columns:
            pairs = report.outcomes[key][0]
            by_lang = [_variant_pairs(report.pages, variant, lang) for lang in ("en", "zh")]
            cells.append(" / ".join(f"{len(w & pairs) / max(len(w), 1):.3f}" for w in by_lang))
        lines.append(f"| `{variant}`: {label} | " + " | ".join(cells) + " |")
    return lines


def _short(source: str) -> str:
    return {PLACED: "placed", MAIN_TEXT: "`main_text`"}.get(source, source)


def _variant_pairs(pages: list[tuple[str, str, str]], variant: str, lang: str) -> set[tuple[int, int]]:
    """Pairs of the ``variant`` page of each ``lang`` article with its article's other pages
    (for a copy: the other copies; for the rewrite: every copy of the story it rewrites)."""
    rows_of: dict[str, dict[str, int]] = {}
    for row, (article, page_lang, page_variant) in enumerate(pages):
        if page_lang == lang:
            rows_of.setdefault(article, {})[page_variant] = row
    pairs = set()
    for rows in rows_of.values():
        if variant in rows:
            others = [row for name, row in rows.items() if name not in (variant, REWRITE)]
            pairs |= {(min(rows[variant], row), max(rows[variant], row)) for row in others}
    return pairs


def _same_topic_lines(report: Report) -> list[str]:
    rows_of: dict[str, list[int]] = {}
    for row, (article, _, _) in enumerate(report.pages):
        rows_of.setdefault(article, []).append(row)
    cross = set()
    for first, second, _ in report.same_topic:
        pairs = itertools.product(rows_of[first], rows_of[second])
        cross |= {(min(pair), max(pair)) for pair in pairs}
    low, high = min(j for *_, j in report.same_topic), max(j for *_, j in report.same_topic)
    lines = [
        f"Same-topic negatives: the {len(report.same_topic)} pairs of different articles with the "
        f"most vocabulary in common (Jaccard of word sets {low:.2f} to {high:.2f}) give "
        f"{len(cross)} page pairs; wrongly called duplicates:",
        "",
    ]
    for (source, decision), (pairs, _) in report.outcomes.items():
        lines.append(f"- {source}, {decision}: {len(cross & pairs)}")
    return lines


def write_report(report: Report, path: Path, extraction: str = "") -> str:
    """Write the docs/benchmarks.md section with the figures (and the ``extraction`` table)
    to ``path``; return the figures."""
    text = figures(report)
    path.write_text(DOCS_SECTION.format(figures=text, extraction=extraction), encoding="utf-8")
    return text


DOCS_SECTION = """\
## Near-duplicates

`python -m benchmarks.neardup.quality` builds a near-duplicate test set from the scrapinghub
and zh_news datasets: each article as ten pages. Nine are copies of its story: its
publisher's page; four made-up news sites with their own navigation, related-links boxes,
footers and reader comments; a changed headline, an added paragraph, a trimmed ending, the
first or the last one or two paragraphs gone, an editor's note added. The tenth is a
different story that must stay apart: another outlet's rewrite of the same wire copy (40% of
its sentences kept word for word, the others rephrased or left out). The other articles,
including the ones sharing the most vocabulary, are negatives too. It compares fingerprints
of the article text as placed, of `main_text` from `scrapy_mainc.extract` (default
algorithm) and of the whole page text. Precision and recall are over pairs of pages. It is
seeded (reruns print the same figures) and takes about a minute, most of it extracting the
pages; `--orders 5` adds the spread over other arrival orders, `--redis` checks that a Redis
index (on a throwaway local server) assigns every page as the in-memory one does.

{figures}

Reading the figures: the "article text as placed" rows are what a perfect extractor would
reach; the gap from them to `main_text` is extraction quality (navigation, footers or
comments kept in the main text), and the gap from `main_text` to the whole page is what page
chrome costs. "MinHash J >= 0.8" is the Jaccard rule alone over every pair, the decision of
earlier versions; "J >= 0.8 or C >= 0.85" adds containment, still over every pair. "LSH
index clusters" is what the pipeline does (in memory here; the Redis index gives the same
clusters): each page is compared with the representatives of clusters that LSH finds for
it, and a page joins a cluster through the copy that contains it, so its recall can pass
that of the pairwise rule (two copies cut at opposite ends share too little to pass it, yet
both join the full story's cluster). Earlier versions, with LSH tuned for Jaccard 0.8 and
no containment, reached 0.719 on `main_text` through the index on these pages (English
0.701, Chinese 0.765; a copy without its first paragraphs 0.588 and 0.735), at precision
1.000. SimHash over 5-word shingles moves by more than 3 bits under small edits: it is there
as a compact key, not as the clustering decision.

{extraction}The made-up sites mark their comment sections in different ways: by class names, by dated
alike blocks, or (one of them) only by a "Reader comments" heading over an undated list.
`--no-comment-headings` reruns the benchmark without the comment stage's heading rule, to
show what that rule is worth here.
"""
