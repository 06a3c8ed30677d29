#!/usr/bin/env python3
"""Our worker pool against pebble's ProcessPool: the failure cases, then crawl speed.

    pip install pebble   # not a dependency of scrapy_mainc: only this comparison needs it
    python benchmarks/pool_choice.py [--crawl] [--repeat 3] [--delays 0.05,0] [--depths 2,1]

The extraction pool must settle every page within its budget and lose only the page a
failure concerns. Each case runs once per pool, one worker, in a fresh interpreter:

- ``busy kill -9``: the worker is killed mid-page; the page fails, the next one works;
- ``idle kill -9``: the worker is killed between pages; the next page works;
- ``time-out``: a page sleeps past a 0.5 s budget; when does it settle, does the next work;
- ``unreadable result``: the worker returns an object the parent cannot unpickle;
- ``close(2.0)``: with 4 workers busy for 60 s, how long close takes.

``--crawl`` then crawls the bundled site (``benchmarks/crawl_bench.py``'s set-up: 2,080
pages, 16 concurrent requests, process mode) with each pool in turn: ours with each
``PAGES_PER_WORKER`` of ``--depths`` (1: no page waits in a busy worker's pipe), then
pebble's; it prints pages per second and the crawler's CPU per page, medians over
``--repeat`` runs. A crawl that has not finished after ``CRAWL_PATIENCE`` seconds is
killed and counted as hung.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import signal
import statistics
import subprocess
import sys
import time
from concurrent.futures import Future
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import crawl_bench  # noqa: E402

from scrapy_mainc.core._types import Extraction  # noqa: E402
from scrapy_mainc.integration._pool import WorkerPool  # noqa: E402
from scrapy_mainc.integration._workers import (  # noqa: E402
    WORKER_PROCESS_NAME,
    ExtractionOutcome,
    ExtractionTask,
    failed,
    process_context,
    run_extraction,
)

CASES = ("busy kill -9", "idle kill -9", "time-out", "unreadable result", "close(2.0)")
POOLS = ("mainc", "pebble")
#: Seconds after which a crawl of 2,080 pages is called hung (a loaded 2-core machine
#: crawls it in under two minutes).
CRAWL_PATIENCE = 300.0
#: How much of a failure's reason a table cell quotes.
REASON_CHARS = 48
#: How long a probe waits for a page's future before calling it unsettled.
PATIENCE = 20.0


# --- pebble behind the pool's interface --------------------------------------------------


class PebblePool:
    """pebble.ProcessPool with WorkerPool's interface: futures of outcomes, a budget."""

    mode = "process"

    def __init__(
        self, size: int, budget: float, function: Any = run_extraction, preload: tuple[str, ...] = ()
    ):
        import pebble

        self._budget = budget
        self._function = function
        self._pool = pebble.ProcessPool(max_workers=size, context=process_context())

    def submit(self, task: ExtractionTask) -> Future[ExtractionOutcome]:
        future: Future[ExtractionOutcome] = Future()
        try:
            scheduled = self._pool.schedule(self._function, (task,), timeout=self._budget)
        except Exception as exc:  # noqa: BLE001 - a broken pool takes no more tasks
            future.set_result(failed(task, "worker_died", f"pool broken: {type(exc).__name__}: {exc}"))
            return future
        scheduled.add_done_callback(lambda done: future.set_result(_outcome(task, done)))
        return future

    def close(self, wait_seconds: float = 0.0) -> None:
        self._pool.stop()
        self._pool.join(wait_seconds)


def _outcome(task: ExtractionTask, done: Future[ExtractionOutcome]) -> ExtractionOutcome:
    try:
        return done.result()
    except TimeoutError:
        return failed(task, "timeout", "timeout")
    except Exception as exc:  # noqa: BLE001 - ProcessExpired and the like
        return failed(task, "worker_died", f"{type(exc).__name__}: {exc}")


def make_pool(kind: str, size: int, budget: float, function: Any = run_extraction) -> Any:
    if kind == "pebble":
        return PebblePool(size, budget, function)
    return WorkerPool("process", size, budget, function=function)


# --- task functions (top level, for the worker processes) --------------------------------


def _refuse() -> None:
    raise ValueError("cannot be rebuilt in the parent")


class Unreadable:
    def __reduce__(self) -> tuple[object, tuple[()]]:
        return (_refuse, ())


def probe_task(task: ExtractionTask) -> ExtractionOutcome:
    """``page`` says what to do: "pid", "sleep:<s>" or "unreadable"."""
    command = str(task.page)
    if command.startswith("sleep:"):
        if task.url:
            Path(task.url).write_text(str(os.getpid()))
        time.sleep(float(command.split(":")[1]))
    if command == "unreadable":
        return ExtractionOutcome(Extraction(text="x"), fingerprint=Unreadable())  # type: ignore[arg-type]
    return ExtractionOutcome(Extraction(text=str(os.getpid())))


# --- the probes ---------------------------------------------------------------------------


def settle(future: Future[ExtractionOutcome], started: float) -> str:
    try:
        outcome = future.result(PATIENCE)
    except Exception:  # noqa: BLE001 - concurrent.futures.TimeoutError
        return f"not settled after {PATIENCE:g} s"
    elapsed = time.monotonic() - started
    if not outcome.failure:
        return f"ok after {elapsed:.2f} s"
    return f"{outcome.failure} ({outcome.extraction.reason[:REASON_CHARS]}) after {elapsed:.2f} s"


def workers() -> list[Any]:
    return [child for child in multiprocessing.active_children() if child.name != "ForkServerProcess"]


def wait_for_file(path: Path) -> None:
    deadline = time.monotonic() + PATIENCE
    while not (path.exists() and path.read_text()) and time.monotonic() < deadline:
        time.sleep(0.01)


def probe(kind: str, case: str, scratch: Path) -> str:
    size = 4 if case == "close(2.0)" else 1
    pool = make_pool(kind, size, 0.5 if case == "time-out" else 60.0, probe_task)
    try:
        return _probe(pool, case, scratch)
    finally:
        for child in workers():
            child.kill()


def _probe(pool: Any, case: str, scratch: Path) -> str:
    first = pool.submit(ExtractionTask("pid")).result(PATIENCE)  # the worker is up
    if case == "busy kill -9":
        marker = scratch / "busy"
        doomed = pool.submit(ExtractionTask("sleep:60", url=str(marker)))
        wait_for_file(marker)
        os.kill(int(marker.read_text()), signal.SIGKILL)
        result = settle(doomed, time.monotonic())
    elif case == "idle kill -9":
        os.kill(int(first.extraction.text), signal.SIGKILL)
        time.sleep(0.5)
        result = "killed"
    elif case == "time-out":
        result = settle(pool.submit(ExtractionTask("sleep:60")), time.monotonic())
    elif case == "unreadable result":
        result = settle(pool.submit(ExtractionTask("unreadable")), time.monotonic())
    else:
        markers = [scratch / f"busy-{n}" for n in range(4)]
        busy = [pool.submit(ExtractionTask("sleep:60", url=str(marker))) for marker in markers]
        for marker in markers:
            wait_for_file(marker)
        started = time.monotonic()
        pool.close(2.0)
        closed = time.monotonic() - started
        settled = sum(future.done() for future in busy)
        return f"returned after {closed:.2f} s, {settled}/4 pages settled"
    after = settle(pool.submit(ExtractionTask("pid")), time.monotonic())
    pool.close(2.0)
    return f"{result}; next page: {after}"


def run_probes() -> None:
    print("| case | " + " | ".join(POOLS) + " |")
    print("|---|" + "---|" * len(POOLS))
    for case in CASES:
        cells = []
        for kind in POOLS:
            done = subprocess.run(
                [sys.executable, __file__, "--probe", json.dumps([kind, case])],
                capture_output=True,
                text=True,
                timeout=120,
                check=False,
            )
            lines = done.stdout.strip().splitlines()
            cells.append(lines[-1] if done.returncode == 0 and lines else f"crashed: {done.stderr[-200:]!r}")
        print(f"| {case} | " + " | ".join(cells) + " |", flush=True)


# --- the crawls ------------------------------------------------------------------------


def crawl_child(job: dict[str, Any]) -> int:
    """One crawl_bench crawl, with ``job["pool"]`` as MaincPipeline's pool."""
    if job["pool"] == "pebble":
        from scrapy_mainc.integration import pipeline

        pipeline.make_pool = lambda config, preload=(): PebblePool(config.workers, config.timeout)  # type: ignore[assignment]
    else:  # "mainc-<pages per worker>"
        from scrapy_mainc.integration import _pool

        _pool.PAGES_PER_WORKER = int(job["pool"].rsplit("-", 1)[1])
    return crawl_bench.run_child(job)


def run_crawls(delays: list[float], repeat: int, pools: list[str]) -> None:
    """Crawl with each of ``pools`` in turn, ``repeat`` rounds (the machine's load drifts:
    taking turns spreads it over all of them)."""
    print("| server delay | pool | pages | extracted | pages/s | crawler CPU/page | runs (pages/s) |")
    print("|---:|---|---:|---:|---:|---:|---|")
    for delay in delays:
        server, url = crawl_bench.start_server(delay, None)
        try:
            runs: dict[str, list[dict[str, Any]]] = {kind: [] for kind in pools}
            for _ in range(repeat):
                for kind in pools:
                    runs[kind].append(crawl_once(url, kind))
            for kind in pools:
                print_row(delay, kind, runs[kind])
        finally:
            server.terminate()
            server.wait(10)


def crawl_once(url: str, kind: str) -> dict[str, Any]:
    job = {"url": url, "mode": "process", "copies": 160, "concurrency": 16, "freeze_gc": False}
    job.update({"concurrent_items": 0, "workers": 0, "reactor": "asyncio", "pool": kind})
    command = [sys.executable, __file__, "--crawl-child", json.dumps(job)]
    try:
        done = subprocess.run(command, capture_output=True, text=True, check=True, timeout=CRAWL_PATIENCE)
    except subprocess.TimeoutExpired:
        return {}  # hung
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def print_row(delay: float, kind: str, every_run: list[dict[str, Any]]) -> None:
    runs = [run for run in every_run if run]
    hung = f" ({len(every_run) - len(runs)} hung)" if len(runs) < len(every_run) else ""
    if not runs:
        print(f"| {delay * 1000:g} ms | {kind} | - | - | - | - | all hung |", flush=True)
        return
    speeds = [run["pages"] / run["seconds"] for run in runs]
    cpu = statistics.median(run["reactor_cpu_seconds"] * 1000 / run["pages"] for run in runs)
    each = ", ".join(f"{speed:.0f}" for speed in speeds)
    print(
        f"| {delay * 1000:g} ms | {kind} | {runs[0]['pages']} | {runs[0]['extracted']} "
        f"| {statistics.median(speeds):.0f} | {cpu:.1f} ms | {each}{hung} |",
        flush=True,
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--crawl", action="store_true", help="also crawl with each pool")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--delays", default="0.05,0")
    parser.add_argument("--depths", default="2,1", help="PAGES_PER_WORKER values to crawl with")
    parser.add_argument("--probe", help=argparse.SUPPRESS)
    parser.add_argument("--crawl-child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.probe:
        kind, case = json.loads(args.probe)
        scratch = Path(f"/tmp/pool-choice-{os.getpid()}")
        scratch.mkdir(exist_ok=True)
        print(probe(kind, case, scratch))
        return 0
    if args.crawl_child:
        return crawl_child(json.loads(args.crawl_child))
    assert WORKER_PROCESS_NAME  # the mainc pool's processes carry the name _startup looks for
    run_probes()
    if args.crawl:
        pools = [f"mainc-{depth}" for depth in args.depths.split(",")] + ["pebble"]
        run_crawls([float(value) for value in args.delays.split(",")], args.repeat, pools)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
