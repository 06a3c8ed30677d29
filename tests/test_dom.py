"""Parsing: the fallback for pages nested deeper than the parser allows; hidden elements and dialogs."""

from __future__ import annotations

import pytest
from lxml import html as lxml_html

from scrapy_mainc import Extraction, extract, extract_tree
from scrapy_mainc.core._dom import close_void_elements, flatten_deep_nesting, parse_html, prepare
from scrapy_mainc.core._tags import HOLDING_VOID_TAGS
from scrapy_mainc.core._text import clean_text


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


def _product_with(dialog: str) -> str:
    """A product's page whose footer holds ``dialog`` (a format string for its text): a
    privacy policy far longer than the product's description."""
    policy = "".join(
        f"<p>Clause {n}: we collect and process personal information, as this policy says.</p>"
        for n in range(40)
    )
    return (
        "<html><head><title>Wool Runner</title></head><body><main><h1>Wool Runner</h1>"
        "<p>A true original, our runner combines soft wool with comfort, all day long.</p>"
        "<p>Machine washable: remove the insoles and laces and wash them apart.</p></main>"
        f"<footer><a href='/privacy'>Privacy</a>{dialog.format(policy)}</footer></body></html>"
    )


@pytest.mark.parametrize(
    "dialog",
    [
        "<div role='dialog' aria-modal='true' class='modal'>{}</div>",
        "<div aria-modal='True'><div>{}</div></div>",
        "<div role='Dialog presentation'>{}</div>",
        "<div role='alertdialog'>{}</div>",
        "<dialog>{}</dialog>",
    ],
)
def test_a_dialog_is_not_the_page(dialog: str) -> None:
    # A page shows a dialog over itself when the reader opens it: the policy is no content
    # (before this rule, the largest block of the page and the text chosen).
    result = extract(_product_with(dialog), metadata=False, page_type="product")
    assert "Clause" not in result.text
    assert "A true original" in result.text and "Machine washable" in result.text


@pytest.mark.parametrize(
    "shown", ["<div>{}</div>", "<dialog open>{}</dialog>", "<div role='region' aria-modal='false'>{}</div>"]
)
def test_an_open_dialog_or_another_role_is_prepared_as_any_element(shown: str) -> None:
    body, _, _ = prepare(lxml_html.document_fromstring(_product_with(shown)))
    assert "Clause 39" in clean_text(" ".join(body.itertext()))


def test_a_dialog_that_holds_the_pages_headline_is_the_page() -> None:
    # A story shown in a modal when the page is loaded: it holds the page's <h1> (the rule
    # for a whole page hidden until its scripts run).
    story = "".join(f"<p>Sentence {n} of the story, with words enough to read as one.</p>" for n in range(6))
    page = (
        "<html><body><nav><a href='/'>Home</a></nav>"
        f"<div role='dialog'><h1>Story</h1>{story}</div></body></html>"
    )
    assert "Sentence 5 of the story" in extract(page, metadata=False).text


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


# --- Void elements of HTML5 that libxml2 does not know ----------------------------------
# lxml nests what follows an unclosed <embed>, <source>, <track>, <wbr> or <keygen> inside
# it; preparation moves it back out, where browsers put it, before removing the element.

STORY = "".join(
    f"<p>The council voted on part {n} of the ferry plan, and the pier opens in the spring.</p>"
    for n in range(3)
)
LAST = "<p>The last paragraph of the story says what happens next, in words of its own.</p>"


def test_what_an_unclosed_embed_held_moves_out_after_it() -> None:
    root = parse_html(
        "<html><body><div><p>a</p><embed src='x.swf'>held<p>b</p>tail</div><p>c</p></body></html>"
    )
    embed = root.find(".//embed")
    assert [child.tag for child in embed] == ["p"]  # the parser's nesting, the tree before preparation
    body, _, _ = prepare(root)
    div = body.find("div")
    assert div.find("embed") is None and [child.tag for child in div] == ["p", "p"]
    assert "".join(div.itertext()) == "aheldbtail"  # the element's text, its content, its tail, in order


def test_close_void_elements_keeps_the_order_of_text_children_and_tail() -> None:
    div = lxml_html.fragment_fromstring("<div>x<wbr class='w'>one<b>two</b>three</div>")
    wbr = div.find("wbr")
    wbr.tail = " after"  # as if the parser had closed it before this
    close_void_elements(div, [wbr])
    (closed,) = div.findall("wbr")  # an empty copy in its place
    assert closed.text is None and len(closed) == 0 and closed.tail == "one" and closed.get("class") == "w"
    assert [child.tag for child in div] == ["wbr", "b"] and div.find("b").tail == "three after"
    assert "".join(div.itertext()) == "xonetwothree after"
    div = lxml_html.fragment_fromstring("<div><track>words</track> end<embed>a<embed>b</embed></embed></div>")
    close_void_elements(div, list(div.iter("track", "embed")))  # one inside another too
    assert [(child.tag, child.text, child.tail) for child in div] == [
        ("track", None, "words end"),
        ("embed", None, "a"),
        ("embed", None, "b"),
    ]
    alone = lxml_html.fragment_fromstring("<wbr>held</wbr>")
    close_void_elements(alone, [alone])  # no parent to move what it holds into
    assert alone.text == "held"


@pytest.mark.parametrize(
    "tag", ["embed src='clip.swf'", "source src='clip.mp4'", "track src='a.vtt'", "keygen"]
)
@pytest.mark.parametrize("algorithm", ["auto", "nce", "corex", "cetd-ds"])
def test_the_story_after_an_unclosed_void_element_is_kept(tag: str, algorithm: str) -> None:
    page = f"<html><body><div id='main'>{STORY}<{tag}>{STORY}{LAST}</div></body></html>"
    result = extract(page, url="https://example.com/a", algorithm=algorithm, markdown=True)
    for output in (result.text, result.html, result.markdown):
        assert output.count("ferry plan") == 6 and "last paragraph" in output


def test_a_picture_keeps_its_image_behind_its_sources() -> None:
    picture = (
        "<picture><source srcset='/a.webp' type='image/webp'><source srcset='/a.avif'>"
        "<img src='/a.jpg' alt='The pier at dusk'></picture>"
    )
    sentence = "The pier was built in two years, and it cost less than planned."
    page = f"<html><body><div id='main'>{STORY}<p>{picture} {sentence}</p>{STORY}</div></body></html>"
    result = extract(page, url="https://example.com/a", markdown=True)
    assert '<picture><img src="https://example.com/a.jpg" alt="The pier at dusk"></picture>' in result.html
    assert "![The pier at dusk](https://example.com/a.jpg)" in result.markdown
    assert "<source" not in result.html


def test_a_word_break_keeps_the_rest_of_its_paragraph_outside_it() -> None:
    line = "<p>A long word, ferry<wbr>plan, is still one.</p>"
    page = f"<html><body><div id='main'>{STORY}{line}{STORY}</div></body></html>"
    result = extract(page, url="https://example.com/a")
    assert "A long word, ferryplan, is still one." in result.text
    assert "<wbr></wbr>plan, is still one.</p>" in result.html


def test_a_picture_whose_image_has_no_address_shows_its_first_source() -> None:
    sentence = "The pier was built in two years, and it cost less than planned."
    for image, expected in (
        ("<img alt='The pier'>", 'srcset="https://example.com/a.webp 1x"'),
        ("<img src='' alt='The pier'>", 'srcset="https://example.com/a.webp 1x"'),  # a placeholder
        ("<img src='/own.jpg' alt='The pier'>", 'src="https://example.com/own.jpg"'),  # its own stays
    ):
        picture = f"<picture><source media='(min-width: 800px)'><source srcset='/a.webp 1x'>{image}</picture>"
        page = f"<html><body><div id='main'>{STORY}<p>{picture} {sentence}</p>{STORY}</div></body></html>"
        html = extract(page, url="https://example.com/a").html
        shown = html.split("<picture>", 1)[1].split("</picture>", 1)[0]
        assert shown.startswith("<img ") and expected in shown and "<source" not in html
    lazy = "<picture><source data-srcset='/lazy.webp'><img class='lazyload' alt='x'></picture>"
    page = f"<html><body><div id='main'>{STORY}<p>{lazy} {sentence}</p>{STORY}</div></body></html>"
    assert 'srcset="https://example.com/lazy.webp"' in extract(page, url="https://example.com/a").html


def test_thousands_of_unclosed_void_elements_do_not_hide_the_rest_of_the_page() -> None:
    # each nests in the one before, deeper than the parser goes; the fallback parse writes
    # them closed, so the story after them is still there
    for tag in ("wbr", "source"):
        breaks = "".join(f"w{n}<{tag}>" for n in range(5_000))
        page = f"<html><body><div id='main'><p>{breaks}</p>{STORY}{LAST}</div></body></html>"
        text = extract(page).text
        assert text.count("ferry plan") == 3 and "last paragraph" in text
    assert flatten_deep_nesting("<p>a<wbr>b<source src=x>c</p>") == "<p>a<wbr />b<source src=x />c</p>"


def test_closing_a_void_element_that_holds_many_elements_is_linear() -> None:
    # one unclosed <embed> before 50,000 paragraphs: each moves out after the one before
    # (inserting each at its index walked the siblings: minutes for a page like this)
    root = parse_html("<html><body><div><embed src='x.swf'>" + "<p>a</p>" * 50_000 + "</div></body></html>")
    body, _, _ = prepare(root)
    div = body.find("div")
    assert len(div) == 50_000 and div.find("embed") is None


def test_a_space_a_void_element_held_stays_between_the_words() -> None:
    line = "<p>The new <b>ferry<embed src=x.swf> </b>pier opens soon, the council says.</p>"
    page = f"<html><body><div id='main'>{STORY}{line}{STORY}</div></body></html>"
    assert "The new ferry pier opens soon" in extract(page).text


def test_a_picture_takes_the_first_safe_source() -> None:
    sentence = "The pier was built in two years, and it cost less than planned."
    picture = (
        "<picture><source srcset='jav&#x09;ascript:x 1x'><source srcset='/b.webp 1x'><img alt='x'></picture>"
    )
    page = f"<html><body><div id='main'>{STORY}<p>{picture} {sentence}</p>{STORY}</div></body></html>"
    assert (
        '<picture><img alt="x" srcset="https://example.com/b.webp 1x"></picture>'
        in extract(page, url="https://example.com/a").html
    )


# --- Control characters in what preparation moves (issue 31, item 1) -----------------------
# lxml's parser keeps in text and attributes the control characters that lxml's API refuses
# to store ("All strings must be XML compatible"): preparation must move the text a void
# element held without writing it back, and copy a <source>'s files to its <img> so that
# they can be stored.

#: Every void element of HTML (those lxml's parser knows, and those it nests content in).
VOID_ELEMENTS = (
    "area base br col embed hr img input link meta param source track wbr keygen".split()
)  # fmt: skip
#: The characters lxml refuses in a string it is given (its parser lets them through).
XML_REFUSED = tuple(chr(code) for code in (*range(0x09), 0x0B, 0x0C, *range(0x0E, 0x20), 0xFFFE, 0xFFFF))


@pytest.mark.parametrize("tag", VOID_ELEMENTS)
def test_a_control_character_after_a_void_element_does_not_raise(tag: str) -> None:
    for char in XML_REFUSED:
        page = f"<p>a<{tag}>b{char}c</p>"  # 19 bytes with <embed> and a form feed: it raised
        for given in (page, page.encode("utf-8")):
            assert isinstance(extract(given), Extraction), (tag, char)


@pytest.mark.parametrize("tag", HOLDING_VOID_TAGS)
def test_the_text_a_void_element_held_keeps_its_characters(tag: str) -> None:
    # moved out as the parser read it: the same text as without the element, control
    # characters and all (removed from the text, a space in the HTML, as anywhere else)
    for char in XML_REFUSED[1:]:
        line = f"<p>a{{}}b{char}c<i>d{char}e</i>f{char}g, the council said.</p>"
        held, plain = (
            f"<html><body><div id='main'>{STORY}{line.format(void)}{LAST}</div></body></html>"
            for void in (f"<{tag}>", "")
        )
        expected = extract(plain).text
        assert clean_text(f"ab{char}cd{char}ef{char}g, the council said.") in expected.splitlines()
        assert extract(held).text == expected, (tag, char)
        caller_tree = lxml_html.document_fromstring(held)
        assert extract_tree(caller_tree).text == expected, (tag, char)


def test_a_control_character_after_a_script_template_does_not_raise() -> None:
    for char in XML_REFUSED[1:]:
        template = f"<script type='text/template'>{STORY}</script>"
        page = f"<html><body><div itemprop='articleBody'>{template}after{char}it {LAST}</div></body></html>"
        text = extract(page).text
        assert "ferry plan" in text and f"\n{clean_text(f'after{char}it')}\nThe last paragraph" in text, char


def test_a_control_character_in_a_pictures_source_does_not_raise() -> None:
    # the <img> gets the <source>'s files as the HTML output shows them on an <img>
    sentence = "The pier was built in two years, and it cost less than planned."
    for char in XML_REFUSED[1:]:
        shown = []
        for picture in (
            f"<picture><source srcset='/a.webp{char}1x'><img alt='x'></picture>",
            f"<picture><img alt='x' srcset='/a.webp{char}1x'></picture>",
        ):
            page = f"<html><body><div id='main'>{STORY}<p>{picture} {sentence}</p>{STORY}</div></body></html>"
            html = extract(page, url="https://example.com/a").html
            shown.append(html.split("<picture>")[1].split("</picture>")[0])
        assert shown[0] == shown[1] == '<img alt="x" srcset="https://example.com/a.webp 1x">', char


MINISTER = "The minister said on Tuesday that the budget would rise, a lot. "
MINISTER_PARAGRAPH = "<p>" + MINISTER * 4 + "</p>"


def test_text_nested_deeper_than_the_parser_limit_is_kept() -> None:
    depth = 5_000
    page = (
        "<html><body><p>Before the deep part.</p>"
        + "<div>" * depth
        + MINISTER_PARAGRAPH
        + "</div>" * depth
        + "<p>After the deep part, at the top again.</p></body></html>"
    )
    result = extract(page, algorithm="corex")
    assert MINISTER.strip() in result.text
    assert "Before the deep part." in result.text or "After the deep part" in result.text
    assert not result.reason
