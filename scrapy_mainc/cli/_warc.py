"""``mainc warc PATH... -o items.jsonl``: the items of ``mainc crawl`` from WARC files (the
archive mode, :mod:`scrapy_mainc.archive`).

A path is a .warc, .warc.gz, .wacz, .arc or .arc.gz file, a folder of them (at any
depth) or a glob pattern. Each response (or resource) record holding an HTML page becomes
the item a crawl makes of it, with the crawl's options and settings; the other records are
counted by kind, and every damaged record, cut file or unreadable file is counted with its
reason while the rest goes on. With --parts DIR the files are read as a Dask job instead:
one part file per input in DIR and the job's summary (_job.json); a job started again
skips the files it finished.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from ._errors import CommandError
from ._options import add_item_options, item_options
from ._values import whole_number

if TYPE_CHECKING:
    from ..archive._run import ArchiveJob

#: The exit status of a job stopped by Ctrl+C: 128 + SIGINT, as a shell reports it.
INTERRUPTED_STATUS = 130


def add_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    command = commands.add_parser(
        "warc",
        help="the items of a crawl from WARC files (archive mode); JSON Lines",
        description=__doc__.split("\n\n")[1] if __doc__ else None,
    )
    command.add_argument(
        "inputs", nargs="+", metavar="PATH", help=".warc, .warc.gz, .wacz, .arc, .arc.gz, folder or glob"
    )
    command.add_argument(
        "--parts", default="", metavar="DIR", help="run as a Dask job: one part file per input in DIR"
    )
    command.add_argument(
        "--scheduler", default="", metavar="ADDRESS", help="the Dask scheduler (tcp://host:8786) of --parts"
    )
    command.add_argument(
        "--dask-workers",
        type=whole_number(1, "not a positive integer: {!r} (without --dask-workers: one per core)"),
        default=0,
        metavar="N",
        help="worker processes of a local Dask cluster, without --scheduler (default: one per core)",
    )
    add_item_options(command, "a MAINC_ setting")
    command.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from ..archive._optional import MissingDependency
    from ..archive._run import ArchiveJob

    if (args.scheduler or args.dask_workers) and not args.parts:
        raise CommandError("--scheduler and --dask-workers run a Dask job: give --parts DIR too")
    if args.parts and args.limit:
        raise CommandError("--limit applies to mainc warc in one process, not to a Dask job (--parts)")
    if args.parts and args.output is not None:
        raise CommandError(
            "-o writes the items of mainc warc in one process; a Dask job writes them to --parts DIR"
        )
    job = ArchiveJob(
        inputs=tuple(args.inputs),
        parts=args.parts,
        scheduler=args.scheduler,
        dask_workers=args.dask_workers,
        **item_options(args),
    )
    try:
        return _run(job)
    except MissingDependency as exc:
        raise CommandError(str(exc)) from None


def _run(job: ArchiveJob) -> int:
    from ..archive._job import JobError, check_job, dask_client, finished_files, run_job
    from ..archive._run import COMMAND, run_here
    from ..archive._sources import SourceError, archive_files
    from ..items._cluster_index import IndexUnavailable

    try:
        config = job.config()
        files = archive_files(list(job.inputs))
    except (ValueError, SourceError) as exc:
        raise CommandError(str(exc)) from None
    _warn_of_idle_settings(job)
    if not job.parts:
        try:
            return run_here(job, files, config)
        except IndexUnavailable as exc:
            raise CommandError(str(exc)) from None
        except KeyboardInterrupt:  # Ctrl+C: one line, and the shell's status of an interrupt
            where = "standard output" if job.output == "-" else job.output
            return _interrupted(f"{COMMAND}: interrupted: the items read so far are in {where}")
    try:
        check_job(config)
        with dask_client(job.scheduler, job.dask_workers) as client:
            summary = run_job(client, files, Path(job.parts), config)
    except JobError as exc:
        raise CommandError(str(exc)) from None
    except KeyboardInterrupt:  # the cluster is closed: what is done is done
        done = finished_files(files, Path(job.parts))
        return _interrupted(
            f"{COMMAND}: interrupted: {done} of {len(files)} files done; "
            "the same command again resumes with the others"
        )
    print("\n".join(summary.lines(COMMAND, f"{Path(job.parts)}/")), file=sys.stderr, flush=True)
    return 0 if sum(summary.records.values()) or summary.resumed else 1


def _warn_of_idle_settings(job: ArchiveJob) -> None:
    """Say at WARNING, as ``mainc crawl`` does and with its function, each ``-s`` setting
    that does nothing without another (``MAINC_FALLBACK_BELOW`` without ``MAINC_FALLBACK``)."""
    from ..integration._startup import warn_of_idle

    warn_of_idle(job.settings)


def _interrupted(line: str) -> int:
    print(line, file=sys.stderr, flush=True)
    return INTERRUPTED_STATUS
