"""The process mode of the worker pool (:class:`ProcessSlots`, which
:class:`~._pool.WorkerPool` extends): a slot is a worker process, started by a helper
thread (never on the loop), written to through its pipe and read when the pipe is
readable; a worker that dies or overruns its budget is replaced, the pages waiting in its
pipe going back to the queue; when no worker can start (a main script without the
``__main__`` guard), the pages run in threads of this process. Every method runs on the
pool's loop.
"""

from __future__ import annotations

import logging
from multiprocessing.connection import Connection
from typing import Any

from ._pool_slots import Page, Slot, SlotScheduler, described, settle
from ._workers import (
    UNGUARDED_SCRIPT,
    ExtractionTask,
    failed,
    reap,
    send_quietly,
    start_worker,
    widen_send_buffer,
)

#: The pool's logger, named as before the pool was split in modules (a crawl's log shows
#: the name).
logger = logging.getLogger("scrapy_mainc.items._pool")


class ProcessSlots(SlotScheduler):
    """:class:`SlotScheduler`'s slots as worker processes (when ``mode`` is ``process``)."""

    def _send(self, slot: Slot, page: Page) -> bool:
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
            settle(future, failed(task, "error", f"error: the page could not be sent: {described(exc)}"))
            return False
        return True

    def _readable(self, slot: Slot) -> None:
        """The loop's reader callback: a result, or EOF from a worker that died."""
        assert slot.connection is not None
        try:
            outcome = slot.connection.recv()
        except (OSError, EOFError):
            self._lost(slot)
            return
        except Exception as exc:  # noqa: BLE001 - read whole, but cannot be unpickled here
            reason = f"error: the worker's result could not be read: {described(exc)}"
            outcome = failed(_task_of(slot), "error", reason)
        if not slot.pages:  # nothing was asked: the worker is out of step
            self._replace(slot)
            return
        self._finish(slot, outcome)
        self._dispatch()

    def _lost(self, slot: Slot) -> None:
        """The worker of ``slot`` is gone: the page it was on fails, another one starts."""
        slot.process.join(0)  # reaps it if it is gone already; never waits
        code = slot.process.exitcode
        reason = "worker died" + (f" (exit code {code})" if code is not None else "")
        if slot.pages:
            task, future = slot.pages.popleft()
            settle(future, failed(task, "worker_died", reason))
        self._replace(slot)

    def _replace(self, slot: Slot) -> None:
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

    def _start_worker(self) -> None:
        self._starting += 1
        context, function, preload, loop = self._context, self._function, self._preload, self._loop_now()

        def start() -> None:
            started: tuple[Any, Connection] | str
            try:
                started = start_worker(context, function, preload)
            except Exception as exc:  # noqa: BLE001 - reported to a waiting page below
                started = f"could not start a worker process: {described(exc)}"
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
                settle(future, failed(task, "worker_died", f"worker died: {started}"))
            if not self._closed and self._pending:  # else _accept() restores the pool size
                self._start_worker()
            return
        slot = Slot(*started)
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
        self._slots = {Slot() for _ in range(self._size)}
        self._dispatch()


def _task_of(slot: Slot) -> ExtractionTask:
    return slot.pages[0][0] if slot.pages else ExtractionTask("")
