"""Running extractors over a dataset of pages with gold, and reporting the scores.

A dataset is a directory with ``html/<id>.html`` files and a ``gold.json`` mapping each id
to ``{"articleBody": ...}`` (the format of the public article-extraction benchmark) or,
in every entry, to ``{"with": [...], "without": [...]}`` snippets (trafilatura's
evaluation format): see :mod:`._gold`.
"""

from __future__ import annotations

import gc
import json
import statistics
import traceback
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from time import perf_counter
from typing import NamedTuple

from ._gold import Gold, GoldKind, Score, dataset_kind, read_gold, summarize_scores
from ._metric import PageScore, Summary
from ._ranking import roc_auc, spearman
from ._snippets import SnippetScore


class Estimated(NamedTuple):
    """An extractor's text with its own estimate of the text's quality (its expected page
    F1, as ``Extraction.quality``)."""

    text: str
    quality: float


#: A function from page bytes (and URL) to extracted text, or to the text and its quality.
Extractor = Callable[[bytes, str], "str | Estimated"]
#: A clock in seconds (``time.perf_counter``, ``time.process_time``).
Clock = Callable[[], float]
#: A page whose own F1 is under this is lost: most of its text is wrong or missing (the
#: misses a reader notices; the figure the benchmarks have reported since the first one).
LOST_F1 = 0.5


@dataclass(frozen=True, slots=True)
class Page:
    """One page of a dataset."""

    page_id: str
    html: bytes
    gold: Gold
    url: str


@dataclass(frozen=True, slots=True)
class PageResult:
    """How one extractor did on one page."""

    page_id: str
    score: Score
    milliseconds: float
    error: str = ""
    #: The extractor's estimate of the text's quality, when it gives one.
    quality: float | None = None

    def to_json(self) -> dict[str, object]:
        score = self.score
        counts = {"tp": score.true_positives, "fp": score.false_positives, "fn": score.false_negatives}
        if isinstance(score, SnippetScore):
            counts["tn"] = score.true_negatives
        return {
            "precision": score.precision,
            "recall": score.recall,
            "f1": score.f1,
            **counts,
            "ms": self.milliseconds,
            **({"error": self.error} if self.error else {}),
            **({"quality": self.quality} if self.quality is not None else {}),
        }

    @classmethod
    def from_json(cls, page_id: str, record: dict[str, object], kind: GoldKind) -> PageResult:
        """The result :meth:`to_json` wrote (its counts; the ratios are derived again)."""
        tp, fp, fn = (_count(record, key) for key in ("tp", "fp", "fn"))
        score: Score
        if kind == "snippets":
            score = SnippetScore(tp, fp, fn, _count(record, "tn"))
        else:
            score = PageScore(tp, fp, fn)
        milliseconds = record.get("ms", 0.0)
        if not isinstance(milliseconds, float | int):
            raise ValueError(f"page {page_id!r}: 'ms' must be a number")
        quality = record.get("quality")
        if quality is not None and not isinstance(quality, float | int):
            raise ValueError(f"page {page_id!r}: 'quality' must be a number")
        error = str(record.get("error", ""))
        return cls(page_id, score, float(milliseconds), error, None if quality is None else float(quality))


@dataclass(frozen=True, slots=True)
class QualityFigures:
    """How well an extractor's quality estimate tells its pages apart: the ROC AUC of the
    estimate for the lost pages (the lower the estimate, the likelier lost; None when no
    page or every page is lost) and its Spearman rank correlation with the page F1 (None
    when either is constant), over the pages that have an estimate."""

    pages: int
    lost: int
    auc: float | None
    spearman: float | None

    @classmethod
    def of(cls, quality: list[float], f1: list[float]) -> QualityFigures:
        lost = [value < LOST_F1 for value in f1]
        return cls(len(f1), sum(lost), roc_auc([-value for value in quality], lost), spearman(quality, f1))

    def describe(self) -> str:
        auc = f"{self.auc:.3f}" if self.auc is not None else "- (needs lost and kept pages)"
        rank = f"{self.spearman:.3f}" if self.spearman is not None else "- (a constant)"
        return (
            f"quality estimate: AUC for lost pages={auc} ({self.lost} lost of {self.pages})  "
            f"Spearman with page F1={rank}"
        )

    def to_json(self) -> dict[str, object]:
        return {"pages": self.pages, "lost": self.lost, "auc_lost": self.auc, "spearman": self.spearman}


@dataclass(frozen=True, slots=True)
class Report:
    """Scores and timings of one extractor over one dataset."""

    name: str
    kind: GoldKind
    summary: Summary
    median_ms: float
    mean_ms: float
    pages: tuple[PageResult, ...]

    @property
    def errors(self) -> list[PageResult]:
        return [page for page in self.pages if page.error]

    @property
    def lost(self) -> list[str]:
        """Ids of the pages whose own F1 is under :data:`LOST_F1`."""
        return [page.page_id for page in self.pages if page.score.f1 < LOST_F1]

    @property
    def mean_page_f1(self) -> float:
        """The mean of the pages' own F1 (every page counts, an empty output as 0)."""
        return statistics.fmean(page.score.f1 for page in self.pages) if self.pages else 0.0

    @property
    def quality(self) -> QualityFigures | None:
        """The quality estimate's figures, over the pages with one (None when none has)."""
        pairs = [(page.quality, page.score.f1) for page in self.pages if page.quality is not None]
        if not pairs:
            return None
        return QualityFigures.of([quality for quality, _ in pairs], [f1 for _, f1 in pairs])

    def worst(self, count: int = 10) -> list[PageResult]:
        """The ``count`` pages with the lowest F1."""
        return sorted(self.pages, key=lambda page: (page.score.f1, page.page_id))[:count]

    def retimed(self, milliseconds: list[float]) -> Report:
        """This report with other times of its pages, in order (the scores do not change)."""
        timed = zip(self.pages, milliseconds, strict=True)
        pages = tuple(replace(page, milliseconds=ms) for page, ms in timed)
        median, mean = _time_summary(milliseconds)
        return replace(self, pages=pages, median_ms=median, mean_ms=mean)

    def to_json(self) -> dict[str, object]:
        return {
            "name": self.name,
            "kind": self.kind,
            "precision": self.summary.precision,
            "recall": self.summary.recall,
            "f1": self.summary.f1,
            "mean_page_f1": self.mean_page_f1,
            "lost_pages": len(self.lost),
            "median_ms": self.median_ms,
            "mean_ms": self.mean_ms,
            **({"quality": figures.to_json()} if (figures := self.quality) else {}),
            "pages": {page.page_id: page.to_json() for page in self.pages},
        }

    @classmethod
    def from_json(cls, record: dict[str, object]) -> Report:
        """The report :meth:`to_json` wrote; ValueError when ``record`` is not one."""
        kind, pages = record.get("kind", "text"), record.get("pages")
        if kind not in ("text", "snippets") or not isinstance(pages, dict):
            raise ValueError(f"not a report: kind {kind!r}, pages of type {type(pages).__name__}")
        if not all(isinstance(entry, dict) for entry in pages.values()):
            raise ValueError("not a report: every page must be a record")
        results = tuple(PageResult.from_json(page_id, entry, kind) for page_id, entry in pages.items())
        times = [result.milliseconds for result in results]
        median, mean = _time_summary(times)
        summary = summarize_scores(kind, (result.score for result in results))
        return cls(str(record.get("name", "")), kind, summary, median, mean, results)


def _count(record: dict[str, object], key: str) -> int:
    value = record.get(key)
    if not isinstance(value, int):
        raise ValueError(f"a page record needs an integer {key!r} (written by Report.to_json)")
    return value


def _time_summary(milliseconds: list[float]) -> tuple[float, float]:
    """Median and mean of per-page times (0 for no pages)."""
    times = milliseconds or [0.0]
    return statistics.median(times), statistics.fmean(times)


def load_dataset(directory: str | Path) -> list[Page]:
    """Read ``html/<id>.html`` and ``gold.json`` from ``directory``, sorted by id.

    OSError when a file cannot be read, ValueError when ``gold.json`` is not a dataset's
    (an entry malformed, or entries of both kinds of gold).
    """
    directory = Path(directory)
    gold_path = directory / "gold.json"
    try:
        entries = json.loads(gold_path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise ValueError(f"{gold_path} is not valid JSON: {exc}") from exc
    if not isinstance(entries, dict) or not all(isinstance(entry, dict) for entry in entries.values()):
        kinds = '{"articleBody": ...} or {"with": [...], "without": [...]}'
        raise ValueError(f"{gold_path} must map page ids to {kinds} records")
    try:
        golds = {page_id: read_gold(page_id, entry) for page_id, entry in entries.items()}
        dataset_kind(golds.values())
    except ValueError as exc:
        raise ValueError(f"{gold_path}: {exc}") from exc
    pages = []
    for page_id in sorted(golds):
        path = directory / "html" / f"{page_id}.html"
        if path.exists():
            url = entries[page_id].get("url") or ""
            pages.append(Page(page_id, path.read_bytes(), golds[page_id], str(url)))
    if not pages:
        raise ValueError(f"no pages with gold text found in {directory}")
    return pages


def evaluate(name: str, extractor: Extractor, pages: Iterable[Page]) -> Report:
    """Run ``extractor`` on every page, timing each call, and score it against the gold.

    ValueError when the pages mix kinds of gold."""
    return evaluate_together({name: extractor}, pages)[0]


def evaluate_together(
    extractors: Mapping[str, Extractor], pages: Iterable[Page], passes: int = 1, clock: Clock = perf_counter
) -> list[Report]:
    """:func:`evaluate` for several extractors taking turns page by page, so that a burst of
    load on a shared machine hits them all alike; with ``passes`` over 1, each page keeps
    its fastest time (the scores are the first pass's: they do not change). ``clock`` gives
    seconds: wall time by default, ``time.process_time`` for the CPU time of this process
    alone (what other jobs on the machine do not count in)."""
    pages = list(pages)
    kind = dataset_kind(page.gold for page in pages) if pages else "text"
    for extractor in extractors.values():
        if pages:
            run_page(extractor, pages[0], clock)  # warm up imports and caches before timing
    results: dict[str, list[PageResult]] = {name: [] for name in extractors}
    for attempt in range(passes):
        gc.collect()
        for index, page in enumerate(pages):
            for name, extractor in extractors.items():
                text, milliseconds, error, quality = run_page(extractor, page, clock)
                if attempt == 0:
                    score = page.gold.score(text)
                    results[name].append(PageResult(page.page_id, score, milliseconds, error, quality))
                elif milliseconds < results[name][index].milliseconds:
                    results[name][index] = replace(results[name][index], milliseconds=milliseconds)
    reports = []
    for name, pages_done in results.items():
        median, mean = _time_summary([result.milliseconds for result in pages_done])
        summary = summarize_scores(kind, (result.score for result in pages_done))
        reports.append(Report(name, kind, summary, median, mean, tuple(pages_done)))
    return reports


def run_page(
    extractor: Extractor, page: Page, clock: Clock = perf_counter
) -> tuple[str, float, str, float | None]:
    """``extractor``'s text of ``page``, the milliseconds it took by ``clock``, the error it
    raised ("" when none; the text is then empty) and its quality estimate (None when it
    gives none, or raised)."""
    started = clock()
    try:
        result = extractor(page.html, page.url)
    except Exception:  # an extractor's crash is a finding to report, not to hide
        error = traceback.format_exc(limit=-3).strip().splitlines()[-1]
        return "", (clock() - started) * 1000, error, None
    milliseconds = (clock() - started) * 1000
    if isinstance(result, Estimated):
        return result.text or "", milliseconds, "", result.quality
    return result or "", milliseconds, "", None


def format_report(report: Report, worst: int = 10) -> str:
    """Human-readable summary: scores, timings, errors and the worst pages."""
    summary = report.summary
    scores = "snippets: precision" if report.kind == "snippets" else "precision"
    lines = [
        f"{report.name:<12} {scores}={summary.precision:.3f}  recall={summary.recall:.3f}  "
        f"F1={summary.f1:.3f}  mean page F1={report.mean_page_f1:.3f}  "
        f"lost={len(report.lost)} (page F1 < {LOST_F1})  median={report.median_ms:.2f} ms  "
        f"mean={report.mean_ms:.2f} ms  pages={len(report.pages)}  errors={len(report.errors)}"
    ]
    if figures := report.quality:
        lines.append(f"    {figures.describe()}")
    for page in report.errors:
        lines.append(f"    ERROR {page.page_id}: {page.error}")
    if worst:
        lines.append(f"    worst {worst} pages (F1 precision recall id):")
        for page in report.worst(worst):
            score = page.score
            line = f"      {score.f1:.3f} {score.precision:.3f} {score.recall:.3f} {page.page_id}"
            lines.append(line + (_found(score) if isinstance(score, SnippetScore) else ""))
    return "\n".join(lines)


def _found(score: SnippetScore) -> str:
    """How many snippets of each list a page's text holds."""
    wanted = score.true_positives + score.false_negatives
    unwanted = score.false_positives + score.true_negatives
    return f"  with: {score.true_positives}/{wanted} found, without: {score.false_positives}/{unwanted} found"
