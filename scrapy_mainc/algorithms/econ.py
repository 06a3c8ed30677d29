"""Placeholder: being implemented (see the extraction-core issue)."""

from __future__ import annotations

from ._base import Algorithm

VARIANTS: tuple[Algorithm, ...] = ()
