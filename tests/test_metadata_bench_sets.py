"""How ``benchmarks/quality/metadata.py`` reads and scores the WCXB set: author strings read into
names, a month-only gold date, the table by page type. Hand-built values, no development
data needed."""

from __future__ import annotations

from types import ModuleType

import pytest

from benchmarks import metadata_sets
from benchmarks.quality import metadata


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    return metadata


@pytest.fixture(scope="module")
def sets() -> ModuleType:
    return metadata_sets


@pytest.mark.parametrize(
    ("gold", "names"),
    [
        ("Jane Doe", ("Jane Doe",)),
        ("Jane Doe, MS, RD, FAND", ("Jane Doe",)),
        ("Jane Doe, Ph.D.", ("Jane Doe",)),
        ("Jane Doe, E-RYT 200", ("Jane Doe",)),
        ("Jane Doe, M.D. FACLM", ("Jane Doe",)),
        ("Ann Lee, Bo Park, and Cy Diaz", ("Ann Lee", "Bo Park", "Cy Diaz")),
        ("Ann Lee and Bo Park", ("Ann Lee", "Bo Park")),
        ("Ann & Bo", ("Ann", "Bo")),
        ("Ann Lee, VMD; Bo Park, BA, VTS (Behavior) & Cy Diaz, DVM", ("Ann Lee", "Bo Park", "Cy Diaz")),
        ("Ann Lee | The Daily Site", ("Ann Lee", "The Daily Site")),
        ("jane_doe42", ("jane_doe42",)),
        ("JGD", ("JGD",)),
        ("", ()),
        (None, ()),
    ],
)
def test_a_wcxb_author_string_is_read_into_names(
    sets: ModuleType, gold: str | None, names: tuple[str, ...]
) -> None:
    assert sets.split_wcxb_authors(gold) == names


def test_a_reading_must_quote_the_gold_it_reads(sets: ModuleType) -> None:
    sets._check("Jane Doe, Writer", "Jane Doe, Writer", "wcxb_authors.json")
    with pytest.raises(ValueError, match="wcxb_authors.json quotes 'Jane Doe, Writer'"):
        sets._check("Jane Doe, Writer", "Jane Doe, Editor", "wcxb_authors.json")


def test_a_gold_month_is_matched_on_the_month_and_no_gold_date_wants_none(bench: ModuleType) -> None:
    assert bench.same_day("2023-12-22T10:30:00+08:00", "2023-12-22")
    assert not bench.same_day("2023-12-21", "2023-12-22")
    assert bench.same_day("2015-11-03", "2015-11")
    assert not bench.same_day("2015-10-30", "2015-11")
    assert bench.same_day("", "")
    assert not bench.same_day("2023-12-22", "")


def _page(sets: ModuleType, page_id: str, kind: str, authors: tuple[str, ...]) -> object:
    return sets.GoldPage(page_id, b"", "", sets.Gold("T", authors, ""), page_type=kind)


def test_the_scores_by_page_type(bench: ModuleType, sets: ModuleType) -> None:
    pages = [
        _page(sets, "1", "article", ("Jane Doe",)),
        _page(sets, "2", "article", ()),
        _page(sets, "3", "forum", ("poster1",)),
    ]
    found = [
        bench.Found("T", ("Jane Doe",), ""),
        bench.Found("X", ("John Roe",), ""),
        bench.Found("T", (), "2023-12-22"),
    ]
    scores = [bench.score_page(page, given) for page, given in zip(pages, found)]
    table = bench.by_page_type(pages, {"ours": (scores, [1.0, 1.0, 1.0])})
    lines = table.splitlines()
    assert lines[0] == "| extractor | score | all (3) | article (2) | forum (1) |"
    assert lines[2:] == [
        "| ours | title exact | 0.667 | 0.500 | 1.000 |",
        "| ours | authors F1 | 0.333 | 0.500 | 0.000 |",
        "| ours | authors F1, gold author pages | 0.500 | 1.000 | 0.000 |",
        "| ours | date day | 0.667 | 1.000 | 0.000 |",
    ]


def test_a_set_without_page_types_has_no_table(bench: ModuleType, sets: ModuleType) -> None:
    page = sets.GoldPage("1", b"", "", sets.Gold("T", (), ""))
    assert bench.by_page_type([page], {"ours": ([bench.score_page(page, bench.Found())], [1.0])}) == ""
