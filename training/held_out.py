"""Extractions of the development pages as on sites never seen: the folds grouped by
site, and each page's type as the page-type models trained on the other folds decide it.

The page-type models ship trained on the development pages, so an extraction of one of
them reads a type the models have seen (right for 0.995 of WCXB's pages, against 0.85 on
sites they have not). A trainer that learns from extractions (``training/quality.py``)
extracts each page with the type the page-type model of :mod:`training.page_types` fitted
on the other folds gives it (its nested folds, over these folds: the decision, and the
article verdict's second look as ``extract`` applies it): the text and the features are
those a crawl of an unseen site gets.

Folds group the pages by the registered domain of their URL (the last two labels of the
host, three under a country's second level such as ``co.uk`` or ``com.cn``; a page
without a URL is a site of its own), the domains shuffled with a fixed seed.
"""

from __future__ import annotations

import gzip
import json
import random
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import numpy as np

import scrapy_mainc._choice as choice_module
import scrapy_mainc._extract as extract_module
from benchmarks.devsets import DATASETS_DIR
from scrapy_mainc import extract
from scrapy_mainc.core._pagetype import PAGE_TYPES
from scrapy_mainc.core._types import Document, PageType
from scrapy_mainc.evaluation._gold import read_gold
from scrapy_mainc.evaluation._words import score_words, word_tokens
from training import page_types

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


#: The layout of the kept types (the file of an older layout is made again).
HELD_OUT_FORMAT = 2


def held_out_types(folds: dict[str, int], cache: Path | None, jobs: int) -> dict[str, dict[str, Any]]:
    """For every page (``set/id``), its type as the page-type model trained on the other
    folds decides it (:func:`training.page_types.cross_validated` over these folds, on the
    page-type trainer's cached samples): ``type`` and ``confidence``, and ``other``, the
    second look's type when the page's extraction is no article (``other_confidence``)."""
    path = cache / "held_out_types.json" if cache else None
    if path is not None and path.exists():
        saved = json.loads(path.read_text(encoding="utf-8"))
        if saved.get("format") == HELD_OUT_FORMAT:
            return dict(saved["types"])
    pages = page_types.load(page_types.CACHE, jobs)
    order = np.array([folds.get(registered_domain(s.url, s.key), -1) for s in pages.samples])
    held = page_types.cross_validated(pages, folds=order)
    types = {
        sample.key: {
            "type": PAGE_TYPES[held.alone[index]],
            "confidence": float(held.alone_confidence[index]),
            "other": PAGE_TYPES[held.vetoed[index]],
            "other_confidence": float(held.vetoed_confidence[index]),
        }
        for index, sample in enumerate(pages.samples)
    }
    if path is not None:
        path.write_text(json.dumps({"format": HELD_OUT_FORMAT, "types": types}), encoding="utf-8")
    return types


#: The held-out types of the pages a worker extracts, and the page it is on.
_TYPES: dict[str, dict[str, Any]] = {}
_CURRENT = [""]


def _held_out_type(document: Document) -> PageType:
    """:func:`scrapy_mainc.core._pagetype.page_type` as the held-out model decides."""
    entry = _TYPES[_CURRENT[0]]
    return PageType(entry["type"], entry["confidence"])


def _held_out_other(document: Document) -> PageType | None:
    """:func:`scrapy_mainc.core._pagetype.other_than_article`, held out: None when the
    held-out second look kept the type (a page of few words)."""
    entry = _TYPES[_CURRENT[0]]
    if entry["other"] == "article":
        return None
    return PageType(entry["other"], entry["other_confidence"])


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
