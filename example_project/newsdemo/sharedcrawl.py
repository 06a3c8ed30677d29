"""One crawl shared by several crawler processes: scrapy-redis's scheduler, plus knowing when
the crawl is over.

scrapy-redis keeps the request queue (``<spider>:requests``) and the request dupefilter
(``<spider>:dupefilter``) in Redis, so every process that runs the same spider against the
same Redis database takes its requests from one queue and never fetches a page that another
process has fetched. What it does not know is when such a crawl ends: each process would
close as soon as *it* finds the queue empty, even while another one is parsing a listing
page that is about to fill the queue again, and a scheduler that does not persist would then
delete the shared queue and dupefilter under the others' feet.

:class:`SharedCrawlScheduler` keeps a roll call in the hash ``<spider>:members``: member ->
``1`` while the process may hold requests (from just before it takes one from the queue
until it is next idle; and from joining until its first idle, while its ``start()`` may
still add requests), ``0`` once it is idle. A request is thus always either in the queue or
counted by a busy member, and the crawl is over when one atomic read (MULTI/EXEC) finds the
queue empty and every member idle. Until then an idle process stays open
(``DontCloseSpider``) and watches the roll every ``WATCH_EVERY`` seconds: as soon as the
queue has requests again it takes one and hands it to its engine (``engine.crawl``, which
wakes the engine at once instead of at its next 5-second heartbeat); as soon as the crawl is
over it closes.

Each member also refreshes ``<spider>:alive:<member>`` (expiring after ``ALIVE_TTL``
seconds); a busy member whose key has expired (a killed process) is struck off the roll,
with a warning, so that it does not keep the others waiting; requests it had taken are lost,
as with plain scrapy-redis. A process stopped normally (Ctrl+C once) leaves the roll when
it closes.

When the crawl has finished, the last member to close deletes the queue and the dupefilter
(``SCHEDULER_PERSIST = True`` keeps them, for a later crawl that skips what was fetched).
``SHARED_CRAWL_PROCESSES = n`` makes each process wait, before its ``start()`` runs, until
``n`` members have joined (at most ``JOIN_WAIT`` seconds), so that a quick first process
does not crawl a small site alone.

Scrapy 2.19 no longer calls ``start_requests``, which scrapy-redis's ``RedisSpider`` relies
on: use a plain spider with ``async def start()``; the seeds that every process yields are
dropped by the shared dupefilter after the first. Stats are counted without the ``spider``
argument that Scrapy 2.19 deprecates (scrapy-redis 0.9.1 still passes it).
"""

from __future__ import annotations

import logging
import os
import secrets
import socket
import time
from typing import TYPE_CHECKING, Any

from scrapy import signals
from scrapy.exceptions import DontCloseSpider
from scrapy.utils.asyncio import create_looping_call, sleep
from scrapy.utils.defer import deferred_from_coro
from scrapy_redis.scheduler import Scheduler

if TYPE_CHECKING:
    from scrapy import Request, Spider
    from scrapy.crawler import Crawler
    from twisted.internet.defer import Deferred

logger = logging.getLogger(__name__)

#: Seconds after which a member that stopped refreshing its alive key is struck off.
ALIVE_TTL = 60.0
#: Seconds between two refreshes of the alive key.
ALIVE_EVERY = 10.0
#: Seconds between two looks at the roll while idle and waiting for the others.
WATCH_EVERY = 0.2
#: Seconds a process waits at start for ``SHARED_CRAWL_PROCESSES`` members.
JOIN_WAIT = 120.0
#: Seconds between two looks at the roll while waiting at start.
JOIN_POLL = 0.1


class SharedCrawlScheduler(Scheduler):  # type: ignore[misc]
    """scrapy-redis's ``Scheduler`` for a crawl that ends when all its processes are done."""

    crawler: Crawler
    member: str
    members_key: str
    expected: int
    _busy: bool
    _handed: Request | None  # taken by the watcher, on its way through engine.crawl()
    _kept: Request | None  # that request, back from the engine, for the next next_request()
    _alive: Any
    _watcher: Any
    _closing: Any

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> SharedCrawlScheduler:
        assert crawler.spider is not None
        scheduler: SharedCrawlScheduler = super().from_crawler(crawler)
        scheduler.crawler = crawler
        scheduler.member = f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(3)}"
        scheduler.members_key = f"{crawler.spider.name}:members"
        scheduler.expected = crawler.settings.getint("SHARED_CRAWL_PROCESSES", 1)
        scheduler._busy = False
        scheduler._handed = scheduler._kept = scheduler._closing = None
        scheduler._alive = create_looping_call(scheduler._refresh_alive)
        scheduler._watcher = create_looping_call(scheduler._watch)
        crawler.signals.connect(scheduler.spider_idle, signal=signals.spider_idle)
        return scheduler

    # --- the scheduler interface ----------------------------------------------------------

    def open(self, spider: Spider) -> Deferred[None]:
        super().open(spider)
        self._alive.start(ALIVE_EVERY, now=True)  # alive before busy: never struck off
        self._set_busy(True)  # until the first idle: start() may still add requests
        return deferred_from_coro(self._wait_for_members())

    def close(self, reason: str) -> None:
        for looping in (self._alive, self._watcher):
            if looping.running:
                looping.stop()
        pipe = self.server.pipeline(transaction=True)
        pipe.hdel(self.members_key, self.member)
        pipe.delete(self._alive_key(self.member))
        pipe.hlen(self.members_key)
        remaining = pipe.execute()[-1]
        if reason == "finished" and not remaining and not self.persist:
            self.flush()  # the last one out: the next crawl starts afresh

    def has_pending_requests(self) -> bool:
        return self._kept is not None or bool(super().has_pending_requests())

    def enqueue_request(self, request: Request) -> bool:
        if request is self._handed:  # taken from the queue already: keep it for next_request
            self._handed, self._kept = None, request
            return True
        if not request.dont_filter and self.df.request_seen(request):
            self.df.log(request, self.spider)
            return False
        self._count("scheduler/enqueued/redis")
        self.queue.push(request)
        return True

    def next_request(self) -> Request | None:
        if self._kept is not None:
            kept, self._kept = self._kept, None
            return kept
        claimed = not self._busy
        if claimed:
            self._set_busy(True)  # before the pop: a taken request is always counted
        request: Request | None = self.queue.pop(self.idle_before_close)
        if request is None:
            if claimed:
                self._set_busy(False)
            return None
        self._count("scheduler/dequeued/redis")
        return request

    # --- idle: waiting for the others -------------------------------------------------------

    def spider_idle(self) -> None:
        """Signal handler: nothing in hand; keep the spider open while the crawl goes on."""
        self._set_busy(False)
        queued, busy = self.roll_call()
        if not queued and not busy:
            return
        if not self._watcher.running:
            self._watcher.start(WATCH_EVERY, now=False)
        raise DontCloseSpider

    def roll_call(self) -> tuple[bool, list[str]]:
        """Whether the queue has requests, and the busy members (read at one instant)."""
        pipe = self.server.pipeline(transaction=True)
        pipe.exists(self.queue.key)
        pipe.hgetall(self.members_key)
        queued, members = pipe.execute()
        busy = [member.decode() for member, flag in members.items() if flag != b"0"]
        return bool(queued), self._strike_off_the_dead(busy)

    def _watch(self) -> None:
        """While idle: take work as soon as there is some, close as soon as all is done."""
        if self._busy or self._closing is not None:  # the engine took a request meanwhile
            self._watcher.stop()
            return
        queued, busy = self.roll_call()
        if not queued and not busy:
            self._watcher.stop()
            engine = self.crawler.engine
            assert engine is not None
            self._closing = deferred_from_coro(engine.close_spider_async(reason="finished"))
        elif queued:
            request = self.next_request()
            if request is not None:
                self._watcher.stop()
                self._handed = request
                assert self.crawler.engine is not None
                self.crawler.engine.crawl(request)  # back in enqueue_request, then next_request

    def _strike_off_the_dead(self, busy: list[str]) -> list[str]:
        """``busy`` without the members whose alive key has expired (they are removed)."""
        pipe = self.server.pipeline(transaction=False)
        for member in busy:
            pipe.exists(self._alive_key(member))
        living = []
        for member, alive in zip(busy, pipe.execute()):
            if alive:
                living.append(member)
            else:
                logger.warning("shared crawl: %s stopped answering; struck off the roll", member)
                self.server.hdel(self.members_key, member)
        return living

    # --- helpers ------------------------------------------------------------------------------

    async def _wait_for_members(self) -> None:
        deadline = time.monotonic() + JOIN_WAIT
        while (joined := self.server.hlen(self.members_key)) < self.expected:
            if time.monotonic() > deadline:
                logger.warning(
                    "shared crawl: %d of %d processes joined within %g s; starting anyway",
                    joined, self.expected, JOIN_WAIT,
                )  # fmt: skip
                return
            await sleep(JOIN_POLL)
        logger.info("shared crawl: %s joined, %d member(s) on the roll", self.member, joined)

    def _set_busy(self, busy: bool) -> None:
        self.server.hset(self.members_key, self.member, int(busy))
        self._busy = busy

    def _refresh_alive(self) -> None:
        self.server.set(self._alive_key(self.member), 1, px=int(ALIVE_TTL * 1000))

    def _alive_key(self, member: str) -> str:
        return f"{self.members_key.rpartition(':')[0]}:alive:{member}"

    def _count(self, key: str) -> None:
        if self.stats is not None:
            self.stats.inc_value(key)


def crawl_keys(spider_name: str) -> list[str]:
    """Key patterns of a shared crawl of ``spider_name`` (to delete them between runs)."""
    return [f"{spider_name}:{suffix}" for suffix in ("requests", "dupefilter", "members", "alive:*")]
