"""The Dask job: one task per archive file, one part file per input, and the job's summary.

:func:`run_job` plans the job in the folder ``parts``: each input file gets a part file
named after it (``<name>-<8 hex digits of its path>.jsonl``) and, once the part is
complete, its summary beside it (``.summary.json``). A file whose summary is there was
done by an earlier run of the job and is skipped (unless its size changed since), so a
job that was killed and started again redoes only the files it had not finished: a part
is written under a temporary name and renamed when complete, and its summary written after
it, so no part is ever half written or counted twice. A file that could not be read gets
no part and no summary: a restart tries it again. The other files go to the Dask cluster
as tasks (:func:`read_file`, run by a worker); the clients and the workers need the
package, and with clustering on every task opens the shared Redis index (a Dask job needs
one: an index in memory would be one per task). The job's summary (records by kind, items, problems,
each worker's files and time) is written to ``_job.json``.

Each task runs its pages in one thread of its worker (``MAINC_TIMEOUT`` still holds); the
cluster's workers are the parallelism: give one worker process per core
(``dask worker SCHEDULER --nworkers N --nthreads 1``).
"""

from __future__ import annotations

import hashlib
import logging
import signal
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any, TextIO

from ..config._mainc_config import default_workers
from ..config._offline import OfflineConfig
from ..items._cluster_index import IndexUnavailable, open_shared_index
from ._files import file_items, write_part
from ._items import ArchiveExtractor
from ._optional import require_distributed
from ._run import COMMAND
from ._sources import ARCHIVE_SUFFIXES
from ._summary import FileSummary, JobSummary

#: The job's summary, in the parts folder.
JOB_SUMMARY = "_job.json"
SUMMARY_SUFFIX = ".summary.json"
#: How a task runs its pages: in a thread of its Dask worker (a worker is a daemon
#: process, which may not start processes of its own).
TASK_WORKER_MODE = "thread"


class JobError(Exception):
    """A job that cannot run as asked: one line for the user."""


def part_path(parts: Path, source: Path) -> Path:
    """The part file of ``source``: its name without the archive suffix, and 8 hex digits
    of its absolute path, so that two inputs of one name keep two parts."""
    name = source.name
    for suffix in sorted(ARCHIVE_SUFFIXES, key=len, reverse=True):  # .warc.gz before .warc
        if name.lower().endswith(suffix):
            name = name[: -len(suffix)]
            break
    digest = hashlib.blake2b(str(source.resolve()).encode(), digest_size=4).hexdigest()
    return parts / f"{name}-{digest}.jsonl"


def read_file(source: str, part: str, config: OfflineConfig) -> FileSummary:
    """The task: the items of ``source`` into ``part``, then its summary beside it, which
    marks the file done; a file that could not be read leaves neither (a restart tries it
    again)."""
    summary = FileSummary(source, part=part, worker=_worker_address(), source_bytes=source_size(source))
    started = time.monotonic()
    with ArchiveExtractor(config, summary, worker_mode=TASK_WORKER_MODE) as extractor:
        write_part(Path(part), file_items(Path(source), extractor))
    summary.seconds = round(time.monotonic() - started, 3)
    if summary.errors["unreadable"]:  # not done: no part is left, and a restart reads it again
        Path(part).unlink(missing_ok=True)
        summary.items = 0
        return summary
    marker = Path(part + SUMMARY_SUFFIX)
    temporary = marker.with_name(marker.name + ".tmp")
    temporary.write_text(summary.to_json(), encoding="utf-8")
    temporary.replace(marker)
    return summary


def source_size(source: str | Path) -> int:
    """The size of ``source`` in bytes; -1 when it cannot be read."""
    try:
        return Path(source).stat().st_size
    except OSError:
        return -1


def finished_files(files: list[Path], parts: Path) -> int:
    """How many of ``files`` the job in ``parts`` has done (a job started again skips them)."""
    return sum(
        _finished(Path(f"{part_path(parts, source)}{SUMMARY_SUFFIX}"), source) is not None for source in files
    )


def _finished(marker: Path, source: Path) -> FileSummary | None:
    """The summary of an earlier run's ``source``, if it finished the file as it is now."""
    if not marker.exists():
        return None
    summary = FileSummary.load(marker)
    return summary if summary.source_bytes == source_size(source) else None


def _worker_address() -> str:
    try:
        return str(require_distributed().get_worker().address)
    except ValueError:  # not in a Dask worker (the function called directly)
        return ""


def _result(future: Any, source: str) -> FileSummary:
    """The task's summary; a task that failed (its worker died, the index could not be
    opened) is a problem of its file, whose part is not marked done: a restart redoes it."""
    try:
        summary: FileSummary = future.result()
    except Exception as exc:  # noqa: BLE001 - one file's failure, said, and the job goes on
        summary = FileSummary(source)
        summary.problem(0, "task failed", f"{type(exc).__name__}: {exc}")
    return summary


def check_job(config: OfflineConfig) -> None:
    """A :class:`JobError` for a configuration a Dask job cannot run: clustering without a
    Redis index, or with one that cannot be opened (tried here, before any task)."""
    dedup = config.dedup
    if dedup.enabled and not dedup.redis_url:
        raise JobError(
            "a Dask job clusters near-duplicates in a shared index: give --redis URL "
            "(MAINC_DEDUP_REDIS_URL); an index in memory would be one per task"
        )
    if dedup.enabled:
        try:
            index, _ = open_shared_index(dedup, fallback=False)
        except IndexUnavailable as exc:
            raise JobError(str(exc)) from None
        index.close()


def task_config(config: OfflineConfig) -> OfflineConfig:
    """The tasks' configuration: a Redis index that cannot be opened fails the task (its
    file is done again when the job is), never an index in the task's memory."""
    if not config.dedup.enabled or config.dedup.redis_required:
        return config
    return replace(config, dedup=replace(config.dedup, redis_required=True))


@contextmanager
def dask_client(scheduler: str = "", workers: int = 0) -> Iterator[Any]:
    """A client of the cluster at ``scheduler``, or of a local cluster of ``workers``
    worker processes (default: one per core) of one thread each, closed afterwards.

    Ctrl+C reaches every process of a terminal's job; the local cluster's processes start
    with it ignored, so that it stops this process only (no traceback of each worker),
    which then closes the cluster without a word (its processes' warnings of being stopped
    are not said) and lets the KeyboardInterrupt go on."""
    distributed = require_distributed()
    if scheduler:
        with distributed.Client(scheduler) as client:
            yield client
        return
    count = workers or default_workers()
    with _interrupts_ignored():  # the cluster's processes inherit it
        # (its HTTP server on a free port: on 8787, taken by another job, it warns in 4 lines)
        cluster = distributed.LocalCluster(
            n_workers=count, threads_per_worker=1, processes=True, dashboard_address=":0"
        )
    client = None
    try:
        client = distributed.Client(cluster)
        yield client
    except KeyboardInterrupt:  # stopping: nothing more to say, here or in the workers
        silence_distributed()
        if client is not None:
            client.run(silence_distributed, on_error="ignore")
        raise
    finally:
        if client is not None:
            client.close()
        cluster.close()


def silence_distributed() -> None:
    """No more log lines from Dask in this process (run in each worker too)."""
    logging.getLogger("distributed").setLevel(logging.CRITICAL)


@contextmanager
def _interrupts_ignored() -> Iterator[None]:
    """SIGINT ignored meanwhile (in the main thread, the only one that may set it)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def run_job(
    client: Any, files: list[Path], parts: Path, config: OfflineConfig, stream: TextIO | None = None
) -> JobSummary:
    """Run the job for ``files`` on the Dask ``client``'s cluster (see the module
    docstring); progress lines go to ``stream`` (standard error)."""
    stream = stream or sys.stderr
    check_job(config)
    distributed = require_distributed()
    started = time.monotonic()
    parts.mkdir(parents=True, exist_ok=True)
    done: list[FileSummary] = []
    todo: list[tuple[str, str]] = []
    for source in files:
        part = part_path(parts, source)
        finished = _finished(Path(str(part) + SUMMARY_SUFFIX), source)
        if finished is not None:
            done.append(finished)
        else:
            todo.append((str(source), str(part)))
    resumed = len(done)
    config = task_config(config)
    futures = {client.submit(read_file, source, part, config, pure=False): source for source, part in todo}
    for future in distributed.as_completed(futures):
        summary = _result(future, futures[future])
        done.append(summary)
        print(
            f"{COMMAND}: {len(done)}/{len(files)} files: {summary.file}: {summary.items} items, "
            f"{sum(summary.errors.values())} problems, {summary.seconds:.1f} s on {summary.worker}",
            file=stream,
            flush=True,
        )
    job = JobSummary.of(done, time.monotonic() - started, resumed)
    (parts / JOB_SUMMARY).write_text(job.to_json(), encoding="utf-8")
    return job
