"""The per-page runner: one item from one page, the same steps wherever the page came from.

``MaincPipeline.process_item`` runs it for every item of a crawl, and the archive mode's
``ArchiveExtractor`` for every page of a WARC file, so that an item gets the same fields,
the same stats and the same drops whichever way its page came::

    item = runner.prepare(item)           # ready for the fields (MissingFieldError: counted,
                                          # the item goes on unchanged)
    run = runner.start(item, page)        # the extraction task, or an outcome known at once
    outcome = run.settled or ...          # the caller runs run.task in its worker pool
    result = runner.finish(run, outcome)  # fill, hand off, count, drop, cluster

:meth:`PageRunner.finish` reads as its steps: the fields written (``_fields``); the
worker's fingerprint handed off, into the fingerprint field or beside the item
(``PageResult.beside``, which a crawl hands to ``NearDuplicatePipeline``); every stat
counted through one :class:`~._mainc_stats.Stats` (the crawler's collector, or an archive
summary); the drops (``_drops``); and, when the runner was given a cluster step (archive
mode; in a crawl ``NearDuplicatePipeline`` runs the same step), the cluster.

Where a change goes: a field, ``_fields.ItemFields.attach``; a stat, ``_mainc_stats`` (its
key and meaning; one counted for every page, :func:`~._mainc_stats.outcome_stats`); a drop,
a rule of ``_drops.ItemDrops``; a per-page step that needs the page (another extraction)
runs in the worker: a field of ``ExtractionTask`` set in :meth:`PageRunner.task` and read
by ``_workers.run_extraction``; a step on the outcome, a line of :meth:`PageRunner.finish`.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from itemadapter import ItemAdapter

from ._drops import ItemDrops
from ._failure_warnings import OutcomeTally
from ._fallback import FallbackFailures
from ._fields import CLUSTER_FIELDS, ItemFields, MissingFieldError, item_info, set_if_declared
from ._mainc_stats import (
    MILLISECONDS,
    Stats,
    failure_stats,
    fallback_stats,
    metadata_stats,
    outcome_stats,
)
from ._page import Page
from ._workers import ExtractionOutcome, ExtractionTask, failed

if TYPE_CHECKING:
    from ..config._dedup_config import DedupConfig
    from ..config._mainc_config import MaincConfig
    from ..dedup._fingerprint import Fingerprint
    from ._clusters import ClusterStep

logger = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class PageRun:
    """A page on its way through the runner, between :meth:`PageRunner.start` and
    :meth:`PageRunner.finish`."""

    item: Any
    page: Page
    task: ExtractionTask
    #: The outcome when it is known without extracting (no page, a page too large).
    settled: ExtractionOutcome | None = None


@dataclass(frozen=True, slots=True)
class PageResult:
    """What became of a page: its item, filled in, and whether it goes on."""

    item: Any
    outcome: ExtractionOutcome
    #: The worker's fingerprint, to hand on beside the item (clustering on, no fingerprint field).
    beside: Fingerprint | None
    #: Why the item is dropped, or "" (it goes on).
    dropped: str


def page_item(url: str) -> dict[str, Any]:
    """The item ``mainc crawl``'s spider yields for a page, before the fields are written."""
    return {"url": url}


class PageRunner:
    """The steps from a page to its item, configured once (see the module docstring).

    ``stats`` counts every stat; ``spider_algorithm`` is the algorithm the spider asks
    for (``mainc_algorithm``), if any; ``clusters`` places the items in clusters (archive
    mode; a crawl's ``NearDuplicatePipeline`` does it there).
    """

    def __init__(
        self,
        config: MaincConfig,
        dedup: DedupConfig,
        stats: Stats,
        spider_algorithm: str | None = None,
        clusters: ClusterStep | None = None,
    ) -> None:
        self.config = config
        self.dedup = dedup
        self.stats = stats
        self.fields = ItemFields(config, CLUSTER_FIELDS if dedup.enabled else ())
        self.drops = ItemDrops(config, stats)
        self.tally = OutcomeTally(config.worker_mode)
        self.clusters = clusters
        self.fallback_failures = FallbackFailures(config.content.fallback)
        self._spider_algorithm = spider_algorithm
        #: Item classes already told (at INFO) of the optional fields they lack, if any.
        self._told_undeclared: set[type] = set()

    def prepare(self, item: Any) -> Any:
        """``item`` ready to take the fields: as is, or converted to a dict. A typed item
        that cannot take them raises :class:`~._fields.MissingFieldError`, counted (and
        said once per class, with the fix): the caller passes it on unchanged."""
        try:
            return self.fields.prepare(item)
        except MissingFieldError as error:
            for key in failure_stats("missing_field"):
                self.stats.inc(key)
            self.tally.add("missing_field", str(error))
            if self.fields.policy.first_report(type(item)):
                logger.error("%s (items of this class pass through without extraction)", error)
            raise

    def start(self, item: Any, page: Page) -> PageRun:
        """The extraction of ``page`` for ``item`` (as :meth:`prepare` returned it)."""
        task = self.task(page, self.fields.takes_metadata(item))
        return PageRun(item, page, task, self._settled(task, page))

    def task(self, page: Page, metadata: bool) -> ExtractionTask:
        """The extraction task of ``page``, with the metadata stage when the item takes
        metadata fields."""
        config, dedup = self.config, self.dedup
        return ExtractionTask(
            page=page.html if page.html is not None else "",
            url=page.url,
            algorithm=config.algorithm_for(page.url, self._spider_algorithm),
            strip_comments=config.strip_comments,
            metadata=metadata,
            fingerprint=dedup.fingerprint_params if dedup.enabled else None,
            fetched=page.fetched or None,
            output=config.content.output,
            favor=config.content.favor,
            fallback=config.content.fallback,
            fallback_below=config.content.fallback_below,
        )

    def finish(self, run: PageRun, outcome: ExtractionOutcome) -> PageResult:
        """Fill ``run``'s item with ``outcome``, hand off its fingerprint, count every stat,
        decide its drop and, in archive mode, its cluster."""
        adapter, url = ItemAdapter(run.item), run.page.url
        fallback = self.config.content.fallback
        info = item_info(outcome.extraction, run.page.annotations, fallback, outcome.fallback)
        found = self.fields.attach(adapter, outcome.extraction, info)
        self.fields.settle_page(adapter, run.page.html)
        beside = self._hand_off(adapter, outcome, url) if self.dedup.enabled else None
        self._count(run.item, outcome, found, url)
        dropped = self.drops.reason(outcome)
        if not dropped and self.clusters is not None:
            dropped = self.clusters.place(adapter, url or "", beside)
        return PageResult(run.item, outcome, beside, dropped)

    def closing_warning(self, attaching: bool) -> str:
        """The warning for a run whose every item failed (said once, at the end); "" for
        any other run. ``attaching``: the spider middleware attached the pages."""
        return self.tally.all_failed_warning(attaching=attaching, info_field=self.config.fields.info)

    def _settled(self, task: ExtractionTask, page: Page) -> ExtractionOutcome | None:
        """The failed outcome of a missing page, or of one over ``MAINC_MAX_PAGE_SIZE``;
        None when the page is to be extracted."""
        if page.html is None:
            return failed(task, "no_page", page.missing)
        size = len(task.page) if page.size is None else page.size
        limit = self.config.max_page_size
        if size <= limit:
            return None
        return failed(task, "too_large", f"page too large: {size:,} > MAINC_MAX_PAGE_SIZE ({limit:,})")

    def _hand_off(
        self, adapter: ItemAdapter, outcome: ExtractionOutcome, url: str | None
    ) -> Fingerprint | None:
        """The worker's fingerprint into its field, and the page URL into the URL field
        where the item has none. Returns the fingerprint when the items are not to keep it
        (no fingerprint field), to go on beside the item."""
        fingerprint, dedup = outcome.fingerprint, self.dedup
        beside = None
        if fingerprint is not None and dedup.fingerprint_field:
            set_if_declared(adapter, dedup.fingerprint_field, fingerprint.to_dict())
        else:
            beside = fingerprint
        if url and not adapter.get(dedup.url_field):
            set_if_declared(adapter, dedup.url_field, url)
        return beside

    def _count(self, item: Any, outcome: ExtractionOutcome, found: tuple[str, ...], url: str | None) -> None:
        """Every stat of one page (``_mainc_stats``), the INFO lines of an item class that
        lacks optional fields (once per class), the warnings said once."""
        extraction, stats = outcome.extraction, self.stats
        self.tally.add(outcome.failure, extraction.reason)
        for key in outcome_stats(outcome.failure, extraction):
            stats.inc(key)
        if outcome.fallback is not None:
            for key in fallback_stats(outcome.fallback.outcome):
                stats.inc(key)
            if outcome.fallback.error:
                self.fallback_failures.add(outcome.fallback, url or "")
        if not outcome.failure:
            stats.add_milliseconds(MILLISECONDS, extraction.milliseconds)
        elif outcome.failure == "timeout":
            warning = self.tally.thread_timeout_warning(url, self.config.timeout)
            if warning:
                logger.warning("%s", warning)
        for key in metadata_stats(found, bool(self.fields.skipped_metadata(item))):
            stats.inc(key)
        if type(item) not in self._told_undeclared:
            self._told_undeclared.add(type(item))
            for message in self.fields.undeclared_messages(item):
                logger.info("%s", message)
        if logger.isEnabledFor(logging.DEBUG):
            logger.debug(
                "mainc: %s: %s, %d characters in %.1f ms%s",
                url or "(no URL)",
                extraction.algorithm,
                len(extraction.text),
                extraction.milliseconds,
                f", {extraction.reason}" if extraction.reason else "",
            )
