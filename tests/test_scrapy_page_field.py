"""An item's page field (``MAINC_PAGE_FIELD``, ``raw_html``) through MaincPipeline (inline
mode): an empty one is an empty document, not a missing field."""

from __future__ import annotations

import asyncio
from typing import Any

from scrapy.http import HtmlResponse
from scrapy.utils.test import get_crawler

from scrapy_mainc.integration._page_handoff import book_of
from scrapy_mainc.integration.pipeline import MaincPipeline
from scrapy_mainc.items._page import Page

PAGE = (
    "<html><head><title>Bridge</title></head><body><article><h1>Bridge</h1>"
    + "<p>The council voted on the plan for the new bridge, and the work starts in the spring.</p>" * 4
    + "</article></body></html>"
)


def run(item: dict[str, Any], attached: str | None = None) -> tuple[dict[str, Any], dict[str, Any]]:
    """The item after the pipeline (with ``attached`` as the page of its response) and the stats."""
    crawler = get_crawler(settings_dict={"MAINC_WORKER_MODE": "inline"})
    pipeline = MaincPipeline(crawler)
    pipeline.open_spider()
    url = "http://127.0.0.1:8000/bridge.html"

    async def process() -> dict[str, Any]:
        response = HtmlResponse(url, body=(attached or "").encode())  # the book holds a page while it lives
        if attached is not None:
            book_of(crawler).file(item, response, Page(attached.encode(), url), [url])
        result: dict[str, Any] = await pipeline.process_item(item)
        return result

    result = asyncio.run(process())
    pipeline.close_spider()
    assert crawler.stats is not None
    return result, crawler.stats.get_stats()


def test_an_empty_page_field_is_an_empty_document() -> None:
    item, stats = run({"url": "http://127.0.0.1:8000/empty.html", "raw_html": ""})
    assert item["mainc"]["reason"] == "empty document" and item["main_text"] == ""
    assert "mainc/failed/no_page" not in stats


def test_an_empty_page_field_gives_way_to_the_page_of_the_response() -> None:
    item, _ = run({"raw_html": ""}, attached=PAGE)
    assert item["main_text"].startswith("The council voted")


def test_an_item_without_the_field_or_a_response_has_no_page() -> None:
    item, stats = run({"url": "http://127.0.0.1:8000/none.html"})
    assert item["mainc"]["reason"].startswith("no page") and stats["mainc/failed/no_page"] == 1
