"""One item from one page, the crawl's way: the extraction task, the fields written into the
item, the fingerprint handed on, and whether the item is dropped.

``MaincPipeline`` runs these steps for every item of a crawl, and the archive mode
(:mod:`scrapy_mainc.archive`) for every page of a WARC file, so an item has the same fields
whichever way its page came, and a field added here reaches both. Between :meth:`task` and
:meth:`ItemBuilder.fill` the caller runs the task (in a worker pool, or at once). This
module does not import Scrapy.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ._config import MaincConfig
from ._dedup_config import DedupConfig
from ._filters import ItemFilters
from ._itemfields import CLUSTER_FIELDS, ItemFields, set_if_declared
from ._workers import ExtractionOutcome, ExtractionTask, failed

if TYPE_CHECKING:
    from itemadapter import ItemAdapter

    from ..dedup._fingerprint import Fingerprint

#: Increments one stat (``mainc/dropped/language``...) by one.
Count = Callable[[str], None]


def page_item(url: str) -> dict[str, Any]:
    """The item ``mainc crawl``'s spider yields for a page, before the fields are written."""
    return {"url": url}


def item_info(outcome: ExtractionOutcome, annotations: dict[str, Any] | None) -> dict[str, Any]:
    """The item's ``mainc`` field: how the page was extracted, and the page's annotations."""
    extraction = outcome.extraction
    info: dict[str, Any] = {
        "algorithm": extraction.algorithm,
        "xpath": extraction.xpath,
        "score": extraction.score,
        "lang": extraction.lang,
        "milliseconds": round(extraction.milliseconds, 3),
        "reason": extraction.reason,
        "article": extraction.article,
        "page_type": extraction.page_type,
    }
    if annotations:
        info["page"] = annotations
    return info


class ItemBuilder:
    """The steps from a page to its item, configured once (see the module docstring).

    ``count`` increments a stat for the drops it decides; ``spider_algorithm`` is the
    algorithm the spider asks for (``mainc_algorithm``), if any.
    """

    def __init__(
        self, config: MaincConfig, dedup: DedupConfig, count: Count, spider_algorithm: str | None = None
    ) -> None:
        self.config = config
        self.dedup = dedup
        self.fields = ItemFields(config, CLUSTER_FIELDS if dedup.enabled else ())
        self.filters = ItemFilters(config.content, count)
        self._count = count
        self._spider_algorithm = spider_algorithm

    def task(
        self, page: str | bytes | None, url: str | None, metadata: bool, fetched: str | None = None
    ) -> ExtractionTask:
        """The extraction of ``page`` (fetched at ``fetched``, an HTTP date), with the
        metadata stage when the item takes metadata fields."""
        dedup = self.dedup
        return ExtractionTask(
            page=page if page is not None else "",
            url=url,
            algorithm=self.config.algorithm_for(url, self._spider_algorithm),
            strip_comments=self.config.strip_comments,
            metadata=metadata,
            fingerprint=dedup.fingerprint_params if dedup.enabled else None,
            fetched=fetched or None,
            output=self.config.content.output,
            favor=self.config.content.favor,
        )

    def too_large(self, task: ExtractionTask, size: int | None = None) -> ExtractionOutcome | None:
        """The failed outcome of a page over ``MAINC_MAX_PAGE_SIZE`` (``size``: its length,
        when the caller did not read it all), else None."""
        size = len(task.page) if size is None else size
        limit = self.config.max_page_size
        if size <= limit:
            return None
        return failed(task, "too_large", f"page too large: {size:,} > MAINC_MAX_PAGE_SIZE ({limit:,})")

    def fill(
        self,
        adapter: ItemAdapter,
        outcome: ExtractionOutcome,
        page: str | bytes | None,
        annotations: dict[str, Any] | None,
    ) -> tuple[str, ...]:
        """Write the extraction's fields and settle the page field; returns the metadata
        fields the page gave a value for (see :meth:`ItemFields.attach`)."""
        found = self.fields.attach(adapter, outcome.extraction, item_info(outcome, annotations))
        self.fields.settle_page(adapter, page)
        return found

    def hand_on(
        self, adapter: ItemAdapter, outcome: ExtractionOutcome, url: str | None
    ) -> Fingerprint | None:
        """With clustering on: the worker's fingerprint into its field, and the page URL
        into the URL field where the item has none. Returns the fingerprint when the items
        are not to keep it (no fingerprint field), for the caller to hand on beside the item."""
        fingerprint, dedup = outcome.fingerprint, self.dedup
        beside = None
        if fingerprint is not None and dedup.fingerprint_field:
            set_if_declared(adapter, dedup.fingerprint_field, fingerprint.to_dict())
        else:
            beside = fingerprint
        if url and not adapter.get(dedup.url_field):
            set_if_declared(adapter, dedup.url_field, url)
        return beside

    def drop_reason(self, outcome: ExtractionOutcome) -> str:
        """Why the item is dropped (``MAINC_DROP_EMPTY``, ``MAINC_LANGUAGES``,
        ``MAINC_PAGE_TYPES`` or ``MAINC_ARTICLES_ONLY``; each drop counted), or ``""`` to
        keep it."""
        extraction = outcome.extraction
        if self.config.drop_empty and not extraction.text:
            self._count("mainc/dropped")
            return f"mainc: no main text ({extraction.reason})"
        return self.filters.drop_reason(extraction, bool(outcome.failure))
