"""The worker pool on its own: modes, dead workers, time budget, shutdown.

Task functions used here are top-level functions of this module so that worker processes
can import them. Nothing waits on a fixed delay: a test that needs a task to be running
waits until the task has written its marker file.
"""

from __future__ import annotations

import asyncio
import dataclasses
import multiprocessing
import os
import pickle
import signal
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from scrapy_mainc import extract
from scrapy_mainc.core._types import Extraction
from scrapy_mainc.items._pool import WorkerPool
from scrapy_mainc.items._workers import ExtractionOutcome, ExtractionTask, page_bytes, run_extraction

SENTENCE = "<p>A sentence of the story, with commas, ends here. </p>"
PAGES = [
    "<html><body><div id=nav><a href=/a>Home</a> <a href=/b>World</a></div>"
    f"<div id=story><h1>Story {n}</h1>{SENTENCE * (n + 2)}</div></body></html>"
    for n in range(6)
]


def sleepy(task: ExtractionTask) -> ExtractionOutcome:
    """``page`` is "sleep:<seconds>"; ``url``, if set, is a marker file written on start."""
    if task.url:
        Path(task.url).write_text(str(os.getpid()))
    time.sleep(float(str(task.page).split(":")[1]))
    return ExtractionOutcome(Extraction(text=str(task.page), algorithm=task.algorithm))


def broken(task: ExtractionTask) -> ExtractionOutcome:
    raise RuntimeError("no luck")


def wait_for_marker(marker: Path) -> int:
    deadline = time.monotonic() + 60
    while not marker.exists() or not marker.read_text():
        assert time.monotonic() < deadline, "the task never started"
        time.sleep(0.01)
    return int(marker.read_text())


def without_time(outcome: ExtractionOutcome) -> ExtractionOutcome:
    return dataclasses.replace(outcome, extraction=dataclasses.replace(outcome.extraction, milliseconds=0.0))


@pytest.fixture
def pools() -> list[WorkerPool]:
    created: list[WorkerPool] = []
    yield created
    for pool in created:
        pool.kill_workers()
        pool.close(5)


def make(pools: list[WorkerPool], *args: object, **kwargs: object) -> WorkerPool:
    pool = WorkerPool(*args, **kwargs)  # type: ignore[arg-type]
    pools.append(pool)
    return pool


def test_run_extraction_is_extract() -> None:
    outcome = run_extraction(ExtractionTask(PAGES[2], url="http://x/", algorithm="auto"))
    assert outcome.failure == ""
    expected = extract(PAGES[2], url="http://x/", algorithm="auto")
    assert without_time(outcome).extraction == dataclasses.replace(expected, milliseconds=0.0)


def test_an_exception_becomes_a_failed_outcome() -> None:
    outcome = run_extraction(ExtractionTask(PAGES[0], algorithm="no-such-algorithm"))
    assert outcome.failure == "error"
    assert outcome.extraction.reason.startswith("error: ValueError")
    assert outcome.extraction.text == ""


def test_outcomes_survive_pickling() -> None:
    outcome = run_extraction(ExtractionTask(PAGES[1]))
    assert pickle.loads(pickle.dumps(outcome)) == outcome


@pytest.mark.parametrize("mode", ["process", "thread", "inline"])
def test_every_mode_gives_the_same_outcomes(pools: list[WorkerPool], mode: str) -> None:
    pool = make(pools, mode, 2, 60.0)
    tasks = [ExtractionTask(page, algorithm="auto") for page in PAGES]
    outcomes = [future.result(60) for future in [pool.submit(task) for task in tasks]]
    assert [without_time(o) for o in outcomes] == [without_time(run_extraction(t)) for t in tasks]


@pytest.mark.parametrize("mode", ["process", "thread"])
def test_a_task_function_that_raises_costs_one_page(pools: list[WorkerPool], mode: str) -> None:
    pool = make(pools, mode, 1, 60.0, function=broken)
    outcome = pool.submit(ExtractionTask("x")).result(60)
    assert outcome.failure == "error" and "RuntimeError: no luck" in outcome.extraction.reason


@pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL")
def test_a_worker_killed_mid_page_costs_that_page_only(pools: list[WorkerPool], tmp_path: Path) -> None:
    pool = make(pools, "process", 1, 60.0, function=sleepy)
    marker = tmp_path / "started"
    doomed = pool.submit(ExtractionTask("sleep:60", url=str(marker)))
    queued = pool.submit(ExtractionTask("sleep:0"))
    os.kill(wait_for_marker(marker), signal.SIGKILL)
    outcome = doomed.result(60)
    assert outcome.failure == "worker_died"
    assert outcome.extraction.reason.startswith("worker died")
    assert queued.result(60).extraction.text == "sleep:0"  # a new worker took over


def test_a_worker_that_died_idle_costs_nothing(pools: list[WorkerPool], tmp_path: Path) -> None:
    pool = make(pools, "process", 1, 60.0, function=sleepy)
    marker = tmp_path / "pid"
    assert pool.submit(ExtractionTask("sleep:0", url=str(marker))).result(60).failure == ""
    pid = int(marker.read_text())
    pool.kill_workers()
    while os.path.exists(f"/proc/{pid}") and "Z" not in _state(pid):
        time.sleep(0.01)
    outcome = pool.submit(ExtractionTask("sleep:0", url=str(marker))).result(60)
    assert outcome.failure == ""
    assert int(marker.read_text()) != pid


def _state(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return "Z"


@pytest.mark.parametrize("mode", ["process", "thread"])
def test_a_page_over_budget_times_out_and_the_slot_recovers(
    pools: list[WorkerPool], mode: str, tmp_path: Path
) -> None:
    pool = make(pools, mode, 1, 0.5, function=sleepy)
    stuck = pool.submit(ExtractionTask("sleep:60", url=str(tmp_path / "stuck")))
    outcome = stuck.result(60)
    assert outcome.failure == "timeout"
    assert outcome.extraction.reason.startswith("timeout: extraction took longer than 0.5 s")
    assert pool.submit(ExtractionTask("sleep:0")).result(60).failure == ""


def test_close_does_not_wait_for_a_stuck_worker(pools: list[WorkerPool], tmp_path: Path) -> None:
    pool = make(pools, "process", 1, 600.0, function=sleepy)
    marker = tmp_path / "started"
    pool.submit(ExtractionTask("sleep:600", url=str(marker)))
    wait_for_marker(marker)
    started = time.monotonic()
    pool.close(wait_seconds=0.2)
    assert time.monotonic() - started < 30  # returns after its wait, not after the page
    late = pool.submit(ExtractionTask("sleep:0")).result(5)
    assert late.failure == "closed"


def test_inline_runs_in_the_calling_thread() -> None:
    pool = WorkerPool("inline", 1, 1.0)
    future = pool.submit(ExtractionTask(PAGES[3]))
    assert future.done() and future.result().failure == ""


# --- The pool driven by the caller's asyncio loop (what crawls on asyncio use) ------------


def in_loop(test: Callable[[asyncio.AbstractEventLoop], Awaitable[None]]) -> None:
    async def main() -> None:
        await test(asyncio.get_running_loop())

    asyncio.run(main())


async def started(marker: Path) -> int:
    return await asyncio.to_thread(wait_for_marker, marker)


class LoopPool:
    """A process pool on the running loop, whose ``submit`` is awaitable."""

    def __init__(self, loop: asyncio.AbstractEventLoop, *args: Any, **kwargs: Any) -> None:
        self.pool = WorkerPool("process", *args, loop=loop, **kwargs)

    def submit(self, task: ExtractionTask) -> asyncio.Future[ExtractionOutcome]:
        return asyncio.wrap_future(self.pool.submit(task))

    def close(self, wait_seconds: float = 0.0) -> None:
        self.pool.close(wait_seconds)

    def kill_workers(self) -> None:
        self.pool.kill_workers()


def test_loop_pool_gives_the_same_outcomes() -> None:
    async def test(loop: asyncio.AbstractEventLoop) -> None:
        pool = LoopPool(loop, 2, 60.0)
        tasks = [ExtractionTask(page, algorithm="auto") for page in PAGES]
        outcomes = await asyncio.gather(*(pool.submit(task) for task in tasks))
        expected = [without_time(run_extraction(task)) for task in tasks]
        assert [without_time(outcome) for outcome in outcomes] == expected
        pool.close(5)

    in_loop(test)


@pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL")
def test_loop_pool_worker_killed_mid_page(tmp_path: Path) -> None:
    async def test(loop: asyncio.AbstractEventLoop) -> None:
        pool = LoopPool(loop, 1, 60.0, function=sleepy)
        doomed = pool.submit(ExtractionTask("sleep:60", url=str(tmp_path / "started")))
        queued = pool.submit(ExtractionTask("sleep:0"))
        os.kill(await started(tmp_path / "started"), signal.SIGKILL)
        outcome = await doomed
        assert outcome.failure == "worker_died"
        assert outcome.extraction.reason.startswith("worker died")
        assert (await queued).extraction.text == "sleep:0"
        pool.close(5)

    in_loop(test)


def test_loop_pool_worker_dead_while_idle_costs_nothing(tmp_path: Path) -> None:
    async def test(loop: asyncio.AbstractEventLoop) -> None:
        pool = LoopPool(loop, 1, 60.0, function=sleepy)
        marker = tmp_path / "pid"
        assert (await pool.submit(ExtractionTask("sleep:0", url=str(marker)))).failure == ""
        pid = int(marker.read_text())
        pool.kill_workers()
        for child in multiprocessing.active_children():  # wait until it is really gone
            if child.name == "mainc-worker":
                child.join(30)
        outcome = await pool.submit(ExtractionTask("sleep:0", url=str(marker)))
        assert outcome.failure == "" and int(marker.read_text()) != pid
        pool.close(5)

    in_loop(test)


def test_loop_pool_page_over_budget(tmp_path: Path) -> None:
    async def test(loop: asyncio.AbstractEventLoop) -> None:
        pool = LoopPool(loop, 1, 0.5, function=sleepy)
        outcome = await pool.submit(ExtractionTask("sleep:60"))
        assert outcome.failure == "timeout"
        assert outcome.extraction.reason.startswith("timeout: extraction took longer than 0.5 s")
        assert (await pool.submit(ExtractionTask("sleep:0"))).failure == ""
        pool.close(5)
        workers = [c for c in multiprocessing.active_children() if c.name == "mainc-worker"]
        assert workers == []

    in_loop(test)


def test_loop_pool_close_does_not_wait_for_a_stuck_worker(tmp_path: Path) -> None:
    async def test(loop: asyncio.AbstractEventLoop) -> None:
        pool = LoopPool(loop, 1, 600.0, function=sleepy)
        stuck = pool.submit(ExtractionTask("sleep:600", url=str(tmp_path / "started")))
        queued = pool.submit(ExtractionTask("sleep:0"))
        await started(tmp_path / "started")
        pool.close(wait_seconds=5)
        assert (await stuck).failure == "closed" and (await queued).failure == "closed"
        assert (await pool.submit(ExtractionTask("sleep:0"))).failure == "closed"

    in_loop(test)


@pytest.mark.parametrize("fallback", ["", "json.dumps"])  # a doubtful page's future is the pool's own
def test_loop_pool_skips_cancelled_pages(tmp_path: Path, fallback: str) -> None:
    async def test(loop: asyncio.AbstractEventLoop) -> None:
        pool = LoopPool(loop, 1, 60.0, function=sleepy)
        first = pool.submit(ExtractionTask("sleep:0.2", url=str(tmp_path / "first")))
        never = ExtractionTask("sleep:0", url=str(tmp_path / "never"), fallback=fallback, fallback_below=1.0)
        cancelled = pool.submit(never)
        cancelled.cancel()
        last = pool.submit(ExtractionTask("sleep:0"))
        assert (await first).failure == "" and (await last).failure == ""
        assert not (tmp_path / "never").exists()
        pool.close(5)

    in_loop(test)


# --- Defects measured in issue 25: close's bound, results the crawler cannot read --------


def _refuse() -> None:
    raise ValueError("this object cannot be rebuilt in the crawler")


class Unreadable:
    """Pickles in the worker; unpickling it in the crawler raises ValueError."""

    def __reduce__(self) -> tuple[object, tuple[()]]:
        return (_refuse, ())


def unreadable(task: ExtractionTask) -> ExtractionOutcome:
    """``page`` "unreadable": an outcome the crawler cannot unpickle; else as ``sleepy``."""
    if task.page != "unreadable":
        return sleepy(task)
    if task.url:
        Path(task.url).write_text(str(os.getpid()))
    return ExtractionOutcome(Extraction(text="lost"), fingerprint=Unreadable())  # type: ignore[arg-type]


#: How much longer than its ``wait_seconds`` close() may take on a busy 2-core machine.
CLOSE_SLACK = 1.5


@pytest.mark.parametrize("mode", ["process", "thread"])
def test_close_keeps_its_bound_with_every_slot_busy(
    pools: list[WorkerPool], mode: str, tmp_path: Path
) -> None:
    pool = make(pools, mode, 4, 600.0, function=sleepy)
    busy = [pool.submit(ExtractionTask("sleep:60", url=str(tmp_path / f"busy-{n}"))) for n in range(4)]
    queued = pool.submit(ExtractionTask("sleep:0"))
    for n in range(4):
        wait_for_marker(tmp_path / f"busy-{n}")
    started = time.monotonic()
    pool.close(wait_seconds=2.0)
    assert time.monotonic() - started < 2.0 + CLOSE_SLACK
    # Every future settles at close: none waits for its page or its budget.
    assert [future.result(timeout=1).failure for future in [*busy, queued]] == ["closed"] * 5


def test_a_result_the_crawler_cannot_read_costs_that_page_only(
    pools: list[WorkerPool], tmp_path: Path
) -> None:
    pool = make(pools, "process", 1, 60.0, function=unreadable)
    lost = pool.submit(ExtractionTask("unreadable", url=str(tmp_path / "first"))).result(30)
    assert lost.failure == "error"
    assert lost.extraction.reason.startswith("error: the worker's result could not be read: ValueError")
    after = pool.submit(ExtractionTask("sleep:0", url=str(tmp_path / "second"))).result(30)
    assert after.failure == ""
    assert (tmp_path / "second").read_text() == (tmp_path / "first").read_text()  # same worker


def test_loop_pool_result_the_crawler_cannot_read(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    async def test(loop: asyncio.AbstractEventLoop) -> None:
        pool = LoopPool(loop, 1, 60.0, function=unreadable)
        try:
            lost = await asyncio.wait_for(pool.submit(ExtractionTask("unreadable")), 30)
            after = await asyncio.wait_for(pool.submit(ExtractionTask("sleep:0")), 30)
        finally:
            pool.close(5)
        assert lost.failure == "error" and "could not be read: ValueError" in lost.extraction.reason
        assert after.failure == ""

    in_loop(test)
    assert [record.getMessage() for record in caplog.records if record.levelname == "ERROR"] == []


# --- A worker's next page waits in its pipe ----------------------------------------------


def page_length(task: ExtractionTask) -> ExtractionOutcome:
    """``sleepy`` for "sleep:<seconds>" pages; the length of any other page."""
    if isinstance(task.page, str) and task.page.startswith("sleep:"):
        return sleepy(task)
    return ExtractionOutcome(Extraction(text=str(len(task.page))))


def test_the_page_waiting_behind_one_over_budget_is_extracted(pools: list[WorkerPool]) -> None:
    pool = make(pools, "process", 1, 0.5, function=sleepy)
    pool.submit(ExtractionTask("sleep:0")).result(60)  # the worker is up: the next two go to it
    stuck, waiting = pool.submit(ExtractionTask("sleep:60")), pool.submit(ExtractionTask("sleep:0"))
    assert stuck.result(60).failure == "timeout"
    assert waiting.result(60).extraction.text == "sleep:0"  # by the replacement worker


def test_a_module_to_preload_that_does_not_import_costs_no_worker(pools: list[WorkerPool]) -> None:
    """A worker imports the fallback's module before its first page; one that does not import
    there fails the page's fallback, which says why, not the worker."""
    pool = make(pools, "process", 1, 60.0, preload=("scrapy_mainc_no_such_module",))
    outcome = pool.submit(ExtractionTask(PAGES[2], url="http://x/")).result(60)
    assert outcome.failure == "" and outcome.extraction.text


def test_a_page_too_large_to_wait_in_the_pipe_waits_in_the_queue(tmp_path: Path) -> None:
    """Writing it to a busy worker would block the event loop until the worker reads it."""

    async def test(loop: asyncio.AbstractEventLoop) -> None:
        pool = WorkerPool("process", 1, 60.0, function=page_length, loop=loop)
        try:
            await asyncio.wrap_future(pool.submit(ExtractionTask("warm-up")))
            busy = pool.submit(ExtractionTask("sleep:3", url=str(tmp_path / "busy")))
            await started(tmp_path / "busy")
            large = "x" * (16 * 1024 * 1024)  # more than any socket buffer holds
            before = time.monotonic()
            queued = pool.submit(ExtractionTask(large))
            assert time.monotonic() - before < 1.0  # not written to the busy worker
            assert (await asyncio.wrap_future(busy)).failure == ""
            assert (await asyncio.wrap_future(queued)).extraction.text == str(len(large))
        finally:
            pool.close(5)

    in_loop(test)


# --- A doubtful page's two tasks (MAINC_FALLBACK): review of issue 41's fallback budget -------

STEPS_RUN: list[str] = []


def two_steps(task: ExtractionTask) -> ExtractionOutcome:
    """Every extraction is doubtful; each task takes 0.5 s and says which step it was."""
    STEPS_RUN.append("step" if task.fallback_for is not None else "extract")
    time.sleep(0.5)
    return ExtractionOutcome(
        Extraction(algorithm="auto", text="text"), fallback_due=task.fallback_for is None
    )


def test_a_doubtful_page_cancelled_while_extracted_queues_no_fallback_step(pools: list[WorkerPool]) -> None:
    STEPS_RUN.clear()
    pool = make(pools, "thread", 1, 60.0, function=two_steps)
    page = pool.submit(ExtractionTask("page", fallback="json.dumps", fallback_below=0.5))
    time.sleep(0.2)  # the extraction runs
    page.cancel()  # the caller stops waiting
    time.sleep(1.0)
    assert STEPS_RUN == ["extract"]  # no step holds a slot for a page nobody waits for
    assert pool.submit(ExtractionTask("next")).result(10).extraction.text == "text"


def test_a_fallback_steps_text_counts_in_the_room_it_takes_in_a_pipe() -> None:
    """Else a step as large as the pipe's room would wait there, and its write block the loop."""
    assert page_bytes(ExtractionTask("a" * 10, fallback_for="b" * 5)) == 15
    assert page_bytes(ExtractionTask(b"a" * 10, fallback_for="é" * 5)) == 10 + 4 * 5
    assert page_bytes(ExtractionTask("a" * 10)) == 10
