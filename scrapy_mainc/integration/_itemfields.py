"""Reading pages from items and writing extraction fields into them, for any item type.

Dicts take any field; ``scrapy.Item``, dataclass and attrs items only the fields they
declare. A typed item that lacks a configured field is caught at its first item, with an
error that names the field, the setting and the fixes, unless ``MAINC_CONVERT_ITEMS``
asks for such items to be converted to dicts.
"""

from __future__ import annotations

from collections.abc import Iterable, MutableMapping
from typing import Any

from itemadapter import ItemAdapter

from ..core._types import Extraction
from ._config import FieldNames, MaincConfig


class MissingFieldError(TypeError):
    """A typed item does not declare a field the pipeline is configured to write."""


def undeclared(item_class: type, fields: Iterable[str]) -> list[str]:
    """Those of ``fields`` that ``item_class`` does not declare (none for dict-like items)."""
    declared = ItemAdapter.get_field_names_from_class(item_class)
    if declared is None:  # dict-like: any field goes
        return []
    return [field for field in fields if field not in declared]


class ItemFields:
    """Field handling for one crawl: checks each item class once, then reads and writes.

    ``later_fields`` are fields that a later pipeline will write (the cluster fields of
    ``NearDuplicatePipeline``): with ``MAINC_CONVERT_ITEMS``, an item class without them
    is converted here already, so that everything this pipeline hands on reaches the dict.
    """

    def __init__(self, config: MaincConfig, later_fields: tuple[str, ...] = ()) -> None:
        self.names: FieldNames = config.fields
        self._convert = config.convert_items
        self._keep_page = config.keep_page
        self._later_fields = later_fields
        #: item class -> (error message or "", whether to convert it)
        self._verdicts: dict[type, tuple[str, bool]] = {}

    def prepare(self, item: Any) -> Any:
        """``item`` ready to take the fields: as is, converted to a dict, or an error."""
        verdict = self._verdicts.get(type(item))
        if verdict is None:
            verdict = self._verdicts[type(item)] = self._check(type(item))
        problem, convert = verdict
        if convert:
            return ItemAdapter(item).asdict()
        if problem:
            raise MissingFieldError(problem)
        return item

    def page_in(self, adapter: ItemAdapter) -> str | bytes | None:
        """The page HTML a spider put in the item's page field, if any."""
        if not self.names.page:
            return None
        value = adapter.get(self.names.page)
        return value if isinstance(value, (str, bytes)) and value else None

    def attach(self, adapter: ItemAdapter, extraction: Extraction, info: dict[str, Any]) -> None:
        """Write the extraction's fields; the title only where the item has none."""
        names = self.names
        if names.text:
            adapter[names.text] = extraction.text
        if names.html:
            adapter[names.html] = extraction.html
        if names.title and not adapter.get(names.title):
            adapter[names.title] = extraction.title
        if names.info:
            adapter[names.info] = info

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

    def _check(self, item_class: type) -> tuple[str, bool]:
        wanted = {field: setting for setting, field in self.names.attached()}
        if self._keep_page and self.names.page:
            wanted[self.names.page] = "MAINC_PAGE_FIELD"
        missing = [(wanted[field], field) for field in undeclared(item_class, wanted)]
        problem = _missing_message(item_class, missing) if missing else ""
        later = bool(undeclared(item_class, self._later_fields))
        return problem, self._convert and bool(problem or later)


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
