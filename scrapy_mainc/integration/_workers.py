"""Extraction off the reactor: a pool of worker processes or threads, or inline.

The unit of work is :func:`run_extraction`, a pure top-level function from an
:class:`ExtractionTask` to an :class:`ExtractionOutcome`; it is what a worker process runs,
so anything added to it runs in the worker too: when the task asks for one, the outcome
also carries the :class:`~scrapy_mainc.dedup.Fingerprint` of the main text, so that
near-duplicate clustering does not hash the text again on the crawler's side.

A pool of ``size`` slots: each slot is a thread that starts its runner (a worker process
starts at once, in the slot thread, so the reactor never waits for it), then takes tasks
from a shared queue and hands each one to its runner, which enforces the per-page budget:

- ``process``: a worker process per slot, started from a fresh interpreter (``forkserver``,
  or ``spawn`` where there is no forkserver), never by forking the crawler, whose reactor
  and threads a plain fork would copy. A worker that dies or overruns the budget is killed
  and replaced; only the page it was working on is lost.
- ``thread``: each page runs in a short-lived daemon thread; a page that overruns the
  budget is abandoned (its thread finishes in the background) and the slot moves on.
- ``inline``: the page runs at once in the caller's thread; the budget cannot be enforced.

Results come back as :class:`concurrent.futures.Future` objects, completed from the slot
threads; callers on an event loop wrap them (``asyncio.wrap_future``) instead of blocking.
This pool serves ``thread`` and ``inline`` modes everywhere, and ``process`` mode where
there is no asyncio loop (a non-asyncio Twisted reactor); on an asyncio loop, ``process``
mode uses :class:`scrapy_mainc.integration._looppool.LoopProcessPool`, same workers, no slot threads.
This module does not import Scrapy: worker processes import only the extraction core, and
the fingerprint code (datasketch, numpy) only when a task asks for a fingerprint, or when
the pool is told to ``preload`` it.
"""

from __future__ import annotations

import multiprocessing
import queue
import signal
import threading
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass
from importlib import import_module
from multiprocessing.connection import Connection, wait
from typing import TYPE_CHECKING, Any, Protocol

from .._extract import extract
from ..core._types import Extraction

if TYPE_CHECKING:
    from ..dedup._fingerprint import Fingerprint
    from ..dedup._params import FingerprintParams

#: How long a new worker process may take to import the extraction core and say so.
STARTUP_TIMEOUT = 60.0
#: How long a worker asked to stop may take before it is killed.
STOP_TIMEOUT = 1.0
#: Failure kinds, also the suffix of the ``mainc/failed/<kind>`` stats.
FAILURE_KINDS = ("error", "timeout", "worker_died", "too_large", "no_page", "closed")
#: The name of every worker process (``multiprocessing.current_process().name`` in it).
WORKER_PROCESS_NAME = "mainc-worker"
#: Modules a worker process imports before its first page when tasks will ask for
#: fingerprints (see ``preload``), so that the import does not eat into a page's budget.
FINGERPRINT_MODULES = ("scrapy_mainc.dedup._fingerprint",)


@dataclass(frozen=True, slots=True)
class ExtractionTask:
    """One page to extract: its HTML (text, or bytes to decode) and how to extract it."""

    page: str | bytes
    url: str | None = None
    algorithm: str = "auto"
    strip_comments: bool = True
    #: Run the metadata stage (``extract(metadata=...)``).
    metadata: bool = True
    #: Fingerprint the main text with these parameters; None: no fingerprint.
    fingerprint: FingerprintParams | None = None


@dataclass(frozen=True, slots=True)
class ExtractionOutcome:
    """What became of a task: the extraction, and ``failure`` when it did not run to the end.

    ``failure`` is one of :data:`FAILURE_KINDS`, or ``""`` when the extraction ran (its
    text may still be empty, with ``extraction.reason`` saying why). ``fingerprint`` is set
    when the task asked for one and the main text is long enough to have one.
    """

    extraction: Extraction
    failure: str = ""
    fingerprint: Fingerprint | None = None


def run_extraction(task: ExtractionTask) -> ExtractionOutcome:
    """Extract ``task``'s page, then fingerprint its main text if asked; never raises (an
    exception becomes a failed outcome)."""
    try:
        extraction = extract(
            task.page,
            url=task.url,
            algorithm=task.algorithm,
            strip_comments=task.strip_comments,
            metadata=task.metadata,
            max_bytes=None,  # the pipeline applied MAINC_MAX_PAGE_SIZE before submitting
        )
    except Exception as exc:  # noqa: BLE001 - the core should not raise; this is the safety net
        return failed(task, "error", f"error: {type(exc).__name__}: {exc}")
    if task.fingerprint is None or not extraction.text:
        return ExtractionOutcome(extraction)
    try:
        fingerprint = fingerprint_of(extraction.text, task.fingerprint)
    except Exception:  # noqa: BLE001 - keep the text; NearDuplicatePipeline retries and reports
        fingerprint = None
    return ExtractionOutcome(extraction, fingerprint=fingerprint)


def fingerprint_of(text: str, params: FingerprintParams) -> Fingerprint | None:
    """The fingerprint of ``text``; the fingerprint code is imported on the first call only."""
    from ..dedup._fingerprint import fingerprint_text  # noqa: PLC0415 (datasketch, when asked)

    return fingerprint_text(text, params)


def failed(task: ExtractionTask, kind: str, reason: str) -> ExtractionOutcome:
    """An outcome with empty fields, ``reason`` and the failure ``kind``."""
    return ExtractionOutcome(Extraction(algorithm=task.algorithm, reason=reason), kind)


TaskFunction = Callable[[ExtractionTask], ExtractionOutcome]


class _Runner(Protocol):
    def warm_up(self) -> None: ...

    def run(self, task: ExtractionTask) -> ExtractionOutcome: ...

    def stop(self) -> None: ...

    def kill(self) -> None: ...


class WorkerPool:
    """Runs tasks in ``mode`` (``process``, ``thread`` or ``inline``) on ``size`` slots.

    ``budget`` is the per-page time limit in seconds. ``function`` is the task function, a
    top-level function so that worker processes can import it. ``preload`` names modules
    that each worker process imports before it takes its first task.
    """

    def __init__(
        self,
        mode: str,
        size: int,
        budget: float,
        function: TaskFunction = run_extraction,
        preload: tuple[str, ...] = (),
    ) -> None:
        if mode not in ("process", "thread", "inline"):
            raise ValueError(f"unknown worker mode {mode!r}")
        self.mode = mode
        self._function = function
        self._tasks: queue.SimpleQueue[tuple[ExtractionTask, Future[ExtractionOutcome]] | None]
        self._tasks = queue.SimpleQueue()
        self._closed = False
        self._runners: list[_Runner] = []
        self._threads: list[threading.Thread] = []
        if mode == "inline":
            return
        context = _process_context() if mode == "process" else None
        for number in range(size):
            runner: _Runner
            if context is not None:
                runner = _ProcessRunner(context, function, budget, preload)
            else:
                runner = _ThreadRunner(function, budget)
            thread = threading.Thread(
                target=self._serve, args=(runner,), name=f"mainc-slot-{number}", daemon=True
            )
            self._runners.append(runner)
            self._threads.append(thread)
            thread.start()

    def submit(self, task: ExtractionTask) -> Future[ExtractionOutcome]:
        """Queue ``task``; the future always completes with an outcome, never an exception."""
        future: Future[ExtractionOutcome] = Future()
        if self._closed:
            future.set_result(failed(task, "closed", "not extracted: the worker pool is closed"))
        elif self.mode == "inline":
            future.set_result(_call(self._function, task))
        else:
            self._tasks.put((task, future))
        return future

    def close(self, wait_seconds: float = 0.0) -> None:
        """Stop the slots after the queued tasks; wait up to ``wait_seconds`` for them.

        Never blocks longer than ``wait_seconds``: slots and workers still busy then finish
        in the background (slot threads are daemons, worker processes daemonic).
        """
        if self._closed:
            return
        self._closed = True
        for _ in self._threads:
            self._tasks.put(None)
        if wait_seconds > 0:
            for thread in self._threads:
                thread.join(wait_seconds)

    def kill_workers(self) -> None:
        """Kill every worker process now (their current pages fail as ``worker_died``)."""
        for runner in self._runners:
            runner.kill()

    def _serve(self, runner: _Runner) -> None:
        try:
            runner.warm_up()
            while True:
                entry = self._tasks.get()
                if entry is None:
                    return
                task, future = entry
                if future.set_running_or_notify_cancel():
                    future.set_result(_run_guarded(runner, task))
        finally:
            runner.stop()


def _run_guarded(runner: _Runner, task: ExtractionTask) -> ExtractionOutcome:
    """``runner.run(task)``; a failure of the machinery itself costs this page only."""
    try:
        return runner.run(task)
    except Exception as exc:  # noqa: BLE001 - e.g. a worker process that cannot be started
        return failed(task, "worker_died", f"worker died: {type(exc).__name__}: {exc}")


def _call(function: TaskFunction, task: ExtractionTask) -> ExtractionOutcome:
    try:
        return function(task)
    except Exception as exc:  # noqa: BLE001 - a task function must not lose the item
        return failed(task, "error", f"error: {type(exc).__name__}: {exc}")


def _process_context() -> Any:
    """A start method that does not fork the crawler: forkserver where it exists, else spawn."""
    if "forkserver" in multiprocessing.get_all_start_methods():
        context = multiprocessing.get_context("forkserver")
        # Workers forked by the server start with the extraction core already imported.
        context.set_forkserver_preload([__name__])
        return context
    return multiprocessing.get_context("spawn")


class _ThreadRunner:
    """Runs each task in a daemon thread and stops waiting for it after the budget."""

    def __init__(self, function: TaskFunction, budget: float) -> None:
        self._function = function
        self._budget = budget

    def warm_up(self) -> None:
        pass

    def run(self, task: ExtractionTask) -> ExtractionOutcome:
        done = threading.Event()
        box: list[ExtractionOutcome] = []

        def work() -> None:
            box.append(_call(self._function, task))
            done.set()

        threading.Thread(target=work, name="mainc-extract", daemon=True).start()
        if done.wait(self._budget):
            return box[0]
        return failed(task, "timeout", _timeout_reason(self._budget))

    def stop(self) -> None:
        pass

    def kill(self) -> None:
        pass


class _ProcessRunner:
    """One worker process: started on demand, replaced after a death or a time-out."""

    def __init__(self, context: Any, function: TaskFunction, budget: float, preload: tuple[str, ...]) -> None:
        self._context = context
        self._function = function
        self._budget = budget
        self._preload = preload
        self._lock = threading.Lock()
        self._process: Any = None
        self._connection: Connection | None = None

    def warm_up(self) -> None:
        """Start the worker before the first page arrives (a failure is retried per page)."""
        try:
            self._start()
        except Exception:  # noqa: BLE001, S110 - run() starts a worker again and reports
            self._discard()

    def run(self, task: ExtractionTask) -> ExtractionOutcome:
        for _attempt in range(2):
            if self._process is None or not self._process.is_alive():
                self._discard()
                problem = self._start()
                if problem:
                    return failed(task, "worker_died", f"worker died: {problem}")
            assert self._connection is not None
            try:
                self._connection.send(task)
            except (OSError, EOFError, ValueError):
                self._discard()  # the page never reached the worker: give it to a fresh one
                continue
            return self._receive(task)
        return failed(task, "worker_died", "worker died: could not hand the page to a worker")

    def stop(self) -> None:
        """Ask the worker to exit, and kill it if it does not."""
        with self._lock:
            process, connection = self._process, self._connection
        if process is None or connection is None:
            return
        try:
            connection.send(None)
        except (OSError, ValueError):
            pass
        process.join(STOP_TIMEOUT)
        self._discard()

    def kill(self) -> None:
        with self._lock:
            process = self._process
        if process is not None and process.is_alive():
            process.kill()

    def _receive(self, task: ExtractionTask) -> ExtractionOutcome:
        assert self._connection is not None and self._process is not None
        ready = wait([self._connection, self._process.sentinel], timeout=self._budget)
        if self._connection in ready:
            try:
                outcome: ExtractionOutcome = self._connection.recv()
                return outcome
            except (OSError, EOFError):
                pass  # the worker died while answering
        if not ready:
            self._discard()
            return failed(task, "timeout", _timeout_reason(self._budget))
        self._process.join(STOP_TIMEOUT)
        code = self._process.exitcode
        self._discard()
        return failed(task, "worker_died", f"worker died (exit code {code})")

    def _start(self) -> str:
        """Start a worker and wait until it is ready; return what went wrong, or ""."""
        parent, child = self._context.Pipe()
        process = self._context.Process(
            target=_worker_main,
            args=(child, self._function, self._preload),
            name=WORKER_PROCESS_NAME,
            daemon=True,
        )
        process.start()
        child.close()
        with self._lock:
            self._process, self._connection = process, parent
        try:
            if parent.poll(STARTUP_TIMEOUT) and parent.recv() == "ready":
                return ""
        except (OSError, EOFError):
            pass
        self._discard()
        return f"could not start a worker process (exit code {process.exitcode})"

    def _discard(self) -> None:
        with self._lock:
            process, connection = self._process, self._connection
            self._process = self._connection = None
        if process is not None:
            if process.is_alive():
                process.kill()
            process.join(STOP_TIMEOUT)
        if connection is not None:
            connection.close()


def _worker_main(connection: Connection, function: TaskFunction, preload: tuple[str, ...] = ()) -> None:
    """A worker process: import ``preload``, then answer tasks until told to stop or the
    crawler goes away."""
    # Ctrl+C in a terminal reaches the whole process group; the crawler decides when to stop.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # A script run again here without its __main__ guard may have left a crawler's SIGTERM
    # handler, which would wait for a reactor that no longer runs: terminate as usual.
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    for module in preload:
        import_module(module)
    connection.send("ready")
    while True:
        try:
            task = connection.recv()
        except (OSError, EOFError):
            return
        if task is None:
            return
        connection.send(_call(function, task))


def _timeout_reason(budget: float) -> str:
    return f"timeout: extraction took longer than {budget:g} s (MAINC_TIMEOUT)"
