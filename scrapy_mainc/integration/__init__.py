"""The Scrapy layer: the only subpackage that imports Scrapy.

``addon`` (``scrapy_mainc.Addon``), ``middleware`` (response annotations and the page
handed to the pipeline), ``pipeline`` (``MaincPipeline``: extraction in worker processes,
``_pool`` over ``_workers``), ``dedup_pipeline`` (``NearDuplicatePipeline`` over
:mod:`scrapy_mainc.dedup`), ``command`` (``scrapy mainc``). Settings become one
:class:`~scrapy_mainc.integration._config.MaincConfig` in ``_config``; ``_itemfields``
writes the results into items of any kind. The public names are ``scrapy_mainc.Addon``,
``scrapy_mainc.MaincPipeline`` and the others of :mod:`scrapy_mainc`, loaded on first access.
"""
