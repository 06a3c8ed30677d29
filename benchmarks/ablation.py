"""Ablation of ``auto``: F1 on the shared datasets with each signal switched off.

    .venv/bin/python benchmarks/ablation.py [--datasets DIR ...]

Every signal in ``auto`` had to raise F1 when it was added; this table keeps checking
that each one still does. A negative difference means the signal helps. "misses" counts
pages with F1 under 0.5. Signals built for pages outside the development sets (another
story, notices, overlays, the fallback, the comment guard) may change neither: their
hand-made test pages are the golden pages in ``tests/data``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from scrapy_mainc import CommentParams, extract
from scrapy_mainc.evaluation._evaluate import evaluate, load_dataset

DEFAULT_DATASETS = [
    Path(__file__).resolve().parents[2] / "shared" / "datasets" / name for name in ("scrapinghub", "zh_news")
]
#: Signal name -> the keyword arguments of ``extract`` that switch it off.
ABLATIONS: dict[str, dict[str, Any]] = {
    "auto (all signals)": {},
    "no link-word penalty (CoreEx/NCE link density)": {"link_weight": 0.0},
    "no punctuation penalty (ECON)": {"unpunctuated_penalty": 0.0},
    "no class/id names or region tags": {"use_names": False},
    "no figure/caption cut": {"cut_captions": False},
    "no image-box cut": {"cut_image_boxes": False},
    "no teaser-card cut": {"cut_cards": False},
    "no nested-<article> cut": {"cut_nested_articles": False},
    "no headline removal (NCE title search)": {"drop_headline": False},
    "no edge trimming": {"trim_edges": False},
    "no paragraph-parent rescue": {"paragraph_parent": False},
    "no article-body markup (itemprop)": {"use_body_markup": False},
    "no story check (another story beside or instead of the page's)": {"check_story": False},
    "no notice check (legal, cookie, consent vocabulary)": {"check_notices": False},
    "no overlay cut (dialog roles)": {"cut_overlays": False},
    "no headline-container protection": {"keep_headline_container": False},
    "no fallback for pages without a positive block": {"fallback": False},
    "no comment-section headings": {"strip_comments": CommentParams(headings=False)},
    "no comment guard (may empty an article)": {"strip_comments": CommentParams(min_kept_words=0)},
    "no comment stage (NCE phase 2 + names + headings)": {"strip_comments": False},
}


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--datasets", nargs="+", type=Path, default=DEFAULT_DATASETS)
    args = parser.parse_args()
    datasets = {path.name: load_dataset(path) for path in args.datasets}
    header = " | ".join(f"{name} F1 | change | misses" for name in datasets)
    print(f"| auto with ... | {header} |")
    print("|---|" + "---|---|---|" * len(datasets))
    baseline: dict[str, float] = {}
    for label, overrides in ABLATIONS.items():
        cells = []
        for name, pages in datasets.items():

            def run(html: bytes, url: str, overrides: dict[str, Any] = overrides) -> str:
                return extract(html, url=url or None, **overrides).text

            report = evaluate(label, run, pages)
            f1, missed = report.summary.f1, sum(page.score.f1 < 0.5 for page in report.pages)
            baseline.setdefault(name, f1)
            change = f"{f1 - baseline[name]:+.3f}" if overrides else ""
            cells.append(f"{f1:.3f} | {change} | {missed}")
        print(f"| {label} | {' | '.join(cells)} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
