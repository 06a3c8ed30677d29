"""Ablation of ``auto``: every development set with each of its rules switched off.

    .venv/bin/python -m benchmarks.quality.ablation [--datasets DIR ...] [--workers 2] [--no-wcxb]
    .venv/bin/python -m benchmarks.quality.ablation --only "page types" "repairs"   # rows by words

Every rule of ``auto`` (a switch or a weight of ``AutoParams``, and the comment stage) had
to raise F1 when it was added; this keeps checking that each one still does, on the four
development sets (scrapinghub, zh_news, newspaper4k: text gold; trafilatura_eval: snippet
gold). Per set, a table: F1 (text gold: precision and recall averaged over pages, F1 their
harmonic mean; snippet gold: pooled snippets), mean page F1 and pages lost (page F1 under
0.5), each with its change against ``auto`` with every rule on; a negative change of F1
(or a positive one of lost pages) means the rule helps. Then one table of the changes on
all sets. Rules built for pages outside the development sets (another story, notices,
overlays, the fallback, the comment guard) may change nothing: their hand-made test pages
are the golden pages in ``tests/data``.

WCXB (the seven page types' development split) is a fifth set, scored with its own
metric: mean word F1 (its "F1" and "page F1" columns are both that mean) and pages under
word F1 0.5. Rows of the page types' rules (issue 33) and of the repairs of what browsers
show switch their code off by a patch in the worker (:data:`PATCHES`): they are not
parameters of ``auto``, and the repairs serve every algorithm.

Content only (``metadata=False``: the metadata stage does not change the text). The runs
are spread over ``--workers`` processes (2: the development machine has two cores). Run
time there (2026-11-25): 2.5 minutes of CPU; 4.8 minutes with 2 workers and 4.6 with 1
while other jobs kept the load at 4 to 5, 3.4 minutes with 2 workers at a load of 2 to 7
(a second worker helps only when a core is free).

``--save FILE`` keeps every row's figures and per-page F1 as JSON, ``--load FILE`` draws the
tables from such a file without running anything, and ``--write-docs`` rewrites the table
of docs/ablation.md (between its markers) from a run of every row on all five sets: each
rule's change of F1 and of lost pages per set, and how many pages the rule moves up or
down by at least ``PAGE_MOVE`` (the per-page evidence).

    .venv/bin/python -m benchmarks.quality.ablation --save ablation.json --write-docs
    .venv/bin/python -m benchmarks.quality.ablation --load ablation.json --write-docs
"""

from __future__ import annotations

import argparse
import datetime
import json
import multiprocessing
import re
import statistics
import subprocess
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, fields
from pathlib import Path
from time import perf_counter
from types import MappingProxyType
from typing import Any

import scrapy_mainc
import scrapy_mainc._choice as choice_module
import scrapy_mainc._extract as extract_module
import scrapy_mainc.algorithms._page_type_params as presets
import scrapy_mainc.core._dom as dom_module
import scrapy_mainc.core._repair as repair_module
from benchmarks import ROOT
from benchmarks.devsets import DEFAULT_DATASETS, load_sets
from benchmarks.wcxb_set import WcxbPage, load_pages
from scrapy_mainc import CommentParams, extract
from scrapy_mainc.algorithms.auto import AutoParams
from scrapy_mainc.evaluation._evaluate import Page, PageResult, Report, evaluate
from scrapy_mainc.evaluation._metric import Summary
from scrapy_mainc.evaluation._words import score_words, word_tokens

WCXB = "wcxb"


def _without_preset(page_type: str) -> Callable[[], None]:
    def patch() -> None:
        kept = {kind: preset for kind, preset in presets.PAGE_TYPE_PRESETS.items() if kind != page_type}
        presets.PAGE_TYPE_PRESETS = MappingProxyType(kept)

    return patch


def _without_setting(page_type: str, name: str) -> Callable[[], None]:
    def patch() -> None:
        kept = {key: value for key, value in presets.PAGE_TYPE_PRESETS[page_type].items() if key != name}
        presets.PAGE_TYPE_PRESETS = MappingProxyType({**presets.PAGE_TYPE_PRESETS, page_type: kept})

    return patch


#: Code switched off by name (issue 33's page-type rules and the repairs): each a patch
#: applied in the worker for the row's run, undone after it.
PATCHES: dict[str, Callable[[], None]] = {
    "noscript": lambda: setattr(repair_module, "reveal_noscript", lambda body, found: None),
    "streamed": lambda: setattr(repair_module, "place_streamed_segments", lambda body, found: None),
    "button": lambda: setattr(repair_module, "release_swallowed", lambda body, found: None),
    "hidden page": lambda: setattr(dom_module, "page_wrappers", lambda body: set()),
    "dialogs": lambda: setattr(dom_module, "is_dialog", lambda mark: False),
    "second look": lambda: setattr(extract_module, "choose", choice_module._choice),
    "forum posts": lambda: setattr(choice_module, "POSTS_ARE_CONTENT", frozenset()),
    "product data": lambda: setattr(extract_module, "missing_description", lambda document, text: ""),
    "product reviews": lambda: setattr(choice_module, "REVIEWS_ARE_COMMENTS", frozenset()),
    "forum story check": _without_setting("forum", "check_story"),
    "forum nested articles": _without_setting("forum", "cut_nested_articles"),
    **{f"{kind} preset": _without_preset(kind) for kind in presets.PAGE_TYPE_PRESETS},
}


@contextmanager
def patched(names: tuple[str, ...]) -> Iterator[None]:
    """The patches ``names`` applied, the patched attributes restored after."""
    modules = (repair_module, dom_module, extract_module, choice_module, presets)
    saved = [dict(vars(module)) for module in modules]
    for name in names:
        PATCHES[name]()
    try:
        yield
    finally:
        for module, before in zip(modules, saved):
            vars(module).update(before)


BASELINE = "auto (all rules)"
#: Rule name -> the keyword arguments of ``extract`` that switch it off.
ABLATIONS: dict[str, dict[str, Any]] = {
    BASELINE: {},
    "no link-word penalty (CoreEx/NCE link density)": {"link_weight": 0.0},
    "no punctuation penalty (ECON)": {"unpunctuated_penalty": 0.0},
    "no weak-region discount (boilerplate_factor)": {"boilerplate_factor": 0.0},
    "no class/id names or region tags": {"use_names": False},
    "no cut of the utility class hidden": {"cut_hidden_class": False},
    "ids that spell the section's heading read as names": {"ignore_heading_ids": False},
    "no figure/caption cut": {"cut_captions": False},
    "figures holding a table cut as captions": {"keep_table_figures": False},
    "no image-box cut": {"cut_image_boxes": False},
    "no teaser-card cut": {"cut_cards": False},
    "teaser cards without a link-headline block": {"card_link_headline": False},
    "no truncated-summary teaser items": {"card_truncated_summary": False},
    "no two-word card headlines with a teaser's marks": {"card_short_link_words": 3},
    "no nested-<article> cut": {"cut_nested_articles": False},
    "no headline removal (NCE title search)": {"drop_headline": False},
    "no edge trimming": {"trim_edges": False},
    "edges trimmed at any length (lists of short lines too)": {"edge_max_words": 1_000_000},
    "every short line at the start counts in an edge's length (labels, links)": {"lead_line_min_words": 0},
    "no trimming before the headline at any length (the story's start)": {"trim_before_headline": False},
    "a short leading sentence trimmed as an edge": {"lead_sentence_words": 0},
    "no first post of a run of posts (blog front page)": {"first_post": False},
    "no paragraph-parent rescue": {"paragraph_parent": False},
    "no article-body markup (itemprop)": {"use_body_markup": False},
    "no narrowing to the only <article>": {"use_article_element": False},
    "no recheck without the punctuation penalty": {"penalty_recheck_words": 0},
    "no subheadings kept between paragraphs": {"keep_subheadings": False},
    "no lead-ins kept under headings": {"lead_in_min_words": 1_000},
    "leading headings trimmed": {"keep_leading_headings": False},
    "no story start before the root": {"story_start": False},
    "no dropping of repeated parts": {"drop_repeats": False},
    "no story check (another story beside or instead of the page's)": {"check_story": False},
    "a long guide's sections checked as another story": {"guide_min_sections": 0},
    "a section with story after it checked as another story": {"keep_inner_sections": False},
    "no notice check (legal, cookie, consent vocabulary)": {"check_notices": False},
    "no overlay cut (dialog roles)": {"cut_overlays": False},
    "no story-container protection (headline or most prose, against names)": {"keep_story_container": False},
    "no photo-story captions (alike cut parts holding most prose)": {"keep_photo_story": False},
    "no fallback for pages without a positive block": {"fallback": False},
    "no comment-section headings": {"strip_comments": CommentParams(headings=False)},
    "no comment guard (may empty an article)": {"strip_comments": CommentParams(min_kept_words=0)},
    "headed sections may be comments": {"strip_comments": CommentParams(sections_are_text=False)},
    "no comment stage (NCE phase 2 + names + headings)": {"strip_comments": False},
    # -- issue 33: page types and the repairs of what browsers show -----------------------
    "page types: every page read as an article": {"page_type": "article"},
    "page types: no type presets (auto's defaults on every type)": {"by_page_type": False},
    "page types: forum posts through the comment stage": {"_off": ("forum posts",)},
    "page types: forum preset off (first post of a run kept alone, replies checked as stories)": {
        "_off": ("forum preset",)
    },
    "page types: a forum's replies checked as another story": {"_off": ("forum story check",)},
    "page types: a thread's short replies dropped with their author's lines": {"thread_posts": False},
    "page types: a forum post's inner <article> cut as related content": {"_off": ("forum nested articles",)},
    "page types: listing preset off": {"_off": ("listing preset",)},
    "page types: collection preset off": {"_off": ("collection preset",)},
    "page types: documentation preset off": {"_off": ("documentation preset",)},
    "page types: service preset off": {"_off": ("service preset",)},
    "page types: product preset off (name, price and stock lines cut as at an article's edges)": {
        "_off": ("product preset",)
    },
    "page types: no density rescue of a fragment (items, sections)": {"density_rescue_ratio": 0.0},
    "page types: no second look (article verdict vetoes no type)": {"_off": ("second look",)},
    "page types: no product description from structured data": {"_off": ("product data",)},
    "page types: a product's customer reviews kept (not comments)": {"_off": ("product reviews",)},
    "repairs: no noscript fallback of a script-rendered page": {"_off": ("noscript",)},
    "repairs: no streamed segments in place": {"_off": ("streamed",)},
    "repairs: a page nested in a button stays in it": {"_off": ("button",)},
    "repairs: a page hidden until its scripts run stays hidden": {"_off": ("hidden page",)},
    "repairs: closed dialogs and dialog roles shown (not emptied)": {"_off": ("dialogs",)},
}

#: The pages of each set, loaded once in each worker process (see ``_load``).
_PAGES: dict[str, list[Page]] = {}


def _check_every_switch_is_ablated() -> None:
    """Every on/off rule of ``AutoParams`` must have its row: a new rule gets measured."""
    switched = {key for overrides in ABLATIONS.values() for key in overrides}
    switches = {field.name for field in fields(AutoParams) if field.type in ("bool", bool)}
    missing = switches - switched
    if missing:
        raise SystemExit(f"ABLATIONS has no row switching off {', '.join(sorted(missing))}")


_WCXB_PAGES: list[tuple[WcxbPage, bytes]] = []


def _load(paths: list[Path], wcxb: bool = False) -> None:
    _PAGES.update(load_sets(paths))
    if wcxb:
        _WCXB_PAGES.extend((page, page.html()) for page in load_pages())


@dataclass(frozen=True, slots=True)
class Row:
    """One row's figures on one set: F1 (snippet F1, WCXB's mean word F1), mean page F1,
    lost pages, and each page's F1 (what ``--save`` keeps)."""

    kind: str
    f1: float
    page_f1: float
    lost: int
    pages: dict[str, float]

    @classmethod
    def of(cls, report: Report) -> Row:
        pages = {page.page_id: page.score.f1 for page in report.pages}
        return cls(report.kind, report.summary.f1, report.mean_page_f1, len(report.lost), pages)


def _run(task: tuple[str, str]) -> tuple[str, str, Row]:
    """auto with one rule off over one set."""
    label, set_name = task
    overrides = dict(ABLATIONS[label])
    off = overrides.pop("_off", ())

    def run(html: bytes, url: str) -> str:
        return extract(html, url=url or None, metadata=False, **overrides).text

    with patched(off):
        if set_name == WCXB:
            return label, set_name, Row.of(_wcxb_report(label, run))
        return label, set_name, Row.of(evaluate(label, run, _PAGES[set_name]))


def _wcxb_report(label: str, run: Callable[[bytes, str], str]) -> Report:
    """WCXB's word F1 over its pages, as a report (its F1 and page F1: the mean word F1)."""
    pages = tuple(
        PageResult(page.page_id, score_words(word_tokens(page.gold), run(html, page.url)), 0.0)  # type: ignore[arg-type]
        for page, html in _WCXB_PAGES
    )
    summary = Summary(
        statistics.fmean(result.score.precision for result in pages),
        statistics.fmean(result.score.recall for result in pages),
        statistics.fmean(result.score.f1 for result in pages),
    )
    return Report(label, "text", summary, 0.0, 0.0, pages)


def _changes(row: Row, baseline: Row) -> tuple[str, str, str]:
    """F1, mean page F1 and lost pages with their changes against the baseline."""
    if row is baseline:
        return f"{row.f1:.3f} | ", f"{row.page_f1:.3f} | ", f"{row.lost} | "
    return (
        f"{row.f1:.3f} | {row.f1 - baseline.f1:+.3f}",
        f"{row.page_f1:.3f} | {row.page_f1 - baseline.page_f1:+.3f}",
        f"{row.lost} | {row.lost - baseline.lost:+d}",
    )


def set_table(set_name: str, rows: dict[str, Row]) -> str:
    baseline = rows[BASELINE]
    f1_name = "snippet F1" if baseline.kind == "snippets" else "F1"
    lines = [
        f"### {set_name} ({len(baseline.pages)} pages)",
        "",
        f"| auto with ... | {f1_name} | change | page F1 | change | lost | change |",
        "|---|---|---|---|---|---|---|",
    ]
    for label, row in rows.items():
        lines.append(f"| {label} | {' | '.join(_changes(row, baseline))} |")
    return "\n".join(lines) + "\n"


def _cell(row: Row, baseline: Row) -> str:
    """A row's change of F1 and of lost pages (the baseline's own figures on its row)."""
    if row is baseline:
        return f"{row.f1:.3f} / {row.lost}"
    return f"{row.f1 - baseline.f1:+.3f} / {row.lost - baseline.lost:+d}"


def overview(results: dict[str, dict[str, Row]]) -> str:
    """The change of F1 and of lost pages of each rule on every set."""
    names = list(results)
    lines = [
        "### Changes on every set (F1 / lost pages)",
        "",
        "| auto with ... | " + " | ".join(names) + " |",
        "|---|" + "---|" * len(names),
    ]
    for label in results[names[0]]:
        cells = [_cell(results[name][label], results[name][BASELINE]) for name in names]
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


#: The page of the documentation whose table ``--write-docs`` rewrites, between its markers.
DOCS_PAGE = ROOT / "docs" / "ablation.md"
BEGIN = "<!-- begin: the table written by benchmarks/quality/ablation.py --write-docs; do not edit -->"
END = "<!-- end of the table written by benchmarks/quality/ablation.py -->"
#: A page counts as moved by a rule when its F1 with the rule differs by this much.
PAGE_MOVE = 0.05
#: The sets of the table in the documentation, in its columns' order.
DOCS_SETS = ("scrapinghub", "zh_news", "newspaper4k", "trafilatura_eval", WCXB)


def switched_off_by(label: str) -> str:
    """What a row changes: the parameters it sets (``AutoParams`` fields, ``page_type``,
    ``strip_comments``) or the code it patches out (:data:`PATCHES`)."""
    overrides = ABLATIONS[label]
    names = [f"`{key}`" for key in overrides if key != "_off"]
    return ", ".join(names + [f"code: {name}" for name in overrides.get("_off", ())])


def moved(row: Row, baseline: Row) -> tuple[int, int]:
    """Pages the rule lifts (F1 with it at least :data:`PAGE_MOVE` higher than without it)
    and pages it lowers."""
    lifted = sum(baseline.pages[page] - f1 >= PAGE_MOVE for page, f1 in row.pages.items())
    lowered = sum(f1 - baseline.pages[page] >= PAGE_MOVE for page, f1 in row.pages.items())
    return lifted, lowered


@dataclass(frozen=True, slots=True)
class Run:
    """When, on what code and how long: the line above the table in the documentation."""

    date: str
    commit: str
    seconds: float
    workers: int

    @classmethod
    def now(cls, seconds: float, workers: int) -> Run:
        """This run, on the checkout of the ``scrapy_mainc`` that ran."""
        checkout = Path(scrapy_mainc.__file__).resolve().parent
        describe = ["git", "describe", "--always", "--dirty"]
        commit = subprocess.run(describe, capture_output=True, text=True, cwd=checkout).stdout.strip()
        return cls(datetime.date.today().isoformat(), commit, seconds, workers)


def docs_table(results: dict[str, dict[str, Row]], run: Run) -> str:
    """The block of docs/ablation.md: every rule's changes on the five sets and the pages
    it moves, with the date and commit of the run."""
    lines = [
        BEGIN,
        "",
        f"Measured on {run.date} on commit `{run.commit}` ({run.seconds / 60:.0f} min with "
        f"{run.workers} worker processes).",
        "",
        "| auto with ... | switched off by | " + " | ".join(DOCS_SETS) + " | pages it lifts / lowers |",
        "|---|---|" + "---|" * (len(DOCS_SETS) + 1),
    ]
    for label in ABLATIONS:
        cells = [_cell(results[name][label], results[name][BASELINE]) for name in DOCS_SETS]
        if label == BASELINE:
            pages = f"{sum(len(results[name][label].pages) for name in DOCS_SETS)} pages"
        else:
            counts = [moved(results[name][label], results[name][BASELINE]) for name in DOCS_SETS]
            pages = f"{sum(up for up, _ in counts)} / {sum(down for _, down in counts)}"
        lines.append(f"| {label} | {switched_off_by(label)} | " + " | ".join(cells) + f" | {pages} |")
    return "\n".join([*lines, "", END])


def write_docs(block: str, path: Path = DOCS_PAGE) -> None:
    """Put ``block`` between the markers of ``path`` (the markers included)."""
    text = path.read_text(encoding="utf-8")
    pattern = re.compile(re.escape(BEGIN) + ".*?" + re.escape(END), re.S)
    if not pattern.search(text):
        raise SystemExit(f"{path} has no markers {BEGIN!r} ... {END!r}")
    path.write_text(pattern.sub(lambda _: block, text, count=1), encoding="utf-8")


def save_rows(path: Path, results: dict[str, dict[str, Row]], run: Run) -> None:
    record = {
        "run": [run.date, run.commit, run.seconds, run.workers],
        "sets": {
            name: {label: [row.kind, row.f1, row.page_f1, row.lost, row.pages] for label, row in rows.items()}
            for name, rows in results.items()
        },
    }
    path.write_text(json.dumps(record), encoding="utf-8")


def load_rows(path: Path) -> tuple[dict[str, dict[str, Row]], Run]:
    record = json.loads(path.read_text(encoding="utf-8"))
    sets = record["sets"]
    results = {name: {label: Row(*row) for label, row in rows.items()} for name, rows in sets.items()}
    return results, Run(*record["run"])


def _measure(args: argparse.Namespace) -> tuple[dict[str, dict[str, Row]], Run]:
    """Every row of :data:`ABLATIONS` on every set, and how the run went."""
    started = perf_counter()
    names = [path.name for path in args.datasets] + ([] if args.no_wcxb else [WCXB])
    tasks = [(label, name) for name in names for label in ABLATIONS]
    results: dict[str, dict[str, Row]] = {name: {} for name in names}
    load_args = (args.datasets, not args.no_wcxb)
    if args.workers > 1:
        with multiprocessing.Pool(args.workers, initializer=_load, initargs=load_args) as pool:
            finished = list(pool.imap_unordered(_run, tasks))
    else:
        _load(*load_args)
        finished = [_run(task) for task in tasks]
    for label, name, row in finished:
        results[name][label] = row
    for name in names:  # in the order of ABLATIONS
        results[name] = {label: results[name][label] for label in ABLATIONS}
    return results, Run.now(perf_counter() - started, args.workers)


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--datasets", nargs="+", type=Path, default=DEFAULT_DATASETS)
    parser.add_argument("--workers", type=int, default=2, help="processes (1: no pool)")
    parser.add_argument("--no-wcxb", action="store_true", help="the four article sets only")
    parser.add_argument("--only", nargs="+", help="rows whose label holds one of these (the baseline always)")
    parser.add_argument("--save", type=Path, help="keep every row's figures and per-page F1 here (JSON)")
    parser.add_argument("--load", type=Path, help="draw the tables from a --save file, running nothing")
    parser.add_argument("--write-docs", action="store_true", help=f"rewrite the table of {DOCS_PAGE.name}")
    args = parser.parse_args()
    _check_every_switch_is_ablated()
    if args.only:
        for label in [label for label in ABLATIONS if label != BASELINE]:
            if not any(word in label for word in args.only):
                del ABLATIONS[label]
    results, run = load_rows(args.load) if args.load else _measure(args)
    for name, rows in results.items():
        print(set_table(name, rows))
    print(overview(results))
    print(f"run time {run.seconds:.0f} s with {run.workers} worker(s)")
    if args.save:
        save_rows(args.save, results, run)
    if args.write_docs:
        missing = [name for name in DOCS_SETS if set(results.get(name, {})) != set(ABLATIONS)]
        if missing:
            raise SystemExit(f"--write-docs needs every row on every set; incomplete: {', '.join(missing)}")
        write_docs(docs_table(results, run))
        print(f"wrote the table of {DOCS_PAGE}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
