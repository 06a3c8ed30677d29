"""Datasets of either kind of gold, the extractor runner, its reports and the oracle
(``scrapy_mainc.evaluation``)."""

from __future__ import annotations

import json
import math
import random
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from scrapy_mainc.evaluation._evaluate import (
    Estimated,
    Extractor,
    Page,
    PageResult,
    QualityFigures,
    Report,
    evaluate,
    evaluate_together,
    format_report,
    load_dataset,
)
from scrapy_mainc.evaluation._gold import SnippetGold, TextGold, dataset_kind, read_gold, summarize_scores
from scrapy_mainc.evaluation._metric import PageScore, score_page, summarize
from scrapy_mainc.evaluation._oracle import (
    LOST_BY_ALL,
    NEVER_BUILT,
    WRONG_CHOICE,
    LostPage,
    oracle,
    split_lost,
)
from scrapy_mainc.evaluation._ranking import ranks, roc_auc, spearman
from scrapy_mainc.evaluation._snippets import SnippetScore


def test_an_entry_with_snippets_is_snippet_gold() -> None:
    gold = read_gold("a", {"with": ["kept"], "without": ["menu", "footer"], "url": "https://x.example/"})
    assert gold == SnippetGold(("kept",), ("menu", "footer"))
    assert gold.kind == "snippets"
    assert read_gold("b", {"with": ["only wanted"]}) == SnippetGold(("only wanted",), ())
    text = read_gold("c", {"articleBody": "The text."})
    assert isinstance(text, TextGold) and text.kind == "text" and text.text == "The text."
    assert read_gold("d", {"url": "https://x.example/"}) == TextGold("")  # as before: no text


@pytest.mark.parametrize(
    ("entry", "message"),
    [
        ({"articleBody": "x", "with": ["x"]}, "entry 'p' has both articleBody and with/without snippets"),
        ({"with": "one snippet"}, "entry 'p': 'with' must be a list of strings"),
        ({"without": ["ok", 3]}, "entry 'p': 'without' must be a list of strings"),
        ({"with": ["ok", " \n "]}, "entry 'p': 'with' holds an empty snippet (found in any text)"),
        ({"articleBody": ["x"]}, "entry 'p': articleBody must be a string, not list"),
    ],
)
def test_malformed_entries_are_named(entry: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError) as raised:
        read_gold("p", entry)
    assert str(raised.value) == message


def test_a_dataset_holds_one_kind() -> None:
    assert dataset_kind([TextGold("a"), TextGold("b")]) == "text"
    assert dataset_kind([SnippetGold(("a",), ())]) == "snippets"
    with pytest.raises(ValueError, match=r"articleBody or with/without snippets: 1 snippets, 2 text$"):
        dataset_kind([TextGold("a"), SnippetGold(("a",), ()), TextGold("b")])
    with pytest.raises(ValueError, match="no entries"):
        dataset_kind([])
    with pytest.raises(TypeError):
        summarize_scores("snippets", [PageScore(1, 0, 0)])


def _dataset(directory: Path, gold: dict[str, dict[str, object]]) -> Path:
    (directory / "html").mkdir(parents=True)
    for page_id in gold:
        (directory / "html" / f"{page_id}.html").write_text(f"<p>{page_id}</p>", encoding="utf-8")
    (directory / "gold.json").write_text(json.dumps(gold), encoding="utf-8")
    return directory


def test_load_dataset_reads_snippet_gold_and_refuses_a_mix(tmp_path: Path) -> None:
    snippets = _dataset(tmp_path / "snippets", {"b": {"with": ["x"], "without": ["y"]}, "a": {"with": ["z"]}})
    pages = load_dataset(snippets)
    assert [page.page_id for page in pages] == ["a", "b"]
    assert pages[1].gold == SnippetGold(("x",), ("y",))
    mixed = _dataset(tmp_path / "mixed", {"a": {"articleBody": "x"}, "b": {"with": ["x"], "without": ["y"]}})
    with pytest.raises(ValueError) as raised:
        load_dataset(mixed)
    assert str(raised.value) == (
        f"{mixed / 'gold.json'}: a dataset holds one kind of gold, articleBody or with/without "
        "snippets: 1 snippets, 1 text"
    )


def _snippet_pages() -> list[Page]:
    return [
        Page("full", b"", SnippetGold(("alpha beta", "gamma"), ("menu",)), ""),
        Page("half", b"", SnippetGold(("alpha", "delta", "epsilon"), ("menu", "footer")), ""),
        Page("empty", b"", SnippetGold(("zeta",), ("menu",)), ""),
    ]


#: What the fake extractor returns per page.
OUTPUTS = {"full": "alpha\nbeta and gamma", "half": "alpha delta menu", "empty": ""}


def test_evaluate_scores_snippet_gold() -> None:
    pages = _snippet_pages()
    outputs = iter(["warm-up", *(OUTPUTS[page.page_id] for page in pages)])
    report = evaluate("fake", lambda html, url: next(outputs), pages)
    assert report.kind == "snippets"
    scores = {page.page_id: page.score for page in report.pages}
    assert scores == {
        "full": SnippetScore(2, 0, 0, 1),
        "half": SnippetScore(2, 1, 1, 1),
        "empty": SnippetScore(0, 0, 1, 1),
    }
    # pooled: tp 4, fp 1, fn 2
    assert report.summary.precision == pytest.approx(4 / 5)
    assert report.summary.recall == pytest.approx(4 / 6)
    assert report.summary.f1 == pytest.approx(8 / 11)
    assert report.mean_page_f1 == pytest.approx((1 + 4 / 6 + 0) / 3)
    assert report.lost == ["empty"]
    printed = format_report(report, worst=1)
    assert "snippets: precision=0.800  recall=0.667  F1=0.727  mean page F1=0.556  lost=1" in printed
    assert "0.000 0.000 0.000 empty  with: 0/1 found, without: 0/1 found" in printed


def test_evaluate_scores_text_gold_as_before() -> None:
    golds = {"a": "one two three four five", "b": "six seven eight nine"}
    outputs = {"a": "one two three four", "b": "six seven eight nine ten"}
    pages = [Page(page_id, b"", TextGold(text), "") for page_id, text in golds.items()]
    by_html = iter(["warm-up", *outputs.values()])
    report = evaluate("fake", lambda html, url: next(by_html), pages)
    expected = [score_page(golds[page_id], outputs[page_id]) for page_id in golds]
    assert report.kind == "text"
    assert [page.score for page in report.pages] == expected
    assert report.summary == summarize(expected)
    assert report.mean_page_f1 == pytest.approx((expected[0].f1 + expected[1].f1) / 2)


def test_evaluate_refuses_pages_of_both_kinds() -> None:
    pages = [Page("a", b"", TextGold("x"), ""), Page("b", b"", SnippetGold(("x",), ()), "")]
    with pytest.raises(ValueError, match="one kind of gold"):
        evaluate("fake", lambda html, url: "x", pages)


@pytest.mark.parametrize("kind", ["text", "snippets"])
def test_a_report_read_back_from_json_is_the_same(kind: str) -> None:
    if kind == "snippets":
        pages = _snippet_pages()
        outputs = iter(["", *(OUTPUTS[page.page_id] for page in pages)])
    else:
        pages = [Page("a", b"", TextGold("one two three four five"), ""), Page("b", b"", TextGold("x y"), "")]
        outputs = iter(["", "one two three four", ""])
    report = evaluate("fake", lambda html, url: next(outputs), pages)
    record = json.loads(json.dumps(report.to_json()))
    assert record["kind"] == kind and record["lost_pages"] == len(report.lost)
    assert Report.from_json(record) == report
    with pytest.raises(ValueError, match="integer 'tp'"):
        Report.from_json({**record, "pages": {"a": {"f1": 1.0}}})


def test_ranks_roc_auc_and_spearman_by_hand() -> None:
    assert ranks([0.5, 0.1, 0.5, 0.9]) == [2.5, 1.0, 2.5, 4.0]  # the tie shares ranks 2 and 3
    # positives at 0.9 and 0.4; negatives 0.8, 0.4, 0.1: 0.9 above all three, 0.4 above 0.1
    # and tied with 0.4 (half): 4.5 of 6 pairs
    assert roc_auc([0.9, 0.8, 0.4, 0.4, 0.1], [True, False, True, False, False]) == 4.5 / 6
    assert roc_auc([0.1, 0.2], [True, True]) is None and roc_auc([0.1], [False]) is None
    assert spearman([1, 2, 3], [10, 20, 30]) == pytest.approx(1.0)
    assert spearman([1, 2, 3], [3, 1, 2]) == pytest.approx(-0.5)  # d = -2, 1, 1: 1 - 6 * 6 / 24
    # ranks 1.5 1.5 3 against 1 2 3: covariance 1.5, spreads 1.5 and 2
    assert spearman([0.5, 0.5, 0.9], [0.2, 0.8, 0.9]) == pytest.approx(1.5 / math.sqrt(3))
    assert spearman([0.3, 0.3], [0.1, 0.9]) is None and spearman([0.3], [0.1]) is None
    with pytest.raises(ValueError):
        spearman([1, 2], [1])


def test_roc_auc_and_spearman_agree_with_scikit_learn_and_scipy() -> None:
    stats = pytest.importorskip("scipy.stats", reason="scipy comes with the train extra")
    metrics = pytest.importorskip("sklearn.metrics", reason="scikit-learn comes with the train extra")
    draw = random.Random(7)
    for _ in range(20):
        scores = [round(draw.random(), 1) for _ in range(30)]  # rounded: many ties
        f1 = [round(draw.random(), 1) for _ in range(30)]
        lost = [value < 0.5 for value in f1]
        assert roc_auc(scores, lost) == pytest.approx(metrics.roc_auc_score(lost, scores))
        assert spearman(scores, f1) == pytest.approx(stats.spearmanr(scores, f1).statistic)


#: A hand-made set: each page's snippets, the fake extractor's text and quality estimate.
#: Page F1 = 2tp / (2tp + fp + fn): p1 1; p2 (tp 1, fp 1, fn 1) 0.5, not lost; p3 (tp 1,
#: fn 3) 0.4 and p4 (nothing found) 0, lost; p5 (tp 2, fn 1) 0.8.
ESTIMATED = {
    "p1": (SnippetGold(("alpha", "beta"), ("menu",)), "alpha beta", 0.95),
    "p2": (SnippetGold(("alpha", "beta"), ("menu",)), "alpha menu", 0.6),
    "p3": (SnippetGold(("alpha", "beta", "gamma", "delta"), ()), "alpha", 0.7),
    "p4": (SnippetGold(("alpha",), ("menu",)), "", 0.2),
    "p5": (SnippetGold(("alpha", "beta", "gamma"), ()), "alpha beta", 0.6),
}


def test_evaluate_reports_how_well_the_quality_estimate_finds_lost_pages() -> None:
    pages = [Page(page_id, page_id.encode(), gold, "") for page_id, (gold, _, _) in ESTIMATED.items()]

    def extractor(html: bytes, url: str) -> Estimated:
        _, text, quality = ESTIMATED[html.decode()]
        return Estimated(text, quality)

    report = evaluate("fake", extractor, pages)
    assert [page.score.f1 for page in report.pages] == pytest.approx([1.0, 0.5, 0.4, 0.0, 0.8])
    assert [page.quality for page in report.pages] == [0.95, 0.6, 0.7, 0.2, 0.6]
    # lost p3 (0.7) and p4 (0.2) against kept 0.95, 0.6, 0.6: p3 is below one of three, p4
    # below all three: 4 of 6 pairs.
    # Ranks of the estimate 5 2.5 4 1 2.5, of the F1 5 3 2 1 4: deviations from 3 are
    # (2 -0.5 1 -2 -0.5) and (2 0 -1 -2 1), covariance 6.5, spreads 9.5 and 10.
    auc, rho = pytest.approx(4 / 6), pytest.approx(6.5 / math.sqrt(95))
    assert report.quality == QualityFigures(5, 2, auc, rho)
    printed = format_report(report, worst=0)
    assert "quality estimate: AUC for lost pages=0.667 (2 lost of 5)  Spearman with page F1=0.667" in printed
    record = json.loads(json.dumps(report.to_json()))
    assert record["quality"] == {"pages": 5, "lost": 2, "auc_lost": auc, "spearman": rho}
    assert record["pages"]["p3"]["quality"] == 0.7
    assert Report.from_json(record) == report


def test_quality_figures_say_what_is_undefined() -> None:
    figures = QualityFigures.of([0.9, 0.8], [1.0, 0.9])  # none lost
    assert figures == QualityFigures(2, 0, None, pytest.approx(1.0))
    assert "AUC for lost pages=- (needs lost and kept pages) (0 lost of 2)" in figures.describe()
    assert "Spearman with page F1=- (a constant)" in QualityFigures.of([0.5, 0.5], [0.1, 0.9]).describe()
    pages = _snippet_pages()
    outputs = iter(["", *(OUTPUTS[page.page_id] for page in pages)])
    plain = evaluate("fake", lambda html, url: next(outputs), pages)  # text only: no estimate
    assert plain.quality is None and "quality" not in plain.to_json()
    assert "quality estimate" not in format_report(plain)


def test_retimed_keeps_the_scores_and_takes_the_times() -> None:
    pages = _snippet_pages()
    outputs = iter(["", *(OUTPUTS[page.page_id] for page in pages)])
    report = evaluate("fake", lambda html, url: next(outputs), pages)
    retimed = report.retimed([3.0, 1.0, 2.0])
    assert [page.milliseconds for page in retimed.pages] == [3.0, 1.0, 2.0]
    assert (retimed.median_ms, retimed.mean_ms) == (2.0, 2.0)
    assert [page.score for page in retimed.pages] == [page.score for page in report.pages]
    assert retimed.summary == report.summary


def _report(name: str, counts: list[tuple[int, int, int, int]]) -> Report:
    """A snippet report over pages p1, p2... with these (tp, fp, fn, tn) counts."""
    pages = tuple(PageResult(f"p{index}", SnippetScore(*count), 1.0) for index, count in enumerate(counts, 1))
    summary = summarize_scores("snippets", (page.score for page in pages))
    return Report(name, "snippets", summary, 1.0, 1.0, pages)


# page F1 = 2tp / (2tp + fp + fn): (1,0,0,0) 1.0; (2,0,1,0) 0.8; (1,0,1,0) 2/3; (1,0,3,0) and
# (2,0,6,0) 0.4; (0,0,1,0) 0
AUTO = _report("auto", [(0, 0, 1, 0), (1, 0, 3, 0), (0, 0, 1, 0), (0, 0, 1, 0), (1, 0, 0, 0)])
CANDIDATE_A = _report("a", [(2, 0, 1, 0), (2, 0, 6, 0), (1, 0, 1, 0), (0, 0, 1, 0), (0, 0, 1, 0)])
CANDIDATE_B = _report("b", [(0, 0, 1, 0), (0, 0, 1, 0), (0, 0, 1, 0), (1, 0, 3, 0), (1, 0, 0, 0)])
PEER = _report("peer", [(0, 0, 1, 0), (1, 0, 0, 0), (0, 0, 1, 0), (1, 0, 3, 0), (1, 0, 0, 0)])


def test_the_oracle_takes_the_best_page_and_the_first_report_on_a_tie() -> None:
    best = oracle("oracle", [AUTO, CANDIDATE_A, CANDIDATE_B])
    # p1 a (0.8), p2 auto (0.4, tied with a's 0.4), p3 a (2/3), p4 b (0.4), p5 auto (1.0)
    assert [page.score for page in best.pages] == [
        SnippetScore(2, 0, 1, 0), SnippetScore(1, 0, 3, 0), SnippetScore(1, 0, 1, 0),
        SnippetScore(1, 0, 3, 0), SnippetScore(1, 0, 0, 0),
    ]  # fmt: skip
    assert best.mean_page_f1 == pytest.approx((0.8 + 0.4 + 2 / 3 + 0.4 + 1.0) / 5)
    assert best.lost == ["p2", "p4"]
    assert best.summary.f1 == pytest.approx(12 / (12 + 8))  # tp 6, fn 8 pooled
    with pytest.raises(ValueError, match="same pages"):
        oracle("oracle", [AUTO, replace(CANDIDATE_A, pages=CANDIDATE_A.pages[:4])])


def test_lost_pages_split_into_wrong_choice_never_built_and_lost_by_all() -> None:
    lost = split_lost(AUTO, [CANDIDATE_A, CANDIDATE_B], [PEER])
    assert [(page.page_id, page.kind) for page in lost] == [
        ("p1", WRONG_CHOICE),  # a reaches 0.8 exactly
        ("p2", NEVER_BUILT),  # no candidate at 0.8; the peer gets it
        ("p3", NEVER_BUILT),  # no peer at 0.5; candidate a at 2/3
        ("p4", LOST_BY_ALL),  # every candidate and the peer at 0.4
    ]
    assert lost[0] == LostPage("p1", WRONG_CHOICE, 0.0, "a", 0.8, "peer", 0.0)
    assert lost[1].describe() == "p2 (a peer): auto 0.40; best candidate a 0.40; best peer peer 1.00"
    assert lost[2].describe().startswith("p3 (weak candidate): auto 0.00; best candidate a 0.67")
    assert split_lost(AUTO, [CANDIDATE_A, CANDIDATE_B], [])[1].kind == LOST_BY_ALL  # p2 without the peer


def test_extractors_take_turns_page_by_page_and_keep_each_page_fastest_time() -> None:
    calls: list[tuple[str, bytes]] = []

    def extractor(name: str) -> Extractor:
        def run(html: bytes, url: str) -> str:
            calls.append((name, html))
            return OUTPUTS[html.decode()] if name == "x" else ""

        return run

    # milliseconds of each call: the warm-ups, then x and y on each page, twice
    durations = [9, 9] + [3, 3] * 3 + [1, 4] * 3

    def ticks() -> Iterator[float]:
        now = 0.0
        for duration in durations:  # run_page reads the clock before and after each call
            yield now
            now += duration / 1000
            yield now

    clock = ticks()
    pages = [replace(page, html=page.page_id.encode()) for page in _snippet_pages()]
    runs = {"x": extractor("x"), "y": extractor("y")}
    x, y = evaluate_together(runs, pages, passes=2, clock=lambda: next(clock))
    one_pass = [(name, page.html) for page in pages for name in ("x", "y")]
    assert calls == [("x", b"full"), ("y", b"full"), *one_pass, *one_pass]
    assert [page.milliseconds for page in x.pages] == pytest.approx([1, 1, 1])  # the second pass
    assert [page.milliseconds for page in y.pages] == pytest.approx([3, 3, 3])  # the first
    assert x.median_ms == pytest.approx(1) and y.median_ms == pytest.approx(3)
    assert [page.score for page in x.pages] == [SnippetScore(2, 0, 0, 1), SnippetScore(2, 1, 1, 1),
                                                SnippetScore(0, 0, 1, 1)]  # fmt: skip
    assert y.summary.f1 == 0.0
