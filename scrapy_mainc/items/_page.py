"""A page as the per-page runner takes it, whichever way it came: a response's (the spider
middleware files it for the pipeline), an item's page field, or a WARC record's."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class Page:
    """A page as the runner takes it: a response's (the spider middleware files it), an
    item's page field, or a WARC record's."""

    #: The page: decoded text for text responses, else the bytes; None: no page.
    html: str | bytes | None
    url: str | None = None
    #: The page's annotations (the decoding's: ``response.meta["mainc"]``).
    annotations: dict[str, Any] = field(default_factory=dict)
    #: The response's HTTP ``Date`` header ("" without one): relative dates are read against it.
    fetched: str = ""
    #: The page's size when ``html`` is not all of it (a record too large to decode); None:
    #: ``len(html)``.
    size: int | None = None
    #: Why there is no page (``html`` None), said in the item's reason.
    missing: str = ""
