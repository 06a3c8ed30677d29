"""Imports point one way: the layers of docs/development.md, and no cycle between modules.

A static check of every module of the package: every import counts, including lazy ones
inside functions and ``if TYPE_CHECKING:`` blocks (a type-only import is still a
dependency a reader has to follow).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

import scrapy_mainc

PACKAGE = Path(scrapy_mainc.__file__).parent

#: The layers, lowest first. A module may import from a lower layer, and from its own unit
#: (subpackage or module); two units of one layer (algorithms and metadata) are independent.
LAYERS: tuple[tuple[str, ...], ...] = (
    ("scrapy_mainc.core",),
    ("scrapy_mainc.algorithms", "scrapy_mainc.metadata"),
    ("scrapy_mainc._choice",),
    ("scrapy_mainc._extract",),
    ("scrapy_mainc.dedup", "scrapy_mainc.evaluation"),
    ("scrapy_mainc.config",),
    ("scrapy_mainc.items",),
    ("scrapy_mainc.integration",),
    ("scrapy_mainc.archive",),
    ("scrapy_mainc.cli",),
    ("scrapy_mainc.__main__",),
)
#: The package's ``__init__``: the public names, re-exported (the Scrapy layer's lazily).
#: It sits above every layer, and no module of the package imports it.
FACADE = "scrapy_mainc"


def _module_names() -> dict[str, Path]:
    names = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        names[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return names


MODULES = _module_names()


def _imported(module: str, path: Path) -> Iterator[str]:
    """The package modules ``module`` imports, anywhere in its source."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = package
            for _ in range(node.level - 1):
                base = base.rpartition(".")[0]
            stem = node.module or ""
            base = (f"{base}.{stem}" if stem else base) if node.level else stem
            # "from . import auto" and "from .x import y" (y a submodule) name modules too
            targets = [base, *(f"{base}.{alias.name}" for alias in node.names)]
        else:
            continue
        yield from (target for target in targets if target in MODULES)


def _graph() -> dict[str, set[str]]:
    return {module: set(_imported(module, path)) - {module} for module, path in MODULES.items()}


def _unit(module: str) -> tuple[int, str]:
    """(layer, unit) of ``module``: the unit is the layer entry it belongs to."""
    for layer, units in enumerate(LAYERS):
        for unit in units:
            if module == unit or module.startswith(unit + "."):
                return layer, unit
    raise AssertionError(f"{module} is in no layer: add it to LAYERS and docs/development.md")


def _violations(graph: dict[str, set[str]]) -> list[str]:
    found = []
    for module, targets in graph.items():
        if module == FACADE:
            continue
        layer, unit = _unit(module)
        for target in sorted(targets):
            if target == FACADE:
                found.append(f"{module} imports the package facade {FACADE}")
                continue
            target_layer, target_unit = _unit(target)
            if target_unit != unit and target_layer >= layer:
                found.append(f"{module} (layer {layer}) imports {target} (layer {target_layer})")
    return found


def _cycle(graph: dict[str, set[str]]) -> list[str]:
    """One import cycle of ``graph`` (without the facade), or []."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(module: str) -> list[str]:
        state[module] = 1
        path.append(module)
        for target in sorted(graph[module] - {FACADE}):
            if state.get(target) == 1:
                return [*path[path.index(target) :], target]
            if target not in state:
                found = visit(target)
                if found:
                    return found
        path.pop()
        state[module] = 2
        return []

    for module in sorted(graph):
        if module != FACADE and module not in state:
            found = visit(module)
            if found:
                return found
    return []


def test_every_module_is_in_a_layer() -> None:
    for module in MODULES:
        if module != FACADE:
            _unit(module)


def test_imports_point_down_the_layers() -> None:
    assert _violations(_graph()) == []


def test_the_archive_imports_no_private_module_of_the_scrapy_layer() -> None:
    """The archive mode makes its items with the item layer (``items``), as the pipeline
    does; of the Scrapy layer it may use only what a user may (``middleware.decoded_page``)."""
    graph = _graph()
    private = [
        f"{module} imports {target}"
        for module, targets in graph.items()
        if module.startswith("scrapy_mainc.archive")
        for target in sorted(targets)
        if target.startswith("scrapy_mainc.integration.") and target.rpartition(".")[2].startswith("_")
    ]
    assert private == []


def test_no_import_cycle_between_modules() -> None:
    assert _cycle(_graph()) == []


@pytest.mark.parametrize(
    ("graph", "expected"),
    [
        # core imports metadata: upward
        ({"scrapy_mainc.core._types": {"scrapy_mainc.metadata._stage"}}, 1),
        # algorithms and metadata are one layer, two units
        ({"scrapy_mainc.algorithms.auto": {"scrapy_mainc.metadata._stage"}}, 1),
        # an inner module imports the facade
        ({"scrapy_mainc.integration.command": {"scrapy_mainc"}}, 1),
        # the item layer imports the Scrapy layer, the configuration the item layer: upward
        ({"scrapy_mainc.items._runner": {"scrapy_mainc.integration.pipeline"}}, 1),
        ({"scrapy_mainc.config._offline": {"scrapy_mainc.items._runner"}}, 1),
        # the archive mode over the item layer and the Scrapy layer's public modules: down
        (
            {
                "scrapy_mainc.archive._items": {
                    "scrapy_mainc.items._runner",
                    "scrapy_mainc.integration.middleware",
                }
            },
            0,
        ),
        # downward and within a unit: fine
        (
            {
                "scrapy_mainc.integration.pipeline": {
                    "scrapy_mainc._extract",
                    "scrapy_mainc.config._mainc_config",
                }
            },
            0,
        ),
    ],
)
def test_the_layer_check_finds_upward_imports(graph: dict[str, set[str]], expected: int) -> None:
    assert len(_violations(graph)) == expected


def test_the_import_reader_sees_type_only_lazy_and_submodule_imports(tmp_path: Path) -> None:
    source = (
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from .auto import AutoParams\n"
        "def f():\n    from ..core import _stats\n"
        "from . import wlr\n"
    )
    path = tmp_path / "_context.py"
    path.write_text(source, encoding="utf-8")
    assert set(_imported("scrapy_mainc.algorithms._context", path)) == {
        "scrapy_mainc.algorithms",
        "scrapy_mainc.algorithms.auto",
        "scrapy_mainc.algorithms.wlr",
        "scrapy_mainc.core",
        "scrapy_mainc.core._stats",
    }


def test_the_cycle_check_finds_a_cycle() -> None:
    context, auto = "scrapy_mainc.algorithms._context", "scrapy_mainc.algorithms.auto"
    assert _cycle({context: {auto}, auto: {context}}) == [context, auto, context]
    assert _cycle({context: set(), auto: {context}}) == []
