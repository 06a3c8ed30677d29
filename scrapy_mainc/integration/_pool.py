"""The extraction pool: pages run in worker processes, in threads, or inline, each within
its time budget, and every page's future settles.

One implementation for every mode, driven by an asyncio event loop: Scrapy's own loop when
the crawl runs on one (its default reactor), else a loop of the pool's own in one thread
(``mainc-pool``; a non-asyncio Twisted reactor, a script, a test). On that loop, a page is
handed to an idle slot and a timer per page enforces the budget:

- ``process``: a slot is a worker process (:func:`~._workers.start_worker`, started in a
  short-lived helper thread, never on the loop). The page is written to its pipe, and the
  loop calls back when the result pipe is readable: no thread between the loop and the
  workers, so no GIL hand-off per page. A worker that dies, or overruns the budget (it is
  killed), is replaced; only the page it was on is lost, and a worker found dead while
  idle costs nothing. A result that arrives whole but cannot be unpickled here costs its
  page only (failure ``error``); the worker goes on.
- ``thread``: a slot runs each page in a short-lived daemon thread. A page over budget is
  abandoned: its future settles as ``timeout`` and the slot takes the next page, while the
  thread runs on in the background (a thread cannot be stopped) and its late result is
  ignored.
- ``inline``: the page runs at once in the caller's thread; the budget cannot be enforced.

:meth:`WorkerPool.submit` returns a :class:`concurrent.futures.Future` that always gets an
outcome, never an exception (await it with ``_reactor.await_future``); a caller may cancel
a page that has not started. :meth:`WorkerPool.close` settles every page not finished as
``closed`` at once, kills busy workers and never blocks longer than ``wait_seconds``.
"""

from __future__ import annotations

import asyncio
import collections
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, InvalidStateError
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from typing import Any

from ._config import WORKER_MODES
from ._workers import (
    STOP_TIMEOUT,
    ExtractionOutcome,
    ExtractionTask,
    TaskFunction,
    call,
    failed,
    process_context,
    run_extraction,
    start_worker,
    timeout_reason,
)

_Page = tuple[ExtractionTask, "Future[ExtractionOutcome]"]


@dataclass(eq=False)
class _Slot:
    """Room for one page at a time: a worker process (process mode), or a place for one
    page thread (thread mode); and the page it is on, if any."""

    process: Any = None
    connection: Connection | None = None
    task: ExtractionTask | None = None
    future: Future[ExtractionOutcome] | None = None
    timer: asyncio.TimerHandle | None = field(default=None, repr=False)
    #: Thread mode: the number of the page, so that an abandoned thread's answer is ignored.
    turn: int = 0


class WorkerPool:
    """Runs tasks in ``mode`` (``process``, ``thread`` or ``inline``) on ``size`` slots.

    ``budget`` is the per-page time limit in seconds. ``function`` is the task function, a
    top-level function so that worker processes can import it. ``preload`` names modules
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
        preload: tuple[str, ...] = (),
        loop: asyncio.AbstractEventLoop | None = None,
    ) -> None:
        if mode not in WORKER_MODES:
            raise ValueError(f"unknown worker mode {mode!r}")
        self.mode = mode
        self._size = size
        self._budget = budget
        self._function = function
        self._preload = preload
        self._context = process_context() if mode == "process" else None
        self._pending: collections.deque[_Page] = collections.deque()
        self._slots: set[_Slot] = set()  # every slot (process mode: every live worker)
        self._idle: list[_Slot] = []
        self._starting = 0  # worker processes being started
        self._helpers: list[threading.Thread] = []  # starters and reapers, for close()
        self._gate = threading.Lock()  # orders submit() and close() from other threads
        self._closed = False
        self._own_thread: threading.Thread | None = None
        self._loop = loop
        if mode == "inline":
            return
        if self._loop is None:
            self._loop, self._own_thread = _loop_in_thread()
        self._on_loop(self._open)

    def submit(self, task: ExtractionTask) -> Future[ExtractionOutcome]:
        """Queue ``task``; the future always completes with an outcome, never an exception."""
        future: Future[ExtractionOutcome] = Future()
        if self._loop is None:  # inline
            future.set_result(_closed(task) if self._closed else call(self._function, task))
            return future
        with self._gate:  # a close() from another thread comes wholly before or after
            accepted = not self._closed and self._on_loop(self._accept, task, future)
        if not accepted:  # closed, or the pool's own loop is gone
            future.set_result(_closed(task))
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

    # --- on the loop: accepting, dispatching, finishing pages ---------------------------

    def _open(self) -> None:
        if self.mode == "thread":
            self._slots = {_Slot() for _ in range(self._size)}
            self._idle = list(self._slots)
        else:
            for _ in range(self._size):
                self._start_worker()

    def _accept(self, task: ExtractionTask, future: Future[ExtractionOutcome]) -> None:
        if self._closed:  # closed after submit() queued this call
            _settle(future, _closed(task))
            return
        self._pending.append((task, future))
        if self.mode == "process" and len(self._slots) + self._starting < self._size:
            self._start_worker()  # after failed starts
        self._dispatch()

    def _dispatch(self) -> None:
        while self._idle and self._pending:
            task, future = self._pending.popleft()
            if not (future.running() or future.set_running_or_notify_cancel()):
                continue  # cancelled by its caller before it started
            slot = self._idle.pop()
            if self.mode == "thread":
                self._run_in_thread(slot, task, future)
            elif not self._send(slot, task, future):
                continue
            slot.task, slot.future = task, future
            slot.timer = self._loop_now().call_later(self._budget, self._overrun, slot)

    def _finish(self, slot: _Slot, outcome: ExtractionOutcome) -> None:
        if slot.timer is not None:
            slot.timer.cancel()
            slot.timer = None
        if slot.future is not None:
            _settle(slot.future, outcome)
        slot.task = slot.future = None

    def _free(self, slot: _Slot) -> None:
        """``slot`` takes the next page."""
        self._idle.append(slot)
        self._dispatch()

    def _overrun(self, slot: _Slot) -> None:
        slot.timer = None
        if slot.task is None:
            return
        self._finish(slot, failed(slot.task, "timeout", timeout_reason(self._budget)))
        if self.mode == "thread":
            self._free(slot)  # the thread runs on; its answer will be ignored
        else:
            self._replace(slot)  # kills it

    def _shut_down(self, shut: threading.Event) -> None:
        while self._pending:
            task, future = self._pending.popleft()
            _settle(future, _closed(task))
        slots, self._slots, self._idle = list(self._slots), set(), []
        for slot in slots:
            self._forget(slot)
            if slot.task is not None:
                self._finish(slot, _closed(slot.task))
                if slot.process is not None:
                    slot.process.kill()
            elif slot.connection is not None:
                _send_quietly(slot.connection, None)
        workers = [slot for slot in slots if slot.process is not None]
        if workers:
            self._helper(_reap, workers)
        shut.set()

    def _kill_all(self) -> None:
        for slot in list(self._slots):
            if slot.process is not None and slot.process.is_alive():
                slot.process.kill()

    # --- thread mode ----------------------------------------------------------------------

    def _run_in_thread(self, slot: _Slot, task: ExtractionTask, future: Future[ExtractionOutcome]) -> None:
        slot.turn += 1
        turn, loop = slot.turn, self._loop_now()

        def work() -> None:
            outcome = call(self._function, task)
            try:
                loop.call_soon_threadsafe(self._answered, slot, turn, outcome)
            except RuntimeError:  # the pool's loop is gone: nobody waits for it any more
                pass

        threading.Thread(target=work, name="mainc-extract", daemon=True).start()

    def _answered(self, slot: _Slot, turn: int, outcome: ExtractionOutcome) -> None:
        if slot.turn != turn or slot.task is None:
            return  # abandoned at its budget, or at close: the page was settled then
        self._finish(slot, outcome)
        self._free(slot)

    # --- process mode: worker pipes -------------------------------------------------------

    def _send(self, slot: _Slot, task: ExtractionTask, future: Future[ExtractionOutcome]) -> bool:
        """Write ``task`` to the worker of ``slot``; False when it did not get there."""
        assert slot.connection is not None
        try:
            slot.connection.send(task)
        except (OSError, ValueError):  # died while idle: the page never reached it
            self._pending.appendleft((task, future))
            self._replace(slot)
            return False
        except Exception as exc:  # noqa: BLE001 - could not be pickled: nothing was written
            _settle(future, failed(task, "error", f"error: the page could not be sent: {_described(exc)}"))
            self._idle.append(slot)
            return False
        return True

    def _readable(self, slot: _Slot) -> None:
        """The loop's reader callback: a result, or EOF from a worker that died."""
        assert slot.connection is not None
        try:
            outcome = slot.connection.recv()
        except (OSError, EOFError):
            self._lost(slot)
            return
        except Exception as exc:  # noqa: BLE001 - read whole, but cannot be unpickled here
            reason = f"error: the worker's result could not be read: {_described(exc)}"
            outcome = failed(_task_of(slot), "error", reason)
        if slot.task is None:  # nothing was asked: the worker is out of step
            self._replace(slot)
            return
        self._finish(slot, outcome)
        self._free(slot)

    def _lost(self, slot: _Slot) -> None:
        """The worker of ``slot`` is gone: its page (if any) fails, another one starts."""
        slot.process.join(0)  # reaps it if it is gone already; never waits
        code = slot.process.exitcode
        reason = "worker died" + (f" (exit code {code})" if code is not None else "")
        if slot.task is not None:
            self._finish(slot, failed(slot.task, "worker_died", reason))
        self._replace(slot)

    def _replace(self, slot: _Slot) -> None:
        """Drop the worker of ``slot`` (killing it if needed) and start another."""
        self._forget(slot)
        self._slots.discard(slot)
        if slot in self._idle:
            self._idle.remove(slot)
        if slot.process.is_alive():
            slot.process.kill()
        self._helper(_reap, [slot])
        if not self._closed:
            self._start_worker()

    def _forget(self, slot: _Slot) -> None:
        if slot.timer is not None:
            slot.timer.cancel()
            slot.timer = None
        if slot.connection is not None:
            try:
                self._loop_now().remove_reader(slot.connection.fileno())
            except (OSError, ValueError):  # already closed
                pass

    def _start_worker(self) -> None:
        self._starting += 1
        context, function, preload, loop = self._context, self._function, self._preload, self._loop_now()

        def start() -> None:
            started: tuple[Any, Connection] | str
            try:
                started = start_worker(context, function, preload)
            except Exception as exc:  # noqa: BLE001 - reported to a waiting page below
                started = f"could not start a worker process: {_described(exc)}"
            if self._closed and not isinstance(started, str):  # closed meanwhile: stop it here
                _send_quietly(started[1], None)
                _reap([_Slot(*started)])
                return
            try:
                loop.call_soon_threadsafe(self._started, started)
            except RuntimeError:  # the loop is gone: nobody will use this worker
                if not isinstance(started, str):
                    _send_quietly(started[1], None)
                    _reap([_Slot(*started)])

        self._helper(start)

    def _started(self, started: tuple[Any, Connection] | str) -> None:
        self._starting -= 1
        if isinstance(started, str):  # could not start: fail one waiting page, not all
            if self._pending:
                task, future = self._pending.popleft()
                _settle(future, failed(task, "worker_died", f"worker died: {started}"))
            if not self._closed and self._pending:  # else _accept() restores the pool size
                self._start_worker()
            return
        slot = _Slot(*started)
        if self._closed:
            _send_quietly(slot.connection, None)
            self._helper(_reap, [slot])
            return
        self._slots.add(slot)
        self._loop_now().add_reader(started[1].fileno(), self._readable, slot)
        self._free(slot)

    # --- plumbing ---------------------------------------------------------------------------

    def _helper(self, target: Callable[..., None], *args: Any) -> None:
        """Run ``target(*args)`` in a daemon thread that close() may wait for."""
        self._helpers = [helper for helper in self._helpers if helper.is_alive()]
        helper = threading.Thread(target=target, args=args, name="mainc-helper", daemon=True)
        self._helpers.append(helper)
        helper.start()

    def _on_loop(self, function: Callable[..., None], *args: Any) -> bool:
        """Run ``function(*args)`` on the pool's loop: now when called on it, else soon.
        False when the loop is closed (nothing will run there any more)."""
        loop = self._loop_now()
        try:
            running_here = asyncio.get_running_loop() is loop
        except RuntimeError:
            running_here = False
        if running_here:
            function(*args)
            return True
        try:
            loop.call_soon_threadsafe(function, *args)
        except RuntimeError:
            return False
        return True

    def _loop_now(self) -> asyncio.AbstractEventLoop:
        assert self._loop is not None  # not in inline mode
        return self._loop


def _loop_in_thread() -> tuple[asyncio.AbstractEventLoop, threading.Thread]:
    """A new event loop, running in a daemon thread until stopped (then closed)."""
    loop = asyncio.new_event_loop()

    def run() -> None:
        asyncio.set_event_loop(loop)
        try:
            loop.run_forever()
        finally:
            loop.close()

    thread = threading.Thread(target=run, name="mainc-pool", daemon=True)
    thread.start()
    return loop, thread


def _reap(slots: list[_Slot]) -> None:
    """Wait for worker processes to exit (killing those that do not) and close their pipes."""
    for slot in slots:
        slot.process.join(STOP_TIMEOUT)
        if slot.process.is_alive():
            slot.process.kill()
            slot.process.join(STOP_TIMEOUT)
        if slot.connection is not None:
            slot.connection.close()


def _settle(future: Future[ExtractionOutcome], outcome: ExtractionOutcome) -> None:
    try:
        future.set_result(outcome)
    except InvalidStateError:  # cancelled by its caller meanwhile
        pass


def _closed(task: ExtractionTask) -> ExtractionOutcome:
    return failed(task, "closed", "not extracted: the worker pool is closed")


def _send_quietly(connection: Connection | None, message: object) -> None:
    if connection is None:
        return
    try:
        connection.send(message)
    except (OSError, ValueError):
        pass


def _task_of(slot: _Slot) -> ExtractionTask:
    return slot.task if slot.task is not None else ExtractionTask("")


def _described(error: BaseException) -> str:
    return f"{type(error).__name__}: {error}"


def _left(deadline: float) -> float:
    return max(0.0, deadline - time.monotonic())
