"""The page-type model: the package data file :data:`MODEL_FILE` (gzipped JSON, written by
``python3 scripts/dev.py page-types --train``: training/page_types.py), read once, on first
use. See :mod:`._pagetype` for how the model decides and training/README.md for the file's
fields and how the model is trained.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from ._linear import LinearModel
from ._package_data import read_json
from ._trees import TreeEnsemble

#: The file beside this module that holds the model.
MODEL_FILE = "pagetype_model.json.gz"
#: The version of the file's layout this module reads (the file's ``format``): 2 adds the
#: trees and the decision's numbers to format 1's two linear models.
MODEL_FORMAT = 2
#: The prefix of the address's shape signals (:mod:`._page_shape`).
ADDRESS_PREFIX = "u_"


@dataclass(frozen=True, slots=True)
class PageTypeModels:
    """Everything the page-type decision of :mod:`._pagetype` reads."""

    #: Over the signals that cost one pass: settles a page as an article.
    quick: LinearModel
    #: Over every signal and word: the type of the pages the quick model does not settle.
    full: LinearModel
    #: The quick model's probability of ``article`` that settles a page's type.
    quick_article: float
    #: Over the signals and the full model's log-probabilities (``full:TYPE``).
    trees: TreeEnsemble
    #: The trees' share of the blended probabilities (the full model has the rest).
    tree_share: float
    #: ``costs[y][t]``: the word F1 lost, on average, extracting a page of type ``y`` with
    #: type ``t``'s parameters (0 on the diagonal; measured on the development pages).
    costs: tuple[tuple[float, ...], ...]
    #: What being right is worth beside the F1 the costs count (large: the likeliest type).
    right_weight: float
    #: A page whose markup says twice that it is an article is read as another type only
    #: when that type is this many times as likely.
    marked_article_margin: float
    #: The address's shape signals (``u_*``) of a page of no known URL: the training
    #: pages' means, so that a missing address weighs for no type.
    unknown_address: Mapping[str, float]


@cache
def page_type_models() -> PageTypeModels:
    """The shipped model, read from the package's data on the first call."""
    return models_from_json(read_json(MODEL_FILE))


def models_from_json(record: dict[str, Any]) -> PageTypeModels:
    """The model of a file's JSON object; ValueError when its format is not this module's."""
    if record.get("format") != MODEL_FORMAT:
        raise ValueError(
            f"page-type model format {record.get('format')!r}; this version reads {MODEL_FORMAT}"
        )
    full = LinearModel.from_json(record["full"])
    decision = record["decision"]
    return PageTypeModels(
        quick=LinearModel.from_json(record["quick"]),
        full=full,
        quick_article=float(record["quick_article"]),
        trees=TreeEnsemble.from_json(record["trees"]),
        tree_share=float(decision["tree_share"]),
        costs=tuple(tuple(float(value) for value in row) for row in decision["costs"]),
        right_weight=float(decision["right_weight"]),
        marked_article_margin=float(decision["marked_article_margin"]),
        unknown_address={
            name: mean for name, mean in zip(full.signals, full.means) if name.startswith(ADDRESS_PREFIX)
        },
    )
