"""A throwaway Redis Cluster on free loopback ports, for the distributed example and tests.

Each node is a ``redis-server --cluster-enabled yes`` that keeps nothing on disk (no RDB
snapshots, no append-only file; its ``nodes.conf`` goes to a directory the caller owns
and deletes) and listens on 127.0.0.1 only. ``redis-cli --cluster create`` then joins them:
``masters`` masters sharing the 16,384 hash slots, each with ``replicas`` replicas. It
needs the ``redis-server`` and ``redis-cli`` binaries (Debian/Ubuntu: ``apt-get install
redis-server``, which brings ``redis-tools``) and redis-py.
"""

from __future__ import annotations

import shutil
import socket
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

from .localredis import START_TIMEOUT, LocalRedis, _wait_until_ready

#: Where to look for the command-line client: the PATH first, then Debian's location.
CLI_NAMES = ("redis-cli", "/usr/bin/redis-cli")
#: Milliseconds without an answer after which the other nodes consider a node failed and
#: its replica takes over (Redis's default is 15,000; short, so a failover test is quick).
NODE_TIMEOUT_MS = 1000
#: Seconds to wait for a new cluster to cover every slot with synchronised replicas.
CLUSTER_READY_TIMEOUT = 30.0
#: Hash slots of a Redis Cluster, all of which a formed cluster serves.
SLOTS = 16384
#: The cluster bus of a node listens on its port + 10000 (Redis's fixed offset).
BUS_OFFSET = 10_000


def find_redis_cli() -> str | None:
    """The path of a ``redis-cli`` binary, or None when there is none."""
    return next((found for name in CLI_NAMES if (found := shutil.which(name))), None)


@dataclass
class LocalCluster:
    """The nodes of a running cluster (in the order started) and the ``redis://`` URL of one."""

    nodes: list[LocalRedis]

    @property
    def url(self) -> str:
        """A URL naming one node: the cluster client discovers the others from it."""
        return self.nodes[0].url

    def node(self, port: int) -> LocalRedis:
        return next(node for node in self.nodes if node.url.endswith(f":{port}/0"))

    def masters(self) -> list[LocalRedis]:
        """The nodes that are masters now, by their own ``INFO replication``."""
        return [node for node in self.nodes if node.process.poll() is None and _role(node) == "master"]

    def stop(self) -> None:
        for node in self.nodes:
            node.stop()


def start_redis_cluster(
    binary: str, cli: str, directory: Path, masters: int = 3, replicas: int = 1
) -> LocalCluster:
    """Start ``masters * (1 + replicas)`` nodes in ``directory`` and join them in a cluster.

    Returns once every slot is served and every replica is in sync with its master;
    RuntimeError (the nodes stopped) with what went wrong otherwise.
    """
    directory.mkdir(parents=True, exist_ok=True)
    nodes: list[LocalRedis] = []
    try:
        for _ in range(masters * (1 + replicas)):
            nodes.append(_start_node(binary, directory))
        addresses = [node.url.removeprefix("redis://").removesuffix("/0") for node in nodes]
        command = [cli, "--cluster", "create", *addresses, "--cluster-replicas", str(replicas)]
        created = subprocess.run([*command, "--cluster-yes"], capture_output=True, text=True, timeout=60)
        if created.returncode != 0:
            output = created.stdout[-1500:] + created.stderr
            raise RuntimeError(f"redis-cli --cluster create failed:\n{output}")
        cluster = LocalCluster(nodes)
        _wait_until_formed(cluster, masters)
        return cluster
    except BaseException:
        for node in nodes:
            node.stop()
        raise


def _start_node(binary: str, directory: Path, attempts: int = 5) -> LocalRedis:
    """One cluster-enabled node on a free port whose bus port (+10000) is free too."""
    problem = ""
    for _ in range(attempts):
        port = _free_port_pair()
        home = directory / str(port)
        home.mkdir()
        command = [
            binary, "--port", str(port), "--bind", "127.0.0.1", "--dir", str(home),
            "--save", "", "--appendonly", "no", "--logfile", str(home / "redis.log"),
            "--cluster-enabled", "yes", "--cluster-config-file", str(home / "nodes.conf"),
            "--cluster-node-timeout", str(NODE_TIMEOUT_MS),
            # A replica's first sync goes over the socket at once (Redis waits 5 s for
            # more replicas by default) and is loaded without a file on disk.
            "--repl-diskless-sync", "yes", "--repl-diskless-sync-delay", "0",
            "--repl-diskless-load", "on-empty-db",
        ]  # fmt: skip
        process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        node = LocalRedis(process, f"redis://127.0.0.1:{port}/0", home)
        problem = _wait_until_ready(node)
        if not problem:
            return node
        node.stop()
    raise RuntimeError(f"a cluster node did not start: {problem}")


def _free_port_pair() -> int:
    """A loopback port that was free a moment ago, as was the port ``BUS_OFFSET`` above it."""
    while True:
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = int(probe.getsockname()[1])
        if port + BUS_OFFSET > 65535:
            continue
        with socket.socket() as bus:
            try:
                bus.bind(("127.0.0.1", port + BUS_OFFSET))
            except OSError:
                continue
        return port


def _wait_until_formed(cluster: LocalCluster, masters: int) -> None:
    """Return once every node serves all slots, ``masters`` are masters and every replica is
    in sync with its master; RuntimeError after ``CLUSTER_READY_TIMEOUT``."""
    deadline = time.monotonic() + CLUSTER_READY_TIMEOUT
    state = ""
    while time.monotonic() < deadline:
        states = [_node_state(node) for node in cluster.nodes]
        ready = sum(ok for ok, _, _ in states)
        synced = sum(in_sync for _, _, in_sync in states)
        roles = sum(role == "master" for _, role, _ in states)
        state = f"{ready} nodes ok, {synced} in sync, {roles} masters"
        if ready == synced == len(states) and roles == masters:
            return
        time.sleep(0.1)
    raise RuntimeError(f"the cluster did not form within {CLUSTER_READY_TIMEOUT:g} s ({state})")


def _node_state(node: LocalRedis) -> tuple[bool, str, bool]:
    """Whether ``node`` serves every slot, its role, and whether it is in sync (a replica
    linked to its master; a master always is)."""
    import redis

    client = redis.Redis.from_url(node.url, socket_timeout=START_TIMEOUT)
    try:
        info, replication = client.cluster("info"), client.info("replication")
    finally:
        client.close()
    ok = info.get("cluster_state") == "ok" and int(info.get("cluster_slots_ok", 0)) == SLOTS
    role = str(replication["role"])
    return ok, role, role == "master" or replication.get("master_link_status") == "up"


def _role(node: LocalRedis) -> str:
    return _node_state(node)[1]
