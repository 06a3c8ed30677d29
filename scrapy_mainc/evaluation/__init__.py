"""Scoring extractions against human gold, Scrapy-free: the gold of a dataset, article text
or with/without snippets (``_gold``), their metrics (``_metric``: 4-gram shingles;
``_snippets``: trafilatura's evaluation) and the dataset runner behind ``mainc evaluate``
(``_evaluate``)."""
