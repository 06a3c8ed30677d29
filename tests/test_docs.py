"""The README stays a front door, and what the documentation states about the code holds.

The documentation itself is built by ``python3 scripts/dev.py docs`` (Sphinx, warnings as
errors: broken links, unknown settings groups, pages in no table of contents), which CI runs.
"""

from __future__ import annotations

import re
from pathlib import Path

import scrapy_mainc
from scrapy_mainc.cli import DATASET_LAYOUT

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")
DOCS = ROOT / "docs"


def test_the_readme_is_short_and_starts_with_the_two_commands() -> None:
    lines = README.splitlines()
    assert len(lines) < 150, f"README.md has {len(lines)} lines: move details into docs/"
    assert lines[0] == "# scrapy_mainc"
    first_block = README.split("```sh\n", 1)[1].split("```", 1)[0].splitlines()
    assert [line.split("#")[0].strip() for line in first_block] == [
        "python3 scripts/dev.py crawl",
        "python3 scripts/dev.py test",
    ]
    assert README.index("```sh") < README.index("\n## ")  # before any section


def test_the_readme_links_only_to_pages_that_exist() -> None:
    targets = re.findall(r"\]\(((?:docs/)?[\w./-]+\.md)(?:#[\w-]+)?\)", README)
    assert "docs/getting-started.md" in targets and "docs/benchmarks.md" in targets
    assert [target for target in targets if not (ROOT / target).is_file()] == []


def test_the_readme_add_on_line_is_the_one_the_code_documents() -> None:
    line = 'ADDONS = {"scrapy_mainc.Addon": 0}'
    assert line in README
    assert line in (ROOT / "example_project" / "newsdemo" / "settings.py").read_text(encoding="utf-8")
    assert line in (DOCS / "getting-started.md").read_text(encoding="utf-8")


def test_the_wheel_named_in_the_readme_carries_the_current_version() -> None:
    wheel = f"scrapy_mainc-{scrapy_mainc.__version__}-py3-none-any.whl"
    assert f"dist/{wheel}" in README
    assert f"'dist/{wheel}[redis]'" in (DOCS / "getting-started.md").read_text(encoding="utf-8")


def test_the_cli_page_shows_the_dataset_layout_of_evaluate_help() -> None:
    assert DATASET_LAYOUT in (DOCS / "cli.md").read_text(encoding="utf-8")


def test_every_page_is_in_the_table_of_contents() -> None:
    index = (DOCS / "index.md").read_text(encoding="utf-8")
    listed = set(re.findall(r"^([\w-]+)$", index, re.M))
    pages = {path.stem for path in DOCS.glob("*.md")} - {"index"}
    assert pages - listed == set()


def test_the_live_blog_limitation_is_still_true() -> None:
    # docs/limitations.md: the dated updates of a live blog after a summary long enough are
    # taken for a comment thread. If this fails, the limitation is gone: update the page.
    updates = "".join(
        f"<div class='entry'><time>1 May 2024, {10 + n // 2:02d}:{n % 2 * 30:02d}</time><p>At this point "
        f"of the meeting the council discussed budget item number {n}, and several members asked "
        "questions about the costs, the timetable and the contractors.</p></div>"
        for n in reversed(range(12))
    )

    def live_page(summary_paragraphs: int) -> str:
        summary = "".join(
            f"<p>Key point {n}: the council must cut spending by four million this year, the mayor "
            "said, and the opposition wants the library hours kept as they are.</p>"
            for n in range(summary_paragraphs)
        )
        return (
            "<html><head><title>Live: city council budget meeting - The Daily</title></head><body>"
            "<nav><a href='/'>Home</a> <a href='/news'>News</a></nav><main>"
            f"<h1>Live: city council budget meeting</h1>{summary}<div class='updates'>{updates}</div>"
            "</main><footer><p>Copyright The Daily</p></footer></body></html>"
        )

    def kept(page: str, strip_comments: bool = True) -> int:
        return scrapy_mainc.extract(page, strip_comments=strip_comments).text.count("budget item number")

    assert kept(live_page(3)) == 12
    assert kept(live_page(6)) == 0
    assert kept(live_page(6), strip_comments=False) == 12
