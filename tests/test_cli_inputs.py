"""What ``mainc extract`` takes: files, standard input, URLs, directories and several files
at once; and ``mainc --version``."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import scrapy_mainc
from scrapy_mainc import extract

DATA = Path(__file__).parent / "data"
PAGES = ("news_en", "blog_comments", "news_zh_gbk")


def _run(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "scrapy_mainc", *args], capture_output=True, text=True, cwd=cwd, timeout=120
    )


def test_version() -> None:
    done = _run("--version")
    assert done.returncode == 0, done.stderr
    assert done.stdout == f"mainc {scrapy_mainc.__version__}\n"


def test_a_url_is_fetched(site_server: Any) -> None:
    url = f"{site_server.url}/en/harbour-bridge-reopens.html"
    page = (Path(__file__).parents[1] / "example_project/site/en/harbour-bridge-reopens.html").read_bytes()
    expected = extract(page, url=url)
    done = _run("extract", url, "--format", "json")
    assert done.returncode == 0, done.stderr
    record = json.loads(done.stdout)
    assert record["text"] == expected.text and record["html"] == expected.html  # links made absolute
    assert record["metadata"]["published"] == expected.metadata.published


def test_a_url_that_cannot_be_fetched_is_one_line(site_server: Any) -> None:
    url = f"{site_server.url}/no/such/page.html"
    done = _run("extract", url)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr.splitlines() == [f"mainc extract: error: cannot fetch {url}: HTTP 404 Not Found"]
    done = _run("extract", "ftp://example.com/page.html")
    assert done.stderr.splitlines() == [
        "mainc extract: error: cannot fetch ftp://example.com/page.html: only http and https URLs "
        "are fetched (mainc crawl fetches many pages)"
    ]


def _pages(directory: Path) -> list[Path]:
    paths = []
    for name in PAGES:
        path = directory / ("sub" if name == "news_zh_gbk" else "") / f"{name}.html"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes((DATA / f"{name}.html").read_bytes())
        paths.append(path)
    return paths


def test_a_directory_is_json_lines_on_stdout(tmp_path: Path) -> None:
    paths = _pages(tmp_path / "pages")
    (tmp_path / "pages" / "notes.txt").write_text("not a page", encoding="utf-8")
    done = _run("extract", str(tmp_path / "pages"))
    assert done.returncode == 0, done.stderr
    records = [json.loads(line) for line in done.stdout.splitlines()]
    assert [record["source"] for record in records] == sorted(str(path) for path in paths)
    for record in records:
        assert record["text"] == extract(Path(record["source"]).read_bytes()).text


def test_several_files_to_an_output_directory(tmp_path: Path) -> None:
    paths = _pages(tmp_path / "pages")
    out = tmp_path / "out"
    done = _run("extract", *map(str, paths), "--output-dir", str(out), "--format", "text", "--no-metadata")
    assert done.returncode == 0, done.stderr
    assert done.stdout == ""
    assert sorted(path.name for path in out.iterdir()) == sorted(f"{name}.txt" for name in PAGES)
    for path in paths:
        written = (out / f"{path.stem}.txt").read_text(encoding="utf-8")
        assert written == extract(path.read_bytes()).text + "\n"


def test_a_page_without_text_gets_no_file_and_its_reason_is_said(tmp_path: Path) -> None:
    pages = tmp_path / "pages"
    pages.mkdir()
    story = pages / "news_en.html"
    story.write_bytes((DATA / "news_en.html").read_bytes())
    blank, pdf = pages / "blank.html", pages / "report.html"
    blank.write_text("<html><body><div> </div></body></html>", encoding="utf-8")
    pdf.write_bytes(b"%PDF-1.7 not a page")
    for output_format, suffix in (("text", ".txt"), ("json", ".json")):
        out = tmp_path / f"out-{output_format}"
        done = _run("extract", str(pages), "--output-dir", str(out), "--format", output_format)
        assert (done.returncode, done.stdout) == (0, ""), done.stderr
        assert sorted(path.name for path in out.iterdir()) == [f"news_en{suffix}"]
        assert done.stderr.splitlines() == [
            f"mainc: {blank}: the page has no text: no file written",
            f"mainc: {pdf}: not HTML: a PDF document: no file written",
        ]


def test_a_directory_keeps_its_layout_in_the_output_directory(tmp_path: Path) -> None:
    _pages(tmp_path / "pages")
    out = tmp_path / "out"
    done = _run("extract", str(tmp_path / "pages"), "--output-dir", str(out), "--format", "html")
    assert done.returncode == 0, done.stderr
    assert (out / "sub" / "news_zh_gbk.html").read_text(encoding="utf-8").startswith("<")
    assert (out / "news_en.html").is_file()


def test_a_bad_file_among_several_is_reported_and_the_rest_extracted(tmp_path: Path) -> None:
    paths = _pages(tmp_path / "pages")
    missing = tmp_path / "pages" / "missing.html"
    done = _run("extract", str(paths[0]), str(missing), str(paths[1]))
    assert done.returncode == 1
    assert [json.loads(line)["source"] for line in done.stdout.splitlines()] == [str(paths[0]), str(paths[1])]
    error = f"mainc extract: error: cannot read {missing}: No such file or directory"
    assert done.stderr.splitlines() == [error]


def test_an_empty_directory_is_one_line(tmp_path: Path) -> None:
    done = _run("extract", str(tmp_path))
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr.splitlines() == [f"mainc extract: error: no HTML files (*.html, *.htm) in {tmp_path}"]


def test_markdown_output_switches_and_favor() -> None:
    page = DATA / "news_en.html"
    data = page.read_bytes()
    done = _run("extract", str(page), "--format", "markdown")
    assert done.returncode == 0, done.stderr
    assert done.stdout == extract(data, markdown=True).markdown + "\n"
    assert done.stdout.startswith("The harbour bridge reopened") and "\n## " in done.stdout
    done = _run("extract", str(page), "--format", "html", "--no-links", "--no-images", "--no-formatting")
    assert done.stdout == extract(data, links=False, images=False, formatting=False).html + "\n"
    assert "<a " not in done.stdout
    record = json.loads(_run("extract", str(page), "--format", "json", "--favor", "precision").stdout)
    assert record["text"] == extract(data, favor="precision").text
    assert record["markdown"] == extract(data, markdown=True, favor="precision").markdown
