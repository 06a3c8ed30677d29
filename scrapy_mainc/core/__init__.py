"""The Scrapy-free extraction core, one private module per stage.

decode (``_decode``) -> parse and prepare (``_dom``) -> one statistics pass (``_stats``,
``_text``, ``_tags``, ``_names``) -> an algorithm's selection (:mod:`scrapy_mainc.algorithms`)
-> the reader-comment stage (``_comments``) -> text and HTML (``_render``); ``_api`` runs
the stages, ``_title`` and ``_lang`` read page-level facts, ``_annotate`` computes the
response annotations of the downloader middleware, ``_types`` holds the records passed
between stages. Nothing here imports Scrapy; the public names are re-exported by
:mod:`scrapy_mainc`.
"""
