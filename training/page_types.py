"""The page-type model: its accuracy on sites it was not trained on, and its training.

    python3 scripts/dev.py page-types               # nested 5-fold figures, folds grouped by site
    python3 scripts/dev.py page-types --train       # and write scrapy_mainc/core/pagetype_model.json.gz
    python3 scripts/dev.py page-types --costs       # the cost table by type pair
    .venv/bin/python -m training.page_types --help  # the same, from the top of the repository

The pages and their signals: ``_samples.py``; the fits and their export: ``_fits.py``; what
each signal measures, the model file's fields: training/README.md. Both read, under ``--cache`` (made on the
first run), every page's signals and what each type's parameters give on it
(``page_type_costs.py``: the word F1 of the page extracted as each type, and its article
verdict).

**The model** (:mod:`scrapy_mainc.core._pagetype`): a quick logistic regression settles
the pages it finds articles with probability ``QUICK_ARTICLE``; for the others the full
logistic regression and boosted trees over the signals and the full model's
log-probabilities are blended (the trees' share ``TREE_SHARE``), and the type taken is the
one of least expected cost: each reading ``t`` of a page of type ``y`` costs the F1 lost by
extracting a ``y`` with ``t``'s parameters (the mean over the training pages of type
``y``), and being right is worth ``right_weight``. A page typed ``article`` whose
extraction is no article (the article verdict) takes its other type.

**Figures** are nested: 5 outer folds, every site's pages in one fold (the article sets'
pages grouped the same way). For each outer fold, the models are fitted on the other four;
``right_weight`` and the trees' class ``balance`` are chosen by 5 inner
folds (grouped by site) of those four alone, for the highest accuracy plus twice the word F1 on
their WCXB pages, with the article sets' pages typed ``article`` 0.99 of the time by the
models (the second look may type otherwise a page whose extraction is no article); then the
fold's pages are typed. Nothing of a fold's own pages goes into its choices. ``--train``
makes the same choices by 5 folds of every page and fits on every page.
"""

from __future__ import annotations

import argparse
import datetime
import gzip
import hashlib
import itertools
import json
import random
from collections import Counter
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np

from scrapy_mainc.core._page_signals import page_words
from scrapy_mainc.core._pagetype import BARE_PAGE_WORDS, PAGE_TYPES, decide, few_words_type
from scrapy_mainc.core._pagetype_model import ADDRESS_PREFIX, MODEL_FILE, MODEL_FORMAT, models_from_json
from training._fits import MIN_SITES, TREE_PARAMS, C, LinearFit, TreeFit, stacked
from training._samples import Sample, collect, page_refs
from training.page_type_costs import page_costs

ROOT = Path(__file__).resolve().parents[1]
MODEL_PATH = ROOT / "scrapy_mainc" / "core" / MODEL_FILE
#: The samples, costs and held-out types, made on the first run (not in git).
CACHE = ROOT / "training" / ".cache"
FOLDS = 5
#: The outer folds' shuffle of the sites.
SEED = 20261128
#: The quick model's probability of ``article`` that settles a page (issue 33's sweep).
QUICK_ARTICLE = 0.9
#: The trees' share of the blended probabilities.
TREE_SHARE = 0.5
#: A page marked twice as an article (JSON-LD and ``og:type``) is read as another type only
#: when that type is this many times as likely (issue 33's rule).
MARKED_ARTICLE_MARGIN = 2.0
#: The choices the inner folds make among: what being right is worth beside the F1 the
#: costs count (10: the most probable type), the trees' class balance.
RIGHT_WEIGHTS = (0.02, 0.05, 0.1, 0.2, 0.5, 10.0)
BALANCES = (0.0, 0.5)
#: What the choices weigh the WCXB word F1 by, beside the accuracy: a type's F1 moves about
#: half as much as its accuracy (the cost table is mostly small), so twice the weight.
F1_WEIGHT = 2.0
#: Signals no model reads: whether the page's URL is known (the pages without one are a
#: set's accident, not a kind of page).
NOT_INPUTS = ("u_known",)
#: The share of the article sets' pages the choices keep typed ``article``.
ARTICLE_SETS_FLOOR = 0.99


@dataclass(frozen=True, slots=True)
class Pages:
    """The samples with what the folds and the decision read."""

    samples: list[Sample]
    quick_names: list[str]
    full_names: list[str]
    #: F1 of each page extracted as each type (rows: pages; columns: PAGE_TYPES).
    f1: np.ndarray
    verdicts: np.ndarray
    kinds: np.ndarray
    wcxb: np.ndarray
    marked: np.ndarray
    #: Pages of fewer than BARE_PAGE_WORDS words, which the quick model types alone.
    bare: np.ndarray

    def subset(self, index: Sequence[int]) -> list[Sample]:
        return [self.samples[position] for position in index]


def load(cache: Path, jobs: int, without: tuple[str, ...] = ()) -> Pages:
    """The samples and costs under ``cache`` (collected and saved there on the first run),
    without the signals whose names start with ``without``."""
    samples, quick = collect(cache / "samples.json", jobs)
    costs_path = cache / "costs.json"
    if not costs_path.exists():
        found: dict[str, dict[str, dict[str, float]]] = {}
        with ProcessPoolExecutor(jobs) as pool:
            for source, page_id, scores in pool.map(page_costs, _cost_refs(), chunksize=8):
                found.setdefault(source, {})[page_id] = scores
        costs_path.write_text(json.dumps(found), encoding="utf-8")
    costs = json.loads(costs_path.read_text(encoding="utf-8"))
    samples = _known_addresses(samples)
    unused = (*without, *NOT_INPUTS)
    names = sorted(name for name in samples[0].signals if not name.startswith(unused))
    return Pages(
        samples,
        [name for name in quick if name in names],
        names,
        np.array([[costs[s.source][s.page_id][kind] for kind in PAGE_TYPES] for s in samples]),
        np.array([bool(costs[s.source][s.page_id]["verdict"]) for s in samples]),
        np.array([PAGE_TYPES.index(s.page_type) for s in samples]),
        np.array([s.source == "wcxb" for s in samples]),
        np.array([bool(s.signals["ld_article"] and s.signals["og_article"]) for s in samples]),
        np.array([page_words(s.signals) < BARE_PAGE_WORDS for s in samples]),
    )


def _known_addresses(samples: list[Sample]) -> list[Sample]:
    """The samples, those of no URL given the mean address shape of the others (as the
    package does with the model's means: a missing address weighs for no type)."""
    known = [sample for sample in samples if sample.signals["u_known"]]
    names = [name for name in samples[0].signals if name.startswith(ADDRESS_PREFIX)]
    means = {name: float(np.mean([sample.signals[name] for sample in known])) for name in names}
    return [
        sample if sample.signals["u_known"] else replace(sample, signals={**sample.signals, **means})
        for sample in samples
    ]


def _cost_refs() -> list[tuple[str, str, str, str]]:
    return [(source, page_id, url, path) for source, page_id, _, url, path in page_refs()]


def grouped_folds(samples: Sequence[Sample], seed: int) -> np.ndarray:
    """Each sample's fold: every site's pages in one, sites dealt in a fixed shuffled order."""
    sites = sorted({sample.site for sample in samples})
    random.Random(seed).shuffle(sites)
    fold_of = {site: position % FOLDS for position, site in enumerate(sites)}
    return np.array([fold_of[sample.site] for sample in samples])


@dataclass(frozen=True, slots=True)
class Fitted:
    """The quick and full linear models and the trees (one per balance) on some pages."""

    quick: LinearFit
    full: LinearFit
    trees: dict[float, TreeFit]


def fit(pages: Pages, train: np.ndarray, balances: Sequence[float]) -> tuple[Fitted, np.ndarray]:
    """The models fitted on ``train``, and the full model's probabilities of the ``train``
    pages by 5 inner folds (the trees' inputs, and what the choices are made on)."""
    samples = pages.subset(train)
    inner = grouped_folds(samples, seed=7)
    out_of_fold = np.zeros((len(train), len(PAGE_TYPES)))
    for fold in range(FOLDS):
        part = [samples[i] for i in np.where(inner != fold)[0]]
        held = [samples[i] for i in np.where(inner == fold)[0]]
        out_of_fold[inner == fold] = LinearFit(part, pages.full_names, _FULL_SOURCES).probabilities(held)
    inputs = stacked(samples, out_of_fold)
    kinds = pages.kinds[train]
    trees = {balance: TreeFit(inputs, pages.full_names, kinds, balance) for balance in balances}
    quick = LinearFit(samples, pages.quick_names, _QUICK_SOURCES)
    full = LinearFit(samples, pages.full_names, _FULL_SOURCES)
    return Fitted(quick, full, trees), out_of_fold


_QUICK_SOURCES = (("label", "button", "prose"),)
_FULL_SOURCES = (("label", "button", "prose"), ("class",))


@dataclass(frozen=True, slots=True)
class Predicted:
    """Probabilities of some pages: the quick model's ``article``, the blend by balance."""

    quick: np.ndarray
    blends: dict[float, np.ndarray]

    @property
    def quick_article(self) -> np.ndarray:
        return self.quick[:, 0]


def predict(fitted: Fitted, samples: list[Sample]) -> Predicted:
    full = fitted.full.probabilities(samples)
    inputs = stacked(samples, full)
    blends = {
        balance: (1 - TREE_SHARE) * full + TREE_SHARE * trees.probabilities(inputs)
        for balance, trees in fitted.trees.items()
    }
    return Predicted(fitted.quick.probabilities(samples), blends)


@dataclass(frozen=True, slots=True)
class Choice:
    """What the inner folds choose: the decision's weight of being right, the trees' balance."""

    right_weight: float
    balance: float


def decided(
    pages: Pages,
    index: np.ndarray,
    predicted: Predicted,
    choice: Choice,
    costs: np.ndarray,
    veto: bool = True,
) -> np.ndarray:
    """The types of the pages ``index`` as the package decides them (its own
    :func:`decide`), the article verdict's second look included when ``veto``."""
    model = models_from_json(_decision_data(costs, choice))
    probabilities = predicted.blends[choice.balance]
    found = []
    for row, position in enumerate(index):
        p = list(probabilities[row])
        if predicted.quick[row, 0] >= QUICK_ARTICLE:
            kind = 0
        elif pages.bare[position]:
            kind = few_words_type(list(predicted.quick[row]), pages.samples[position].signals)
        else:
            kind = decide(model, p, range(len(PAGE_TYPES)), bool(pages.marked[position]))
        if veto and kind == 0 and not pages.verdicts[position] and not pages.bare[position]:
            kind = decide(model, p, range(1, len(PAGE_TYPES)), False)
        found.append(kind)
    return np.array(found)


def cost_table(pages: Pages, index: np.ndarray) -> np.ndarray:
    """``costs[y][t]``: the mean F1 the pages ``index`` of type ``y`` lose extracted as ``t``."""
    table = np.zeros((len(PAGE_TYPES), len(PAGE_TYPES)))
    for kind in range(len(PAGE_TYPES)):
        rows = index[pages.kinds[index] == kind]
        if len(rows):
            table[kind] = pages.f1[rows, kind].mean() - pages.f1[rows].mean(axis=0)
    return table


def choose(pages: Pages, train: np.ndarray, out_of_fold: np.ndarray, costs: np.ndarray) -> Choice:
    """The choice of the grid scoring best on 5 inner folds of ``train`` (their trees
    fitted on the other inner folds, over the full model's out-of-fold probabilities)."""
    samples = pages.subset(train)
    inner = grouped_folds(samples, seed=7)
    inputs = stacked(samples, out_of_fold)
    blends = {balance: np.zeros_like(out_of_fold) for balance in BALANCES}
    quick = np.zeros_like(out_of_fold)
    for fold in range(FOLDS):
        part, held = np.where(inner != fold)[0], np.where(inner == fold)[0]
        kinds = pages.kinds[train[part]]
        for balance in BALANCES:
            trees = TreeFit([inputs[i] for i in part], pages.full_names, kinds, balance)
            tree_p = trees.probabilities([inputs[i] for i in held])
            blends[balance][held] = (1 - TREE_SHARE) * out_of_fold[held] + TREE_SHARE * tree_p
        part_samples = [samples[i] for i in part]
        quick[held] = LinearFit(part_samples, pages.quick_names, _QUICK_SOURCES).probabilities(
            [samples[i] for i in held]
        )
    predicted = Predicted(quick, blends)
    scored = []
    for weight, balance in itertools.product(RIGHT_WEIGHTS, BALANCES):
        choice = Choice(weight, balance)
        kinds = decided(pages, train, predicted, choice, costs)
        alone = decided(pages, train, predicted, choice, costs, veto=False)
        scored.append((_objective(pages, train, kinds, alone), choice))
    return max(scored, key=lambda pair: pair[0])[1]


def _objective(pages: Pages, index: np.ndarray, kinds: np.ndarray, alone: np.ndarray) -> float:
    """Accuracy plus ``F1_WEIGHT`` times the word F1 on the WCXB pages (the types ``kinds``,
    with the second look), less what the article sets' pages the models alone type
    ``article`` (``alone``) fall short of the floor, ten times over."""
    wcxb = pages.wcxb[index]
    accuracy = float((kinds[wcxb] == pages.kinds[index][wcxb]).mean())
    f1 = float(pages.f1[index[wcxb], kinds[wcxb]].mean())
    articles = float((alone[~wcxb] == 0).mean()) if (~wcxb).any() else 1.0
    return accuracy + F1_WEIGHT * f1 - 10 * max(0.0, ARTICLE_SETS_FLOOR - articles)


def decision_record(costs: np.ndarray, choice: Choice) -> dict[str, Any]:
    """The decision's numbers, as :func:`~scrapy_mainc.core._pagetype_model.models_from_json`
    reads them (``decision``)."""
    return {
        "tree_share": TREE_SHARE,
        "costs": [[round(float(value), 4) for value in row] for row in costs],
        "right_weight": choice.right_weight,
        "marked_article_margin": MARKED_ARTICLE_MARGIN,
    }


def _decision_data(costs: np.ndarray, choice: Choice) -> dict[str, Any]:
    """A model record holding only the decision's numbers (the models left empty)."""
    empty = {"classes": list(PAGE_TYPES), "signals": [], "means": [], "scales": [],
             "intercepts": [0.0] * len(PAGE_TYPES), "signal_weights": [[] for _ in PAGE_TYPES],
             "word_weights": {}}  # fmt: skip
    return {
        "format": MODEL_FORMAT,
        "quick_article": QUICK_ARTICLE,
        "quick": empty,
        "full": empty,
        "trees": {
            "classes": list(PAGE_TYPES),
            "inputs": [],
            "baseline": [0.0] * len(PAGE_TYPES),
            "trees": [],
        },
        "decision": decision_record(costs, choice),
    }


@dataclass(frozen=True, slots=True)
class HeldOut:
    """Every page's type by the nested folds: the models alone and with the verdict."""

    alone: np.ndarray
    vetoed: np.ndarray
    quick_settled: np.ndarray
    choices: list[Choice]
    #: The probability each type of ``alone`` and ``vetoed`` is given (``PageType.confidence``).
    alone_confidence: np.ndarray
    vetoed_confidence: np.ndarray


#: Each outer fold's pages, costs, probabilities and choice (for a study of other choices).
SAVED: list[tuple[np.ndarray, np.ndarray, Predicted, Choice]] = []


def cross_validated(pages: Pages, seed: int = SEED, folds: np.ndarray | None = None) -> HeldOut:
    """Every page's type by the nested folds (see the module docstring); ``folds``, each
    page's outer fold, when given (``training/held_out.py`` groups by registered domain)."""
    folds = grouped_folds(pages.samples, seed) if folds is None else folds
    alone = np.zeros(len(pages.samples), dtype=int)
    vetoed = np.zeros(len(pages.samples), dtype=int)
    settled = np.zeros(len(pages.samples), dtype=bool)
    alone_confidence = np.zeros(len(pages.samples))
    vetoed_confidence = np.zeros(len(pages.samples))
    choices = []
    for fold in range(FOLDS):
        train, test = np.where(folds != fold)[0], np.where(folds == fold)[0]
        costs = cost_table(pages, train)
        fitted, out_of_fold = fit(pages, train, BALANCES)
        choice = choose(pages, train, out_of_fold, costs)
        choices.append(choice)
        predicted = predict(fitted, pages.subset(test))
        SAVED.append((test, costs, predicted, choice))
        alone[test] = decided(pages, test, predicted, choice, costs, veto=False)
        vetoed[test] = decided(pages, test, predicted, choice, costs)
        settled[test] = predicted.quick_article >= QUICK_ARTICLE
        alone_confidence[test] = _confidences(pages, test, predicted, choice, alone[test])
        vetoed_confidence[test] = _confidences(pages, test, predicted, choice, vetoed[test])
        print(f"fold {fold}: {choice}", flush=True)
    return HeldOut(alone, vetoed, settled, choices, alone_confidence, vetoed_confidence)


def _confidences(
    pages: Pages, index: np.ndarray, predicted: Predicted, choice: Choice, kinds: np.ndarray
) -> np.ndarray:
    """The probability the package gives each page's type ``kinds``: the quick model's on a
    page it settles as an article or of few words, the blend's on the others (and on a
    settled page the second look types otherwise: :func:`page_type`, ``other_than_article``)."""
    blend = predicted.blends[choice.balance]
    rows = np.arange(len(index))
    quick = ((predicted.quick_article >= QUICK_ARTICLE) & (kinds == 0)) | pages.bare[index]
    return np.where(quick, predicted.quick[rows, kinds], blend[rows, kinds])


def report(pages: Pages, kinds: np.ndarray, settled: np.ndarray) -> str:
    wcxb = pages.wcxb
    truth, given = pages.kinds[wcxb], kinds[wcxb]
    right = int((truth == given).sum())
    articles = float((kinds[~wcxb] == 0).mean())
    f1 = float(pages.f1[wcxb, :][np.arange(int(wcxb.sum())), given].mean())
    sets_f1 = float(pages.f1[~wcxb, :][np.arange(int((~wcxb).sum())), kinds[~wcxb]].mean())
    by_set = Counter(s.source for s, quick in zip(pages.samples, settled) if quick)
    totals = Counter(s.source for s in pages.samples)
    quick = ", ".join(f"{name} {by_set[name] / totals[name]:.2f}" for name in totals)
    lines = [
        f"WCXB dev, {FOLDS} folds grouped by site: accuracy {right / len(truth):.3f} ({right}/{len(truth)})",
        f"word F1 with these types {f1:.4f} (WCXB), article sets' page F1 {sets_f1:.4f}",
        f"article sets (all articles) typed article: {articles:.3f}",
        f"settled by the quick model: {quick}",
        "",
        "| label \\ given | " + " | ".join(PAGE_TYPES) + " | recall |",
        "|---|" + "---:|" * (len(PAGE_TYPES) + 1),
    ]
    counts = Counter(zip(truth.tolist(), given.tolist()))
    for kind, name in enumerate(PAGE_TYPES):
        row = [counts[(kind, other)] for other in range(len(PAGE_TYPES))]
        lines.append(f"| {name} | " + " | ".join(map(str, row)) + f" | {row[kind] / max(sum(row), 1):.2f} |")
    return "\n".join(lines)


def costs_report(pages: Pages) -> str:
    """The cost table of every WCXB page (and the article sets' row): the word F1 a page of
    each type gains (+) or loses (-) extracted as each type, beside its F1 as itself."""
    table = cost_table(pages, np.where(pages.wcxb)[0])
    sets = cost_table(pages, np.where(~pages.wcxb)[0])
    lines = [
        "| true type \\ extracted as | " + " | ".join(PAGE_TYPES) + " | F1 as itself |",
        "|---|" + "---:|" * (len(PAGE_TYPES) + 1),
    ]
    rows = []
    for kind, name in enumerate(PAGE_TYPES):
        which = pages.wcxb & (pages.kinds == kind)
        rows.append((f"{name} ({int(which.sum())})", table[kind], which, kind))
    rows.append((f"article sets ({int((~pages.wcxb).sum())})", sets[0], ~pages.wcxb, 0))
    for label, costs, which, kind in rows:
        itself = float(pages.f1[which, kind].mean())
        lines.append(f"| {label} | " + " | ".join(f"{-value:+.3f}" for value in costs) + f" | {itself:.3f} |")
    return "\n".join(lines)


def train_and_write(pages: Pages, path: Path = MODEL_PATH) -> Choice:
    """Fit on every page, with the choices of 5 grouped folds of every page; write the model."""
    every = np.arange(len(pages.samples))
    costs = cost_table(pages, every)
    fitted, out_of_fold = fit(pages, every, BALANCES)
    choice = choose(pages, every, out_of_fold, costs)
    record = {
        "format": MODEL_FORMAT,
        "trainer": "training/page_types.py (python3 scripts/dev.py page-types --train)",
        "trained": datetime.date.today().isoformat(),
        "pages": dict(Counter(sample.source for sample in pages.samples)),
        "settings": {
            "min_sites": MIN_SITES,
            "C": C,
            "trees": TREE_PARAMS,
            "balance": choice.balance,
            "choices": "5 folds grouped by site of every page",
        },  # fmt: skip
        "quick_article": QUICK_ARTICLE,
        "quick": fitted.quick.data(),
        "full": fitted.full.data(),
        "trees": fitted.trees[choice.balance].data(),
        "decision": decision_record(costs, choice),
    }
    write_record(record, path)
    _check_export(fitted, choice, pages, path)
    return choice


def write_record(record: dict[str, Any], path: Path) -> None:
    """``record`` as gzipped JSON (floats as ``repr`` writes them: they read back exactly; no
    time stamp in the gzip header: the same models give the same bytes)."""
    text = json.dumps(record, ensure_ascii=False, separators=(",", ":"))
    path.write_bytes(gzip.compress(text.encode("utf-8"), mtime=0))


def _check_export(fitted: Fitted, choice: Choice, pages: Pages, path: Path) -> None:
    """The package's evaluation of the written trees agrees with scikit-learn's."""
    model = models_from_json(json.loads(gzip.decompress(path.read_bytes())))
    samples = pages.samples[:: max(1, len(pages.samples) // 200)]
    inputs = stacked(samples, fitted.full.probabilities(samples))
    expected = fitted.trees[choice.balance].probabilities(inputs)
    found = np.array([model.trees.probabilities(row) for row in inputs])
    if np.abs(found - expected).max() > 1e-5:
        raise SystemExit(f"the exported trees disagree with scikit-learn: {np.abs(found - expected).max()}")


#: Where the nested folds' types are kept, under ``--cache``: with the fingerprint of what
#: made them (:func:`_fingerprint`), so that a bench run reuses them only while it holds.
HELD_OUT_FILE = "held_out_types.json"


def _fingerprint(cache: Path, seed: int) -> str:
    """What the nested folds' types depend on: the cached samples and costs, the trainer's
    code, the package's decision (:func:`decide`) and the folds' seed."""
    digest = hashlib.sha256(str(seed).encode())
    here = Path(__file__).parent
    files = (cache / "samples.json", cache / "costs.json", here / "page_types.py", here / "_fits.py",
             ROOT / "scrapy_mainc" / "core" / "_pagetype.py")  # fmt: skip
    for path in files:
        digest.update(path.read_bytes())
    return digest.hexdigest()


def save_held_out(pages: Pages, held: HeldOut, cache: Path, seed: int) -> None:
    """Every page's type by the nested folds (with the second look), by ``set/id``, under
    ``cache`` (:data:`HELD_OUT_FILE`)."""
    types = {sample.key: PAGE_TYPES[kind] for sample, kind in zip(pages.samples, held.vetoed)}
    record = {"fingerprint": _fingerprint(cache, seed), "types": types}
    (cache / HELD_OUT_FILE).write_text(json.dumps(record, sort_keys=True), encoding="utf-8")


def held_out_types(cache: Path = CACHE, jobs: int = 2, seed: int = SEED) -> dict[str, str]:
    """Each WCXB page's type as the nested folds give it (what ``extract`` would give on
    sites the model never saw), by page id: the column ``auto, held-out types`` of
    ``benchmarks/quality/wcxb.py``. Read from the last run's :data:`HELD_OUT_FILE` while
    its fingerprint holds, else the folds are run (about 20 minutes) and saved."""
    pages = load(cache, jobs)
    path = cache / HELD_OUT_FILE
    saved = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}
    if saved.get("fingerprint") != _fingerprint(cache, seed):
        save_held_out(pages, cross_validated(pages, seed), cache, seed)
        saved = json.loads(path.read_text(encoding="utf-8"))
    prefix = "wcxb/"
    return {key[len(prefix) :]: kind for key, kind in saved["types"].items() if key.startswith(prefix)}


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--train", action="store_true", help="fit on every page and write the model")
    parser.add_argument("--skip-figures", action="store_true", help="with --train: no cross-validation")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--cache", type=Path, default=CACHE, help="samples and costs")
    parser.add_argument(
        "--without", default="", help="leave out signals starting with these (comma-separated)"
    )
    parser.add_argument("--seed", type=int, default=SEED, help="the folds' shuffle")
    parser.add_argument("--costs", action="store_true", help="print the cost table by type pair")
    parser.add_argument("--save", type=Path, help="save the outer folds' probabilities here (pickle)")
    args = parser.parse_args()
    pages = load(args.cache, args.jobs, tuple(filter(None, args.without.split(","))))
    if args.costs:
        print(costs_report(pages))
        return 0
    if args.train and args.skip_figures:
        choice = train_and_write(pages)
        print(f"wrote {MODEL_PATH} ({MODEL_PATH.stat().st_size:,} bytes), {choice}")
        return 0
    held = cross_validated(pages, args.seed)
    if not args.without:  # the types bench-wcxb --held-out reads
        save_held_out(pages, held, args.cache, args.seed)
    if args.save:
        import pickle

        args.save.write_bytes(pickle.dumps(SAVED))
    print("\nthe models alone:")
    print(report(pages, held.alone, held.quick_settled))
    print("\nwith the article verdict's second look (as extract decides):")
    print(report(pages, held.vetoed, held.quick_settled))
    if args.train:
        choice = train_and_write(pages)
        print(f"\nwrote {MODEL_PATH} ({MODEL_PATH.stat().st_size:,} bytes), {choice}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
