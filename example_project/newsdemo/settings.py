"""Settings of the example project. scrapy_mainc is enabled by its add-on, nothing else."""

BOT_NAME = "newsdemo"
SPIDER_MODULES = ["newsdemo.spiders"]
NEWSPIDER_MODULE = "newsdemo.spiders"

# This one line enables the downloader middleware, the spider middleware and the
# pipeline, with the defaults documented in the README.
ADDONS = {"scrapy_mainc.Addon": 0}

# Any MAINC_ setting can be set here (or in a spider's custom_settings), for example:
# MAINC_ALGORITHM = "auto"
# MAINC_DOMAIN_ALGORITHMS = {"news.example.cn": "econ"}
# MAINC_WORKER_MODE = "process"
# MAINC_DEDUP_ENABLED = True  # near-duplicate clusters (settings_distributed.py: on Redis)
# Metadata fields (published, modified, authors, site_name, canonical_url, description,
# image, section, tags) are on by default; rename one for your index, or leave it out:
# MAINC_PUBLISHED_FIELD = "date_published"
# MAINC_TAGS_FIELD = None
# MAINC_METADATA_ENABLED = False  # no metadata stage at all

ROBOTSTXT_OBEY = False
CONCURRENT_REQUESTS = 16
CONCURRENT_REQUESTS_PER_DOMAIN = 16
FEED_EXPORT_ENCODING = "utf-8"
LOG_LEVEL = "INFO"
TELNETCONSOLE_ENABLED = False
