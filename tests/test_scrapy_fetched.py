"""A real crawl on loopback: the response's HTTP ``Date`` header reaches the metadata stage
(issue 19, kind 3), so a page that shows "3 hours ago" is dated three hours before the
server's answer, in worker processes and inline, and a page without that header keeps no
relative date."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from conftest import CrawlResult, run_crawls
from newsdemo.server import SiteServer
from test_scrapy_crawl import ADDON, PagesSpider

#: The server's clock for this crawl, as its Date header says it.
DATE = "Tue, 19 Nov 2019 08:12:31 GMT"
STORY = "<p>" + "The harbour tunnel opened to cyclists, and hundreds rode through in the first hour. " * 5
PAGES = {
    "/hours.html": f"<html><head><title>Tunnel opens</title></head><body><article><h1>Tunnel opens</h1>"
    f"<p class='meta'>By Ada Park, 3 hours ago</p>{STORY}</p></article></body></html>",
    "/partial.html": f"<html><head><title>Bridge closes</title></head><body><article><h1>Bridge closes</h1>"
    f"<p class='meta'>Posted Nov 18, 8:19 PM</p>{STORY}</p></article></body></html>",
}


class FetchedSpider(PagesSpider):
    name = "fetched"
    pages = tuple(path.lstrip("/") for path in PAGES)


@pytest.fixture(scope="module")
def crawls(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, CrawlResult]]:
    pages = {path: (html.encode(), "text/html; charset=utf-8") for path, html in PAGES.items()}
    server = SiteServer(pages, date=DATE).start_in_thread()
    try:
        spider = {"spider": f"{__name__}:FetchedSpider", "args": {"base": server.url}}
        scenarios = [
            {"name": "process", **spider, "settings": {**ADDON, "MAINC_WORKERS": 1}},
            {"name": "inline", **spider, "settings": {**ADDON, "MAINC_WORKER_MODE": "inline"}},
        ]
        yield run_crawls(scenarios, tmp_path_factory.mktemp("fetched"))[0]
    finally:
        server.stop()


@pytest.mark.parametrize("mode", ["process", "inline"])
def test_relative_dates_are_read_against_the_date_header(crawls: dict[str, Any], mode: str) -> None:
    result = crawls[mode]
    dates = {
        item["url"].rsplit("/", 1)[1]: (item["published"], item["published_from"]) for item in result.items
    }
    assert dates == {
        "hours.html": ("2019-11-19T05:12:31+00:00", "dateline"),
        "partial.html": ("2019-11-18T20:19:00", "dateline"),
    }
    assert result.errors == []
