"""The distributed profile: several crawler processes, on one machine or many, share one crawl.

    SCRAPY_SETTINGS_MODULE=newsdemo.settings_distributed scrapy crawl news ...

Everything in ``newsdemo.settings``, plus:

* the request queue and the request dupefilter of scrapy-redis, in the Redis database of
  ``NEWSDEMO_REDIS_URL``, so that the processes share the work and no page is fetched twice;
  :class:`newsdemo.sharedcrawl.SharedCrawlScheduler` also ends the crawl only when every
  process is done;
* near-duplicate clustering with its index in the same database, so that copies of one
  story crawled by different processes land in one cluster.

``run_distributed.py`` starts the site, a Redis server and two crawler processes in one go.
"""

import os

from newsdemo.settings import *  # noqa: F403 (the single-process profile, extended)

#: Redis database shared by every crawler process (queue, dupefilter, near-duplicate index).
REDIS_URL = os.environ.get("NEWSDEMO_REDIS_URL", "redis://127.0.0.1:6379/0")

SCHEDULER = "newsdemo.sharedcrawl.SharedCrawlScheduler"
# Must be set: with Scrapy's default dupefilter class, scrapy-redis 0.9.1 calls a
# from_settings() that Scrapy 2.19's dupefilter no longer has.
DUPEFILTER_CLASS = "scrapy_redis.dupefilter.RFPDupeFilter"
# Processes to wait for before crawling (-s SHARED_CRAWL_PROCESSES=2); 1 starts at once.
SHARED_CRAWL_PROCESSES = 1

MAINC_DEDUP_ENABLED = True
MAINC_DEDUP_REDIS_URL = REDIS_URL

# Scrapy 2.19's remote-control server writes a job file to the user's profile per process.
REMOTE_CONTROL_ENABLED = False
