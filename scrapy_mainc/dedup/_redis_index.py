"""The cluster index on Redis, shared by any number of processes on any number of machines.

Storage (format 2; every key starts with ``mainc:dedup:``):

* ``meta``: the parameters the index was built with (JSON). An index with other parameters
  (thresholds, LSH shape, bucket count, shingling), or one written by an earlier version of
  this package, refuses to open instead of mixing incomparable entries; use another Redis
  database (``redis://host:6379/1``) or delete the keys.
* ``rec:<3 hex digits>``: hashes of the representatives of clusters (``_index``), spread
  over 4,096 keys by the first digits of the cluster id. Field: the cluster id's 8 bytes
  and the representative's number (1 byte); value: the set size (uint32), the kept
  signature values (``num_perm`` uint16) and the URL of the cluster's first item, all
  little-endian. About 330 bytes for 128 permutations and an 60-byte URL.
* ``band:<band>:<bucket>``: the LSH buckets of each band, ``IndexParams.redis_buckets``
  hashes per band chosen by the first bits of the band's 8-byte digest. Field: the digest;
  value: the 9-byte keys of the representatives in that bucket, appended by a Lua script.
  Hashes of up to 128 fields of up to 64 bytes stay in Redis's compact listpack encoding
  (``hash-max-listpack-entries``/``-value``), about 23 bytes a field against 76 in a
  hashtable and 250 for a key per bucket: see the README on sizing ``redis_buckets``.
* ``stripe:<band>:<digest>``: the locks below (short-lived).

A look-up reads its ``bands`` buckets in one pipelined round trip and the candidates'
records in another. Every command touches one key and pipelines are not transactions, so
the layout suits a Redis Cluster (keys spread over hash slots) as well as one server.

Concurrency: one lock per LSH bucket. Two processes that each receive one copy of a new
story at the same moment both find no leader and would both found a cluster. A text that
is about to write (to lead a cluster, or to become a cluster's longer copy) first locks the
``bands`` buckets it will occupy: for every band ``i``, the key ``stripe:<i>:<digest>`` is
set with ``SET NX PX`` to a random token, all of them in one pipeline; if any is taken, the
ones obtained are released (a compare-and-delete script) and the text tries again after a
short sleep, so no process ever waits while holding a lock (no deadlock). With all of them
held it looks up again, and only then writes, releasing the locks afterwards.

Why that is enough: LSH can only relate two texts that share a bucket in some band ``i``,
and then both need the same stripe ``(i, bucket)``. Their critical sections are mutually
exclusive, and the one that comes second sees the first one's completed writes in its
second look-up and joins its cluster (when they are near-duplicates). Every outcome is
thus the outcome of some serial order of the texts, as with the in-memory index. Texts that
share no bucket never wait for each other, so throughput grows with the number of
processes rather than queueing behind one global lock; texts that match an existing
cluster (most duplicates) take no lock at all: representatives are only removed by
``withdraw``, which holds the locks of the leader's buckets (so no text adds a longer copy
to the cluster meanwhile), and a text that matched a cluster just before it was withdrawn is
one assigned before the withdrawal.

Every command fails with a TimeoutError after ``IndexParams.redis_timeout`` seconds (connecting
included), so a server that stops answering cannot hang a caller.

Limits: a stripe lock expires after ``STRIPE_LOCK_TTL`` seconds, so that a crashed holder
does not block its buckets forever; a holder that stalls longer than that (it only needs
milliseconds) could lose its exclusivity, which is logged. ``ClusterIndex.assign`` raises
``redis.exceptions.LockError`` when the locks cannot be had within ``STRIPE_LOCK_WAIT``.
"""

from __future__ import annotations

import json
import logging
import os
import random
import struct
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager

import numpy as np
import redis
from redis.exceptions import LockError, RedisError

from ._index import ClusterIndex, redacted
from ._match import VALUE_DTYPE, Probe, RecordKey, Representative
from ._params import IndexParams

logger = logging.getLogger(__name__)

#: Version of the key layout above; stored in the meta.
INDEX_FORMAT = 2
#: Prefix of every key of the index.
REDIS_BASENAME = b"mainc:dedup"
META_KEY = REDIS_BASENAME + b":meta"
RECORD_PREFIX = REDIS_BASENAME + b":rec:"
BAND_PREFIX = REDIS_BASENAME + b":band:"
STRIPE_PREFIX = REDIS_BASENAME + b":stripe:"
#: Hex digits of the cluster id that choose its record hash (16**3 = 4,096 hashes).
RECORD_SHARD_DIGITS = 3
#: Seconds a stripe lock outlives a crashed holder. Holding takes milliseconds.
STRIPE_LOCK_TTL = 30.0
#: Seconds to try for all stripe locks of one text; below the TTL.
STRIPE_LOCK_WAIT = 20.0
#: Seconds between two attempts at the stripe locks (times a random factor from 1 to 2).
STRIPE_LOCK_POLL = 0.002

_SIZE = struct.Struct("<I")
#: Appends ARGV[2] (a 9-byte representative key) to field ARGV[1] unless already there.
_APPEND_SCRIPT = """
local current = redis.call('HGET', KEYS[1], ARGV[1])
if not current then
  redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
  return 1
end
for i = 1, #current, #ARGV[2] do
  if string.sub(current, i, i + #ARGV[2] - 1) == ARGV[2] then return 0 end
end
redis.call('HSET', KEYS[1], ARGV[1], current .. ARGV[2])
return 1
"""
#: Deletes KEYS[1] if it still holds the token ARGV[1]; 1 if deleted.
_RELEASE_SCRIPT = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""


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
        super().__init__(params)
        self._bucket_shift = 64 - (params.redis_buckets.bit_length() - 1)
        self._append = self._redis.register_script(_APPEND_SCRIPT)
        self._release = self._redis.register_script(_RELEASE_SCRIPT)
        self._check_meta()

    def close(self) -> None:
        self._pool.disconnect()

    def meta(self) -> dict[str, object]:
        """The parameters that define this index (stored in ``mainc:dedup:meta``)."""
        return {
            "format": INDEX_FORMAT,
            "threshold": self.params.threshold,
            "containment": self.params.containment,
            "min_size_ratio": self.params.min_size_ratio,
            "bands": self.bands,
            "rows": self.rows,
            "buckets": self.params.redis_buckets,
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

    def bucket_key(self, band: int, digest: bytes) -> bytes:
        """The hash holding the bucket of ``digest`` in ``band``."""
        bucket = int.from_bytes(digest, "big") >> self._bucket_shift if self._bucket_shift < 64 else 0
        return BAND_PREFIX + b"%d:%x" % (band, bucket)

    def stripe_keys(self, probe: Probe) -> list[bytes]:
        """The lock keys of the buckets ``probe`` occupies, one per band, sorted."""
        return sorted(
            STRIPE_PREFIX + b"%d:" % band + digest.hex().encode() for band, digest in enumerate(probe.bands)
        )

    def _candidates(self, probe: Probe) -> set[RecordKey]:
        pipe = self._redis.pipeline(transaction=False)
        for band, digest in enumerate(probe.bands):
            pipe.hget(self.bucket_key(band, digest), digest)
        found: set[RecordKey] = set()
        for value in pipe.execute():
            if value:
                found.update(_record_key(value[i : i + 9]) for i in range(0, len(value), 9))
        return found

    def _representatives(self, keys: Sequence[RecordKey]) -> list[Representative]:
        pipe = self._redis.pipeline(transaction=False)
        for key in keys:
            pipe.hget(_record_hash(key[0]), _record_field(key))
        return [self._decode(key, record) for key, record in zip(keys, pipe.execute()) if record is not None]

    def _has_longer_copy(self, cluster_id: str) -> bool:
        return bool(self._redis.hexists(_record_hash(cluster_id), _record_field((cluster_id, 1))))

    def _store(self, probe: Probe, url: str, key: RecordKey) -> bool:
        record = _SIZE.pack(probe.shingles) + probe.values.astype(VALUE_DTYPE).tobytes() + url.encode("utf-8")
        if not self._redis.hsetnx(_record_hash(key[0]), _record_field(key), record):
            return False
        entry = _record_field(key)
        pipe = self._redis.pipeline(transaction=False)
        for band, digest in enumerate(probe.bands):
            self._append(keys=[self.bucket_key(band, digest)], args=[digest, entry], client=pipe)
        pipe.execute()
        return True

    def _remove(self, probe: Probe, representatives: Sequence[Representative]) -> None:
        """The records go in one command; entries are taken out of the buckets of ``probe``
        (read, then written, under their locks). Entries of the longer copy in buckets its
        leader does not share remain, pointing to no record (skipped on reading)."""
        keys = [representative.key for representative in representatives]
        self._redis.hdel(_record_hash(keys[0][0]), *(_record_field(key) for key in keys))
        entries = [_record_field(key) for key in keys]
        pipe = self._redis.pipeline(transaction=False)
        for band, digest in enumerate(probe.bands):
            pipe.hget(self.bucket_key(band, digest), digest)
        values = pipe.execute()
        pipe = self._redis.pipeline(transaction=False)
        for band, (digest, value) in enumerate(zip(probe.bands, values)):
            current = value or b""
            kept = b"".join(
                current[i : i + 9] for i in range(0, len(current), 9) if current[i : i + 9] not in entries
            )
            if kept == current:
                continue
            if kept:
                pipe.hset(self.bucket_key(band, digest), digest, kept)
            else:
                pipe.hdel(self.bucket_key(band, digest), digest)
        pipe.execute()

    def _decode(self, key: RecordKey, record: bytes) -> Representative:
        end = _SIZE.size + 2 * self.params.fingerprint.num_perm
        values = np.frombuffer(record[_SIZE.size : end], dtype=VALUE_DTYPE)
        (shingles,) = _SIZE.unpack_from(record)
        return Representative(key[0], key[1], record[end:].decode("utf-8"), values, shingles)

    @contextmanager
    def _exclusive(self, probe: Probe) -> Iterator[None]:
        keys = self.stripe_keys(probe)
        token = os.urandom(16)
        deadline = time.monotonic() + STRIPE_LOCK_WAIT
        while True:
            pipe = self._redis.pipeline(transaction=False)
            for key in keys:
                pipe.set(key, token, nx=True, px=int(STRIPE_LOCK_TTL * 1000))
            held = [key for key, taken in zip(keys, pipe.execute()) if taken]
            if len(held) == len(keys):
                break
            self._unlock(held, token)
            if time.monotonic() >= deadline:
                raise LockError(
                    f"could not lock the {len(keys)} buckets of a text within {STRIPE_LOCK_WAIT} s"
                )
            time.sleep(STRIPE_LOCK_POLL * (1.0 + random.random()))  # noqa: S311 (jitter)
        try:
            yield
        finally:
            self._unlock(keys, token)

    def _unlock(self, keys: Sequence[bytes], token: bytes) -> None:
        if not keys:
            return
        pipe = self._redis.pipeline(transaction=False)
        for key in keys:
            self._release(keys=[key], args=[token], client=pipe)
        for key, released in zip(keys, pipe.execute()):
            if not released:
                logger.warning(
                    "mainc dedup: stripe lock %s expired before it was released; two processes "
                    "may have founded clusters for one story",
                    key.decode(),
                )


def _record_hash(cluster_id: str) -> bytes:
    return RECORD_PREFIX + cluster_id[:RECORD_SHARD_DIGITS].encode("ascii")


def _record_field(key: RecordKey) -> bytes:
    return bytes.fromhex(key[0]) + bytes((key[1],))


def _record_key(field: bytes) -> RecordKey:
    return (field[:8].hex(), field[8])


def _as_text(value: bytes | str | None) -> str | None:
    """A Redis reply as text (the client returns bytes unless told to decode)."""
    return value.decode("utf-8") if isinstance(value, bytes) else value
