"""Scoring extractions against human gold text: the metric (``_metric``) and the dataset
runner behind ``mainc evaluate`` (``_evaluate``). Scrapy-free."""
