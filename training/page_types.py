"""The page-type model: its accuracy on sites it was not trained on, and its training.

    python3 scripts/dev.py page-types                # 5-fold accuracy, folds grouped by site
    python3 scripts/dev.py page-types --train        # and write the model file
    .venv/bin/python -m training.page_types --help   # the same, from the top of the repository

Pages: the WCXB development split and the four article sets (``../shared/datasets``).
The model (two multinomial logistic regressions, scikit-learn: the ``train`` extra) and
its inputs, the accuracy measure and the file it writes
(``scrapy_mainc/core/pagetype_model.json.gz``, read by
:mod:`scrapy_mainc.core._pagetype_model` with no learning library) are described in
training/README.md.
"""

from __future__ import annotations

import argparse
import datetime
import gzip
import json
from collections import Counter
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from scrapy_mainc import extract
from scrapy_mainc._extract import build_document
from scrapy_mainc.core._decode import decode_html
from scrapy_mainc.core._dom import parse_html
from scrapy_mainc.core._page_signals import more_signals, quick_signals
from scrapy_mainc.core._pagetype import MARKED_ARTICLE_MARGIN, PAGE_TYPES, possible_types
from scrapy_mainc.core._pagetype_model import MODEL_FILE, MODEL_FORMAT

ROOT = Path(__file__).resolve().parents[1]
MODEL_PATH = ROOT / "scrapy_mainc" / "core" / MODEL_FILE
#: ``shared/datasets`` beside the checkout, or beside the folder of worktrees that holds it.
DATASETS_DIR = next(
    (path / "shared" / "datasets" for path in ROOT.parents if (path / "shared" / "datasets").is_dir()),
    ROOT.parent / "shared" / "datasets",
)
#: The article sets, every page of which is an article.
DEVELOPMENT_SETS = ("scrapinghub", "zh_news", "newspaper4k", "trafilatura_eval")
#: A label word counts when pages of this many sites show it.
MIN_SITES = 5
#: The most widespread label words kept.
VOCABULARY = 3000
#: Inverse regularisation strength of the logistic regression (chosen over 0.05, 0.1,
#: 0.2 and 0.5 by the grouped folds: 0.2 scored highest).
C = 0.2
FOLDS = 5
#: The quick model's probability of ``article`` that settles a page (swept, see docs/page-types.md).
QUICK_ARTICLE = 0.9


@dataclass(frozen=True, slots=True)
class Sample:
    """One page's signals, label words, type and site."""

    source: str
    page_id: str
    page_type: str
    site: str
    signals: dict[str, float]
    words: frozenset[str]


#: The signals the quick model reads (those :func:`quick_signals` gives), set by ``collect``.
QUICK_NAMES: list[str] = []


def site_of(url: str, fallback: str) -> str:
    """The host of ``url`` without a first label such as ``www``, ``m`` or ``amp``."""
    host = (urlsplit(url).hostname or "").lower()
    first, _, rest = host.partition(".")
    if first in {"www", "m", "amp", "mobile", "en"} and "." in rest:
        host = rest
    return host or fallback


def _pages() -> list[tuple[str, str, str, str, Path]]:
    """(set, id, type, url, file) of every page: WCXB's, then the article sets'."""
    pages = []
    wcxb = json.loads((DATASETS_DIR / "wcxb" / "gold.json").read_text(encoding="utf-8"))
    for page_id, entry in sorted(wcxb.items()):
        path = DATASETS_DIR / "wcxb" / "html" / f"{page_id}.html.gz"
        pages.append(("wcxb", page_id, entry["page_type"], entry.get("url") or "", path))
        URLS[("wcxb", page_id)] = entry.get("url") or ""
    for name in DEVELOPMENT_SETS:
        gold = json.loads((DATASETS_DIR / name / "gold.json").read_text(encoding="utf-8"))
        for page_id, entry in sorted(gold.items()):
            path = DATASETS_DIR / name / "html" / f"{page_id}.html"
            if path.exists():
                pages.append((name, page_id, "article", entry.get("url") or "", path))
                URLS[(name, page_id)] = entry.get("url") or ""
    return pages


def _sample(page: tuple[str, str, str, str, Path]) -> Sample:
    source, page_id, page_type, url, path = page
    raw = gzip.decompress(path.read_bytes()) if path.suffix == ".gz" else path.read_bytes()
    document = build_document(parse_html(decode_html(raw).text), url or None)
    signals, by_source = quick_signals(document)
    signals = {**{f"quick:{name}": 0.0 for name in signals}, **signals, **more_signals(document)}
    words = frozenset(f"{source}:{word}" for source, found in by_source.items() for word in found)
    return Sample(source, page_id, page_type, site_of(url, f"{source}/{page_id}"), signals, words)


def collect(jobs: int) -> list[Sample]:
    with ProcessPoolExecutor(jobs) as pool:
        return list(pool.map(_sample, _pages(), chunksize=16))


def split_quick(samples: list[Sample]) -> list[Sample]:
    """The samples without the markers of the quick signals' names (``quick:NAME``), which
    set :data:`QUICK_NAMES`."""
    QUICK_NAMES[:] = sorted(name[6:] for name in samples[0].signals if name.startswith("quick:"))
    return [
        Sample(
            *astuple_head(sample),
            {k: v for k, v in sample.signals.items() if not k.startswith("quick:")},
            sample.words,
        )
        for sample in samples
    ]


def astuple_head(sample: Sample) -> tuple[str, str, str, str]:
    return sample.source, sample.page_id, sample.page_type, sample.site


def _cached(path: Path | None, jobs: int) -> list[Sample]:
    """The samples, from ``path`` when it holds them, else collected (and saved there)."""
    if path is not None and path.exists():
        records = json.loads(path.read_text(encoding="utf-8"))
        return [Sample(*record[:5], frozenset(record[5])) for record in records]
    samples = collect(jobs)
    if path is not None:
        records = [[s.source, s.page_id, s.page_type, s.site, s.signals, sorted(s.words)] for s in samples]
        path.write_text(json.dumps(records), encoding="utf-8")
    return samples


def _without(sample: Sample, prefixes: tuple[str, ...]) -> Sample:
    """``sample`` without the signals named by ``prefixes`` (``words``: its label words)."""
    signals = {name: value for name, value in sample.signals.items() if not name.startswith(prefixes)}
    words = frozenset() if "words" in prefixes else sample.words
    return Sample(sample.source, sample.page_id, sample.page_type, sample.site, signals, words)


def vocabulary(samples: Sequence[Sample]) -> list[str]:
    """Label words shown on pages of at least ``MIN_SITES`` sites, the ``VOCABULARY`` most
    widespread, in a stable order."""
    sites: dict[str, set[str]] = {}
    for sample in samples:
        for word in sample.words:
            sites.setdefault(word, set()).add(sample.site)
    common = [(len(found), word) for word, found in sites.items() if len(found) >= MIN_SITES]
    return sorted(word for _, word in sorted(common, reverse=True)[:VOCABULARY])


class Model:
    """The scaler, vocabulary and logistic regression fitted on some samples."""

    def __init__(self, samples: Sequence[Sample], names: Sequence[str] | None = None) -> None:
        import numpy as np
        from sklearn.linear_model import LogisticRegression
        from sklearn.preprocessing import StandardScaler

        self.names = sorted(names if names is not None else samples[0].signals)
        self.words = vocabulary(samples)
        dense = np.array([[sample.signals[name] for name in self.names] for sample in samples])
        self.scaler = StandardScaler().fit(dense)
        labels = [PAGE_TYPES.index(sample.page_type) for sample in samples]
        self.regression = LogisticRegression(C=C, max_iter=5000).fit(self._inputs(samples), labels)

    def _inputs(self, samples: Sequence[Sample]):  # type: ignore[no-untyped-def]
        import numpy as np

        dense = np.array([[sample.signals[name] for name in self.names] for sample in samples])
        index = {word: column for column, word in enumerate(self.words)}
        words = np.zeros((len(samples), len(self.words)))
        for row, sample in enumerate(samples):
            for word in sample.words & index.keys():
                words[row, index[word]] = 1.0
        return np.hstack([self.scaler.transform(dense), words])

    def predict(self, samples: Sequence[Sample]) -> list[str]:
        return [PAGE_TYPES[label] for label in self.regression.predict(self._inputs(samples))]

    def probabilities(self, samples: Sequence[Sample]) -> list[dict[str, float]]:
        classes = [PAGE_TYPES[label] for label in self.regression.classes_]
        rows = self.regression.predict_proba(self._inputs(samples))
        return [dict(zip(classes, map(float, row))) for row in rows]

    def likeliest_but_article(self, samples: Sequence[Sample]) -> list[str]:
        """As ``other_than_article``: among the other types the page may be."""
        return [
            max(possible_types(sample.signals, PAGE_TYPES[1:]), key=row.__getitem__)
            for sample, row in zip(samples, self.probabilities(samples))
        ]

    def article_probability(self, samples: Sequence[Sample]) -> list[float]:
        column = list(self.regression.classes_).index(PAGE_TYPES.index("article"))
        return [float(row[column]) for row in self.regression.predict_proba(self._inputs(samples))]


@dataclass(frozen=True, slots=True)
class Prediction:
    """A sample's type as the cascade predicts it, and the full model's likeliest other
    than ``article`` (what the article verdict's veto turns to)."""

    page_type: str
    other: str


def cross_validated(samples: list[Sample], threshold: float) -> list[Prediction]:
    """Each sample's type as the cascade trained on the other folds (grouped by site)
    predicts it, as :func:`scrapy_mainc.core._pagetype.page_type` decides: the quick
    model's ``article`` when its probability is at least ``threshold``, else the full
    model's type (``article`` still when the page's markup says so twice and the other type
    is not ``MARKED_ARTICLE_MARGIN`` times as likely)."""
    sites = sorted({sample.site for sample in samples})
    fold_of = {site: position % FOLDS for position, site in enumerate(_shuffled(sites))}
    predicted = [Prediction("", "")] * len(samples)
    for fold in range(FOLDS):
        train = [sample for sample in samples if fold_of[sample.site] != fold]
        test = [index for index, sample in enumerate(samples) if fold_of[sample.site] == fold]
        tested = [samples[index] for index in test]
        quick, full = Model(train, QUICK_NAMES), Model(train)
        others = full.likeliest_but_article(tested)
        types = [_decided(sample, row) for sample, row in zip(tested, full.probabilities(tested))]
        for index, article, page_type, other in zip(test, quick.article_probability(tested), types, others):
            predicted[index] = Prediction("article" if article >= threshold else page_type, other)
            QUICK_EXITS[index] = article >= threshold
    return predicted


def _decided(sample: Sample, probabilities: dict[str, float]) -> str:
    """The full model's type among those the page may be, with the margin a page marked
    twice as an article gets."""
    best = max(possible_types(sample.signals, PAGE_TYPES), key=probabilities.__getitem__)
    marked = sample.signals.get("ld_article") and sample.signals.get("og_article")
    if (
        best != "article"
        and marked
        and probabilities[best] < MARKED_ARTICLE_MARGIN * probabilities["article"]
    ):
        return "article"
    return best


def vetoed(samples: list[Sample], predicted: list[Prediction], jobs: int) -> list[str]:
    """The predicted types after the article verdict's veto, as ``extract`` applies it: a
    page predicted ``article`` whose extraction (with that type) is no article takes its
    other type."""
    paths = {(source, page_id): path for source, page_id, _, _, path in _pages()}
    asked = [
        (index, paths[(sample.source, sample.page_id)], _url(sample))
        for index, (sample, prediction) in enumerate(zip(samples, predicted))
        if prediction.page_type == "article"
    ]
    with ProcessPoolExecutor(jobs) as pool:
        articles = dict(pool.map(_is_article, asked, chunksize=16))
    return [
        prediction.other if articles.get(index, True) is False else prediction.page_type
        for index, prediction in enumerate(predicted)
    ]


def _url(sample: Sample) -> str:
    return URLS.get((sample.source, sample.page_id), "")


#: Each page's URL, by (set, id), filled by ``_pages``.
URLS: dict[tuple[str, str], str] = {}


def _is_article(task: tuple[int, Path, str]) -> tuple[int, bool]:
    index, path, url = task
    raw = gzip.decompress(path.read_bytes()) if path.suffix == ".gz" else path.read_bytes()
    return index, extract(raw, url=url or None, metadata=False, page_type="article").article


#: Whether each sample's type was settled by the quick model (set by ``cross_validated``).
QUICK_EXITS: dict[int, bool] = {}


def _shuffled(items: list[str]) -> list[str]:
    """``items`` in a fixed pseudo-random order (the folds do not follow the alphabet)."""
    import random

    order = list(items)
    random.Random(20261128).shuffle(order)
    return order


def held_out_types(cache: Path | None = None, jobs: int = 2) -> dict[str, str]:
    """Each WCXB page's type as the cascade trained on the other folds predicts it (the
    types a crawl of sites the model never saw would get), by page id."""
    samples = split_quick(_cached(cache, jobs))
    predicted = vetoed(samples, cross_validated(samples, QUICK_ARTICLE), jobs)
    return {sample.page_id: guess for sample, guess in zip(samples, predicted) if sample.source == "wcxb"}


def report(samples: list[Sample], predicted: list[str]) -> str:
    wcxb = [(sample.page_type, guess) for sample, guess in zip(samples, predicted) if sample.source == "wcxb"]
    others = [
        (sample.page_type, guess) for sample, guess in zip(samples, predicted) if sample.source != "wcxb"
    ]
    right = sum(truth == guess for truth, guess in wcxb)
    settled = Counter(samples[index].source for index, exit in QUICK_EXITS.items() if exit)
    total = Counter(sample.source for sample in samples)
    quick = ", ".join(f"{name} {settled[name] / total[name]:.2f}" for name in total)
    lines = [
        f"WCXB dev, {FOLDS} folds grouped by site: accuracy {right / len(wcxb):.3f} ({right}/{len(wcxb)})",
        f"article sets (all articles): {sum(g == 'article' for _, g in others) / max(len(others), 1):.3f}",
        f"settled by the quick model: {quick}",
        "",
        "| label \\ predicted | " + " | ".join(PAGE_TYPES) + " | recall |",
        "|---|" + "---:|" * (len(PAGE_TYPES) + 1),
    ]
    counts = Counter(wcxb)
    for truth in PAGE_TYPES:
        row = [counts[(truth, guess)] for guess in PAGE_TYPES]
        recall = counts[(truth, truth)] / max(sum(row), 1)
        lines.append(f"| {truth} | " + " | ".join(map(str, row)) + f" | {recall:.2f} |")
    return "\n".join(lines)


def write_model(quick: Model, full: Model, threshold: float, samples: Sequence[Sample]) -> None:
    """The fitted models as the package's data file (:data:`MODEL_PATH`, gzipped JSON;
    training/README.md describes its fields), each weight to four significant digits."""
    record = {
        "format": MODEL_FORMAT,
        "trainer": "training/page_types.py (python3 scripts/dev.py page-types --train)",
        "trained": datetime.date.today().isoformat(),
        "pages": dict(Counter(sample.source for sample in samples)),
        "settings": {"min_sites": MIN_SITES, "vocabulary": VOCABULARY, "C": C},
        "quick_article": threshold,
        "quick": model_record(quick),
        "full": model_record(full),
    }
    write_record(record, MODEL_PATH)


def write_record(record: dict[str, Any], path: Path) -> None:
    """``record`` as gzipped JSON (floats as ``repr`` writes them: they read back exactly; no
    time stamp in the gzip header: the same models give the same bytes)."""
    text = json.dumps(record, ensure_ascii=False, separators=(",", ":"))
    path.write_bytes(gzip.compress(text.encode("utf-8"), mtime=0))


def model_record(model: Model) -> dict[str, Any]:
    """One model's fields, as :meth:`scrapy_mainc.core._linear.LinearModel.from_json` reads them."""
    coefficients = model.regression.coef_
    dense = len(model.names)

    def row(values: Sequence[float]) -> list[float]:
        return [float(f"{value:.4g}") for value in values]

    return {
        "classes": list(PAGE_TYPES),
        "signals": list(model.names),
        "means": row(model.scaler.mean_),
        "scales": row(model.scaler.scale_),
        "intercepts": row(model.regression.intercept_),
        "signal_weights": [row(coefficients[kind, :dense]) for kind in range(len(PAGE_TYPES))],
        "word_weights": _word_weights(model, coefficients, dense, row),
    }


def _word_weights(model: Model, coefficients, dense: int, row) -> dict[str, dict[str, list[float]]]:  # type: ignore[no-untyped-def]
    """The word weights by where the words stand (``label:buy`` -> ``{"label": {"buy": ...}}``)."""
    weights: dict[str, dict[str, list[float]]] = {}
    for column, word in enumerate(model.words):
        source, _, name = word.partition(":")
        weights.setdefault(source, {})[name] = row(coefficients[:, dense + column])
    return {source: weights[source] for source in sorted(weights)}


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--train", action="store_true", help="fit on every page and write the model")
    parser.add_argument(
        "--threshold",
        type=float,
        default=QUICK_ARTICLE,
        help="the quick model's article probability that settles",
    )
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument(
        "--cache", type=Path, help="read the pages' signals here if it exists, else save them"
    )
    parser.add_argument(
        "--without", default="", help="leave out signals starting with these (comma-separated)"
    )
    args = parser.parse_args()
    samples = split_quick(_cached(args.cache, args.jobs))
    if args.without:
        prefixes = tuple(args.without.split(","))
        samples = [_without(sample, prefixes) for sample in samples]
    predicted = cross_validated(samples, args.threshold)
    print("the models alone:")
    print(report(samples, [prediction.page_type for prediction in predicted]))
    print("\nwith the article verdict's veto (as extract decides):")
    print(report(samples, vetoed(samples, predicted, args.jobs)))
    if args.train:
        write_model(Model(samples, QUICK_NAMES), Model(samples), args.threshold, samples)
        print(f"\nwrote {MODEL_PATH}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
