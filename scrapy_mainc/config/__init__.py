"""How a setting becomes configuration: every ``MAINC_`` setting and the frozen records
read from them, in one place (nothing else reads a setting; a test checks it).

- ``_registry``: every setting's name, default, type and meaning (the one source of the
  defaults and of the settings reference in the documentation);
- ``_reading``: reading a value, from a crawl's Scrapy settings or a plain mapping
  (``SettingValues``), with the same conversions;
- ``_mainc_config``: ``MaincConfig`` (the pipeline's settings) with ``FieldNames`` (the
  item fields), and the defaults the add-on writes;
- ``_output_and_filters``: ``ContentConfig``, the outputs' and the filters' settings;
- ``_dedup_config``: ``DedupConfig``, the near-duplicate settings (``MAINC_DEDUP_*``);
- ``_offline``: ``OfflineConfig``, a crawl's configuration for pages from no crawl;
- ``_command_options``: the options ``mainc crawl`` and ``mainc warc`` share, as settings.

Scrapy-free: a crawl passes its ``Settings``, the archive mode a mapping.
"""
