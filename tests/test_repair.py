"""Repairs of what a browser shows: a no-script fallback, streamed segments, a page nested
in a button (:mod:`scrapy_mainc.core._repair`)."""

from __future__ import annotations

from benchmarks.quality import ablation
from scrapy_mainc import extract
from scrapy_mainc.core._dom import parse_html, prepare
from scrapy_mainc.core._repair import (
    BUTTON_MAX_CHARS,
    NOSCRIPT_MIN_CHARS,
    REVEALED_NOSCRIPT_TAG,
    page_wrappers,
    place_streamed_segments,
    release_swallowed,
    repairable,
    reveal_noscript,
)

POST = "<p>I tried the new release on two machines, and the import still fails on both. Any idea why?</p>"


def _body(html: str):  # type: ignore[no-untyped-def]
    return parse_html(f"<html><body>{html}</body></html>").find("body")


def test_a_script_rendered_thread_shows_its_noscript_fallback() -> None:
    shell = "<div id='app'><div class='splash'></div></div><script>boot()</script>"
    thread = f"<noscript><div class='topic'><h1>Import fails</h1>{POST * 4}</div></noscript>"
    result = extract(f"<html><body>{shell}{thread}</body></html>")
    assert result.text.count("Any idea why?") == 4


def test_a_noscript_beside_a_page_of_text_stays_out() -> None:
    story = "<article>" + POST * 6 + "</article>"
    body = _body(
        story + "<noscript><p>" + "Please enable JavaScript to use the comments. " * 10 + "</p></noscript>"
    )
    reveal_noscript(body, repairable(body).noscripts)
    assert [element.tag for element in body.iter("noscript")] == ["noscript"]


def test_the_noscript_threshold_is_exact() -> None:
    line = "x" * (NOSCRIPT_MIN_CHARS - 1)
    short = _body(f"<noscript><p>{line}</p></noscript>")
    reveal_noscript(short, repairable(short).noscripts)
    assert next(short.iter(REVEALED_NOSCRIPT_TAG), None) is None
    enough = _body(f"<noscript><p>{line}y</p></noscript>")
    reveal_noscript(enough, repairable(enough).noscripts)
    assert next(enough.iter(REVEALED_NOSCRIPT_TAG), None) is not None


def test_the_visible_share_decides() -> None:
    hidden = "h" * 1000
    # visible text of 249 characters (under a quarter of 1000): the fallback shows
    revealed = _body(f"<p>{'v' * 249}</p><noscript><p>{hidden}</p></noscript>")
    reveal_noscript(revealed, repairable(revealed).noscripts)
    assert next(revealed.iter(REVEALED_NOSCRIPT_TAG), None) is not None
    kept_out = _body(f"<p>{'v' * 250}</p><noscript><p>{hidden}</p></noscript>")
    reveal_noscript(kept_out, repairable(kept_out).noscripts)
    assert next(kept_out.iter(REVEALED_NOSCRIPT_TAG), None) is None


def test_a_streamed_segment_takes_its_placeholder_s_place() -> None:
    body = _body(
        "<main><h1>Title</h1><template id='B:0'></template><footer>foot</footer></main>"
        "<div hidden id='S:0'><p>The streamed story.</p></div><div hidden id='S:7'><p>orphan</p></div>"
    )
    place_streamed_segments(body, repairable(body).templates)
    main = body.find("main")
    assert [child.tag for child in main] == ["h1", "div", "template", "footer"]
    assert main[1].get("hidden") is None and main[1].findtext("p") == "The streamed story."
    orphan = body.xpath("div[@id='S:7']")[0]
    assert orphan.get("hidden") is not None  # no placeholder: it stays as it was


def test_a_pending_segment_fills_its_placeholder_inside_another_segment() -> None:
    # React's stream: a segment still pending inside another leaves <template id="P:n">
    # for its own, sent later with the same number.
    body = _body(
        "<main><h1>Title</h1><template id='B:0'></template><p>after</p></main>"
        "<div hidden id='S:0'><p>First part.</p><template id='P:1'></template></div>"
        "<div hidden id='S:1'><p>Second part.</p></div>"
    )
    place_streamed_segments(body, repairable(body).templates)
    assert "".join(body.find("main").itertext()) == "TitleFirst part.Second part.after"
    assert next(body.iterfind(".//div[@hidden]"), None) is None


def test_a_streamed_story_is_extracted() -> None:
    page = (
        "<html><body><nav><a href='/'>Home</a></nav><main><template id='B:1'></template></main>"
        f"<div hidden id='S:1'><article>{POST * 5}</article></div></body></html>"
    )
    assert "I tried the new release" in extract(page).text


def test_a_page_nested_in_a_button_comes_out_in_order() -> None:
    story = POST * 8
    body = _body(f"<header><button>Menu<div><div></button></header><main>{story}</main>tail")
    release_swallowed(body, repairable(body).buttons)
    assert next(body.iter("button"), None) is None
    assert "".join(body.itertext()).startswith("Menu") and body.find(".//main") is not None
    prepare(body.getroottree().getroot())
    assert "".join(body.itertext()).startswith("Menu") and "Any idea why?" in "".join(body.itertext())


def test_a_button_label_stays_a_button() -> None:
    label = "b" * BUTTON_MAX_CHARS
    body = _body(f"<p>text</p><button>{label}</button>")
    release_swallowed(body, repairable(body).buttons)
    assert body.find("button").text == label


def test_control_characters_in_what_moves_are_kept_as_parsed() -> None:
    story = "<p>Line\x0cwith a form feed, then the words of a story go on and on here.</p>" * 10
    result = extract(f"<html><body><button>\x01<div><div></button>\x02{story}</body></html>")
    assert result.text.count("the words of a story") == 10
    streamed = f"<main><template id='B:0'></template>\x03</main><div hidden id='S:0'>{story}</div>\x04"
    assert extract(f"<html><body>{streamed}</body></html>").text.count("the words of a story") == 10


def test_extract_reads_a_page_nested_in_a_button() -> None:
    page = f"<html><body><button><div><div></button><article>{POST * 6}</article></body></html>"
    assert extract(page).text.count("Any idea why?") == 6


def test_a_page_hidden_until_its_scripts_run_is_shown() -> None:
    page = (
        "<html><body><div id='root'><div style='visibility:hidden;min-height:100vh'>"
        f"<header><a href='/'>Home</a></header><main><h1>Import fails</h1>{POST * 5}</main>"
        "<div style='display:none'><p>A hidden panel with a sentence of its own, never shown here.</p></div>"
        "</div></div></body></html>"
    )
    text = extract(page).text
    assert text.count("Any idea why?") == 5 and "hidden panel" not in text


def test_page_wrappers_are_the_headline_s_and_main_s_ancestors() -> None:
    body = _body(
        "<div id='a'><div id='b'><h1>T</h1></div><main id='m'><p>x</p></main></div><div id='c'></div>"
    )
    assert {element.get("id") for element in page_wrappers(body) if element.get("id")} == {"a", "b", "m"}
    # a hidden dialog holding a later heading is no wrapper of the page's first one
    body = _body("<h1>T</h1><div id='d' style='display:none'><h1>Sign up</h1></div>")
    assert body.xpath("div[@id='d']")[0] not in page_wrappers(body)


def test_the_ablation_switches_each_repair_off() -> None:
    # benchmarks/quality/ablation.py measures each repair by patching it out; a patch that no longer
    # fits the code it replaces would stop the ablation (or measure nothing).
    pages = {
        "noscript": "<div id='app'></div><script>boot()</script>"
        f"<noscript><div class='topic'><h1>Import fails</h1>{POST * 4}</div></noscript>",
        "streamed": "<main><template id='B:1'></template></main>"
        f"<div hidden id='S:1'><article>{POST * 5}</article></div>",
        "button": f"<button><div><div></button><article>{POST * 6}</article>",
        "hidden page": "<div id='root'><div style='visibility:hidden'>"
        f"<main><h1>Import fails</h1>{POST * 5}</main></div></div>",
    }
    for name, body in pages.items():
        page = f"<html><body>{body}</body></html>"
        assert "Any idea why?" in extract(page).text, name
        with ablation.patched((name,)):
            assert "Any idea why?" not in extract(page).text, name
        assert "Any idea why?" in extract(page).text, name  # restored
