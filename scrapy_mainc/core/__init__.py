"""The Scrapy-free extraction core, one private module per stage: the lowest layer.

decode (``_decode``) -> parse and prepare (``_dom``) -> page evidence (``_evidence``: meta
tags, link relations, JSON-LD) -> one statistics pass (``_stats``, ``_text``, ``_tags``,
``_names``) -> an algorithm's selection (:mod:`scrapy_mainc.algorithms`) -> the
reader-comment stage (``_comments``, over ``_comment_names``, ``_comment_regions`` and
``_comment_params``) -> text and HTML (``_render``, ``_sanitize``).
``_title`` and ``_lang`` read page-level facts, ``_annotate`` computes the response
annotations of the downloader middleware, ``_types`` holds the records passed between
stages and the results (``Extraction``, ``Metadata``). Nothing here imports another
subpackage; :mod:`scrapy_mainc._extract` runs the stages.
"""
