"""Containment and the longer copy through every index: the same clusters in memory, on one
Redis server and on a Redis Cluster.

Texts are runs of numbered words, so every shingle count and overlap below is exact: a run
of ``n`` words has ``n - 4`` five-word shingles, and two runs share the shingles of their
common stretch.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterator

import pytest

from scrapy_mainc.dedup import (
    Assignment,
    ClusterIndex,
    Fingerprint,
    IndexParams,
    MemoryIndex,
    cluster_id_for,
    fingerprint_text,
    open_index,
)

PARAMS = IndexParams()

OpenIndex = Callable[..., ClusterIndex]


@pytest.fixture(params=["memory", "redis", "cluster"])
def make_index(request: pytest.FixtureRequest) -> Iterator[OpenIndex]:
    """Opens indexes of any kind (Redis: an empty database of the session's server; cluster:
    the session's cluster, under a key prefix of the test's own)."""
    where: dict[str, object] = {}
    if request.param == "redis":
        where = {"redis_url": request.getfixturevalue("redis_url")}
    elif request.param == "cluster":
        cluster = request.getfixturevalue("redis_cluster")
        prefix = f"containment-{uuid.uuid4().hex[:8]}:dedup"
        where = {"redis_url": cluster.url, "redis_cluster": True, "redis_key": prefix}
    opened: list[ClusterIndex] = []

    def make(**changes: object) -> ClusterIndex:
        index = open_index(IndexParams(**where, **changes))  # type: ignore[arg-type]
        opened.append(index)
        return index

    yield make
    for index in opened:
        index.close()


def run(start: int, stop: int, prefix: str = "w") -> Fingerprint:
    """The fingerprint of words ``start`` to ``stop - 1``."""
    result = fingerprint_text(" ".join(f"{prefix}{n}" for n in range(start, stop)), PARAMS.fingerprint)
    assert result is not None
    return result


def prefix_of(index: ClusterIndex) -> bytes:
    return index._keys.prefix  # type: ignore[attr-defined, no-any-return]


def representatives(index: ClusterIndex) -> int:
    if isinstance(index, MemoryIndex):
        return len(index._records)
    client = index._redis  # type: ignore[attr-defined]
    return sum(client.hlen(key) for key in client.scan_iter(match=prefix_of(index) + b":rec:*"))


def test_a_cut_copy_first_then_the_full_story_make_one_cluster(make_index: OpenIndex) -> None:
    index = make_index()
    cut = index.assign(run(0, 240), "http://cut")  # 236 shingles, all in the story's 296
    assert cut == Assignment(cluster_id_for("http://cut"))
    story = index.assign(run(0, 300), "http://story")
    assert (story.cluster_id, story.duplicate_of) == (cut.cluster_id, "http://cut")
    # Exact Jaccard 236 / 296 = 0.797: the Jaccard rule alone would often miss it.
    assert story.similarity == pytest.approx(236 / 296, abs=0.15)
    assert story.containment >= 0.85


def test_a_teaser_does_not_join_the_story_nor_lead_it(make_index: OpenIndex) -> None:
    index = make_index()
    teaser = index.assign(run(0, 100), "http://teaser")  # 96 shingles: a third of the story
    story = index.assign(run(0, 300), "http://story")
    assert not story.is_duplicate and story.cluster_id != teaser.cluster_id
    again = index.assign(run(0, 100), "http://teaser-copy")
    assert again.duplicate_of == "http://teaser"
    assert index.assign(run(0, 290), "http://story-copy").duplicate_of == "http://story"


def test_the_longer_copy_brings_in_a_copy_cut_at_the_other_end(make_index: OpenIndex) -> None:
    index = make_index()
    lead_cut = index.assign(run(60, 300), "http://lead-cut")  # 236 shingles
    # The full story contains the leader and is 1.25 times its size: the longer copy.
    story = index.assign(run(0, 300), "http://story")
    assert story.duplicate_of == "http://lead-cut"
    assert representatives(index) == 2
    # Words 0-239 keep only 176 / 236 = 0.75 of the leader, but all of theirs are in the story.
    end_cut = index.assign(run(0, 240), "http://end-cut")
    assert (end_cut.cluster_id, end_cut.duplicate_of) == (lead_cut.cluster_id, "http://lead-cut")
    assert end_cut.containment >= 0.85
    # One longer copy per cluster: a still longer version joins without being indexed.
    index.assign(run(0, 330), "http://longer-still")
    assert representatives(index) == 2


def test_without_the_longer_copy_the_other_cut_leads_its_own_cluster(make_index: OpenIndex) -> None:
    index = make_index()
    lead_cut = index.assign(run(60, 300), "http://lead-cut")
    end_cut = index.assign(run(0, 240), "http://end-cut")
    assert not end_cut.is_duplicate and end_cut.cluster_id != lead_cut.cluster_id


def test_unrelated_and_rewritten_texts_stay_apart(make_index: OpenIndex) -> None:
    index = make_index()
    index.assign(run(0, 300), "http://story")
    assert not index.assign(run(0, 300, prefix="v"), "http://other").is_duplicate
    # A rewrite: words 0-99 kept word for word, then every third word replaced, which breaks
    # every shingle after word 99: 96 of 296 shingles shared (containment 0.32).
    rewrite = " ".join(f"w{n}" if n < 100 or n % 3 else f"r{n}" for n in range(300))
    fingerprint = fingerprint_text(rewrite, PARAMS.fingerprint)
    assert fingerprint is not None
    assert not index.assign(fingerprint, "http://rewrite").is_duplicate


def test_memory_and_redis_give_the_same_assignments(redis_url: str) -> None:
    texts = [
        (run(60, 300), "http://lead-cut"),
        (run(0, 100), "http://teaser"),
        (run(0, 300), "http://story"),
        (run(0, 240), "http://end-cut"),
        (run(0, 300, "v"), "http://other"),
        (run(0, 100), "http://teaser-copy"),
        (run(0, 280, "v"), "http://other-cut"),
    ]
    with open_index(IndexParams(redis_url=redis_url)) as shared, open_index(PARAMS) as local:
        results = [shared.assign(fingerprint, url) for fingerprint, url in texts]
        assert results == [local.assign(fingerprint, url) for fingerprint, url in texts]
    assert [result.duplicate_of for result in results] == [
        "",
        "",
        "http://lead-cut",
        "http://lead-cut",
        "",
        "http://teaser",
        "http://other",
    ]


# --- Re-crawls and withdrawals with the longer copy ----------------------------------------


def entries_of(index: ClusterIndex, cluster_id: str) -> int:
    """Bucket entries of the representatives of ``cluster_id``, over all bands."""
    if isinstance(index, MemoryIndex):
        return sum(key[0] == cluster_id for bucket in index._buckets.values() for key in bucket)
    client = index._redis  # type: ignore[attr-defined]
    prefix = bytes.fromhex(cluster_id)
    return sum(
        value[start : start + 8] == prefix
        for key in client.scan_iter(match=prefix_of(index) + b":band:*")
        for value in client.hvals(key)
        for start in range(0, len(value), 9)
    )


def test_a_re_crawl_joins_its_own_cluster_by_containment(make_index: OpenIndex) -> None:
    index = make_index()
    story = index.assign(run(0, 300), "http://a")
    # The page again without its last 60 words: contained, Jaccard 236 / 296 = 0.797.
    again = index.assign(run(0, 240), "http://a")
    assert again == Assignment(story.cluster_id, "", False, again.similarity, again.containment, True)
    assert again.containment >= 0.85 and not again.is_new
    assert index.assign(run(0, 240), "http://b").duplicate_of == "http://a"
    assert representatives(index) == 1


def test_a_re_crawl_matching_only_the_longer_copy_is_no_duplicate_of_itself(make_index: OpenIndex) -> None:
    index = make_index()
    lead_cut = index.assign(run(60, 300), "http://a")
    index.assign(run(0, 300), "http://story")  # the longer copy, stored with http://a
    # Page a again, now cut at the other end: 0.75 of the leader, all in the longer copy.
    again = index.assign(run(0, 240), "http://a")
    assert (again.cluster_id, again.duplicate_of, again.is_recrawl) == (lead_cut.cluster_id, "", True)
    assert representatives(index) == 2


def test_a_withdrawn_cluster_takes_its_longer_copy_along(make_index: OpenIndex) -> None:
    index = make_index()
    founder = run(60, 300)
    lost = index.assign(founder, "http://lead-cut")
    index.assign(run(0, 300), "http://story")  # the longer copy
    assert representatives(index) == 2
    assert index.withdraw(lost.cluster_id, run(0, 300)) is False  # the longer copy founded nothing
    assert index.withdraw(lost.cluster_id, founder) is True
    assert representatives(index) == 0
    # With the longer copy left behind, this copy would join it, a duplicate of the lost URL.
    end_cut = index.assign(run(0, 240), "http://end-cut")
    assert end_cut == Assignment(cluster_id_for("http://end-cut"))
    # The full story again: a duplicate of end-cut and its longer copy. Its buckets are the
    # old longer copy's, so no entry of the withdrawn cluster is left in any bucket.
    assert index.assign(run(0, 300), "http://story-2").duplicate_of == "http://end-cut"
    assert entries_of(index, lost.cluster_id) == 0
    assert representatives(index) == 2
    # The lost page, crawled again, founds its cluster anew under its old id.
    assert index.assign(run(300, 600), "http://lead-cut") == Assignment(lost.cluster_id)


def test_a_withdrawal_takes_the_first_items_entries_out_at_once(make_index: OpenIndex) -> None:
    index = make_index()
    founder = run(0, 300)
    lost = index.assign(founder, "http://a")
    assert entries_of(index, lost.cluster_id) == index.bands
    assert index.withdraw(lost.cluster_id, founder) is True
    assert (entries_of(index, lost.cluster_id), representatives(index)) == (0, 0)
    assert index.withdraw(lost.cluster_id, founder) is False
