"""Old import path of the ``scrapy mainc`` command (``COMMANDS_MODULE = "scrapy_mainc.commands"``);
see :mod:`scrapy_mainc.integration.command`."""

from ..integration.command import Command

__all__ = ["Command"]
