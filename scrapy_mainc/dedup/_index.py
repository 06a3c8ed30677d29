"""Near-duplicate clusters: a datasketch MinHashLSH index of the first item of every cluster.

Clustering is *leader* clustering. The index holds one entry per cluster, its first item
(the leader): its MinHash signature and URL, under the cluster id. A new text queries the
LSH index for leaders sharing a band with it, estimates its Jaccard similarity with each
(datasketch's ``jaccard`` of the signatures) and joins the most similar leader at or above
the threshold (ties: the smallest cluster id); when there is none it becomes the leader of
a new cluster. Members are never indexed, so clusters do not drift through chains of
edits, and ``duplicate_of`` is always the item that the duplicate resembles.

A re-crawl is not a duplicate of itself: a text whose own URL leads a cluster it matches
(the same page fetched again, in this run or an earlier one that shared a Redis index) joins
that cluster as its leader, with ``is_recrawl`` set and no ``duplicate_of``, whatever else
it matches. A leader whose item was lost after all (dropped or failed by a later stage) can
be taken out again with :meth:`ClusterIndex.withdraw`; the next copy of the story then
founds the cluster.

Cluster ids are stable: the first 16 hex digits of the BLAKE2b hash of the leader's URL
(``cluster_id_for(url)``), not a counter, so an id means the same story in every process
and every run, and the cluster id of a duplicate can be recomputed from its
``duplicate_of``. A URL that leads a second cluster (its page changed completely between
two fetches) gets the hash of ``url#1``, ``url#2``, ... instead.

Indexes: :class:`MemoryIndex` (one process; every assignment under one thread lock) and
``RedisIndex`` (``_redis_index``: any number of processes and machines). Open either with
:func:`open_index`.
"""

from __future__ import annotations

import hashlib
import threading
from abc import ABC, abstractmethod
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from types import TracebackType
from urllib.parse import urlsplit, urlunsplit

from datasketch import LeanMinHash, MinHashLSH

from ._fingerprint import Fingerprint, lean_minhash
from ._params import IndexParams


@dataclass(frozen=True, slots=True)
class Assignment:
    """The cluster of one text."""

    #: Id of the cluster: :func:`cluster_id_for` the URL of its first item.
    cluster_id: str
    #: URL of the cluster's first item when this text is a duplicate of it, else "".
    duplicate_of: str = ""
    #: True when the text joined an existing cluster.
    is_duplicate: bool = False
    #: Estimated Jaccard similarity with the cluster's first item (1.0 for that item).
    similarity: float = 1.0
    #: True when the cluster's first item has this text's own URL (a re-crawl of that page):
    #: the text is not a duplicate and founds nothing.
    is_recrawl: bool = False

    @property
    def is_new(self) -> bool:
        """True when this text founded the cluster (and is now its first item)."""
        return not (self.is_duplicate or self.is_recrawl)


@dataclass(frozen=True, slots=True)
class Leader:
    """The first item of a cluster, as the index stores it."""

    cluster_id: str
    url: str
    signature: LeanMinHash


def redacted(url: str) -> str:
    """``url`` with any password replaced by ``***``, for logs and error messages."""
    parts = urlsplit(url)
    if not parts.password:
        return url
    host = parts.netloc.rpartition("@")[2]
    return urlunsplit(parts._replace(netloc=f"{parts.username or ''}:***@{host}"))


def cluster_id_for(url: str, attempt: int = 0) -> str:
    """Cluster id led by ``url``: 16 hex digits of BLAKE2b; ``attempt`` n > 0 hashes ``url#n``."""
    key = url if attempt == 0 else f"{url}#{attempt}"
    return hashlib.blake2b(key.encode("utf-8"), digest_size=8).hexdigest()


def cluster_id_candidates(url: str) -> Iterator[str]:
    """:func:`cluster_id_for` ``url`` with attempts 0, 1, 2, ... (the first free one is used)."""
    attempt = 0
    while True:
        yield cluster_id_for(url, attempt)
        attempt += 1


def best_leader(
    signature: LeanMinHash, leaders: Iterable[Leader], threshold: float, url: str = ""
) -> Assignment | None:
    """The assignment to the most similar leader at or above ``threshold``, if any.

    Leaders with the text's own ``url`` come first (a re-crawl: ``is_recrawl``, no
    ``duplicate_of``). Ties go to the smallest cluster id, so the choice does not depend on
    storage order.
    """
    matches = [
        Assignment(leader.cluster_id, leader.url, True, float(signature.jaccard(leader.signature)))
        for leader in leaders
    ]
    matches = [match for match in matches if match.similarity >= threshold]
    own = [match for match in matches if url and match.duplicate_of == url]
    if not matches:
        return None
    best = min(own or matches, key=lambda match: (-match.similarity, match.cluster_id))
    if own:
        return Assignment(best.cluster_id, similarity=best.similarity, is_recrawl=True)
    return best


class ClusterIndex(ABC):
    """Assigns texts to clusters; shared logic of the memory and Redis indexes."""

    #: Exceptions of the storage service that ``assign`` may raise (connection lost, lock
    #: not obtained): a caller may skip the text and carry on.
    service_errors: tuple[type[Exception], ...] = ()

    def __init__(self, params: IndexParams, lsh: MinHashLSH) -> None:
        self.params = params
        self._lsh = lsh

    @property
    def bands(self) -> int:
        """Number of LSH bands (datasketch's ``b``, chosen for the threshold)."""
        return int(self._lsh.b)

    @property
    def rows(self) -> int:
        """Signature values per band (datasketch's ``r``)."""
        return int(self._lsh.r)

    @abstractmethod
    def assign(self, fingerprint: Fingerprint, url: str) -> Assignment:
        """Put the text fingerprinted as ``fingerprint`` (of the item at ``url``) in a cluster."""

    @abstractmethod
    def withdraw(self, cluster_id: str) -> bool:
        """Take the leader of ``cluster_id`` out of the index (its item was lost after all);
        False when there is no such cluster. Texts assigned to it before keep their
        ``duplicate_of``; the next copy of the story founds a cluster of its own."""

    def close(self) -> None:  # noqa: B027 (a hook: indexes without connections keep it)
        """Release connections; the index must not be used afterwards."""

    def __enter__(self) -> ClusterIndex:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()

    def _signature(self, fingerprint: Fingerprint) -> LeanMinHash:
        expected = self.params.fingerprint.method
        if fingerprint.method != expected:
            raise ValueError(f"fingerprint made by {fingerprint.method!r}; this index uses {expected!r}")
        return lean_minhash(fingerprint.minhash, self.params.fingerprint)

    def _match(self, signature: LeanMinHash, url: str) -> Assignment | None:
        keys = self._lsh.query(signature)
        if not keys:
            return None
        return best_leader(signature, self._leaders(sorted(keys)), self.params.threshold, url)

    def _lead(self, signature: LeanMinHash, url: str) -> Assignment:
        cluster_id = self._store_leader(signature, url)
        self._lsh.insert(cluster_id.encode("ascii"), signature, check_duplication=False)
        return Assignment(cluster_id)

    @abstractmethod
    def _leaders(self, keys: Sequence[bytes]) -> list[Leader]:
        """The stored leaders of the LSH keys ``keys``."""

    @abstractmethod
    def _store_leader(self, signature: LeanMinHash, url: str) -> str:
        """Store a new leader under the first free id of ``cluster_id_candidates(url)``."""


class MemoryIndex(ClusterIndex):
    """An index in this process's memory; thread-safe, so items may be assigned from threads."""

    def __init__(self, params: IndexParams) -> None:
        lsh = MinHashLSH(threshold=params.threshold, num_perm=params.fingerprint.num_perm, prepickle=False)
        super().__init__(params, lsh)
        self._records: dict[str, Leader] = {}
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._records)

    def assign(self, fingerprint: Fingerprint, url: str) -> Assignment:
        signature = self._signature(fingerprint)
        with self._lock:
            return self._match(signature, url) or self._lead(signature, url)

    def withdraw(self, cluster_id: str) -> bool:
        with self._lock:
            if self._records.pop(cluster_id, None) is None:
                return False
            self._lsh.remove(cluster_id.encode("ascii"))
            return True

    def _leaders(self, keys: Sequence[bytes]) -> list[Leader]:
        return [self._records[key.decode("ascii")] for key in keys]

    def _store_leader(self, signature: LeanMinHash, url: str) -> str:
        for cluster_id in cluster_id_candidates(url):
            if cluster_id not in self._records:
                self._records[cluster_id] = Leader(cluster_id, url, signature)
                return cluster_id
        raise AssertionError("unreachable")  # pragma: no cover


def open_index(params: IndexParams) -> ClusterIndex:
    """A :class:`MemoryIndex`, or a ``RedisIndex`` when ``params.redis_url`` is set."""
    if not params.redis_url:
        return MemoryIndex(params)
    try:
        from ._redis_index import RedisIndex  # noqa: PLC0415 (redis is optional)
    except ImportError as exc:
        raise ImportError("a Redis index needs redis-py: pip install 'scrapy-mainc[redis]'") from exc
    return RedisIndex(params)
