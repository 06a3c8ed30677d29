"""Public import path of ``NearDuplicatePipeline``; see :mod:`scrapy_mainc.integration.dedup_pipeline`."""

from ..integration.dedup_pipeline import NearDuplicatePipeline

__all__ = ["NearDuplicatePipeline"]
