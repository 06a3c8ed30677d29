"""Archive mode: the items of ``mainc crawl`` from WARC files (``mainc warc``), in one
process or as a Dask job. A layer above the extraction, like the Scrapy layer: the core
never imports it, warcio or Dask.

For a loop of one's own over WARC records::

    from warcio.archiveiterator import ArchiveIterator
    from scrapy_mainc.archive import items_from_records

    with open("crawl.warc.gz", "rb") as stream:
        for item in items_from_records(ArchiveIterator(stream), settings):
            ...  # the item mainc crawl writes for the page: url, main_text, title, published...

where ``settings`` maps ``MAINC_`` setting names to values, as ``-s`` gives them (None: the
defaults). The items are made by the crawl's own per-page runner (``scrapy_mainc.items``),
and each record decoded as the crawl's downloader middleware decodes a response (its
response classes: Scrapy is loaded when the items are made).

``OfflineConfig.from_settings(settings)`` reads the settings for ``run_job`` (the Dask job
on a client of one's own) and ``ArchiveExtractor``. Names are loaded on first access;
warcio (the ``archive`` extra) and Dask (the ``dask`` extra) are imported when first used
(``_optional``).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from importlib import import_module
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..config._offline import OfflineConfig
    from ._items import ArchiveExtractor
    from ._job import run_job
    from ._reader import ArchiveRecord, Damage, read_records
    from ._summary import FileSummary, JobSummary, Problem

#: The names a user calls (docs/api.md, docs/archive.md), and where each is defined; the
#: plumbing of ``mainc warc`` and the Dask job stays in the private modules.
_MODULES = {
    "ArchiveExtractor": "._items",
    "ArchiveRecord": "._reader",
    "Damage": "._reader",
    "FileSummary": "._summary",
    "JobSummary": "._summary",
    "OfflineConfig": "..config._offline",
    "Problem": "._summary",
    "read_records": "._reader",
    "run_job": "._job",
}

__all__ = [
    "ArchiveExtractor",
    "ArchiveRecord",
    "Damage",
    "FileSummary",
    "JobSummary",
    "OfflineConfig",
    "Problem",
    "items_from_files",
    "items_from_records",
    "read_records",
    "run_job",
]


def items_from_records(
    records: Iterable[Any], settings: Mapping[str, Any] | None = None, summary: FileSummary | None = None
) -> Iterator[dict[str, Any]]:
    """The items of ``records`` (warcio records, as an ``ArchiveIterator`` yields them, or
    :class:`ArchiveRecord`), made as ``mainc crawl`` makes them with ``settings``
    (``MAINC_`` names); what was read and skipped is counted in ``summary``."""
    from ..config._offline import OfflineConfig
    from ._items import ArchiveExtractor
    from ._reader import ArchiveRecord, from_warcio

    config = OfflineConfig.from_settings(settings)
    limit = config.mainc.max_page_size
    with ArchiveExtractor(config, summary) as extractor:
        yield from extractor.items(
            record if isinstance(record, ArchiveRecord) else from_warcio(record, limit) for record in records
        )


def items_from_files(
    paths: Iterable[str | Path], settings: Mapping[str, Any] | None = None, summary: FileSummary | None = None
) -> Iterator[dict[str, Any]]:
    """The items of the WARC and WACZ files (or folders, or glob patterns) ``paths``, as
    ``mainc warc`` writes them; counts and problems of all the files in ``summary``."""
    from ..config._offline import OfflineConfig
    from ._files import file_items
    from ._items import ArchiveExtractor
    from ._sources import archive_files
    from ._summary import FileSummary

    config = OfflineConfig.from_settings(settings)
    total = summary if summary is not None else FileSummary("")
    with ArchiveExtractor(config, total) as extractor:
        for path in archive_files([str(path) for path in paths]):
            one = FileSummary(str(path))  # its problems name it, and its own counts judge it
            extractor.begin(one)
            try:
                yield from file_items(path, extractor)
            finally:
                total.add(one)
                extractor.begin(total)


def __getattr__(name: str) -> Any:
    module = _MODULES.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(import_module(module, __name__), name)


def __dir__() -> list[str]:
    return sorted([*globals(), *_MODULES])
