"""The Redis index against a real redis-server on loopback, including concurrent processes.

The server is started by the ``redis_server`` fixture (conftest.py) on a free port with a
temporary directory. Without a ``redis-server`` binary (Debian package ``redis-server``; the
CI installs it) the tests here are skipped and say so.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

redis = pytest.importorskip("redis", reason="redis-py is not installed (scrapy-mainc[redis])")

from scrapy_mainc.dedup import (  # noqa: E402
    Assignment,
    IndexParams,
    cluster_id_for,
    fingerprint_text,
    open_index,
)
from scrapy_mainc.dedup._index import Section  # noqa: E402
from scrapy_mainc.dedup._match import make_probe  # noqa: E402
from scrapy_mainc.dedup._redis_epoch import IndexMismatchError  # noqa: E402
from scrapy_mainc.dedup._redis_index import RedisIndex  # noqa: E402

# Scrapy is imported inside the pipeline test only: the worker processes of the concurrency
# test import this module, and start faster without it.

PARAMS = IndexParams()


def story(number: int, changed: int | None = None, count: int = 300) -> str:
    """Text of story ``number``; ``changed`` replaces one word (a near-duplicate copy)."""
    return " ".join("changed" if n == changed else f"s{number}w{n}" for n in range(count))


def params_for(url: str, **changes: Any) -> IndexParams:
    return IndexParams(redis_url=url, **changes)


def fingerprint(text: str) -> Any:
    result = fingerprint_text(text, PARAMS.fingerprint)
    assert result is not None
    return result


def test_redis_index_clusters_like_the_memory_index(redis_url: str) -> None:
    texts = [
        (story(1), "http://a"),
        (story(1, 150), "http://b"),
        (story(2), "http://c"),
        (story(1), "http://d"),
    ]
    with open_index(params_for(redis_url)) as shared, open_index(PARAMS) as local:
        assert isinstance(shared, RedisIndex)
        results = [shared.assign(fingerprint(text), url) for text, url in texts]
        assert results == [local.assign(fingerprint(text), url) for text, url in texts]
    assert [(r.cluster_id, r.duplicate_of) for r in results] == [
        (cluster_id_for("http://a"), ""),
        (cluster_id_for("http://a"), "http://a"),
        (cluster_id_for("http://c"), ""),
        (cluster_id_for("http://a"), "http://a"),
    ]


def test_two_indexes_on_one_server_share_clusters_and_leave_no_locks(redis_url: str) -> None:
    with open_index(params_for(redis_url)) as first, open_index(params_for(redis_url)) as second:
        leader = first.assign(fingerprint(story(1)), "http://a")
        assert leader == Assignment(cluster_id_for("http://a"))
        copy = second.assign(fingerprint(story(1, 7)), "http://b")
        assert (copy.cluster_id, copy.duplicate_of) == (cluster_id_for("http://a"), "http://a")
        new_story = second.assign(fingerprint(story(2)), "http://a")
        assert new_story == Assignment(cluster_id_for("http://a", 1))
    client = redis.Redis.from_url(redis_url)
    assert client.keys("mainc:dedup:stripe:*") == []
    records = client.keys("mainc:dedup:rec:*")
    assert sum(client.hlen(key) for key in records) == 2
    client.close()


def test_re_crawls_and_withdrawals_on_redis(redis_url: str) -> None:
    lost = fingerprint(story(1))
    with open_index(params_for(redis_url)) as first, open_index(params_for(redis_url)) as second:
        leader = first.assign(lost, "http://a")
        again = second.assign(fingerprint(story(1, 5)), "http://a")  # another process, same page
        assert (again.cluster_id, again.duplicate_of, again.is_recrawl) == (leader.cluster_id, "", True)
        assert second.withdraw(leader.cluster_id, fingerprint(story(1, 5))) is False  # not its founder
        assert second.withdraw(leader.cluster_id, lost) is True
        assert first.withdraw(leader.cluster_id, lost) is False
        copy = first.assign(fingerprint(story(1, 9)), "http://b")
        assert copy == Assignment(cluster_id_for("http://b"))
    client = redis.Redis.from_url(redis_url)
    assert records(client) == [record_field(cluster_id_for("http://b"), 0)]
    assert bucket_entries(client) == {record_field(cluster_id_for("http://b"), 0): PARAMS.lsh_shape[0]}
    assert client.keys("mainc:dedup:stripe:*") == []
    client.close()


def record_field(cluster_id: str, number: int) -> bytes:
    return bytes.fromhex(cluster_id) + bytes((number,))


def records(client: Any) -> list[bytes]:
    """The fields of every representative's record (cluster id and number)."""
    return sorted(field for key in client.keys("mainc:dedup:rec:*") for field in client.hkeys(key))


def bucket_entries(client: Any) -> dict[bytes, int]:
    """How many buckets hold each representative's entry."""
    counts: dict[bytes, int] = {}
    for key in client.keys("mainc:dedup:band:*"):
        for value in client.hvals(key):
            for start in range(0, len(value), 9):
                entry = value[start : start + 9]
                counts[entry] = counts.get(entry, 0) + 1
    return counts


def test_commands_to_a_frozen_server_time_out(own_redis: Any) -> None:
    index = open_index(params_for(own_redis.url, redis_timeout=0.5))
    founder = fingerprint(story(1))
    leader = index.assign(founder, "http://a")
    os.kill(own_redis.process.pid, signal.SIGSTOP)
    errors: list[BaseException] = []
    calls = [  # pipelines: a look-up of 32 buckets; locks and buckets of a withdrawal
        lambda: index.assign(fingerprint(story(2)), "http://b"),
        lambda: index.withdraw(leader.cluster_id, founder),
    ]

    def call_all() -> None:
        for call in calls:
            try:
                call()
            except BaseException as exc:  # noqa: BLE001 - handed to the test
                errors.append(exc)

    worker = threading.Thread(target=call_all, daemon=True)
    worker.start()
    worker.join(30)  # a liveness guard: without socket time-outs this waits forever
    os.kill(own_redis.process.pid, signal.SIGCONT)
    assert not worker.is_alive()
    assert [type(error) for error in errors] == [redis.exceptions.TimeoutError] * 2
    index.close()


def test_an_index_of_other_parameters_refuses_to_open(redis_url: str) -> None:
    open_index(params_for(redis_url)).close()
    with pytest.raises(IndexMismatchError, match="was built with"):
        open_index(params_for(redis_url, threshold=0.9))


@pytest.mark.parametrize(
    "before",
    [  # format 1 (before containment); format 2 (before epochs: the parameters alone)
        {"bands": 9, "fingerprint": PARAMS.fingerprint.method, "rows": 13, "threshold": 0.8},
        {
            "format": 2,
            "threshold": 0.8,
            "containment": 0.85,
            "min_size_ratio": 0.5,
            "bands": 32,
            "rows": 4,
            "buckets": 65536,
            "fingerprint": PARAMS.fingerprint.method,
        },  # fmt: skip
    ],
)
def test_an_index_of_an_earlier_format_refuses_to_open(redis_url: str, before: dict[str, Any]) -> None:
    client = redis.Redis.from_url(redis_url)
    client.set("mainc:dedup:meta", json.dumps(before, sort_keys=True))
    client.close()
    with pytest.raises(
        IndexMismatchError, match='was built with .*"bands": .* this process uses .*"format": 3'
    ):
        open_index(params_for(redis_url))


def test_buckets_stay_in_compact_hashes(redis_url: str) -> None:
    with open_index(params_for(redis_url, redis_buckets=64)) as index:
        for number in range(40):
            index.assign(fingerprint(story(number)), f"http://{number}")
    client = redis.Redis.from_url(redis_url)
    bands = client.keys("mainc:dedup:band:*")
    # 40 leaders in 32 bands of 64 hashes: at most 64 * 32 keys, each a listpack.
    assert 0 < len(bands) <= 64 * 32
    assert sum(client.hlen(key) for key in bands) == 40 * 32
    assert {client.object("encoding", key) for key in bands} == {b"listpack"}
    assert {key.split(b":")[2] for key in client.keys("mainc:dedup:*")} == {
        b"meta",
        b"epoch",
        b"rec",
        b"band",
    }
    # Every bucket hash carries a Redis Cluster hash tag {<band>:<bucket>}, as its lock does.
    assert all(key.startswith(b"mainc:dedup:band:{") and key.endswith(b"}") for key in bands)
    client.close()


def test_a_held_bucket_lock_makes_the_writer_wait_then_give_up_holding_nothing(
    redis_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("scrapy_mainc.dedup._redis_index.STRIPE_LOCK_WAIT", 0.1)
    with open_index(params_for(redis_url)) as index:
        assert isinstance(index, RedisIndex)
        new = fingerprint(story(1))
        taken = index.stripe_keys(make_probe(new.minhash, new.shingles, PARAMS))[5]
        client = redis.Redis.from_url(redis_url)
        client.set(taken, b"another process", px=60_000)
        with pytest.raises(redis.exceptions.LockError, match="could not lock the 32 buckets"):
            index.assign(new, "http://a")
        assert client.keys("mainc:dedup:stripe:*") == [taken]  # its own were released
        assert taken.startswith(b"mainc:dedup:stripe:{5:")
        client.delete(taken)
        assert index.assign(new, "http://a") == Assignment(cluster_id_for("http://a"))
        client.close()


def test_a_withdrawal_waits_for_the_locks_of_the_first_items_buckets(
    redis_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("scrapy_mainc.dedup._redis_index.STRIPE_LOCK_WAIT", 0.1)
    with open_index(params_for(redis_url)) as index:
        assert isinstance(index, RedisIndex)
        founder = fingerprint(story(1))
        leader = index.assign(founder, "http://a")
        # Another process in a section over one of the leader's buckets (say, adding a
        # longer copy to its cluster) holds that bucket's lock.
        taken = index.stripe_keys(make_probe(founder.minhash, founder.shingles, PARAMS))[7]
        client = redis.Redis.from_url(redis_url)
        client.set(taken, b"another process", px=60_000)
        with pytest.raises(redis.exceptions.LockError):
            index.withdraw(leader.cluster_id, founder)
        assert records(client) == [record_field(leader.cluster_id, 0)]  # nothing changed
        assert client.keys("mainc:dedup:stripe:*") == [taken]
        client.delete(taken)
        assert index.withdraw(leader.cluster_id, founder) is True
        assert (records(client), bucket_entries(client)) == ([], {})
        client.close()


def test_a_writer_waits_for_taken_locks_at_most_the_redis_time_out(redis_url: str) -> None:
    with open_index(params_for(redis_url, redis_timeout=0.2)) as index:
        assert isinstance(index, RedisIndex)
        new = fingerprint(story(1))
        taken = index.stripe_keys(make_probe(new.minhash, new.shingles, PARAMS))[0]
        client = redis.Redis.from_url(redis_url)
        client.set(taken, b"another process", px=60_000)
        with pytest.raises(redis.exceptions.LockError, match="within 0.2 s"):  # not 20 s
            index.assign(new, "http://a")
        client.delete(taken)
        client.close()


def test_a_lock_that_expired_is_not_released_from_its_new_holder(
    redis_url: str, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr("scrapy_mainc.dedup._redis_index.STRIPE_LOCK_TTL", 0.2)
    with open_index(params_for(redis_url)) as index:
        assert isinstance(index, RedisIndex)
        new = fingerprint(story(1))
        probe = make_probe(new.minhash, new.shingles, PARAMS)
        first = index.stripe_keys(probe)[0]
        client = redis.Redis.from_url(redis_url)
        with index._exclusive(probe):
            time.sleep(0.3)  # a stall longer than the locks live
            client.set(first, b"another process")
        assert client.get(first) == b"another process"
        assert client.keys("mainc:dedup:stripe:*") == [first]
        client.close()
    assert [record.getMessage() for record in caplog.records] == [
        f"mainc dedup: 32 stripe locks of a text (first {first.decode()}) expired before they "
        "were released; two processes may have founded clusters for one story"
    ]


def test_pipelines_of_two_crawlers_share_one_index(redis_url: str) -> None:
    from scrapy.utils.test import get_crawler

    from scrapy_mainc.integration.dedup_pipeline import NearDuplicatePipeline

    def pipeline() -> tuple[NearDuplicatePipeline, Any]:
        settings = {"MAINC_DEDUP_ENABLED": True, "MAINC_DEDUP_REDIS_URL": redis_url}
        crawler = get_crawler(settings_dict=settings)
        instance = NearDuplicatePipeline.from_crawler(crawler)
        instance.open_spider()
        return instance, crawler.stats

    (first, first_stats), (second, second_stats) = pipeline(), pipeline()
    items = [
        {"url": "http://a", "main_text": story(1)},
        {"url": "http://b", "main_text": story(1, 3)},
    ]
    asyncio.run(first.process_item(items[0]))
    asyncio.run(second.process_item(items[1]))
    first.close_spider()
    second.close_spider()
    assert items[1]["duplicate_of"] == "http://a"
    assert first_stats.get_value("mainc/dedup/unique") == 1
    assert second_stats.get_value("mainc/dedup/duplicates") == 1


class RacingIndex(RedisIndex):
    """A RedisIndex whose processes all pass the unlocked first lookup before any goes on.

    That is the race the stripe locks exist for: every process has looked and found no
    leader. With ``locked=False`` the locks are skipped and the processes also wait for each
    other after the second lookup, to show that the race is real.
    """

    def __init__(self, params: IndexParams, barrier: Any, locked: bool) -> None:
        super().__init__(params)
        self.barrier, self.locked, self.in_lock = barrier, locked, False
        self.first_lookups: list[Any] = []

    def _verify(self, probe: Any, candidates: Any, url: str, section: Any = None) -> Any:
        found = super()._verify(probe, candidates, url, section)
        if not self.in_lock:
            self.first_lookups.append(found)
            self.barrier.wait(timeout=60)
        return found

    @contextmanager
    def _exclusive(self, probe: Any) -> Iterator[Section]:
        if self.locked:
            with super()._exclusive(probe) as section:
                self.in_lock = True
                yield section
        else:
            self.in_lock = True
            section = Section(self._candidates(probe))
            yield section
            buckets = [self._redis.hget(self.bucket_key(band, d), d) for band, d in enumerate(probe.bands)]
            self._write_and_release(probe, section, b"", buckets, surely_held=False)  # no locks
        self.in_lock = False

    def _lead(self, probe: Any, url: str, section: Section) -> Assignment:
        if not self.locked:
            self.barrier.wait(timeout=60)
        return super()._lead(probe, url, section)


PROCESSES = 3
LOCKED_STORIES = (1, 2)
UNLOCKED_STORY = 3


def race(url: str, number: int, barrier: Any, results: Any) -> None:
    """One crawler process: its own copy of each story, at the same moment as the others."""
    try:
        outcome = []
        with RacingIndex(params_for(url), barrier, locked=True) as index:
            for story_number in LOCKED_STORIES:
                copy = fingerprint(story(story_number, number))
                assigned = index.assign(copy, f"http://{number}/{story_number}")
                outcome.append((story_number, assigned))
            index.locked = False
            copy = fingerprint(story(UNLOCKED_STORY, number))
            outcome.append((UNLOCKED_STORY, index.assign(copy, f"http://{number}/unlocked")))
            results.put((number, outcome, [found is None for found in index.first_lookups]))
    except BaseException as exc:  # reported to the test rather than lost in the child
        barrier.abort()
        results.put((number, repr(exc), []))


def test_processes_inserting_copies_at_once_make_one_cluster_per_story(redis_url: str) -> None:
    with open_index(params_for(redis_url)) as index:
        assert isinstance(index, RedisIndex)
        for number in (*LOCKED_STORIES, UNLOCKED_STORY):
            copies = [fingerprint(story(number, n)) for n in range(PROCESSES)]
            probes = [make_probe(copy.minhash, copy.shingles, PARAMS) for copy in copies]
            keys = [set(index.stripe_keys(probe)) for probe in probes]
            # Precondition: every two copies share an LSH bucket, so LSH relates them.
            assert all(first & second for first, second in itertools.combinations(keys, 2))

    context = multiprocessing.get_context("spawn")
    barrier, results = context.Barrier(PROCESSES), context.Queue()
    workers = [
        context.Process(target=race, args=(redis_url, number, barrier, results))
        for number in range(PROCESSES)
    ]
    for worker in workers:
        worker.start()
    try:
        collected = [results.get(timeout=120) for _ in workers]
    finally:
        for worker in workers:
            worker.join(timeout=30)
            if worker.exitcode is None:
                worker.terminate()
    assert [worker.exitcode for worker in workers] == [0] * PROCESSES

    by_story: dict[int, list[Assignment]] = {}
    for _, outcome, first_lookups_empty in collected:
        assert not isinstance(outcome, str), outcome
        assert all(first_lookups_empty)  # every copy passed the lookup before any was stored
        for story_number, assignment in outcome:
            by_story.setdefault(story_number, []).append(assignment)
    for story_number in LOCKED_STORIES:
        assignments = by_story[story_number]
        assert len({a.cluster_id for a in assignments}) == 1
        assert sorted(a.is_duplicate for a in assignments) == [False] + [True] * (PROCESSES - 1)
    # Without the locks the same race founds one cluster per process.
    assert len({a.cluster_id for a in by_story[UNLOCKED_STORY]}) == PROCESSES


def test_indexes_with_their_own_key_prefix_share_one_server(redis_url: str) -> None:
    coarse = params_for(redis_url, redis_key="crawl-a:dedup", threshold=0.5)
    with open_index(params_for(redis_url)) as default, open_index(coarse) as other:
        default.assign(fingerprint(story(1)), "http://a")
        other.assign(fingerprint(story(2)), "http://b")
        assert other.assign(fingerprint(story(1, 4)), "http://c").is_new  # not in its index
    client = redis.Redis.from_url(redis_url)
    kinds = {key.decode().rsplit(":", 1)[0] for key in client.keys("*") if b":rec:" in key}
    assert kinds == {"mainc:dedup:rec", "crawl-a:dedup:rec"}
    assert json.loads(client.get("crawl-a:dedup:meta"))["params"]["threshold"] == 0.5
    client.close()


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"redis_key": "{crawl}:dedup"}, "without { or }"),
        ({"redis_key": ""}, "non-empty prefix"),
        ({"redis_params": {"decode_responses": True}}, "may not set 'decode_responses'"),
        ({"redis_params": {"socket_timeout": 30}}, "MAINC_DEDUP_REDIS_TIMEOUT"),
    ],
)
def test_bad_key_prefixes_and_client_options_are_refused(changes: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        IndexParams(redis_url="redis://127.0.0.1:1/0", **changes)


def test_client_options_reach_the_client(tmp_path: Any) -> None:
    from newsdemo.localredis import find_redis_server, start_redis_server

    binary = find_redis_server()
    if binary is None:
        pytest.skip("no redis-server binary found: install Debian's redis-server package")
    server = start_redis_server(binary, tmp_path, options=["--requirepass", "s3cret"])
    try:
        with pytest.raises(redis.exceptions.AuthenticationError):
            open_index(params_for(server.url))
        with open_index(params_for(server.url, redis_params={"password": "s3cret"})) as index:
            assert index.assign(fingerprint(story(1)), "http://a").is_new
    finally:
        server.stop()


def test_a_test_server_is_never_another_process_s_on_the_same_port(own_redis: Any, tmp_path: Any) -> None:
    """Two test runs at once may both be given one free port: the server that loses the race
    exits, and the other's answered for it (a freeze then stopped a dead process)."""
    from newsdemo.localredis import find_redis_server, start_redis_server

    binary = find_redis_server()
    assert binary is not None  # own_redis skips without one
    port = int(own_redis.url.rsplit(":", 1)[1].split("/")[0])
    with pytest.raises(RuntimeError, match=rf"the port is another server's \(pid {own_redis.process.pid}\)"):
        start_redis_server(binary, tmp_path / "second", attempts=1, port=port)
    # With a port of its own to choose, it starts and answers for itself.
    server = start_redis_server(binary, tmp_path / "third")
    try:
        assert redis.Redis.from_url(server.url).info("server")["process_id"] == server.process.pid
    finally:
        server.stop()
