"""The Redis behind an index: one server (``redis.Redis``) or a Redis Cluster
(``redis.cluster.RedisCluster``), and the few things that differ between them.

On a cluster, a command goes to the master serving its key's hash slot, and a pipeline is
split by master: redis-py's cluster pipeline writes each master's commands on that master's
connection, then reads the replies, so a pipeline costs one round trip to each master it
touches, all in flight at once (commands that meet a moved slot or a failed node are sent
again one by one, after it refreshes its map of the slots). Pipelines are never transactions
(a transaction would need every key in one slot).

A client of the wrong kind is refused before it writes anything: a single-server client
connected to a cluster node would run the commands of that node's slots and fail the others
with ``MOVED``, and a cluster client cannot talk to a server outside cluster mode.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any
from urllib.parse import parse_qs, urlsplit

import redis
from redis.cluster import RedisCluster, get_connection
from redis.exceptions import (
    AskError,
    ClusterDownError,
    NoPermissionError,
    RedisClusterException,
    ResponseError,
    TryAgainError,
)

from ._index import redacted
from ._params import IndexParams
from ._redis_keys import HASH_SLOTS, IndexKeys, slot_tags

logger = logging.getLogger(__name__)

#: A cluster index has an epoch key in every 16th hash slot (1,024 keys): a master that
#: serves a range of slots holds the epoch keys of its range, wherever resharding moves it,
#: and creating them all (once per index, again after a loss) takes about 50 ms, not the
#: second that one per slot took on the development machine.
EPOCH_SLOT_STEP = 16


class ClusterModeError(ValueError):
    """``IndexParams.redis_cluster`` does not fit the Redis at the URL (or the URL does not
    suit a cluster)."""


class IndexStore:
    """One Redis server holding an index."""

    is_cluster = False

    def __init__(self, client: redis.Redis, keys: IndexKeys, where: str) -> None:
        self.client: Any = client
        self.keys = keys
        #: The URL, without its password, for messages.
        self.where = where

    def pipeline(self) -> Any:
        """A pipeline (not a transaction) of commands, sent in one round trip per server."""
        return self.client.pipeline(transaction=False)

    def epoch_keys(self) -> list[bytes]:
        """Every epoch key of the index (``_redis_epoch``)."""
        return [self.keys.epoch]

    def checks(self, keys: Sequence[bytes]) -> list[bytes]:
        """The epoch keys to read after commands on ``keys``: one on each server they reach."""
        return [self.keys.epoch]

    def describe(self, epoch_key: bytes) -> str:
        """Where the data of ``epoch_key``'s slot live, for messages."""
        return self.where

    def client_names(self) -> list[str]:
        """Names of the clients connected now (on every master); [] when not allowed."""
        try:
            return [str(client.get("name", "")) for client in self.client.client_list()]
        except (NoPermissionError, ResponseError) as exc:  # CLIENT LIST denied or renamed
            logger.debug("mainc dedup: cannot list the clients of %s: %s", self.where, exc)
            return []

    def close(self) -> None:
        self.client.connection_pool.disconnect()


#: Replies that mean "ask the cluster again": the slot moved, is moving, or has no master
#: for the moment. The cluster client's own path follows them (and learns the new map).
_REDIRECTIONS = (AskError, TryAgainError, ClusterDownError)
#: A master that does not answer.
_CONNECTION_ERRORS = (redis.ConnectionError, redis.TimeoutError)


class NodePipeline:
    """A pipeline on a Redis Cluster that sends each master its own commands on one of its
    connections, all masters' commands written before any reply is read: one round trip to
    each master, at once. The commands are built by a plain pipeline of redis-py (never
    executed itself), so they and their replies are redis-py's. A reply that redirects
    (MOVED, ASK, TRYAGAIN, CLUSTERDOWN) makes its command go again through the cluster
    client, which follows the redirection and corrects its map of the slots. A master that
    does not answer fails the pipeline at once (ConnectionError or TimeoutError, as one
    server would) after the client learnt the map anew, so that once a replica has taken
    over, the next pipeline goes to it. (redis-py's own cluster pipeline routes every command
    through its policy layer first, and retries a failed master's commands one by one with
    back-off: about twice the client time, docs/dedup.md.)"""

    def __init__(self, client: Any) -> None:
        self._client = client
        self._builder = client.get_redis_connection(client.get_default_node()).pipeline(transaction=False)

    def __len__(self) -> int:
        return len(self._builder.command_stack)

    def __getattr__(self, name: str) -> Any:
        """The command methods (``hget``, ``set``, ``execute_command``...): recorded."""
        return getattr(self._builder, name)

    def execute(self) -> list[Any]:
        """The replies, in order; the first error reply raises, as redis-py's pipelines do."""
        stack = self._builder.command_stack
        groups: dict[str, tuple[Any, list[int]]] = {}
        for index, (args, _) in enumerate(stack):
            node = self._client.get_node_from_key(args[3] if args[0] == "EVAL" else args[1])
            groups.setdefault(node.name, (node, []))[1].append(index)
        replies: list[Any] = [None] * len(stack)
        self._send_and_read(stack, list(groups.values()), replies)
        failed = next((reply for reply in replies if isinstance(reply, _CONNECTION_ERRORS)), None)
        if failed is not None:  # a master is gone: learn the map anew for the next pipeline
            self._client.nodes_manager.initialize()
            raise failed
        for index, reply in enumerate(replies):
            if isinstance(reply, _REDIRECTIONS):
                args, options = stack[index]
                replies[index] = self._client.execute_command(*args, **options)
        error = next((reply for reply in replies if isinstance(reply, ResponseError)), None)
        if error is not None:
            raise error
        return replies

    def _send_and_read(self, stack: Any, groups: list[tuple[Any, list[int]]], replies: list[Any]) -> None:
        """Write every master's commands, then read every reply into ``replies`` (a failed
        master's replies are its ConnectionError or TimeoutError). A connection is given
        back to its pool only once all its replies were read; otherwise it is closed."""
        held: list[tuple[Any, Any, list[int]]] = []
        read: set[int] = set()  # positions in ``held`` whose replies were all read
        try:
            for node, indexes in groups:
                redis_node = self._client.get_redis_connection(node)
                try:
                    connection: Any = get_connection(redis_node, "GET")  # (redis-py < 5.3 needs a name)
                except _CONNECTION_ERRORS as exc:
                    _fail(replies, indexes, exc)
                    continue
                held.append((redis_node, connection, indexes))
                try:
                    connection.send_packed_command(connection.pack_commands([stack[i][0] for i in indexes]))
                except _CONNECTION_ERRORS as exc:
                    _fail(replies, indexes, exc)
            for position, (redis_node, connection, indexes) in enumerate(held):
                if replies[indexes[0]] is None and self._read(
                    redis_node, connection, stack, indexes, replies
                ):
                    read.add(position)
        finally:
            for position, (redis_node, connection, _) in enumerate(held):
                if position not in read:
                    connection.disconnect()  # replies may be left on it
                redis_node.connection_pool.release(connection)

    @staticmethod
    def _read(redis_node: Any, connection: Any, stack: Any, indexes: list[int], replies: list[Any]) -> bool:
        """Read the replies of ``indexes``; False when the connection failed (their replies
        are then its error)."""
        for position, index in enumerate(indexes):
            args, options = stack[index]
            try:
                replies[index] = redis_node.parse_response(connection, args[0], **options)
            except _CONNECTION_ERRORS as exc:
                _fail(replies, indexes[position:], exc)
                return False
            except ResponseError as exc:
                replies[index] = exc
        return True


def _fail(replies: list[Any], indexes: list[int], error: Exception) -> None:
    for index in indexes:
        replies[index] = error


class ClusterStore(IndexStore):
    """A Redis Cluster holding an index; epoch keys in every ``EPOCH_SLOT_STEP``-th slot."""

    is_cluster = True

    def __init__(self, client: RedisCluster, keys: IndexKeys, where: str) -> None:
        super().__init__(client, keys, where)  # type: ignore[arg-type]
        self._tags = slot_tags()
        self._epochs = keys.slot_epochs(self._tags, EPOCH_SLOT_STEP)

    def pipeline(self) -> NodePipeline:
        """A pipeline split by master (:class:`NodePipeline`)."""
        return NodePipeline(self.client)

    def epoch_keys(self) -> list[bytes]:
        return list(self._epochs.values())

    def checks(self, keys: Sequence[bytes]) -> list[bytes]:
        """For each master that ``keys`` reach, an epoch key there: that of the slot group
        of the first of them whose group's epoch slot the same master serves."""
        by_node: dict[str, bytes] = {}
        for key in keys:
            node = self.client.get_node_from_key(key).name
            if node in by_node:
                continue
            slot = redis.crc.key_slot(key)
            epoch = self._epochs[slot - slot % EPOCH_SLOT_STEP]
            if self.client.get_node_from_key(epoch).name == node:
                by_node[node] = epoch
        return list(by_node.values())

    def describe(self, epoch_key: bytes) -> str:
        node = self.client.get_node_from_key(epoch_key).name
        slots = sum(self.client.get_node_from_key(b"{" + tag + b"}").name == node for tag in self._tags)
        return f"node {node} ({slots:,} of {HASH_SLOTS:,} hash slots) of the cluster at {self.where}"

    def client_names(self) -> list[str]:
        try:
            by_node = self.client.client_list(target_nodes=RedisCluster.PRIMARIES)
        except (NoPermissionError, ResponseError) as exc:
            logger.debug("mainc dedup: cannot list the clients of %s: %s", self.where, exc)
            return []
        clients = [client for node in by_node.values() for client in node]
        return [str(client.get("name", "")) for client in clients]

    def close(self) -> None:
        self.client.close()


def connect(params: IndexParams, keys: IndexKeys, client_name: str) -> IndexStore:
    """The store at ``params.redis_url``, its kind checked (ClusterModeError). Connection
    failures raise redis's ConnectionError or TimeoutError."""
    where = redacted(params.redis_url)
    options = {
        **params.redis_params,
        "socket_timeout": params.redis_timeout,
        "socket_connect_timeout": params.redis_timeout,
        "client_name": client_name,
    }
    if params.redis_cluster:
        return ClusterStore(_cluster_client(params.redis_url, where, options), keys, where)
    pool = redis.ConnectionPool.from_url(params.redis_url, **options)
    client = redis.Redis(connection_pool=pool)
    try:
        _refuse_cluster_node(client, where)
    except BaseException:
        pool.disconnect()
        raise
    return IndexStore(client, keys, where)


def _cluster_client(url: str, where: str, options: dict[str, Any]) -> RedisCluster:
    parts = urlsplit(url)
    if parts.scheme not in ("redis", "rediss"):
        raise ClusterModeError(f"a Redis Cluster is reached over TCP (redis:// or rediss://), not {where}")
    database = parse_qs(parts.query).get("db", [parts.path.strip("/") or "0"])[0]
    if database != "0":
        raise ClusterModeError(
            f"a Redis Cluster has only database 0, not {database} ({where}); to keep several "
            "indexes apart, give each its own MAINC_DEDUP_REDIS_KEY"
        )
    try:
        return RedisCluster.from_url(url, **options)
    except RedisClusterException as exc:
        cause = exc.__cause__ or exc.__context__
        if "not enabled" in str(exc) or "not enabled" in str(cause):
            raise ClusterModeError(
                f"the Redis at {where} is not a cluster node; set MAINC_DEDUP_REDIS_CLUSTER = False"
            ) from exc
        unreachable = isinstance(cause, (redis.ConnectionError, redis.TimeoutError))
        if unreachable or "cannot be connected" in str(exc):
            raise redis.ConnectionError(f"cannot reach the cluster at {where}: {cause or exc}") from exc
        raise ClusterModeError(f"cannot use the cluster at {where}: {exc}") from exc


def _refuse_cluster_node(client: redis.Redis, where: str) -> None:
    """ClusterModeError when the server is a cluster node (``INFO cluster``)."""
    try:
        enabled = client.info("cluster").get("cluster_enabled")
    except ResponseError as exc:  # INFO renamed or denied: the first MOVED will tell
        logger.debug("mainc dedup: cannot ask %s whether it is a cluster node: %s", where, exc)
        return
    if str(enabled) == "1":
        raise ClusterModeError(
            f"the Redis at {where} is a node of a Redis Cluster; set MAINC_DEDUP_REDIS_CLUSTER "
            "= True (the index then uses the cluster client, which reaches every node)"
        )
