"""Example Scrapy project: crawl the bundled news site with scrapy_mainc enabled."""
