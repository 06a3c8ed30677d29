"""The settings read into one frozen :class:`MaincConfig`, in one place.

Every ``MAINC_`` setting but the near-duplicate ones (``_dedup_config``) becomes a field of
:class:`MaincConfig` here: :meth:`MaincConfig.from_settings` reads and checks each one
(its default from the registry, ``_registry``; its value through ``_reading``, from a
crawl's Scrapy settings or a plain mapping), the item fields into :class:`FieldNames`, and
what the outputs keep and which items are kept into ``ContentConfig``
(``_output_and_filters``). The add-on writes :func:`addon_defaults` at ``"addon"``
priority, so a manual configuration and the add-on behave the same.
"""

from __future__ import annotations

import math
import os
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from ..algorithms import ALGORITHMS
from ..core._limits import MAX_PAGE_BYTES
from ._output_and_filters import ContentConfig
from ._reading import SettingsReader, is_unset, read_setting
from ._registry import REGISTRY

#: Where extraction runs: worker processes, worker threads, or the reactor thread itself.
WORKER_MODES = ("process", "thread", "inline")
#: Name of the spider attribute that chooses the algorithm for one spider.
SPIDER_ALGORITHM_ATTRIBUTE = "mainc_algorithm"

#: Every MAINC_ setting but the near-duplicate ones (``MAINC_DEDUP_*``, read by
#: ``DedupConfig``) and its default, from the registry (``MAINC_WORKERS = None`` means the
#: CPU count).
SETTINGS: Mapping[str, Any] = {
    setting.name: setting.default for setting in REGISTRY if setting.group != "dedup"
}


def default_workers() -> int:
    """The number of CPUs this process may run on (at least 1)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


#: Every field of the :class:`~scrapy_mainc.metadata.Metadata` record, with the setting that
#: names its item field (a test checks that the record has no other field).
METADATA_FIELD_SETTINGS: tuple[tuple[str, str], ...] = (
    ("published", "MAINC_PUBLISHED_FIELD"),
    ("modified", "MAINC_MODIFIED_FIELD"),
    ("published_from", "MAINC_PUBLISHED_FROM_FIELD"),
    ("modified_from", "MAINC_MODIFIED_FROM_FIELD"),
    ("authors", "MAINC_AUTHORS_FIELD"),
    ("site_name", "MAINC_SITE_NAME_FIELD"),
    ("canonical_url", "MAINC_CANONICAL_URL_FIELD"),
    ("description", "MAINC_DESCRIPTION_FIELD"),
    ("image", "MAINC_IMAGE_FIELD"),
    ("section", "MAINC_SECTION_FIELD"),
    ("tags", "MAINC_TAGS_FIELD"),
)


@dataclass(frozen=True, slots=True)
class FieldNames:
    """Item fields the pipeline reads and writes; ``""`` turns one off."""

    text: str = "main_text"
    html: str = "main_html"
    title: str = "title"
    info: str = "mainc"
    page: str = "raw_html"
    #: ``Extraction.markdown``; off unless ``MAINC_MARKDOWN_FIELD`` names a field.
    markdown: str = ""
    #: ``Extraction.page_type``; optional on typed items, as the metadata fields.
    page_type: str = "page_type"
    #: ``(Metadata field, item field)`` of every metadata field switched on, in record order.
    metadata: tuple[tuple[str, str], ...] = tuple(
        (name, SETTINGS[setting]) for name, setting in METADATA_FIELD_SETTINGS
    )

    def attached(self) -> tuple[tuple[str, str], ...]:
        """``(setting name, field)`` of every output field that is switched on."""
        pairs = (
            ("MAINC_TEXT_FIELD", self.text),
            ("MAINC_HTML_FIELD", self.html),
            ("MAINC_TITLE_FIELD", self.title),
            ("MAINC_INFO_FIELD", self.info),
            ("MAINC_MARKDOWN_FIELD", self.markdown),
        )
        return tuple((setting, field) for setting, field in pairs if field)

    def written(self, keep_page: bool) -> tuple[tuple[str, str], ...]:
        """``(setting name, field)`` of every field the pipeline must be able to write: the
        output fields, and the page field when the page is kept (``MAINC_KEEP_PAGE``)."""
        page = (("MAINC_PAGE_FIELD", self.page),) if keep_page and self.page else ()
        return self.attached() + page


@dataclass(frozen=True, slots=True)
class MaincConfig:
    """Everything the pipeline's steps need from the settings, validated."""

    enabled: bool = True
    algorithm: str = "auto"
    #: ``(domain, algorithm)`` pairs, longest domain first, so the most specific one wins.
    domain_algorithms: tuple[tuple[str, str], ...] = ()
    strip_comments: bool = True
    worker_mode: str = "process"
    workers: int = 1
    timeout: float = 10.0
    #: ``MAINC_FALLBACK_TIMEOUT``: the fallback step's budget, apart from the extraction's.
    fallback_timeout: float = 30.0
    max_page_size: int = MAX_PAGE_BYTES
    fields: FieldNames = FieldNames()
    keep_page: bool = False
    convert_items: bool = False
    drop_empty: bool = False
    redecode: bool = True
    #: Run the metadata stage and write its fields (``MAINC_METADATA_ENABLED``).
    metadata: bool = True
    #: What the outputs keep, ``favor``, and which items are kept (``_output_and_filters``).
    content: ContentConfig = ContentConfig()

    @classmethod
    def from_settings(cls, settings: SettingsReader) -> MaincConfig:
        """Read and check every ``MAINC_`` setting; a bad value raises ValueError."""

        def get(name: str) -> Any:  # unlike settings.get(), keeps an explicit None
            return settings[name] if name in settings else SETTINGS[name]

        def flag(name: str) -> bool:
            return bool(read_setting(settings, "getbool", name, SETTINGS[name]))

        mode = str(get("MAINC_WORKER_MODE")).lower()
        if mode not in WORKER_MODES:
            choices = ", ".join(WORKER_MODES)
            raise ValueError(f"MAINC_WORKER_MODE must be one of {choices}; got {mode!r}")
        workers = get("MAINC_WORKERS")
        fields = FieldNames(
            text=_field(get("MAINC_TEXT_FIELD")),
            html=_field(get("MAINC_HTML_FIELD")),
            title=_field(get("MAINC_TITLE_FIELD")),
            info=_field(get("MAINC_INFO_FIELD")),
            page=_field(get("MAINC_PAGE_FIELD")),
            markdown=_field(get("MAINC_MARKDOWN_FIELD")),
            page_type=_field(get("MAINC_PAGE_TYPE_FIELD")),
            metadata=tuple(
                (name, field)
                for name, setting in METADATA_FIELD_SETTINGS
                for field in (_field(get(setting)),)
                if field
            ),
        )
        _check_distinct(fields)
        return cls(
            enabled=flag("MAINC_ENABLED"),
            algorithm=check_algorithm(get("MAINC_ALGORITHM"), "MAINC_ALGORITHM"),
            domain_algorithms=_domain_algorithms(
                read_setting(settings, "getdict", "MAINC_DOMAIN_ALGORITHMS", {})
            ),
            strip_comments=flag("MAINC_STRIP_COMMENTS"),
            worker_mode=mode,
            workers=(default_workers() if is_unset(workers) else _positive(int, workers, "MAINC_WORKERS")),
            timeout=_positive(float, get("MAINC_TIMEOUT"), "MAINC_TIMEOUT"),
            fallback_timeout=_positive(float, get("MAINC_FALLBACK_TIMEOUT"), "MAINC_FALLBACK_TIMEOUT"),
            max_page_size=_positive(int, get("MAINC_MAX_PAGE_SIZE"), "MAINC_MAX_PAGE_SIZE"),
            fields=fields,
            keep_page=flag("MAINC_KEEP_PAGE"),
            convert_items=flag("MAINC_CONVERT_ITEMS"),
            drop_empty=flag("MAINC_DROP_EMPTY"),
            redecode=flag("MAINC_REDECODE"),
            metadata=flag("MAINC_METADATA_ENABLED"),
            content=ContentConfig.from_settings(flag, get, markdown=bool(fields.markdown)),
        )

    def algorithm_for(self, url: str | None, spider_algorithm: str | None = None) -> str:
        """The algorithm for a page: its domain's, else the spider's, else MAINC_ALGORITHM."""
        host = _host(url)
        if host:
            for domain, name in self.domain_algorithms:
                if host == domain or host.endswith("." + domain):
                    return name
        return spider_algorithm or self.algorithm


def addon_defaults(settings: SettingsReader) -> dict[str, Any]:
    """What the add-on writes at ``"addon"`` priority under ``settings``: every default of
    :data:`SETTINGS`, and ``MAINC_DEDUP_TEXT_FIELD`` following ``MAINC_TEXT_FIELD`` (so that
    clustering reads the text where the pipeline writes it, unless set). A bad value raises
    ValueError."""
    defaults = dict(SETTINGS)
    text_field = MaincConfig.from_settings(settings).fields.text
    if text_field:
        defaults["MAINC_DEDUP_TEXT_FIELD"] = text_field
    return defaults


def spider_algorithm(spider: object) -> str | None:
    """The algorithm a spider asks for through its ``mainc_algorithm`` attribute, checked."""
    name = getattr(spider, SPIDER_ALGORITHM_ATTRIBUTE, None)
    if name in (None, ""):
        return None
    owner = f"{type(spider).__name__}.{SPIDER_ALGORITHM_ATTRIBUTE}"
    return check_algorithm(name, owner)


def check_algorithm(name: object, where: str) -> str:
    """``name`` when it is a registered algorithm; a ValueError naming ``where`` otherwise."""
    if not isinstance(name, str) or name not in ALGORITHMS:
        raise ValueError(f"{where}: unknown algorithm {name!r}; valid: {', '.join(ALGORITHMS)}")
    return name


def _domain_algorithms(value: Mapping[Any, Any]) -> tuple[tuple[str, str], ...]:
    pairs = {}
    for domain, name in value.items():
        key = str(domain).strip().lower().lstrip("*").lstrip(".")
        pairs[key] = check_algorithm(name, f"MAINC_DOMAIN_ALGORITHMS[{domain!r}]")
    return tuple(sorted(pairs.items(), key=lambda pair: (-len(pair[0]), pair[0])))


def _positive(kind: type, value: object, name: str) -> Any:
    """``value`` as a positive ``kind`` (int or float); an int setting takes no fraction
    (``2.5`` workers is an error, not 2)."""
    wanted = "a positive integer" if kind is int else "a positive number"
    number: float | int
    try:
        if isinstance(value, bool):
            raise ValueError
        if isinstance(value, int) or (isinstance(value, str) and value.strip().lstrip("+").isdigit()):
            number = int(value)  # exact, however large
        else:
            number = float(value)  # type: ignore[arg-type]
            if not math.isfinite(number) or (kind is int and not number.is_integer()):
                raise ValueError
        if number <= 0:
            raise ValueError
        return kind(number)
    except (TypeError, ValueError, OverflowError):
        raise ValueError(f"{name} must be {wanted}; got {value!r}") from None


def _field(value: object) -> str:
    """A field name, or "" when the setting is None (or its text), False or empty (field
    switched off)."""
    if value is False or is_unset(value):
        return ""
    if not isinstance(value, str):
        raise ValueError(f"a MAINC_*_FIELD setting must be a field name or None; got {value!r}")
    return value


def _check_distinct(fields: FieldNames) -> None:
    """A ValueError when an optional field (the page type, a metadata field) is also another
    output field: the pipeline would write two values into one field."""
    settings = dict(METADATA_FIELD_SETTINGS)
    taken = {field: setting for setting, field in fields.attached()}
    if fields.page:
        taken.setdefault(fields.page, "MAINC_PAGE_FIELD")
    optional = [(field, settings[name]) for name, field in fields.metadata]
    if fields.page_type:
        optional.insert(0, (fields.page_type, "MAINC_PAGE_TYPE_FIELD"))
    for field, setting in optional:
        other = taken.setdefault(field, setting)
        if other != setting:
            raise ValueError(
                f"{setting} and {other} both name the item field {field!r}: set one of "
                f"them to another field name, or {setting} to None to leave that value out"
            )


def _host(url: str | None) -> str:
    if not url:
        return ""
    try:
        return (urlsplit(url).hostname or "").lower()
    except ValueError:
        return ""
