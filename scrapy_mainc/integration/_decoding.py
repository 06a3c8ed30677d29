"""Pages decoded as the crawl decodes them, for the downloader middleware and the archive
mode alike.

:func:`settle_response` is the middleware's step: a response re-decoded when its charset
is undeclared or wrong and the sniffer confidently finds another, and its annotations.
:func:`decoded_page` gives a page that comes from no crawl (a WARC record's HTTP headers
and body) the same treatment: Scrapy's response class and encoding for the headers and
body, then :func:`settle_response`. Scrapy is imported inside the functions (and for
types), so that importing this module costs nothing.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..core._annotate import annotate, better_encoding, declared_encoding

if TYPE_CHECKING:
    from scrapy.http import Response, TextResponse

logger = logging.getLogger(__name__)


def is_html(response: Response) -> bool:
    """True for HTML responses: ``HtmlResponse``, or text declared as (X)HTML."""
    from scrapy.http import HtmlResponse, TextResponse

    if isinstance(response, HtmlResponse):
        return True
    if not isinstance(response, TextResponse):
        return False
    content_type = (response.headers.get(b"Content-Type") or b"").lower()
    return b"html" in content_type


@dataclass(frozen=True, slots=True)
class DecodedPage:
    """A page as the crawl hands it to the pipeline: its text and the annotations."""

    text: str
    annotations: dict[str, Any]
    #: The encoding was not the one Scrapy inferred (``mainc/redecoded``).
    redecoded: bool = False


def decoded_page(
    url: str, headers: Sequence[tuple[str, str]], body: bytes, redecode: bool = True
) -> DecodedPage | None:
    """``body`` (with its HTTP ``headers``, content and transfer encodings already undone)
    decoded as the crawl decodes a response from ``url``; None when the crawl's middleware
    would not take it for HTML."""
    from scrapy.http import Headers  # Scrapy when decoding only
    from scrapy.responsetypes import responsetypes

    kept = Headers([(name, value) for name, value in headers if name.lower() not in _UNDONE])
    response_class = responsetypes.from_args(headers=kept, url=url, body=body)
    response = response_class(url=url, headers=kept, body=body)
    if not is_html(response):
        return None
    settled, annotations, redecoded = settle_response(response, redecode)  # type: ignore[arg-type]
    return DecodedPage(settled.text, annotations, redecoded)


#: Headers of encodings the archive reader has undone (as the crawl's compression middleware
#: does before the response class is chosen).
_UNDONE = frozenset({"content-encoding", "transfer-encoding", "content-length"})


def settle_response(response: TextResponse, redecode: bool) -> tuple[TextResponse, dict[str, Any], bool]:
    """The downloader middleware's step: ``response`` re-decoded when its charset is
    undeclared or wrong and the sniffer confidently finds another (with ``redecode``), its
    annotations (``response.meta["mainc"]``), and whether it was re-decoded."""
    content_type = (response.headers.get(b"Content-Type") or b"").decode("latin-1")
    declared = declared_encoding(content_type, response.body)
    redecoded = False
    if redecode:
        encoding = better_encoding(response.body, response.encoding, declared)
        if encoding:
            logger.debug("mainc: decoding %s as %s, not %s", response.url, encoding, response.encoding)
            response = response.replace(encoding=encoding)
            redecoded = True
    annotations = annotate(
        response.text, declared_encoding=declared, encoding=response.encoding, redecoded=redecoded
    )
    return response, annotations.as_meta(), redecoded
