"""The names of a Redis index's keys, under its prefix (``IndexParams.redis_key``).

The layout (``_redis_index`` describes the values): ``<prefix>:meta``, ``<prefix>:rec:<3 hex
digits>``, ``<prefix>:band:{<band>:<bucket>}``, ``<prefix>:stripe:{<band>:<bucket>}:<digest>``,
and the epoch keys of ``_redis_epoch``: ``<prefix>:epoch`` on one server,
``<prefix>:epoch:{<tag>}`` in every 16th of the 16,384 hash slots of a cluster.
"""

from __future__ import annotations

from binascii import crc_hqx

from ._match import RecordKey

#: Hex digits of the cluster id that choose its record hash (16**3 = 4,096 hashes).
RECORD_SHARD_DIGITS = 3
#: Hash slots of a Redis Cluster (the cluster specification's fixed number).
HASH_SLOTS = 16384


class IndexKeys:
    """Key names of the index under ``prefix``."""

    def __init__(self, prefix: str) -> None:
        self.prefix = prefix.encode("utf-8")
        self.meta = self.prefix + b":meta"
        #: The epoch key of an index on one server.
        self.epoch = self.prefix + b":epoch"
        self._record = self.prefix + b":rec:"
        self._band = self.prefix + b":band:"
        self._stripe = self.prefix + b":stripe:"

    def record(self, cluster_id: str) -> bytes:
        """The hash holding the records of the representatives of cluster ``cluster_id``."""
        return self._record + cluster_id[:RECORD_SHARD_DIGITS].encode("ascii")

    def bucket(self, slot_tag: bytes) -> bytes:
        """The hash holding the buckets of hash tag ``slot_tag`` (``{<band>:<bucket>}``)."""
        return self._band + slot_tag

    def stripe(self, slot_tag: bytes, digest: bytes) -> bytes:
        """The lock of the bucket of ``digest`` in the hash of ``slot_tag`` (same slot)."""
        return self._stripe + slot_tag + b":" + digest.hex().encode("ascii")

    def slot_epochs(self, tags: list[bytes], step: int) -> dict[int, bytes]:
        """The epoch keys of a cluster: for every ``step``-th hash slot, ``<prefix>:epoch:{<tag>}``
        with the ``tags`` of ``slot_tags``, which lands in that slot; by slot."""
        return {slot: self.epoch + b":{" + tags[slot] + b"}" for slot in range(0, HASH_SLOTS, step)}


def slot_tags() -> list[bytes]:
    """For each hash slot, the smallest decimal number (as bytes) whose CRC16 lands in it.

    Redis Cluster puts a key with a hash tag ``{t}`` in slot ``CRC16(t) mod 16384``; the
    numbers up to 109,757 cover every slot (found in about 0.05 s, once per cluster index).
    """
    found: list[bytes | None] = [None] * HASH_SLOTS
    missing = HASH_SLOTS
    number = 0
    while missing:
        tag = b"%d" % number
        slot = crc_hqx(tag, 0) % HASH_SLOTS
        if found[slot] is None:
            found[slot] = tag
            missing -= 1
        number += 1
    return [tag for tag in found if tag is not None]


def record_field(key: RecordKey) -> bytes:
    """The field of a representative in its record hash: the cluster id's 8 bytes and its number."""
    return bytes.fromhex(key[0]) + bytes((key[1],))


def record_key(field: bytes) -> RecordKey:
    return (field[:8].hex(), field[8])
