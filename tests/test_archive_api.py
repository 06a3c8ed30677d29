"""The archive mode's library side: items from a loop of one's own over warcio records,
the fetch time from WARC-Date, the configuration and the errors of the command."""

from __future__ import annotations

import logging
import multiprocessing
import re
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import EXAMPLE
from warcio.archiveiterator import ArchiveIterator
from warcs import write_warc

from scrapy_mainc import extract
from scrapy_mainc.archive import FileSummary, JobSummary, OfflineConfig, items_from_files, items_from_records
from scrapy_mainc.archive._items import http_date
from scrapy_mainc.archive._job import part_path
from scrapy_mainc.archive._optional import INSTALL_HINTS, MissingDependency, _load

#: A page that dates itself relative to when it was fetched.
RELATIVE_PAGE = (
    b"<html><head><title>Bridge reopens</title></head><body><article><h1>Bridge reopens</h1>"
    b'<p class="meta">By Jane Smith \xc2\xb7 3 hours ago</p><p>The Eastgate harbour bridge reopened '
    b"to traffic on Monday after a two-year repair programme that replaced most of its steel deck "
    b"and all of its cables. A small crowd gathered.</p><p>The first vehicle across was the number 14 "
    b"bus, followed by a group of around forty cyclists who had waited since four o'clock.</p>"
    b"</article></body></html>"
)


@pytest.mark.parametrize(
    ("warc_date", "expected"),
    [
        ("2026-04-14T09:30:00Z", "Tue, 14 Apr 2026 09:30:00 GMT"),
        ("2026-04-14T09:30:00.123456Z", "Tue, 14 Apr 2026 09:30:00 GMT"),  # WARC 1.1
        ("2026-04-14T11:30:00+02:00", "Tue, 14 Apr 2026 09:30:00 GMT"),
        ("20260414093000", "Tue, 14 Apr 2026 09:30:00 GMT"),  # WARC 0.17
        ("yesterday", None),
        ("", None),
    ],
)
def test_the_warc_date_as_an_http_date(warc_date: str, expected: str | None) -> None:
    assert http_date(warc_date) == expected


@pytest.mark.parametrize(("warc_date", "published"), [("2026-04-14T09:30:00Z", "2026-04-14T06:30:00+00:00")])
def test_a_loop_of_ones_own_and_relative_dates_read_against_the_warc_date(
    tmp_path: Path, warc_date: str, published: str
) -> None:
    path = write_warc(
        tmp_path / "own.warc.gz",
        [
            ("request", "http://own.test/a", b"", {}),
            ("response", "http://own.test/a", RELATIVE_PAGE, {"warc": {"WARC-Date": warc_date}}),
            ("response", "http://own.test/b", RELATIVE_PAGE, {"warc": {"WARC-Date": "2026-04-20T12:00:00Z"}}),
        ],
    )
    summary = FileSummary(str(path))
    settings = {"MAINC_WORKER_MODE": "inline", "MAINC_MARKDOWN_FIELD": "markdown"}
    with path.open("rb") as stream:
        items = list(items_from_records(ArchiveIterator(stream), settings, summary))
    assert [item["url"] for item in items] == ["http://own.test/a", "http://own.test/b"]
    assert items[0]["published"] == published and items[0]["published_from"] == "dateline"
    assert items[1]["published"] == "2026-04-20T09:00:00+00:00"  # three hours before its own WARC-Date
    assert items[0]["markdown"].startswith("The Eastgate harbour bridge reopened")
    assert summary.records == {"request": 1, "response": 2} and summary.items == 2


#: Pages of the bundled site: two stories, a section front the model types article (and the
#: article verdict refuses), and two listings.
SITE_PAGES = (
    "/en/school-gardens.html",
    "/zh/shuiku-kuorong.html",
    "/en/index.html",
    "/news/index.html",
    "/wire/news.html",
)


def test_archive_items_carry_the_page_type_and_keep_the_chosen_kinds(tmp_path: Path) -> None:
    # the crawl's fields, filters and stats, with no code of the archive mode's own
    site = EXAMPLE / "site"
    bodies = {f"http://site.test{path}": (site / path.lstrip("/")).read_bytes() for path in SITE_PAGES}
    records = [("response", url, body, {}) for url, body in bodies.items()]
    warc = write_warc(tmp_path / "site.warc.gz", records)
    types = {url: extract(body, url=url).page_type for url, body in bodies.items()}
    assert sorted(set(types.values())) == ["article", "listing"]  # the site's articles and listings
    every = FileSummary(str(warc))
    items = list(items_from_files([warc], {"MAINC_WORKER_MODE": "inline"}, every))
    assert {item["url"]: item["page_type"] for item in items} == types
    assert all(item["mainc"]["page_type"] == item["page_type"] for item in items)
    summary = FileSummary(str(warc))
    settings = {"MAINC_WORKER_MODE": "inline", "MAINC_PAGE_TYPES": ["listing"]}
    kept = [item["url"] for item in items_from_files([warc], settings, summary)]
    listings = [url for url, kind in types.items() if kind == "listing"]
    articles = len(types) - len(listings)
    assert kept == listings and summary.items == len(listings)
    assert summary.stats["mainc/page_type/article"] == articles
    assert summary.stats["mainc/page_type/listing"] == len(listings)
    assert summary.stats["mainc/dropped/page_type"] == articles
    lines = JobSummary.of([summary]).lines("mainc warc", "items.jsonl")
    assert f"  items dropped: {articles} (page type: {articles})" in lines
    assert f"  page types: article: {articles}, listing: {len(listings)}" in lines
    assert lines[0].startswith("mainc warc: 1 file in ")  # one file: "file", not "1 files"
    assert JobSummary.of([summary, summary]).lines("w", "o")[0].startswith("w: 2 files in ")


def test_settings_are_the_crawls() -> None:
    config = OfflineConfig.from_settings({"MAINC_TEXT_FIELD": "body", "MAINC_DEDUP_ENABLED": "True"})
    assert config.mainc.fields.text == "body" and config.dedup.enabled
    assert config.dedup.text_field == "body"  # the add-on keeps it in step, as in a crawl
    with pytest.raises(ValueError, match="MAINC_MARKDOWN_FEILD is not a scrapy_mainc setting; did you mean"):
        OfflineConfig.from_settings({"MAINC_MARKDOWN_FEILD": "markdown"})
    with pytest.raises(ValueError, match="only MAINC_ settings apply"):
        OfflineConfig.from_settings({"DOWNLOAD_DELAY": "1"})


def test_part_files_are_named_after_their_input(tmp_path: Path) -> None:
    first, second = tmp_path / "a" / "CC-NEWS-1.warc.gz", tmp_path / "b" / "CC-NEWS-1.warc.gz"
    assert part_path(tmp_path, first).name.startswith("CC-NEWS-1-")
    assert part_path(tmp_path, first) == part_path(tmp_path, first) != part_path(tmp_path, second)


def test_a_missing_dependency_says_how_to_install_it() -> None:
    # commands that work as things are: the package is on no index, its dependencies are
    with pytest.raises(
        MissingDependency, match=r'needs no_such_module_here: pip install warcio "dask\[distributed\]"'
    ):
        _load("no_such_module_here", "dask", "the Dask job")
    assert "scrapy-mainc[" not in str(INSTALL_HINTS)


def test_the_commands_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Each refused in one line, exit status 2, before anything is read or a cluster starts
    (in this process: the command line's ``main``)."""
    from scrapy_mainc.cli import main

    good = str(write_warc(tmp_path / "good.warc.gz", [("response", "http://own.test/a", RELATIVE_PAGE, {})]))
    parts = ("--parts", str(tmp_path / "parts"))
    cases = {
        (str(tmp_path / "missing.warc.gz"),): "no such file or folder",
        (str(tmp_path / "nothing-*.warc"),): "no archive matches",
        (good, "-s", "MAINC_ALGORITM=nce"): "did you mean MAINC_ALGORITHM?",
        (good, "-s", "MAINC_PAGE_TYPES=blog"): "MAINC_PAGE_TYPES: 'blog' is not a page type; valid: ",
        (good, "-s", "MAINC_TIMEOUT=abc"): "MAINC_TIMEOUT must be a positive number; got 'abc'",
        (good, "--page-types", "blog"): "argument --page-types: invalid choice: 'blog'",
        (good, "--page-types", "forum", "--articles-only"): "not allowed with argument --page-types",
        (good, "--scheduler", "tcp://127.0.0.1:1"): "give --parts DIR too",
        (good, "--dedup", *parts, "--dask-workers", "1"): "give --redis URL",
        (good, *parts, "--limit", "5"): "not to a Dask job",
        (good, *parts, "-o", str(tmp_path / "items.jsonl")): "a Dask job writes them to --parts DIR",
        (good, *parts, "--dask-workers", "-2"): "not a positive integer: '-2'",
    }
    for args, message in cases.items():
        try:
            status = main(["warc", *args])
        except SystemExit as exit_:  # argparse's refusals
            status = int(exit_.code or 0)
        stderr = capsys.readouterr().err
        assert status == 2 and message in stderr, (args, stderr)
        assert "Traceback" not in stderr and not (tmp_path / "parts").exists()


@pytest.mark.parametrize(
    ("settings", "expected"),
    [
        (["MAINC_FALLBACK_BELOW=0.5"], ["MAINC_FALLBACK_BELOW"]),
        (
            ["MAINC_FALLBACK_BELOW=0.5", "MAINC_FALLBACK_TIMEOUT=5"],
            ["MAINC_FALLBACK_BELOW", "MAINC_FALLBACK_TIMEOUT"],
        ),
        (["MAINC_FALLBACK_BELOW=0.5", "MAINC_FALLBACK=os.path.join"], []),  # it has what it needs
        ([], []),
    ],
)
def test_mainc_warc_says_a_setting_that_does_nothing_without_another(
    settings: list[str], expected: list[str], tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """As ``mainc crawl`` does (``integration._startup.warn_of_idle_settings``), at WARNING."""
    from scrapy_mainc.cli import main

    good = str(write_warc(tmp_path / "good.warc.gz", [("response", "http://own.test/a", RELATIVE_PAGE, {})]))
    given = [arg for setting in ["MAINC_WORKER_MODE=inline", *settings] for arg in ("-s", setting)]
    with caplog.at_level(logging.WARNING):
        assert main(["warc", good, *given, "-o", str(tmp_path / "items.jsonl")]) == 0
    said = [record for record in caplog.records if "so it does nothing" in record.getMessage()]
    assert [record.getMessage() for record in said] == [
        f"mainc: {name} is set but MAINC_FALLBACK is not, so it does nothing" for name in expected
    ]
    assert all(record.levelno == logging.WARNING for record in said)


def test_items_from_files_judge_and_name_each_file(tmp_path: Path) -> None:
    """One summary for many files: each problem names its file, and a file with no page (or
    no record at all) is said even after a file with pages."""
    good = write_warc(tmp_path / "good.warc.gz", [("response", "http://own.test/a", RELATIVE_PAGE, {})])
    no_page = write_warc(tmp_path / "requests.warc.gz", [("request", "http://own.test/a", b"", {})])
    empty = tmp_path / "empty.warc"
    empty.write_bytes(b"")
    summary = FileSummary("run")
    items = list(items_from_files([good, no_page, empty], {"MAINC_WORKER_MODE": "inline"}, summary))
    assert [item["url"] for item in items] == ["http://own.test/a"] and summary.items == 1
    assert summary.records == {"response": 1, "request": 1}
    assert [(problem.file, problem.kind) for problem in summary.problems] == [
        (str(no_page), "no pages"),
        (str(empty), "no records"),
    ]


def test_a_restarted_job_reads_again_a_file_that_changed_or_could_not_be_read(tmp_path: Path) -> None:
    """A file still being written when the job read it, or one that could not be read then
    (a link to a file not there yet), is not taken as done by the restarted job."""
    from dask.distributed import Client, LocalCluster

    from scrapy_mainc.archive import run_job

    growing, late = tmp_path / "growing.warc.gz", tmp_path / "late.warc.gz"
    pages = [("response", f"http://own.test/{n}", RELATIVE_PAGE, {}) for n in range(3)]
    write_warc(growing, pages[:1])
    late.symlink_to(tmp_path / "later.warc.gz")
    parts, config = tmp_path / "parts", OfflineConfig.from_settings({})
    with (
        LocalCluster(n_workers=1, threads_per_worker=1, processes=False, dashboard_address=":0") as cluster,
        Client(cluster) as client,
    ):
        first = run_job(client, [growing, late], parts, config)
        assert first.items == 1 and first.errors == {"unreadable": 1}
        assert not part_path(parts, late).exists()  # nothing of it is written
        assert not Path(f"{part_path(parts, late)}.summary.json").exists()  # nor marked done
        write_warc(growing, pages)  # the file grew
        write_warc(tmp_path / "later.warc.gz", pages[:2])  # the link's file is there now
        again = run_job(client, [growing, late], parts, config)
    assert again.resumed == 0 and again.items == 5 and again.errors == {}
    assert sorted(len(part.read_text().splitlines()) for part in parts.glob("*.jsonl")) == [2, 3]


#: The loop of docs/archive.md as a user's script: ``{top}`` is the script's top-level code.
LIBRARY_SCRIPT = """\
from scrapy_mainc.archive import FileSummary, items_from_files

def read(path):
    summary = FileSummary("run")
    items = list(items_from_files([path], {{"MAINC_WORKERS": 2}}, summary))
    texts = sum(bool(item["main_text"]) for item in items)
    print(len(items), texts, sorted(summary.errors.items()), flush=True)

{top}
"""


@pytest.mark.parametrize("guarded", [False, True])
def test_the_library_loop_runs_from_a_plain_script(tmp_path: Path, guarded: bool) -> None:
    """Worker processes import the main script again (spawn, forkserver): one without the
    ``__main__`` guard runs its pages in its own process and says once what to add."""
    pages = [("response", f"http://own.test/{n}", RELATIVE_PAGE, {}) for n in range(3)]
    write_warc(tmp_path / "own.warc.gz", pages)
    top = 'if __name__ == "__main__":\n    read("own.warc.gz")' if guarded else 'read("own.warc.gz")'
    (tmp_path / "script.py").write_text(LIBRARY_SCRIPT.format(top=top), encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "script.py"], capture_output=True, text=True, cwd=tmp_path, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == "3 3 []\n"  # every page extracted, none lost to a worker
    warnings = [line for line in done.stderr.splitlines() if line.strip()]
    if guarded:
        assert warnings == []
    else:
        assert len(warnings) == 1 and "pages run in this process" in warnings[0]
        assert 'under `if __name__ == "__main__":`' in warnings[0]


def test_reading_the_settings_is_no_crawl_to_stop(monkeypatch: pytest.MonkeyPatch) -> None:
    """In a worker process (a script run again there), reading the archive mode's settings
    is no crawl started again: no StartupError speaking of "this crawl"."""
    from scrapy_mainc.items._workers import WORKER_PROCESS_NAME

    monkeypatch.setattr(multiprocessing.current_process(), "name", WORKER_PROCESS_NAME)
    assert (
        OfflineConfig.from_settings({"MAINC_MARKDOWN_FIELD": "markdown"}).mainc.fields.markdown == "markdown"
    )


def test_the_archive_exports_the_names_its_documentation_gives_and_no_plumbing() -> None:
    import scrapy_mainc.archive as archive

    api = (Path(__file__).parent.parent / "docs" / "api.md").read_text(encoding="utf-8")
    documented = set(re.findall(r"scrapy_mainc\.archive\.(\w+)", api))
    assert set(archive.__all__) == documented
    assert all(getattr(archive, name) is not None for name in archive.__all__)
    for plumbing in ("dask_client", "run_here", "read_file", "part_path", "JsonLines", "http_date"):
        with pytest.raises(AttributeError):
            getattr(archive, plumbing)
