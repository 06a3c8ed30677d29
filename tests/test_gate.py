"""The quality gate (``python3 scripts/dev.py gate``, :mod:`benchmarks.gate`): each set scored
with its benchmark's metric, a set under its floor named with its figure and floor, missing
sets refused with where they were looked for, floors pinned a little under the figures. The
sets here are small hand-built ones in the development sets' layouts; no development data
needed."""

from __future__ import annotations

import gzip
import json
import statistics
from pathlib import Path

import pytest

from benchmarks import gate
from benchmarks.quality import wcxb
from benchmarks.wcxb_set import load_pages

STORY = (
    "The council approved the new budget for the city's libraries on Tuesday evening.",
    "Opening hours will grow by ten hours a week, and two branches will reopen on Sundays.",
    "The money comes from a fund that was set aside for repairs that are now finished.",
)
MENU = "<nav><a href='/'>Home</a> <a href='/news'>News</a> <a href='/sport'>Sport</a></nav>"


def page(title: str) -> str:
    """A story under a menu, published on 2024-06-03."""
    paragraphs = "".join(f"<p>{line}</p>" for line in STORY)
    return (
        f"<html><head><title>{title}</title>"
        '<meta property="article:published_time" content="2024-06-03T08:00:00Z"></head>'
        f"<body>{MENU}<article><h1>{title}</h1>{paragraphs}</article>"
        "<footer>Contact us. About us. Privacy.</footer></body></html>"
    )


def write_set(folder: Path, entries: dict[str, dict[str, object]], packed: bool = False) -> None:
    (folder / "html").mkdir(parents=True)
    for page_id in entries:
        html = page(f"Libraries open longer {page_id}").encode()
        if packed:
            (folder / "html" / f"{page_id}.html.gz").write_bytes(gzip.compress(html))
        else:
            (folder / "html" / f"{page_id}.html").write_bytes(html)
    (folder / "gold.json").write_text(json.dumps(entries), encoding="utf-8")


@pytest.fixture
def datasets(tmp_path: Path) -> Path:
    """Every set the gate scores, three or four pages each, in its own layout."""
    root = tmp_path / "datasets"
    text = {"articleBody": "\n".join(STORY), "url": "https://news.example/a"}
    for name in ("scrapinghub", "zh_news", "newspaper4k"):
        write_set(root / name, {"a1": text, "a2": text, "a3": {**text, "articleBody": STORY[0]}})
    snippets = {"with": [STORY[1]], "without": ["Contact us"], "url": "https://news.example/b"}
    write_set(root / "trafilatura_eval", {"b1": snippets, "b2": snippets, "b3": snippets})
    typed = {**text, "page_type": "article", "with": [STORY[2]], "without": ["Privacy"]}
    write_set(root / "wcxb", {f"w{n}": typed for n in range(3)} | {"w3": {**typed, "articleBody": ""}}, True)
    dated = {"url": "https://news.example/c", "date": "2024-06-03"}
    write_set(root / "dates", {"d1": dated, "d2": dated, "d3": {**dated, "date": "2023-01-01"}})
    return root


def test_the_gate_pins_floors_under_the_figures_and_names_each_set_below_its_floor(
    datasets: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    floors = tmp_path / "floors.json"
    common = ["--datasets", str(datasets), "--floors", str(floors), "--jobs", "1"]
    assert gate.main([*common, "--update"]) == 0
    pinned = json.loads(floors.read_text(encoding="utf-8"))["sets"]
    assert list(pinned) == list(gate.SETS)
    for entry in pinned.values():
        assert entry["floor"] == gate.floor_under(entry["figure"]) < entry["figure"]
    # WCXB's figure is bench-wcxb's: the mean word F1 of its pages (an empty gold among them)
    pages = load_pages(datasets / "wcxb")
    run = gate.ours("auto")
    words = [wcxb.score(item, run(item.html(datasets / "wcxb"), item.url), 0.0).words.f1 for item in pages]
    assert pinned["wcxb"]["figure"] == round(statistics.fmean(words), 4) < 1
    assert pinned["dates"]["figure"] == round(2 / 3, 4)  # the third page's gold day is not shown
    capsys.readouterr()

    entries = json.loads(floors.read_text(encoding="utf-8"))
    entries["sets"]["zh_news"]["floor"] = 1.01
    entries["sets"]["dates"]["floor"] = 0.7
    floors.write_text(json.dumps(entries), encoding="utf-8")
    assert gate.main(common) == 1
    errors = capsys.readouterr().err
    assert "2 of 6 sets below their floors" in errors
    assert f"zh_news: F1 {pinned['zh_news']['figure']:.4f} < floor 1.010" in errors
    assert "dates: date accuracy 0.6667 < floor 0.700" in errors
    assert "scrapinghub" not in errors


def test_without_the_development_sets_the_gate_says_where_it_looked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    nowhere = (tmp_path / "a" / "shared" / "datasets", tmp_path / "shared" / "datasets")
    monkeypatch.setattr(gate, "DATASETS_DIR", nowhere[0])
    monkeypatch.setattr(gate, "DATASETS_SEARCH", nowhere)
    assert gate.main([]) == 2
    message = capsys.readouterr().err
    assert "the development sets are missing" in message
    assert all(str(path) in message for path in nowhere)
    assert gate.main(["--speed"]) == 2
    assert "the development sets are missing" in capsys.readouterr().err


def test_a_folder_without_some_sets_is_refused_naming_them(
    datasets: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (datasets / "dates" / "gold.json").unlink()
    assert gate.main(["--datasets", str(datasets), "--jobs", "1"]) == 2
    assert f"the development sets dates are missing from {datasets}" in capsys.readouterr().err


def test_a_set_without_a_floor_fails_and_one_at_its_floor_passes() -> None:
    figures = {
        "zh_news": gate.Figure("zh_news", "F1", 0.962, 69),
        "wcxb": gate.Figure("wcxb", "word F1", 0.8399, 1497),
        "dates": gate.Figure("dates", "date accuracy", 0.95, 460),
    }
    failures = gate.below_floor(figures, {"zh_news": 0.962, "wcxb": 0.84})
    assert failures == ["wcxb: word F1 0.8399 < floor 0.840", "dates: date accuracy 0.9500, no floor pinned"]


def test_floors_and_budgets_are_pinned_a_little_beyond_the_figures() -> None:
    assert gate.floor_under(0.9778) == 0.974
    assert gate.floor_under(0.935) == 0.932  # exactly 0.003 under: no rounding down past it
    assert gate.floor_under(1.0) == 0.997
    assert gate.budget_over(46_097_728) == 47_100_000


def test_the_committed_floors_cover_every_set_just_under_its_figure() -> None:
    pinned = json.loads(gate.FLOORS.read_text(encoding="utf-8"))
    assert set(pinned["sets"]) == set(gate.SETS)
    for name, entry in pinned["sets"].items():
        assert 0.003 <= entry["figure"] - entry["floor"] <= 0.005, name
    speed = pinned["speed"]
    assert speed["instructions_per_page"] < speed["budget"] <= 1.03 * speed["instructions_per_page"]


def test_the_speed_gate_refuses_to_run_without_valgrind(
    datasets: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(gate, "DATASETS_DIR", datasets)
    monkeypatch.setattr(gate.shutil, "which", lambda name: None)
    assert gate.main(["--speed"]) == 2
    assert "valgrind is not installed" in capsys.readouterr().err
