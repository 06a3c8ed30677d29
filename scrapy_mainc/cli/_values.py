"""Option values that mean something: argparse types that refuse the others, so that
argparse says so as it says a wrong type (the usage, one error line, exit status 2)."""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable


def whole_number(minimum: int, refusal: str) -> Callable[[str], int]:
    """An argparse type: an integer of ``minimum`` or more; ``refusal``, with ``{!r}`` for
    the value given, says why another is refused."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            value = minimum - 1
        if value < minimum:
            raise argparse.ArgumentTypeError(refusal.format(text))
        return value

    return parse


def quality_share(text: str) -> float:
    """An argparse type: a quality estimate's threshold, a number from 0 to 1."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not 0 <= value <= 1:
        raise argparse.ArgumentTypeError(f"not a number from 0 to 1: {text!r}")
    return value


def positive_seconds(text: str) -> float:
    """An argparse type: a positive, finite number of seconds."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and value > 0):
        raise argparse.ArgumentTypeError(f"not a positive number of seconds: {text!r}")
    return value
