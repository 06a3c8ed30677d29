"""Ablation of ``auto``: F1 on the shared datasets with each signal switched off.

    .venv/bin/python benchmarks/ablation.py [--datasets DIR ...]

Every signal in ``auto`` had to raise F1 when it was added; this table keeps checking
that each one still does. A negative difference means the signal helps.
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
    "no comment-section headings": {"strip_comments": CommentParams(headings=False)},
    "no comment stage (NCE phase 2 + names + headings)": {"strip_comments": False},
}


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--datasets", nargs="+", type=Path, default=DEFAULT_DATASETS)
    args = parser.parse_args()
    datasets = {path.name: load_dataset(path) for path in args.datasets}
    header = " | ".join(f"{name} F1 | change" for name in datasets)
    print(f"| auto with ... | {header} |")
    print("|---|" + "---|---|" * len(datasets))
    baseline: dict[str, float] = {}
    for label, overrides in ABLATIONS.items():
        cells = []
        for name, pages in datasets.items():

            def run(html: bytes, url: str, overrides: dict[str, Any] = overrides) -> str:
                return extract(html, url=url or None, **overrides).text

            f1 = evaluate(label, run, pages).summary.f1
            baseline.setdefault(name, f1)
            cells.append(f"{f1:.3f} | {f1 - baseline[name]:+.3f}" if overrides else f"{f1:.3f} | ")
        print(f"| {label} | {' | '.join(cells)} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
