"""WCXB's development split, read for the benchmarks: its pages, gold texts, snippets and
page types (``../shared/datasets/wcxb``: ``gold.json`` and ``html/<id>.html.gz``).

:mod:`benchmarks.quality.wcxb` (``python3 scripts/dev.py bench-wcxb``), the ablation and
the gate read the set through this module.
"""

from __future__ import annotations

import gzip
import json
from dataclasses import dataclass
from pathlib import Path

from benchmarks.devsets import DATASETS_DIR

WCXB_DIR = DATASETS_DIR / "wcxb"
#: The benchmark's page types, in its table's order.
PAGE_TYPES = ("article", "forum", "listing", "collection", "product", "documentation", "service")


@dataclass(frozen=True, slots=True)
class WcxbPage:
    """One page of the set with its gold."""

    page_id: str
    url: str
    page_type: str
    gold: str
    wanted: tuple[str, ...]
    unwanted: tuple[str, ...]

    def html(self, directory: Path = WCXB_DIR) -> bytes:
        with gzip.open(directory / "html" / f"{self.page_id}.html.gz", "rb") as file:
            return file.read()


def load_pages(directory: Path = WCXB_DIR) -> list[WcxbPage]:
    """The pages of the set, by id."""
    entries = json.loads((directory / "gold.json").read_text(encoding="utf-8"))
    return [
        WcxbPage(
            page_id,
            entry.get("url") or "",
            entry["page_type"],
            entry.get("articleBody") or "",
            tuple(entry.get("with") or ()),
            tuple(entry.get("without") or ()),
        )
        for page_id, entry in sorted(entries.items())
    ]
