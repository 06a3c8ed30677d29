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
the page's type as the page-type model trained on the other folds gives it (the held-out
types of ``benchmarks/wcxb.py --held-out``, which ``auto`` is also given here: the shipped
model was trained on these pages). Label: CECTD-DS scores higher, weighted by the
difference. A logistic regression and gradient-boosted trees, trained on the pages of
the other four folds (grouped by site as the page-type model's folds are: every page of a
site in one fold), switch a page whose type is not ``article`` to CECTD-DS when they find
it likelier better than a threshold. Printed: the mean word F1 with each model and
threshold, the pages switched, and those switched up and down by more than 0.01.
"""

from __future__ import annotations

import argparse
import math
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(1, str(Path(__file__).resolve().parents[1]))  # the repository: training/

from wcxb import PAGE_TYPES, WcxbPage, load_pages  # noqa: E402

from scrapy_mainc import extract  # noqa: E402
from scrapy_mainc.evaluation._words import score_words, word_tokens  # noqa: E402
from training.page_types import held_out_types, site_of  # noqa: E402

FOLDS = 5
THRESHOLDS = (0.5, 0.6, 0.7, 0.8, 0.9)
SENTENCE_ENDS = tuple(".!?。！？")


def text_features(text: str) -> list[float]:
    """The shape of one extracted text (see the module docstring)."""
    lines = [line for line in text.splitlines() if line.strip()]
    tokens = word_tokens(text)  # a multiset: each word with its count
    count, line_count = sum(tokens.values()), max(1, len(lines))
    return [
        math.log1p(count),
        math.log1p(len(lines)),
        count / line_count,
        sum(sum(word_tokens(line).values()) < 5 for line in lines) / line_count,
        sum(line.rstrip().endswith(SENTENCE_ENDS) for line in lines) / line_count,
        sum(number for token, number in tokens.items() if token.isdigit()) / max(1, count),
    ]


def page_row(task: tuple[WcxbPage, str]) -> tuple[str, str, list[float], float, float] | None:
    """One page, read with its held-out type: its site, that type, its features and both
    texts' word F1; None when an extraction fails (the page is left out)."""
    page, page_type = task
    try:
        html = page.html()
        chosen = extract(html, url=page.url or None, metadata=False, page_type=page_type)
        density = extract(html, url=page.url or None, metadata=False, algorithm="cectd-ds").text
    except Exception as error:  # noqa: BLE001 (a study: report the page and go on)
        print(f"{page.page_id}: {error!r}", file=sys.stderr)
        return None
    own, other = word_tokens(chosen.text), word_tokens(density)
    shared = sum((own & other).values())
    features = [
        *text_features(chosen.text),
        *text_features(density),
        math.log1p(sum(other.values())) - math.log1p(sum(own.values())),
        shared / max(1, sum(own.values())),
        shared / max(1, sum(other.values())),
        *(float(page_type == name) for name in PAGE_TYPES),
    ]
    tokens = word_tokens(page.gold)
    scores = score_words(tokens, chosen.text).f1, score_words(tokens, density).f1
    return site_of(page.url, page.page_id), page_type, features, *scores


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

    types = held_out_types(jobs=args.jobs)
    tasks = [(page, types[page.page_id]) for page in load_pages()]
    with ProcessPoolExecutor(args.jobs) as pool:
        rows = [row for row in pool.map(page_row, tasks, chunksize=16) if row is not None]
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
