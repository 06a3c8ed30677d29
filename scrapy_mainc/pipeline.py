"""Public import path of ``MaincPipeline``; see :mod:`scrapy_mainc.integration.pipeline`."""

from .integration.pipeline import MaincPipeline

__all__ = ["MaincPipeline"]
