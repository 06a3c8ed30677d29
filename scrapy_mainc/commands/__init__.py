"""Old home of the ``scrapy mainc`` command, kept for ``COMMANDS_MODULE = "scrapy_mainc.commands"``;
the ``scrapy.commands`` entry point names :mod:`scrapy_mainc.integration.command`."""
