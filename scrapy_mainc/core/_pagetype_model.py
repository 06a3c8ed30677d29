"""The page-type models: the package data file :data:`MODEL_FILE` (gzipped JSON, written by
``python3 scripts/dev.py page-types --train``: training/page_types.py), read once, on first
use. See :mod:`._pagetype` for how the models decide and training/README.md for the file's
fields and how the models are trained.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from ._linear import LinearModel
from ._package_data import read_json

#: The file beside this module that holds the models.
MODEL_FILE = "pagetype_model.json.gz"
#: The version of the file's layout this module reads (the file's ``format``).
MODEL_FORMAT = 1


@dataclass(frozen=True, slots=True)
class PageTypeModels:
    """The two models of :mod:`._pagetype` and the threshold between them."""

    #: Over the signals that cost one pass: settles a page as an article.
    quick: LinearModel
    #: Over every signal: the type of the pages the quick model does not settle.
    full: LinearModel
    #: The quick model's probability of ``article`` that settles a page's type.
    quick_article: float


@cache
def page_type_models() -> PageTypeModels:
    """The shipped models, read from the package's data on the first call."""
    return models_from_json(read_json(MODEL_FILE))


def models_from_json(record: dict[str, Any]) -> PageTypeModels:
    """The models of a file's JSON object; ValueError when its format is not this module's."""
    if record.get("format") != MODEL_FORMAT:
        raise ValueError(
            f"page-type model format {record.get('format')!r}; this version reads {MODEL_FORMAT}"
        )
    return PageTypeModels(
        LinearModel.from_json(record["quick"]),
        LinearModel.from_json(record["full"]),
        float(record["quick_article"]),
    )
