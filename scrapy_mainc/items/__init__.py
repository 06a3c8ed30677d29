"""How a page becomes an item: the steps a crawl's pipeline and the archive mode share.

- ``_runner``: the per-page runner (``PageRunner``): fill the item, hand off the
  fingerprint, count every stat, drop, cluster; ``MaincPipeline`` and the archive mode
  call it for every page;
- ``_fields``: how an item gets its fields (which fields an item class can take, reading
  the page from it, writing the extraction's and the cluster's fields), with
  ``_field_messages`` (what is said of a class that lacks fields);
- ``_drops``: which items are dropped, and why;
- ``_mainc_stats``: what every ``mainc/*`` stat means, and the one interface it is counted
  through; ``_failure_warnings``: the warnings about failed extractions, said once;
- ``_pool`` (over ``_pool_slots`` and ``_pool_processes``: its work on its event loop)
  over ``_workers``: the extraction in worker processes, threads or inline, each page
  within its time budget;
- ``_clusters`` over ``_cluster_index``: the near-duplicate cluster step, and the index it
  uses, opened and watched as a crawl does.

Below the Scrapy layer and the archive mode, above the configuration (``config``): it
imports neither Scrapy nor Twisted (a test checks it); items are read and written through
itemadapter, so any item type works.
"""
