"""A crawl's configuration for pages that come from no crawl (the archive mode).

``mainc warc`` and :mod:`scrapy_mainc.archive` make the items of ``mainc crawl`` from pages
fetched earlier; their settings are read as a crawl with the add-on reads them: the given
values (``MAINC_`` names; text as ``-s`` gives it, or Python values) over what the add-on
writes at ``"addon"`` priority (:func:`~._mainc_config.addon_defaults`), into the pipeline's
``MaincConfig`` and ``DedupConfig``. A plain mapping (``_reading.SettingValues``) holds them:
no Scrapy is needed.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ._dedup_config import DedupConfig
from ._mainc_config import MaincConfig, addon_defaults
from ._reading import SettingValues
from ._registry import unknown_settings


@dataclass(frozen=True, slots=True)
class OfflineConfig:
    """The pipeline's configuration of a crawl with the same settings."""

    mainc: MaincConfig = field(default_factory=MaincConfig)
    dedup: DedupConfig = field(default_factory=DedupConfig)

    @classmethod
    def from_settings(cls, values: Mapping[str, Any] | None = None) -> OfflineConfig:
        """Read ``values`` (``MAINC_`` settings; strings as ``-s`` gives them, or Python
        values) over the add-on's defaults. ValueError names a bad or unknown setting."""
        values = dict(values or {})
        unknown = unknown_settings(values)
        others = sorted(name for name in values if not name.startswith("MAINC_"))
        if unknown or others:
            name, nearest = unknown[0] if unknown else (others[0], "")
            hint = f"; did you mean {nearest}?" if nearest else " (only MAINC_ settings apply to pages)"
            raise ValueError(f"{name} is not a scrapy_mainc setting{hint}")
        given = SettingValues(values)
        defaults = addon_defaults(given)  # reads MaincConfig: a bad value is a ValueError
        DedupConfig.from_settings(given)
        settings = SettingValues({**defaults, **values})  # the given values win
        return cls(MaincConfig.from_settings(settings), DedupConfig.from_settings(settings))
