"""The cluster index on Redis, shared by any number of processes on any number of machines.

Storage. The LSH index is datasketch's ``MinHashLSH`` with its Redis storage under the fixed
base name ``mainc:dedup`` (bucket sets ``mainc:dedup_bucket_<band>...``, key list
``mainc:dedup_keys...``), so every process that opens the same Redis database opens the same
index. Next to it: the hash ``mainc:dedup:leaders`` (cluster id -> the leader's signature as
``num_perm`` little-endian uint32 followed by its UTF-8 URL) and ``mainc:dedup:meta``, the
parameters the index was built with. An index with other parameters (threshold, number of
permutations, shingling) refuses to open instead of mixing incomparable signatures; use
another Redis database (``redis://host:6379/1``) or delete the keys.

Concurrency: one lock per LSH bucket. Two processes that each receive one copy of a new
story at the same moment both find no leader and would both found a cluster. A text that
is about to become a leader therefore first locks the ``b`` buckets it will occupy: for
every band ``i``, the key ``mainc:dedup:stripe:<i>:<BLAKE2b of the band's values>`` is taken
with a redis-py ``Lock`` (``SET NX PX`` with a random token, released by a compare-and-delete
script). With all of them held, it queries the index again and only then stores itself and
inserts its bands (``MinHashLSH.insert``), releasing the locks afterwards.

Why that is enough: LSH can only relate two texts that share a bucket in some band ``i``,
and then both need the same stripe ``(i, bucket)``. Their critical sections are mutually
exclusive, and the one that comes second sees the first one's completed insert in its
second query and joins its cluster (when the signatures are similar enough; otherwise they
are not near-duplicates at all). Every outcome is thus the outcome of some serial order of
the texts, as with the in-memory index. Texts that share no bucket never wait for each
other, so throughput grows with the number of processes rather than queueing behind one
global lock; texts that match an existing leader (most duplicates) take no lock at all,
because leaders are never removed. Locks are taken in sorted key order, so two writers never
wait on each other in a cycle.

Every command fails with a TimeoutError after ``IndexParams.redis_timeout`` seconds (connecting
included), so a server that stops answering cannot hang a caller.

Limits: a stripe lock expires after ``STRIPE_LOCK_TTL`` seconds, so that a crashed holder
does not block its buckets forever; a holder that stalls longer than that (it only needs
milliseconds) could lose its exclusivity, which is logged. ``ClusterIndex.assign`` raises
``redis.exceptions.LockError`` when the locks cannot be had within ``STRIPE_LOCK_WAIT``.
"""

from __future__ import annotations

import hashlib
import json
import logging
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager

import numpy as np
import redis
from datasketch import LeanMinHash, MinHashLSH
from redis.exceptions import LockError, LockNotOwnedError, RedisError
from redis.lock import Lock

from ._fingerprint import Fingerprint, lean_minhash
from ._index import (
    Assignment,
    ClusterIndex,
    Leader,
    cluster_id_candidates,
    redacted,
)
from ._params import IndexParams

logger = logging.getLogger(__name__)

#: Base name of every key of the index (datasketch's ``basename``).
REDIS_BASENAME = b"mainc:dedup"
LEADERS_KEY = REDIS_BASENAME + b":leaders"
META_KEY = REDIS_BASENAME + b":meta"
STRIPE_PREFIX = REDIS_BASENAME + b":stripe:"
#: Seconds a stripe lock outlives a crashed holder. Holding takes milliseconds.
STRIPE_LOCK_TTL = 30.0
#: Seconds to wait for all stripe locks of one text; below the TTL, so that locks taken
#: first cannot expire while the last ones are awaited.
STRIPE_LOCK_WAIT = 20.0
#: Seconds between two attempts at a taken stripe lock.
STRIPE_LOCK_POLL = 0.002


class IndexMismatchError(ValueError):
    """The Redis index was built with other parameters than this process uses."""


class RedisIndex(ClusterIndex):
    """A cluster index in Redis; thread-safe, and safe across processes (module docstring)."""

    service_errors = (RedisError,)

    def __init__(self, params: IndexParams) -> None:
        self._pool = redis.ConnectionPool.from_url(
            params.redis_url,
            socket_timeout=params.redis_timeout,
            socket_connect_timeout=params.redis_timeout,
        )
        self._redis = redis.Redis(connection_pool=self._pool)
        lsh = MinHashLSH(
            threshold=params.threshold,
            num_perm=params.fingerprint.num_perm,
            prepickle=False,
            storage_config={
                "type": "redis",
                "basename": REDIS_BASENAME,
                "redis": {"connection_pool": self._pool},
            },
        )
        super().__init__(params, lsh)
        self._check_meta()

    def assign(self, fingerprint: Fingerprint, url: str) -> Assignment:
        signature = self._signature(fingerprint)
        found = self._match(signature, url)
        if found is not None:
            return found
        with self._stripes_locked(signature):
            return self._match(signature, url) or self._lead(signature, url)

    def withdraw(self, cluster_id: str) -> bool:
        """Under the stripe locks of the leader's buckets, so that no text founding a
        cluster in one of them at the same moment loses its bucket entry."""
        record = self._redis.hget(LEADERS_KEY, cluster_id)
        if record is None:
            return False
        leader = self._decode_leader(cluster_id, record)
        key = cluster_id.encode("ascii")
        with self._stripes_locked(leader.signature):
            if key in self._lsh:
                self._lsh.remove(key)
            return bool(self._redis.hdel(LEADERS_KEY, cluster_id))

    def close(self) -> None:
        self._pool.disconnect()

    def meta(self) -> dict[str, object]:
        """The parameters that define this index (stored in ``mainc:dedup:meta``)."""
        return {
            "threshold": self.params.threshold,
            "bands": self.bands,
            "rows": self.rows,
            "fingerprint": self.params.fingerprint.method,
        }

    def _check_meta(self) -> None:
        wanted = json.dumps(self.meta(), sort_keys=True)
        self._redis.set(META_KEY, wanted, nx=True)
        stored = _as_text(self._redis.get(META_KEY))
        if stored is not None and stored != wanted:
            raise IndexMismatchError(
                f"the index at {redacted(self.params.redis_url)} was built with "
                f"{stored}, "
                f"this process uses {wanted}; use another Redis database or delete the "
                f"{REDIS_BASENAME.decode()}* keys"
            )

    def _leaders(self, keys: Sequence[bytes]) -> list[Leader]:
        records = self._redis.hmget(LEADERS_KEY, list(keys))
        return [
            self._decode_leader(key.decode("ascii"), record)
            for key, record in zip(keys, records)
            if record is not None
        ]

    def _store_leader(self, signature: LeanMinHash, url: str) -> str:
        record = self._encode_leader(signature, url)
        for cluster_id in cluster_id_candidates(url):
            if self._redis.hsetnx(LEADERS_KEY, cluster_id, record):
                return cluster_id
        raise AssertionError("unreachable")  # pragma: no cover

    def _encode_leader(self, signature: LeanMinHash, url: str) -> bytes:
        values = np.asarray(signature.hashvalues, dtype="<u4").tobytes()
        return values + url.encode("utf-8")

    def _decode_leader(self, cluster_id: str, record: bytes | str) -> Leader:
        if isinstance(record, str):  # a client made with decode_responses=True
            record = record.encode("utf-8", "surrogateescape")
        size = 4 * self.params.fingerprint.num_perm
        values = np.frombuffer(record[:size], dtype="<u4")
        url = record[size:].decode("utf-8")
        return Leader(cluster_id, url, lean_minhash(values, self.params.fingerprint))

    def stripe_keys(self, signature: LeanMinHash) -> list[bytes]:
        """The lock keys of the buckets ``signature`` occupies, one per band, sorted."""
        keys = []
        for band, (start, stop) in enumerate(self._lsh.hashranges):
            values = np.asarray(signature.hashvalues[start:stop], dtype="<u4").tobytes()
            digest = hashlib.blake2b(values, digest_size=16).hexdigest()
            keys.append(STRIPE_PREFIX + f"{band}:{digest}".encode("ascii"))
        return sorted(keys)

    @contextmanager
    def _stripes_locked(self, signature: LeanMinHash) -> Iterator[None]:
        held: list[Lock] = []
        deadline = time.monotonic() + STRIPE_LOCK_WAIT
        try:
            for key in self.stripe_keys(signature):
                lock = Lock(
                    self._redis,
                    key.decode("ascii"),
                    timeout=STRIPE_LOCK_TTL,
                    sleep=STRIPE_LOCK_POLL,
                    blocking_timeout=max(deadline - time.monotonic(), 0.0),
                )
                if not lock.acquire():
                    raise LockError(f"could not lock {key.decode()} within {STRIPE_LOCK_WAIT} s")
                held.append(lock)
            yield
        finally:
            for lock in reversed(held):
                _release(lock)


def _release(lock: Lock) -> None:
    try:
        lock.release()
    except LockNotOwnedError:
        logger.warning(
            "mainc dedup: stripe lock %s expired before it was released; two processes may "
            "have founded clusters for one story",
            lock.name,
        )


def _as_text(value: bytes | str | None) -> str | None:
    """A Redis reply as text (the client returns bytes unless told to decode)."""
    return value.decode("utf-8") if isinstance(value, bytes) else value
