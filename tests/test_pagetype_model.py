"""The page-type model shipped as package data: read once on first use, in the format the
trainer writes (training/page_types.py), and applied exactly as the file's numbers say: the
two linear models, the trees, their blend and the decision."""

from __future__ import annotations

import gzip
import json
import math
import subprocess
import sys
from importlib import resources
from typing import Any

import pytest

from helpers import document
from scrapy_mainc.core._page_signals import more_signals, quick_signals
from scrapy_mainc.core._pagetype import BARE_PAGE_WORDS, LOG_FLOOR, PAGE_TYPES, decide, page_type
from scrapy_mainc.core._pagetype_model import (
    MODEL_FILE,
    MODEL_FORMAT,
    models_from_json,
    page_type_models,
)
from scrapy_mainc.core._types import PageType

#: A page of made-up words (in no model's vocabulary) but for two: the link "Forum" (a label
#: word) and the button "Search" (a button word). With two words, the sum of their weights
#: is the same in any order, so the expected scores below need no order of the words.
PAGE = """<html><head><title>Zorblat quix</title></head><body>
<div class="nav"><a href="/a">Forum</a></div>
<h1>Zorblat quix vemmo</h1>
<div class="thread">
<div class="post"><p>Plinq zorblat vemmo quix, trobbel snarf glim.
Wozzle frint plinq; brazzo kemp druv.</p></div>
<div class="post"><p>Trobbel snarf glim wozzle frint. Brazzo kemp druv plinq zorblat vemmo.</p></div>
<div class="post"><p>Kemp druv brazzo, wozzle frint plinq. Zorblat vemmo quix trobbel snarf.</p></div>
<div class="post"><p>Snarf glim trobbel, plinq kemp. Druv wozzle brazzo frint zorblat quix vemmo.</p></div>
<div class="post"><p>Vemmo quix zorblat; frint wozzle druv. Glim snarf trobbel kemp brazzo plinq.</p></div>
</div>
<button>Search</button>
</body></html>"""


def shipped_record() -> dict[str, Any]:
    """The shipped file's JSON object, read here without the package's loader."""
    packed = resources.files("scrapy_mainc.core").joinpath(MODEL_FILE).read_bytes()
    record: dict[str, Any] = json.loads(gzip.decompress(packed))
    return record


def expected_probabilities(
    model: dict[str, Any], signals: dict[str, float], words: dict[str, frozenset[str]]
) -> list[float]:
    """The softmax of intercept + signal terms + word weights, from the file's numbers:
    each signal standardised by its mean and scale, each word present adding its row."""
    standardised = [
        (signals[name] - mean) / scale if scale else 0.0  # a signal without spread says nothing
        for name, mean, scale in zip(model["signals"], model["means"], model["scales"], strict=True)
    ]
    rows = [
        row
        for source, found in model["word_weights"].items()
        for word, row in found.items()
        if word in words[source]
    ]
    scores = []
    for kind, intercept in enumerate(model["intercepts"]):
        signal_terms = 0.0
        for weight, value in zip(model["signal_weights"][kind], standardised, strict=True):
            signal_terms += weight * value
        word_terms = sum(row[kind] for row in rows)
        scores.append(intercept + signal_terms + word_terms)
    top = max(scores)
    exponentials = [math.exp(score - top) for score in scores]
    return [value / sum(exponentials) for value in exponentials]


def test_the_shipped_file_holds_both_models_of_the_seven_types() -> None:
    record = shipped_record()
    assert record["format"] == MODEL_FORMAT == 2
    assert record["trainer"].startswith("training/page_types.py")
    assert 0 < record["quick_article"] < 1
    models = page_type_models()
    assert models.quick_article == record["quick_article"]
    for model in (models.quick, models.full):
        assert model.classes == PAGE_TYPES
        assert len(model.means) == len(model.scales) == len(model.signals)
        assert len(model.intercepts) == len(model.signal_weights) == len(PAGE_TYPES)
        assert {len(row) for row in model.signal_weights} == {len(model.signals)}
        assert {len(row) for rows in model.word_weights.values() for row in rows.values()} == {
            len(PAGE_TYPES)
        }
    assert set(models.quick.word_weights) == {"label", "button", "prose"}
    assert set(models.full.word_weights) == {"label", "button", "prose", "class"}
    assert set(models.quick.signals) < set(models.full.signals)
    assert models.trees.classes == PAGE_TYPES and len(models.trees.baseline) == len(PAGE_TYPES)
    assert {kind for kind, _ in models.trees.trees} == set(range(len(PAGE_TYPES)))
    decision = record["decision"]
    assert models.costs == tuple(map(tuple, decision["costs"]))
    assert models.right_weight == decision["right_weight"]


def test_the_models_are_read_once_on_first_use_not_on_import() -> None:
    assert page_type_models() is page_type_models()
    code = (
        "import scrapy_mainc, scrapy_mainc.core._pagetype_model as model;"
        "print(model.page_type_models.cache_info().currsize);"
        "scrapy_mainc.extract('<p>One short paragraph of text.</p>');"
        "print(model.page_type_models.cache_info().currsize)"
    )
    printed = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert printed.split() == ["0", "1"]


def leaf(tree: Any, values: dict[str, float], inputs: list[str]) -> float:
    """The leaf a tree of the file (``[input, threshold, left, right]`` or a number) reaches."""
    while isinstance(tree, list):
        index, threshold, left, right = tree
        tree = left if values[inputs[index]] <= threshold else right
    return float(tree)


def expected_trees(record: dict[str, Any], values: dict[str, float]) -> list[float]:
    """The softmax of the baseline plus the leaves each class's trees reach."""
    scores = list(record["baseline"])
    for kind, tree in record["trees"]:
        scores[kind] += leaf(tree, values, record["inputs"])
    top = max(scores)
    exponentials = [math.exp(score - top) for score in scores]
    return [value / sum(exponentials) for value in exponentials]


def test_exact_probabilities_on_a_hand_built_page() -> None:
    page = document(PAGE, "https://example.org/forum/thread-about-zorblat")
    signals, words = quick_signals(page)
    models, record = page_type_models(), shipped_record()
    present = {source: words[source] & found.keys() for source, found in models.quick.word_weights.items()}
    assert present == {"label": {"forum"}, "button": {"search"}, "prose": set()}
    quick = expected_probabilities(record["quick"], signals, words)
    assert models.quick.probabilities(signals, words) == quick
    more, names = more_signals(page)
    assert {"thread", "post", "nav"} <= names  # the class names, weighed one by one
    every_signal = {**signals, **more}
    every_word = {**words, "class": names}
    full = expected_probabilities(record["full"], every_signal, every_word)
    assert models.full.probabilities(every_signal, every_word) == full
    stacked = {
        **every_signal,
        **{f"full:{kind}": math.log(p + LOG_FLOOR) for kind, p in zip(PAGE_TYPES, full)},
    }
    trees = expected_trees(record["trees"], stacked)
    assert models.trees.probabilities(stacked) == trees
    share = record["decision"]["tree_share"]
    blend = [(1 - share) * linear + share * tree for linear, tree in zip(full, trees)]
    # the quick model does not settle this page, which is no bare page; the decision over
    # the blend is its type
    assert quick[0] < models.quick_article and page.stats.words[0] >= BARE_PAGE_WORDS
    assert not (signals["ld_article"] and signals["og_article"])
    best = decide(models, blend, range(len(PAGE_TYPES)), False)
    assert page_type(page) == PageType(PAGE_TYPES[best], blend[best], tuple(blend))


def test_the_words_change_the_probabilities() -> None:
    # the expected figures above are not the signals' alone: without its two words the page
    # gets other probabilities
    page = document(PAGE)
    signals, words = quick_signals(page)
    model = page_type_models().quick
    without = {source: frozenset() for source in words}
    assert model.probabilities(signals, without) != model.probabilities(signals, words)


@pytest.mark.parametrize("found", [None, 0, 1, "2"])
def test_a_file_of_another_format_is_refused(found: object) -> None:
    record = {**shipped_record(), "format": found}
    with pytest.raises(ValueError, match=f"page-type model format {found!r}; this version reads 2"):
        models_from_json(record)
