"""The benchmark's ceilings (``benchmarks/quality/metadata.py``): a gold title or author the page
shows nowhere is a miss no extractor can avoid, and the benchmark says how many there are.
Hand-built pages, no development data needed."""

from __future__ import annotations

from types import ModuleType

import pytest

from benchmarks.quality import metadata


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    return metadata


PAGE = (
    "<html><head><title>Quoted ‘Lines’ | The Site</title>"
    '<meta property="og:title" content="WATCH: A Shorter Title"></head><body>'
    "<p class=kicker>OH NO!</p><h1>‘I forgot my lines’ says the <em>star</em></h1>"
    '<p>By <img alt="Jo Writer, CPT" src="/a.png"> staff</p></body></html>'
).encode()


def test_a_title_shown_in_the_page_text_is_shown(bench: ModuleType) -> None:
    assert bench.shows_title(PAGE, "‘I forgot my lines’ says the star")
    assert bench.shows_title(PAGE, "OH NO! ‘I forgot my lines’ says the star")  # kicker and headline
    assert bench.shows_title(PAGE, "WATCH: A Shorter Title")  # a <meta> value
    assert bench.shows_title(PAGE, "Quoted ‘Lines’ | The Site")  # the <title>


def test_a_title_the_page_does_not_show_whole_is_nowhere(bench: ModuleType) -> None:
    assert not bench.shows_title(PAGE, "I forgot my lines’ says the star")  # lost its opening quote
    assert not bench.shows_title(PAGE, "‘I Forgot My Lines’ says the star")  # casing counts, as in the score
    assert not bench.shows_title(PAGE, "‘I forgot my lines’ says the star of 2024")


def test_a_name_anywhere_in_the_source_is_held(bench: ModuleType) -> None:
    assert bench.shows_name(PAGE, "jo  WRITER")  # as the score compares names
    assert not bench.shows_name(PAGE, "Jö Writer")
