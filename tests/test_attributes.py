"""The cap on attributes per element (libxml2 builds an element in time quadratic in them)."""

from __future__ import annotations

import pytest

from scrapy_mainc import ALGORITHMS, extract
from scrapy_mainc.core._attributes import MAX_ATTRIBUTES, attributes_reason

ARTICLE = (
    "<article>" + "<p>The minister said on Tuesday that the budget would rise, a lot.</p>" * 5 + "</article>"
)
OVER = f"too many attributes: an element has more than {MAX_ATTRIBUTES:,}"


def _page(tag: str) -> str:
    return f"<html><body>{ARTICLE}{tag}</body></html>"


def _names(count: int, separator: str = " ", prefix: str = "a") -> str:
    return separator.join(f"{prefix}{n}" for n in range(count))


@pytest.mark.parametrize("name", sorted(ALGORITHMS))
def test_an_element_with_40000_attributes_is_not_parsed(name: str) -> None:
    result = extract(_page(f"<div {_names(40_000)}>text</div>"), algorithm=name)
    assert (result.text, result.reason) == ("", OVER)


def test_the_cap_itself_is_allowed() -> None:
    assert attributes_reason(_page(f"<div {_names(MAX_ATTRIBUTES)}>text</div>")) == ""
    assert attributes_reason(_page(f"<div {_names(MAX_ATTRIBUTES + 1)}>text</div>")) == OVER
    assert attributes_reason(_page(f"<div\n{_names(MAX_ATTRIBUTES + 1, chr(10))}/>")) == OVER


@pytest.mark.parametrize(
    "attributes",
    [
        _names(MAX_ATTRIBUTES + 1, prefix="<a"),  # "<" is a name character inside a tag
        " ".join(f'a{n}="x"' for n in range(MAX_ATTRIBUTES + 1)),
        "".join(f'a{n}="x"' for n in range(MAX_ATTRIBUTES + 1)),  # no space after a quoted value
        " ".join(f"a{n}=x/y" for n in range(MAX_ATTRIBUTES + 1)),
        "/".join(f"a{n}" for n in range(MAX_ATTRIBUTES + 1)),
        " ".join(f'a{n}="<b"' for n in range(MAX_ATTRIBUTES + 1)),  # "<" in values
    ],
)
def test_attribute_lists_as_the_tokenizer_reads_them(attributes: str) -> None:
    assert attributes_reason(_page(f"<div {attributes}>text</div>")) == OVER


@pytest.mark.parametrize(
    "markup",
    [
        f"<script>if (a<b {_names(1000)}) x();</script>",  # script text, not a tag
        f"<style>a<b {_names(1000)} {{}}</style>",
        f"<textarea><b {_names(1000)}></textarea>",
        f"<!-- <b {_names(1000)}> -->",
        f"</div {_names(1000)}>",  # attributes of end tags are never built
        f"<script><!--<script></script><b {_names(1000)}>--></script>",  # double-escaped
        f'<div title="<b {_names(1000)}>">text</div>',  # inside a quoted value
    ],
)
def test_what_is_not_an_element_is_not_counted(markup: str) -> None:
    assert attributes_reason(_page(markup)) == ""


def test_a_script_that_ends_early_does_not_hide_an_element() -> None:
    page = _page(f"<script><!-- </script><b {_names(1000)}>-->")  # escaped, not double-escaped
    assert attributes_reason(page) == OVER


def test_an_upper_case_script_end_does_not_hide_an_element() -> None:
    assert attributes_reason(_page(f"<script>x = 1;</SCRIPT><b {_names(1000)}>")) == OVER
    upper_script = f"<SCRIPT>if (a<b {_names(1000)}) x();</SCRIPT>"  # not passed over: counted exactly
    assert attributes_reason(_page(upper_script)) == ""
