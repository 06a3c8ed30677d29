"""What a crawl checks before its engine starts, and how a crawl that cannot run stops.

The add-on (``update_settings``) and every component (``from_crawler``) call
:func:`check_crawl` first, then read their configuration through :func:`checked`, so a bad
value (``MAINC_WORKER_MODE = "threads"``, ``MAINC_TIMEOUT = "abc"``, a spider's unknown
``mainc_algorithm``) stops the crawl: all before the engine exists, so before any request
is sent or any feed is opened.

:func:`check_crawl` also says, once per crawl at WARNING, each ``MAINC_`` setting name
that is not a registered setting (a misspelt ``ALGORITHM``, most likely, which Scrapy
would ignore silently), with the nearest registered name; the crawl goes on. And it makes
sure that the crawl does not run inside a scrapy_mainc worker process. Worker processes
start with multiprocessing's forkserver or spawn method, which imports the main script
again in every worker, where a script that starts its crawl without the
``if __name__ == "__main__":`` guard would crawl again: every page fetched once more per
worker, the same feeds written by several crawls at once. That copy of the crawl is stopped
here, so the worker finishes importing the script and then serves the crawl that started
it.

A crawl that cannot run stops with :func:`stop_crawl`: one ERROR line, then a
:class:`StartupError` raised out of ``update_settings`` or ``from_crawler``. Scrapy counts
that as a crawl that failed to start: ``scrapy crawl`` exits with status 1 (Scrapy 2.15 and
later), a script finds ``process.bootstrap_failed`` true. Scrapy's ``AsyncCrawlerRunner``
(``scrapy crawl``, ``AsyncCrawlerProcess``) runs each crawl in a task nobody awaits, whose
exception asyncio would report again with its whole traceback ("Task exception was never
retrieved"); the ERROR line has said it all, so that task's exception is marked retrieved.
``CrawlerProcess`` returns a Deferred instead, and Twisted reports a failed Deferred that
the script drops (``Unhandled error in Deferred``) whatever the error: nothing here can
reach it.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, TypeVar
from weakref import WeakSet

from scrapy.settings import SETTINGS_PRIORITIES
from scrapy.utils.misc import load_object

from ..config._registry import NEEDS, idle_settings, unknown_settings
from ..items._workers import WORKER_PROCESS_NAME

if TYPE_CHECKING:
    from scrapy.crawler import Crawler
    from scrapy.settings import BaseSettings

logger = logging.getLogger(__name__)

_S = TypeVar("_S")
_T = TypeVar("_T")

#: The one line a crawl started inside a worker process logs before it stops.
WORKER_PROCESS_MESSAGE = (
    "mainc: this crawl runs inside a scrapy_mainc worker process: the script that started "
    "the crawl ran again here, because the spawn and forkserver start methods import it "
    "again in every worker process, and a script that starts a crawl must keep its "
    'top-level code under `if __name__ == "__main__":`. This copy of the crawl is stopped '
    "before its spider opens; the worker serves the crawl that started it"
)
#: The coroutine of the task in which Scrapy's AsyncCrawlerRunner runs a crawl.
SCRAPY_CRAWL_TASK = "AsyncCrawlerRunner._crawl_and_track"

#: Crawlers whose setting names were checked: each unknown name is said once per crawl.
_NAMES_CHECKED: WeakSet[Crawler] = WeakSet()


class StartupError(Exception):
    """A crawl that scrapy_mainc stopped before its engine started; the reason was logged
    at ERROR, in one line, when this was raised."""


def in_worker_process() -> bool:
    """True in a scrapy_mainc worker process (while it imports the main script, too)."""
    return multiprocessing.current_process().name == WORKER_PROCESS_NAME


def check_crawl(crawler: Crawler | None) -> None:
    """Stop a crawl started inside a worker process; say unknown setting names once."""
    if in_worker_process():
        raise stop_crawl(WORKER_PROCESS_MESSAGE)
    if crawler is None or crawler in _NAMES_CHECKED:
        return
    _NAMES_CHECKED.add(crawler)
    warn_of_unknown_settings(crawler.settings)
    warn_of_idle_settings(crawler.settings)


def warn_of_unknown_settings(settings: BaseSettings) -> None:
    """One WARNING for each ``MAINC_`` name of ``settings`` that is not a registered setting."""
    for name, nearest in unknown_settings(settings):
        hint = f"; did you mean {nearest}?" if nearest else " (see the settings reference)"
        logger.warning("mainc: %s is not a scrapy_mainc setting and is ignored%s", name, hint)


def warn_of_idle_settings(settings: BaseSettings) -> None:
    """One WARNING for each setting the user set that does nothing without another (the
    add-on's defaults are not the user's): :func:`warn_of_idle`."""
    addon = SETTINGS_PRIORITIES["addon"]
    names = dict.fromkeys([*NEEDS, *NEEDS.values()])  # in order: the warnings' order
    warn_of_idle({name: settings.get(name) for name in names if (settings.getpriority(name) or 0) > addon})


def warn_of_idle(given: Mapping[str, Any]) -> None:
    """One WARNING for each setting of ``given`` (the settings the user set: a crawl's, or
    ``mainc warc``'s ``-s`` ones) that does nothing without another, which has no value."""
    for name, needed in idle_settings(given, given.get):
        logger.warning("mainc: %s is set but %s is not, so it does nothing", name, needed)


def enabled_order(settings: BaseSettings, setting: str, component: type) -> int | None:
    """The order of ``component`` (or a subclass) in the component dictionary ``setting``
    (with its ``_BASE``), given as a class or an import path; None unless it is enabled."""
    for key, order in settings.getwithbase(setting).items():
        if order is not None and _is_a(key, component):
            return int(order)
    return None


def enabled_before(settings: BaseSettings, setting: str, component: type, default: int | None) -> list[str]:
    """``"name (order)"`` of each enabled component of ``setting`` ordered before
    ``component`` (at its order there, else at ``default``; none when both are None)."""
    order = enabled_order(settings, setting, component)
    order = default if order is None else order
    if order is None:
        return []
    before = [
        (int(value), key if isinstance(key, str) else f"{key.__module__}.{key.__qualname__}")
        for key, value in settings.getwithbase(setting).items()
        if value is not None and int(value) < order and not _is_a(key, component)
    ]
    return [f"{name} ({value})" for value, name in sorted(before)]


def _is_a(key: object, component: type) -> bool:
    """Whether the component dictionary key ``key`` (a class or an import path) is
    ``component`` or a subclass of it."""
    try:
        loaded = load_object(key) if isinstance(key, str) else key
    except (ImportError, AttributeError, NameError, ValueError):
        return False  # Scrapy reports a path it cannot load when it builds the components
    return isinstance(loaded, type) and issubclass(loaded, component)


def checked(read: Callable[[_S], _T], source: _S) -> _T:
    """``read(source)``, where a ValueError (a bad setting value) stops the crawl in one line."""
    try:
        return read(source)
    except ValueError as error:
        raise stop_crawl(f"mainc: {error}") from None


def stop_crawl(message: str) -> StartupError:
    """Log ``message`` at ERROR; return the error that stops the crawl, for the caller to
    raise (see the module docstring)."""
    logger.error("%s", message)
    error = StartupError(message)
    _retrieve_when_done(_crawl_task())
    return error


def _crawl_task() -> asyncio.Task[Any] | None:
    """The task of Scrapy's AsyncCrawlerRunner this code runs in, if it runs in one."""
    try:
        task = asyncio.current_task()
    except RuntimeError:  # no running event loop: a Deferred-based crawl (CrawlerProcess)
        return None
    coroutine = task.get_coro() if task is not None else None
    return task if getattr(coroutine, "__qualname__", "") == SCRAPY_CRAWL_TASK else None


def _retrieve_when_done(task: asyncio.Task[Any] | None) -> None:
    if task is not None:
        task.add_done_callback(_retrieve)


def _retrieve(task: asyncio.Task[Any]) -> None:
    if not task.cancelled():
        task.exception()  # marks it retrieved: asyncio does not report it again
