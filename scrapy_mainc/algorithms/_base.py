"""The algorithm interface: a named selection function with a frozen parameters record."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..core._types import Document, Selection

SelectFunction = Callable[[Document, Any], Selection]


@dataclass(frozen=True, slots=True)
class Algorithm:
    """A registered extraction algorithm.

    ``select`` scores the shared statistics of a prepared :class:`Document` and returns the
    chosen nodes; ``defaults`` is its frozen parameters dataclass holding the paper's
    values. Variants of one method (WLR's ratios, CETD's densities) share ``select`` and
    differ in ``defaults``.
    """

    name: str
    summary: str
    select: SelectFunction
    defaults: Any

    def params(self, **overrides: Any) -> Any:
        """The default parameters with ``overrides`` applied; unknown names raise ValueError."""
        if not overrides:
            return self.defaults
        known = {field.name for field in dataclasses.fields(self.defaults)}
        unknown = sorted(set(overrides) - known)
        if unknown:
            raise ValueError(
                f"unknown parameter(s) {', '.join(unknown)} for algorithm {self.name!r}; "
                f"valid: {', '.join(sorted(known))}"
            )
        return dataclasses.replace(self.defaults, **overrides)
