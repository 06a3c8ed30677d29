"""Parsing: the fallback for pages nested deeper than the parser allows; hidden elements."""

from __future__ import annotations

from lxml import html as lxml_html

from scrapy_mainc import extract
from scrapy_mainc.core._dom import flatten_deep_nesting, parse_html


def test_flattening_drops_only_the_tags_below_the_limit() -> None:
    page = "<div><p>one<b>two<i>three</i></b><br>four</p></div><p>five</p>"
    assert flatten_deep_nesting(page, limit=2) == "<div><p>onetwothreefour</p></div><p>five</p>"
    assert flatten_deep_nesting(page, limit=3) == "<div><p>one<b>twothree</b><br>four</p></div><p>five</p>"
    assert flatten_deep_nesting(page, limit=10) == page


def test_a_page_deeper_than_the_parser_limit_is_parsed_whole() -> None:
    depth = 3_000
    root = parse_html("<body><p>top</p>" + "<div>" * depth + "deep" + "</div>" * depth + "<p>end</p></body>")
    assert "".join(root.itertext()) == "topdeepend"
    assert max(len(list(node.iterancestors())) for node in root.iter()) < 2_048


def _paywalled(wrapper: str) -> str:
    """A story whose first two paragraphs show and whose other four a paywall hides,
    each in a hidden wrapper given by ``wrapper`` (a format string for the paragraph)."""
    sentence = "paragraph {}, a sentence of the story with words. It goes on.</p>"
    shown = "".join("<p>Shown " + sentence.format(n) for n in (1, 2))
    hidden = "".join(wrapper.format("<p>Hidden " + sentence.format(n)) for n in range(3, 7))
    return (
        "<html><head><title>Headline</title></head><body>"
        "<nav><a href='/'>Home</a> <a href='/a'>World</a></nav>"
        f"<article><h1>Headline</h1><div class='body'>{shown}"
        "<div class='offer'>Already a subscriber? Sign in</div>"
        f"{hidden}</div></article></body></html>"
    )


def test_a_paywalls_hidden_paragraphs_are_the_story() -> None:
    # A metered paywall ships the whole story and hides each further paragraph in an alike
    # wrapper: the story is all six paragraphs (before this rule, the two shown ones).
    page = _paywalled("<div class='locked' style='display:none'>{}<div class='slot'></div></div>")
    text = extract(page, metadata=False).text
    assert [line.split(",")[0] for line in text.split("\n") if line] == [
        "Shown paragraph 1", "Shown paragraph 2",
        "Hidden paragraph 3", "Hidden paragraph 4", "Hidden paragraph 5", "Hidden paragraph 6",
    ]  # fmt: skip


def test_hidden_panels_that_are_not_alike_stay_hidden() -> None:
    # Details of consent settings, each panel named for its service, and a FAQ's answers,
    # each hidden in its own item: neither is a paywall's continuation.
    services = _paywalled("<div class='details-' hidden>{}</div>")
    for n in range(3, 7):
        services = services.replace("class='details-'", f"class='details-{n}'", 1)
    faq = _paywalled("<div class='item'><div class='answer' style='display:none'>{}</div></div>")
    for page in (services, faq):
        assert "Hidden paragraph" not in extract(page, metadata=False).text


def test_two_hidden_wrappers_are_no_paywall() -> None:
    page = _paywalled("<div class='locked' style='display:none'>{}</div>").replace(
        "<div class='locked' style='display:none'>", "<div class='other' style='display:none'>", 2
    )
    text = extract(page, metadata=False).text
    assert "Hidden paragraph 3" not in text and "Hidden paragraph 4" not in text
    assert "Hidden paragraph 5" not in text  # two alike wrappers left: fewer than three


def _templated_post(marked: bool) -> str:
    """A blog post whose body a script renders from a template, beside a sidebar."""
    post = "".join(
        f"<p>Paragraph {n} of the post, a sentence with words. It goes on here.</p>" for n in range(4)
    )
    body = "itemprop='articleBody'" if marked else "class='post-body'"
    return (
        "<html><head><title>Safer browsing</title></head><body>"
        "<div class='post'><h2>Safer browsing</h2><div class='published'>May 19, 2020</div>"
        f"<div {body}><script type='text/template'>{post}</script></div><div>After.</div></div>"
        "<div class='sidebar'><p>The latest news and insights from us, on security and safety.</p></div>"
        "</body></html>"
    )


def test_a_script_template_in_the_marked_article_body_is_the_post() -> None:
    # before this rule the template was stripped with every script: the sidebar won
    result = extract(_templated_post(marked=True), metadata=False)
    assert result.text.count("of the post") == 4 and "latest news" not in result.text
    assert "mainc-template" not in result.html
    # the rendered template takes no sibling's XPath position in the caller's parse
    found = lxml_html.document_fromstring(_templated_post(marked=True)).xpath(result.xpath)
    assert found and found[0].get("itemprop") == "articleBody"
    # a template elsewhere is a script's, not the page's text
    assert "of the post" not in extract(_templated_post(marked=False), metadata=False).text
