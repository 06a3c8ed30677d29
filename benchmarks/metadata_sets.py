"""The metadata development sets, read into one shape for ``benchmarks/quality/metadata.py``.

- ``scrapinghub``, ``zh_news``: the hand-annotated gold of ``benchmarks/data/metadata_gold``
  (title, authors, published; how it was annotated: ``RULES.md`` there), the pages and
  URLs from ``../shared/datasets/<name>``.
- ``newspaper4k``: the development half of the newspaper4k maintainer's dataset (214
  English pages of 107 sites), title, date and authors annotated by that dataset's
  authors (``gold.json``: ``authors`` is one string of names separated by commas, or
  null). Their conventions are not RULES.md's (an organisation credited as author, the
  update date shown taken for the publication date); where they differ the set is scored
  both ways (:func:`read_by_rules`), their gold never edited.
- ``dates``: 460 pages of htmldate's evaluation data, the publication day only (NaN: the
  page has no date).
- ``wcxb``: the development split of WCXB (1,497 pages of seven page types: articles,
  forums, listings, collections, products, documentation, service pages; gold by the
  benchmark's author, LLM-drafted and reviewed by people), title, authors and date, and
  each page's type. ``authors`` is one string or null, ``date`` a day (a month on two
  pages) or null. A null or empty author is an answer, as ``[]`` is in the hand gold: the
  page credits nobody. A null date is one too (the page has no publication date, SOURCE.md
  says), as a ``dates`` page without one. The author string is read into names by
  :func:`split_wcxb_authors`; ``benchmarks/data/wcxb_authors.json`` gives the names of the
  few strings it would read wrong (job titles after a comma, an inverted name), quoting the
  gold it reads.

A gold field that is ``None`` is not scored on that set (``dates`` has no titles or authors).
"""

from __future__ import annotations

import gzip
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from benchmarks.devsets import DATASETS_DIR

HERE = Path(__file__).resolve().parent
GOLD_DIR = HERE / "data" / "metadata_gold"
#: Sets scored by default, in print order.
ALL_SETS = ("scrapinghub", "zh_news", "newspaper4k", "dates", "wcxb")
#: Where newspaper4k's author convention differs from RULES.md (see :func:`rules_authors`).
CONVENTIONS = HERE / "data" / "newspaper4k_conventions.json"
#: The names of WCXB author strings :func:`split_wcxb_authors` would read wrong.
WCXB_READINGS = HERE / "data" / "wcxb_authors.json"


@dataclass(frozen=True, slots=True)
class Gold:
    """The truth for one page; ``None`` where the set does not annotate the field."""

    title: str | None
    authors: tuple[str, ...] | None
    #: ``YYYY-MM-DD``, or ``""`` when the page has no publication date.
    published: str | None


@dataclass(frozen=True, slots=True)
class GoldPage:
    page_id: str
    html: bytes
    url: str
    gold: Gold
    #: The gold read by RULES.md, for a set annotated by other conventions (newspaper4k).
    rules: Gold | None = None
    #: The page's type in the set's gold (WCXB's seven), ``""`` where the set has none.
    page_type: str = ""


def load_set(name: str, datasets: Path = DATASETS_DIR) -> list[GoldPage]:
    """The pages of set ``name`` with their gold, sorted by id."""
    if name == "newspaper4k":
        return _newspaper4k(datasets / name)
    if name == "dates":
        return _dates(datasets / name)
    if name == "wcxb":
        return _wcxb(datasets / name)
    return _hand_gold(name, datasets / name)


def _html(directory: Path, page_id: str) -> bytes:
    return (directory / "html" / f"{page_id}.html").read_bytes()


def _hand_gold(name: str, directory: Path) -> list[GoldPage]:
    gold = json.loads((GOLD_DIR / f"{name}.json").read_text(encoding="utf-8"))
    urls = json.loads((directory / "gold.json").read_text(encoding="utf-8"))
    return [
        GoldPage(
            page_id,
            _html(directory, page_id),
            urls.get(page_id, {}).get("url") or "",
            Gold(entry["title"], tuple(entry["authors"]), entry.get("published") or ""),
        )
        for page_id, entry in sorted(gold.items())
    ]


def split_authors(value: str | None) -> tuple[str, ...]:
    """newspaper4k's ``authors`` string as names (it separates them with commas)."""
    return tuple(name.strip() for name in (value or "").split(",") if name.strip())


def _newspaper4k(directory: Path) -> list[GoldPage]:
    gold = json.loads((directory / "gold.json").read_text(encoding="utf-8"))
    conventions = json.loads(CONVENTIONS.read_text(encoding="utf-8"))
    pages = []
    for page_id, entry in sorted(gold.items()):
        truth = Gold(entry.get("title") or "", split_authors(entry.get("authors")), entry.get("date") or "")
        pages.append(
            GoldPage(
                page_id,
                _html(directory, page_id),
                entry.get("url") or "",
                truth,
                read_by_rules(truth, conventions.get(page_id, {})),
            )
        )
    return pages


def read_by_rules(gold: Gold, convention: dict[str, Any]) -> Gold:
    """The gold read by RULES.md: the conventions file's ``rules`` for a field it lists for
    the page (an organisation or a job title credited as author, a related item's
    authors; the update date shown taken for the publication), the gold as given for the
    others. The file must quote the gold it departs from."""
    authors, published = gold.authors, gold.published
    if "authors" in convention:
        _check(convention["authors"]["gold"], list(authors or ()))
        authors = tuple(convention["authors"]["rules"])
    if "date" in convention:
        _check(convention["date"]["gold"], published)
        published = convention["date"]["rules"]
    return Gold(gold.title, authors, published)


def _check(quoted: object, gold: object, source: str = CONVENTIONS.name) -> None:
    if quoted != gold:
        raise ValueError(f"{source} quotes {quoted!r}, the gold is {gold!r}")


def _dates(directory: Path) -> list[GoldPage]:
    gold = json.loads((directory / "gold.json").read_text(encoding="utf-8"))
    return [
        GoldPage(
            page_id,
            _html(directory, page_id),
            entry.get("url") or "",
            Gold(None, None, entry["date"] if isinstance(entry["date"], str) else ""),  # NaN: no date
        )
        for page_id, entry in sorted(gold.items())
    ]


#: Where a WCXB author string separates names: semicolons, pipes, commas, " & ", "and".
_WCXB_SEPARATOR_RE = re.compile(r"\s*(?:;|\||,\s*and\s+|,|\s&\s|\sand\s)\s*")
#: A credential after a name ("MS", "RD", "Ph.D.", "E-RYT 200", "CEPF®", "M.D. FACLM",
#: "VTS (Behavior)"): capitals, with digits or a word in brackets after them.
_CREDENTIAL_RE = re.compile(
    r"^(?:[A-Z][A-Z.\-®]*\d*|Ph\.D\.|M\.D\.)(?:\s+(?:[A-Z][A-Z.\-®]*|\d+|\([A-Za-z]+\)))*$"
)


def split_wcxb_authors(value: str | None) -> tuple[str, ...]:
    """A WCXB author string as names: split on semicolons, pipes, commas, " & " and
    "and", credentials after a name left out ("Dylan Bailey, MS, RD, FAND" is one name;
    the first part is a name, even in capitals: a user name "JGD")."""
    parts = [part.strip() for part in _WCXB_SEPARATOR_RE.split(value or "")]
    return tuple(
        part for index, part in enumerate(parts) if part and (not index or not _CREDENTIAL_RE.match(part))
    )


def _wcxb(directory: Path) -> list[GoldPage]:
    gold = json.loads((directory / "gold.json").read_text(encoding="utf-8"))
    readings = json.loads(WCXB_READINGS.read_text(encoding="utf-8"))
    pages = []
    for page_id, entry in sorted(gold.items()):
        authors = split_wcxb_authors(entry.get("authors"))
        if page_id in readings:
            _check(readings[page_id]["gold"], entry.get("authors"), WCXB_READINGS.name)
            authors = tuple(readings[page_id]["names"])
        with gzip.open(directory / "html" / f"{page_id}.html.gz", "rb") as page:
            html = page.read()
        truth = Gold(entry.get("title") or "", authors, entry.get("date") or "")
        pages.append(GoldPage(page_id, html, entry.get("url") or "", truth, page_type=entry["page_type"]))
    return pages
