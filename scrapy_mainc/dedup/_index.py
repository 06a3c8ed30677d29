"""Near-duplicate clusters: leader clustering over an LSH index of the items that represent them.

Clustering is *leader* clustering. Each cluster is represented in the index by its first
item (the leader) and at most one more, its *longer copy* (below): their kept signature
values, set sizes and URLs, and the LSH bands of their signatures (``_match``). A new text
looks up the representatives sharing a band with it (the candidates), estimates its Jaccard
similarity and containment with each (verification) and joins the cluster of the one it
is a near-duplicate of with the highest estimated Jaccard similarity (ties: the smallest
cluster id, then the leader); when there is none it becomes the leader of a new cluster.
Other members are never indexed, so clusters do not drift through chains of edits.
``duplicate_of`` is always the cluster's first item.

What containment means for leaders. The rule is symmetric (the smaller set in the larger),
so a copy that lost its last paragraph and arrives first leads, and the full story arriving
later joins it. A text under ``IndexParams.min_size_ratio`` of another's size is never its
near-duplicate by containment: a teaser or a two-paragraph excerpt of a long story leads a
cluster of its own (its own copies join it) rather than joining, or leading, the cluster of
every longer story that quotes it.

The longer copy. A leader that is itself a cut copy (the first paragraphs gone) does not
contain a copy cut at the other end (the last paragraphs gone), although the full story
contains both. So the first member that contains the leader (the containment rule, with
the leader as the smaller set) and has at least ``LONGER_COPY_GAIN`` times its shingles
also represents the cluster; later texts are compared with both. Measured on
benchmarks/neardup/quality.py (``main_text``, index recall): 0.934 without it, 0.971 with
it on English, 0.970 and 0.977 on Chinese, precision 1.000 both ways. Drift stays bounded:
the longer copy contains the leader and is at most ``1 / min_size_ratio`` times its size,
and it is never extended further.

A re-crawl is not a duplicate of itself: a text whose own URL leads a cluster it matches
(the same page fetched again, in this run or an earlier one that shared a Redis index) joins
that cluster as its leader, with ``is_recrawl`` set and no ``duplicate_of``, whatever else
it matches. Its own URL leads a cluster when it matches the cluster's first item or its
longer copy (which is stored with the first item's URL). A cluster whose first item was lost
after all (dropped or failed by a later stage) can be taken out again with
:meth:`ClusterIndex.withdraw`, its longer copy with it; the next copy of the story then
founds the cluster.

Cluster ids are stable: the first 16 hex digits of the BLAKE2b hash of the leader's URL
(``cluster_id_for(url)``), not a counter, so an id means the same story in every process
and every run, and the cluster id of a duplicate can be recomputed from its
``duplicate_of``. A URL that leads a second cluster (its page changed completely between
two fetches) gets the hash of ``url#1``, ``url#2``, ... instead.

Indexes: :class:`MemoryIndex` (one process; every assignment under one thread lock) and
``RedisIndex`` (``_redis_index``: any number of processes and machines). Open either with
:func:`open_index`. Both run this module's candidate, verification and assignment code over
their own storage, so they give the same clusters for the same texts in the same order.
"""

from __future__ import annotations

import hashlib
import threading
from abc import ABC, abstractmethod
from collections.abc import Iterable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass, field
from types import TracebackType
from urllib.parse import urlsplit, urlunsplit

from ._fingerprint import Fingerprint
from ._match import Probe, RecordKey, Representative, Similarity, estimate, is_near_duplicate, make_probe
from ._params import IndexParams

#: A member with at least this many times the leader's shingles, containing the leader,
#: becomes the cluster's longer copy. 1.1: a copy with an editor's note or a few more words
#: adds nothing to compare with; on the benchmark 1.0 and 1.1 give the same recall, 1.1
#: with 40% fewer longer copies (128 for 238 stories, not 214; 1.2: 54, recall 0.002 lower).
LONGER_COPY_GAIN = 1.1


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
    #: Estimated share of the smaller of the two shingle sets found in the larger (1.0 for
    #: the first item).
    containment: float = 1.0
    #: True when the cluster's first item has this text's own URL (a re-crawl of that page):
    #: the text is not a duplicate and founds nothing.
    is_recrawl: bool = False

    @property
    def is_new(self) -> bool:
        """True when this text founded the cluster (and is now its first item)."""
        return not (self.is_duplicate or self.is_recrawl)


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


@dataclass(frozen=True, slots=True)
class Match:
    """A verified candidate: the representative matched and the estimates."""

    representative: Representative
    similarity: Similarity
    #: The representative carries the text's own URL: the text is a re-crawl of its leader.
    is_recrawl: bool = False

    @property
    def assignment(self) -> Assignment:
        jaccard, containment = self.similarity.jaccard, self.similarity.containment
        if self.is_recrawl:
            return Assignment(self.representative.cluster_id, "", False, jaccard, containment, True)
        return Assignment(self.representative.cluster_id, self.representative.url, True, jaccard, containment)


def best_match(
    probe: Probe, representatives: Iterable[Representative], params: IndexParams, url: str = ""
) -> Match | None:
    """The representative ``probe`` is a near-duplicate of with the highest estimated Jaccard
    similarity, if any. Representatives with the text's own ``url`` (its cluster's leader is
    this page: a re-crawl) come first. Ties go to the smallest cluster id, then to the leader,
    so the choice does not depend on storage order."""
    best: tuple[tuple[bool, float, str, int], Match] | None = None
    for representative in representatives:
        similarity = estimate(probe.values, probe.shingles, representative.values, representative.shingles)
        if not is_near_duplicate(similarity, params):
            continue
        own = bool(url) and representative.url == url
        rank = (not own, -similarity.jaccard, representative.cluster_id, representative.number)
        if best is None or rank < best[0]:
            best = (rank, Match(representative, similarity, own))
    return None if best is None else best[1]


def extends(probe: Probe, match: Match, params: IndexParams) -> bool:
    """Whether ``probe``, matched to ``match``, becomes its cluster's longer copy: it matched
    the leader, has at least ``LONGER_COPY_GAIN`` times its shingles and contains it."""
    return (
        params.containment > 0.0
        and match.representative.number == 0
        and probe.shingles >= LONGER_COPY_GAIN * match.representative.shingles
        and match.similarity.size_ratio >= params.min_size_ratio
        and match.similarity.containment >= params.containment
    )


@dataclass(slots=True)
class Section:
    """What a text sees and writes inside ``ClusterIndex._exclusive``."""

    #: Keys of the representatives sharing a bucket with the text, read inside the section.
    candidates: set[RecordKey]
    #: Representatives stored in the section, whose band entries the section adds on exit.
    stored: list[RecordKey] = field(default_factory=list)
    #: Representatives withdrawn, whose entries the section takes out of its buckets on exit.
    removed: list[RecordKey] = field(default_factory=list)


class ClusterIndex(ABC):
    """Assigns texts to clusters; the assignment logic shared by the memory and Redis indexes.

    Storage subclasses implement the ``_`` methods: look-ups, record storage, and
    ``_exclusive``, the section in which a text looks again and writes (see ``_redis_index``).
    """

    #: Exceptions of the storage service that ``assign`` may raise (connection lost, lock
    #: not obtained): a caller may skip the text and carry on.
    service_errors: tuple[type[Exception], ...] = ()

    def __init__(self, params: IndexParams) -> None:
        self.params = params
        #: LSH bands and values per band (``IndexParams.lsh_shape``).
        self.bands, self.rows = params.lsh_shape

    def assign(self, fingerprint: Fingerprint, url: str) -> Assignment:
        """Put the text fingerprinted as ``fingerprint`` (of the item at ``url``) in a cluster."""
        probe = self._probe(fingerprint)
        found = self._verify(probe, self._candidates(probe), url)
        if found is not None and not self._adds_longer_copy(probe, found):
            return found.assignment
        with self._exclusive(probe) as section:
            found = self._verify(probe, section.candidates, url, section)
            if found is None:
                return self._lead(probe, url, section)
            cluster_id = found.representative.cluster_id
            # The longer copy is stored with its leader's URL: what its matches duplicate.
            if self._adds_longer_copy(probe, found) and self._store(
                probe, found.representative.url, (cluster_id, 1)
            ):
                section.stored.append((cluster_id, 1))
            return found.assignment

    def withdraw(self, cluster_id: str, fingerprint: Fingerprint) -> bool:
        """Take cluster ``cluster_id`` out of the index: its first item, the text
        fingerprinted as ``fingerprint``, was lost after all. Its representatives (the first
        item and the longer copy) and their bucket entries go; texts assigned to it before
        keep their ``duplicate_of``, and the next copy of the story founds a cluster of its
        own. False, changing nothing, when the cluster is not there or was founded by another
        text. Runs in the section of the first item's buckets, so that no text adds a longer
        copy to the cluster meanwhile (it would need one of those buckets)."""
        probe = self._probe(fingerprint)
        with self._exclusive(probe) as section:
            found = self._representatives([(cluster_id, 0), (cluster_id, 1)])
            if not found or found[0].number != 0 or not found[0].is_from(probe):
                return False
            keys = [representative.key for representative in found]
            self._remove(keys)
            section.removed.extend(keys)
            return True

    @property
    def losses(self) -> int:
        """How many times the storage was found to have lost the index's data (a restarted
        Redis without persistence, say) since it was opened; the memory index cannot."""
        return 0

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

    def _probe(self, fingerprint: Fingerprint) -> Probe:
        expected = self.params.fingerprint.method
        if fingerprint.method != expected:
            raise ValueError(f"fingerprint made by {fingerprint.method!r}; this index uses {expected!r}")
        return make_probe(fingerprint.minhash, fingerprint.shingles, self.params)

    def _verify(
        self, probe: Probe, candidates: set[RecordKey], url: str, section: Section | None = None
    ) -> Match | None:
        """The best of the candidates' representatives ``probe`` is a near-duplicate of. In a
        ``section``, candidates without a record (withdrawn) are left out of its buckets."""
        if not candidates:
            return None
        representatives = self._representatives(sorted(candidates))
        if section is not None and len(representatives) < len(candidates):
            section.removed.extend(candidates.difference(rep.key for rep in representatives))
        return best_match(probe, representatives, self.params, url)

    def _adds_longer_copy(self, probe: Probe, found: Match) -> bool:
        return extends(probe, found, self.params) and not self._has_longer_copy(
            found.representative.cluster_id
        )

    def _lead(self, probe: Probe, url: str, section: Section) -> Assignment:
        for cluster_id in cluster_id_candidates(url):
            if self._store(probe, url, (cluster_id, 0)):
                section.stored.append((cluster_id, 0))
                return Assignment(cluster_id)
        raise AssertionError("unreachable")  # pragma: no cover

    @abstractmethod
    def _exclusive(self, probe: Probe) -> AbstractContextManager[Section]:
        """A section in which no other writer can store a text sharing a bucket with
        ``probe``: yields the candidates read inside it, and on leaving adds to the buckets
        of ``probe`` the entries of the representatives stored meanwhile and takes out those
        of the representatives removed."""

    @abstractmethod
    def _candidates(self, probe: Probe) -> set[RecordKey]:
        """Keys of the representatives that share a bucket with ``probe`` in some band."""

    @abstractmethod
    def _representatives(self, keys: Sequence[RecordKey]) -> list[Representative]:
        """The stored representatives of ``keys`` (those found), in the order of ``keys``."""

    @abstractmethod
    def _has_longer_copy(self, cluster_id: str) -> bool:
        """Whether the cluster already has its longer copy."""

    @abstractmethod
    def _store(self, probe: Probe, url: str, key: RecordKey) -> bool:
        """Store ``probe`` as representative ``key`` (with ``url``, the URL of the cluster's
        first item), unless ``key`` is taken (then return False and change nothing). Its band
        entries are added when the section is left."""

    @abstractmethod
    def _remove(self, keys: Sequence[RecordKey]) -> None:
        """Delete the records of ``keys`` (of one cluster), and their bucket entries where the
        storage knows them; the section takes them out of its own buckets when left."""


class MemoryIndex(ClusterIndex):
    """An index in this process's memory; thread-safe, so items may be assigned from threads."""

    def __init__(self, params: IndexParams) -> None:
        super().__init__(params)
        self._records: dict[RecordKey, Representative] = {}
        self._bands: dict[RecordKey, tuple[bytes, ...]] = {}  # of each record, for removal
        self._buckets: dict[tuple[int, bytes], list[RecordKey]] = {}
        self._clusters = 0
        self._lock = threading.RLock()

    def __len__(self) -> int:
        """Number of clusters."""
        return self._clusters

    def assign(self, fingerprint: Fingerprint, url: str) -> Assignment:
        with self._lock:
            return super().assign(fingerprint, url)

    @contextmanager
    def _exclusive(self, probe: Probe) -> Iterator[Section]:
        with self._lock:  # (assign holds it already) nothing else runs meanwhile
            section = Section(self._candidates(probe))
            yield section
            # Nothing to take out for section.removed: _remove drops a record's entries.
            for key in section.stored:
                for band, digest in enumerate(probe.bands):
                    self._buckets.setdefault((band, digest), []).append(key)

    def _candidates(self, probe: Probe) -> set[RecordKey]:
        found: set[RecordKey] = set()
        for band, digest in enumerate(probe.bands):
            found.update(self._buckets.get((band, digest), ()))
        return found

    def _representatives(self, keys: Sequence[RecordKey]) -> list[Representative]:
        return [self._records[key] for key in keys if key in self._records]

    def _has_longer_copy(self, cluster_id: str) -> bool:
        return (cluster_id, 1) in self._records

    def _store(self, probe: Probe, url: str, key: RecordKey) -> bool:
        if key in self._records:
            return False
        self._records[key] = Representative(key[0], key[1], url, probe.values, probe.shingles)
        self._bands[key] = probe.bands
        self._clusters += key[1] == 0
        return True

    def _remove(self, keys: Sequence[RecordKey]) -> None:
        for key in keys:
            del self._records[key]
            self._clusters -= key[1] == 0
            for band, digest in enumerate(self._bands.pop(key)):
                bucket = self._buckets[(band, digest)]
                bucket.remove(key)
                if not bucket:
                    del self._buckets[(band, digest)]
