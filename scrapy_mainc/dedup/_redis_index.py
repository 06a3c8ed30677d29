"""The cluster index on Redis, shared by any number of processes on any number of machines.

Storage (format 3; every key starts with the prefix ``IndexParams.redis_key``, by default
``mainc:dedup``; ``_redis_keys`` names them):

* ``meta``: the parameters the index was built with and its epoch (JSON, ``_redis_epoch``).
  An index with other parameters (thresholds, LSH shape, bucket count, shingling), or one
  written by an earlier version of this package, refuses to open instead of mixing
  incomparable entries: give each index its own prefix, or delete the keys.
* ``epoch``, or on a cluster ``epoch:{<tag>}`` in every hash slot: the epoch keys by which
  a process notices that the index lost its data (``_redis_epoch``).
* ``rec:<3 hex digits>``: hashes of the representatives of clusters (``_index``), spread
  over 4,096 keys by the first digits of the cluster id. Field: the cluster id's 8 bytes
  and the representative's number (1 byte); value: the set size (uint32), the kept
  signature values (``num_perm`` uint16) and the URL of the cluster's first item, all
  little-endian: 260 bytes and the URL for 128 permutations.
* ``band:{<band>:<bucket>}``: the LSH buckets of each band in ``IndexParams.redis_buckets``
  hashes per band, chosen by the first bits of the band's 8-byte digest. Field: the digest;
  value: the 9-byte keys (``ENTRY_SIZE``) of the representatives in that bucket. Hashes of
  up to 128 fields of up to 64 bytes stay in Redis's compact listpack encoding
  (``hash-max-listpack-entries``/``-value``): about 23 bytes a field, against 76 in a
  hashtable and 250 for a set per bucket (see the README on sizing ``redis_buckets``).
* ``stripe:{<band>:<bucket>}:<digest>``: the lock of one bucket (below), short-lived.

Every command touches one key and pipelines are not transactions, and a bucket and its
lock carry the same hash tag ``{<band>:<bucket>}``, so the layout works on a Redis Cluster
(keys spread over its hash slots; ``_redis_client``) as well as on one server. A look-up
reads the ``bands`` buckets of a text in one pipelined round trip (on a cluster, one to each
master, at once) and its candidates' records in another; each of these reads, and the lock
pipeline, ends with the check of the epoch (``_redis_epoch``), and a call that finds the
index lost starts over once in the new epoch.

Concurrency: one lock per LSH bucket. Two processes that each receive one copy of a new
story at the same moment both find no leader and would both found a cluster. A text that
is about to write (to lead a cluster, or to become a cluster's longer copy) first locks the
buckets it occupies, one per band: in one pipeline, for each band, ``SET NX PX`` of the
bucket's stripe key to a random token, then ``HGET`` of the bucket. If a lock is taken, it
releases those it got and tries again after a short sleep, so no process waits while
holding a lock (no deadlock). With all of them held it verifies the candidates read under
the locks, stores its record, writes each bucket's new value (read-then-write is safe
because every writer of a bucket holds its lock) and deletes the locks, in one pipeline.

Why that is enough: LSH can only relate two texts that share a bucket in some band ``i``,
and then both need the same lock. Their critical sections are mutually exclusive, and the
one that comes second reads the first one's completed writes under its locks and joins its
cluster (when they are near-duplicates). Every outcome is thus the outcome of some serial
order of the texts, as with the in-memory index. Texts that share no bucket never wait for
each other, so throughput grows with the number of processes rather than queueing behind
one global lock; texts that match an existing cluster (most duplicates) take no lock at
all: representatives are only removed by ``withdraw``, and a text that matched a cluster
just before it was withdrawn is one assigned before the withdrawal.

Withdrawals. ``withdraw`` locks the buckets of the cluster's first item like a writer (so no
text adds a longer copy to the cluster meanwhile: it found the first item in one of those
buckets), deletes the records of the first item and the longer copy in one ``HDEL``, and
takes their entries out of those buckets as it releases the locks. A record keeps only the
low 16 bits of the signature values, so the buckets cannot be derived from it: the caller
gives the first item's fingerprint, and the longer copy's entries in buckets the first item
does not share stay until a text next locks such a bucket: it finds no record for them and
leaves them out of the bucket's new value (an entry is written after its record, so an
entry without one was withdrawn). Until then they cost memory and nothing else: a look-up
skips keys without a record.

Every command, and every pipeline's round trip, fails with a TimeoutError after
``IndexParams.redis_timeout`` seconds (connecting included), so a server that stops
answering cannot hang a caller; a text waits for taken locks no longer than that either.

Limits: a lock expires after ``STRIPE_LOCK_TTL`` seconds, so that a crashed holder does not
block its buckets forever. A holder releases its locks with ``DEL`` when it took them less
than half that time ago, otherwise with a compare-and-delete script that leaves a lock
another process has taken since (sent whole with ``EVAL``: a node that a failover promoted
has an empty script cache); such a stall (holding takes milliseconds) may have let two
processes found clusters for one story, and is logged. ``ClusterIndex.assign`` raises
``redis.exceptions.LockError`` when the locks cannot be had within ``STRIPE_LOCK_WAIT`` or
the Redis time-out, whichever is shorter. A failure between storing a record and writing
its buckets leaves a record nothing points to; one between deleting records and writing
buckets, entries cleared as above.
"""

from __future__ import annotations

import logging
import os
import random
import struct
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, TypeVar

import numpy as np
from redis.exceptions import LockError, RedisClusterException, RedisError

from ._fingerprint import Fingerprint
from ._index import Assignment, ClusterIndex, Section
from ._match import VALUE_DTYPE, Probe, RecordKey, Representative
from ._params import IndexParams
from ._redis_client import connect
from ._redis_epoch import IndexEpoch, IndexLostError, IndexMismatchError, client_name_for
from ._redis_keys import IndexKeys, record_field, record_key

logger = logging.getLogger(__name__)

_T = TypeVar("_T")

#: Version of the key layout above; stored in the meta.
INDEX_FORMAT = 3
#: Seconds a stripe lock outlives a crashed holder. Holding takes milliseconds.
STRIPE_LOCK_TTL = 30.0
#: Seconds to try for all stripe locks of one text (at most ``IndexParams.redis_timeout``:
#: its item stops waiting then); below the TTL.
STRIPE_LOCK_WAIT = 20.0
#: Seconds between two attempts at the stripe locks (times a random factor from 1 to 2).
STRIPE_LOCK_POLL = 0.002

_SIZE = struct.Struct("<I")
#: Bytes of a representative's key in a bucket: the cluster id's 8 bytes and its number.
ENTRY_SIZE = 9
#: Deletes stripe lock KEYS[1] if it still holds token ARGV[1]; 1 if deleted, else 0.
_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""

__all__ = ["INDEX_FORMAT", "IndexLostError", "IndexMismatchError", "RedisIndex"]


class RedisIndex(ClusterIndex):
    """A cluster index in Redis; thread-safe, and safe across processes (module docstring)."""

    #: RedisClusterException: a cluster client's errors that are not RedisErrors (a slot
    #: that no node serves during a failover).
    service_errors = (RedisError, RedisClusterException)

    def __init__(self, params: IndexParams) -> None:
        super().__init__(params)
        self._keys = IndexKeys(params.redis_key)
        self._bucket_shift = 64 - (params.redis_buckets.bit_length() - 1)
        self._backend = connect(params, self._keys, client_name_for(self._keys.prefix, self.meta()))
        self._redis: Any = self._backend.client
        self._epoch = IndexEpoch(self._backend, self.meta())
        try:
            self._epoch.open()
        except BaseException:
            self._backend.close()
            raise

    def close(self) -> None:
        self._backend.close()

    @property
    def losses(self) -> int:
        """How many times this process found (or learnt) that the index lost its data."""
        return self._epoch.losses

    def meta(self) -> dict[str, object]:
        """The parameters that define this index (stored in its meta key)."""
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

    def assign(self, fingerprint: Fingerprint, url: str) -> Assignment:
        assignment = self._again_if_lost(super().assign, fingerprint, url)
        self._epoch.assigned += 1
        return assignment

    def withdraw(self, cluster_id: str, fingerprint: Fingerprint) -> bool:
        return self._again_if_lost(super().withdraw, cluster_id, fingerprint)

    def _again_if_lost(self, call: Callable[..., _T], *args: Any) -> _T:
        """``call(*args)``, made once more when it found the index lost (IndexLostError: the
        reads it made are of a lost index; nothing was written yet, see ``_read``)."""
        try:
            return call(*args)
        except IndexLostError:
            return call(*args)

    def bucket_key(self, band: int, digest: bytes) -> bytes:
        """The hash holding the bucket of ``digest`` in ``band``."""
        return self._keys.bucket(self._slot_tag(band, digest))

    def stripe_key(self, band: int, digest: bytes) -> bytes:
        """The lock of the bucket of ``digest`` in ``band`` (in the bucket hash's slot)."""
        return self._keys.stripe(self._slot_tag(band, digest), digest)

    def stripe_keys(self, probe: Probe) -> list[bytes]:
        """The lock keys of the buckets ``probe`` occupies, one per band."""
        return [self.stripe_key(band, digest) for band, digest in enumerate(probe.bands)]

    def _slot_tag(self, band: int, digest: bytes) -> bytes:
        """``{<band>:<bucket>}``: a Redis Cluster hash tag, so a bucket and its lock share a slot."""
        bucket = int.from_bytes(digest, "big") >> self._bucket_shift if self._bucket_shift < 64 else 0
        return b"{%d:%x}" % (band, bucket)

    def _execute_checked(self, pipe: Any, keys: Sequence[bytes]) -> list[Any]:
        """Run ``pipe`` (commands on ``keys``) with the epoch check at its end, in the same
        round trip; the commands' replies. IndexLostError (the epoch resynced) when the index
        was found lost: the replies are of a lost index. For reads, and the lock pipeline."""
        check = self._epoch.check(keys)
        count = len(pipe)
        for key in check.keys:
            pipe.get(key)
        replies = pipe.execute()
        self._epoch.verify(check, replies[count:])
        return list(replies[:count])

    def _candidates(self, probe: Probe) -> set[RecordKey]:
        pipe = self._backend.pipeline()
        keys = [self.bucket_key(band, digest) for band, digest in enumerate(probe.bands)]
        for key, digest in zip(keys, probe.bands):
            pipe.hget(key, digest)
        return _entries(self._execute_checked(pipe, keys))

    def _representatives(self, keys: Sequence[RecordKey]) -> list[Representative]:
        pipe = self._backend.pipeline()
        hashes = [self._keys.record(key[0]) for key in keys]
        for name, key in zip(hashes, keys):
            pipe.hget(name, record_field(key))
        records = self._execute_checked(pipe, hashes)
        return [self._decode(key, record) for key, record in zip(keys, records) if record is not None]

    def _has_longer_copy(self, cluster_id: str) -> bool:
        return bool(self._redis.hexists(self._keys.record(cluster_id), record_field((cluster_id, 1))))

    def _store(self, probe: Probe, url: str, key: RecordKey) -> bool:
        record = _SIZE.pack(probe.shingles) + probe.values.astype(VALUE_DTYPE).tobytes() + url.encode("utf-8")
        return bool(self._redis.hsetnx(self._keys.record(key[0]), record_field(key), record))

    def _remove(self, keys: Sequence[RecordKey]) -> None:
        """One command: the representatives of a cluster share a record hash."""
        self._redis.hdel(self._keys.record(keys[0][0]), *(record_field(key) for key in keys))

    def _decode(self, key: RecordKey, record: bytes) -> Representative:
        end = _SIZE.size + 2 * self.params.fingerprint.num_perm
        values = np.frombuffer(record[_SIZE.size : end], dtype=VALUE_DTYPE)
        (shingles,) = _SIZE.unpack_from(record)
        return Representative(key[0], key[1], record[end:].decode("utf-8"), values, shingles)

    @contextmanager
    def _exclusive(self, probe: Probe) -> Iterator[Section]:
        token = os.urandom(16)
        locked_at = time.monotonic()  # before the locks: no later than the server's clock starts
        buckets = self._lock_buckets(probe, token)
        section = Section(_entries(buckets))
        try:
            yield section
        except IndexLostError:
            self._release_after_loss(probe, token)
            raise
        except BaseException:
            self._write_and_release(probe, None, token, buckets, surely_held=False)
            raise
        surely_held = time.monotonic() - locked_at < STRIPE_LOCK_TTL / 2
        self._write_and_release(probe, section, token, buckets, surely_held=surely_held)

    def _lock_buckets(self, probe: Probe, token: bytes) -> list[bytes | None]:
        """Lock every bucket of ``probe`` and read it, in one pipeline; when a lock is taken,
        release those obtained and try again, until ``STRIPE_LOCK_WAIT`` or the Redis time-out
        has passed (LockError). Returns the buckets' values, read after their locks were taken."""
        wait = min(STRIPE_LOCK_WAIT, self.params.redis_timeout)
        deadline = time.monotonic() + wait
        ttl = int(STRIPE_LOCK_TTL * 1000)
        buckets = [self.bucket_key(band, digest) for band, digest in enumerate(probe.bands)]
        while True:
            pipe = self._backend.pipeline()
            for band, digest in enumerate(probe.bands):
                pipe.set(self.stripe_key(band, digest), token, nx=True, px=ttl)
                pipe.hget(buckets[band], digest)
            try:
                replies = self._execute_checked(pipe, buckets)
            except IndexLostError:
                self._release_after_loss(probe, token)
                raise
            taken, values = replies[0::2], replies[1::2]
            if all(taken):
                return values
            held = [band for band, got in enumerate(taken) if got]
            self._write_and_release(probe, None, token, values, surely_held=True, bands=held)
            if time.monotonic() >= deadline:
                raise LockError(f"could not lock the {len(taken)} buckets of a text within {wait:g} s")
            time.sleep(STRIPE_LOCK_POLL * (1.0 + random.random()))  # noqa: S311 (jitter)

    def _release_after_loss(self, probe: Probe, token: bytes) -> None:
        """Release the locks of ``probe`` still held with ``token`` after the index was found
        lost: which of them were had, and which went with the data, is unknown, so each is
        compared and deleted, and one found gone is no sign of a stall."""
        pipe = self._backend.pipeline()
        for band, digest in enumerate(probe.bands):
            pipe.execute_command("EVAL", _RELEASE, 1, self.stripe_key(band, digest), token)
        pipe.execute()

    def _write_and_release(
        self,
        probe: Probe,
        section: Section | None,
        token: bytes,
        buckets: Sequence[bytes | None],
        surely_held: bool,
        bands: Sequence[int] | None = None,
    ) -> None:
        """Write the changes of ``section`` (None: nothing) to the buckets of ``probe``, whose
        values under the locks are ``buckets`` (the entries of the representatives stored
        added, those removed taken out), and release the locks of ``bands`` (default all)
        held with ``token``. Holding a bucket's lock is what makes the read-then-write of its
        value safe: every writer takes it first. Locks ``surely_held`` (taken less than half
        their time to live ago) are deleted; others only if they still hold ``token`` (a
        script), and those that had expired are logged. An empty ``token`` writes without
        locks (only for tests of the race)."""
        added = [record_field(key) for key in section.stored] if section else []
        removed = {record_field(key) for key in section.removed} if section else set()
        chosen = range(len(probe.bands)) if bands is None else bands
        pipe = self._backend.pipeline()
        releases = []  # (band, position of its release in the pipeline)
        for band in chosen:
            digest, current = probe.bands[band], buckets[band] or b""
            value = _rewritten(current, added, removed) if added or removed else current
            if value and value != current:
                pipe.hset(self.bucket_key(band, digest), digest, value)
            elif not value and current:
                pipe.hdel(self.bucket_key(band, digest), digest)
            if token and surely_held:
                pipe.delete(self.stripe_key(band, digest))
            elif token:
                releases.append((band, len(pipe)))
                pipe.execute_command("EVAL", _RELEASE, 1, self.stripe_key(band, digest), token)
        replies = pipe.execute()
        expired = [self.stripe_key(band, probe.bands[band]) for band, at in releases if not replies[at]]
        if expired:
            logger.warning(
                "mainc dedup: %d stripe locks of a text (first %s) expired before they were "
                "released; two processes may have founded clusters for one story",
                len(expired),
                expired[0].decode(),
            )


def _rewritten(value: bytes, added: Sequence[bytes], removed: set[bytes]) -> bytes:
    """The bucket ``value`` without the entries ``removed``, and with those ``added`` that
    it does not hold yet."""
    entries = [value[i : i + ENTRY_SIZE] for i in range(0, len(value), ENTRY_SIZE)]
    if removed:
        entries = [entry for entry in entries if entry not in removed]
    entries += [entry for entry in added if entry not in entries]
    return b"".join(entries)


def _entries(replies: Sequence[bytes | None]) -> set[RecordKey]:
    """The representative keys in bucket values (runs of ``ENTRY_SIZE``-byte entries)."""
    found: set[RecordKey] = set()
    for value in replies:
        if value:
            found.update(record_key(value[i : i + ENTRY_SIZE]) for i in range(0, len(value), ENTRY_SIZE))
    return found
