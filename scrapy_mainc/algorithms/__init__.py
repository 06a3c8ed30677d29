"""The registry of extraction algorithms, looked up by name.

Each algorithm module exports ``VARIANTS``, a tuple of :class:`Algorithm` records; the
registry is their union, in the order below, plus ``auto``.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from . import auto, cetd, corex, econ, nce, wlr
from ._base import Algorithm

_MODULES = (corex, wlr, nce, econ, cetd, auto)

#: Read-only mapping from algorithm name to :class:`Algorithm`.
ALGORITHMS: Mapping[str, Algorithm] = MappingProxyType(
    {algorithm.name: algorithm for module in _MODULES for algorithm in module.VARIANTS}
)


def get_algorithm(name: str) -> Algorithm:
    """The algorithm registered as ``name``; a ValueError lists the valid names otherwise."""
    try:
        return ALGORITHMS[name]
    except (KeyError, TypeError):
        raise ValueError(f"unknown algorithm {name!r}; valid: {', '.join(ALGORITHMS)}") from None


__all__ = ["ALGORITHMS", "Algorithm", "get_algorithm"]
