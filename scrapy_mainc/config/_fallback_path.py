"""``MAINC_FALLBACK``'s value: the dotted path of a callable, checked when the settings are
read (:func:`load_fallback`), so that a path that cannot be used stops the crawl before it
starts. The fallback itself runs in the worker (``items._fallback``)."""

from __future__ import annotations

import inspect
from collections.abc import Callable
from importlib import import_module
from typing import Any


def fallback_module(path: str) -> str:
    """The module that ``path`` names the callable in (``trafilatura`` of
    ``trafilatura.extract``, ``package.module`` of ``package.module:function``); a ValueError
    when ``path`` names none."""
    return _split(path)[0]


def _split(path: str) -> tuple[str, str]:
    module_name, sep, attribute = path.partition(":")
    if not sep:
        module_name, _, attribute = path.rpartition(".")
    if not module_name or not attribute:
        raise ValueError(
            f"MAINC_FALLBACK must be the dotted path of a callable, such as "
            f"'trafilatura.extract' or 'package.module:function'; got {path!r}"
        )
    return module_name, attribute


def load_fallback(path: str) -> Callable[..., Any]:
    """The callable named by ``path``; a ValueError saying why when it cannot be imported
    or is not callable."""
    module_name, attribute = _split(path)
    try:
        target: Any = import_module(module_name)
    except Exception as exc:  # noqa: BLE001 - any import failure is the same user error
        raise ValueError(
            f"MAINC_FALLBACK = {path!r}: cannot import {module_name!r}: {type(exc).__name__}: {exc}"
        ) from exc
    for name in attribute.split("."):
        if not hasattr(target, name):
            raise ValueError(f"MAINC_FALLBACK = {path!r}: {module_name!r} has no {attribute!r}")
        target = getattr(target, name)
    if not callable(target):
        raise ValueError(
            f"MAINC_FALLBACK = {path!r} is not callable (a {type(target).__name__}); it must take "
            "the page's HTML and URL and return its text or None"
        )
    return target  # type: ignore[no-any-return]


def check_fallback(path: str) -> None:
    """A ValueError, at start-up, when ``path`` cannot be used: it does not import, is not
    callable, or cannot be called as the worker calls it, ``fallback(html, url)`` (a
    callable whose signature Python cannot read is let through)."""
    target = load_fallback(path)
    try:
        signature = inspect.signature(target)
    except (TypeError, ValueError):
        return
    try:
        signature.bind("", "")
    except TypeError as exc:
        raise ValueError(
            f"MAINC_FALLBACK = {path!r} cannot be called with a page's HTML and URL ({exc}); "
            "it must take them, as two positional arguments, and return the page's text or None"
        ) from None
