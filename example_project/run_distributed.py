#!/usr/bin/env python3
"""Two (or more) crawler processes sharing one crawl of the bundled site through Redis.

    python example_project/run_distributed.py [--processes 2] [--redis-url URL] [--output-dir DIR]
                                              [--concurrency 2] [--delay 0.2] [--keep-index]
                                              [--cluster]

Starts the site server (``newsdemo/server.py``) on a free port of 127.0.0.1 and, unless
``--redis-url`` names one, a ``redis-server`` on another free loopback port (the binary must
be installed: ``apt-get install redis-server``). Then it runs ``--processes`` crawler
processes at once, each the command

    scrapy crawl news -a start_url=SITE -O DIR/crawler-N.jsonl -s SHARED_CRAWL_PROCESSES=2

in this directory with ``SCRAPY_SETTINGS_MODULE=newsdemo.settings_distributed`` and
``NEWSDEMO_REDIS_URL=URL`` (the distributed profile: a shared scrapy-redis queue and
dupefilter, and the Redis near-duplicate index). It prints which process crawled which
article and the near-duplicate clusters across processes. Logs go to ``DIR/crawler-N.log``.

The site has 13 pages: a process with Scrapy's default 16 concurrent requests takes all the
links of a listing page at once, before the other process can get any. So that the work is
visibly shared, the script runs each process with ``-s CONCURRENT_REQUESTS=2`` and the server
answers after 0.2 s (``--concurrency``, ``--delay``); a real crawl needs neither.

With ``--redis-url``, the crawl's keys (``news:*``) and the near-duplicate index
(``mainc:dedup*``) are deleted first, so each run starts afresh; ``--keep-index`` keeps
the index (a second run then finds every article a duplicate of the first run's).

``--cluster`` puts the near-duplicate index on a Redis Cluster started here (three masters
with a replica each, on free loopback ports: ``newsdemo/localcluster.py``; it needs
``redis-cli`` too), passing ``-s MAINC_DEDUP_REDIS_URL=<one node> -s
MAINC_DEDUP_REDIS_CLUSTER=True`` to each crawler. The request queue, the dupefilter and the
roll call of the processes stay on the single Redis server: each of them is one key, which
a cluster keeps whole on one node, and the scheduler reads the queue and the roll call in
one transaction, which a cluster allows only within one hash slot (docs/dedup.md). The
summary then shows how the index's keys are spread over the masters.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

HERE = Path(__file__).resolve().parent
SPIDER = "news"
SETTINGS_MODULE = "newsdemo.settings_distributed"
#: Key patterns of the near-duplicate index (scrapy_mainc.dedup._redis_index).
INDEX_KEYS = ("mainc:dedup*",)


def crawler_command(number: int, processes: int, site_url: str, output: Path) -> list[str]:
    """The command line of crawler process ``number`` (1-based) of ``processes``."""
    return [
        sys.executable, "-m", "scrapy", "crawl", SPIDER,
        "-a", f"start_url={site_url}",
        "-O", str(output),
        "-s", f"SHARED_CRAWL_PROCESSES={processes}",
        "-s", f"USER_AGENT=newsdemo-crawler-{number}",
    ]  # fmt: skip


def crawler_env(redis_url: str) -> dict[str, str]:
    """The environment of every crawler process: the distributed profile on ``redis_url``."""
    return {**os.environ, "SCRAPY_SETTINGS_MODULE": SETTINGS_MODULE, "NEWSDEMO_REDIS_URL": redis_url}


def reset(redis_url: str, keep_index: bool) -> int:
    """Delete the crawl's keys (and the index unless ``keep_index``); return how many."""
    import redis

    sys.path.insert(0, str(HERE))
    from newsdemo.sharedcrawl import crawl_keys

    patterns = crawl_keys(SPIDER) + ([] if keep_index else list(INDEX_KEYS))
    client = redis.Redis.from_url(redis_url)
    try:
        keys = [key for pattern in patterns for key in client.scan_iter(match=pattern)]
        return int(client.delete(*keys)) if keys else 0
    finally:
        client.close()


def index_settings(cluster_url: str) -> list[str]:
    """The crawler arguments that put the index on the cluster at ``cluster_url`` ([]: on
    the crawl's Redis, as the distributed profile does)."""
    if not cluster_url:
        return []
    return ["-s", f"MAINC_DEDUP_REDIS_URL={cluster_url}", "-s", "MAINC_DEDUP_REDIS_CLUSTER=True"]


def run_crawlers(
    processes: int, site_url: str, redis_url: str, output_dir: Path, extra: Sequence[str] = ()
) -> list[int]:
    """Run the crawler processes at once (``extra``: more arguments for each); return their
    exit codes."""
    output_dir.mkdir(parents=True, exist_ok=True)
    running = []
    for number in range(1, processes + 1):
        output = output_dir / f"crawler-{number}.jsonl"
        command = [*crawler_command(number, processes, site_url, output), *extra]
        with open(output_dir / f"crawler-{number}.log", "w", encoding="utf-8") as log:
            running.append(
                subprocess.Popen(command, cwd=HERE, env=crawler_env(redis_url), stdout=log, stderr=log)
            )
    return [process.wait() for process in running]


@contextmanager
def local_redis(redis_url: str | None) -> Iterator[str]:
    """``redis_url``, or the URL of a redis-server started here for the run."""
    if redis_url:
        yield redis_url
        return
    sys.path.insert(0, str(HERE))
    from newsdemo.localredis import find_redis_server, start_redis_server

    binary = find_redis_server()
    if binary is None:
        raise SystemExit("run_distributed: no redis-server found; install it or pass --redis-url")
    with tempfile.TemporaryDirectory(prefix="newsdemo-redis-") as directory:
        server = start_redis_server(binary, Path(directory))
        try:
            yield server.url
        finally:
            server.stop()


@contextmanager
def local_cluster(wanted: bool) -> Iterator[str]:
    """The URL of one node of a Redis Cluster started here when ``wanted`` (else "")."""
    if not wanted:
        yield ""
        return
    sys.path.insert(0, str(HERE))
    from newsdemo.localcluster import find_redis_cli, start_redis_cluster
    from newsdemo.localredis import find_redis_server

    binary, cli = find_redis_server(), find_redis_cli()
    if binary is None or cli is None:
        raise SystemExit("run_distributed: --cluster needs redis-server and redis-cli; install them")
    with tempfile.TemporaryDirectory(prefix="newsdemo-cluster-") as directory:
        cluster = start_redis_cluster(binary, cli, Path(directory))
        try:
            yield cluster.url
        finally:
            cluster.stop()


def index_spread(cluster_url: str) -> str:
    """How many keys of the index each master of the cluster holds, in one line."""
    from redis.cluster import RedisCluster

    client = RedisCluster.from_url(cluster_url)
    try:
        counts = [
            (node.name, len(list(client.scan_iter(match=f"{INDEX_KEYS[0]}", target_nodes=node))))
            for node in client.get_primaries()
        ]
    finally:
        client.close()
    return ", ".join(f"{name}: {count:,}" for name, count in sorted(counts))


def summarize(output_dir: Path, processes: int) -> int:
    """Print who crawled what and the clusters; return the number of articles."""
    crawled: dict[str, tuple[int, dict[str, str]]] = {}
    for number in range(1, processes + 1):
        path = output_dir / f"crawler-{number}.jsonl"
        lines = path.read_text(encoding="utf-8").splitlines() if path.exists() else []
        print(f"crawler {number}: {len(lines)} articles -> {path}")
        for line in lines:
            item = json.loads(line)
            crawled[item["url"]] = (number, item)
    clusters: dict[str, list[str]] = {}
    for url, (_, item) in sorted(crawled.items()):
        clusters.setdefault(item.get("cluster_id") or f"(not clustered) {url}", []).append(url)
    print(f"\n{len(crawled)} articles in {len(clusters)} clusters:")
    for cluster_id, urls in clusters.items():
        print(f"  {cluster_id}")
        for url in urls:
            number, item = crawled[url]
            copy = f"  duplicate of {item['duplicate_of']}" if item.get("duplicate_of") else ""
            print(f"    crawler {number}  {url.split('/', 3)[-1]}{copy}")
    return len(crawled)


def main() -> int:
    sys.path.insert(0, str(HERE))
    from run_crawl import start_server

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--redis-url", default="", help="default: a redis-server started here")
    parser.add_argument("--output-dir", type=Path, default=HERE / "distributed-output")
    parser.add_argument("--keep-index", action="store_true", help="keep the near-duplicate index")
    parser.add_argument("--concurrency", type=int, default=2, help="CONCURRENT_REQUESTS")
    parser.add_argument("--delay", type=float, default=0.2, help="server delay per page, seconds")
    parser.add_argument(
        "--cluster", action="store_true", help="put the near-duplicate index on a Redis Cluster started here"
    )
    args = parser.parse_args()
    server, site_url = start_server(args.delay)
    spread = ""
    try:
        with local_redis(args.redis_url) as redis_url, local_cluster(args.cluster) as cluster_url:
            if args.redis_url:
                reset(redis_url, args.keep_index)
            index = f"  index on the cluster at {cluster_url}" if cluster_url else ""
            print(f"site {site_url}  redis {redis_url}{index}  {args.processes} crawler processes")
            started = time.perf_counter()
            extra = ["-s", f"CONCURRENT_REQUESTS={args.concurrency}", *index_settings(cluster_url)]
            output_dir = args.output_dir.resolve()
            codes = run_crawlers(args.processes, site_url, redis_url, output_dir, extra)
            print(f"done in {time.perf_counter() - started:.1f} s, exit codes {codes}\n")
            spread = index_spread(cluster_url) if cluster_url else ""
    finally:
        server.terminate()
        server.wait(10)
    summarize(args.output_dir.resolve(), args.processes)
    if spread:
        print(f"\nindex keys per master of the cluster: {spread}")
    return 0 if codes == [0] * args.processes else 1


if __name__ == "__main__":
    raise SystemExit(main())
