"""Every ``MAINC_`` setting in one registry: name, default, type and meaning.

The registry is the single source of the defaults (``MaincConfig`` and ``DedupConfig`` read
them from here, the add-on writes them at ``"addon"`` priority) and of the settings
reference in the documentation, whose tables are written from it
(``scripts/settings_docs.py``; a test fails while one is out of date), so code and
documentation cannot disagree. The defaults of the clustering parameters are
those of :class:`~scrapy_mainc.dedup.FingerprintParams` and
:class:`~scrapy_mainc.dedup.IndexParams`, which say where each value comes from. A test
checks that every ``MAINC_`` name the package reads is registered, and
:func:`unknown_settings` finds the registered name nearest a misspelt one. ``_reading``
reads a setting's value; ``_mainc_config`` and ``_dedup_config`` turn the values into the
configuration records.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from difflib import get_close_matches
from typing import Any

from ..core._limits import MAX_PAGE_BYTES
from ..core._pagetype import PAGE_TYPES
from ..dedup._params import FingerprintParams, IndexParams
from ._reading import is_unset

#: The clustering parameters' own defaults, which the MAINC_DEDUP_* settings take.
_FINGERPRINT = FingerprintParams()
_INDEX = IndexParams()


@dataclass(frozen=True, slots=True)
class Setting:
    """One documented setting."""

    name: str
    default: Any
    #: The accepted values, in words ("bool", "str or None", ...).
    kind: str
    #: What the setting does (reStructuredText/Markdown inline markup allowed).
    meaning: str
    #: Documentation section: "extraction", "output", "filters", "fields", "workers" or "dedup".
    group: str


def _extraction(name: str, default: Any, kind: str, meaning: str) -> Setting:
    return Setting(name, default, kind, meaning, "extraction")


def _field(name: str, default: str, meaning: str) -> Setting:
    return Setting(name, default, "str or None", meaning + " (``None``: leave the field out)", "fields")


def _workers(name: str, default: Any, kind: str, meaning: str) -> Setting:
    return Setting(name, default, kind, meaning, "workers")


def _dedup(name: str, default: Any, kind: str, meaning: str) -> Setting:
    return Setting(name, default, kind, meaning, "dedup")


#: What the outputs keep, how ``auto`` leans, and which items are kept (issue 21).
_CONTENT_SETTINGS: tuple[Setting, ...] = (
    Setting(
        "MAINC_FAVOR",
        "balanced",
        "str",
        "``precision``, ``balanced`` or ``recall``: how ``auto`` weighs boilerplate against "
        "content (``extract(favor=...)``; other algorithms ignore it)",
        "extraction",
    ),
    Setting(
        "MAINC_MARKDOWN_FIELD",
        None,
        "str or None",
        "item field for the article as Markdown (``Extraction.markdown``); ``None``, the "
        "default, renders none",
        "fields",
    ),
    Setting(
        "MAINC_INCLUDE_TABLES",
        True,
        "bool",
        "keep data tables (``False``: left out of the text, the HTML and the Markdown; layout "
        "tables holding the article stay)",
        "output",
    ),
    Setting(
        "MAINC_INCLUDE_LINKS",
        True,
        "bool",
        "keep links in the HTML and the Markdown (their text stays)",
        "output",
    ),
    Setting("MAINC_INCLUDE_IMAGES", True, "bool", "keep images in the HTML and the Markdown", "output"),
    Setting(
        "MAINC_INCLUDE_FORMATTING",
        True,
        "bool",
        "keep emphasis, code and other phrasing markup in the HTML and the Markdown (their text stays)",
        "output",
    ),
    Setting(
        "MAINC_LANGUAGES",
        [],
        "list of str",
        '``["en", "de"]``: drop items whose text is in another language (``DropItem``, counted in '
        "``mainc/dropped/language``, said once per language at INFO); items whose language is "
        "unknown are kept. Needs the language identifier: ``pip install pycld2`` (the ``lang`` extra)",
        "filters",
    ),
    Setting(
        "MAINC_PAGE_TYPES",
        [],
        "list of str",
        '``["article", "forum"]``: keep the items of these page types only (of '
        f"{', '.join(f'``{kind}``' for kind in PAGE_TYPES)}); the others are dropped "
        "(``DropItem``), counted in ``mainc/dropped/page_type``. ``article`` keeps the pages "
        "whose ``mainc['article']`` is true; a page of no type (an empty response, not HTML) is dropped, an "
        "item whose extraction failed kept. Empty, the default (or all seven): every item is kept",
        "filters",
    ),
    Setting(
        "MAINC_ARTICLES_ONLY",
        False,
        "bool",
        '``True`` is ``MAINC_PAGE_TYPES = ["article"]``: drop items whose page is not an article '
        "(``mainc['article']`` false: home pages, section fronts, topic pages, forums...), "
        "counted in ``mainc/dropped/not_article``. Setting both is an error",
        "filters",
    ),
    Setting(
        "MAINC_MIN_QUALITY",
        None,
        "float or None",
        "``0.5``: drop items whose quality estimate (``mainc['quality']``, the expected word F1 "
        "of the text) is under it (``DropItem``), counted in ``mainc/dropped/quality``; an item "
        "whose extraction failed, or whose text the fallback gave, is kept. ``None``, the "
        "default: none dropped",
        "filters",
    ),
    Setting(
        "MAINC_FALLBACK",
        None,
        "str or None",
        '``"trafilatura.extract"``: the dotted path of a callable ``(html, url) -> text or None`` '
        "run on the pages whose quality estimate is under ``MAINC_FALLBACK_BELOW``; its text "
        "replaces the extraction's when it returns some (``mainc['fallback']``: its path, "
        "else ``False``). A path that does not import, is not callable or cannot take ``(html, "
        "url)`` stops the crawl at start-up. ``None``, the default: no fallback",
        "extraction",
    ),
    Setting(
        "MAINC_FALLBACK_BELOW",
        0.3,
        "float",
        "the quality estimate under which ``MAINC_FALLBACK`` runs (0.3: 0.25% of the development "
        "pages, 6 of 2,436, and none of the article sets')",
        "extraction",
    ),
    Setting(
        "MAINC_FALLBACK_TIMEOUT",
        30.0,
        "float",
        "the fallback's time budget on a page, seconds, apart from ``MAINC_TIMEOUT``'s for the "
        "extraction; a fallback over it leaves the extraction's text, with ``fallback_error`` "
        "``timeout: ...`` (stat ``mainc/fallback/failed``)",
        "extraction",
    ),
)

#: Every setting, grouped as in the documentation.
REGISTRY: tuple[Setting, ...] = (
    _extraction(
        "MAINC_ENABLED",
        True,
        "bool",
        "``False`` disables the middlewares and the pipeline (they raise ``NotConfigured``)",
    ),
    _extraction(
        "MAINC_ALGORITHM",
        "auto",
        "str",
        "algorithm for every page, a name of ``scrapy_mainc.ALGORITHMS``",
    ),
    _extraction(
        "MAINC_DOMAIN_ALGORITHMS",
        {},
        "dict",
        '``{"example.cn": "econ"}``: algorithm per domain, subdomains included; the longest '
        "matching domain wins over the spider's ``mainc_algorithm`` and ``MAINC_ALGORITHM``",
    ),
    _extraction("MAINC_STRIP_COMMENTS", True, "bool", "remove reader-comment sections from the result"),
    _extraction(
        "MAINC_MAX_PAGE_SIZE",
        MAX_PAGE_BYTES,
        "int",
        "larger pages (bytes, or characters of decoded text) are not extracted: reason "
        "``page too large: ...``; the library's ``MAX_PAGE_BYTES`` (peak memory grows with the "
        "page, about 20 MB per MB of an article page)",
    ),
    _extraction(
        "MAINC_DROP_EMPTY",
        False,
        "bool",
        "drop items whose extraction found no text (``DropItem``, logged at DEBUG)",
    ),
    _extraction("MAINC_REDECODE", True, "bool", "let the downloader middleware replace a wrong decoding"),
    _extraction(
        "MAINC_METADATA_ENABLED",
        True,
        "bool",
        "run the metadata stage and write its fields (``MAINC_PUBLISHED_FIELD`` to "
        "``MAINC_TAGS_FIELD``): each only where the item's field is empty, ``None`` (``[]`` for "
        "a list) when the page does not say; typed items get those they declare (one INFO per "
        "item class names the others, items counted in ``mainc/metadata/undeclared``). "
        "``mainc/metadata/<field>`` counts the items whose page gave a value. ``False`` skips "
        "the stage (``extract(metadata=False)``), its fields and its stats",
    ),
    _field("MAINC_TEXT_FIELD", "main_text", "item field for the article text"),
    _field("MAINC_HTML_FIELD", "main_html", "item field for the cleaned, comment-stripped article HTML"),
    _field("MAINC_TITLE_FIELD", "title", "item field for the headline, written only when empty"),
    _field("MAINC_INFO_FIELD", "mainc", "item field for the extraction details"),
    _field(
        "MAINC_PAGE_TYPE_FIELD",
        "page_type",
        "item field for the page type (``article``, ``forum``, ``listing``...: "
        "``mainc['page_type']``), ``None`` in the item when the page has none; optional on typed "
        "items, like the metadata fields",
    ),
    _field(
        "MAINC_PAGE_FIELD",
        "raw_html",
        "item field a spider may put the page's HTML in; read before the attached response",
    ),
    _field(
        "MAINC_PUBLISHED_FIELD",
        "published",
        "item field for the original publication date, ISO 8601: ``2023-12-22``, or "
        "``2023-12-22T10:30:00+08:00`` when the page gives a time (with its offset if it gives "
        "one); ``None`` in the item when the page has none",
    ),
    _field(
        "MAINC_MODIFIED_FIELD",
        "modified",
        "item field for the date of the last modification, ISO 8601 like the publication date",
    ),
    _field(
        "MAINC_PUBLISHED_FROM_FIELD",
        "published_from",
        "item field for where the publication date came from: ``json-ld``, ``microdata``, "
        "``meta``, ``dateline`` or ``url`` (most trusted first; how accurate each was: "
        "docs/metadata.md)",
    ),
    _field(
        "MAINC_MODIFIED_FROM_FIELD",
        "modified_from",
        "item field for where the modification date came from, as ``MAINC_PUBLISHED_FROM_FIELD``",
    ),
    _field("MAINC_AUTHORS_FIELD", "authors", "item field for the list of author names, in page order"),
    _field("MAINC_SITE_NAME_FIELD", "site_name", "item field for the publication's name"),
    _field("MAINC_CANONICAL_URL_FIELD", "canonical_url", "item field for the absolute canonical URL"),
    _field("MAINC_DESCRIPTION_FIELD", "description", "item field for the page's summary of the article"),
    _field("MAINC_IMAGE_FIELD", "image", "item field for the absolute URL of the lead image"),
    _field("MAINC_SECTION_FIELD", "section", "item field for the section the article is in"),
    _field("MAINC_TAGS_FIELD", "tags", "item field for the list of keywords and tags"),
    Setting(
        "MAINC_KEEP_PAGE",
        False,
        "bool",
        "keep the page in ``MAINC_PAGE_FIELD`` after extraction (written there from the response "
        "if the spider did not)",
        "fields",
    ),
    Setting(
        "MAINC_CONVERT_ITEMS",
        False,
        "bool",
        "convert typed items that lack a field to dicts, ``NearDuplicatePipeline``'s "
        "``cluster_id`` and ``duplicate_of`` included (otherwise they pass unchanged, with an "
        "error logged once per item class)",
        "fields",
    ),
    _workers(
        "MAINC_WORKER_MODE",
        "process",
        "str",
        "where extraction runs: ``process`` (worker processes), ``thread`` or ``inline`` (the "
        "reactor thread)",
    ),
    _workers(
        "MAINC_WORKERS", None, "int or None", "number of worker processes or threads; ``None``: the CPU count"
    ),
    _workers(
        "MAINC_TIMEOUT",
        10.0,
        "float",
        "per-page time budget, seconds; a page over it gets reason ``timeout: ...``",
    ),
    _dedup(
        "MAINC_DEDUP_ENABLED",
        False,
        "bool",
        "turn near-duplicate clustering on (fingerprints in the workers, and "
        "``NearDuplicatePipeline`` through the add-on)",
    ),
    _dedup(
        "MAINC_DEDUP_THRESHOLD",
        _INDEX.threshold,
        "float",
        "estimated Jaccard similarity of shingle sets that makes a duplicate",
    ),
    _dedup(
        "MAINC_DEDUP_CONTAINMENT",
        _INDEX.containment,
        "float",
        "estimated share of the smaller text's shingles found in the larger that makes a "
        "duplicate (with ``MAINC_DEDUP_MIN_SIZE_RATIO``); ``0`` switches containment off",
    ),
    _dedup(
        "MAINC_DEDUP_MIN_SIZE_RATIO",
        _INDEX.min_size_ratio,
        "float",
        "containment counts only when the smaller text has at least this share of the "
        "larger's shingles (teasers and excerpts stay apart)",
    ),
    _dedup(
        "MAINC_DEDUP_DROP",
        False,
        "bool",
        "drop duplicates (``DropItem``, logged at DEBUG) instead of marking them",
    ),
    _dedup(
        "MAINC_DEDUP_MIN_WORDS",
        _FINGERPRINT.min_words,
        "int",
        "texts with fewer words are never clustered (``cluster_id`` is ``''``)",
    ),
    _dedup(
        "MAINC_DEDUP_NUM_PERM",
        _FINGERPRINT.num_perm,
        "int",
        "MinHash permutations (more: finer estimates, bigger fingerprints)",
    ),
    _dedup(
        "MAINC_DEDUP_REDIS_URL",
        "",
        "str",
        "``redis://``, ``rediss://`` or ``unix://`` URL of a shared index; in memory when empty "
        "(with ``MAINC_DEDUP_REDIS_CLUSTER``: any one node of the cluster)",
    ),
    _dedup(
        "MAINC_DEDUP_REDIS_CLUSTER",
        _INDEX.redis_cluster,
        "bool",
        "``MAINC_DEDUP_REDIS_URL`` names one node of a Redis Cluster: the index uses redis-py's "
        "cluster client, which finds the other nodes (only database 0 exists there)",
    ),
    _dedup(
        "MAINC_DEDUP_REDIS_KEY",
        _INDEX.redis_key,
        "str",
        "prefix of the index's keys: crawls with their own prefix keep their own indexes in "
        "one Redis or one cluster (no ``{`` or ``}``)",
    ),
    _dedup(
        "MAINC_DEDUP_REDIS_PARAMS",
        {},
        "dict",
        "more options of the Redis client, as for ``redis.Redis`` (``password``, ``username``, "
        "``ssl_ca_certs``, ``ssl_cert_reqs``, ``health_check_interval``...); not "
        "``decode_responses``, ``socket_timeout`` or ``socket_connect_timeout`` "
        "(``MAINC_DEDUP_REDIS_TIMEOUT`` sets those), nor ``client_name``",
    ),
    _dedup(
        "MAINC_DEDUP_REDIS_BUCKETS",
        _INDEX.redis_buckets,
        "int",
        "hashes per LSH band in Redis, a power of two near the number of clusters expected "
        "divided by 70; fixed when the index is created",
    ),
    _dedup(
        "MAINC_DEDUP_REDIS_REQUIRED",
        True,
        "bool",
        "an index that cannot be opened stops the crawl before it starts (no request, no "
        "feed; ``scrapy crawl`` exits with status 1) with one ERROR line; ``False``: an "
        "unreachable Redis leaves the crawl with an index in its own memory, not shared, said "
        "at WARNING",
    ),
    _dedup(
        "MAINC_DEDUP_REDIS_TIMEOUT",
        _INDEX.redis_timeout,
        "float",
        "seconds a Redis command may take (connecting included), and the longest an item "
        "waits for its cluster; then the item passes unclustered (``mainc/dedup/errors``)",
    ),
    _dedup(
        "MAINC_DEDUP_TEXT_FIELD",
        "main_text",
        "str",
        "item field with the text (the add-on keeps it equal to ``MAINC_TEXT_FIELD``)",
    ),
    _dedup(
        "MAINC_DEDUP_FINGERPRINT_FIELD",
        "fingerprint",
        "str or None",
        "item field with (or receiving) the fingerprint; ``None`` keeps it out of the items "
        "(``MaincPipeline`` hands the worker's fingerprint to ``NearDuplicatePipeline`` "
        "beside the item)",
    ),
    _dedup("MAINC_DEDUP_URL_FIELD", "url", "str", "item field with the page URL"),
    *_CONTENT_SETTINGS,
)

#: Name -> default of every registered setting.
DEFAULTS: dict[str, Any] = {setting.name: setting.default for setting in REGISTRY}
#: The prefix of every setting name, registered or not.
PREFIX = "MAINC_"
#: How alike (difflib's ratio, on the names without their prefix, which every name shares)
#: a registered name must be to be suggested for an unknown one: difflib's own default,
#: which finds a letter dropped, doubled or swapped (``ALGORITM``, ``DEDUP_ENABLE``).
SUGGESTION_CUTOFF = 0.6


#: Settings that do nothing unless another has a value: name -> the setting it needs.
NEEDS = {"MAINC_FALLBACK_BELOW": "MAINC_FALLBACK", "MAINC_FALLBACK_TIMEOUT": "MAINC_FALLBACK"}


def idle_settings(given: Iterable[str], value: Callable[[str], Any]) -> list[tuple[str, str]]:
    """``(name, needed)`` for each setting of ``given`` (names a user set) that does nothing
    because the setting it needs (:data:`NEEDS`) has no value (``value(name)``)."""
    return [(name, NEEDS[name]) for name in given if name in NEEDS and is_unset(value(NEEDS[name]))]


def unknown_settings(names: Iterable[str]) -> list[tuple[str, str]]:
    """``(name, nearest registered name or "")`` for every ``MAINC_`` name of ``names`` that
    is not registered, in the order given."""
    registered = [name.removeprefix(PREFIX) for name in DEFAULTS]
    unknown = []
    for name in names:
        if name.startswith(PREFIX) and name not in DEFAULTS:
            near = get_close_matches(name.removeprefix(PREFIX), registered, n=1, cutoff=SUGGESTION_CUTOFF)
            unknown.append((name, PREFIX + near[0] if near else ""))
    return unknown
