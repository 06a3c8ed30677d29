"""Scale of the Redis near-duplicate index: memory per text and ``assign`` throughput, on one
Redis server and on a Redis Cluster.

    python -m benchmarks.speed.dedup_scale                      # 20,000 texts on one server
    python -m benchmarks.speed.dedup_scale --texts 200000       # the figures of docs/benchmarks.md
    python -m benchmarks.speed.dedup_scale --buckets 2048       # hashes per band (IndexParams.redis_buckets)
    python -m benchmarks.speed.dedup_scale --targets server cluster --processes 1 2 4 \
        --texts 24000 --buckets 256 --url-bytes 80        # docs/dedup.md: one server vs 3 masters

Starts its own ``redis-server`` on a free loopback port (no persistence, default
configuration), or with ``--targets cluster`` a Redis Cluster of ``--masters`` masters
without replicas (``newsdemo/localcluster.py``; needs ``redis-cli``), loads synthetic
fingerprints into a ``RedisIndex`` with one process, then reports Redis's memory (``INFO
memory`` of every master, and ``MEMORY USAGE`` of every key, by kind), and loads them again
into an empty index with ``--processes`` processes at once (default 1 and 4) to time
``assign``. It also reports, for comparison, the memory of a scrapy-redis dupefilter (a set
of request fingerprints, 40 hex digits each) of as many requests as texts.

The fingerprints are synthetic, so that the index rather than hashing texts is measured:
a story is a random signature of ``num_perm`` 32-bit values with a set size drawn from a
log-normal distribution (median 500 shingles, a news article of about 500 words). A copy
of Jaccard similarity ``J`` with it keeps each value with probability ``J`` and draws the
others anew, which is how MinHash values of two sets with Jaccard ``J`` behave. Of the
texts, ``NEW_SHARE`` are new stories and the rest copies of earlier ones: half edited
copies (``J`` from 0.85 to 1, size within 5%), half cut copies (a share ``r`` from 0.55 to
0.95 of the story, all of it contained: ``J = r``). URLs are ``http://t/<row>``, padded to
``--url-bytes`` when given. Everything is seeded; figures vary with the machine (report them
with its CPU count).
"""

from __future__ import annotations

import argparse
import hashlib
import multiprocessing
import os
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import redis

from example_project.newsdemo.localcluster import find_redis_cli, start_redis_cluster
from example_project.newsdemo.localredis import find_redis_server, start_redis_server
from scrapy_mainc.dedup import Fingerprint, IndexParams, open_index

SEED = 20240611
#: Share of the texts that are new stories; the others are copies of earlier stories.
NEW_SHARE = 0.7
MEDIAN_SHINGLES = 500
KEY_KINDS = ("rec", "band", "meta", "epoch", "stripe")


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


def url_of(row: int, length: int) -> str:
    """The URL of text ``row``: ``http://t/<row>``, padded with a path to ``length`` bytes."""
    url = f"http://t/{row}"
    return url + "/" + "x" * (length - len(url) - 1) if length > len(url) + 1 else url


def load(params: IndexParams, path: str, rows: range, start: Any, results: Any, url_bytes: int = 0) -> None:
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
            kind = "duplicate" if index.assign(fingerprint, url_of(row, url_bytes)).is_duplicate else "new"
            seconds[kind] += time.perf_counter() - before
            kinds[kind] += 1
        results.put((time.perf_counter() - began, dict(kinds), dict(seconds)))


def run_processes(
    params: IndexParams, path: str, texts: int, processes: int, url_bytes: int
) -> dict[str, Any]:
    """Load all texts with ``processes`` processes (text i goes to process i mod n)."""
    context = multiprocessing.get_context("spawn")
    start, results = context.Barrier(processes), context.Queue()
    workers = [
        context.Process(
            target=load, args=(params, path, range(n, texts, processes), start, results, url_bytes)
        )
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


def memory_by_kind(clients: list[redis.Redis]) -> dict[str, tuple[int, int]]:
    """Kind of key (``mainc:dedup:<kind>:...``) -> (keys, bytes by ``MEMORY USAGE``), over
    the masters' ``clients``."""
    found: dict[str, list[int]] = {kind: [0, 0] for kind in KEY_KINDS}
    for client in clients:
        batch: list[bytes] = []

        def flush(client: redis.Redis = client, batch: list[bytes] = batch) -> None:
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


@dataclass
class Target:
    """Where the index is measured: one server, or a cluster (its masters' clients)."""

    name: str
    url: str
    cluster: bool
    masters: list[redis.Redis]
    version: str

    def flush(self) -> None:
        for client in self.masters:
            client.flushall()

    def used_memory(self) -> int:
        return sum(int(client.info("memory")["used_memory"]) for client in self.masters)

    def counters(self) -> tuple[float, float]:
        """Commands processed and CPU seconds (user and system) of the masters so far."""
        totals = [server_counters(client) for client in self.masters]
        return sum(commands for commands, _ in totals), sum(cpu for _, cpu in totals)


@contextmanager
def started(name: str, scratch: Path, masters: int) -> Iterator[Target]:
    """A fresh server (``name`` "server") or cluster of ``masters`` masters, stopped after."""
    binary = find_redis_server()
    if binary is None:
        raise SystemExit("no redis-server binary found")
    if name == "server":
        server = start_redis_server(binary, scratch / "server")
        client = redis.Redis.from_url(server.url)
        try:
            yield Target(name, server.url, False, [client], client.info("server")["redis_version"])
        finally:
            client.close()
            server.stop()
        return
    cli = find_redis_cli()
    if cli is None:
        raise SystemExit("--targets cluster: no redis-cli binary found")
    cluster = start_redis_cluster(binary, cli, scratch / "cluster", masters=masters, replicas=0)
    clients = [redis.Redis.from_url(node.url) for node in cluster.masters()]
    try:
        version = clients[0].info()["redis_version"]
        yield Target(f"cluster of {masters} masters", cluster.url, True, clients, version)
    finally:
        for client in clients:
            client.close()
        cluster.stop()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--texts", type=int, default=20_000)
    parser.add_argument("--buckets", type=int, default=IndexParams().redis_buckets)
    parser.add_argument("--processes", type=int, nargs="+", default=[1, 4])
    parser.add_argument("--targets", nargs="+", choices=["server", "cluster"], default=["server"])
    parser.add_argument("--masters", type=int, default=3, help="masters of the cluster")
    parser.add_argument("--url-bytes", type=int, default=0, help="pad the URLs to this length")
    parser.add_argument("--repeat", type=int, default=1, help="runs of each load; the fastest is kept")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as scratch, ExitStack() as stack:
        path = Path(scratch) / "workload.npz"
        workload = make_workload(args.texts, IndexParams().fingerprint.num_perm, SEED)
        np.savez(path, minhash=workload.minhash, shingles=workload.shingles, stories=workload.stories)
        targets = [stack.enter_context(started(name, Path(scratch), args.masters)) for name in args.targets]
        reports = measure(args, targets, path)
        for target in targets:
            print(header(args, target, workload.stories))
            print("\n".join(reports[target.name]))
            print()
    return 0


def header(args: argparse.Namespace, target: Target, stories: int) -> str:
    params = IndexParams(redis_buckets=args.buckets)
    return (
        f"## {target.name}\n\n{args.texts:,} synthetic texts ({stories:,} stories, the rest copies), "
        f"{params.fingerprint.num_perm} permutations, LSH {params.lsh_shape[0]} bands x "
        f"{params.lsh_shape[1]} rows, {args.buckets:,} hashes per band, URLs of "
        f"{args.url_bytes or 'about 14'} bytes; {os.cpu_count()} CPUs; redis-server {target.version}; "
        f"the fastest of {args.repeat} run(s) of each load.\n"
    )


def measure(args: argparse.Namespace, targets: list[Target], path: Path) -> dict[str, list[str]]:
    """Load the texts into each target with each number of processes, the targets taking
    turns (so that they share the machine's other load alike); memory, dupefilter and
    throughput lines by target."""
    rows = {
        target.name: [
            "| processes | texts/s | ms per new text | ms per duplicate | Redis commands per text "
            "| Redis CPU µs per text | clusters | duplicates |",
            "|---:|---:|---:|---:|---:|---:|---:|---:|",
        ]
        for target in targets
    }
    memory: dict[str, list[str]] = {}
    for count in args.processes:
        for target in targets:
            runs = [load_once(args, target, path, count) for _ in range(args.repeat)]
            wall, row, lines = min(runs, key=lambda run: run[0])
            rows[target.name].append(row)
            memory.setdefault(target.name, lines)
    for target in targets:
        target.flush()
        if not target.cluster:  # one key: a cluster keeps it whole on one master too
            memory[target.name] += ["", dupefilter_report(target.masters[0], args.texts)]
    return {name: [*memory[name], "", *rows[name]] for name in rows}


def load_once(
    args: argparse.Namespace, target: Target, path: Path, count: int
) -> tuple[float, str, list[str]]:
    """One load of every text into an emptied ``target`` by ``count`` processes: its wall
    time, its table row and the memory report."""
    params = IndexParams(redis_url=target.url, redis_cluster=target.cluster, redis_buckets=args.buckets)
    target.flush()
    baseline = target.used_memory()
    before = target.counters()
    outcome = run_processes(params, str(path), args.texts, count, args.url_bytes)
    commands, cpu = (after - start for after, start in zip(target.counters(), before))
    kinds, seconds = outcome["kinds"], outcome["seconds"]
    row = (
        f"| {count} | {args.texts / outcome['wall']:,.0f} | "
        f"{1000 * seconds['new'] / max(kinds['new'], 1):.2f} | "
        f"{1000 * seconds['duplicate'] / max(kinds['duplicate'], 1):.2f} | "
        f"{commands / args.texts:.1f} | {1e6 * cpu / args.texts:.0f} | "
        f"{kinds['new']:,} | {kinds['duplicate']:,} |"
    )
    return outcome["wall"], row, memory_report(target, baseline, args.texts, kinds["new"])


def server_counters(client: redis.Redis) -> tuple[float, float]:
    """Commands processed and CPU seconds (user and system) of the server so far."""
    stats, cpu = client.info("stats"), client.info("cpu")
    return float(stats["total_commands_processed"]), float(cpu["used_cpu_user"]) + float(cpu["used_cpu_sys"])


def memory_report(target: Target, baseline: int, texts: int, clusters: int) -> list[str]:
    used = target.used_memory() - baseline
    by_kind = memory_by_kind(target.masters)
    representatives = sum(
        client.hlen(key)
        for client in target.masters
        for key in client.scan_iter(match="mainc:dedup:rec:*", count=10_000)
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


def dupefilter_report(client: redis.Redis, requests: int) -> str:
    """The memory of a scrapy-redis dupefilter of ``requests`` request fingerprints."""
    baseline = int(client.info("memory")["used_memory"])
    pipe = client.pipeline(transaction=False)
    for number in range(requests):
        pipe.sadd("dupefilter", hashlib.sha1(b"%d" % number).hexdigest())  # noqa: S324 (as scrapy-redis)
        if len(pipe) >= 10_000:
            pipe.execute()
    pipe.execute()
    used = int(client.info("memory")["used_memory"]) - baseline
    client.delete("dupefilter")
    per_request = used / requests
    return f"A scrapy-redis dupefilter of {requests:,} requests (a set): {per_request:,.0f} bytes a request."


if __name__ == "__main__":
    raise SystemExit(main())
