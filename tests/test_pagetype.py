"""The page-type model (issue 41): the trees evaluated as data, the decision of least
expected cost, the layout signals on hand-built pages, the shipped model file, and the
types of pages of a plain shape."""

from __future__ import annotations

import gzip
import json
import math
from dataclasses import replace
from importlib.resources import files
from typing import Any

import pytest

from scrapy_mainc import extract
from scrapy_mainc._extract import build_document
from scrapy_mainc.core import _pagetype
from scrapy_mainc.core._dom import parse_html
from scrapy_mainc.core._page_shape import shape_signals
from scrapy_mainc.core._page_signals import more_signals, quick_signals, sibling_runs
from scrapy_mainc.core._pagetype import PAGE_TYPES, decide, few_words_type
from scrapy_mainc.core._pagetype_model import MODEL_FILE, PageTypeModels, models_from_json, page_type_models
from scrapy_mainc.core._trees import TreeEnsemble, tree_from_json
from scrapy_mainc.core._types import Document, PageType

ARTICLE, FORUM, LISTING, COLLECTION = 0, 1, 2, 3


# --- The trees --------------------------------------------------------------------------


def test_trees_add_the_leaves_reached_to_the_baseline() -> None:
    # class 0: one tree on input 0 (<= 1.5 left); class 1: a stump-free leaf and a tree of depth 2
    data = [
        [0, [0, 1.5, 0.25, -0.5]],
        [1, 0.125],
        [1, [1, 0.0, [0, 3.0, 1.0, 2.0], -1.0]],
    ]
    ensemble = TreeEnsemble(
        ("a", "b"), ("x", "y"), (0.5, -0.5), tuple((k, tree_from_json(t)) for k, t in data)
    )
    assert ensemble.scores([1.5, 0.0]) == [0.75, -0.5 + 0.125 + 1.0]  # 1.5 <= 1.5 goes left
    assert ensemble.scores([2.0, -1.0]) == [0.0, -0.5 + 0.125 + 1.0]
    assert ensemble.scores([4.0, 0.0]) == [0.0, -0.5 + 0.125 + 2.0]
    assert ensemble.scores([4.0, 0.5]) == [0.0, -0.5 + 0.125 - 1.0]
    probabilities = ensemble.probabilities({"y": 0.0, "x": 1.5})  # by name, in any order
    assert probabilities[0] == pytest.approx(math.exp(0.75) / (math.exp(0.75) + math.exp(0.625)))
    assert sum(probabilities) == pytest.approx(1.0)


def test_a_tree_from_its_json_form() -> None:
    assert tree_from_json(2) == 2.0
    assert tree_from_json([3, 0.5, -1, [0, 2, 1, 0.5]]) == (3, 0.5, -1.0, (0, 2.0, 1.0, 0.5))


# --- The decision -----------------------------------------------------------------------


def decision_model(
    costs: list[list[float]], right_weight: float = 0.0, margin: float = 2.0
) -> PageTypeModels:
    model = page_type_models()
    return replace(
        model,
        costs=tuple(tuple(row) for row in costs),
        right_weight=right_weight,
        marked_article_margin=margin,
    )


#: A listing read as an article loses 0.24 of its F1, an article read as a listing 0.02;
#: a listing read as a collection 0.03 (WCXB's order of magnitude); any other wrong reading 0.3.
COSTS = [[0.0 if truth == given else 0.3 for given in range(7)] for truth in range(7)]
COSTS[LISTING][ARTICLE], COSTS[ARTICLE][LISTING], COSTS[LISTING][COLLECTION] = 0.24, 0.02, 0.03
COSTS[COLLECTION][ARTICLE], COSTS[COLLECTION][LISTING] = 0.12, 0.06


def probabilities(**given: float) -> list[float]:
    return [given.get(kind, 0.0) for kind in PAGE_TYPES]


def test_the_reading_that_costs_least_when_wrong_wins_a_close_call() -> None:
    close = probabilities(article=0.55, listing=0.45)
    # article: 0.45 * 0.24 = 0.108 expected loss; listing: 0.55 * 0.02 = 0.011
    assert decide(decision_model(COSTS), close, range(7), False) == LISTING
    # being right worth 1: article 0.55 - 0.108 = 0.442 against listing 0.45 - 0.011 = 0.439
    assert decide(decision_model(COSTS, right_weight=1.0), close, range(7), False) == ARTICLE
    # a listing or a collection, unsure which: a collection read as a listing costs 0.06, a
    # listing read as a collection 0.03; taken as an article, either costs most
    torn = probabilities(listing=0.5, collection=0.5)
    assert decide(decision_model(COSTS), torn, range(7), False) == COLLECTION


def test_equal_costs_leave_the_likeliest_type() -> None:
    free = [[0.0] * 7 for _ in range(7)]
    found = probabilities(forum=0.2, service=0.3, documentation=0.25, article=0.25)
    assert decide(decision_model(free), found, range(7), False) == PAGE_TYPES.index("service")
    assert decide(decision_model(free), found, range(1, 7), False) == PAGE_TYPES.index("service")
    assert decide(decision_model(free), found, (1, 5), False) == PAGE_TYPES.index("documentation")


def test_a_page_marked_twice_as_an_article_needs_a_margin() -> None:
    model = decision_model([[0.0] * 7 for _ in range(7)], right_weight=1.0)
    found = probabilities(article=0.3, forum=0.55, listing=0.15)
    assert decide(model, found, range(7), False) == FORUM
    assert decide(model, found, range(7), True) == ARTICLE  # 0.55 < 2 * 0.3
    assert decide(replace(model, marked_article_margin=1.5), found, range(7), True) == FORUM
    assert decide(model, found, range(1, 7), True) == FORUM  # when article is no option


def test_a_model_of_another_format_is_refused() -> None:
    data = json.loads(gzip.decompress(files("scrapy_mainc.core").joinpath(MODEL_FILE).read_bytes()))
    data["format"] = 1
    with pytest.raises(ValueError, match="format 1; this version reads 2"):
        models_from_json(data)


# --- The shipped model --------------------------------------------------------------------


def hand_built(body: str, url: str | None = "https://example.org/a/b", head: str = "") -> Document:
    html = f"<html><head><title>A page</title>{head}</head><body>{body}</body></html>"
    return build_document(parse_html(html), url, PageType("article", 1.0))


def test_the_shipped_model_reads_what_the_page_signals_give() -> None:
    model = page_type_models()
    assert model.full.classes == model.trees.classes == PAGE_TYPES and len(model.costs) == 7
    assert all(row[kind] == 0 for kind, row in enumerate(model.costs))
    document = hand_built("<h1>A page</h1><p>Some words, in a sentence.</p><a href='/x'>More</a>")
    signals, words = quick_signals(document)
    assert set(model.quick.signals) <= set(signals)
    more, names = more_signals(document)
    signals.update(more)
    assert set(model.full.signals) <= set(signals)
    assert set(model.quick.word_weights) <= set(words)
    assert set(model.full.word_weights) <= {*words, "class"}
    stacked = {f"full:{kind}" for kind in PAGE_TYPES}
    assert set(model.trees.inputs) <= set(signals) | stacked
    assert 0 < model.tree_share < 1 and 0 < model.quick_article < 1


BARE = (
    "<div><h1>Example Domain</h1><p>This domain is for use in illustrative examples in documents. "
    "You may use this domain in literature without prior coordination or asking for permission.</p>"
    "<p><a href='https://www.iana.org/domains/example'>More information...</a></p></div>"
)


@pytest.mark.parametrize("url", ["https://example.com/", None])
def test_a_bare_page_gets_a_plausible_type(url: str | None) -> None:
    # example.com's page: a heading, a paragraph, a link (issue 39 found it typed forum)
    html = f"<html><head><title>Example Domain</title></head><body>{BARE}</body></html>"
    assert extract(html, url=url).page_type in ("article", "service", "documentation")


def test_the_verdict_overrules_the_type_article_but_not_on_a_bare_page(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    teasers = "".join(
        f"<li><h3><a href='/s{n}'>Headline number {n} of the day here</a></h3>"
        f"<p>One line of the story, number {n}.</p></li>"
        for n in range(8)
    )
    html = f"<html><head><title>Front</title></head><body><ul>{teasers}</ul></body></html>"
    sure = replace(page_type_models(), quick_article=0.0)  # every page settles as an article
    monkeypatch.setattr(_pagetype, "page_type_models", lambda: sure)
    assert extract(html).page_type != "article"  # the verdict: teasers are no article
    bare = f"<html><head><title>Example Domain</title></head><body>{BARE}</body></html>"
    assert not extract(bare).article  # a few words: the verdict refuses them
    assert extract(bare).page_type == "article"  # and the type stays


def test_a_page_of_few_words_takes_the_quick_models_likeliest_type_it_may_be() -> None:
    quick = probabilities(forum=0.5, service=0.3, article=0.2)
    bare = {"words": math.log1p(30) / 10, "rep_count": math.log1p(1) / 3}
    assert few_words_type(quick, bare) == PAGE_TYPES.index("service")  # a bare page is no forum
    posts = {**bare, "rep_count": math.log1p(3) / 3}  # three alike parts: posts may make a thread
    assert few_words_type(quick, posts) == FORUM
    assert few_words_type(quick, {**bare, "ld_forum": 1.0}) == FORUM  # the markup says so


# --- The layout signals --------------------------------------------------------------------


def shape(document: Any) -> dict[str, float]:
    return shape_signals(document, sibling_runs(document.stats))


def test_the_address_shape_reads_no_words() -> None:
    body = "<p>Text.</p>"
    story = shape(hand_built(body, "https://news.example.org/2024/05/17/council-agrees-on-the-budget"))
    assert story["u_date"] == 1 and story["u_id"] == 0 and story["u_depth"] == 4 / 8
    assert story["u_slug_words"] == pytest.approx(math.log1p(5) / 2)
    item = shape(hand_built(body, "https://shop.example.org/p/1234567.html?ref=x"))
    assert (item["u_id"], item["u_extension"], item["u_query"], item["u_date"]) == (1, 1, 1, 0)
    year = shape(hand_built(body, "https://example.org/best-of-2025"))
    assert year["u_id"] == 0  # a year is no id
    root = shape(hand_built(body, "https://example.org/"))
    assert (root["u_root"], root["u_depth"], root["u_known"]) == (1, 0, 1)
    assert shape(hand_built(body, None))["u_known"] == 0


def test_items_of_a_listing_and_their_dates_and_prices() -> None:
    cards = "".join(
        f"<div class='card'><a href='/s{n}'><img src='i{n}.jpg'>A headline of four words</a>"
        f"<span>Jan {n + 1}, 2024</span><span>$1{n}.99</span></div>"
        for n in range(5)
    )
    signals = shape(hand_built(f"<section>{cards}</section><p>Footer words here.</p>"))
    assert signals["it_count"] == pytest.approx(math.log1p(5) / 4)
    for share in ("it_link", "it_img", "it_date", "it_price", "it_longlink"):
        assert signals[share] == 1.0, share
    assert signals["lk_long"] == pytest.approx(math.log1p(5) / 4)


def test_a_story_reads_as_one_run_of_prose_and_teasers_as_many() -> None:
    sentence = "The council met on Monday and agreed on the budget for the harbour works this year. "
    story = shape(hand_built("<h1>A page</h1><time>May 17, 2024</time>" + f"<p>{sentence * 3}</p>" * 4))
    assert story["pr_run"] == pytest.approx(1.0, abs=0.1) and story["pr_runs"] == pytest.approx(
        math.log1p(1) / 4
    )
    assert (story["hl_found"], story["hl_date"]) == (1.0, 1.0)
    teasers = "".join(
        f"<div><a href='/s{n}'>A headline of some words</a><p>{sentence * 2}</p></div>" for n in range(6)
    )
    listing = shape(hand_built(teasers))
    assert listing["pr_run"] < 0.25 and listing["pr_runs"] == pytest.approx(math.log1p(6) / 4)
    assert listing["hl_found"] == 0.0 and listing["hl_at"] == 1.0
