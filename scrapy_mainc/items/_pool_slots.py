"""The worker pool's side on its event loop (:class:`SlotScheduler`, which
:class:`~._pool.WorkerPool` extends through :class:`~._pool_processes.ProcessSlots`):
queued pages go to the least busy slot, a timer holds each slot's running page to its
budget, every page's future is settled, and thread mode runs each page in a daemon thread.
A slot (:class:`Slot`) is a place for one page thread, or a worker process, whose steps
(sending, replacing, starting) :class:`~._pool_processes.ProcessSlots` gives. Every method
here runs on the pool's loop, but ``_on_loop``, which gets there from any thread.
"""

from __future__ import annotations

import asyncio
import collections
import threading
from abc import ABC, abstractmethod
from collections.abc import Callable
from concurrent.futures import Future, InvalidStateError
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from typing import Any

from ._workers import (
    ExtractionOutcome,
    ExtractionTask,
    TaskFunction,
    call,
    failed,
    page_bytes,
    process_context,
    reap,
    send_quietly,
    timeout_reason,
)

Page = tuple[ExtractionTask, "Future[ExtractionOutcome]"]
#: Pages a worker process holds at once: the one it works on, and the next, written to its
#: pipe so that it starts as soon as the first is done instead of waiting for the event
#: loop to read that result (measured against pebble's pool: docs/benchmarks.md, "The worker pool").
PAGES_PER_WORKER = 2


@dataclass(eq=False)
class Slot:
    """A worker process (process mode), or a place for one page thread (thread mode), and
    the pages handed to it: the first is running, the next waits in the worker's pipe."""

    process: Any = None
    connection: Connection | None = None
    pages: collections.deque[Page] = field(default_factory=collections.deque)
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


class SlotScheduler(ABC):
    """The pool's pages on its loop: ``size`` slots in ``mode``, each running page within
    its budget (``budgets``: the extraction's, the fallback step's); ``function`` and
    ``preload`` as :class:`~._pool.WorkerPool` takes them."""

    def __init__(
        self,
        mode: str,
        size: int,
        function: TaskFunction,
        preload: tuple[str, ...],
        budgets: tuple[float, float],
    ) -> None:
        self.mode = mode
        self._size = size
        self._budget, self._fallback_budget = budgets
        self._function = function
        self._preload = preload
        self._context = process_context() if mode == "process" else None
        self._pending: collections.deque[Page] = collections.deque()
        self._slots: set[Slot] = set()  # every slot (process mode: every live worker)
        #: Pages a slot may hold: a worker process gets its next page while it works on one.
        self._depth = PAGES_PER_WORKER if mode == "process" else 1
        self._starting = 0  # worker processes being started
        self._helpers: list[threading.Thread] = []  # starters and reapers, for close()
        self._closed = False  # set by WorkerPool.close(): no page is taken any more
        self._loop: asyncio.AbstractEventLoop | None = None  # None: inline mode

    # --- on the loop: accepting, dispatching, finishing pages ---------------------------

    def _open(self) -> None:
        if self.mode == "thread":
            self._slots = {Slot() for _ in range(self._size)}
        else:
            for _ in range(self._size):
                self._start_worker()

    def _accept(self, task: ExtractionTask, future: Future[ExtractionOutcome]) -> None:
        if self._closed:  # closed after submit() queued this call
            settle(future, closed_outcome(task))
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

    def _takes(self, slot: Slot, task: ExtractionTask) -> bool:
        """Whether ``slot`` takes ``task`` now: when idle; when busy, as the page waiting in
        its worker's pipe, if that page fits in the pipe (the write never blocks the loop)
        and no other worker is about to start (it would take the page sooner)."""
        if slot.broken or len(slot.pages) >= self._depth:
            return False
        return not slot.pages or (not self._starting and page_bytes(task) <= slot.room)

    def _start_timer(self, slot: Slot) -> None:
        """The first page of ``slot`` runs from now (a worker starts its next page as soon
        as it has sent a result, so a page waiting in its pipe gets at least its budget)."""
        slot.timer = self._loop_now().call_later(self._budget_of(slot.pages[0][0]), self._overrun, slot)

    def _budget_of(self, task: ExtractionTask) -> float:
        return self._budget if task.fallback_for is None else self._fallback_budget

    def _finish(self, slot: Slot, outcome: ExtractionOutcome) -> None:
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
            settle(ended[1], outcome)

    def _overrun(self, slot: Slot) -> None:
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
            settle(future, closed_outcome(task))
        slots, self._slots = list(self._slots), set()
        for slot in slots:
            self._forget(slot)
            if slot.pages and slot.process is not None:
                slot.process.kill()
            elif slot.connection is not None:
                send_quietly(slot.connection, None)
            while slot.pages:
                task, future = slot.pages.popleft()
                settle(future, closed_outcome(task))
        workers = [(slot.process, slot.connection) for slot in slots if slot.process is not None]
        if workers:
            self._helper(reap, workers)
        shut.set()

    def _kill_all(self) -> None:
        for slot in list(self._slots):
            if slot.process is not None and slot.process.is_alive():
                slot.process.kill()

    def _forget(self, slot: Slot) -> None:
        """Stop timing ``slot``'s page and reading its worker's pipe."""
        if slot.timer is not None:
            slot.timer.cancel()
            slot.timer = None
        if slot.connection is not None:
            try:
                self._loop_now().remove_reader(slot.connection.fileno())
            except (OSError, ValueError):  # already closed
                pass

    # --- thread mode ----------------------------------------------------------------------

    def _run_in_thread(self, slot: Slot, task: ExtractionTask) -> None:
        slot.turn += 1
        turn, loop = slot.turn, self._loop_now()

        def work() -> None:
            outcome = call(self._function, task)
            try:
                loop.call_soon_threadsafe(self._answered, slot, turn, outcome)
            except RuntimeError:  # the pool's loop is gone: nobody waits for it any more
                pass

        threading.Thread(target=work, name="mainc-extract", daemon=True).start()

    def _answered(self, slot: Slot, turn: int, outcome: ExtractionOutcome) -> None:
        if slot.turn != turn or not slot.pages:
            return  # abandoned at its budget, or at close: the page was settled then
        self._finish(slot, outcome)
        self._dispatch()

    # --- process mode's steps (:class:`~._pool_processes.ProcessSlots`) -------------------

    @abstractmethod
    def _send(self, slot: Slot, page: Page) -> bool:
        """Write the page's task to the worker of ``slot``; False when it did not get there."""

    @abstractmethod
    def _replace(self, slot: Slot) -> None:
        """Drop the worker of ``slot`` and start another."""

    @abstractmethod
    def _start_worker(self) -> None:
        """Start a worker process (in a helper thread)."""

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


def settle(future: Future[ExtractionOutcome], outcome: ExtractionOutcome) -> None:
    try:
        future.set_result(outcome)
    except InvalidStateError:  # cancelled by its caller meanwhile
        pass


def closed_outcome(task: ExtractionTask) -> ExtractionOutcome:
    return failed(task, "closed", "not extracted: the worker pool is closed")


def _load(slot: Slot) -> tuple[bool, int]:
    """Order of the slots for the next page: working ones with the fewest pages first."""
    return slot.broken, len(slot.pages)


def described(error: BaseException) -> str:
    return f"{type(error).__name__}: {error}"
