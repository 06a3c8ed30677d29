"""Can a learned choice between ``auto`` and the page-density algorithm lift WCXB? (issue 33)

    .venv/bin/pip install -e '.[train]'          # scikit-learn, for this study only
    .venv/bin/python benchmarks/wcxb_choice_study.py [--jobs 2]

On WCXB's development split, a perfect choice between ``auto``'s text and CECTD-DS's (the
whole page's densest region, which ``auto`` already takes for a fragment of a page of items:
``density_rescue_ratio``) would lift the mean word F1 by about 0.019, most of it on pages
that are not articles. This study asks whether the choice can be learned from what both
texts show, on sites the model has not seen.

Features of each page, from the two texts and the page's type only (no words, names or
URLs): for each text the logarithm of its words and lines, words per line, the share of
lines under five words, of lines ending as a sentence, of tokens that are numbers; the
logarithm of the ratio of their words; the share of each text's words found in the other;
the page type as ``extract`` gives it. Label: CECTD-DS scores higher, weighted by the
difference. A logistic regression and gradient-boosted trees, trained on the pages of
the other four folds (grouped by site: every page of a site in one fold), switch a page
whose type is not ``article`` to CECTD-DS when they find it likelier better than a
threshold. Printed: the mean word F1 with each model and threshold, the pages switched,
and those switched up and down by more than 0.01.
"""

from __future__ import annotations

import argparse
import math
import sys
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from urllib.parse import urlsplit

sys.path.insert(0, str(Path(__file__).resolve().parent))

from wcxb import PAGE_TYPES, load_pages  # noqa: E402

from scrapy_mainc import extract  # noqa: E402
from scrapy_mainc.evaluation._words import score_words, word_tokens  # noqa: E402

FOLDS = 5
THRESHOLDS = (0.5, 0.6, 0.7, 0.8, 0.9)
SENTENCE_ENDS = tuple(".!?。！？")


def text_features(text: str) -> list[float]:
    """The shape of one extracted text (see the module docstring)."""
    lines = [line for line in text.splitlines() if line.strip()]
    tokens = word_tokens(text)
    count, line_count = len(tokens), max(1, len(lines))
    return [
        math.log1p(count),
        math.log1p(len(lines)),
        count / line_count,
        sum(len(word_tokens(line)) < 5 for line in lines) / line_count,
        sum(line.rstrip().endswith(SENTENCE_ENDS) for line in lines) / line_count,
        sum(token.isdigit() for token in tokens) / max(1, count),
    ]


def page_row(task: tuple[str, str, str, str, bytes]) -> tuple[str, str, list[float], float, float]:
    """One page: its site, its type as given, its features and both texts' word F1."""
    page_id, url, gold, _, html = task
    chosen = extract(html, url=url or None, metadata=False)
    density = extract(html, url=url or None, metadata=False, algorithm="cectd-ds").text
    own, other = Counter(word_tokens(chosen.text)), Counter(word_tokens(density))
    shared = sum((own & other).values())
    features = [
        *text_features(chosen.text),
        *text_features(density),
        math.log1p(sum(other.values())) - math.log1p(sum(own.values())),
        shared / max(1, sum(own.values())),
        shared / max(1, sum(other.values())),
        *(float(chosen.page_type == name) for name in PAGE_TYPES),
    ]
    tokens = word_tokens(gold)
    site = urlsplit(url).hostname or page_id
    scores = score_words(tokens, chosen.text).f1, score_words(tokens, density).f1
    return site, chosen.page_type, features, *scores


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    import numpy as np
    from sklearn.ensemble import GradientBoostingClassifier
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import GroupKFold

    pages = load_pages()
    tasks = [(page.page_id, page.url, page.gold, page.page_type, page.html()) for page in pages]
    with ProcessPoolExecutor(args.jobs) as pool:
        rows = list(pool.map(page_row, tasks, chunksize=16))
    sites = [row[0] for row in rows]
    features = np.array([row[2] for row in rows], dtype=float)
    auto_f1 = np.array([row[3] for row in rows])
    density_f1 = np.array([row[4] for row in rows])
    eligible = np.array([row[1] != "article" for row in rows])
    label, weight = density_f1 > auto_f1, np.abs(density_f1 - auto_f1) + 1e-3
    print(f"pages {len(rows)}, typed other than article {int(eligible.sum())}")
    best = np.maximum(auto_f1, density_f1).mean()
    print(f"auto {auto_f1.mean():.4f}; the better of the two on every page {best:.4f}")
    print("| model | threshold | word F1 | pages switched | up | down |")
    print("|---|---|---|---|---|---|")
    models = {
        "logistic regression": lambda: LogisticRegression(max_iter=2000),
        "boosted trees": lambda: GradientBoostingClassifier(n_estimators=100, max_depth=3, random_state=0),
    }
    for name, model_of in models.items():
        probability = np.zeros(len(rows))
        for train, test in GroupKFold(FOLDS).split(features, label, sites):
            train = train[eligible[train]]
            model = model_of()
            model.fit(features[train], label[train], sample_weight=weight[train])
            probability[test] = model.predict_proba(features[test])[:, 1]
        for threshold in THRESHOLDS:
            switched = (probability > threshold) & eligible
            f1 = np.where(switched, density_f1, auto_f1)
            up = int((switched & (density_f1 > auto_f1 + 0.01)).sum())
            down = int((switched & (density_f1 < auto_f1 - 0.01)).sum())
            print(f"| {name} | {threshold} | {f1.mean():.4f} | {int(switched.sum())} | {up} | {down} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
