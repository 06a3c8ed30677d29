"""``Extraction.quality``: its features (exact numbers on hand-built texts and trees), the
tree ensemble that reads them, the shipped model, and the trainer's pure parts."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from dataclasses import replace
from pathlib import Path
from xml.etree import ElementTree

import pytest

from helpers import document, node_at
from scrapy_mainc import extract
from scrapy_mainc.core._quality import quality_features, selection_features, text_features
from scrapy_mainc.core._quality_model import MODEL_FORMAT, TreeModel, model_from_json, quality_model
from scrapy_mainc.core._trees import Tree
from scrapy_mainc.core._types import PageType, Selection
from training import held_out
from training import quality as trainer

DATA = Path(__file__).parent / "data"


def test_the_shape_of_a_text() -> None:
    text = (
        "A short line\n"
        "This line reads as a full sentence of words.\n"
        "This line reads as a full sentence of words.\n"
        "Price 10 EUR"
    )
    features = text_features(text)
    assert features["text_words"] == pytest.approx(math.log1p(24))
    assert features["text_lines"] == pytest.approx(math.log1p(4))
    assert features["words_per_line"] == pytest.approx(math.log1p(24 / 4))
    assert features["short_lines"] == 0.5  # the first line and the price
    assert features["sentence_lines"] == 0.5
    assert features["longest_line"] == pytest.approx(9 / 24)
    assert features["distinct_lines"] == 0.75
    # A short line This reads as a full sentence of words. Price 10 EUR: 14 of 24
    assert features["distinct_words"] == pytest.approx(14 / 24)


def test_an_empty_text_has_no_words_and_no_lines() -> None:
    features = text_features("")
    assert features["text_words"] == features["text_lines"] == features["longest_line"] == 0.0
    assert features["short_lines"] == features["distinct_words"] == 0.0


_PAGE = (
    "<html><body>"
    '<div id="nav"><a href="/">Home</a> <a href="/news">News</a></div>'
    '<div id="main"><p>One two three four five six seven eight nine ten.</p><p>Short line</p></div>'
    "<p>Eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen twenty, more.</p>"
    "</body></html>"
)


def test_what_a_selection_keeps_of_the_page() -> None:
    page = document(_PAGE)
    main, short = node_at(page, "//div[@id='main']"), node_at(page, "//p[.='Short line']")
    selection = Selection(nodes=(main,), score=5.0, excluded=frozenset({short}))
    features = selection_features(page.stats, selection, page.headline)
    assert features["kept_words"] == pytest.approx(math.log1p(10))
    assert features["page_words"] == pytest.approx(math.log1p(25))
    assert features["kept_share"] == pytest.approx(10 / 25)
    assert features["kept_link_share"] == 0.0
    assert features["page_link_share"] == pytest.approx(2 / 25)
    assert features["kept_punct"] == pytest.approx(1 / 10)
    assert features["page_punct"] == pytest.approx(3 / 25)
    assert features["score_per_word"] == 0.5
    assert (features["roots"], features["left_out"], features["root_depth"]) == (1.0, math.log1p(1), 1.0)
    # paragraphs: the first (10 words, in the choice) and the last (11 words, after it)
    assert features["paragraphs"] == pytest.approx(math.log1p(21))
    assert features["paragraphs_kept"] == pytest.approx(10 / 21)
    assert (features["paragraphs_before"], features["paragraphs_after"]) == (0.0, pytest.approx(11 / 21))
    assert features["headline"] == features["headline_before"] == 0.0


def test_parts_left_out_count_once_and_only_inside_the_choice() -> None:
    page = document(_PAGE)
    main, short = node_at(page, "//div[@id='main']"), node_at(page, "//p[.='Short line']")
    nav, last = node_at(page, "//div[@id='nav']"), node_at(page, "//p[contains(., 'Eleven')]")
    first = node_at(page, "//p[contains(., 'One two')]")
    nested = Selection(nodes=(main,), excluded=frozenset({main + 1, first, short, nav, last}))
    features = selection_features(page.stats, nested, page.headline)
    assert features["kept_words"] == 0.0  # both paragraphs out, each once; nav and last ignored
    assert features["left_out"] == pytest.approx(math.log1p(2))


def test_nothing_chosen() -> None:
    page = document(_PAGE)
    features = selection_features(page.stats, Selection(reason="nothing"), page.headline)
    assert features["kept_words"] == features["kept_share"] == features["roots"] == 0.0
    assert features["paragraphs_kept"] == features["paragraphs_before"] == features["paragraphs_after"] == 0.0


def test_the_page_type_and_the_verdict_are_features() -> None:
    page = replace(document(_PAGE), page_type=PageType("listing", 0.7))
    features = quality_features(page, Selection(), "", True)
    assert features["type_listing"] == 1.0
    assert features["type_article"] == features["type_forum"] == 0.0
    assert (features["type_confidence"], features["article_verdict"]) == (0.7, 1.0)


def _stump(threshold: float, low: float, high: float) -> Tree:
    return (0, threshold, low, high)


def test_a_tree_ensemble_adds_its_leaves_to_the_base_and_stays_in_0_1() -> None:
    model = TreeModel(features=("a",), base=0.5, trees=(_stump(0.5, 0.1, 0.3), _stump(0.8, -0.05, 0.4)))
    assert model.predict({"a": 0.2}) == pytest.approx(0.55)
    assert model.predict({"a": 0.5}) == pytest.approx(0.55)  # a value at the threshold goes left
    assert model.predict({"a": 0.6}) == pytest.approx(0.75)
    assert model.predict({"a": 0.9}) == 1.0  # 1.2, clipped
    negative = TreeModel(features=("a",), base=0.0, trees=(_stump(0.5, -0.2, 0.0),))
    assert negative.predict({"a": 0.0}) == 0.0


def test_a_model_of_another_format_is_refused() -> None:
    with pytest.raises(ValueError, match="format"):
        model_from_json({"format": 0, "features": [], "base": 0.5, "trees": []})
    with pytest.raises(ValueError, match="features"):
        model_from_json({"format": MODEL_FORMAT, "features": "a", "base": 0.5, "trees": []})


def test_the_shipped_model_reads_the_features_the_extraction_computes() -> None:
    page = document(_PAGE)
    computed = quality_features(page, Selection(), "", False)
    model = quality_model()
    assert set(model.features) == set(computed)
    assert len(model.trees) >= 50
    assert 0.0 <= model.predict(computed) <= 1.0


def test_every_extraction_has_a_quality() -> None:
    story = extract((DATA / "news_en.html").read_bytes())
    assert story.text and 0.8 <= story.quality <= 1.0
    refused = extract(b"\x00\x01binary\x00")
    assert (refused.text, refused.quality) == ("", 0.0) and refused.reason
    bare = extract("<html><body><p>Hi</p></body></html>")
    assert 0.0 <= bare.quality <= 1.0


def test_mainc_extract_prints_the_quality_in_its_json() -> None:
    page = DATA / "news_en.html"
    printed = subprocess.run(
        [sys.executable, "-m", "scrapy_mainc", "extract", str(page), "--format", "json"],
        capture_output=True,
        check=True,
    )
    assert json.loads(printed.stdout)["quality"] == extract(page.read_bytes()).quality


def test_a_menu_is_doubtful_beside_a_story() -> None:
    menu = "".join(f'<li><a href="/s{index}">Section {index}</a></li>' for index in range(40))
    page = extract(f"<html><body><ul>{menu}</ul></body></html>", page_type="article")
    story = extract((DATA / "news_en.html").read_bytes())
    assert page.quality < story.quality - 0.2


# -- the trainer's pure parts (training/quality.py, training/held_out.py) ---------------------------------


@pytest.mark.parametrize(
    ("url", "site"),
    [
        ("https://www.example.com/a", "example.com"),
        ("https://news.bbc.co.uk/x", "bbc.co.uk"),
        ("http://forum.example.com/t/1", "example.com"),
        ("https://shop.example.de/", "example.de"),
        ("http://127.0.0.1:8000/page", "127.0.0.1"),
        ("", "set/page"),
    ],
)
def test_pages_are_grouped_by_registered_domain(url: str, site: str) -> None:
    assert held_out.registered_domain(url, "set/page") == site


def test_folds_deal_every_site_to_one_fold() -> None:
    sites = [f"site{index}.com" for index in range(23)]
    folds = held_out.fold_of([*sites, *sites])
    assert folds == held_out.fold_of(list(reversed(sites)))  # the order given does not matter
    assert sorted(set(folds.values())) == list(range(held_out.FOLDS))


def test_the_calibration_picture_is_svg_with_a_point_a_decile() -> None:
    points = [(0.1 * index + 0.05, 0.1 * index, 0.0, 10) for index in range(10)]
    svg = trainer.calibration_svg({"all pages": points, "WCXB": points})
    root = ElementTree.fromstring(svg)
    circles = root.findall("{http://www.w3.org/2000/svg}circle")
    assert len(circles) == 2 * 10 + 2  # the points and the legend's marks


def test_the_trees_as_data_predict_as_scikit_learn_does() -> None:
    numpy = pytest.importorskip("numpy", reason="the train extra is not installed")
    pytest.importorskip("sklearn", reason="scikit-learn is not installed (the train extra)")
    rows = numpy.random.default_rng(0).random((200, 3))
    target = numpy.clip(rows[:, 0] * 0.8 + (rows[:, 1] > 0.5) * 0.3, 0, 1)
    model = trainer.fit(rows, target)
    shipped = model_from_json(json.loads(json.dumps(trainer.model_record(model, ["a", "b", "c"]))))
    for row, expected in zip(rows, model.predict(rows)):
        assert shipped.predict(dict(zip("abc", row))) == pytest.approx(min(1.0, max(0.0, expected)), abs=1e-9)
