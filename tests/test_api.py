"""The public API: names, errors, the result record, the import boundary."""

from __future__ import annotations

import dataclasses
import subprocess
import sys

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


def test_the_core_does_not_import_scrapy() -> None:
    code = (
        "import sys, scrapy_mainc; scrapy_mainc.extract('<p>x, y.</p>');"
        "import scrapy_mainc.cli;"
        "bad = [m for m in ('scrapy', 'twisted') if m in sys.modules];"
        "print(bad); sys.exit(1 if bad else 0)"
    )
    completed = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert completed.returncode == 0, completed.stdout + completed.stderr


def test_version() -> None:
    assert scrapy_mainc.__version__
