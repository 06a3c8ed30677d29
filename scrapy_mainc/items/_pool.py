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
"""

from __future__ import annotations

import asyncio
import collections
import logging
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, InvalidStateError
from dataclasses import dataclass, field, replace
from multiprocessing.connection import Connection
from typing import Any

from ..config._mainc_config import WORKER_MODES
from ._workers import (
    UNGUARDED_SCRIPT,
    ExtractionOutcome,
    ExtractionTask,
    TaskFunction,
    call,
    failed,
    page_bytes,
    process_context,
    reap,
    run_extraction,
    send_quietly,
    start_worker,
    timeout_reason,
    widen_send_buffer,
    with_fallback,
)

logger = logging.getLogger(__name__)

_Page = tuple[ExtractionTask, "Future[ExtractionOutcome]"]
#: Pages a worker process holds at once: the one it works on, and the next, written to its
#: pipe so that it starts as soon as the first is done instead of waiting for the event
#: loop to read that result (measured against pebble's pool: docs/benchmarks.md, "The worker pool").
PAGES_PER_WORKER = 2


@dataclass(eq=False)
class _Slot:
    """A worker process (process mode), or a place for one page thread (thread mode), and
    the pages handed to it: the first is running, the next waits in the worker's pipe."""

    process: Any = None
    connection: Connection | None = None
    pages: collections.deque[_Page] = field(default_factory=collections.deque)
    #: The first page's budget.
    timer: asyncio.TimerHandle | None = field(default=None, repr=False)
    #: Thread mode: the number of the page, so that an abandoned thread's answer is ignored.
    turn: int = 0
    #: Process mode: a page could not be written to it (it died): it takes no more pages,
    #: and goes when the loop reads the end of its pipe.
    broken: bool = False
    #: Process mode: the largest page (bytes) that may wait in its pipe without the write
    #: blocking the loop (half its socket's send buffer).
    room: int = 0


class WorkerPool:
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
        self.mode = mode
        self._size = size
        self._budget = budget
        self._fallback_budget = budget if fallback_budget is None else fallback_budget
        self._function = function
        self._preload = preload
        self._context = process_context() if mode == "process" else None
        self._pending: collections.deque[_Page] = collections.deque()
        self._slots: set[_Slot] = set()  # every slot (process mode: every live worker)
        #: Pages a slot may hold: a worker process gets its next page while it works on one.
        self._depth = PAGES_PER_WORKER if mode == "process" else 1
        self._starting = 0  # worker processes being started
        self._helpers: list[threading.Thread] = []  # starters and reapers, for close()
        self._gate = threading.Lock()  # orders submit() and close() from other threads
        self._closed = False
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
            _settle(page, outcome)
            return
        try:
            step = self._submit(replace(task, fallback_for=outcome.extraction.text))
        except Exception as exc:  # noqa: BLE001 - the page keeps its extraction
            reason = f"error: the fallback step could not be queued: {_described(exc)}"
            _settle(page, with_fallback(outcome, failed(task, "error", reason)))
            return
        waits_on.append(step)
        step.add_done_callback(
            lambda ended: None if ended.cancelled() else _settle(page, with_fallback(outcome, ended.result()))
        )

    def _submit(self, task: ExtractionTask) -> Future[ExtractionOutcome]:
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
        """Hand queued pages to the slots with room, the least busy first."""
        while self._pending:
            slot = min(self._slots, key=_load, default=None)
            if slot is None or not self._takes(slot, self._pending[0][0]):
                return
            page = self._pending.popleft()
            task, future = page
            if not (future.running() or future.set_running_or_notify_cancel()):
                continue  # cancelled by its caller before it started
            if self.mode == "thread":
                self._run_in_thread(slot, task)
            elif not self._send(slot, page):
                continue
            slot.pages.append(page)
            if len(slot.pages) == 1:
                self._start_timer(slot)

    def _takes(self, slot: _Slot, task: ExtractionTask) -> bool:
        """Whether ``slot`` takes ``task`` now: when idle; when busy, as the page waiting in
        its worker's pipe, if that page fits in the pipe (the write never blocks the loop)
        and no other worker is about to start (it would take the page sooner)."""
        if slot.broken or len(slot.pages) >= self._depth:
            return False
        return not slot.pages or (not self._starting and page_bytes(task) <= slot.room)

    def _start_timer(self, slot: _Slot) -> None:
        """The first page of ``slot`` runs from now (a worker starts its next page as soon
        as it has sent a result, so a page waiting in its pipe gets at least its budget)."""
        slot.timer = self._loop_now().call_later(self._budget_of(slot.pages[0][0]), self._overrun, slot)

    def _budget_of(self, task: ExtractionTask) -> float:
        return self._budget if task.fallback_for is None else self._fallback_budget

    def _finish(self, slot: _Slot, outcome: ExtractionOutcome) -> None:
        """The first page of ``slot`` ends with ``outcome``; the next one runs. Its future is
        settled last: a callback may queue a task at once (a doubtful page's fallback step),
        and that task may come to this slot."""
        if slot.timer is not None:
            slot.timer.cancel()
            slot.timer = None
        ended = slot.pages.popleft() if slot.pages else None
        if slot.pages:
            self._start_timer(slot)
        if ended is not None:
            _settle(ended[1], outcome)

    def _overrun(self, slot: _Slot) -> None:
        slot.timer = None
        if not slot.pages:
            return
        task = slot.pages[0][0]
        self._finish(slot, failed(task, "timeout", timeout_reason(task, self._budget_of(task))))
        if self.mode == "thread":
            self._dispatch()  # the thread runs on; its answer will be ignored
        else:
            self._replace(slot)  # kills it; a page waiting in its pipe goes to another

    def _shut_down(self, shut: threading.Event) -> None:
        while self._pending:
            task, future = self._pending.popleft()
            _settle(future, _closed(task))
        slots, self._slots = list(self._slots), set()
        for slot in slots:
            self._forget(slot)
            if slot.pages and slot.process is not None:
                slot.process.kill()
            elif slot.connection is not None:
                send_quietly(slot.connection, None)
            while slot.pages:
                task, future = slot.pages.popleft()
                _settle(future, _closed(task))
        workers = [(slot.process, slot.connection) for slot in slots if slot.process is not None]
        if workers:
            self._helper(reap, workers)
        shut.set()

    def _kill_all(self) -> None:
        for slot in list(self._slots):
            if slot.process is not None and slot.process.is_alive():
                slot.process.kill()

    # --- thread mode ----------------------------------------------------------------------

    def _run_in_thread(self, slot: _Slot, task: ExtractionTask) -> None:
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
        if slot.turn != turn or not slot.pages:
            return  # abandoned at its budget, or at close: the page was settled then
        self._finish(slot, outcome)
        self._dispatch()

    # --- process mode: worker pipes -------------------------------------------------------

    def _send(self, slot: _Slot, page: _Page) -> bool:
        """Write the page's task to the worker of ``slot``; False when it did not get there."""
        assert slot.connection is not None
        task, future = page
        try:
            slot.connection.send(task)
        except (OSError, ValueError):  # the worker died: the page never reached it
            self._pending.appendleft(page)
            slot.broken = True  # the loop reads its results, then the end of its pipe
            return False
        except Exception as exc:  # noqa: BLE001 - could not be pickled: nothing was written
            _settle(future, failed(task, "error", f"error: the page could not be sent: {_described(exc)}"))
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
        if not slot.pages:  # nothing was asked: the worker is out of step
            self._replace(slot)
            return
        self._finish(slot, outcome)
        self._dispatch()

    def _lost(self, slot: _Slot) -> None:
        """The worker of ``slot`` is gone: the page it was on fails, another one starts."""
        slot.process.join(0)  # reaps it if it is gone already; never waits
        code = slot.process.exitcode
        reason = "worker died" + (f" (exit code {code})" if code is not None else "")
        if slot.pages:
            task, future = slot.pages.popleft()
            _settle(future, failed(task, "worker_died", reason))
        self._replace(slot)

    def _replace(self, slot: _Slot) -> None:
        """Drop the worker of ``slot`` (killing it if needed) and start another; the pages
        waiting in its pipe, which it had not started, go back to the front of the queue."""
        self._forget(slot)
        self._slots.discard(slot)
        if slot.process.is_alive():
            slot.process.kill()
        while slot.pages:  # not started: another worker takes them (or close settles them)
            self._pending.appendleft(slot.pages.pop())
        self._helper(reap, [(slot.process, slot.connection)])
        if not self._closed:
            self._start_worker()
        self._dispatch()

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
                send_quietly(started[1], None)
                reap([started])
                return
            try:
                loop.call_soon_threadsafe(self._started, started)
            except RuntimeError:  # the loop is gone: nobody will use this worker
                if not isinstance(started, str):
                    send_quietly(started[1], None)
                    reap([started])

        self._helper(start)

    def _started(self, started: tuple[Any, Connection] | str) -> None:
        self._starting -= 1
        if started == UNGUARDED_SCRIPT:  # no worker can start: each would stop so
            if self.mode == "process" and not self._slots and not self._closed:
                self._run_in_this_process()
            return
        if isinstance(started, str):  # could not start: fail one waiting page, not all
            if self._pending:
                task, future = self._pending.popleft()
                _settle(future, failed(task, "worker_died", f"worker died: {started}"))
            if not self._closed and self._pending:  # else _accept() restores the pool size
                self._start_worker()
            return
        slot = _Slot(*started)
        slot.room = widen_send_buffer(started[1]) // 2
        if self._closed:
            send_quietly(slot.connection, None)
            self._helper(reap, [(slot.process, slot.connection)])
            return
        self._slots.add(slot)
        self._loop_now().add_reader(started[1].fileno(), self._readable, slot)
        self._dispatch()

    def _run_in_this_process(self) -> None:
        """Run every page in threads of this process from now on (said once)."""
        logger.warning(
            "mainc: %s: pages run in this process (on one core); keep the script's top-level "
            'code under `if __name__ == "__main__":` to run them in %d worker processes',
            UNGUARDED_SCRIPT,
            self._size,
        )
        self.mode, self._depth = "thread", 1
        self._slots = {_Slot() for _ in range(self._size)}
        self._dispatch()

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


def _settle(future: Future[ExtractionOutcome], outcome: ExtractionOutcome) -> None:
    try:
        future.set_result(outcome)
    except InvalidStateError:  # cancelled by its caller meanwhile
        pass


def _closed(task: ExtractionTask) -> ExtractionOutcome:
    return failed(task, "closed", "not extracted: the worker pool is closed")


def _task_of(slot: _Slot) -> ExtractionTask:
    return slot.pages[0][0] if slot.pages else ExtractionTask("")


def _load(slot: _Slot) -> tuple[bool, int]:
    """Order of the slots for the next page: working ones with the fewest pages first."""
    return slot.broken, len(slot.pages)


def _described(error: BaseException) -> str:
    return f"{type(error).__name__}: {error}"


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
