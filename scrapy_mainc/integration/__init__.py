"""The Scrapy layer: the components Scrapy loads, and nothing else.

``addon`` (``scrapy_mainc.Addon``), ``middleware`` (response annotations and decoding, and
the page handed to the pipeline: ``_page_handoff``), ``pipeline`` (``MaincPipeline``: each
item's page run through the item layer's per-page runner, ``scrapy_mainc.items``, in its
worker pool off the reactor: ``_reactor``), ``dedup_pipeline`` (``NearDuplicatePipeline``:
the item layer's cluster step, its blocking calls in threads; ``_dedup_state``), ``command``
(``scrapy mainc``) and ``_startup`` (the checks of a crawl before it starts). Settings are
read by :mod:`scrapy_mainc.config`. The public names are ``scrapy_mainc.Addon``,
``scrapy_mainc.MaincPipeline`` and the others of :mod:`scrapy_mainc`, loaded on first access.
"""
