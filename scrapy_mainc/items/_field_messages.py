"""The messages for item classes that lack fields: the ERROR of a class that cannot take
a field the pipeline must write (with the fixes), and the INFO lines of a class that goes
without optional fields (the page type, the metadata). ``_fields`` decides; these word it.
"""

from __future__ import annotations

from ..config._mainc_config import METADATA_FIELD_SETTINGS


def undeclared_metadata_message(item_class: type, skipped: tuple[tuple[str, str], ...]) -> str:
    """The INFO line for an item class without the metadata fields ``skipped`` (``(Metadata
    field, item field)`` pairs)."""
    settings = dict(METADATA_FIELD_SETTINGS)
    name = item_class.__name__
    fields = ", ".join(repr(field) for _, field in skipped)
    named_by = ", ".join(settings[record] for record, _ in skipped)
    plural = len(skipped) > 1
    them, s = ("them", "s") if plural else ("it", "")
    return (
        f"mainc: {name} items do not declare the metadata field{s} {fields}, so they go "
        f"without {them}. To get {them}: declare the field{s} on {name} (e.g. "
        f"{skipped[0][1]} = scrapy.Field(), or a dataclass/attrs field with a default), or "
        "set MAINC_CONVERT_ITEMS = True to convert such items to dicts. To leave "
        f"{them} out without this message: set {named_by} to None, or "
        "MAINC_METADATA_ENABLED = False. (Said once per item class; such items are counted "
        "in mainc/metadata/undeclared.)"
    )


def undeclared_page_type_message(item_class: type, field: str) -> str:
    """The INFO line for an item class without the page type's field ``field``."""
    name = item_class.__name__
    return (
        f"mainc: {name} items do not declare the page type field {field!r}, so they go without "
        f"it. To get it: declare it on {name} (e.g. {field} = scrapy.Field(), or a dataclass/attrs "
        "field with a default), or set MAINC_CONVERT_ITEMS = True to convert such items to "
        "dicts. To leave it out without this message: set MAINC_PAGE_TYPE_FIELD to None. (Said "
        "once per item class.)"
    )


def missing_fields_message(item_class: type, missing: list[tuple[str, str]]) -> str:
    fields = ", ".join(repr(field) for _, field in missing)
    settings = ", ".join(f"{setting}={field!r}" for setting, field in missing)
    first = missing[0][1]
    return (
        f"scrapy_mainc cannot store its results in {item_class.__name__} items: "
        f"the item class has no field {fields} ({settings}). Fix one of: declare the "
        f"field{'s' if len(missing) > 1 else ''} on {item_class.__name__} (e.g. "
        f"{first} = scrapy.Field(), or a dataclass/attrs field with a default); set the "
        f"setting to the name of a field the item has, or to None to not store that "
        f"value; or set MAINC_CONVERT_ITEMS = True to convert such items to dicts."
    )


def missing_cluster_fields_message(item_class: type, missing: list[tuple[str, str]]) -> str:
    name = item_class.__name__
    fields = ", ".join(repr(field) for _, field in missing)
    return (
        f"NearDuplicatePipeline cannot store clusters in {name} items: the item class has no "
        f"field {fields}. Fix one of: declare {'them' if len(missing) > 1 else 'it'} on {name} "
        f"(e.g. {missing[0][1]} = scrapy.Field(), or a dataclass/attrs field with a default), or "
        f"set MAINC_CONVERT_ITEMS = True to convert such items to dicts. Until then they pass "
        f"unclustered (stat mainc/dedup/missing_field)."
    )
