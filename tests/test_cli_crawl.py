"""``mainc crawl``: a real Scrapy crawl of the bundled site (served on 127.0.0.1) from its
sitemaps, feeds, front page, or a list of URLs."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from conftest import EXAMPLE

SITE = EXAMPLE / "site"
KINDS = json.loads((EXAMPLE / "site_src" / "page_kinds.json").read_text(encoding="utf-8"))
ARTICLES = {path for path, kind in KINDS.items() if kind["article"]}
LISTINGS = {path for path, kind in KINDS.items() if not kind["article"]}
#: robots.txt of the site disallows the print views.
PRINT_VIEW = "/en/print/harbour-bridge-reopens.html"
FAST = ["-s", "MAINC_WORKER_MODE=inline", "-s", "AUTOTHROTTLE_START_DELAY=0"]


def crawl(*args: str, cwd: Path) -> tuple[subprocess.CompletedProcess[str], list[dict[str, Any]]]:
    out = cwd / "items.jsonl"
    done = subprocess.run(
        [sys.executable, "-m", "scrapy_mainc", "crawl", *args, "-o", str(out)],
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=300,
    )
    items = (
        [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()] if out.exists() else []
    )
    return done, items


def paths(items: list[dict[str, Any]], origin: str) -> list[str]:
    return sorted(item["url"].removeprefix(origin) for item in items)


def test_a_sitemap_index_with_a_news_sitemap(site_server: Any, tmp_path: Path) -> None:
    # the default worker mode (processes), AutoThrottle's start delay, progress lines
    done, items = crawl(f"{site_server.url}/sitemap.xml", "--progress", "0.5", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert paths(items, site_server.url) == sorted((ARTICLES | LISTINGS) - {PRINT_VIEW})
    assert all(item["main_text"] and item["mainc"]["reason"] == "" for item in items)
    assert "mainc crawl: " in done.stderr and " pages fetched, " in done.stderr  # a progress line
    summary = done.stderr[done.stderr.index("mainc crawl: finished") :]
    assert f"items written: {len(items)} to {tmp_path / 'items.jsonl'}" in summary
    assert "forbidden by robots.txt: 1," in summary and "errors logged: 0" in summary


def test_feeds(site_server: Any, tmp_path: Path) -> None:
    done, items = crawl(f"{site_server.url}/rss.xml", f"{site_server.url}/atom.xml", *FAST, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    english = {path for path in ARTICLES if path.count("/") == 2 and path.startswith("/en/")}
    chinese = {path for path in ARTICLES if path.startswith("/zh/")}
    assert paths(items, site_server.url) == sorted(english | chinese)


def test_a_start_page_is_followed_within_its_site(site_server: Any, tmp_path: Path) -> None:
    done, items = crawl(f"{site_server.url}/index.html", "--articles-only", *FAST, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    found = set(paths(items, site_server.url))
    # every article the front page leads to, through the section pages, but the print view
    assert found == ARTICLES - {PRINT_VIEW}
    assert all(item["mainc"]["article"] for item in items)
    assert "not an article: " in done.stderr


def page_type_of(path: str, origin: str) -> str:
    """The page type ``extract`` gives the site's page at ``path``."""
    from scrapy_mainc import extract

    return extract((SITE / path.lstrip("/")).read_bytes(), url=origin + path).page_type


def test_page_types_keep_the_chosen_kinds_and_are_counted(site_server: Any, tmp_path: Path) -> None:
    done, items = crawl(f"{site_server.url}/sitemap.xml", *FAST, "--page-types", "listing", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    fetched = sorted((ARTICLES | LISTINGS) - {PRINT_VIEW})
    types = {path: page_type_of(path, site_server.url) for path in fetched}
    listings = sorted(path for path, kind in types.items() if kind == "listing")
    assert listings == sorted(LISTINGS & set(fetched))  # the site's listing pages, every one
    assert paths(items, site_server.url) == listings
    assert all(item["page_type"] == item["mainc"]["page_type"] == "listing" for item in items)
    summary = done.stderr[done.stderr.index("mainc crawl: finished") :]
    others = len(fetched) - len(listings)
    assert f"items dropped: {others} (page type: {others})" in summary
    counts = Counter(types.values())
    assert f"  page types: article: {counts['article']}, listing: {counts['listing']}\n" in summary


def test_limit_and_languages(site_server: Any, tmp_path: Path) -> None:
    done, items = crawl(f"{site_server.url}/sitemap.xml", "--limit", "5", *FAST, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert 0 < len(items) <= 5
    done, items = crawl(f"{site_server.url}/news-sitemap.xml", "--languages", "zh", *FAST, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert paths(items, site_server.url) == sorted(path for path in ARTICLES if path.startswith("/zh/"))
    assert "(language: 6)" in done.stderr  # the English articles but the print view


def test_a_list_of_urls_is_not_followed(site_server: Any, tmp_path: Path) -> None:
    urls = [f"{site_server.url}/en/school-gardens.html", f"{site_server.url}/zh/chuncha-kaicai.html"]
    listing = tmp_path / "urls.txt"
    listing.write_text("# two pages\n" + "\n".join(urls) + "\n\n", encoding="utf-8")
    done, items = crawl(str(listing), "--markdown", *FAST, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert sorted(item["url"] for item in items) == sorted(urls)
    assert all(item["markdown"] for item in items)


def test_a_local_sitemap_file(site_server: Any, tmp_path: Path) -> None:
    sitemap = tmp_path / "sitemap.xml"
    page = f"{site_server.url}/en/river-festival.html"
    sitemap.write_text(
        '<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
        f"<url><loc>{page}</loc></url></urlset>",
        encoding="utf-8",
    )
    done, items = crawl(str(sitemap), *FAST, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert [item["url"] for item in items] == [page]


def test_near_duplicates(site_server: Any, tmp_path: Path) -> None:
    done, items = crawl(f"{site_server.url}/news-sitemap.xml", "--dedup", *FAST, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    by_path = {item["url"].removeprefix(site_server.url): item for item in items}
    herald, wire = by_path["/en/harbour-bridge-reopens.html"], by_path["/en/wire/harbour-bridge-reopens.html"]
    assert herald["cluster_id"] and herald["cluster_id"] == wire["cluster_id"]
    founders = sum(bool(item["cluster_id"]) and not item["duplicate_of"] for item in items)
    copies = sum(bool(item["duplicate_of"]) for item in items)
    short = sum(not item["cluster_id"] for item in items)
    counts = f"{founders} new clusters, {copies} duplicates, 0 re-crawls, {short} too short to cluster"
    assert f"  near-duplicates: {counts}\n" in done.stderr  # the summary says the clusters


def test_a_server_that_is_not_there(tmp_path: Path) -> None:
    from newsdemo.localredis import free_port

    url = f"http://127.0.0.1:{free_port()}/sitemap.xml"
    done, items = crawl(url, *FAST, "-s", "RETRY_TIMES=0", cwd=tmp_path)
    assert done.returncode == 1 and items == []
    assert "Traceback" not in done.stderr
    assert "pages fetched: 0" in done.stderr


def test_extract_does_not_import_scrapy(tmp_path: Path) -> None:
    page = Path(__file__).parent / "data" / "news_en.html"
    code = (
        "import sys; from scrapy_mainc.cli import main; "
        f"main(['extract', {str(page)!r}]); "
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('scrapy', 'twisted')))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.stdout.splitlines()[-1] == "[]", done.stderr


# --- A crawl that cannot start: one ERROR line, then a line that says so (issue 31) --------

DID_NOT_START = "mainc crawl: the crawl did not start (the ERROR above says why)"
YESTERDAY = "yesterday's items\n"
#: Options of mainc crawl that stop it before it starts, and the ERROR each gives.
BAD_OPTIONS = {
    "timeout": (("-s", "MAINC_TIMEOUT=abc"), "mainc: MAINC_TIMEOUT must be a positive number; got 'abc'"),
    "languages": (
        ("--languages", "english"),
        "mainc: MAINC_LANGUAGES: 'english' is not a language code (ISO 639-1, such as en or de)",
    ),
    "algorithm": (("-s", "MAINC_ALGORITHM=foo"), "mainc: MAINC_ALGORITHM: unknown algorithm 'foo'; valid: "),
    "page types": (
        ("-s", "MAINC_PAGE_TYPES=forum,blog"),
        "mainc: MAINC_PAGE_TYPES: 'blog' is not a page type; valid: article, forum, listing, collection, "
        "product, documentation, service",
    ),
    "page types and articles only": (
        ("--articles-only", "-s", "MAINC_PAGE_TYPES=forum"),
        'mainc: MAINC_ARTICLES_ONLY is MAINC_PAGE_TYPES = ["article"] under its older name: set one of '
        "them, not both (MAINC_PAGE_TYPES = ['forum'])",
    ),
    "dedup": (
        ("-s", "MAINC_DEDUP_THRESHOLD=abc", "--dedup"),
        "mainc: invalid MAINC_DEDUP_* setting: MAINC_DEDUP_THRESHOLD must be a number; got 'abc'",
    ),
}


def stopped_before_it_started(*args: str, cwd: Path) -> str:
    """Run ``mainc crawl`` over a list of one page with ``args``; check that the crawl did
    not start (exit status 1, two lines, the output file untouched); its ERROR line."""
    from newsdemo.localredis import free_port

    listing, out = cwd / "urls.txt", cwd / "items.jsonl"
    listing.write_text(f"http://127.0.0.1:{free_port()}/page.html\n", encoding="utf-8")
    out.write_text(YESTERDAY, encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "scrapy_mainc", "crawl", str(listing), *args, "-o", str(out)],
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=300,
    )
    lines = done.stderr.splitlines()
    assert done.returncode == 1 and len(lines) == 2 and lines[1] == DID_NOT_START, done.stderr[-3000:]
    assert out.read_text(encoding="utf-8") == YESTERDAY
    return lines[0]


@pytest.mark.parametrize("name", sorted(BAD_OPTIONS))
def test_a_bad_setting_stops_the_crawl_in_one_line(name: str, tmp_path: Path) -> None:
    args, message = BAD_OPTIONS[name]
    assert f" ERROR: {message}" in stopped_before_it_started(*args, cwd=tmp_path)


#: A reactor other than asyncio's: ``mainc crawl`` runs ``CrawlerProcess`` then, as ``scrapy crawl`` does.
SELECT_REACTOR = ("-s", "TWISTED_REACTOR=twisted.internet.selectreactor.SelectReactor")


def test_a_bad_setting_on_another_reactor_stops_the_crawl_in_one_line(tmp_path: Path) -> None:
    args, message = BAD_OPTIONS["timeout"]
    assert f" ERROR: {message}" in stopped_before_it_started(*args, *SELECT_REACTOR, cwd=tmp_path)


def test_a_crawl_on_another_reactor(site_server: Any, tmp_path: Path) -> None:
    page = f"{site_server.url}/en/river-festival.html"
    (tmp_path / "urls.txt").write_text(page + "\n", encoding="utf-8")
    done, items = crawl(str(tmp_path / "urls.txt"), *FAST, *SELECT_REACTOR, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert [item["url"] for item in items] == [page] and items[0]["main_text"]


def test_a_redis_that_is_not_there_stops_the_crawl_in_one_line(tmp_path: Path) -> None:
    from newsdemo.localredis import free_port

    url = f"redis://127.0.0.1:{free_port()}/0"
    line = stopped_before_it_started("--dedup", "--redis", url, cwd=tmp_path)
    assert f" ERROR: mainc dedup: cannot open the index at {url}: ConnectionError: " in line
    assert line.endswith("MAINC_DEDUP_REDIS_REQUIRED = False to crawl with an index in this process's memory")


def test_an_index_of_other_parameters_stops_the_crawl_in_one_line(redis_url: str, tmp_path: Path) -> None:
    from scrapy_mainc.dedup import IndexParams, open_index

    open_index(IndexParams(redis_url=redis_url, threshold=0.5)).close()
    line = stopped_before_it_started("--redis", redis_url, cwd=tmp_path)
    assert f" ERROR: mainc dedup: cannot open the index at {redis_url}: IndexMismatchError: " in line
    assert '"threshold": 0.5' in line


def test_a_cluster_node_without_the_cluster_setting_stops_the_crawl_in_one_line(
    redis_cluster: Any, tmp_path: Path
) -> None:
    line = stopped_before_it_started("--redis", redis_cluster.url, cwd=tmp_path)
    assert f" ERROR: mainc dedup: cannot open the index at {redis_cluster.url}: ClusterModeError: " in line
    assert "node of a Redis Cluster; set MAINC_DEDUP_REDIS_CLUSTER = True" in line


# --- Option values that mean nothing are refused, as argparse refuses a wrong type ---------

#: Each option value that meant "no limit" or printed a progress line at every turn of the
#: reactor (issue 31, item 4), and the error argparse gives for it.
MEANINGLESS = {
    ("--limit", "0"): "argument --limit: not a positive integer: '0' (without --limit: no limit)",
    ("--limit", "-5"): "argument --limit: not a positive integer: '-5' (without --limit: no limit)",
    ("--depth", "-1"): "argument --depth: not 0 (no limit) or a positive integer: '-1'",
    ("--progress", "0"): "argument --progress: not a positive number of seconds: '0'",
    ("--progress", "-2"): "argument --progress: not a positive number of seconds: '-2'",
    ("--progress", "inf"): "argument --progress: not a positive number of seconds: 'inf'",
    ("--progress", "nan"): "argument --progress: not a positive number of seconds: 'nan'",
}


@pytest.mark.parametrize(("option", "value"), sorted(MEANINGLESS))
def test_an_option_value_that_means_nothing_is_refused(option: str, value: str, tmp_path: Path) -> None:
    from newsdemo.localredis import free_port

    url = f"http://127.0.0.1:{free_port()}/sitemap.xml"
    done = subprocess.run(
        [sys.executable, "-m", "scrapy_mainc", "crawl", url, option, value, "-s", "RETRY_TIMES=0"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=300,
    )
    assert done.returncode == 2 and done.stdout == "", done.stderr[-3000:]
    lines = done.stderr.splitlines()
    assert lines[0].startswith("usage: mainc crawl ")
    assert lines[-1] == f"mainc crawl: error: {MEANINGLESS[option, value]}"
    assert not (tmp_path / "items.jsonl").exists()


def test_a_misspelt_mainc_setting_on_the_command_line_is_refused(tmp_path: Path) -> None:
    # as mainc warc refuses it; before, the crawl warned and went on with the default
    done, items = crawl("http://127.0.0.1:9/sitemap.xml", "-s", "MAINC_ALGORITM=econ", cwd=tmp_path)
    assert done.returncode == 2 and items == [], done.stderr[-3000:]
    assert done.stderr.splitlines() == [
        "mainc crawl: error: MAINC_ALGORITM is not a scrapy_mainc setting; did you mean MAINC_ALGORITHM?"
    ]
    done, _ = crawl("http://127.0.0.1:9/sitemap.xml", "-s", "MAINC_NOTHING_LIKE_IT=1", cwd=tmp_path)
    assert done.stderr.splitlines() == [
        "mainc crawl: error: MAINC_NOTHING_LIKE_IT is not a scrapy_mainc setting"
    ]


@pytest.mark.parametrize(
    ("args", "error"),
    [
        (("--page-types", "blog"), "--page-types: invalid choice: 'blog' (choose from "),
        (("--page-types", "forum", "--articles-only"), "--articles-only: not allowed with argument "),
    ],
)
def test_page_types_that_mean_nothing_are_refused(args: tuple[str, ...], error: str, tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "scrapy_mainc", "crawl", "http://127.0.0.1:9/sitemap.xml", *args],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=300,
    )
    assert done.returncode == 2, done.stderr
    assert done.stderr.splitlines()[-1].startswith(f"mainc crawl: error: argument {error}")
    assert not (tmp_path / "items.jsonl").exists()


# --- A list that holds no URL -------------------------------------------------------------


@pytest.mark.parametrize("content", ["", "\n\n", "# the pages of today\n   \n# none yet\n"])
def test_a_list_without_urls_is_one_line(content: str, tmp_path: Path) -> None:
    # it crawled nothing and exited 0, saying nothing (issue 31, item 6)
    listing = tmp_path / "urls.txt"
    listing.write_text(content, encoding="utf-8")
    done, items = crawl(str(listing), cwd=tmp_path)
    assert done.returncode == 2 and done.stdout == "" and items == []
    assert done.stderr.splitlines() == [
        f"mainc crawl: error: {listing}: the list holds no URLs (one URL a line; # starts a comment)"
    ]
