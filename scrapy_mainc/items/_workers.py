"""What an extraction worker runs, and how a worker process starts: the worker side of
:mod:`scrapy_mainc.items._pool`.

The unit of work is :func:`run_extraction`, a pure top-level function from an
:class:`ExtractionTask` to an :class:`ExtractionOutcome`; it is what a worker process runs,
so anything added to it runs in the worker too: the fallback extractor for a page whose
quality estimate is low (``MAINC_FALLBACK``, :mod:`._fallback`), and, when the task asks
for one, the :class:`~scrapy_mainc.dedup.Fingerprint` of the main text (of the fallback's,
when it gave one), so that near-duplicate clustering does not hash the text again on the
crawler's side. A doubtful page takes two tasks: the extraction, whose outcome says that
the fallback is due, then the fallback alone (``fallback_for``: the extraction's text),
each within its own time budget (the pool's), so that a slow fallback costs the page its
fallback, not its extraction (:func:`with_fallback` joins the two outcomes).

A worker process (:func:`start_worker`) starts from a fresh interpreter (``forkserver``, or
``spawn`` where there is no forkserver), never by forking the crawler, whose reactor and
threads a plain fork would copy; it is named :data:`WORKER_PROCESS_NAME`, which is how
``_startup`` recognises a crawl started again inside one. It answers each task on its pipe
with an outcome, until told to stop or the crawler goes away.

This module does not import Scrapy: worker processes import only the extraction core, and
the fingerprint code (datasketch, numpy) only when a task asks for a fingerprint, or when
the pool is told to ``preload`` it.
"""

from __future__ import annotations

import multiprocessing
import os
import pickle
import signal
import socket
import sys
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass, replace
from importlib import import_module
from multiprocessing.connection import Connection, wait
from typing import TYPE_CHECKING, Any

from .._extract import extract
from ..config._fallback_path import fallback_module
from ..core._decode import decode_html
from ..core._types import Extraction, OutputOptions
from ._fallback import FallbackResult, cached_fallback, call_fallback

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
#: The exit status of a worker process that stopped while importing the main script,
#: whose top-level code started the archive mode again there (:func:`leave_unguarded_script`).
UNGUARDED_SCRIPT_EXIT = 87
#: What :func:`start_worker` returns for such a worker: no worker can start.
UNGUARDED_SCRIPT = (
    "the main script, which every worker process imports again (the spawn and forkserver "
    "start methods do), runs scrapy_mainc at its top level"
)
#: The send buffer asked for on the crawler's end of each worker's pipe, so that a page of
#: up to half of it can wait there (Linux caps the value at ``net.core.wmem_max``, 212,992
#: bytes by default, and doubles it: pages up to about 200 KB, more where it is raised).
SEND_BUFFER = 4 * 1024 * 1024
#: Modules a worker process imports before its first page when tasks will ask for
#: fingerprints (see ``preload``), so that the import does not eat into a page's budget.
FINGERPRINT_MODULES = ("scrapy_mainc.dedup._fingerprint",)


def preload_for(fingerprints: bool, fallback: str) -> tuple[str, ...]:
    """The modules each worker process imports before its first page: the fingerprint code
    when tasks ask for fingerprints, the fallback's module when one is set (``fallback``:
    its path), so that neither import eats into a page's budget."""
    return (
        *(FINGERPRINT_MODULES if fingerprints else ()),
        *([fallback_module(fallback)] if fallback else []),
    )


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
    #: The response's HTTP ``Date`` header (``extract(fetched=...)``); None without one.
    fetched: str | None = None
    #: What the outputs keep (``extract(markdown=..., tables=...)``) and ``auto``'s ``favor``.
    output: OutputOptions = OutputOptions()
    favor: str = "balanced"
    #: ``MAINC_FALLBACK``: the dotted path of the callable run when the quality estimate is
    #: under ``fallback_below``; "": none.
    fallback: str = ""
    fallback_below: float = 0.0
    #: The fallback step of a doubtful page: the extraction's text, kept when the fallback
    #: gives none (and fingerprinted then); only the fallback runs. None: the extraction.
    fallback_for: str | None = None


@dataclass(frozen=True, slots=True)
class ExtractionOutcome:
    """What became of a task: the extraction, and ``failure`` when it did not run to the end.

    ``failure`` is one of :data:`FAILURE_KINDS`, or ``""`` when the extraction ran (its
    text may still be empty, with ``extraction.reason`` saying why). ``fingerprint`` is set
    when the task asked for one and the main text is long enough to have one. ``fallback``
    is the fallback's answer when it ran (its text, when it gave some, is the extraction's
    text now). ``fallback_due``: the estimate is under the task's ``fallback_below``, and
    the fallback step is still to run (then there is no fingerprint yet).
    """

    extraction: Extraction
    failure: str = ""
    fingerprint: Fingerprint | None = None
    fallback: FallbackResult | None = None
    fallback_due: bool = False


def run_extraction(task: ExtractionTask) -> ExtractionOutcome:
    """Extract ``task``'s page, then fingerprint its main text if asked, or say that the
    fallback is due; the fallback step of a task with ``fallback_for``. Never raises (an
    exception becomes a failed outcome)."""
    if task.fallback_for is not None:
        return run_fallback(task)
    try:
        extraction = extract(
            task.page,
            url=task.url,
            algorithm=task.algorithm,
            strip_comments=task.strip_comments,
            metadata=task.metadata,
            max_bytes=None,  # the pipeline applied MAINC_MAX_PAGE_SIZE before submitting
            fetched=task.fetched,
            favor=task.favor,
            **asdict(task.output),
        )
    except Exception as exc:  # noqa: BLE001 - the core should not raise; this is the safety net
        return failed(task, "error", f"error: {type(exc).__name__}: {exc}")
    # A page refused before it was parsed (not HTML, empty) has nothing for a fallback to read.
    if task.fallback and extraction.parsed and extraction.quality < task.fallback_below:
        return ExtractionOutcome(extraction, fallback_due=True)
    return ExtractionOutcome(extraction, fingerprint=_fingerprint(extraction.text, task))


def run_fallback(task: ExtractionTask) -> ExtractionOutcome:
    """The fallback step: the fallback's answer for ``task``'s page, and the fingerprint of
    the text the item will have (the fallback's, else the extraction's)."""
    fallback = fall_back(task)
    fingerprint = _fingerprint(fallback.text or task.fallback_for or "", task)
    return ExtractionOutcome(Extraction(algorithm=task.algorithm), fingerprint=fingerprint, fallback=fallback)


def with_fallback(extracted: ExtractionOutcome, step: ExtractionOutcome) -> ExtractionOutcome:
    """A doubtful page's outcome from its two tasks: the extraction (``extracted``), with the
    fallback's text when ``step`` gave some. A fallback step that failed (its time budget,
    its worker died) is the fallback's failure; the extraction stays."""
    fallback = step.fallback if not step.failure else FallbackResult(error=step.extraction.reason)
    if fallback is None:  # a task function that ran no fallback step: the page still settles
        fallback = FallbackResult(error="error: the fallback step gave no answer")
    extraction = extracted.extraction
    if fallback.text:
        extraction = with_fallback_text(extraction, fallback.text)
    return ExtractionOutcome(extraction, fingerprint=step.fingerprint, fallback=fallback)


def _fingerprint(text: str, task: ExtractionTask) -> Fingerprint | None:
    """The fingerprint of ``text`` when ``task`` asks for one; None without text, or when it
    fails (NearDuplicatePipeline makes it again and reports)."""
    if task.fingerprint is None or not text:
        return None
    try:
        return fingerprint_of(text, task.fingerprint)
    except Exception:  # noqa: BLE001 - keep the text; NearDuplicatePipeline retries and reports
        return None


def fall_back(task: ExtractionTask) -> FallbackResult:
    """The fallback's answer for ``task``'s page: the page as text (bytes decoded as the
    extraction decodes them) and its URL; a callable that cannot be loaded here fails."""
    page = task.page if isinstance(task.page, str) else decode_html(task.page).text
    try:
        function = cached_fallback(task.fallback)
    except ValueError as exc:  # checked at start-up; a worker may still lack the module
        return FallbackResult(error=str(exc))
    return call_fallback(function, page, task.url or "")


def with_fallback_text(extraction: Extraction, text: str) -> Extraction:
    """``extraction`` with the fallback's ``text``: the HTML and Markdown, which were the
    replaced choice's, are emptied; the rest (the estimate of the replaced text, the page
    type, the metadata) stays."""
    return replace(extraction, text=text, html="", markdown="", reason="")


def fingerprint_of(text: str, params: FingerprintParams) -> Fingerprint | None:
    """The fingerprint of ``text``; the fingerprint code is imported on the first call only."""
    from ..dedup._fingerprint import fingerprint_text  # datasketch, when asked

    return fingerprint_text(text, params)


def failed(task: ExtractionTask, kind: str, reason: str) -> ExtractionOutcome:
    """An outcome with empty fields, ``reason`` and the failure ``kind``."""
    return ExtractionOutcome(Extraction(algorithm=task.algorithm, reason=reason), kind)


TaskFunction = Callable[[ExtractionTask], ExtractionOutcome]


def call(function: TaskFunction, task: ExtractionTask) -> ExtractionOutcome:
    """``function(task)``; an exception becomes a failed outcome (a task function must not
    lose the item)."""
    try:
        return function(task)
    except Exception as exc:  # noqa: BLE001 - a task function must not lose the item
        return failed(task, "error", f"error: {type(exc).__name__}: {exc}")


def process_context() -> Any:
    """A start method that does not fork the crawler: forkserver where it exists, else spawn."""
    if "forkserver" in multiprocessing.get_all_start_methods():
        context = multiprocessing.get_context("forkserver")
        # Workers forked by the server start with the extraction core already imported.
        context.set_forkserver_preload([__name__])
        return context
    return multiprocessing.get_context("spawn")


def start_worker(
    context: Any, function: TaskFunction, preload: tuple[str, ...]
) -> tuple[Any, Connection] | str:
    """Start a worker process and wait (at most STARTUP_TIMEOUT) until it is ready: its
    process and the crawler's end of its pipe, or what went wrong. Blocks: call it from a
    helper thread, never from the event loop."""
    parent, child = context.Pipe()
    process = context.Process(
        target=_worker_main, args=(child, function, preload), name=WORKER_PROCESS_NAME, daemon=True
    )
    process.start()
    child.close()
    try:  # the process's sentinel too: a worker that died is seen at once
        if parent in wait([parent, process.sentinel], STARTUP_TIMEOUT) and parent.recv() == "ready":
            return process, parent
    except (OSError, EOFError):
        pass
    process.kill()
    process.join(STOP_TIMEOUT)
    parent.close()
    if process.exitcode == UNGUARDED_SCRIPT_EXIT:
        return UNGUARDED_SCRIPT
    return f"could not start a worker process (exit code {process.exitcode})"


def leave_unguarded_script() -> None:
    """In a worker process, which is importing the main script (the only way a worker runs
    anything but :func:`_worker_main`): the script starts the archive mode at its top level,
    without the ``if __name__ == "__main__":`` guard, and would read its archives again
    here. Exit at once, with :data:`UNGUARDED_SCRIPT_EXIT`; the pool that started the
    worker runs its pages in its own process instead, and says so once."""
    if multiprocessing.current_process().name != WORKER_PROCESS_NAME:
        return
    for stream in (sys.stdout, sys.stderr):
        if stream is not None:
            stream.flush()
    os._exit(UNGUARDED_SCRIPT_EXIT)


def reap(workers: Iterable[tuple[Any, Connection | None]]) -> None:
    """Wait for worker processes to exit (killing those that do not) and close their pipes;
    ``workers``: ``(process, connection)`` pairs. Blocks: call it from a helper thread."""
    for process, connection in workers:
        process.join(STOP_TIMEOUT)
        if process.is_alive():
            process.kill()
            process.join(STOP_TIMEOUT)
        if connection is not None:
            connection.close()


def send_quietly(connection: Connection | None, message: object) -> None:
    """Send ``message`` unless the pipe is gone (a worker told to stop may be dead already)."""
    if connection is None:
        return
    try:
        connection.send(message)
    except (OSError, ValueError):
        pass


def page_bytes(task: ExtractionTask) -> int:
    """At least the bytes ``task``'s page takes in the pipe (pickle writes text as UTF-8,
    at most 4 bytes a character), without encoding it; a fallback step's text too."""
    return sum(
        len(text) if isinstance(text, bytes) or text.isascii() else 4 * len(text)
        for text in (task.page, task.fallback_for or "")
    )


def widen_send_buffer(connection: Connection) -> int:
    """Ask for a send buffer of SEND_BUFFER bytes on the crawler's end of a worker's pipe
    (a socket pair); the size it has (0 where the pipe is not a socket)."""
    duplicate = os.dup(connection.fileno())
    try:
        sock = socket.socket(fileno=duplicate)
    except OSError:
        os.close(duplicate)
        return 0
    with sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, SEND_BUFFER)
        size: int = sock.getsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF)
    return size


def _worker_main(connection: Connection, function: TaskFunction, preload: tuple[str, ...] = ()) -> None:
    """A worker process: import ``preload``, then answer tasks until told to stop or the
    crawler goes away."""
    # Ctrl+C in a terminal reaches the whole process group; the crawler decides when to stop.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # A script run again here without its __main__ guard may have left a crawler's SIGTERM
    # handler, which would wait for a reactor that no longer runs: terminate as usual.
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    for module in preload:
        try:
            import_module(module)
        except Exception:  # noqa: BLE001, S112 - the page that needs it fails, and says why
            continue
    connection.send("ready")
    while True:
        try:
            task = connection.recv()
        except (OSError, EOFError):
            return
        if task is None:
            return
        outcome = call(function, task)
        try:
            connection.send(outcome)
        except (pickle.PicklingError, TypeError, AttributeError) as exc:  # nothing was sent
            connection.send(
                failed(task, "error", f"error: the result could not be sent: {type(exc).__name__}: {exc}")
            )


def timeout_reason(task: ExtractionTask, budget: float) -> str:
    """Why ``task`` failed at its ``budget``: the extraction's, or the fallback step's."""
    if task.fallback_for is not None:
        return f"timeout: the fallback took longer than {budget:g} s (MAINC_FALLBACK_TIMEOUT)"
    return f"timeout: extraction took longer than {budget:g} s (MAINC_TIMEOUT)"
