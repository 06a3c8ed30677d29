"""CETD's definitions on a hand-built tree (ALGORITHMS.md section 5)."""

from __future__ import annotations

import math

import pytest

from helpers import document
from scrapy_mainc.algorithms import ALGORITHMS
from scrapy_mainc.algorithms.cetd import (
    CetdParams,
    composite_densities,
    density_sums,
    select,
    smooth,
    text_densities,
    threshold_on_path,
)

PAGE = (
    "<html><body>"
    '<div id="nav"><a href="/a">Home</a><a href="/b">News</a></div>'
    '<div id="main"><p>aaaa bbbb cccc.</p><p>dddd eeee, ffff.</p></div>'
    "</body></html>"
)
# 0 body (C=35, T=7, LC=8, LT=2), 1 nav (C=8, T=3, LC=8, LT=2), 2 a, 3 a (C=4 each),
# 4 main (C=27, T=3, no links), 5 p (C=13), 6 p (C=14)


def test_text_density_is_characters_per_tag() -> None:
    stats = document(PAGE).stats
    assert text_densities(stats) == pytest.approx([35 / 7, 8 / 3, 4, 4, 27 / 3, 13, 14])


def test_composite_text_density() -> None:
    stats = document(PAGE).stats
    densities = composite_densities(stats)
    body_link_ratio = 8 / 35
    # main: no link text, so LC and LT become 1 in the ratio and (C/nLC)*LC is 0
    base = math.log(0 + body_link_ratio * 27 + math.e)
    assert densities[4] == pytest.approx(27 / 3 * math.log(27 * 3) / math.log(base))
    # nav: all link text, so nLC is 0 and becomes 1
    base = math.log(8 / 1 * 8 + body_link_ratio * 8 + math.e)
    assert densities[1] == pytest.approx(8 / 3 * math.log((8 / 8) * (3 / 2)) / math.log(base))


def test_composite_density_without_any_link_falls_back_to_natural_log() -> None:
    stats = document("<body><div><p>one two three.</p></div></body>").stats
    # "one two three." is 3 + 3 + 6 = 12 characters; the div has T=2 (div, p); no link
    # anywhere makes the base exactly 1, so the natural logarithm is used
    assert composite_densities(stats)[1] == pytest.approx(12 / 2 * math.log(12 * 2))


def test_density_sum_and_threshold() -> None:
    stats = document(PAGE).stats
    densities = text_densities(stats)
    sums = density_sums(stats, densities)
    assert sums == pytest.approx([8 / 3 + 9, 8, 0, 0, 27, 0, 0])
    # the largest DensitySum is main's; the threshold is the smallest density up to body
    assert threshold_on_path(stats, densities, 4) == pytest.approx(min(9, 5))


def test_selection_keeps_the_dense_block() -> None:
    doc = document(PAGE)
    selection = select(doc, CetdParams(density="td"))
    assert selection.nodes == (4,)
    assert selection.score == pytest.approx(27)
    assert selection.threshold == pytest.approx(5)


def test_smoothing_averages_neighbouring_siblings() -> None:
    stats = document("<body><p>a</p><p>b</p><p>c</p></body>").stats
    smoothed = smooth(stats, [0.0, 1.0, 2.0, 4.0], (0.25, 0.5, 0.25))
    assert smoothed == pytest.approx([0.0, 1.0 / 0.75, 2.25, 2.5 / 0.75])


def test_variants_share_the_code() -> None:
    variants = {name: ALGORITHMS[name] for name in ("cetd-ds", "cectd-ds", "cectd-s")}
    assert {algorithm.select for algorithm in variants.values()} == {select}
    assert variants["cetd-ds"].defaults.density == "td"
    assert variants["cectd-s"].defaults.smoothing == (0.25, 0.5, 0.25)


def test_empty_page_has_a_reason() -> None:
    assert select(document("<body><div></div></body>"), CetdParams()).reason
