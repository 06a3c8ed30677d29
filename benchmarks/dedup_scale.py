"""Scale of the Redis near-duplicate index: memory per fingerprint and ``assign`` throughput.

    python benchmarks/dedup_scale.py                      # 20,000 texts, about a minute
    python benchmarks/dedup_scale.py --texts 200000       # the figures of docs/benchmarks.md
    python benchmarks/dedup_scale.py --buckets 2048       # hashes per band (IndexParams.redis_buckets)

Starts its own ``redis-server`` on a free loopback port (no persistence, default
configuration), loads synthetic fingerprints into a ``RedisIndex`` with one process, then
reports Redis's memory (``INFO memory``, and ``MEMORY USAGE`` of every key, by kind), and
loads them again into an empty database with ``--processes`` processes at once (default 1
and 4) to time ``assign``.

The fingerprints are synthetic, so that the index rather than hashing texts is measured:
a story is a random signature of ``num_perm`` 32-bit values with a set size drawn from a
log-normal distribution (median 500 shingles, a news article of about 500 words). A copy
of Jaccard similarity ``J`` with it keeps each value with probability ``J`` and draws the
others anew, which is how MinHash values of two sets with Jaccard ``J`` behave. Of the
texts, ``NEW_SHARE`` are new stories and the rest copies of earlier ones: half edited
copies (``J`` from 0.85 to 1, size within 5%), half cut copies (a share ``r`` from 0.55 to
0.95 of the story, all of it contained: ``J = r``). Everything is seeded; figures vary with
the machine (report them with its CPU count).
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import redis

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "example_project"))

from newsdemo.localredis import find_redis_server, start_redis_server  # noqa: E402

from scrapy_mainc.dedup import Fingerprint, IndexParams, open_index  # noqa: E402

SEED = 20240611
#: Share of the texts that are new stories; the others are copies of earlier stories.
NEW_SHARE = 0.7
MEDIAN_SHINGLES = 500
KEY_KINDS = ("rec", "band", "meta", "stripe")


@dataclass(frozen=True, slots=True)
class Workload:
    """Signatures and set sizes of the texts, in arrival order, and how many are stories."""

    minhash: np.ndarray  # (texts, num_perm) uint32
    shingles: np.ndarray  # (texts,) int64
    stories: int


def make_workload(texts: int, num_perm: int, seed: int) -> Workload:
    """Stories and copies as described in the module docstring, shuffled."""
    rng = np.random.default_rng(seed)
    stories = int(texts * NEW_SHARE)
    story_values = rng.integers(0, 2**32, size=(stories, num_perm), dtype=np.uint32)
    story_sizes = np.clip(rng.lognormal(np.log(MEDIAN_SHINGLES), 0.6, stories), 60, 20_000).astype(np.int64)
    copies = texts - stories
    source = rng.integers(0, stories, size=copies)
    cut = rng.random(copies) < 0.5
    share = np.where(cut, rng.uniform(0.55, 0.95, copies), rng.uniform(0.95, 1.05, copies))
    jaccard = np.where(cut, share, rng.uniform(0.85, 1.0, copies))
    keep = rng.random((copies, num_perm)) < jaccard[:, None]
    fresh = rng.integers(0, 2**32, size=(copies, num_perm), dtype=np.uint32)
    copy_values = np.where(keep, story_values[source], fresh)
    copy_sizes = np.maximum((story_sizes[source] * share).astype(np.int64), 1)
    order = rng.permutation(texts)
    return Workload(
        np.concatenate([story_values, copy_values])[order],
        np.concatenate([story_sizes, copy_sizes])[order],
        stories,
    )


def fingerprint_of(workload: Workload, row: int, params: IndexParams) -> Fingerprint:
    shingles = int(workload.shingles[row])
    return Fingerprint(
        method=params.fingerprint.method,
        minhash=tuple(workload.minhash[row].tolist()),
        simhash=0,
        words=shingles + params.fingerprint.word_shingle - 1,
        shingles=shingles,
    )


def load(params: IndexParams, path: str, rows: range, start: Any, results: Any) -> None:
    """One process: assign ``rows`` of the workload saved at ``path``; report counts and times."""
    data = np.load(path)
    workload = Workload(data["minhash"], data["shingles"], int(data["stories"]))
    kinds: Counter[str] = Counter()
    seconds: Counter[str] = Counter()
    with open_index(params) as index:
        start.wait()
        began = time.perf_counter()
        for row in rows:
            fingerprint = fingerprint_of(workload, row, params)
            before = time.perf_counter()
            kind = "duplicate" if index.assign(fingerprint, f"http://t/{row}").is_duplicate else "new"
            seconds[kind] += time.perf_counter() - before
            kinds[kind] += 1
        results.put((time.perf_counter() - began, dict(kinds), dict(seconds)))


def run_processes(params: IndexParams, path: str, texts: int, processes: int) -> dict[str, Any]:
    """Load all texts with ``processes`` processes (text i goes to process i mod n)."""
    context = multiprocessing.get_context("spawn")
    start, results = context.Barrier(processes), context.Queue()
    workers = [
        context.Process(target=load, args=(params, path, range(n, texts, processes), start, results))
        for n in range(processes)
    ]
    for worker in workers:
        worker.start()
    outcomes = [results.get(timeout=3600) for _ in workers]
    for worker in workers:
        worker.join()
    kinds: Counter[str] = Counter()
    seconds: Counter[str] = Counter()
    for _, worker_kinds, worker_seconds in outcomes:
        kinds.update(worker_kinds)
        seconds.update(worker_seconds)
    wall = max(elapsed for elapsed, _, _ in outcomes)
    return {"wall": wall, "kinds": kinds, "seconds": seconds}


def memory_by_kind(client: redis.Redis) -> dict[str, tuple[int, int]]:
    """Kind of key (``mainc:dedup:<kind>:...``) -> (keys, bytes by ``MEMORY USAGE``)."""
    found: dict[str, list[int]] = {kind: [0, 0] for kind in KEY_KINDS}
    batch: list[bytes] = []

    def flush() -> None:
        pipe = client.pipeline(transaction=False)
        for key in batch:
            pipe.memory_usage(key, samples=0)
        for key, size in zip(batch, pipe.execute()):
            kind = key.split(b":")[2].decode()
            found.setdefault(kind, [0, 0])
            found[kind][0] += 1
            found[kind][1] += int(size or 0)
        batch.clear()

    for key in client.scan_iter(match="mainc:dedup:*", count=10_000):
        batch.append(key)
        if len(batch) >= 10_000:
            flush()
    flush()
    return {kind: (keys, size) for kind, (keys, size) in found.items() if keys}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--texts", type=int, default=20_000)
    parser.add_argument("--buckets", type=int, default=IndexParams().redis_buckets)
    parser.add_argument("--processes", type=int, nargs="+", default=[1, 4])
    args = parser.parse_args(argv)
    binary = find_redis_server()
    if binary is None:
        parser.error("no redis-server binary found")
    with tempfile.TemporaryDirectory() as scratch:
        server = start_redis_server(binary, Path(scratch) / "redis")
        try:
            report(args, server.url, Path(scratch) / "workload.npz")
        finally:
            server.stop()
    return 0


def report(args: argparse.Namespace, url: str, path: Path) -> None:
    params = IndexParams(redis_url=url, redis_buckets=args.buckets)
    workload = make_workload(args.texts, params.fingerprint.num_perm, SEED)
    np.savez(path, minhash=workload.minhash, shingles=workload.shingles, stories=workload.stories)
    client = redis.Redis.from_url(url)
    print(
        f"{args.texts:,} synthetic texts ({workload.stories:,} stories, the rest copies), "
        f"{params.fingerprint.num_perm} permutations, LSH {params.lsh_shape[0]} bands x "
        f"{params.lsh_shape[1]} rows, {args.buckets:,} hashes per band; {os.cpu_count()} CPUs; "
        f"redis-server {client.info('server')['redis_version']}.\n"
    )
    rows = [
        "| processes | texts/s | ms per new text | ms per duplicate | Redis commands per text "
        "| Redis CPU µs per text | clusters | duplicates |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for count in args.processes:
        client.flushall()
        baseline = int(client.info("memory")["used_memory"])
        before = server_counters(client)
        outcome = run_processes(params, str(path), args.texts, count)
        commands, cpu = (after - start for after, start in zip(server_counters(client), before))
        kinds, seconds = outcome["kinds"], outcome["seconds"]
        rows.append(
            f"| {count} | {args.texts / outcome['wall']:,.0f} | "
            f"{1000 * seconds['new'] / max(kinds['new'], 1):.2f} | "
            f"{1000 * seconds['duplicate'] / max(kinds['duplicate'], 1):.2f} | "
            f"{commands / args.texts:.1f} | {1e6 * cpu / args.texts:.0f} | "
            f"{kinds['new']:,} | {kinds['duplicate']:,} |"
        )
        if count == args.processes[0]:
            memory_lines = memory_report(client, baseline, args.texts, kinds["new"])
    client.close()
    print("\n".join(memory_lines))
    print()
    print("\n".join(rows))


def server_counters(client: redis.Redis) -> tuple[float, float]:
    """Commands processed and CPU seconds (user and system) of the server so far."""
    stats, cpu = client.info("stats"), client.info("cpu")
    return float(stats["total_commands_processed"]), float(cpu["used_cpu_user"]) + float(cpu["used_cpu_sys"])


def memory_report(client: redis.Redis, baseline: int, texts: int, clusters: int) -> list[str]:
    used = int(client.info("memory")["used_memory"]) - baseline
    by_kind = memory_by_kind(client)
    representatives = sum(
        client.hlen(key) for key in client.scan_iter(match="mainc:dedup:rec:*", count=10_000)
    )
    lines = [
        f"Redis `used_memory` grew by {used / 2**20:,.1f} MiB: {used / texts:,.0f} bytes per text "
        f"({used / texts * 1e6 / 2**30:,.2f} GiB per million texts), {used / clusters:,.0f} per "
        f"cluster; {representatives:,} representatives ({representatives - clusters:,} longer copies).",
        "",
        "| keys | count | MiB (`MEMORY USAGE`) | bytes per representative |",
        "|---|---:|---:|---:|",
    ]
    for kind, (keys, size) in by_kind.items():
        lines.append(f"| `{kind}` | {keys:,} | {size / 2**20:,.1f} | {size / max(representatives, 1):,.0f} |")
    return lines


if __name__ == "__main__":
    raise SystemExit(main())
