"""The command line: ``mainc extract`` and ``mainc evaluate`` (run as ``python -m scrapy_mainc``)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import scrapy_mainc
from scrapy_mainc.cli import _extract as cli
from scrapy_mainc.cli import main
from scrapy_mainc.core._types import Extraction
from scrapy_mainc.metadata import Metadata

DATA = Path(__file__).parent / "data"


def _run(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-m", "scrapy_mainc", *args], input=stdin, capture_output=True)


def test_extract_text_html_and_json() -> None:
    page = DATA / "news_en.html"
    text = _run("extract", str(page), "--no-metadata")
    assert text.returncode == 0
    assert text.stdout.decode().startswith("The harbour bridge reopened")
    html = _run("extract", str(page), "--format", "html")
    assert html.stdout.decode().startswith('<div class="story-body">')
    record = json.loads(_run("extract", "-", "--format", "json", stdin=page.read_bytes()).stdout)
    assert record["algorithm"] == "auto"
    assert record["title"] == "Harbour bridge reopens after two years of repairs"
    assert (record["page_type"], record["article"]) == ("article", True)


def test_extract_prints_the_metadata() -> None:
    page = DATA / "news_en.html"
    result = scrapy_mainc.extract(page.read_bytes())
    record = json.loads(_run("extract", str(page), "--format", "json").stdout)
    assert record["metadata"] == result.metadata.as_dict()
    assert list(record["metadata"]) == ["published", "modified", "published_from", "modified_from", "authors",
                                        "site_name", "canonical_url", "description", "image", "section",
                                        "tags"]  # fmt: skip
    plain = json.loads(_run("extract", str(page), "--format", "json", "--no-metadata").stdout)
    assert "metadata" not in plain and plain["text"] == record["text"]
    lines = [f"Published: {result.metadata.published}"] if result.metadata.published else []
    lines += [f"Authors: {', '.join(result.metadata.authors)}"] if result.metadata.authors else []
    expected = "\n".join([*lines, "", result.text] if lines else [result.text]) + "\n"
    assert _run("extract", str(page)).stdout.decode() == expected


class FakeExtract:
    """Stands in for ``extract`` in the command line module, with chosen metadata."""

    def __init__(self, metadata: Metadata, text: str = "The story.") -> None:
        self.metadata, self.text = metadata, text
        self.asked: list[bool] = []

    def __call__(self, data: bytes, *, metadata: bool = True, **kwargs: object) -> Extraction:
        self.asked.append(metadata)
        return Extraction(text=self.text, metadata=self.metadata if metadata else Metadata())


@pytest.mark.parametrize(
    ("metadata", "text", "printed"),
    [
        (
            Metadata(published="2024-05-13", authors=("Maren Hollis", "Ada Park"), site_name="Herald"),
            "The story.",
            "Published: 2024-05-13\nAuthors: Maren Hollis, Ada Park\n\nThe story.\n",
        ),
        (Metadata(authors=("张三",)), "正文。", "Authors: 张三\n\n正文。\n"),
        (Metadata(published="2024-05-13T10:30:00+08:00"), "", "Published: 2024-05-13T10:30:00+08:00\n"),
        (Metadata(site_name="Herald", modified="2024-05-14"), "The story.", "The story.\n"),
    ],
)
def test_the_text_starts_with_published_and_authors_lines(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path,
    metadata: Metadata, text: str, printed: str,
) -> None:  # fmt: skip
    page = tmp_path / "page.html"
    page.write_bytes(b"<p>x</p>")
    fake = FakeExtract(metadata, text)
    monkeypatch.setattr(cli, "extract", fake)
    assert main(["extract", str(page)]) == 0
    assert capsys.readouterr().out == printed
    assert main(["extract", str(page), "--no-metadata"]) == 0
    assert capsys.readouterr().out == (f"{text}\n" if text else "")
    assert main(["extract", str(page), "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["metadata"] == metadata.as_dict()
    assert fake.asked == [True, False, True]


def test_extract_reports_the_reason_of_an_empty_result() -> None:
    completed = _run("extract", "-", "--algorithm", "cectd-ds", stdin=b"%PDF-1.7")
    assert completed.returncode == 0
    assert completed.stdout == b""
    assert b"not HTML: a PDF document" in completed.stderr


def test_extract_of_a_page_without_words() -> None:
    """The reason that a page has no text, in JSON and on standard error."""
    page = b"<html><body><div></div>\n</body></html>"
    record = json.loads(_run("extract", "-", "--format", "json", stdin=page).stdout)
    assert (record["text"], record["reason"]) == ("", "the page has no text")
    completed = _run("extract", "-", stdin=page)
    assert (completed.returncode, completed.stdout) == (0, b"")
    assert completed.stderr.decode() == "mainc: the page has no text\n"


def test_extract_of_a_control_character_after_a_void_element() -> None:
    # 19 bytes that raised ValueError in preparation: a traceback, exit status 1 (issue 31)
    for page in (b"<p>a<embed>b\x0cc</p>", b"<p>a<wbr>b\x01c</p>"):
        completed = _run("extract", "-", stdin=page)
        assert completed.returncode == 0, completed.stderr.decode()
        assert completed.stdout == b""
        assert completed.stderr.decode() == "mainc: no block of text looks like article content\n"
    page = f"<p>{'The harbour bridge reopened on Monday, two years late, and the mayor spoke. ' * 4}"
    completed = _run("extract", "-", stdin=f"{page}a<embed>b\x0cc</p>".encode())
    assert completed.returncode == 0 and completed.stdout.decode().endswith("spoke. ab c\n")  # \x0c: a space


@pytest.mark.parametrize("pages", [1, 2])
def test_extract_into_a_closed_pipe_stops_quietly(pages: int) -> None:
    # `mainc extract a.html b.html | head -c 10` ended in a BrokenPipeError traceback (issue
    # 31): the reader is gone before the output is written, as head is once it has 10 bytes
    reader, writer = os.pipe()
    os.close(reader)
    try:
        command = [sys.executable, "-m", "scrapy_mainc", "extract", *[str(DATA / "news_en.html")] * pages]
        completed = subprocess.run(command, stdout=writer, stderr=subprocess.PIPE, timeout=120)
    finally:
        os.close(writer)
    assert completed.stderr == b""
    assert completed.returncode == 141  # 128 + SIGPIPE: what a shell reports for `cat` there


def test_unknown_algorithm_is_a_usage_error() -> None:
    completed = _run("extract", "-", "--algorithm", "nope", stdin=b"<p>x</p>")
    assert completed.returncode == 2
    assert b"invalid choice" in completed.stderr


def test_a_negative_count_of_worst_pages_is_refused(tmp_path: Path) -> None:
    # it listed all the pages but the last, under "worst -1 pages" (found with issue 31)
    completed = _run("evaluate", str(tmp_path), "--worst", "-1")
    assert completed.returncode == 2 and completed.stdout == b""
    lines = completed.stderr.decode().splitlines()
    assert lines[0].startswith("usage: mainc evaluate ")
    assert lines[-1] == "mainc evaluate: error: argument --worst: not 0 (none) or a positive integer: '-1'"


def test_evaluate_prints_scores_and_writes_json(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    (tmp_path / "html").mkdir()
    gold = {}
    for name in ("news_en", "blog_comments"):
        (tmp_path / "html" / f"{name}.html").write_bytes((DATA / f"{name}.html").read_bytes())
        gold[name] = {"articleBody": (DATA / f"{name}.txt").read_text(encoding="utf-8")}
    (tmp_path / "gold.json").write_text(json.dumps(gold), encoding="utf-8")
    out = tmp_path / "report.json"
    status = main(["evaluate", str(tmp_path), "--algorithm", "all", "--json", str(out)])
    printed = capsys.readouterr().out
    assert status == 0
    assert "auto" in printed and "F1=1.000" in printed and "median=" in printed
    reports = {report["name"]: report for report in json.loads(out.read_text())}
    assert reports["auto"]["f1"] == 1.0
    assert set(reports["auto"]["pages"]) == {"news_en", "blog_comments"}
    assert len(reports) > 1


def test_evaluate_scores_snippet_gold(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # trafilatura's evaluation format: pieces the text must hold and pieces it must not. auto's
    # text of news_en is news_en.txt (the golden test): the story without related links,
    # reader comments or footer.
    (tmp_path / "html").mkdir()
    for page_id in ("story", "story-copy"):
        (tmp_path / "html" / f"{page_id}.html").write_bytes((DATA / "news_en.html").read_bytes())
    gold = {
        "story": {
            "with": ["reopened to traffic on Monday morning", "Ferries keep their summer timetable",
                     "bicycles would still\n   travel free of charge"],
            "without": ["Related stories", "Copyright 2024 Coastal Herald",
                        "Divers find damage to bridge piers"],
        },
        "story-copy": {
            "with": ["two of the concrete piers", "The detour through the industrial zone was a nightmare"],
            "without": ["Share on Facebook"],
        },
    }  # fmt: skip
    (tmp_path / "gold.json").write_text(json.dumps(gold), encoding="utf-8")
    out = tmp_path / "report.json"
    assert main(["evaluate", str(tmp_path), "--json", str(out), "--worst", "2"]) == 0
    printed = capsys.readouterr().out
    # tp 3 + 1, fp 0, fn 1 (the reader comment): precision 1, recall 4/5, F1 8/9; page F1 1 and 2/3
    assert "snippets: precision=1.000  recall=0.800  F1=0.889  mean page F1=0.833  lost=0 " in printed
    assert "0.667 1.000 0.500 story-copy  with: 1/2 found, without: 0/1 found" in printed
    [report] = json.loads(out.read_text())
    assert report["kind"] == "snippets" and report["f1"] == pytest.approx(8 / 9)
    assert 0 <= report["pages"]["story"]["quality"] <= 1  # the same page twice: one estimate
    assert report["pages"]["story"]["quality"] == report["pages"]["story-copy"]["quality"]
    assert report["pages"]["story"] | {"ms": 0, "quality": 0} == {
        "precision": 1.0, "recall": 1.0, "f1": 1.0, "tp": 3, "fp": 0, "fn": 0, "tn": 3, "ms": 0, "quality": 0,
    }  # fmt: skip
    # story lost nothing: no AUC; the two pages' F1 differ, their estimates do not
    assert report["quality"] == {"pages": 2, "lost": 0, "auc_lost": None, "spearman": None}
    assert "quality estimate: AUC for lost pages=- (needs lost and kept pages) (0 lost of 2)" in printed


def test_evaluate_reports_the_quality_estimate_on_a_hand_made_gold_set(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Six pages, each with gold of its own: auto's golden text (F1 1), its first half (a
    # lower precision), another page's text (lost), and half of its own with another's.
    golden = {name: (DATA / f"{name}.txt").read_text(encoding="utf-8") for name in (
        "news_en", "blog_comments", "opinion_comment_section", "feed_nested_articles",
        "promoted_feature", "consent_modal",
    )}  # fmt: skip

    def half(text: str) -> str:
        lines = text.splitlines()
        return "\n".join(lines[: len(lines) // 2])

    gold = {
        "news_en": golden["news_en"],
        "blog_comments": half(golden["blog_comments"]),
        "opinion_comment_section": golden["news_en"],  # another page's story
        "feed_nested_articles": half(golden["feed_nested_articles"]) + "\n" + half(golden["consent_modal"]),
        "promoted_feature": half(golden["promoted_feature"]),
        "consent_modal": half(golden["consent_modal"]) + "\n" + golden["opinion_comment_section"],
    }
    (tmp_path / "html").mkdir()
    for name in gold:
        (tmp_path / "html" / f"{name}.html").write_bytes((DATA / f"{name}.html").read_bytes())
    (tmp_path / "gold.json").write_text(json.dumps({k: {"articleBody": v} for k, v in gold.items()}), "utf-8")
    out = tmp_path / "report.json"
    assert main(["evaluate", str(tmp_path), "--json", str(out), "--worst", "0"]) == 0
    printed = capsys.readouterr().out
    [report] = json.loads(out.read_text())
    pages = report["pages"]
    f1 = {name: page["f1"] for name, page in pages.items()}
    quality = {name: page["quality"] for name, page in pages.items()}
    assert f1["news_en"] == 1.0 and f1["opinion_comment_section"] < 0.5 and f1["consent_modal"] < 0.5
    assert all(0 <= value <= 1 for value in quality.values())
    assert len(set(quality.values())) == len(quality)  # six pages, six estimates
    lost = [name for name in pages if f1[name] < 0.5]
    kept = [name for name in pages if f1[name] >= 0.5]
    assert lost and kept
    # the AUC by its definition: of the (lost, kept) pairs, the share where the lost page is
    # estimated lower (no ties here); the Spearman correlation of tie-free ranks
    below = sum(quality[one] < quality[other] for one in lost for other in kept)
    auc = below / (len(lost) * len(kept))
    assert len(set(f1.values())) == len(f1)
    rank_q = {name: sorted(quality.values()).index(value) for name, value in quality.items()}
    rank_f = {name: sorted(f1.values()).index(value) for name, value in f1.items()}
    n = len(pages)
    rho = 1 - 6 * sum((rank_q[name] - rank_f[name]) ** 2 for name in pages) / (n * (n * n - 1))
    assert report["quality"] == {
        "pages": 6, "lost": len(lost), "auc_lost": pytest.approx(auc), "spearman": pytest.approx(rho),
    }  # fmt: skip
    assert (
        f"quality estimate: AUC for lost pages={auc:.3f} ({len(lost)} lost of 6)  "
        f"Spearman with page F1={rho:.3f}"
    ) in printed


def test_evaluate_of_a_dataset_mixing_kinds_of_gold_is_one_line(tmp_path: Path) -> None:
    (tmp_path / "html").mkdir()
    (tmp_path / "html" / "a.html").write_bytes(b"<p>x</p>")
    gold = {"a": {"articleBody": "x"}, "b": {"with": ["x"], "without": ["y"]}}
    (tmp_path / "gold.json").write_text(json.dumps(gold), encoding="utf-8")
    line = _one_line_error(_run("evaluate", str(tmp_path)))
    assert line == (
        f"mainc evaluate: error: {tmp_path / 'gold.json'}: a dataset holds one kind of gold, "
        "articleBody or with/without snippets: 1 snippets, 1 text"
    )


def _one_line_error(completed: subprocess.CompletedProcess[bytes]) -> str:
    """The error of a command that failed like an argparse usage error: status 2, one line."""
    assert completed.returncode == 2
    assert completed.stdout == b""
    lines = completed.stderr.decode().splitlines()
    assert len(lines) == 1, lines
    return lines[0]


def test_extract_of_a_missing_file_is_one_line(tmp_path: Path) -> None:
    missing = tmp_path / "nosuch.html"
    line = _one_line_error(_run("extract", str(missing)))
    assert line == f"mainc extract: error: cannot read {missing}: No such file or directory"
    # a directory is a batch of pages (tests/test_cli_inputs.py); an empty one is an error
    line = _one_line_error(_run("extract", str(tmp_path)))
    assert line == f"mainc extract: error: no HTML files (*.html, *.htm) in {tmp_path}"


def test_evaluate_without_a_dataset_is_one_line(tmp_path: Path) -> None:
    line = _one_line_error(_run("evaluate", str(tmp_path)))
    assert line == f"mainc evaluate: error: cannot read {tmp_path / 'gold.json'}: No such file or directory"
    (tmp_path / "gold.json").write_text("{not json", encoding="utf-8")
    line = _one_line_error(_run("evaluate", str(tmp_path)))
    assert line.startswith(f"mainc evaluate: error: {tmp_path / 'gold.json'} is not valid JSON: ")
    (tmp_path / "gold.json").write_text('{"a": {"articleBody": "x"}}', encoding="utf-8")
    line = _one_line_error(_run("evaluate", str(tmp_path)))
    assert line == f"mainc evaluate: error: no pages with gold text found in {tmp_path}"


def test_evaluate_runs_on_any_directory_with_the_documented_layout(tmp_path: Path) -> None:
    # A dataset anywhere (not the development data), run from another directory; "url" is
    # optional; a file without a gold entry and an entry without a file are left out.
    dataset = tmp_path / "my pages"
    (dataset / "html").mkdir(parents=True)
    (dataset / "html" / "story.html").write_bytes((DATA / "news_en.html").read_bytes())
    (dataset / "html" / "stray.html").write_bytes(b"<p>no gold for this one</p>")
    expected = (DATA / "news_en.txt").read_text(encoding="utf-8")
    gold = {
        "story": {"articleBody": expected, "url": "https://news.example/harbour-bridge-reopens"},
        "missing": {"articleBody": "no file for this one"},
    }
    (dataset / "gold.json").write_text(json.dumps(gold), encoding="utf-8")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    completed = subprocess.run(
        [sys.executable, "-m", "scrapy_mainc", "evaluate", str(dataset), "--worst", "1"],
        cwd=elsewhere,
        capture_output=True,
        text=True,
    )
    assert completed.returncode == 0, completed.stderr
    assert "F1=1.000" in completed.stdout and "pages=1 " in completed.stdout


def test_evaluate_help_describes_the_dataset_layout() -> None:
    completed = _run("evaluate", "--help")
    assert completed.returncode == 0
    help_text = completed.stdout.decode()
    assert "html/<id>.html" in help_text and "gold.json" in help_text
    assert '"articleBody"' in help_text and '"url"' in help_text
    assert '"with"' in help_text and '"without"' in help_text
