"""Scrapy commands registered through the ``scrapy.commands`` entry point."""
