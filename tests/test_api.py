"""The public API: names, errors, the result record, the import boundary."""

from __future__ import annotations

import ast
import dataclasses
import importlib
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from lxml import html as lxml_html

import scrapy_mainc
from scrapy_mainc import ALGORITHMS, extract

EXPECTED_NAMES = {
    "corex", "wlr", "cnr", "wnr", "clr", "nce", "econ", "cetd-ds", "cectd-ds", "cectd-s", "auto",
}  # fmt: skip
PAGE = "<html><body><div><p>One sentence, with words. Another one follows here.</p></div></body></html>"


def test_registry_names() -> None:
    assert set(ALGORITHMS) <= EXPECTED_NAMES
    assert "auto" in ALGORITHMS
    with pytest.raises(TypeError):
        ALGORITHMS["mine"] = ALGORITHMS["auto"]  # type: ignore[index]


def test_unknown_algorithm_lists_the_valid_names() -> None:
    with pytest.raises(ValueError, match="unknown algorithm 'nope'.*auto"):
        extract(PAGE, algorithm="nope")


def test_unknown_parameter_is_a_value_error() -> None:
    with pytest.raises(ValueError, match="unknown parameter"):
        extract(PAGE, algorithm="cectd-ds", no_such_parameter=1)


def test_parameters_override_defaults() -> None:
    algorithm = ALGORITHMS["cectd-ds"]
    assert algorithm.params(density="td").density == "td"
    assert algorithm.defaults.density == "ctd"


def test_wrong_input_type_is_a_type_error() -> None:
    with pytest.raises(TypeError):
        extract(12345)  # type: ignore[arg-type]


def test_extraction_is_frozen_and_complete() -> None:
    result = extract(PAGE)
    assert {field.name for field in dataclasses.fields(result)} >= {
        "text", "html", "title", "algorithm", "xpath", "score", "lang", "reason",
    }  # fmt: skip
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.text = "x"  # type: ignore[misc]
    assert result.text == "One sentence, with words. Another one follows here."
    assert result.milliseconds > 0


def test_xpath_addresses_the_callers_parse() -> None:
    page = (
        "<html><body><div style='display:none'>hidden</div><div><p>Navigation</p></div>"
        "<div><p>The story, in one long sentence with commas, periods. And more words here.</p>"
        "<p>A second paragraph, also long enough to matter. It ends here.</p></div></body></html>"
    )
    result = extract(page, algorithm="cectd-ds")
    found = lxml_html.document_fromstring(page).xpath(result.xpath)
    assert found and "The story" in found[0].text_content()


#: Modules that may import Scrapy: the Scrapy layer (tests/test_layers.py keeps the rest below
#: it), and the body of ``mainc crawl``, beside its command (imported only when crawling).
SCRAPY_LAYER = ("scrapy_mainc.integration", "scrapy_mainc.cli._crawl_job")
#: The layers that load Scrapy without importing any of it themselves (the static check
#: below): the item layer reads and writes items through itemadapter, which loads Scrapy where
#: it is installed, and the archive mode decodes pages with the Scrapy layer's response classes.
USES_THE_SCRAPY_LAYER = ("scrapy_mainc.items", "scrapy_mainc.archive")


def _core_modules(leave_out: tuple[str, ...] = SCRAPY_LAYER) -> list[str]:
    package = Path(scrapy_mainc.__file__).parent
    names = []
    for path in sorted(package.rglob("*.py")):
        parts = path.relative_to(package.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        if name != "scrapy_mainc.__main__" and not name.startswith(leave_out):
            names.append(name)
    return names


def test_the_core_does_not_import_scrapy() -> None:
    """Every module below the Scrapy layer, and the command line, imports (and extracts)
    without Scrapy or Twisted."""
    modules = _core_modules(SCRAPY_LAYER + USES_THE_SCRAPY_LAYER)
    assert "scrapy_mainc.cli._warc" in modules and "scrapy_mainc.archive._items" not in modules
    assert "scrapy_mainc.config._mainc_config" in modules and "scrapy_mainc.items._runner" not in modules
    assert "scrapy_mainc._extract" in modules and "scrapy_mainc.dedup._index" in modules
    code = (
        "import importlib, sys, scrapy_mainc; scrapy_mainc.extract('<p>x, y.</p>');"
        f"[importlib.import_module(m) for m in {modules!r}];"
        "bad = [m for m in ('scrapy', 'twisted') if m in sys.modules];"
        "print(bad); sys.exit(1 if bad else 0)"
    )
    completed = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert completed.returncode == 0, completed.stdout + completed.stderr


def _runtime_imports(tree: ast.AST) -> Iterator[str]:
    """Top-level names of the modules ``tree`` imports, ``if TYPE_CHECKING:`` blocks left out."""
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            yield from (name for child in node.orelse for name in _runtime_imports(child))
            continue
        if isinstance(node, ast.Import):
            yield from (alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            yield node.module.split(".")[0]
        yield from _runtime_imports(node)


def test_only_the_scrapy_layer_imports_scrapy_at_run_time() -> None:
    """A static check of every module, lazy imports inside functions included."""
    root = Path(scrapy_mainc.__file__).parent.parent
    offenders = []
    for name in _core_modules():
        path = root.joinpath(*name.split(".")).with_suffix(".py")
        if not path.exists():
            path = root.joinpath(*name.split("."), "__init__.py")
        if {"scrapy", "twisted"} & set(_runtime_imports(ast.parse(path.read_text(encoding="utf-8")))):
            offenders.append(name)
    assert offenders == []


def test_the_static_check_sees_lazy_imports() -> None:
    source = "if TYPE_CHECKING:\n    import scrapy\ndef f():\n    from twisted.internet import reactor\n"
    assert list(_runtime_imports(ast.parse(source))) == ["twisted"]


@pytest.mark.parametrize(
    ("path", "name"),
    [
        ("scrapy_mainc", "Addon"),
        ("scrapy_mainc", "MaincDownloaderMiddleware"),
        ("scrapy_mainc", "MaincSpiderMiddleware"),
        ("scrapy_mainc", "MaincPipeline"),
        ("scrapy_mainc", "NearDuplicatePipeline"),
        ("scrapy_mainc.integration.command", "Command"),
    ],
)
def test_public_import_paths_name_the_scrapy_layer_classes(path: str, name: str) -> None:
    component = getattr(importlib.import_module(path), name)
    assert component.__module__.startswith("scrapy_mainc.integration.")
    assert getattr(importlib.import_module(component.__module__), name) is component


def test_version() -> None:
    assert scrapy_mainc.__version__


MINISTER = "The minister said on Tuesday that the budget would rise, a lot. "
MINISTER_PARAGRAPH = "<p>" + MINISTER * 4 + "</p>"


def _comment_blocks(count: int) -> str:
    blocks = "".join(
        f"<div class='comment'><span class='author'>reader{n}</span> "
        f"<span class='date'>2024-01-02 10:{n % 60:02d}</span><p>A comment, number {n}, short.</p></div>"
        for n in range(count)
    )
    article = f"<article>{MINISTER_PARAGRAPH * 10}<section class='comments'>{blocks}</section></article>"
    return f"<html><body>{article}</body></html>"


def test_milliseconds_count_the_whole_extraction() -> None:
    # freeing a tree whose excluded subtrees rendering had detached took quadratic time,
    # and outside the measured milliseconds (17 s reported as 143 ms for 8,000 blocks)
    page = _comment_blocks(3_000)
    started = time.perf_counter()
    result = extract(page)
    wall = (time.perf_counter() - started) * 1000
    assert "A comment, number" not in result.text
    assert result.milliseconds > 0.5 * wall
