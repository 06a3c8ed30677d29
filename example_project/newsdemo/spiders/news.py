"""The spider for the bundled news site: listing pages lead to article pages."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from typing import Any

import scrapy
from scrapy.http import Response


def headline(response: Response) -> str:
    """The page's headline as its markup gives it: ``<h1>``, the wire's ``.hed``, ``<title>``."""
    for query in ("h1 ::text", ".hed ::text", "title::text"):
        found = response.css(query).get()
        if found and found.strip():
            return found
    return ""


class NewsSpider(scrapy.Spider):
    """Follow section and story links from the front page; one item per article.

    The item holds only what the spider itself knows (URL, headline, section); scrapy_mainc
    adds ``main_text``, ``main_html``, ``title``, ``mainc`` and the page's metadata
    (``published``, ``authors``, ``description``...), but keeps the spider's own ``section``.
    ``-a start_url=...`` sets the front page; ``-a copies=N`` crawls N copies of the site
    (``/c0/`` .. ``/c<N-1>/``).
    """

    name = "news"

    def __init__(self, start_url: str = "http://127.0.0.1:8000/", copies: str = "0", **kwargs: Any):
        super().__init__(**kwargs)
        self.start_url = start_url.rstrip("/") + "/"
        self.copies = int(copies)

    async def start(self) -> AsyncIterator[scrapy.Request]:
        if not self.copies:
            yield scrapy.Request(self.start_url + "index.html")
        for copy in range(self.copies):
            yield scrapy.Request(f"{self.start_url}c{copy}/index.html")

    def parse(self, response: Response) -> Iterator[scrapy.Request]:
        """A listing page: follow its sections and stories."""
        yield from response.follow_all(css="a.section-link", callback=self.parse)
        yield from response.follow_all(css="a.story-link", callback=self.parse_article)

    def parse_article(self, response: Response) -> Iterator[dict[str, Any]]:
        yield {
            "url": response.url,
            "headline": " ".join(headline(response).split()),
            "section": response.url.split("/")[-2],
        }
