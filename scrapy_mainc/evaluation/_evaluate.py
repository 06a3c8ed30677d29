"""Running extractors over a dataset of pages with gold text, and reporting the scores.

A dataset is a directory with ``html/<id>.html`` files and a ``gold.json`` mapping each id
to ``{"articleBody": ...}`` (the format of the public article-extraction benchmark).
"""

from __future__ import annotations

import gc
import json
import statistics
import traceback
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from time import perf_counter

from ._metric import PageScore, Summary, score_page, summarize

#: A function from page bytes (and URL) to extracted text.
Extractor = Callable[[bytes, str], str]


@dataclass(frozen=True, slots=True)
class Page:
    """One page of a dataset."""

    page_id: str
    html: bytes
    gold: str
    url: str


@dataclass(frozen=True, slots=True)
class PageResult:
    """How one extractor did on one page."""

    page_id: str
    score: PageScore
    milliseconds: float
    error: str = ""


@dataclass(frozen=True, slots=True)
class Report:
    """Scores and timings of one extractor over one dataset."""

    name: str
    summary: Summary
    median_ms: float
    mean_ms: float
    pages: tuple[PageResult, ...]

    @property
    def errors(self) -> list[PageResult]:
        return [page for page in self.pages if page.error]

    def worst(self, count: int = 10) -> list[PageResult]:
        """The ``count`` pages with the lowest F1."""
        return sorted(self.pages, key=lambda page: (page.score.f1, page.page_id))[:count]

    def to_json(self) -> dict[str, object]:
        return {
            "name": self.name,
            "precision": self.summary.precision,
            "recall": self.summary.recall,
            "f1": self.summary.f1,
            "median_ms": self.median_ms,
            "mean_ms": self.mean_ms,
            "pages": {
                page.page_id: {
                    "precision": page.score.precision,
                    "recall": page.score.recall,
                    "f1": page.score.f1,
                    "ms": page.milliseconds,
                    **({"error": page.error} if page.error else {}),
                }
                for page in self.pages
            },
        }


def load_dataset(directory: str | Path) -> list[Page]:
    """Read ``html/<id>.html`` and ``gold.json`` from ``directory``, sorted by id.

    OSError when a file cannot be read, ValueError when ``gold.json`` is not a dataset's.
    """
    directory = Path(directory)
    gold_path = directory / "gold.json"
    try:
        gold = json.loads(gold_path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise ValueError(f"{gold_path} is not valid JSON: {exc}") from exc
    if not isinstance(gold, dict) or not all(isinstance(entry, dict) for entry in gold.values()):
        raise ValueError(f'{gold_path} must map page ids to {{"articleBody": ...}} records')
    pages = []
    for page_id in sorted(gold):
        path = directory / "html" / f"{page_id}.html"
        if path.exists():
            entry = gold[page_id]
            pages.append(
                Page(page_id, path.read_bytes(), entry.get("articleBody") or "", entry.get("url") or "")
            )
    if not pages:
        raise ValueError(f"no pages with gold text found in {directory}")
    return pages


def evaluate(name: str, extractor: Extractor, pages: Iterable[Page]) -> Report:
    """Run ``extractor`` on every page, timing each call, and score it against the gold."""
    pages = list(pages)
    if pages:
        _run_once(extractor, pages[0])  # warm up imports and caches before timing
    gc.collect()
    results = []
    for page in pages:
        text, milliseconds, error = _run_once(extractor, page)
        results.append(PageResult(page.page_id, score_page(page.gold, text), milliseconds, error))
    times = [result.milliseconds for result in results] or [0.0]
    return Report(
        name=name,
        summary=summarize(result.score for result in results),
        median_ms=statistics.median(times),
        mean_ms=statistics.fmean(times),
        pages=tuple(results),
    )


def _run_once(extractor: Extractor, page: Page) -> tuple[str, float, str]:
    started = perf_counter()
    try:
        text = extractor(page.html, page.url)
    except Exception:  # an extractor's crash is a finding to report, not to hide
        error = traceback.format_exc(limit=-3).strip().splitlines()[-1]
        return "", (perf_counter() - started) * 1000, error
    return text or "", (perf_counter() - started) * 1000, ""


def format_report(report: Report, worst: int = 10) -> str:
    """Human-readable summary: scores, timings, errors and the worst pages."""
    summary = report.summary
    lines = [
        f"{report.name:<12} precision={summary.precision:.3f}  recall={summary.recall:.3f}  "
        f"F1={summary.f1:.3f}  median={report.median_ms:.2f} ms  mean={report.mean_ms:.2f} ms  "
        f"pages={len(report.pages)}  errors={len(report.errors)}"
    ]
    for page in report.errors:
        lines.append(f"    ERROR {page.page_id}: {page.error}")
    if worst:
        lines.append(f"    worst {worst} pages (F1 precision recall id):")
        for page in report.worst(worst):
            score = page.score
            lines.append(f"      {score.f1:.3f} {score.precision:.3f} {score.recall:.3f} {page.page_id}")
    return "\n".join(lines)
