"""What a wrong page type costs the extraction: every page extracted with every type's parameters.

    .venv/bin/python -m training.page_type_costs --out costs.json    # every page, every type
    .venv/bin/python -m training.page_type_costs --table costs.json  # the table by type pair

For each page of WCXB's development split and of the four article sets, ``extract(html,
url=..., page_type=t)`` for each of the seven types ``t`` (types whose parameters are the
same, ``documentation`` and ``service`` today, are extracted once), scored by the set's own
metric: WCXB's word F1 (:mod:`scrapy_mainc.evaluation._words`, as ``benchmarks/wcxb.py``
scores), the article sets' page F1 (4-gram shingles, or snippets on trafilatura_eval).
Beside them, ``verdict``: whether the extraction as an article reads as one (the article
verdict, which sends a page typed ``article`` to its likeliest other type).

The table (``--table``) gives, for each true type ``y`` (WCXB's label) and type given ``t``,
the mean F1 of the pages of type ``y`` extracted as ``t`` minus extracted as ``y``: what
reading a ``y`` as a ``t`` costs. The page-type trainer (``page_types.py``) reads the
per-page figures to weigh its decision by that cost and to score a prediction's F1 without
extracting again.
"""

from __future__ import annotations

import argparse
import gzip
import json
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from statistics import fmean

from benchmarks.devsets import DATASETS_DIR, DEVELOPMENT_SETS
from scrapy_mainc import extract
from scrapy_mainc.algorithms._page_type_params import (
    PAGE_TYPE_PRESETS,
    POSTS_ARE_CONTENT,
    REVIEWS_ARE_COMMENTS,
)
from scrapy_mainc.core._pagetype import PAGE_TYPES
from scrapy_mainc.evaluation._gold import read_gold
from scrapy_mainc.evaluation._words import score_words, word_tokens

#: A page as the cost run reads it: (set, id, url, file).
PageRef = tuple[str, str, str, str]


def distinct_types() -> dict[str, str]:
    """Each type's stand-in: the first type with the same parameters and the same stages
    (posts kept, reviews taken; ``product`` alone adds its structured description)."""

    def key(kind: str) -> object:
        preset = tuple(sorted(PAGE_TYPE_PRESETS.get(kind, {}).items()))
        return (preset, kind in POSTS_ARE_CONTENT, kind in REVIEWS_ARE_COMMENTS, kind == "product")

    first: dict[object, str] = {}
    return {kind: first.setdefault(key(kind), kind) for kind in PAGE_TYPES}


def page_refs() -> list[PageRef]:
    refs = []
    wcxb = json.loads((DATASETS_DIR / "wcxb" / "gold.json").read_text(encoding="utf-8"))
    for page_id, entry in sorted(wcxb.items()):
        refs.append(
            (
                "wcxb",
                page_id,
                entry.get("url") or "",
                str(DATASETS_DIR / "wcxb" / "html" / f"{page_id}.html.gz"),
            )
        )
    for name in DEVELOPMENT_SETS:
        gold = json.loads((DATASETS_DIR / name / "gold.json").read_text(encoding="utf-8"))
        for page_id, entry in sorted(gold.items()):
            path = DATASETS_DIR / name / "html" / f"{page_id}.html"
            if path.exists():
                refs.append((name, page_id, entry.get("url") or "", str(path)))
    return refs


_GOLD: dict[str, dict[str, dict[str, object]]] = {}


def _gold(source: str) -> dict[str, dict[str, object]]:
    if source not in _GOLD:
        _GOLD[source] = json.loads((DATASETS_DIR / source / "gold.json").read_text(encoding="utf-8"))
    return _GOLD[source]


def page_costs(ref: PageRef) -> tuple[str, str, dict[str, float]]:
    """The page's F1 extracted as each type, and (under ``verdict``, 1 or 0) the article
    verdict of its extraction as an article (what ``extract``'s second look reads)."""
    source, page_id, url, path = ref
    raw = Path(path).read_bytes()
    html = gzip.decompress(raw) if path.endswith(".gz") else raw
    entry = _gold(source)[page_id]
    stand_in = distinct_types()
    scores: dict[str, float] = {}
    for kind in PAGE_TYPES:
        if stand_in[kind] != kind:
            scores[kind] = scores[stand_in[kind]]
            continue
        extraction = extract(html, url=url or None, metadata=False, page_type=kind)
        text = extraction.text
        if kind == "article":
            scores["verdict"] = float(extraction.article)
        if source == "wcxb":
            scores[kind] = score_words(word_tokens(str(entry.get("articleBody") or "")), text).f1
        else:
            scores[kind] = read_gold(page_id, entry).score(text).f1
    return source, page_id, scores


def table(costs: dict[str, dict[str, dict[str, float]]]) -> str:
    """Mean F1 change of WCXB's pages of each true type extracted as each type."""
    labels = json.loads((DATASETS_DIR / "wcxb" / "gold.json").read_text(encoding="utf-8"))
    lines = [
        "| true type \\ extracted as | " + " | ".join(PAGE_TYPES) + " | F1 as itself |",
        "|---|" + "---:|" * (len(PAGE_TYPES) + 1),
    ]
    rows = {kind: [] for kind in PAGE_TYPES}  # type: dict[str, list[dict[str, float]]]
    for page_id, scores in costs["wcxb"].items():
        rows[labels[page_id]["page_type"]].append(scores)
    for truth, pages in rows.items():
        own = fmean(page[truth] for page in pages)
        cells = [f"{fmean(page[kind] for page in pages) - own:+.3f}" for kind in PAGE_TYPES]
        lines.append(f"| {truth} ({len(pages)}) | " + " | ".join(cells) + f" | {own:.3f} |")
    articles = [scores for name, pages in costs.items() if name != "wcxb" for scores in pages.values()]
    if articles:
        own = fmean(page["article"] for page in articles)
        cells = [f"{fmean(page[kind] for page in articles) - own:+.3f}" for kind in PAGE_TYPES]
        lines.append(f"| article sets ({len(articles)}) | " + " | ".join(cells) + f" | {own:.3f} |")
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--out", type=Path, help="extract every page as every type, write the F1s here")
    parser.add_argument("--table", type=Path, help="print the table of a file --out wrote")
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    if args.out:
        costs: dict[str, dict[str, dict[str, float]]] = {}
        with ProcessPoolExecutor(args.jobs) as pool:
            for source, page_id, scores in pool.map(page_costs, page_refs(), chunksize=8):
                costs.setdefault(source, {})[page_id] = scores
        args.out.write_text(json.dumps(costs), encoding="utf-8")
    path = args.table or args.out
    if path:
        print(table(json.loads(path.read_text(encoding="utf-8"))))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
