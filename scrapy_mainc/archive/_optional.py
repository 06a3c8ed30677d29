"""The archive mode's optional dependencies, probed here and nowhere else: warcio (reading
WARC files: the ``archive`` extra) and Dask distributed (the cluster job: the ``dask``
extra), each imported on first use, with the command that installs it when missing; and
the decoders of the ``br`` and ``zstd`` content encodings (brotli and Zstandard, which
Scrapy installs), None when absent."""

from __future__ import annotations

from importlib import import_module
from types import ModuleType
from typing import Any

#: Extra -> the command that installs it (the package is on no index: its extras install
#: from a clone or a wheel, ``pip install '/path/to/scrapy_mainc[archive]'``).
INSTALL_HINTS = {
    "archive": "pip install warcio (the package's 'archive' extra)",
    "dask": "pip install warcio \"dask[distributed]\" (the package's 'dask' extra)",
}


class MissingDependency(ImportError):
    """An optional dependency of the archive mode is not installed; the message says how
    to install it."""


def _load(module: str, extra: str, purpose: str) -> ModuleType:
    try:
        return import_module(module)
    except ImportError as exc:
        raise MissingDependency(f"{purpose} needs {module.split('.')[0]}: {INSTALL_HINTS[extra]}") from exc


def require_warcio() -> Any:
    """``warcio.archiveiterator`` (its ``ArchiveIterator``)."""
    return _load("warcio.archiveiterator", "archive", "reading WARC files")


def require_distributed() -> Any:
    """``dask.distributed`` (``Client``, ``LocalCluster``, ``as_completed``, ``get_worker``)."""
    return _load("dask.distributed", "dask", "the Dask job")


def brotli_module() -> ModuleType | None:
    """``brotli`` (Google's, which Scrapy installs), or None."""
    return _maybe("brotli")


def zstd_module() -> ModuleType | None:
    """Zstandard: ``compression.zstd`` (Python 3.14) or ``backports.zstd`` (Scrapy installs
    it before 3.14), or None."""
    return _maybe("compression.zstd") or _maybe("backports.zstd")


def _maybe(module: str) -> ModuleType | None:
    try:
        return import_module(module)
    except ImportError:
        return None
