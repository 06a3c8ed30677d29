"""``auto``, the default algorithm.

For now: CECTD-DS on every page (the extraction-core issue allows that; a combined default
that beats the peers is its own issue).
"""

from __future__ import annotations

from . import cetd
from ._base import Algorithm

VARIANTS = (
    Algorithm("auto", "the default extractor (currently CECTD-DS)", cetd.select, cetd.CetdParams()),
)
