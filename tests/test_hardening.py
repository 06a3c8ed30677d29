"""Failures found by fuzzing (issue "Hardening"), each reproduced as a test first."""

from __future__ import annotations

import pytest

from scrapy_mainc import ALGORITHMS, extract

NAMES = sorted(ALGORITHMS)
SENTENCE = "The minister said on Tuesday that the budget would rise, a lot. "
PARAGRAPH = "<p>" + SENTENCE * 4 + "</p>"
ARTICLE = "<html><head>{head}</head><body><article>" + PARAGRAPH * 3 + "</article></body></html>"


@pytest.mark.parametrize("name", NAMES)
def test_control_character_after_a_removed_element(name: str) -> None:
    page = (
        "<html><body><article>" + PARAGRAPH * 3 + "<nav><a href=/>Home</a></nav>\x0b</article></body></html>"
    )
    result = extract(page, algorithm=name)
    assert SENTENCE.strip() in result.text
    assert "\x0b" not in result.html
