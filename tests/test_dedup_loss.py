"""A Redis index that loses its data under running processes (a FLUSHALL, a restart without
persistence): found at the next read, counted, logged once, and created anew with the
running processes' parameters, never with those of a process that comes later.

Against real redis-servers: the session's (``redis_url``, emptied for each test) and the
test's own (``own_redis``) where the server is restarted. Without a ``redis-server`` binary
the tests are skipped and say so.
"""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from newsdemo.localredis import LocalRedis, find_redis_server, start_redis_server

redis = pytest.importorskip("redis", reason="redis-py is not installed (scrapy-mainc[redis])")

from scrapy_mainc.dedup import Assignment, IndexParams, cluster_id_for, fingerprint_text, open_index  # noqa: E402
from scrapy_mainc.dedup._redis_epoch import IndexEpoch, IndexLostError, IndexMismatchError  # noqa: E402
from scrapy_mainc.dedup._redis_index import RedisIndex  # noqa: E402

PARAMS = IndexParams()
#: The parameters of the process that came later in the report (issue 17).
OTHER = {"threshold": 0.5}
EPOCH_LOGGER = "scrapy_mainc.dedup._redis_epoch"


def story(number: int, changed: int | None = None) -> Any:
    """The fingerprint of story ``number``; ``changed`` replaces one word (a copy)."""
    text = " ".join("changed" if n == changed else f"s{number}w{n}" for n in range(300))
    result = fingerprint_text(text, PARAMS.fingerprint)
    assert result is not None
    return result


def index_at(url: str, **changes: Any) -> RedisIndex:
    index = open_index(IndexParams(redis_url=url, **changes))
    assert isinstance(index, RedisIndex)
    return index


def loss_messages(caplog: pytest.LogCaptureFixture) -> list[tuple[int, str]]:
    return [(record.levelno, record.getMessage()) for record in caplog.records if record.name == EPOCH_LOGGER]


def stored_params(url: str) -> dict[str, Any]:
    client = redis.Redis.from_url(url)
    try:
        return dict(json.loads(client.get("mainc:dedup:meta"))["params"])
    finally:
        client.close()


def flush(url: str) -> None:
    client = redis.Redis.from_url(url)
    client.flushall()
    client.close()


@pytest.fixture
def caplog_info(caplog: pytest.LogCaptureFixture) -> pytest.LogCaptureFixture:
    caplog.set_level(logging.INFO, logger="scrapy_mainc")
    return caplog


def test_a_flushed_index_is_found_counted_and_logged_once(redis_url: str, caplog_info: Any) -> None:
    with index_at(redis_url) as index:
        leader = index.assign(story(1), "http://a")
        assert index.assign(story(1, 3), "http://b").duplicate_of == "http://a"
        flush(redis_url)
        # The copy arrives after the loss: the index no longer knows its story.
        copy = index.assign(story(1, 5), "http://c")
        assert copy == Assignment(cluster_id_for("http://c"))
        assert index.losses == 1
        assert index.assign(story(1, 7), "http://d").duplicate_of == "http://c"
        assert index.assign(story(2), "http://e").is_new
        assert index.losses == 1
    ((level, message),) = loss_messages(caplog_info)
    assert level == logging.ERROR
    assert message.startswith(f"mainc dedup: the index lost its data on {redis_url} (the server restarted")
    assert "the clusters of the 2 texts this process assigned before are gone" in message
    assert "mainc/dedup/index_lost" in message
    assert leader.cluster_id != copy.cluster_id
    assert stored_params(redis_url)["threshold"] == PARAMS.threshold


def test_a_process_with_other_parameters_cannot_take_the_index_of_running_ones(redis_url: str) -> None:
    with index_at(redis_url) as running:
        running.assign(story(1), "http://a")
        flush(redis_url)
        # Before the running process noticed: its connections are still open and named.
        with pytest.raises(IndexMismatchError, match="processes with other parameters are connected"):
            index_at(redis_url, **OTHER)
        running.assign(story(2), "http://b")  # finds the loss, writes its own meta
        assert running.losses == 1
    with pytest.raises(IndexMismatchError, match='was built with .*"threshold": 0.8.*"threshold": 0.5'):
        index_at(redis_url, **OTHER)
    assert stored_params(redis_url)["threshold"] == PARAMS.threshold


@pytest.fixture
def restartable(own_redis: LocalRedis) -> Iterator[dict[str, Any]]:
    """``own_redis`` and a function that restarts it on its port, without its data."""
    binary = find_redis_server()
    assert binary is not None
    servers = {"server": own_redis}

    def restart() -> None:
        old = servers["server"]
        old.process.kill()
        old.process.wait()
        port = int(old.url.rsplit(":", 1)[1].split("/")[0])
        servers["server"] = start_redis_server(binary, Path(old.directory), port=port)

    yield {"url": own_redis.url, "restart": restart}
    servers["server"].stop()


def test_after_a_restart_a_running_process_finds_the_loss(
    restartable: dict[str, Any], caplog_info: Any
) -> None:
    url = restartable["url"]
    with index_at(url) as first, index_at(url) as second:
        first.assign(story(1), "http://a")
        restartable["restart"]()
        assert first.assign(story(1, 4), "http://b").is_new  # reconnects, finds the loss
        assert second.assign(story(1, 6), "http://c").duplicate_of == "http://b"  # learns of it
        assert (first.losses, second.losses) == (1, 1)
    messages = [message for _, message in loss_messages(caplog_info)]
    assert len(messages) == 2  # once in each process
    assert f"on {url} (the server restarted" in messages[0]
    assert f"on {url}, found by another process first (the server restarted" in messages[1]


def test_a_process_with_other_parameters_that_came_first_after_a_restart_keeps_the_index(
    restartable: dict[str, Any], caplog_info: Any
) -> None:
    url = restartable["url"]
    with index_at(url) as running:
        running.assign(story(1), "http://a")
        restartable["restart"]()  # the running process has not reconnected yet
        with index_at(url, **OTHER) as later:
            later.assign(story(3), "http://x")
            # The running process leaves the index to it rather than mixing entries.
            with pytest.raises(IndexLostError, match="created anew by a process with other parameters"):
                running.assign(story(2), "http://b")
            with pytest.raises(IndexLostError):
                running.assign(story(2), "http://b")
            assert later.assign(story(3, 5), "http://y").duplicate_of == "http://x"
    assert stored_params(url)["threshold"] == 0.5
    client = redis.Redis.from_url(url)
    fields = [field for key in client.keys("mainc:dedup:rec:*") for field in client.hkeys(key)]
    client.close()
    assert fields == [bytes.fromhex(cluster_id_for("http://x")) + b"\0"]  # nothing of the other


def test_a_loss_before_a_process_opened_the_index_is_found_at_opening(
    redis_url: str, caplog_info: Any
) -> None:
    index_at(redis_url).close()
    client = redis.Redis.from_url(redis_url)
    client.delete("mainc:dedup:epoch")  # the meta is left: the index was complete
    with index_at(redis_url) as index:
        assert index.losses == 1
    client.delete("mainc:dedup:meta")  # the epoch key is left: the meta was lost
    with index_at(redis_url) as index:
        assert index.losses == 1
    client.close()
    messages = [message for _, message in loss_messages(caplog_info)]
    assert len(messages) == 2
    assert all("before this process opened it" in message for message in messages)


def test_processes_creating_an_index_at_once_agree_and_find_no_loss(redis_url: str, caplog_info: Any) -> None:
    count = 8
    barrier = threading.Barrier(count)
    opened: list[RedisIndex] = []
    errors: list[BaseException] = []

    def open_one() -> None:
        barrier.wait(timeout=30)
        try:
            opened.append(index_at(redis_url))
        except BaseException as exc:  # noqa: BLE001 - handed to the test
            errors.append(exc)

    threads = [threading.Thread(target=open_one) for _ in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert errors == []
    assert {index._epoch._epoch for index in opened} != {""}
    assert len({index._epoch._epoch for index in opened}) == 1
    leader = opened[0].assign(story(1), "http://a")
    assert all(
        index.assign(story(1, n), f"http://{n}").cluster_id == leader.cluster_id
        for n, index in enumerate(opened)
    )
    assert sum(index.losses for index in opened) == 0
    assert loss_messages(caplog_info) == []
    for index in opened:
        index.close()


@pytest.mark.parametrize("between", ["_read", "_meta"])
def test_an_index_created_while_another_process_opens_it_is_no_loss(
    redis_url: str, between: str, monkeypatch: pytest.MonkeyPatch, caplog_info: Any
) -> None:
    """Opening reads the epoch keys and the meta one after the other: another process that
    creates the index between the two reads (whichever comes first) is no loss."""
    real = getattr(IndexEpoch, between)
    created: list[Any] = []

    def another_process_first(self: IndexEpoch, *args: Any) -> Any:
        if not created:
            created.append(None)  # the other process's own reads go straight through
            created[0] = index_at(redis_url)
        return real(self, *args)

    monkeypatch.setattr(IndexEpoch, between, another_process_first)
    with index_at(redis_url) as second:
        assert (created[0].losses, second.losses) == (0, 0)
        assert second._epoch._epoch == created[0]._epoch._epoch
    created[0].close()
    assert loss_messages(caplog_info) == []


def test_keys_of_other_parameters_without_a_meta_refuse_to_open(redis_url: str) -> None:
    client = redis.Redis.from_url(redis_url)
    client.set("mainc:dedup:epoch", b"0123456789abcdef:0011223344556677")
    client.close()
    with pytest.raises(IndexMismatchError, match="holds keys of other parameters"):
        index_at(redis_url)


class FlushBeforeLocking(RedisIndex):
    """Empties the server between a text's look-up and its lock pipeline, once."""

    flushed = False

    def _lock_buckets(self, probe: Any, token: bytes) -> Any:
        if not self.flushed:
            self.flushed = True
            self._redis.flushall()
        return super()._lock_buckets(probe, token)


def test_a_text_in_flight_during_a_loss_is_assigned_again_in_the_new_epoch(
    redis_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    with index_at(redis_url) as first:
        first.assign(story(1), "http://a")
    with FlushBeforeLocking(IndexParams(redis_url=redis_url)) as index:
        assert index.assign(story(2), "http://b") == Assignment(cluster_id_for("http://b"))
        assert index.losses == 1
        assert index.assign(story(2, 9), "http://c").duplicate_of == "http://b"
    client = redis.Redis.from_url(redis_url)
    assert client.keys("mainc:dedup:stripe:*") == []  # the locks of the first attempt went
    fields = [field for key in client.keys("mainc:dedup:rec:*") for field in client.hkeys(key)]
    client.close()
    assert fields == [bytes.fromhex(cluster_id_for("http://b")) + b"\0"]
    # Its locks went with the data: releasing them is no sign of a stall.
    assert [record.getMessage() for record in caplog.records if "expired" in record.getMessage()] == []


class FlushInSection(RedisIndex):
    """Empties the server inside a text's section (its locks taken), before it reads its
    candidates again, once."""

    flushed = False

    def _verify(self, probe: Any, candidates: Any, url: str, section: Any = None) -> Any:
        if section is not None and candidates and not self.flushed:
            self.flushed = True
            self._redis.flushall()
        return super()._verify(probe, candidates, url, section)


def words(start: int, stop: int) -> Any:
    result = fingerprint_text(" ".join(f"w{n}" for n in range(start, stop)), PARAMS.fingerprint)
    assert result is not None
    return result


def test_a_loss_inside_a_section_releases_what_is_left_and_starts_over(
    redis_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    with FlushInSection(IndexParams(redis_url=redis_url)) as index:
        index.assign(words(60, 300), "http://lead-cut")
        # The full story would become the cluster's longer copy: it reads the leader again
        # under its locks, and finds the index lost.
        assert index.assign(words(0, 300), "http://story") == Assignment(cluster_id_for("http://story"))
        assert (index.flushed, index.losses) == (True, 1)
    client = redis.Redis.from_url(redis_url)
    assert client.keys("mainc:dedup:stripe:*") == []
    client.close()
    assert [record.getMessage() for record in caplog.records if "expired" in record.getMessage()] == []
