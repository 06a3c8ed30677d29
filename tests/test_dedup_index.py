"""The in-memory cluster index: leader clustering, stable cluster ids, threads."""

from __future__ import annotations

import subprocess
import sys
import threading

import pytest

from scrapy_mainc.dedup import (
    Assignment,
    Fingerprint,
    FingerprintParams,
    IndexParams,
    MemoryIndex,
    cluster_id_for,
    fingerprint_text,
    open_index,
)
from scrapy_mainc.dedup._index import redacted

PARAMS = IndexParams()


def text(count: int = 300, prefix: str = "w", changed: tuple[int, ...] = ()) -> str:
    chosen = set(changed)
    return " ".join(f"x{n}" if n in chosen else f"{prefix}{n}" for n in range(count))


def fingerprint(value: str, params: FingerprintParams = PARAMS.fingerprint) -> Fingerprint:
    result = fingerprint_text(value, params)
    assert result is not None
    return result


def test_cluster_id_is_64_bit_blake2b_of_the_url() -> None:
    # printf '%s' 'http://a' | b2sum -l 64 ; printf '%s' 'http://a#1' | b2sum -l 64
    assert cluster_id_for("http://a") == "8058992675ae0e92"
    assert cluster_id_for("http://a", 1) == cluster_id_for("http://a#1")
    assert cluster_id_for("https://example.com/story/1") == "90a249740416b9e7"


def test_urls_in_messages_hide_passwords() -> None:
    assert redacted("redis://:secret@db.local:6379/2") == "redis://:***@db.local:6379/2"
    assert redacted("rediss://app:secret@db.local/0") == "rediss://app:***@db.local/0"
    assert redacted("redis://db.local:6379/0") == "redis://db.local:6379/0"


@pytest.mark.parametrize("threshold", [0.0, -0.1, 1.5])
def test_threshold_must_be_a_similarity(threshold: float) -> None:
    with pytest.raises(ValueError, match="threshold"):
        IndexParams(threshold=threshold)


def test_open_index_without_url_is_in_memory() -> None:
    with open_index(PARAMS) as index:
        assert isinstance(index, MemoryIndex)
        assert (index.bands, index.rows) == (32, 4)  # IndexParams.lsh_shape


def test_first_item_leads_duplicates_join_unrelated_start_their_own() -> None:
    index = MemoryIndex(PARAMS)
    first = index.assign(fingerprint(text()), "http://a")
    assert first == Assignment(cluster_id_for("http://a"), "", False, 1.0)
    copy = index.assign(fingerprint(text()), "http://amp.a")
    assert copy == Assignment(cluster_id_for("http://a"), "http://a", True, 1.0)
    edited = index.assign(fingerprint(text(changed=(150,))), "http://b")
    assert (edited.cluster_id, edited.duplicate_of, edited.is_duplicate) == (
        first.cluster_id,
        "http://a",
        True,
    )
    assert 0.9 <= edited.similarity < 1.0
    other = index.assign(fingerprint(text(prefix="v")), "http://c")
    assert other == Assignment(cluster_id_for("http://c"), "", False, 1.0)
    assert len(index) == 2


def test_a_url_leading_a_second_story_gets_the_next_id() -> None:
    index = MemoryIndex(PARAMS)
    index.assign(fingerprint(text()), "http://a")
    changed = index.assign(fingerprint(text(prefix="v")), "http://a")
    assert changed == Assignment(cluster_id_for("http://a", 1))


def test_a_re_crawl_of_a_leader_is_not_its_own_duplicate() -> None:
    index = MemoryIndex(PARAMS)
    first = index.assign(fingerprint(text()), "http://a")
    again = index.assign(fingerprint(text()), "http://a")
    assert again == Assignment(first.cluster_id, "", False, 1.0, is_recrawl=True)
    assert not again.is_new and first.is_new
    edited = index.assign(fingerprint(text(changed=(150,))), "http://a")
    assert (edited.cluster_id, edited.duplicate_of, edited.is_recrawl) == (first.cluster_id, "", True)
    assert 0.9 <= edited.similarity < 1.0
    copy = index.assign(fingerprint(text()), "http://b")
    assert (copy.duplicate_of, copy.is_duplicate, copy.is_recrawl) == ("http://a", True, False)
    assert len(index) == 1


def test_a_re_crawl_stays_in_its_own_cluster_when_another_is_more_similar() -> None:
    index = MemoryIndex(IndexParams(threshold=0.5))
    index.assign(fingerprint(text(300)), "http://a")
    # b is a with words 0-129 replaced (Jaccard with a 0.377): a cluster of its own.
    assert index.assign(fingerprint(text(300, changed=tuple(range(130)))), "http://b").is_new
    # a again, with words 0-79 replaced: Jaccard 0.558 with a, 0.691 with b; a's page stays in a's cluster.
    again = index.assign(fingerprint(text(300, changed=tuple(range(80)))), "http://a")
    assert (again.cluster_id, again.is_recrawl) == (cluster_id_for("http://a"), True)
    assert 0.5 <= again.similarity < 0.691


def test_a_withdrawn_leader_is_gone_and_the_next_copy_founds_the_cluster() -> None:
    index = MemoryIndex(PARAMS)
    founder = fingerprint(text())
    lost = index.assign(founder, "http://a")
    assert index.withdraw(lost.cluster_id, fingerprint(text(changed=(7,)))) is False  # not its founder
    assert index.withdraw(lost.cluster_id, founder) is True
    assert index.withdraw(lost.cluster_id, founder) is False
    assert len(index) == 0
    copy = index.assign(fingerprint(text(changed=(7,))), "http://b")
    assert copy == Assignment(cluster_id_for("http://b"))
    assert index.assign(fingerprint(text()), "http://a").duplicate_of == "http://b"


def test_duplicates_are_compared_with_the_first_item_only() -> None:
    params = IndexParams(threshold=0.85, containment=0.95, fingerprint=FingerprintParams(num_perm=256))
    index = MemoryIndex(params)
    first = text(400)
    # Each block of 20 replaced words changes 24 of 396 shingles.
    second = text(400, changed=tuple(range(100, 120)))
    third = text(400, changed=(*range(100, 120), *range(250, 270)))
    # Exact Jaccard: second~first 372/420 = 0.886, third~second 0.886, third~first 348/444 =
    # 0.784; containment (equal sizes) third~first 348/396 = 0.879, under 0.95.
    a = index.assign(fingerprint(first, params.fingerprint), "http://a")
    b = index.assign(fingerprint(second, params.fingerprint), "http://b")
    c = index.assign(fingerprint(third, params.fingerprint), "http://c")
    assert b.duplicate_of == "http://a" and b.cluster_id == a.cluster_id
    assert c == Assignment(cluster_id_for("http://c"))  # no chaining through b


def test_the_most_similar_leader_wins() -> None:
    index = MemoryIndex(IndexParams(threshold=0.5))
    index.assign(fingerprint(text(300)), "http://a")
    # Exact Jaccard with a: 162 / 430 = 0.377, so b leads a cluster of its own.
    far = fingerprint(text(300, changed=tuple(range(130))))
    assert not index.assign(far, "http://b").is_duplicate
    # c is a with words 0-79 replaced: Jaccard with a 212 / 380 = 0.558, with b 242 / 350 = 0.691.
    near_b = index.assign(fingerprint(text(300, changed=tuple(range(80)))), "http://c")
    assert near_b.duplicate_of == "http://b"


def test_fingerprints_of_other_params_are_refused() -> None:
    index = MemoryIndex(PARAMS)
    with pytest.raises(ValueError, match="this index uses"):
        index.assign(fingerprint(text(), FingerprintParams(char_shingle=3)), "http://a")


def test_threads_assigning_copies_of_one_story_make_one_cluster() -> None:
    index = MemoryIndex(PARAMS)
    copies = [fingerprint(text(changed=(index,))) for index in range(8)]
    results: list[Assignment] = []
    start = threading.Barrier(len(copies))

    def assign(number: int) -> None:
        start.wait()
        results.append(index.assign(copies[number], f"http://copy/{number}"))

    threads = [threading.Thread(target=assign, args=(number,)) for number in range(len(copies))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len({result.cluster_id for result in results}) == 1
    assert sum(not result.is_duplicate for result in results) == 1


def test_the_core_does_not_import_scrapy() -> None:
    code = (
        "import sys, scrapy_mainc.dedup as d; "
        "d.open_index(d.IndexParams()).close(); "
        "assert 'scrapy' not in sys.modules, sorted(m for m in sys.modules if 'scrapy' in m)"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
