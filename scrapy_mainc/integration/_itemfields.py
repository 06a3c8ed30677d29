"""Reading pages from items and writing extraction fields into them, for any item type.

Dicts take any field; ``scrapy.Item``, dataclass and attrs items only the fields they
declare. A typed item that lacks a configured field is caught at its first item, with an
error that names the field, the setting and the fixes, unless ``MAINC_CONVERT_ITEMS``
asks for such items to be converted to dicts.

Metadata fields
---------------
The page's :class:`~scrapy_mainc.metadata.Metadata` goes into the item as flat top-level
fields, one per value, each named by its own setting like ``MAINC_TEXT_FIELD``:
``published``, ``modified``, ``authors``, ``site_name``, ``canonical_url``, ``description``,
``image``, ``section`` and ``tags`` (``MAINC_PUBLISHED_FIELD`` ... ``MAINC_TAGS_FIELD``;
``None`` leaves one out). Flat, because items of a news crawl mostly go to a search index
or a table, where each of these is a column or an index field of its own (a date field to
sort by freshness, a keyword field for authors and tags): a nested ``metadata`` object
would have to be flattened again by every exporter, and one setting per field lets a
crawl rename a field to its index's name (``MAINC_PUBLISHED_FIELD = "date_published"``),
or leave out one it does not want, without a mapping to merge with the defaults.

- Values: dates as ISO 8601 strings, ``authors`` and ``tags`` as lists of strings, the
  others as strings. A value the page does not give is ``None`` (``[]`` for a list), not
  ``""``: search engines reject an empty string in a date field but take ``null`` as
  "missing".
- A field the spider already filled is never overwritten (as the title); a field left
  empty by the spider takes the page's value.
- Metadata fields are optional on typed items: an item class that does not declare some
  of them simply goes without those (the pipeline says so once per class, at INFO, with
  how to get them: declare the fields, or ``MAINC_CONVERT_ITEMS``), so item classes
  written before these fields existed keep working unchanged. With
  ``MAINC_CONVERT_ITEMS``, such items are converted to dicts and get every field.
- ``MAINC_METADATA_ENABLED = False`` skips the metadata stage and writes none of these.
"""

from __future__ import annotations

from collections.abc import Iterable, MutableMapping
from dataclasses import dataclass
from typing import Any

from itemadapter import ItemAdapter

from ..core._types import Extraction
from ._config import METADATA_FIELD_SETTINGS, FieldNames, MaincConfig


class MissingFieldError(TypeError):
    """A typed item does not declare a field the pipeline is configured to write."""


def undeclared(item_class: type, fields: Iterable[str]) -> list[str]:
    """Those of ``fields`` that ``item_class`` does not declare (none for dict-like items)."""
    declared = ItemAdapter.get_field_names_from_class(item_class)
    if declared is None:  # dict-like: any field goes
        return []
    return [field for field in fields if field not in declared]


@dataclass(frozen=True, slots=True)
class _Verdict:
    """What to do with the items of one class."""

    #: Why the class cannot take the fields it must (an error message), or "".
    problem: str
    #: Convert its items to dicts (``MAINC_CONVERT_ITEMS``).
    convert: bool
    #: ``(Metadata field, item field)`` pairs its items take.
    metadata: tuple[tuple[str, str], ...]
    #: ``(Metadata field, item field)`` pairs it does not declare, left out of its items.
    skipped: tuple[tuple[str, str], ...]


class ItemFields:
    """Field handling for one crawl: checks each item class once, then reads and writes.

    ``later_fields`` are fields that a later pipeline will write (the cluster fields of
    ``NearDuplicatePipeline``): with ``MAINC_CONVERT_ITEMS``, an item class without them
    is converted here already, so that everything this pipeline hands on reaches the dict.
    """

    def __init__(self, config: MaincConfig, later_fields: tuple[str, ...] = ()) -> None:
        self.names: FieldNames = config.fields
        #: ``(Metadata field, item field)`` of every metadata field written; none when the
        #: metadata stage is off.
        self.metadata = config.fields.metadata if config.metadata else ()
        self._convert = config.convert_items
        self._keep_page = config.keep_page
        self._later_fields = later_fields
        self._verdicts: dict[type, _Verdict] = {}

    def prepare(self, item: Any) -> Any:
        """``item`` ready to take the fields: as is, converted to a dict, or an error."""
        verdict = self._verdict(type(item))
        if verdict.convert:
            return ItemAdapter(item).asdict()
        if verdict.problem:
            raise MissingFieldError(verdict.problem)
        return item

    def takes_metadata(self, item: Any) -> bool:
        """Whether ``item`` (as :meth:`prepare` returned it) takes any metadata field: if
        not, the metadata stage need not run for its page."""
        return bool(self._verdict(type(item)).metadata)

    def skipped_metadata(self, item: Any) -> tuple[tuple[str, str], ...]:
        """``(Metadata field, item field)`` pairs that ``item`` (as :meth:`prepare` returned
        it) cannot take: its class does not declare the item field."""
        return self._verdict(type(item)).skipped

    def page_in(self, adapter: ItemAdapter) -> str | bytes | None:
        """The page HTML a spider put in the item's page field, if any."""
        if not self.names.page:
            return None
        value = adapter.get(self.names.page)
        return value if isinstance(value, (str, bytes)) and value else None

    def attach(self, adapter: ItemAdapter, extraction: Extraction, info: dict[str, Any]) -> tuple[str, ...]:
        """Write the extraction's fields; the title and the metadata only where the item's
        field is empty. Returns the metadata fields (record names) the page gave a value
        for, among those the item takes (written, or the spider's own value kept)."""
        names = self.names
        if names.text:
            adapter[names.text] = extraction.text
        if names.html:
            adapter[names.html] = extraction.html
        if names.title and not adapter.get(names.title):
            adapter[names.title] = extraction.title
        if names.info:
            adapter[names.info] = info
        if names.markdown:
            adapter[names.markdown] = extraction.markdown
        if not self.metadata:
            return ()
        metadata = extraction.metadata
        found = []
        for name, field in self._verdict(type(adapter.item)).metadata:
            value = getattr(metadata, name)
            if value:
                found.append(name)
            if adapter.get(field):
                continue  # the spider's own value
            if value or field not in adapter:  # an empty value only where the field is absent
                adapter[field] = item_value(value)
        return tuple(found)

    def settle_page(self, adapter: ItemAdapter, page: str | bytes | None) -> None:
        """Keep the page in the page field (``MAINC_KEEP_PAGE``), or remove it from the item."""
        field = self.names.page
        if not field:
            return
        if self._keep_page:
            if page is not None and not adapter.get(field):
                adapter[field] = page
        elif isinstance(adapter.item, MutableMapping):
            adapter.item.pop(field, None)
        elif adapter.get(field) is not None:
            adapter[field] = None  # dataclass and attrs items keep every declared field

    def _verdict(self, item_class: type) -> _Verdict:
        verdict = self._verdicts.get(item_class)
        if verdict is None:
            verdict = self._verdicts[item_class] = self._check(item_class)
        return verdict

    def _check(self, item_class: type) -> _Verdict:
        wanted = {field: setting for setting, field in self.names.attached()}
        if self._keep_page and self.names.page:
            wanted[self.names.page] = "MAINC_PAGE_FIELD"
        missing = [(wanted[field], field) for field in undeclared(item_class, wanted)]
        problem = _missing_message(item_class, missing) if missing else ""
        lacking = set(undeclared(item_class, [field for _, field in self.metadata]))
        skipped = tuple(pair for pair in self.metadata if pair[1] in lacking)
        later = bool(undeclared(item_class, self._later_fields))
        if self._convert and (problem or skipped or later):
            return _Verdict("", True, self.metadata, ())
        taken = tuple(pair for pair in self.metadata if pair[1] not in lacking)
        return _Verdict(problem, False, taken, skipped)


def item_value(value: object) -> object:
    """A metadata value as an item holds it: a list for a tuple, ``None`` for ``""``."""
    if isinstance(value, tuple):
        return list(value)
    return None if value == "" else value


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


def _missing_message(item_class: type, missing: list[tuple[str, str]]) -> str:
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
