"""How an item gets its fields: which fields an item can take, reading its page from it and
writing the extraction's fields (and the cluster's) into it, for any item type: the one
item-field policy of the crawl and the archive mode.

Dicts take any field; ``scrapy.Item``, dataclass and attrs items only the fields they
declare. :class:`FieldPolicy` decides, once per item class and for one component, what to
do with a class's items: a typed class that lacks a field the component must write is
caught at its first item, with an error that names the field, the setting and the fixes,
unless ``MAINC_CONVERT_ITEMS`` asks for such items to be converted to dicts; optional
fields (the metadata) are left out of a class that does not declare them. ``MaincPipeline``
(through :class:`ItemFields`) and ``NearDuplicatePipeline`` (:data:`CLUSTER_FIELDS`) each
have a policy; :func:`set_if_declared` writes a field a class may lack. The messages for
classes that lack fields are in ``_field_messages``.

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

The page type
-------------
``Extraction.page_type`` goes into a top-level field too (``page_type``,
``MAINC_PAGE_TYPE_FIELD``), beside ``mainc["page_type"]``: a search index filters and
facets on it. It is optional on typed items as the metadata fields are (item classes
written before it existed go without it, said once per class at INFO), ``None`` when the
page has no type (an empty page, one that is not HTML, an extraction that failed), and,
like ``main_text``, always the extraction's: a spider's value is not kept.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Mapping, MutableMapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from itemadapter import ItemAdapter

from ..config._mainc_config import FieldNames, MaincConfig
from ..core._types import Extraction, Metadata
from ._fallback import FallbackResult
from ._field_messages import (
    missing_cluster_fields_message,
    missing_fields_message,
    undeclared_metadata_message,
    undeclared_page_type_message,
)

if TYPE_CHECKING:
    from ..dedup._index import Assignment

logger = logging.getLogger(__name__)

#: The item fields ``NearDuplicatePipeline`` writes; typed items must declare both.
CLUSTER_FIELDS = ("cluster_id", "duplicate_of")
#: The page type's name among the optional fields (the others are the metadata fields).
PAGE_TYPE = "page_type"


class MissingFieldError(TypeError):
    """A typed item does not declare a field the pipeline is configured to write."""


def undeclared(item_class: type, fields: Iterable[str]) -> list[str]:
    """Those of ``fields`` that ``item_class`` does not declare (none for dict-like items)."""
    declared = ItemAdapter.get_field_names_from_class(item_class)
    if declared is None:  # dict-like: any field goes
        return []
    return [field for field in fields if field not in declared]


def set_if_declared(adapter: ItemAdapter, field: str, value: object) -> bool:
    """Set ``field`` unless the item's class declares its fields and not this one (then
    False, said at DEBUG)."""
    try:
        adapter[field] = value
    except KeyError:
        logger.debug("mainc: %s has no %r field; not stored", type(adapter.item).__name__, field)
        return False
    return True


@dataclass(frozen=True, slots=True)
class Verdict:
    """What to do with the items of one class."""

    #: Why the class cannot take the fields it must (an error message), or "".
    problem: str
    #: Convert its items to dicts (``MAINC_CONVERT_ITEMS``).
    convert: bool
    #: ``(name, item field)`` pairs of the optional fields its items take.
    optional: tuple[tuple[str, str], ...]
    #: ``(name, item field)`` pairs of optional fields it does not declare, left out.
    skipped: tuple[tuple[str, str], ...]


#: Builds the error for an item class and the ``(setting, field)`` pairs it lacks.
Explain = Callable[[type, list[tuple[str, str]]], str]


class FieldPolicy:
    """What one component does with the items of each class, decided once per class.

    ``required``: item field -> the setting naming it ("" when none does), fields the
    component must write; a class lacking one has a ``problem`` (``explain`` words it), or
    is converted with ``convert`` (``MAINC_CONVERT_ITEMS``). ``optional``: ``(name, item
    field)`` pairs written where the class declares them. ``later``: fields a later
    component writes; with ``convert``, a class without them is converted here already,
    so that everything this component writes reaches the dict.
    """

    def __init__(
        self,
        required: Mapping[str, str],
        optional: tuple[tuple[str, str], ...] = (),
        later: tuple[str, ...] = (),
        convert: bool = False,
        explain: Explain | None = None,
    ) -> None:
        self._required = dict(required)
        self._optional = optional
        self._later = later
        self._convert = convert
        self._explain = explain or missing_fields_message
        self._verdicts: dict[type, Verdict] = {}
        self._reported: set[type] = set()

    def verdict(self, item_class: type) -> Verdict:
        verdict = self._verdicts.get(item_class)
        if verdict is None:
            verdict = self._verdicts[item_class] = self._judge(item_class)
        return verdict

    def prepare(self, item: Any) -> Any:
        """``item`` ready to take the fields: as is, converted to a dict, or a
        :class:`MissingFieldError` (its message: the class's problem)."""
        verdict = self.verdict(type(item))
        if verdict.convert:
            return ItemAdapter(item).asdict()
        if verdict.problem:
            raise MissingFieldError(verdict.problem)
        return item

    def first_report(self, item_class: type) -> bool:
        """True the first time it is asked for ``item_class``: its problem is said once."""
        if item_class in self._reported:
            return False
        self._reported.add(item_class)
        return True

    def _judge(self, item_class: type) -> Verdict:
        missing = [(self._required[field], field) for field in undeclared(item_class, self._required)]
        problem = self._explain(item_class, missing) if missing else ""
        lacking = set(undeclared(item_class, [field for _, field in self._optional]))
        skipped = tuple(pair for pair in self._optional if pair[1] in lacking)
        later = bool(undeclared(item_class, self._later))
        if self._convert and (problem or skipped or later):
            return Verdict("", True, self._optional, ())
        taken = tuple(pair for pair in self._optional if pair[1] not in lacking)
        return Verdict(problem, False, taken, skipped)


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
        #: ``(PAGE_TYPE, item field)``, when the page type is written.
        self.page_type = ((PAGE_TYPE, self.names.page_type),) if self.names.page_type else ()
        self._keep_page = config.keep_page
        required = {field: setting for setting, field in self.names.written(config.keep_page)}
        optional = self.page_type + self.metadata
        self.policy = FieldPolicy(required, optional, later_fields, config.convert_items)

    def prepare(self, item: Any) -> Any:
        """``item`` ready to take the fields: as is, converted to a dict, or an error."""
        return self.policy.prepare(item)

    def takes_metadata(self, item: Any) -> bool:
        """Whether ``item`` (as :meth:`prepare` returned it) takes any metadata field: if
        not, the metadata stage need not run for its page."""
        return any(name != PAGE_TYPE for name, _ in self.policy.verdict(type(item)).optional)

    def skipped_metadata(self, item: Any) -> tuple[tuple[str, str], ...]:
        """``(Metadata field, item field)`` pairs that ``item`` (as :meth:`prepare` returned
        it) cannot take: its class does not declare the item field."""
        return tuple(pair for pair in self.policy.verdict(type(item)).skipped if pair[0] != PAGE_TYPE)

    def undeclared_messages(self, item: Any) -> list[str]:
        """The INFO lines for the class of ``item`` (as :meth:`prepare` returned it): the
        optional fields it does not declare, the page type's and the metadata's; none when it
        lacks none."""
        item_class = type(item)
        lines = [
            undeclared_page_type_message(item_class, field)
            for name, field in self.policy.verdict(item_class).skipped
            if name == PAGE_TYPE
        ]
        metadata = self.skipped_metadata(item)
        if metadata:
            lines.append(undeclared_metadata_message(item_class, metadata))
        return lines

    def page_in(self, adapter: ItemAdapter) -> str | bytes | None:
        """The page HTML a spider put in the item's page field, if any (``""`` when it put
        an empty one: an empty document, not a missing field)."""
        if not self.names.page:
            return None
        value = adapter.get(self.names.page)
        return value if isinstance(value, (str, bytes)) else None

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
        optional = self.policy.verdict(type(adapter.item)).optional
        if self.page_type and self.page_type[0] in optional:
            adapter[names.page_type] = item_value(extraction.page_type)
        return self._attach_metadata(adapter, extraction.metadata, optional) if self.metadata else ()

    def _attach_metadata(
        self, adapter: ItemAdapter, metadata: Metadata, optional: tuple[tuple[str, str], ...]
    ) -> tuple[str, ...]:
        """Write the metadata fields of ``optional`` (those the item takes) where the item's
        field is empty; the fields the page gave a value for (see :meth:`attach`)."""
        found = []
        for name, field in optional:
            if name == PAGE_TYPE:
                continue
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


def item_info(
    extraction: Extraction,
    annotations: dict[str, Any] | None,
    fallback: str = "",
    result: FallbackResult | None = None,
) -> dict[str, Any]:
    """The item's ``mainc`` field: how the page was extracted, and the page's annotations.
    With a fallback set (``fallback``, its path; ``result``, its answer when it ran):
    ``fallback``, the path when its text is the item's, else False, and ``fallback_error``
    when it failed."""
    info: dict[str, Any] = {
        "algorithm": extraction.algorithm,
        "xpath": extraction.xpath,
        "score": extraction.score,
        "lang": extraction.lang,
        "milliseconds": round(extraction.milliseconds, 3),
        "reason": extraction.reason,
        "article": extraction.article,
        "page_type": extraction.page_type,
        "quality": round(extraction.quality, 3),
    }
    if fallback:
        info["fallback"] = fallback if result is not None and result.outcome == "used" else False
        if result is not None and result.error:
            info["fallback_error"] = result.error
    if annotations:
        info["page"] = annotations
    return info


def item_value(value: object) -> object:
    """A metadata value as an item holds it: a list for a tuple, ``None`` for ``""``."""
    if isinstance(value, tuple):
        return list(value)
    return None if value == "" else value


def cluster_fields_policy(convert: bool) -> FieldPolicy:
    """NearDuplicatePipeline's policy: typed items must declare :data:`CLUSTER_FIELDS`."""
    return FieldPolicy(
        dict.fromkeys(CLUSTER_FIELDS, ""), convert=convert, explain=missing_cluster_fields_message
    )


def write_cluster(adapter: ItemAdapter, assignment: Assignment | None) -> None:
    """``cluster_id`` and ``duplicate_of`` of ``assignment``; both "" for an item that was
    not clustered (too short, or the index failed)."""
    adapter["cluster_id"] = assignment.cluster_id if assignment else ""
    adapter["duplicate_of"] = assignment.duplicate_of if assignment else ""
