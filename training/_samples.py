"""The pages the page-type model learns from, as the package sees them: signals, words,
label, site; and what each type's parameters give on each page (the cost run's F1s).

Pages: the WCXB development split (1,497 pages, each labelled with one of seven types by
the benchmark) and the four article sets (939 pages, all articles). Each page's signals
and words are the package's own (:func:`~scrapy_mainc.core._page_signals.quick_signals`
and :func:`~scrapy_mainc.core._page_signals.more_signals`, on the page as ``extract``
prepares it), so that training and running read the same numbers.
"""

from __future__ import annotations

import gzip
import json
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from benchmarks.devsets import DATASETS_DIR, DEVELOPMENT_SETS
from scrapy_mainc._extract import build_document
from scrapy_mainc.core._decode import decode_html
from scrapy_mainc.core._dom import parse_html
from scrapy_mainc.core._page_signals import more_signals, quick_signals
from scrapy_mainc.core._types import PageType

#: A page to read: (set, id, type, url, file).
PageRef = tuple[str, str, str, str, str]


@dataclass(frozen=True, slots=True)
class Sample:
    """One page as the model reads it, with its label, site and costs."""

    source: str
    page_id: str
    page_type: str
    site: str
    url: str
    signals: dict[str, float]
    #: The page's words by where they stand (``label``, ``button``, ``prose``, ``class``).
    words: dict[str, frozenset[str]]

    @property
    def key(self) -> str:
        return f"{self.source}/{self.page_id}"


def site_of(url: str, fallback: str) -> str:
    """The host of ``url`` without a first label such as ``www``, ``m`` or ``amp``: the
    unit the folds keep together (``forum.example.com`` and ``example.com`` differ)."""
    host = (urlsplit(url).hostname or "").lower()
    first, _, rest = host.partition(".")
    if first in {"www", "m", "amp", "mobile", "en"} and "." in rest:
        host = rest
    return host or fallback


def page_refs() -> list[PageRef]:
    """Every page: WCXB's, then the article sets' (their pages labelled ``article``)."""
    refs = []
    wcxb = json.loads((DATASETS_DIR / "wcxb" / "gold.json").read_text(encoding="utf-8"))
    for page_id, entry in sorted(wcxb.items()):
        path = DATASETS_DIR / "wcxb" / "html" / f"{page_id}.html.gz"
        refs.append(("wcxb", page_id, entry["page_type"], entry.get("url") or "", str(path)))
    for name in DEVELOPMENT_SETS:
        gold = json.loads((DATASETS_DIR / name / "gold.json").read_text(encoding="utf-8"))
        for page_id, entry in sorted(gold.items()):
            path = DATASETS_DIR / name / "html" / f"{page_id}.html"
            if path.exists():
                refs.append((name, page_id, "article", entry.get("url") or "", str(path)))
    return refs


def read_html(path: str) -> bytes:
    raw = Path(path).read_bytes()
    return gzip.decompress(raw) if path.endswith(".gz") else raw


def _sample(ref: PageRef) -> tuple[Sample, list[str]]:
    """The page's sample and the names of its quick signals."""
    source, page_id, page_type, url, path = ref
    tree = parse_html(decode_html(read_html(path)).text)
    document = build_document(tree, url or None, PageType("article", 1.0))  # the type is what is learnt
    signals, words = quick_signals(document)
    quick = sorted(signals)
    more, names = more_signals(document)
    sample = Sample(
        source,
        page_id,
        page_type,
        site_of(url, f"{source}/{page_id}"),
        url,
        {**signals, **more},
        {**words, "class": names},
    )
    return sample, quick


def collect(path: Path, jobs: int) -> tuple[list[Sample], list[str]]:
    """Every page's sample and the quick signals' names, from ``path`` when it holds them
    (else read from the pages and saved there)."""
    if path.exists():
        record = json.loads(path.read_text(encoding="utf-8"))
        samples = [
            Sample(*row[:6], {source: frozenset(words) for source, words in row[6].items()})
            for row in record["samples"]
        ]
        return samples, record["quick"]
    with ProcessPoolExecutor(jobs) as pool:
        results = list(pool.map(_sample, page_refs(), chunksize=16))
    samples = [sample for sample, _ in results]
    quick = results[0][1]
    rows = [
        [
            s.source,
            s.page_id,
            s.page_type,
            s.site,
            s.url,
            s.signals,
            {k: sorted(v) for k, v in s.words.items()},
        ]
        for s in samples
    ]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"quick": quick, "samples": rows}), encoding="utf-8")
    return samples, quick
