"""Can a learned selector choose better than ``auto`` among the candidates it builds? (issue 24)

    .venv/bin/pip install -e '.[train]'          # scikit-learn, for this study only
    .venv/bin/python benchmarks/selector_study.py [--algorithms] [--folds 5]

For every page of the four development sets, candidates: ``auto``'s choice; its root's
ancestors (up to six); every ``<article>`` and ``<main>``; the ancestors of the headline (up
to six); the four subtrees of largest total not nested in one another; ``auto`` with one
signal off (teaser cards, captions, names, the punctuation penalty, edge trimming); the
fallback; with ``--algorithms``, the ten other algorithms' choices too. Each alternative
root gets ``auto``'s pruning and refinements, and every candidate is rendered as an
extraction is (comment stage included) and scored against the gold.

Features of each candidate, from the statistics pass and ``auto``'s block values, never
from words or names of the pages: kept positive and negative value, words, link words,
punctuation, blocks and sentence-like blocks kept; the share of the page's positive value;
its words against ``auto``'s; depth and position of the root; whether it holds the
headline, and the value between the headline and it; ``<article>``/``<main>`` and
``itemprop=articleBody`` (is, inside, holds); the coverage of the headline's terms; a
notice's vocabulary; the overlap with a JSON-LD ``articleBody``; the kind of candidate.

Two selectors, trained on pairs (candidate, ``auto``'s choice) labelled by which scores
higher and weighted by the difference: a logistic regression and gradient-boosted trees.
On a page the choice leaves ``auto``'s only for the candidate the model rates most likely
better, and only above a threshold. Folds are grouped by site (every page of a site in one
fold), so that each page is chosen by a model that never saw its site. Printed per set:
``auto``, the oracle of the candidates, and each selector at each threshold: F1 (snippet F1
on trafilatura_eval), mean page F1 and pages lost.
"""

from __future__ import annotations

import argparse
import math
import re
import sys
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import numpy as np
from sklearn.ensemble import GradientBoostingClassifier
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import GroupKFold

sys.path.insert(0, str(Path(__file__).resolve().parent))

from devsets import DEFAULT_DATASETS  # noqa: E402

from scrapy_mainc import ALGORITHMS  # noqa: E402
from scrapy_mainc._extract import _page_text, _without_comments, build_document  # noqa: E402
from scrapy_mainc.algorithms import auto  # noqa: E402
from scrapy_mainc.algorithms._blocks import block_regions  # noqa: E402
from scrapy_mainc.algorithms._context import block_context  # noqa: E402
from scrapy_mainc.algorithms._notices import is_notice, text_sample  # noqa: E402
from scrapy_mainc.algorithms._story import page_topic  # noqa: E402
from scrapy_mainc.core._comments import CommentParams  # noqa: E402
from scrapy_mainc.core._dom import parse_html  # noqa: E402
from scrapy_mainc.core._render import render_text  # noqa: E402
from scrapy_mainc.core._types import Selection  # noqa: E402
from scrapy_mainc.evaluation._evaluate import LOST_F1, Page, load_dataset  # noqa: E402
from scrapy_mainc.evaluation._gold import summarize_scores  # noqa: E402

PARAMS = auto.AutoParams()
#: Variants of ``auto`` with one signal off: their choices are candidates too.
VARIANTS = {
    "no-cards": {"cut_cards": False},
    "no-captions": {"cut_captions": False, "cut_image_boxes": False},
    "no-names": {"use_names": False},
    "no-penalty": {"unpunctuated_penalty": 0.0},
    "no-edges": {"trim_edges": False},
}
KINDS = ("auto", "ancestor", "element", "headline", "top", "variant", "fallback", "algorithm")
_WORD_RE = re.compile(r"\w+")


@dataclass
class Candidate:
    kind: str
    selection: Selection
    score: Any = None
    features: list[float] | None = None


def candidates(document: Any, algorithms: bool) -> list[Candidate]:
    """The candidates of one page (see the module docstring), without duplicates."""
    stats = document.stats
    regions = block_regions(stats)
    context = block_context(document, regions, PARAMS)
    values = auto.block_values(stats, regions, context, document.headline, PARAMS)
    totals = stats.subtree_totals(values)

    def rooted(kind: str, root: int) -> Candidate:
        pruned = auto._pruned(stats, regions, context, totals, root)
        return Candidate(
            kind, auto.refined(document, regions, context, auto.Choice(root, pruned, values, totals), PARAMS)
        )

    found = [Candidate("auto", auto.select(document, PARAMS))]
    base = found[0].selection.nodes[-1] if found[0].selection.nodes else -1
    node = base
    for _ in range(6):
        if node <= 0:
            break
        node = stats.parent[node]
        found.append(rooted("ancestor", node))
    for node, tag in enumerate(stats.tags):
        if (tag in ("article", "main") or stats.nodes[node].get("role") == "main") and totals[node] > 0:
            found.append(rooted("element", node))
    node = document.headline
    for _ in range(6):
        if node <= 0:
            break
        node = stats.parent[node]
        found.append(rooted("headline", node))
    picked: list[int] = []
    for node in sorted(range(len(totals)), key=lambda index: -totals[index]):
        if totals[node] <= 0 or len(picked) == 4:
            break
        if not any(stats.contains(other, node) or stats.contains(node, other) for other in picked):
            picked.append(node)
            found.append(rooted("top", node))
    for overrides in VARIANTS.values():
        found.append(Candidate("variant", auto.select(document, replace(PARAMS, **overrides))))
    found.append(Candidate("fallback", auto.fallback(document, regions, context, PARAMS)))
    if algorithms:
        for name, algorithm in ALGORITHMS.items():
            if name != "auto":
                found.append(Candidate("algorithm", algorithm.select(document, algorithm.params())))
    unique: dict[tuple[tuple[int, ...], frozenset[int]], Candidate] = {}
    for candidate in found:
        if candidate.selection.nodes:
            unique.setdefault((candidate.selection.nodes, candidate.selection.excluded), candidate)
    return list(unique.values())


def page_candidates(page: Page, algorithms: bool) -> list[Candidate]:
    """The scored candidates of ``page``, with their features."""
    text, utf8, _ = _page_text(page.html)
    document = build_document(parse_html(text, utf8), page.url or None)
    found = candidates(document, algorithms)
    stats = document.stats
    regions = block_regions(stats)
    context = block_context(document, regions, PARAMS)
    values = auto.block_values(stats, regions, context, document.headline, PARAMS)
    facts = _PageFacts(document, values)
    described = []
    for candidate in found:
        selection = _without_comments(document, candidate.selection, CommentParams())
        rendered = render_text(stats, selection.nodes, selection.excluded)
        candidate.score = page.gold.score(rendered)
        described.append(facts.features(candidate, regions, rendered))
    base = described[0] if found[0].kind == "auto" else None
    for candidate, features in zip(found, described):  # and relative to auto's choice
        reference = base or features
        features["words against auto's"] = math.log((features["words"] + 1) / (reference["words"] + 1))
        features["coverage against auto's"] = features["coverage"] - reference["coverage"]
        features["words"] = math.log1p(features["words"])
        candidate.features = list(features.values())
    return found


class _PageFacts:
    """What the features of a page's candidates share."""

    def __init__(self, document: Any, values: list[float]) -> None:
        self.document, self.values = document, values
        stats = document.stats
        self.positive = sum(value for value in values if value > 0) or 1.0
        self.topic = page_topic(document.headlines, document.urls)
        self.elements = [
            node
            for node, tag in enumerate(stats.tags)
            if tag in ("article", "main") or stats.nodes[node].get("role") == "main"
        ]
        self.bodies = [
            stats.positions[element] for element in document.article_bodies if element in stats.positions
        ]
        body = (document.article or {}).get("articleBody")
        self.body_words = (
            {word.lower() for word in _WORD_RE.findall(body)[:300]} if isinstance(body, str) else None
        )

    def features(self, candidate: Candidate, regions: Any, rendered: str) -> dict[str, float]:
        stats, values, document = self.document.stats, self.values, self.document
        nodes, excluded = candidate.selection.nodes, candidate.selection.excluded
        kept = [
            0.0
        ] * 7  # positive value, negative value, words, link words, punctuation, blocks, prose blocks
        for root in nodes:
            node = root
            while node < stats.end[root]:
                if node in excluded and node != root:
                    node = stats.end[node]
                    continue
                if regions.is_block[node] and (regions.words[node] or regions.link_words[node]):
                    value = values[node]
                    kept[0 if value > 0 else 1] += value
                    kept[2] += regions.words[node]
                    kept[3] += regions.link_words[node]
                    kept[4] += regions.punct[node]
                    kept[5] += 1
                    kept[6] += regions.words[node] >= PARAMS.sentence_min_words and regions.punct[node] > 0
                node += 1
        root = max(nodes, key=stats.words.__getitem__)
        headline = document.headline
        if headline < 0:
            between = -1.0
        elif stats.contains(root, headline):
            between = 0.0
        elif root > headline:
            between = sum(value for value in values[stats.end[headline] : root] if value > 0)
        else:
            between = 1e4
        sample = text_sample(stats.nodes[root])
        words, link_words = kept[2], kept[3]
        overlap = -1.0
        if self.body_words:
            found = {word.lower() for word in _WORD_RE.findall(rendered)}
            overlap = len(self.body_words & found) / len(self.body_words)
        return {
            "positive value": math.log1p(max(kept[0], 0.0)),
            "negative value": kept[1] / (kept[0] + 1),
            "words": words,
            "link share": link_words / (words + link_words) if words + link_words else 0.0,
            "punctuation per word": kept[4] / (words + 1),
            "blocks": math.log1p(kept[5]),
            "sentence-like blocks": math.log1p(kept[6]),
            "share of the page's value": kept[0] / self.positive,
            "depth": stats.depth[root],
            "position": root / len(stats),
            "holds the headline": float(headline >= 0 and stats.contains(root, headline)),
            "no headline": float(headline < 0),
            "value between headline and root": math.log1p(min(max(between, 0.0), 1e4)),
            "is article/main": float(root in self.elements),
            "inside article/main": float(any(stats.contains(element, root) for element in self.elements)),
            "holds article/main": float(
                any(stats.contains(root, element) and element != root for element in self.elements)
            ),
            "is the marked body": float(root in self.bodies),
            "holds the marked body": float(any(stats.contains(root, body) for body in self.bodies)),
            "notice vocabulary": float(is_notice(sample)),
            "JSON-LD articleBody overlap": overlap,
            **{f"kind {kind}": float(candidate.kind == kind) for kind in KINDS},
            "coverage": self.topic.coverage(sample),
        }


def site_of(set_name: str, page: Page) -> str:
    host = urlsplit(page.url).netloc.removeprefix("www.") if page.url else ""
    return f"{set_name}:{host or page.page_id}"


def cross_validated(pages: list[dict[str, Any]], model: Any, threshold: float, folds: int) -> list[int]:
    """For every page, the index of the candidate chosen by a model trained on the other folds."""
    chosen = [page["auto"] for page in pages]
    groups = [page["site"] for page in pages]
    for train, test in GroupKFold(n_splits=folds).split(pages, groups=groups):
        rows, labels, weights = [], [], []
        for index in train:
            page = pages[index]
            base = page["features"][page["auto"]]
            for candidate, (features, f1) in enumerate(zip(page["features"], page["f1"])):
                difference = f1 - page["f1"][page["auto"]]
                if candidate != page["auto"] and abs(difference) >= 0.05:
                    rows.append(np.concatenate([features - base, features]))
                    labels.append(int(difference > 0))
                    weights.append(abs(difference))
        fitted = model().fit(np.array(rows), np.array(labels), sample_weight=np.array(weights))
        for index in test:
            page = pages[index]
            base = page["features"][page["auto"]]
            pairs = np.array([np.concatenate([features - base, features]) for features in page["features"]])
            better = fitted.predict_proba(pairs)[:, 1]
            better[page["auto"]] = 0.0
            best = int(np.argmax(better))
            if better[best] > threshold:
                chosen[index] = best
    return chosen


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--datasets", nargs="+", type=Path, default=DEFAULT_DATASETS)
    parser.add_argument("--algorithms", action="store_true", help="the ten other algorithms' choices too")
    parser.add_argument("--folds", type=int, default=5)
    args = parser.parse_args()
    pages: list[dict[str, Any]] = []
    page_kind: dict[str, Any] = {}
    for path in args.datasets:
        for page in load_dataset(path):
            page_kind[path.name] = page.gold.kind
            found = page_candidates(page, args.algorithms)
            if not found or found[0].kind != "auto":  # auto chose nothing: its empty text is a candidate
                found.insert(0, Candidate("auto", Selection(), page.gold.score("")))
            pages.append(
                {
                    "set": path.name,
                    "site": site_of(path.name, page),
                    "auto": 0,
                    "scores": [candidate.score for candidate in found],
                    "f1": [candidate.score.f1 for candidate in found],
                    "features": [candidate.features for candidate in found],
                }
            )
        print(f"{path.name}: candidates built", file=sys.stderr, flush=True)
    width = max(len(features) for page in pages for features in page["features"] if features)
    for page in pages:
        page["features"] = np.array([features or [0.0] * width for features in page["features"]])
    rows = {
        "auto": [0] * len(pages),
        "oracle of the candidates": [int(np.argmax(page["f1"])) for page in pages],
    }
    models = {
        "logistic": lambda: LogisticRegression(C=0.3, max_iter=5000),
        "boosted trees": lambda: GradientBoostingClassifier(
            n_estimators=100, max_depth=3, learning_rate=0.05, subsample=0.8, random_state=0
        ),
    }
    for name, model in models.items():
        for threshold in (0.5, 0.7, 0.85):
            rows[f"{name}, threshold {threshold}"] = cross_validated(pages, model, threshold, args.folds)
    names = [path.name for path in args.datasets]
    print("| selector | " + " | ".join(f"{name} F1 | page F1 | lost" for name in names) + " |")
    print("|---|" + "---|---|---|" * len(names))
    for label, choice in rows.items():
        cells = []
        for name in names:
            picked = [(page, index) for page, index in zip(pages, choice) if page["set"] == name]
            scores = [page["scores"][index] for page, index in picked]
            summary = summarize_scores(page_kind[name], scores)
            f1s = [score.f1 for score in scores]
            cells.append(f"{summary.f1:.3f} | {sum(f1s) / len(f1s):.3f} | {sum(f1 < LOST_F1 for f1 in f1s)}")
        print(f"| {label} | " + " | ".join(cells) + " |", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
