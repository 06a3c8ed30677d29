#!/usr/bin/env python3
"""Crawl speed with scrapy_mainc: pages per second and the reactor's longest stall.

    python -m benchmarks.speed.crawl [--copies 160] [--repeat 3] [--delays 0.05,0] [--articles DIR]
                                     [--reactor select]

Serves the bundled news site from loopback (``example_project/newsdemo/server.py``, in its
own process) repeated ``--copies`` times (13 pages a copy: 160 copies are 2,080 pages) and
crawls it with the example project's spider, 16 concurrent requests, once per worker mode
(``process``, ``thread``, ``inline``) and once with scrapy_mainc disabled, for each server
delay. Every crawl runs in a fresh interpreter. A 10 ms ``LoopingCall`` runs from spider
open to spider close; the longest gap between two of its ticks, minus the 10 ms, is the
reactor's largest stall. Python's own garbage collector stops the reactor too (a full
collection of a crawler's heap takes tens of milliseconds, with or without scrapy_mainc),
so the largest stall *outside* collector pauses is reported as well; ``--freeze-gc``
calls ``gc.freeze()`` at spider open, which keeps the start-up heap out of collections, and
``--concurrent-items N`` sets Scrapy's CONCURRENT_ITEMS (Scrapy starts that many asyncio
tasks for every response), both for every mode alike, the disabled one included.
``--articles DIR`` crawls the saved pages ``DIR/*.html`` instead (a front page links to
each of them; ``server.py --articles``), repeated to at least 2,000 pages unless
``--copies`` says otherwise: ``--articles ../shared/datasets/scrapinghub/html`` measures
the crawl on real news pages, several times heavier than the bundled ones. ``--reactor
select`` crawls on Twisted's select reactor instead of Scrapy's default asyncio reactor
(the worker pool then runs its own event loop in a thread).
``--modes`` may also name ``trafilatura-inline`` and ``trafilatura-pool``: the crawl without
scrapy_mainc and with a user-written pipeline calling ``trafilatura.extract(...,
with_metadata=True)`` inline or in a process pool (``peer_pipelines.py``; the ``peers``
extra). Besides the crawler's own CPU time per page, the table gives the CPU time of its
worker processes per page: every process descending from the crawl's (a forkserver's
workers too), their CPU read from ``/proc`` every half second and at spider close, each
keeping its last reading (Linux only; a worker's last half second before it exits may be
missed).
Prints a Markdown table, medians over ``--repeat`` runs.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

from benchmarks import ROOT

EXAMPLE = ROOT / "example_project"
MODES = ("process", "thread", "inline", "disabled")
#: Modes of peer_pipelines.py: trafilatura in a pipeline a user would write.
PEER_MODES = ("trafilatura-inline", "trafilatura-pool")
TICK = 0.010
#: Ticks between two readings of the worker processes' CPU (half a second).
SAMPLE_TICKS = 50
#: ``--reactor`` choices: Scrapy's default, and a Twisted reactor without asyncio.
REACTORS = {
    "asyncio": "twisted.internet.asyncioreactor.AsyncioSelectorReactor",
    "select": "twisted.internet.selectreactor.SelectReactor",
}
MIN_PAGES = 2000


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--copies", type=int, default=0, help="copies of the site (default: 160, or 2,000 pages)"
    )
    parser.add_argument("--articles", type=Path, help="crawl the saved pages DIR/*.html instead")
    parser.add_argument("--delays", default="0.05,0", help="server delays (s), comma-separated")
    parser.add_argument("--modes", default=",".join(MODES))
    parser.add_argument("--concurrency", type=int, default=16)
    parser.add_argument("--repeat", type=int, default=1, help="runs per configuration (median)")
    parser.add_argument("--freeze-gc", action="store_true", help="gc.freeze() at spider open")
    parser.add_argument(
        "--concurrent-items", type=int, default=0, help="CONCURRENT_ITEMS (default: Scrapy's)"
    )
    parser.add_argument("--workers", type=int, default=0, help="MAINC_WORKERS (default: CPUs)")
    parser.add_argument("--reactor", choices=sorted(REACTORS), default="asyncio")
    parser.add_argument("--child", help=argparse.SUPPRESS)  # internal: run one crawl
    args = parser.parse_args()
    if args.child:
        return run_child(json.loads(args.child))
    if not args.copies:  # the bundled site has 13 pages; a saved-pages site, one more than files
        site_pages = len(list(args.articles.glob("*.html"))) + 1 if args.articles else 0
        args.copies = -(-MIN_PAGES // site_pages) if site_pages else 160
    rows = []
    for delay in [float(value) for value in args.delays.split(",")]:
        server, url = start_server(delay, args.articles)
        try:
            for mode in args.modes.split(","):
                runs = [crawl_in_child(url, mode, args) for _ in range(args.repeat)]
                rows.append(summarize(delay, mode, runs))
                print(json.dumps(rows[-1]), file=sys.stderr, flush=True)
        finally:
            server.terminate()
            server.wait(10)
    print_table(rows)
    return 0


def start_server(delay: float, articles: Path | None) -> tuple[subprocess.Popen[str], str]:
    command = [sys.executable, str(EXAMPLE / "newsdemo" / "server.py"), "--port", "0"]
    if articles:
        command += ["--articles", str(articles.resolve())]
    server = subprocess.Popen([*command, "--delay", str(delay)], stdout=subprocess.PIPE, text=True)
    assert server.stdout is not None
    line = server.stdout.readline()
    return server, line.split(" at ")[1].split()[0]


def crawl_in_child(url: str, mode: str, args: argparse.Namespace) -> dict[str, float]:
    job = json.dumps(
        {
            "url": url,
            "mode": mode,
            "copies": args.copies,
            "concurrency": args.concurrency,
            "freeze_gc": args.freeze_gc,
            "concurrent_items": args.concurrent_items,
            "workers": args.workers,
            "reactor": args.reactor,
        }
    )
    done = subprocess.run(
        [sys.executable, "-m", __spec__.name, "--child", job],
        capture_output=True,
        text=True,
        check=False,
        cwd=ROOT,
    )
    if done.returncode != 0:
        raise SystemExit(f"crawl_bench: the {mode} crawl failed:\n{done.stderr[-4000:]}")
    result: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def summarize(delay: float, mode: str, runs: list[dict[str, float]]) -> dict[str, float | str]:
    return {
        "delay_ms": delay * 1000,
        "mode": mode,
        "pages": runs[0]["pages"],
        "items": runs[0]["items"],
        "extracted": runs[0]["extracted"],
        "seconds": statistics.median(run["seconds"] for run in runs),
        "pages_per_second": statistics.median(run["pages"] / run["seconds"] for run in runs),
        "max_stall_ms": statistics.median(run["max_stall_ms"] for run in runs),
        "max_stall_outside_gc_ms": statistics.median(run["max_stall_outside_gc_ms"] for run in runs),
        "max_gc_pause_ms": statistics.median(run["max_gc_pause_ms"] for run in runs),
        "reactor_cpu_ms_per_page": statistics.median(
            run["reactor_cpu_seconds"] * 1000 / run["pages"] for run in runs
        ),
        "worker_cpu_ms_per_page": statistics.median(
            run["worker_cpu_seconds"] * 1000 / run["pages"] for run in runs
        ),
        "runs": len(runs),
        "each_pages_per_second": [round(run["pages"] / run["seconds"]) for run in runs],
    }


def print_table(rows: list[dict[str, float | str]]) -> None:
    print(
        "| server delay | mode | pages | extracted | seconds | pages/s | vs disabled "
        "| largest stall | largest stall outside GC | largest GC pause | crawler CPU/page "
        "| workers' CPU/page |"
    )
    print("|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    speed = {(row["delay_ms"], row["mode"]): float(row["pages_per_second"]) for row in rows}
    for row in rows:
        baseline = speed.get((row["delay_ms"], "disabled"))
        ratio = f"{speed[row['delay_ms'], row['mode']] / baseline:.2f}" if baseline else "-"
        print(
            f"| {row['delay_ms']:g} ms | {row['mode']} | {row['pages']:.0f} "
            f"| {row['extracted']:.0f} | {row['seconds']:.1f} | {row['pages_per_second']:.0f} "
            f"| {ratio} | {row['max_stall_ms']:.0f} ms | {row['max_stall_outside_gc_ms']:.0f} ms "
            f"| {row['max_gc_pause_ms']:.0f} ms | {row['reactor_cpu_ms_per_page']:.1f} ms "
            f"| {row['worker_cpu_ms_per_page']:.1f} ms |"
        )
    for delay in sorted({row["delay_ms"] for row in rows}, reverse=True):
        process, inline = speed.get((delay, "process")), speed.get((delay, "inline"))
        if process and inline:
            print(f"{delay:g} ms delay: process / inline = {process / inline:.2f}")


# --- One crawl, in a fresh interpreter --------------------------------------------------


def run_child(job: dict[str, object]) -> int:
    import gc
    import resource

    from scrapy import signals
    from scrapy.crawler import CrawlerProcess
    from twisted.internet.task import LoopingCall

    from example_project.newsdemo.spiders.news import NewsSpider

    concurrency = int(job["concurrency"])  # type: ignore[call-overload]
    settings: dict[str, object] = {
        "LOG_LEVEL": "WARNING",
        "TELNETCONSOLE_ENABLED": False,
        "ROBOTSTXT_OBEY": False,
        "CONCURRENT_REQUESTS": concurrency,
        "CONCURRENT_REQUESTS_PER_DOMAIN": concurrency,
    }
    if job["concurrent_items"]:
        settings["CONCURRENT_ITEMS"] = job["concurrent_items"]
    if job["mode"] in PEER_MODES:
        from benchmarks.speed.peer_pipelines import SETTINGS

        settings.update(SETTINGS[str(job["mode"])])
    elif job["mode"] != "disabled":
        settings.update({"ADDONS": {"scrapy_mainc.Addon": 0}, "MAINC_WORKER_MODE": job["mode"]})
    if job["workers"]:
        settings["MAINC_WORKERS"] = job["workers"]
    settings["TWISTED_REACTOR"] = REACTORS[str(job.get("reactor", "asyncio"))]
    process = CrawlerProcess(settings)
    crawler = process.create_crawler(NewsSpider)
    clock = Stall()
    tickers: list[LoopingCall] = []  # created once the crawler has installed its reactor

    def opened() -> None:
        if job["freeze_gc"]:
            gc.freeze()
        gc.callbacks.append(clock.collector)
        tickers.append(LoopingCall(clock.tick))
        tickers[0].start(TICK)

    crawler.signals.connect(opened, signal=signals.spider_opened, weak=False)

    def closed() -> None:
        tickers[0].stop()
        clock.workers.sample()

    crawler.signals.connect(closed, signal=signals.spider_closed, weak=False)
    process.crawl(crawler, start_url=str(job["url"]), copies=str(job["copies"]))
    cpu_before = resource.getrusage(resource.RUSAGE_SELF)
    process.start()
    cpu_after = resource.getrusage(resource.RUSAGE_SELF)
    assert crawler.stats is not None
    stats = crawler.stats.get_stats()
    result = {
        "pages": stats.get("response_received_count", 0),
        "items": stats.get("item_scraped_count", 0),
        "extracted": stats.get("mainc/extracted", 0),
        "seconds": clock.last - clock.first,
        "max_stall_ms": max(0.0, clock.max_gap - TICK) * 1000,
        "max_stall_outside_gc_ms": max(0.0, clock.max_gap_outside_gc - TICK) * 1000,
        "max_gc_pause_ms": clock.max_gc_pause * 1000,
        "reactor_cpu_seconds": (cpu_after.ru_utime + cpu_after.ru_stime)
        - (cpu_before.ru_utime + cpu_before.ru_stime),
        "worker_cpu_seconds": clock.workers.total(),
    }
    print(json.dumps(result))
    return 0


class Descendants:
    """The CPU seconds of the processes descending from this one, each process's last
    reading kept (``/proc/<pid>/stat``: user and system time in clock ticks)."""

    def __init__(self) -> None:
        self.seconds: dict[int, float] = {}
        self.tick = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100

    def sample(self) -> None:
        children: dict[int, list[int]] = {}
        times: dict[int, float] = {}
        for entry in Path("/proc").glob("[0-9]*/stat"):
            try:
                fields = entry.read_text().rsplit(")", 1)[1].split()
            except (OSError, IndexError):
                continue  # gone, or not readable
            pid = int(entry.parent.name)
            children.setdefault(int(fields[1]), []).append(pid)
            times[pid] = (int(fields[11]) + int(fields[12])) / self.tick
        waiting = list(children.get(os.getpid(), []))
        while waiting:
            pid = waiting.pop()
            self.seconds[pid] = times[pid]
            waiting.extend(children.get(pid, []))

    def total(self) -> float:
        return sum(self.seconds.values())


class Stall:
    """Records the longest gap between ticks, with and without the collector's pauses,
    and samples the worker processes' CPU every :data:`SAMPLE_TICKS` ticks."""

    def __init__(self) -> None:
        self.workers = Descendants()
        self.ticks = 0
        self.first = self.last = 0.0
        self.max_gap = self.max_gap_outside_gc = self.max_gc_pause = 0.0
        self.gc_in_gap = 0.0  # collector time since the last tick
        self._gc_started = 0.0

    def tick(self) -> None:
        now = time.perf_counter()
        if self.first:
            gap = now - self.last
            self.max_gap = max(self.max_gap, gap)
            self.max_gap_outside_gc = max(self.max_gap_outside_gc, gap - self.gc_in_gap)
        else:
            self.first = now
        self.last = now
        self.gc_in_gap = 0.0
        self.ticks += 1
        if self.ticks % SAMPLE_TICKS == 0:
            self.workers.sample()

    def collector(self, phase: str, info: dict[str, int]) -> None:
        """A ``gc.callbacks`` hook: time every collection."""
        if phase == "start":
            self._gc_started = time.perf_counter()
        elif self._gc_started:
            pause = time.perf_counter() - self._gc_started
            self.gc_in_gap += pause
            self.max_gc_pause = max(self.max_gc_pause, pause)


if __name__ == "__main__":
    raise SystemExit(main())
