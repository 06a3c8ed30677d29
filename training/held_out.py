"""Extractions of the development pages as on sites never seen: the folds grouped by
site, and each page's type as the page-type models trained on the other folds decide it.

The page-type models ship trained on the development pages, so an extraction of one of
them reads a type the models have seen (right for 0.995 of WCXB's pages, against 0.85 on
sites they have not). A trainer that learns from extractions (``training/quality.py``)
extracts each page with the type the cascade of :mod:`training.page_types` fitted on the
other folds gives it (quick and full model, the margin of a page marked twice as an
article, and the article verdict's second look as ``extract`` applies it): the text and
the features are those a crawl of an unseen site gets.

Folds group the pages by the registered domain of their URL (the last two labels of the
host, three under a country's second level such as ``co.uk`` or ``com.cn``; a page
without a URL is a site of its own), the domains shuffled with a fixed seed.
"""

from __future__ import annotations

import gzip
import json
import random
import re
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import scrapy_mainc._choice as choice_module
import scrapy_mainc._extract as extract_module
from scrapy_mainc import extract
from scrapy_mainc.core._pagetype import MARKED_ARTICLE_MARGIN
from scrapy_mainc.core._types import Document, PageType
from scrapy_mainc.evaluation._gold import read_gold
from scrapy_mainc.evaluation._words import score_words, word_tokens
from training import page_types
from training.page_types import DATASETS_DIR

#: The development sets with gold content, each scored by its own metric (:func:`page_f1`).
SETS = ("scrapinghub", "zh_news", "newspaper4k", "trafilatura_eval", "wcxb")
FOLDS = 5
SEED = 20261201
_SECOND_LEVEL = frozenset(
    "ac co com edu gen go gob gov gv ind int ltd mil ne net nic nom or org plc res sch web".split()
)
_IP_RE = re.compile(r"^[\d.]+$|:")


def registered_domain(url: str, fallback: str) -> str:
    """The domain a site registered (``news.bbc.co.uk`` -> ``bbc.co.uk``), or ``fallback``."""
    host = (urlsplit(url).hostname or "").lower().rstrip(".")
    if not host:
        return fallback
    if _IP_RE.search(host):
        return host
    labels = host.split(".")
    if len(labels) >= 3 and len(labels[-1]) == 2 and labels[-2] in _SECOND_LEVEL:
        return ".".join(labels[-3:])
    return ".".join(labels[-2:])


def fold_of(sites: Sequence[str], seed: int = SEED) -> dict[str, int]:
    """Each site's fold: the sites shuffled with ``seed``, dealt round the folds."""
    order = sorted(set(sites))
    random.Random(seed).shuffle(order)
    return {site: position % FOLDS for position, site in enumerate(order)}


@dataclass(frozen=True, slots=True)
class Page:
    """A development page: its set, id, URL and file."""

    source: str
    page_id: str
    url: str
    path: str

    @property
    def key(self) -> str:
        return f"{self.source}/{self.page_id}"

    @property
    def site(self) -> str:
        return registered_domain(self.url, self.key)

    def html(self) -> bytes:
        raw = Path(self.path).read_bytes()
        return gzip.decompress(raw) if self.path.endswith(".gz") else raw


def development_pages() -> list[Page]:
    """Every page of :data:`SETS` with its HTML, by set and id."""
    pages = []
    for name in SETS:
        gold = json.loads((DATASETS_DIR / name / "gold.json").read_text(encoding="utf-8"))
        suffix = ".html.gz" if name == "wcxb" else ".html"
        for page_id, entry in sorted(gold.items()):
            path = DATASETS_DIR / name / "html" / f"{page_id}{suffix}"
            if path.exists():
                pages.append(Page(name, page_id, entry.get("url") or "", str(path)))
    return pages


# -- the page types a site never seen gets --------------------------------------------------


def held_out_types(folds: dict[str, int], cache: Path | None, jobs: int) -> dict[str, dict[str, Any]]:
    """For every page (``set/id``), what the page-type cascade trained on the other folds
    says of it: the quick model's probability of ``article``, the full model's
    probabilities, and whether the page's markup calls it an article twice."""
    path = cache / "held_out_types.json" if cache else None
    if path is not None and path.exists():
        return json.loads(path.read_text(encoding="utf-8"))
    signals = cache / "page_type_signals.json" if cache else None
    samples = page_types.split_quick(page_types._cached(signals, jobs))
    urls = {(source, page_id): url for source, page_id, _, url, _ in page_types._pages()}
    keys = [f"{sample.source}/{sample.page_id}" for sample in samples]
    sites = [registered_domain(urls[(s.source, s.page_id)], key) for s, key in zip(samples, keys)]
    types: dict[str, dict[str, Any]] = {}
    for fold in range(FOLDS):
        train = [sample for sample, site in zip(samples, sites) if folds.get(site, -1) != fold]
        tested = [(key, s) for key, s, site in zip(keys, samples, sites) if folds.get(site, -1) == fold]
        test = [sample for _, sample in tested]
        quick, full = page_types.Model(train, page_types.QUICK_NAMES), page_types.Model(train)
        for (key, sample), article, probabilities in zip(
            tested, quick.article_probability(test), full.probabilities(test)
        ):
            marked = bool(sample.signals.get("ld_article") and sample.signals.get("og_article"))
            types[key] = {"quick": article, "full": probabilities, "marked": marked}
        print(f"quality: page types of fold {fold + 1} of {FOLDS}", file=sys.stderr, flush=True)
    if path is not None:
        path.write_text(json.dumps(types), encoding="utf-8")
    return types


#: The held-out types of the pages a worker extracts, and the page it is on.
_TYPES: dict[str, dict[str, Any]] = {}
_CURRENT = [""]


def _held_out_type(document: Document) -> PageType:
    """:func:`scrapy_mainc.core._pagetype.page_type` as the held-out cascade decides."""
    entry = _TYPES[_CURRENT[0]]
    if entry["quick"] >= page_types.QUICK_ARTICLE:
        return PageType("article", entry["quick"])
    full = entry["full"]
    best = max(full, key=full.__getitem__)
    if best != "article" and entry["marked"] and full[best] < MARKED_ARTICLE_MARGIN * full["article"]:
        return PageType("article", full["article"])
    return PageType(best, full[best])


def _held_out_other(document: Document) -> PageType:
    """:func:`scrapy_mainc.core._pagetype.other_than_article`, held out."""

    full = _TYPES[_CURRENT[0]]["full"]
    best = max((name for name in full if name != "article"), key=full.__getitem__)
    return PageType(best, full[best])


def start_worker(types: dict[str, dict[str, Any]]) -> None:
    """Make this process's extractions read the held-out types (a process pool's
    initializer; :func:`extract_as_unseen` says which page is extracted)."""
    _TYPES.update(types)
    extract_module.page_type = _held_out_type  # type: ignore[attr-defined]
    choice_module.other_than_article = _held_out_other  # type: ignore[attr-defined]


def extract_as_unseen(page: Page) -> str:
    """The text of ``page``, extracted with its held-out type (after :func:`start_worker`)."""
    _CURRENT[0] = page.key
    return extract(page.html(), url=page.url or None, metadata=False).text


_GOLD: dict[str, dict[str, Any]] = {}


def page_f1(page: Page, text: str) -> float:
    """``text``'s page F1 by the metric of ``page``'s set."""
    if page.source not in _GOLD:
        gold_path = DATASETS_DIR / page.source / "gold.json"
        _GOLD[page.source] = json.loads(gold_path.read_text(encoding="utf-8"))
    entry = _GOLD[page.source][page.page_id]
    if page.source == "wcxb":
        return score_words(word_tokens(entry.get("articleBody") or ""), text).f1
    return read_gold(page.page_id, entry).score(text).f1
