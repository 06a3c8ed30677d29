"""The extraction pool: pages run in worker processes, in threads, or inline, each within
its time budget, and every page's future settles (docs/workers.md tells the user's side).

One implementation for every mode, driven by an asyncio loop: Scrapy's own when the crawl
runs on one, else one of the pool's own in a thread (:func:`loop_in_thread`). On the
loop, pages go to the least busy slot, and a timer enforces the budget of each slot's
running page:

- ``process``: a slot is a worker process (started by a helper thread, never on the loop).
  Pages are written to its pipe; the loop reads each result when the pipe is readable, so
  no thread stands between the loop and the workers. Once every worker has a page, each
  gets the next one too (``PAGES_PER_WORKER``), if it fits in the pipe's buffer, to start
  on as soon as it has sent its result. A worker that dies or overruns the budget is
  killed and replaced: only the page it was on is lost, the page waiting behind it goes
  to another worker; a result that cannot be unpickled here costs its page only.
  A worker that stops while it imports the main script, because that script starts the
  archive mode at its top level (``_workers.leave_unguarded_script``), means that none can
  start: the pool says so once and runs its pages in threads of this process instead.
- ``thread``: each page runs in a daemon thread; a page over budget settles as ``timeout``
  and is abandoned (a thread cannot be stopped; its late answer is ignored).
- ``inline``: the page runs at once in the caller's thread; no budget.

A doubtful page (``MAINC_FALLBACK``) is two tasks, one after the other: the extraction, in
``budget``, then the fallback step, in ``fallback_budget``; the page's future settles with
both joined (``_workers.with_fallback``), so a fallback over its budget, or whose worker
died, costs the page its fallback, not its extraction.

:meth:`WorkerPool.submit` returns a :class:`concurrent.futures.Future` that always gets an
outcome, never an exception (the pipeline awaits it with ``integration._reactor``'s
``await_future``, the archive mode waits for it); a caller may cancel a page not yet handed
to a slot. :meth:`WorkerPool.close` settles every unfinished page as
``closed`` at once, kills busy workers and never blocks longer than ``wait_seconds``.

This module holds what callers use from any thread (:class:`WorkerPool`: submit, close);
the pool's work on its loop is in :mod:`._pool_slots` (dispatch, budgets, thread mode) and
:mod:`._pool_processes` (the worker processes).
"""

from __future__ import annotations

import asyncio
import threading
import time
from concurrent.futures import Future
from dataclasses import replace

from ..config._mainc_config import WORKER_MODES
from ._pool_processes import ProcessSlots
from ._pool_slots import closed_outcome, described, settle
from ._workers import (
    ExtractionOutcome,
    ExtractionTask,
    TaskFunction,
    call,
    failed,
    run_extraction,
    with_fallback,
)


class WorkerPool(ProcessSlots):
    """Runs tasks in ``mode`` (``process``, ``thread`` or ``inline``) on ``size`` slots.

    ``budget`` is the per-page time limit in seconds (``MAINC_TIMEOUT``), ``fallback_budget``
    the fallback step's (``MAINC_FALLBACK_TIMEOUT``; None: ``budget``). ``function`` is the
    task function, a top-level function so that worker processes can import it. ``preload`` names modules
    that each worker process imports before it takes its first task. ``loop`` is the
    running asyncio loop to drive the pool from (the pool is then created, and used, on
    that loop's thread); without one the pool runs a loop of its own in a thread.
    """

    def __init__(
        self,
        mode: str,
        size: int,
        budget: float,
        function: TaskFunction = run_extraction,
        fallback_budget: float | None = None,
        preload: tuple[str, ...] = (),
        loop: asyncio.AbstractEventLoop | None = None,
    ) -> None:
        if mode not in WORKER_MODES:
            raise ValueError(f"unknown worker mode {mode!r}")
        budgets = (budget, budget if fallback_budget is None else fallback_budget)
        super().__init__(mode, size, function, preload, budgets)
        self._gate = threading.Lock()  # orders submit() and close() from other threads
        self._own_thread: threading.Thread | None = None
        self._loop = loop
        if mode == "inline":
            return
        if self._loop is None:
            self._loop, self._own_thread = loop_in_thread()
        self._on_loop(self._open)

    def submit(self, task: ExtractionTask) -> Future[ExtractionOutcome]:
        """Queue ``task``; the future always completes with an outcome, never an exception.
        When the extraction says the fallback is due, its step is queued in turn, and the
        future settles once it has run (cancelling the future cancels the task it waits on,
        if that has not started)."""
        extracted = self._submit(task)
        if not task.fallback:
            return extracted
        page: Future[ExtractionOutcome] = Future()
        waits_on = [extracted]  # the page's tasks, the one it waits on last
        page.add_done_callback(lambda done: waits_on[-1].cancel() if done.cancelled() else None)
        extracted.add_done_callback(lambda done: self._fall_back(task, done, page, waits_on))
        return page

    def _fall_back(
        self,
        task: ExtractionTask,
        extracted: Future[ExtractionOutcome],
        page: Future[ExtractionOutcome],
        waits_on: list[Future[ExtractionOutcome]],
    ) -> None:
        """A doubtful page's extraction ended: settle ``page`` with it, or queue the
        fallback step and settle ``page`` with both once it has run. Never raises: an
        exception in a done-callback would leave ``page`` unsettled."""
        if extracted.cancelled() or page.cancelled():  # nobody waits for the page any more
            return
        outcome = extracted.result()
        if not outcome.fallback_due:
            settle(page, outcome)
            return
        try:
            step = self._submit(replace(task, fallback_for=outcome.extraction.text))
        except Exception as exc:  # noqa: BLE001 - the page keeps its extraction
            reason = f"error: the fallback step could not be queued: {described(exc)}"
            settle(page, with_fallback(outcome, failed(task, "error", reason)))
            return
        waits_on.append(step)
        step.add_done_callback(
            lambda ended: None if ended.cancelled() else settle(page, with_fallback(outcome, ended.result()))
        )

    def _submit(self, task: ExtractionTask) -> Future[ExtractionOutcome]:
        future: Future[ExtractionOutcome] = Future()
        if self._loop is None:  # inline
            future.set_result(closed_outcome(task) if self._closed else call(self._function, task))
            return future
        with self._gate:  # a close() from another thread comes wholly before or after
            accepted = not self._closed and self._on_loop(self._accept, task, future)
        if not accepted:  # closed, or the pool's own loop is gone
            future.set_result(closed_outcome(task))
        return future

    def close(self, wait_seconds: float = 0.0) -> None:
        """Settle every page not finished as ``closed`` (queued ones, and those in a worker,
        which is killed), ask idle workers to exit, and wait up to ``wait_seconds`` for the
        processes to be gone: never longer."""
        deadline = time.monotonic() + wait_seconds
        with self._gate:
            if self._closed:
                return
            self._closed = True
        if self._loop is None:
            return
        shut = threading.Event()
        if self._on_loop(self._shut_down, shut) and not shut.is_set():
            shut.wait(_left(deadline))
        for helper in list(self._helpers):
            helper.join(_left(deadline))
        if self._own_thread is not None:
            self._on_loop(self._loop.stop)
            self._own_thread.join(_left(deadline))

    def kill_workers(self) -> None:
        """Kill every worker process now (their current pages fail as ``worker_died``)."""
        if self._loop is not None:
            self._on_loop(self._kill_all)


def _left(deadline: float) -> float:
    return max(0.0, deadline - time.monotonic())


def loop_in_thread(name: str = "mainc-pool") -> tuple[asyncio.AbstractEventLoop, threading.Thread]:
    """A new event loop, running in a daemon thread named ``name`` until stopped (then
    closed)."""
    loop = asyncio.new_event_loop()

    def run() -> None:
        asyncio.set_event_loop(loop)
        try:
            loop.run_forever()
        finally:
            loop.close()

    thread = threading.Thread(target=run, name=name, daemon=True)
    thread.start()
    return loop, thread
