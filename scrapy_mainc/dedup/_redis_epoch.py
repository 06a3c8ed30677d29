"""Noticing that a Redis index lost its data, and going on with one set of parameters.

A server without persistence that restarts, a FLUSHALL, keys evicted under memory pressure,
a cluster node that comes back empty or a replica without the data taking over: each
leaves an index that silently lacks the texts stored before, so their later copies found
new clusters, and a process with other parameters could create the meta anew and mix its
entries with those of the running processes. The data cannot show it (an absent bucket is
the normal case), so the index carries **epoch keys**: ``<prefix>:epoch`` on one server,
and on a cluster ``<prefix>:epoch:{<tag>}`` in every 16th of the 16,384 hash slots
(``_redis_client.EPOCH_SLOT_STEP``), so that every master holds the epoch keys of its slot
ranges, wherever resharding or a failover moves them.
Their value is ``<parameters digest>:<epoch id>``: a random id kept in the meta (JSON
``{"params", "epoch", "complete"}``), and a digest that lets a process with other
parameters recognise keys it must not use even when the meta is gone.

**Checks.** Every read pipeline ends with a ``GET`` of an epoch key on each server it
reaches (on a cluster: on each master, the epoch key of a read key's slot group), so
checking costs no round trip. A connection runs its commands in order, so when that reply
is this process's epoch value, the reads before it saw the index whole. Any other reply
makes the process *resync*, and the call starts over once (``IndexLostError`` escapes only
when that fails too): nothing was written yet, the lock pipeline's locks are released first.

**Resync** (one thread of a process at a time) reads the meta:

- other parameters: the index was lost and created anew by a process with other parameters;
  this process does not touch it (``IndexLostError`` on every call until the keys are gone);
- another epoch id: another process found a loss and started a new epoch: adopt it;
- the meta gone, or an epoch key gone (with the meta of this epoch): a loss, found here.
  Start a new epoch: a meta with a new id, written by ``SET NX`` (meta gone) or by
  compare-and-set over the meta read, so that of several processes finding one loss at once,
  one id wins and the others adopt it; the parameters written are this process's, and a
  process with other parameters that opens the index later gets ``IndexMismatchError``;
- an epoch key of an older epoch: a slot no process has rewritten yet; rewrite it.

A process that adopts an epoch writes every epoch key with it before it goes on, so that no
slot stays without one and every other process finds the new id at its next check: each
process counts a loss once (``losses``) and logs it once, at ERROR on one server (the whole
index is gone) and at WARNING on a cluster (the node's share of it is gone).

**Opening.** A new meta is written ``"complete": false``; the epoch keys follow (``SET NX``,
so two processes creating one index at once agree) and then ``complete``. A process that
opens an incomplete index completes it the same way, so a missing epoch key next to a
complete meta is a loss (found at opening). Before creating a meta, a process refuses
(``IndexMismatchError``) when epoch keys of other parameters are left, or when processes of
other parameters are connected: their connections carry the client name
``mainc-dedup:<prefix digest>:<parameters digest>``, and ``CLIENT LIST`` shows them even
after a FLUSHALL. (After a restart, live processes reconnect at their next command; a
process of other parameters that opens the index before that wins it, and the others then
stop using it, with an ERROR, rather than mixing entries.)
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from redis.exceptions import RedisError

from ._redis_client import IndexStore

logger = logging.getLogger(__name__)

#: Epoch keys per pipeline when reading or writing all of them (16,384 on a cluster).
EPOCH_BATCH = 4096
#: What empties a server, or a node of a cluster, under a running crawl (for messages).
SERVER_LOSS_CAUSES = "the server restarted without persistence, was flushed, or evicted keys"
CLUSTER_LOSS_CAUSES = (
    "the node restarted without persistence, was flushed, or a replica without the data took over"
)
#: Sets KEYS[1] to ARGV[2] if it holds ARGV[1]; 1 if set, else 0.
_COMPARE_AND_SET = """
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('SET', KEYS[1], ARGV[2]) return 1 end
return 0
"""


class IndexMismatchError(ValueError):
    """The Redis index was built with other parameters than this process uses."""


class IndexLostError(RedisError):
    """The index lost its data during a call (which may be made again), or was created anew
    by a process with other parameters (which this process must leave alone)."""


@dataclass(frozen=True, slots=True)
class Meta:
    """The meta key's value: the parameters and the current epoch."""

    params: Any
    epoch: str
    complete: bool
    raw: bytes


@dataclass(frozen=True, slots=True)
class Check:
    """The epoch keys a pipeline reads at its end, and the epoch they must show."""

    epoch: str
    keys: list[bytes]


def params_digest(params: dict[str, Any]) -> str:
    """16 hex digits identifying the parameters ``params`` (an index's meta)."""
    canonical = json.dumps(params, sort_keys=True).encode("utf-8")
    return hashlib.blake2b(canonical, digest_size=8).hexdigest()


def client_name_for(prefix: bytes, params: dict[str, Any]) -> str:
    """The client name of the connections of a process using the index at ``prefix`` with
    ``params``: ``mainc-dedup:<prefix digest>:<parameters digest>``."""
    return f"mainc-dedup:{hashlib.blake2b(prefix, digest_size=4).hexdigest()}:{params_digest(params)}"


class IndexEpoch:
    """The epoch of an index as one process knows it (module docstring)."""

    def __init__(self, store: IndexStore, params: dict[str, Any]) -> None:
        self._store = store
        self._params = params
        self._digest = params_digest(params)
        #: The client name of this process's connections (module docstring).
        self.client_name = client_name_for(store.keys.prefix, params)
        self._epoch = ""
        self._lock = threading.Lock()
        #: Losses this process found or learnt of since it opened the index.
        self.losses = 0
        #: Texts assigned since the index was opened or last found lost (for the message).
        self.assigned = 0

    def open(self) -> None:
        """Join the index, creating or completing it; IndexMismatchError when it has other
        parameters. A loss found here is reported and a new epoch started."""
        # The epoch keys before the meta: a creator writes the meta first, so epoch keys
        # without a meta read after them mean the meta was lost, not that it is coming.
        sample = self._store.checks(self._store.epoch_keys())  # an epoch key on each master
        values = self._read(sample)
        meta = self._meta()
        lost = ""
        if meta is None:
            self._refuse_foreign(values)
            self._refuse_other_writers()
            if any(value is not None for value in values):  # the meta's node lost its data
                lost = self._store.describe(self._store.keys.meta)
            meta = self._new_meta(None)
        self._accept(meta)
        self._refuse_foreign(values)
        if meta.complete and None in values and not lost:
            values = self._read(sample)  # the index may have been created since the first read
            if None in values:
                lost = self._store.describe(sample[values.index(None)])
                meta = self._new_meta(meta)
                self._accept(meta)
        if lost or not meta.complete:  # NX: processes completing an index write the same
            self._write(self._store.epoch_keys(), self._value(self._epoch), nx=not lost)
            self._complete(meta)
        if lost:
            self.losses += 1
            self._report(lost, 0, opening=True)

    def check(self, keys: Sequence[bytes]) -> Check:
        """What to read at the end of a pipeline of commands on ``keys``."""
        return Check(self._epoch, self._store.checks(keys))

    def verify(self, check: Check, values: Sequence[bytes | None]) -> None:
        """Raise IndexLostError (after resyncing) unless ``values``, read for ``check``, show
        that the pipeline saw the index whole."""
        expected = self._value(check.epoch)
        if all(value == expected for value in values):
            return
        if self._resync(check, values):
            raise IndexLostError(f"the index at {self._store.where} lost its data during this call")

    # --- resync ----------------------------------------------------------------------------

    def _resync(self, check: Check, values: Sequence[bytes | None]) -> bool:
        """Bring this process to the current epoch; True when there was a loss."""
        with self._lock:
            if self._epoch != check.epoch:  # another thread of this process resynced
                return True
            meta = self._meta()
            if meta is not None and meta.epoch != self._epoch:
                self._adopt(meta, "", opening=False)
                return True
            missing = [key for key, value in zip(check.keys, values) if value is None]
            if meta is None or missing:
                lost = self._store.describe(missing[0] if missing else self._store.keys.meta)
                self._adopt(self._new_meta(meta), lost, opening=False)
                return True
            stale = [key for key, value in zip(check.keys, values) if value != self._value(self._epoch)]
            self._write(stale, self._value(self._epoch), nx=False)
            return False

    def _adopt(self, meta: Meta, lost: str, opening: bool) -> None:
        """Go on in ``meta``'s epoch: write it to every epoch key, count and log the loss
        (``lost``: where this process found it; "": another process did)."""
        self._accept(meta, lockout=True)
        self._write(self._store.epoch_keys(), self._value(meta.epoch), nx=False)
        self._complete(meta)
        self.losses += 1
        assigned, self.assigned = self.assigned, 0
        self._report(lost, assigned, opening)

    def _report(self, lost: str, assigned: int, opening: bool) -> None:
        """Log a loss found at ``lost`` ("": by another process) once, with what it affects."""
        where = lost or f"{self._store.where}, found by another process first"
        cause = CLUSTER_LOSS_CAUSES if self._store.is_cluster else SERVER_LOSS_CAUSES
        if opening:
            effect = (
                "that was before this process opened it: copies of stories indexed before start new clusters"
            )
        elif not assigned:
            effect = "this process had not assigned a text to it yet"
        else:
            share = "on that node " if self._store.is_cluster and lost else ""
            effect = (
                f"the clusters {share}of the {assigned:,} text{'' if assigned == 1 else 's'} this "
                "process assigned before are gone, "
                "and later copies of those stories start new clusters"
            )
        logger.log(
            logging.WARNING if self._store.is_cluster else logging.ERROR,
            "mainc dedup: the index lost its data on %s (%s); %s. It goes on in a new epoch, "
            "with this process's parameters (stat mainc/dedup/index_lost)",
            where,
            cause,
            effect,
        )

    # --- the meta ------------------------------------------------------------------------

    def _meta(self) -> Meta | None:
        raw = self._store.client.get(self._store.keys.meta)
        if raw is None:
            return None
        try:
            data = json.loads(raw)
        except ValueError:
            data = None
        if not isinstance(data, dict) or "params" not in data:  # not a meta of this format
            return Meta(data, "", True, raw)
        return Meta(data["params"], str(data.get("epoch", "")), bool(data.get("complete")), raw)

    def _new_meta(self, current: Meta | None) -> Meta:
        """Replace ``current`` (None: no meta) by an incomplete meta of this process with a
        new epoch id, unless another process changed it first; the meta stored then."""
        epoch = os.urandom(8).hex()
        fresh = json.dumps({"params": self._params, "epoch": epoch, "complete": False}, sort_keys=True)
        if current is None:
            self._store.client.set(self._store.keys.meta, fresh, nx=True)
        else:
            self._compare_and_set(current.raw, fresh.encode("utf-8"))
        stored = self._meta()
        if stored is None:
            raise IndexLostError(f"the index at {self._store.where} lost its meta again")
        return stored

    def _complete(self, meta: Meta) -> None:
        if not meta.complete:
            done = json.dumps({"params": meta.params, "epoch": meta.epoch, "complete": True}, sort_keys=True)
            self._compare_and_set(meta.raw, done.encode("utf-8"))

    def _compare_and_set(self, old: bytes, new: bytes) -> None:
        self._store.client.execute_command("EVAL", _COMPARE_AND_SET, 1, self._store.keys.meta, old, new)

    def _accept(self, meta: Meta, lockout: bool = False) -> None:
        """Take ``meta``'s epoch; IndexMismatchError (IndexLostError when ``lockout``: the
        index was created anew while this process used it) if its parameters differ."""
        if meta.params != self._params:
            stored = json.dumps(meta.params, sort_keys=True)
            mine = json.dumps(self._params, sort_keys=True)
            if lockout:
                raise IndexLostError(
                    f"the index at {self._store.where} was lost and created anew by a process "
                    f"with other parameters ({stored}); this process ({mine}) leaves it alone"
                )
            raise IndexMismatchError(
                f"the index at {self._store.where} was built with {stored}, this process uses "
                f"{mine}; give this crawl its own MAINC_DEDUP_REDIS_KEY (key prefix), or delete "
                f"the {self._store.keys.prefix.decode()}:* keys"
            )
        self._epoch = meta.epoch

    def _refuse_foreign(self, values: Sequence[bytes | None]) -> None:
        mine = self._digest.encode("ascii") + b":"
        foreign = next((value for value in values if value is not None and not value.startswith(mine)), None)
        if foreign is not None:
            raise IndexMismatchError(
                f"the index at {self._store.where} holds keys of other parameters (epoch "
                f"{foreign.decode(errors='replace')}, this process: {self._digest}) but no meta; "
                f"delete the {self._store.keys.prefix.decode()}:* keys or use another MAINC_DEDUP_REDIS_KEY"
            )

    def _refuse_other_writers(self) -> None:
        family = self.client_name.rpartition(":")[0] + ":"
        names = set(self._store.client_names()) - {self.client_name}
        others = sorted(name for name in names if name.startswith(family))
        if others:
            raise IndexMismatchError(
                f"the index at {self._store.where} has no meta, but processes with other "
                f"parameters are connected to it ({', '.join(others)}): its keys were lost "
                "while they ran. Let them finish, or give this crawl its own MAINC_DEDUP_REDIS_KEY"
            )

    # --- epoch keys ----------------------------------------------------------------------

    def _value(self, epoch: str) -> bytes:
        return f"{self._digest}:{epoch}".encode("ascii")

    def _read(self, keys: Sequence[bytes]) -> list[bytes | None]:
        values: list[bytes | None] = []
        for start in range(0, len(keys), EPOCH_BATCH):
            pipe = self._store.pipeline()
            for key in keys[start : start + EPOCH_BATCH]:
                pipe.get(key)
            values.extend(pipe.execute())
        return values

    def _write(self, keys: Sequence[bytes], value: bytes, nx: bool) -> None:
        for start in range(0, len(keys), EPOCH_BATCH):
            pipe = self._store.pipeline()
            for key in keys[start : start + EPOCH_BATCH]:
                pipe.set(key, value, nx=nx)
            pipe.execute()
