"""Worker processes driven by the asyncio event loop itself: no helper threads per task.

The ``process`` mode of :mod:`scrapy_mainc.integration._workers` hands pages to workers from one thread
per worker. Those threads and the reactor thread then pass Python's GIL back and forth
several times per page, which costs the crawler more CPU than the extraction saves on
small pages. Where Scrapy runs on an asyncio loop (its default), this pool does the same
job from the loop: a page is written to an idle worker's pipe, the loop calls back when
the result pipe is readable, and a timer per page enforces the budget.

Writing a page blocks the loop only while the idle worker, waiting in ``recv``, copies it
(microseconds for a normal page, milliseconds at ``MAINC_MAX_PAGE_SIZE``); reading a
result happens only once the worker has started to send it. Starting a worker (the first
start also starts the forkserver) happens in a short-lived thread, never on the loop.
"""

from __future__ import annotations

import asyncio
import collections
import threading
import time
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from typing import Any

from ._workers import (
    STARTUP_TIMEOUT,
    STOP_TIMEOUT,
    WORKER_PROCESS_NAME,
    ExtractionOutcome,
    ExtractionTask,
    TaskFunction,
    _process_context,
    _timeout_reason,
    _worker_main,
    failed,
    run_extraction,
)


@dataclass(eq=False)
class _Worker:
    """One worker process and the page it is on, if any."""

    process: Any
    connection: Connection
    task: ExtractionTask | None = None
    future: asyncio.Future[ExtractionOutcome] | None = None
    timer: asyncio.TimerHandle | None = field(default=None, repr=False)


class LoopProcessPool:
    """``size`` worker processes driven from ``loop``; ``budget`` seconds per page.

    ``function`` and ``preload`` are as for :class:`scrapy_mainc.integration._workers.WorkerPool`.
    """

    def __init__(
        self,
        loop: asyncio.AbstractEventLoop,
        size: int,
        budget: float,
        function: TaskFunction = run_extraction,
        preload: tuple[str, ...] = (),
    ) -> None:
        self.mode = "process"
        self._loop = loop
        self._size = size
        self._budget = budget
        self._function = function
        self._preload = preload
        self._context = _process_context()
        self._pending: collections.deque[tuple[ExtractionTask, asyncio.Future[ExtractionOutcome]]]
        self._pending = collections.deque()
        self._idle: list[_Worker] = []
        self._workers: set[_Worker] = set()
        self._starting = 0
        self._helpers: list[threading.Thread] = []  # starters and reapers, for close()
        self._closed = False
        for _ in range(size):
            self._start_worker()

    def submit(self, task: ExtractionTask) -> asyncio.Future[ExtractionOutcome]:
        """Queue ``task``; the future always gets an outcome, never an exception."""
        future: asyncio.Future[ExtractionOutcome] = self._loop.create_future()
        if self._closed:
            future.set_result(failed(task, "closed", "not extracted: the worker pool is closed"))
            return future
        self._pending.append((task, future))
        if len(self._workers) + self._starting < self._size:  # after failed starts
            self._start_worker()
        self._dispatch()
        return future

    def close(self, wait_seconds: float = 0.0) -> None:
        """Fail queued pages, ask idle workers to exit, kill busy ones.

        Waits up to ``wait_seconds`` for the processes to be gone; never longer.
        """
        if self._closed:
            return
        self._closed = True
        while self._pending:
            task, future = self._pending.popleft()
            _settle(future, failed(task, "closed", "not extracted: the worker pool is closed"))
        workers, self._workers, self._idle = list(self._workers), set(), []
        for worker in workers:
            self._forget(worker)
            if worker.task is not None:
                _settle(worker.future, failed(worker.task, "closed", "not extracted: closed"))
                worker.process.kill()
            else:
                _send_quietly(worker.connection, None)
        self._helper(_reap, workers)
        deadline = time.monotonic() + wait_seconds
        for helper in self._helpers:
            helper.join(max(0.0, deadline - time.monotonic()))

    def kill_workers(self) -> None:
        """Kill every worker process now (their current pages fail as ``worker_died``)."""
        for worker in list(self._workers):
            if worker.process.is_alive():
                worker.process.kill()

    # --- dispatching and results --------------------------------------------------------

    def _dispatch(self) -> None:
        while self._idle and self._pending:
            task, future = self._pending.popleft()
            if future.done():  # cancelled by its caller
                continue
            worker = self._idle.pop()
            try:
                worker.connection.send(task)
            except (OSError, ValueError):  # died while idle: the page never reached it
                self._pending.appendleft((task, future))
                self._replace(worker)
                continue
            worker.task, worker.future = task, future
            worker.timer = self._loop.call_later(self._budget, self._overrun, worker)

    def _readable(self, worker: _Worker) -> None:
        """The loop's reader callback: a result, or EOF from a worker that died."""
        try:
            outcome = worker.connection.recv()
        except (OSError, EOFError):
            worker.process.join(0)  # reaps it if it is gone already; never waits
            code = worker.process.exitcode
            reason = "worker died" + (f" (exit code {code})" if code is not None else "")
            self._finish(worker, failed(_task_of(worker), "worker_died", reason))
            self._replace(worker)
            return
        if worker.task is None:  # nothing was asked: the worker is out of step
            self._replace(worker)
            return
        self._finish(worker, outcome)
        self._idle.append(worker)
        self._dispatch()

    def _overrun(self, worker: _Worker) -> None:
        worker.timer = None
        if worker.task is None:
            return
        worker.process.kill()
        self._finish(worker, failed(worker.task, "timeout", _timeout_reason(self._budget)))
        self._replace(worker)

    def _finish(self, worker: _Worker, outcome: ExtractionOutcome) -> None:
        if worker.timer is not None:
            worker.timer.cancel()
            worker.timer = None
        if worker.task is not None:
            _settle(worker.future, outcome)
        worker.task = worker.future = None

    # --- starting and replacing workers ------------------------------------------------

    def _replace(self, worker: _Worker) -> None:
        """Drop ``worker`` (killing it if needed) and start another."""
        self._forget(worker)
        self._workers.discard(worker)
        if worker in self._idle:
            self._idle.remove(worker)
        if worker.process.is_alive():
            worker.process.kill()
        self._helper(_reap, [worker])
        if not self._closed:
            self._start_worker()

    def _helper(self, target: Any, *args: Any) -> None:
        """Run ``target(*args)`` in a daemon thread that close() may wait for."""
        self._helpers = [helper for helper in self._helpers if helper.is_alive()]
        helper = threading.Thread(target=target, args=args, name="mainc-helper", daemon=True)
        self._helpers.append(helper)
        helper.start()

    def _forget(self, worker: _Worker) -> None:
        if worker.timer is not None:
            worker.timer.cancel()
            worker.timer = None
        try:
            self._loop.remove_reader(worker.connection.fileno())
        except (OSError, ValueError):  # already closed
            pass

    def _start_worker(self) -> None:
        self._starting += 1

        def start() -> None:
            started: tuple[Any, Connection] | str
            try:
                started = _start_process(self._context, self._function, self._preload)
            except Exception as exc:  # noqa: BLE001 - reported to a waiting page below
                started = f"{type(exc).__name__}: {exc}"
            if self._closed and not isinstance(started, str):  # closed meanwhile: stop it here
                _send_quietly(started[1], None)
                _reap([_Worker(*started)])
                return
            try:
                self._loop.call_soon_threadsafe(self._started, started)
            except RuntimeError:  # the loop is gone: nobody will use this worker
                if not isinstance(started, str):
                    _send_quietly(started[1], None)

        self._helper(start)

    def _started(self, started: tuple[Any, Connection] | str) -> None:
        self._starting -= 1
        if isinstance(started, str):  # could not start: fail one waiting page, not all
            if self._pending:
                task, future = self._pending.popleft()
                _settle(future, failed(task, "worker_died", f"worker died: {started}"))
            if not self._closed and self._pending:  # else submit() restores the pool size
                self._start_worker()
            return
        process, connection = started
        worker = _Worker(process, connection)
        if self._closed:
            _send_quietly(connection, None)
            self._helper(_reap, [worker])
            return
        self._workers.add(worker)
        self._loop.add_reader(connection.fileno(), self._readable, worker)
        self._idle.append(worker)
        self._dispatch()


def _start_process(
    context: Any, function: TaskFunction, preload: tuple[str, ...]
) -> tuple[Any, Connection] | str:
    """Start a worker and wait until it is ready (in a helper thread)."""
    parent, child = context.Pipe()
    process = context.Process(
        target=_worker_main, args=(child, function, preload), name=WORKER_PROCESS_NAME, daemon=True
    )
    process.start()
    child.close()
    try:
        if parent.poll(STARTUP_TIMEOUT) and parent.recv() == "ready":
            return process, parent
    except (OSError, EOFError):
        pass
    process.kill()
    process.join(STOP_TIMEOUT)
    parent.close()
    return f"could not start a worker process (exit code {process.exitcode})"


def _reap(workers: list[_Worker]) -> None:
    """Wait for workers to exit (killing those that do not) and close their pipes."""
    for worker in workers:
        worker.process.join(STOP_TIMEOUT)
        if worker.process.is_alive():
            worker.process.kill()
            worker.process.join(STOP_TIMEOUT)
        worker.connection.close()


def _settle(future: asyncio.Future[ExtractionOutcome] | None, outcome: ExtractionOutcome) -> None:
    if future is not None and not future.done():
        future.set_result(outcome)


def _send_quietly(connection: Connection, message: object) -> None:
    try:
        connection.send(message)
    except (OSError, ValueError):
        pass


def _task_of(worker: _Worker) -> ExtractionTask:
    return worker.task if worker.task is not None else ExtractionTask("")
