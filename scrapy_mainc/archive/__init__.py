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
defaults). The items are made by the Scrapy layer's own steps (its item adapter, response
classes and pipeline code, ``scrapy_mainc.integration``), so Scrapy is loaded when they are.

Names are loaded on first access; warcio (the ``archive`` extra) and Dask (the ``dask``
extra) are imported when first used (``_optional``).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from importlib import import_module
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..config._offline import OfflineConfig
    from ._files import JsonLines, file_items
    from ._items import ArchiveExtractor, http_date
    from ._job import dask_client, part_path, read_file, run_job
    from ._reader import ArchiveRecord, Damage, from_warcio, read_records
    from ._run import ArchiveJob, run_here
    from ._sources import archive_files
    from ._summary import FileSummary, JobSummary, Problem

_MODULES = {
    "ArchiveExtractor": "._items",
    "ArchiveJob": "._run",
    "ArchiveRecord": "._reader",
    "Damage": "._reader",
    "FileSummary": "._summary",
    "JobSummary": "._summary",
    "JsonLines": "._files",
    "OfflineConfig": "..config._offline",
    "Problem": "._summary",
    "archive_files": "._sources",
    "dask_client": "._job",
    "file_items": "._files",
    "from_warcio": "._reader",
    "http_date": "._items",
    "part_path": "._job",
    "read_file": "._job",
    "read_records": "._reader",
    "run_here": "._run",
    "run_job": "._job",
}

__all__ = [
    "ArchiveExtractor",
    "ArchiveJob",
    "ArchiveRecord",
    "Damage",
    "FileSummary",
    "JobSummary",
    "JsonLines",
    "OfflineConfig",
    "Problem",
    "archive_files",
    "dask_client",
    "file_items",
    "from_warcio",
    "http_date",
    "items_from_files",
    "items_from_records",
    "part_path",
    "read_file",
    "read_records",
    "run_here",
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
