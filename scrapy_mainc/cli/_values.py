"""Option values that mean something: argparse types that refuse the others, so that
argparse says so as it says a wrong type (the usage, one error line, exit status 2)."""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable


def positive_int(note: str = "") -> Callable[[str], int]:
    """An argparse type: an integer of 1 or more (``note`` follows the refusal)."""

    def parse(text: str) -> int:
        value = _integer(text)
        if value is None or value < 1:
            raise argparse.ArgumentTypeError(f"not a positive integer: {text!r}{note}")
        return value

    return parse


def zero_or_positive_int(zero: str) -> Callable[[str], int]:
    """An argparse type: 0 (which means ``zero``) or a positive integer."""

    def parse(text: str) -> int:
        value = _integer(text)
        if value is None or value < 0:
            raise argparse.ArgumentTypeError(f"not 0 ({zero}) or a positive integer: {text!r}")
        return value

    return parse


def positive_seconds(text: str) -> float:
    """An argparse type: a positive, finite number of seconds."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and value > 0):
        raise argparse.ArgumentTypeError(f"not a positive number of seconds: {text!r}")
    return value


def _integer(text: str) -> int | None:
    try:
        return int(text)
    except ValueError:
        return None
