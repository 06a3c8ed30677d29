"""Public import path of the add-on; see :mod:`scrapy_mainc.integration.addon`."""

from .integration.addon import Addon

__all__ = ["Addon"]
