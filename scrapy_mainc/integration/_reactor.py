"""Awaiting work done in other threads from Scrapy's reactor, on asyncio or plain Twisted."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from concurrent.futures import Future
from typing import TypeVar, cast

_T = TypeVar("_T")


def asyncio_available() -> bool:
    """True when Scrapy runs on an asyncio event loop (its default reactor)."""
    try:
        from scrapy.utils.asyncio import is_asyncio_available
    except ImportError:  # Scrapy < 2.14
        from scrapy.utils.reactor import is_asyncio_reactor_installed

        return is_asyncio_reactor_installed()
    return is_asyncio_available()


async def await_future(future: Future[_T], timeout: float | None = None) -> _T:
    """The result of ``future`` (completed in another thread), awaited without blocking the
    reactor. With ``timeout``, TimeoutError after that many seconds; ``future`` is then
    cancelled, which stops it only if it has not started."""
    if asyncio_available():
        wrapped = asyncio.wrap_future(future, loop=asyncio.get_running_loop())
        try:
            return await asyncio.wait_for(wrapped, timeout)
        except asyncio.TimeoutError:  # not the builtin TimeoutError before Python 3.11
            raise TimeoutError(f"no result within {timeout:g} s") from None
    return await _on_twisted(future, timeout)


def _on_twisted(future: Future[_T], timeout: float | None) -> Awaitable[_T]:
    from twisted.internet import defer, reactor

    def cancel(_: defer.Deferred[_T]) -> None:
        future.cancel()

    deferred: defer.Deferred[_T] = defer.Deferred(cancel)

    def fire(finished: Future[_T]) -> None:
        if deferred.called:  # timed out meanwhile
            return
        if finished.cancelled():
            deferred.cancel()
        elif finished.exception() is not None:
            deferred.errback(finished.exception())
        else:
            deferred.callback(finished.result())

    future.add_done_callback(lambda finished: reactor.callFromThread(fire, finished))
    if timeout is not None:

        def timed_out(result: object, seconds: float) -> object:
            raise TimeoutError(f"no result within {seconds:g} s")

        deferred.addTimeout(timeout, reactor, onTimeoutCancel=timed_out)
    return cast("Awaitable[_T]", deferred)
