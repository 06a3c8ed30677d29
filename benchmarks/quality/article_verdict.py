"""How well the article verdicts tell articles from listing pages.

    .venv/bin/python -m benchmarks.quality.article_verdict

Two verdicts: the downloader middleware's annotation (``mainc["page"]["article"]``: any
article markup, ``og:type``, JSON-LD or ``<article>``) and the extraction's
(``Extraction.article``, ``mainc["article"]``: :mod:`scrapy_mainc.core._article`).
Pages: the 939 pages of the development sets, all articles, and every HTML page of the
bundled site, labelled by hand in ``example_project/site_src/page_kinds.json`` (10
articles; 8 home pages, section fronts, topic pages and a wire desk, with the reason for
each). Precision and recall of "is an article".
"""

from __future__ import annotations

import json

from benchmarks import ROOT
from benchmarks.devsets import DEFAULT_DATASETS, load_sets
from scrapy_mainc import extract
from scrapy_mainc.core._annotate import annotate
from scrapy_mainc.core._decode import decode_html

EXAMPLE = ROOT / "example_project"


def verdicts(html: bytes, url: str | None) -> tuple[bool, bool]:
    """(the annotation's verdict, the extraction's)."""
    return annotate(decode_html(html).text).article, extract(html, url=url).article


def scores(rows: list[tuple[bool, bool]]) -> str:
    """Precision, recall (``rows``: (truth, verdict)) and the counts behind them."""
    true_positive = sum(truth and said for truth, said in rows)
    said = sum(said for _, said in rows)
    articles = sum(truth for truth, _ in rows)
    precision = true_positive / said if said else 1.0
    recall = true_positive / articles if articles else 1.0
    return f"{precision:.3f} ({true_positive}/{said}) | {recall:.3f} ({true_positive}/{articles})"


def main() -> int:
    sets: dict[str, list[tuple[bool, bytes, str | None]]] = {
        name: [(True, page.html, page.url or None) for page in pages]
        for name, pages in load_sets(DEFAULT_DATASETS).items()
    }
    kinds = json.loads((EXAMPLE / "site_src" / "page_kinds.json").read_text(encoding="utf-8"))
    sets["bundled site"] = [
        (kind["article"], (EXAMPLE / "site" / path.lstrip("/")).read_bytes(), f"http://127.0.0.1:8000{path}")
        for path, kind in kinds.items()
    ]
    print("| pages | verdict | precision | recall |")
    print("|---|---|---|---|")
    everything: dict[str, list[tuple[bool, bool]]] = {"annotation (markup)": [], "extraction": []}
    for name, pages in sets.items():
        rows = [(truth, *verdicts(html, url)) for truth, html, url in pages]
        for index, verdict in enumerate(everything):
            pairs = [(row[0], row[1 + index]) for row in rows]
            everything[verdict].extend(pairs)
            print(f"| {name} ({len(rows)}) | {verdict} | {scores(pairs)} |")
    for verdict, pairs in everything.items():
        print(f"| all ({len(pairs)}) | {verdict} | {scores(pairs)} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
