"""Reading a setting's value, from Scrapy's settings or from a plain mapping.

The configuration records (:class:`~._mainc_config.MaincConfig`,
:class:`~._dedup_config.DedupConfig`) read their settings through the few methods of
:class:`SettingsReader`: ``name in settings``, ``settings[name]``, ``get`` and the typed
getters ``getbool``, ``getint``, ``getfloat``, ``getdict``. A crawl's Scrapy ``Settings``
has them; a run with no crawl (the archive mode, ``mainc warc``) reads a plain mapping of
``MAINC_`` names through :class:`SettingValues`, whose getters convert values as Scrapy's
do (a test compares the two on every kind of value), so that ``-s NAME=VALUE`` means the
same to both. Nothing here imports Scrapy.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from typing import Any, Protocol


class SettingsReader(Protocol):
    """What the configuration records read settings through (Scrapy's ``BaseSettings``
    and :class:`SettingValues` both are one)."""

    def __contains__(self, name: Any) -> bool: ...

    def __getitem__(self, name: str) -> Any: ...

    def get(self, name: str, default: Any = None) -> Any: ...

    def getbool(self, name: str, default: bool = False) -> bool: ...

    def getint(self, name: str, default: int = 0) -> int: ...

    def getfloat(self, name: str, default: float = 0.0) -> float: ...

    def getdict(self, name: str, default: dict[Any, Any] | None = None) -> dict[Any, Any]: ...


#: The words that mean true and false in a setting given as text, besides ``1`` and ``0``.
_TRUE, _FALSE = frozenset({"True", "true"}), frozenset({"False", "false"})


class SettingValues(Mapping[str, Any]):
    """Setting values from a plain mapping, read as Scrapy's settings read theirs: a missing
    name is None, ``get`` gives the default for a missing or None value, and the getters
    convert text (``-s`` gives every value as text)."""

    def __init__(self, values: Mapping[str, Any] | None = None) -> None:
        self._values = dict(values or {})

    def __getitem__(self, name: str) -> Any:
        return self._values.get(name)

    def __contains__(self, name: object) -> bool:
        return name in self._values

    def __iter__(self) -> Iterator[str]:
        return iter(self._values)

    def __len__(self) -> int:
        return len(self._values)

    def get(self, name: str, default: Any = None) -> Any:
        value = self._values.get(name)
        return default if value is None else value

    def getbool(self, name: str, default: bool = False) -> bool:
        """``1``, ``"1"``, ``True``, ``"True"``, ``"true"`` are true; ``0``, ``"0"``,
        ``False``, ``"False"``, ``"false"`` false; anything else a ValueError."""
        value = self.get(name, default)
        try:
            return bool(int(value))
        except ValueError:
            if value in _TRUE:
                return True
            if value in _FALSE:
                return False
            raise ValueError(f"not a boolean: {value!r}") from None

    def getint(self, name: str, default: int = 0) -> int:
        return int(self.get(name, default))

    def getfloat(self, name: str, default: float = 0.0) -> float:
        return float(self.get(name, default))

    def getdict(self, name: str, default: dict[Any, Any] | None = None) -> dict[Any, Any]:
        """A dict, or a dict's JSON text."""
        value = self.get(name, default or {})
        return dict(json.loads(value) if isinstance(value, str) else value)


def is_unset(value: object) -> bool:
    """Whether a setting whose value may be None has none: None, or the text that ``-s
    NAME=`` or ``-s NAME=None`` gives (Scrapy keeps ``-s`` values as text)."""
    return value is None or (isinstance(value, str) and value in ("", "None"))


#: What each getter accepts, for the error it gives.
_GETTER_KINDS = {
    "getbool": "True or False",
    "getint": "a whole number",
    "getfloat": "a number",
    "getdict": "a dict (or its JSON text)",
}


def read_setting(settings: SettingsReader, getter: str, name: str, fallback: Any) -> Any:
    """``settings.<getter>(name, fallback)``; a value it cannot convert raises a ValueError
    that names the setting (Scrapy's own message does not). ``MaincConfig`` and
    ``DedupConfig`` read their settings with it."""
    try:
        return getattr(settings, getter)(name, fallback)
    except (TypeError, ValueError):
        kind = _GETTER_KINDS[getter]
        raise ValueError(f"{name} must be {kind}; got {settings.get(name)!r}") from None
