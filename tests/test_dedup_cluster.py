"""The near-duplicate index on a real Redis Cluster: the same clusters as in memory, keys on
every master, clients of the wrong kind refused, and a node that loses its data found by
every process.

The session's cluster (``redis_cluster``, conftest.py: three masters with a replica each on
free loopback ports, ``cluster-node-timeout`` 1 s, nothing kept on disk) is shared by the
tests; each gives its index a key prefix of its own. Without the ``redis-server`` and
``redis-cli`` binaries (Debian package ``redis-server``) the tests are skipped and say so.
The failover crawl is in test_dedup_failover.py.
"""

from __future__ import annotations

import gc
import json
import logging
from pathlib import Path
from typing import Any

import pytest
from newsdemo.localcluster import LocalCluster
from newsdemo.localredis import free_port

redis = pytest.importorskip("redis", reason="redis-py is not installed (scrapy-mainc[redis])")

from redis.cluster import RedisCluster  # noqa: E402

from scrapy_mainc.dedup import Assignment, IndexParams, fingerprint_text, open_index  # noqa: E402
from scrapy_mainc.dedup._redis_client import ClusterModeError, NodePipeline  # noqa: E402
from scrapy_mainc.dedup._redis_index import RedisIndex  # noqa: E402

#: The tests' near-duplicate set (see :func:`near_duplicate_texts`).
NEAR_DUPLICATES = Path(__file__).parent / "data" / "near_duplicates.json"


def cluster_params(cluster: LocalCluster, prefix: str, **changes: Any) -> IndexParams:
    return IndexParams(redis_url=cluster.url, redis_cluster=True, redis_key=prefix, **changes)


def client_of(cluster: LocalCluster) -> Any:
    return RedisCluster.from_url(cluster.url)


def keys_by_master(cluster: LocalCluster, pattern: str) -> dict[str, list[bytes]]:
    """Keys matching ``pattern`` on each master, by the master's URL."""
    found = {}
    for node in cluster.masters():
        client = redis.Redis.from_url(node.url)
        found[node.url] = list(client.scan_iter(match=pattern, count=1000))
        client.close()
    return found


# --- The near-duplicate set of benchmarks/neardup/quality.py -------------------------------


def near_duplicate_texts() -> list[str]:
    """The article texts of the tests' near-duplicate set (tests/data/near_duplicates.json:
    ten pages per story of the bundled site, nine copies and one rewrite, made by
    ``python -m benchmarks.neardup.quality --test-corpus``): the same set in every clone."""
    corpus = json.loads(NEAR_DUPLICATES.read_text(encoding="utf-8"))
    return [page["text"] for page in corpus["pages"]]


@pytest.fixture(scope="module")
def clustered(redis_cluster: LocalCluster) -> dict[str, Any]:
    """The near-duplicate set through a cluster index and a memory index, in one order."""
    params = cluster_params(redis_cluster, "quality:dedup")
    fingerprints = [fingerprint_text(text, params.fingerprint) for text in near_duplicate_texts()]
    with open_index(params) as shared, open_index(IndexParams()) as local:
        assert isinstance(shared, RedisIndex)
        on_cluster, in_memory = [], []
        for number, fingerprint in enumerate(fingerprints):
            if fingerprint is not None:
                on_cluster.append(shared.assign(fingerprint, f"page:{number}"))
                in_memory.append(local.assign(fingerprint, f"page:{number}"))
    return {"cluster": on_cluster, "memory": in_memory, "pages": len(fingerprints)}


def test_the_cluster_index_assigns_the_near_duplicate_set_as_the_memory_index(
    clustered: dict[str, Any],
) -> None:
    on_cluster: list[Assignment] = clustered["cluster"]
    assert on_cluster == clustered["memory"]
    clusters = {assignment.cluster_id for assignment in on_cluster}
    duplicates = sum(assignment.is_duplicate for assignment in on_cluster)
    # Not a trivial set: most pages are copies of a story, and stories stay apart.
    assert len(on_cluster) >= 0.9 * clustered["pages"] and duplicates >= 0.6 * len(on_cluster)
    assert len(clusters) >= clustered["pages"] // 10


def test_the_keys_of_a_cluster_index_are_on_every_master(
    clustered: dict[str, Any], redis_cluster: LocalCluster
) -> None:
    by_master = keys_by_master(redis_cluster, "quality:dedup:*")
    assert len(by_master) == 3
    for keys in by_master.values():
        kinds = {key.split(b":")[2] for key in keys}
        assert {b"band", b"rec", b"epoch"} <= kinds
    epochs = sum(key.split(b":")[2] == b"epoch" for keys in by_master.values() for key in keys)
    assert epochs == 16384 // 16  # an epoch key in every 16th slot
    # A bucket and its lock share their slot: the hash tag {<band>:<bucket>}.
    client = client_of(redis_cluster)
    bucket = next(key for keys in by_master.values() for key in keys if b":band:" in key)
    assert client.keyslot(bucket) == client.keyslot(b"quality:dedup:stripe:" + bucket.split(b":band:")[1])
    client.close()


# --- The pipeline split by master -----------------------------------------------------------


def fill(pipe: Any, prefix: str) -> None:
    """A pipeline of every command the index sends, over keys in many slots."""
    for number in range(12):
        pipe.set(f"{prefix}:lock:{{{number}}}", b"token", nx=True, px=60_000)
        pipe.hset(f"{prefix}:band:{{{number}}}", b"digest", b"entries")
    for number in range(12):
        pipe.set(f"{prefix}:lock:{{{number}}}", b"other", nx=True, px=60_000)  # taken: None
        pipe.hget(f"{prefix}:band:{{{number}}}", b"digest")
        pipe.get(f"{prefix}:missing:{{{number}}}")
        pipe.execute_command("EVAL", RELEASE, 1, f"{prefix}:lock:{{{number}}}", b"token")
        pipe.hdel(f"{prefix}:band:{{{number}}}", b"digest")
        pipe.delete(f"{prefix}:lock:{{{number}}}")


#: The index's compare-and-delete of a lock (as in _redis_index).
RELEASE = "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0"


def test_the_pipeline_split_by_master_replies_as_redis_pys_cluster_pipeline(
    redis_cluster: LocalCluster,
) -> None:
    client = client_of(redis_cluster)
    try:
        ours = NodePipeline(client)
        fill(ours, "split-ours")
        theirs = client.pipeline(transaction=False)
        fill(theirs, "split-theirs")
        replies = ours.execute()
        assert replies == theirs.execute()
        assert replies[:2] == [True, 1] and replies[24:30] == [None, b"entries", None, 1, 1, 0]
        wrong = NodePipeline(client)
        wrong.set("split-ours:string", b"x")
        wrong.hget("split-ours:string", b"field")  # a hash command on a string
        with pytest.raises(redis.exceptions.ResponseError, match="WRONGTYPE"):
            wrong.execute()
    finally:
        client.delete("split-ours:string")
        client.close()


def test_the_pipeline_split_by_master_follows_a_moved_slot(redis_cluster: LocalCluster) -> None:
    """A client whose map of the slots is out of date (a failover or resharding since)
    sends a command to the wrong master, which answers MOVED: the command goes again through
    the cluster client, which follows it and corrects its map."""
    client = client_of(redis_cluster)
    try:
        key = b"moved:key"
        client.set(key, b"value")
        right = client.get_node_from_key(key)
        wrong = next(node for node in client.get_primaries() if node.name != right.name)
        client.nodes_manager.slots_cache[client.keyslot(key)] = [wrong]
        pipe = NodePipeline(client)
        pipe.get(key)
        pipe.get(b"moved:other")
        assert pipe.execute() == [b"value", None]
        assert client.get_node_from_key(key).name == right.name
        client.delete(key)
    finally:
        client.close()


# --- Clients of the wrong kind ------------------------------------------------------------


def test_a_single_server_client_refuses_a_cluster_node_before_writing(redis_cluster: LocalCluster) -> None:
    params = IndexParams(redis_url=redis_cluster.url, redis_key="wrongkind:dedup")
    with pytest.raises(
        ClusterModeError, match="node of a Redis Cluster; set MAINC_DEDUP_REDIS_CLUSTER = True"
    ):
        open_index(params)
    assert all(keys == [] for keys in keys_by_master(redis_cluster, "wrongkind:*").values())


def test_the_cluster_client_refuses_a_single_server(redis_url: str) -> None:
    with pytest.raises(ClusterModeError, match="not a cluster node; set MAINC_DEDUP_REDIS_CLUSTER = False"):
        open_index(IndexParams(redis_url=redis_url, redis_cluster=True))


def test_a_cluster_has_only_database_0(redis_cluster: LocalCluster) -> None:
    url = redis_cluster.url.removesuffix("/0") + "/1"
    with pytest.raises(ClusterModeError, match="only database 0.* its own MAINC_DEDUP_REDIS_KEY"):
        open_index(IndexParams(redis_url=url, redis_cluster=True))


def test_an_unreachable_cluster_is_a_connection_error() -> None:
    """So that MAINC_DEDUP_REDIS_REQUIRED = False can fall back to memory, as for one server."""
    with pytest.raises(redis.exceptions.ConnectionError, match="cannot reach the cluster at"):
        open_index(IndexParams(redis_url=f"redis://127.0.0.1:{free_port()}/0", redis_cluster=True))


# --- A node that loses its data -----------------------------------------------------------


def story(number: int, changed: int | None = None) -> Any:
    text = " ".join("changed" if n == changed else f"s{number}w{n}" for n in range(300))
    return fingerprint_text(text, IndexParams().fingerprint)


def test_a_master_that_lost_its_data_is_found_by_every_process(
    redis_cluster: LocalCluster, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="scrapy_mainc")
    params = cluster_params(redis_cluster, "lost:dedup")
    with open_index(params) as first, open_index(params) as second:
        for number in range(6):
            first.assign(story(number), f"http://{number}")
        # Not the node named in the URL: any master's loss is found.
        victim = next(node for node in redis_cluster.masters() if node.url != redis_cluster.url)
        node = redis.Redis.from_url(victim.url)
        pipe = node.pipeline(transaction=False)
        for key in node.keys("lost:dedup:*"):  # as a restart without persistence would
            pipe.delete(key)  # one at a time: a command's keys must share a slot
        pipe.execute()
        node.close()
        first.assign(story(10), "http://10")
        second.assign(story(11), "http://11")
        assert (first.losses, second.losses) == (1, 1)
        first.assign(story(12), "http://12")
        assert (first.losses, second.losses) == (1, 1)
    messages = [record for record in caplog.records if "lost its data" in record.getMessage()]
    assert [record.levelno for record in messages] == [logging.WARNING] * 2  # once per process
    address = victim.url.removeprefix("redis://").removesuffix("/0")
    assert f"on node {address} (" in messages[0].getMessage()
    assert "the clusters on that node of the 6 texts this process assigned before" in messages[0].getMessage()
    assert ", found by another process first (" in messages[1].getMessage()
    epochs = [key for keys in keys_by_master(redis_cluster, "lost:dedup:epoch:*").values() for key in keys]
    assert len(epochs) == 16384 // 16  # the lost node's epoch keys are back


# --- What of scrapy-redis may live on a cluster (docs/dedup.md) -----------------------------


def test_what_of_scrapy_redis_works_through_the_cluster_client(redis_cluster: LocalCluster) -> None:
    """The dupefilter and a FIFO queue work (each one key, so on one master); the default
    priority queue cannot pop, and the example's roll call (one transaction over the queue
    and the members) is refused: a cluster runs a transaction within one hash slot only."""
    pytest.importorskip("scrapy_redis", reason="scrapy-redis is not installed (scrapy-mainc[test])")
    from scrapy import Request, Spider
    from scrapy_redis.dupefilter import RFPDupeFilter
    from scrapy_redis.queue import FifoQueue, PriorityQueue

    client = client_of(redis_cluster)
    spider = Spider(name="clustered")
    try:
        seen = RFPDupeFilter(client, "clustered:dupefilter")
        assert [seen.request_seen(Request("http://a/1")) for _ in range(2)] == [False, True]
        fifo = FifoQueue(client, spider, "clustered:fifo")
        fifo.push(Request("http://a/1"))
        assert fifo.pop().url == "http://a/1"
        priority = PriorityQueue(client, spider, "clustered:requests")
        priority.push(Request("http://a/2"))
        with pytest.raises(redis.exceptions.RedisClusterException):
            priority.pop()
        with pytest.raises(redis.exceptions.RedisClusterException):  # (redis-py < 5: no transactions)
            pipe = client.pipeline(transaction=True)
            pipe.exists("clustered:requests")
            pipe.hgetall("clustered:members")
            pipe.execute()
    finally:
        for key in ("clustered:dupefilter", "clustered:fifo", "clustered:requests"):
            client.delete(key)
        client.close()
        # The refused transactions keep a connection, referenced from the exceptions'
        # frames: collected now, it is closed (at exit its socket would be reported open).
        gc.collect()
