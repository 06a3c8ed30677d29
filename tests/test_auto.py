"""``auto`` on hand-built pages: block values, the root, pruning and each signal."""

from __future__ import annotations

import pytest
from lxml import html as lxml_html

from helpers import document, node_at
from scrapy_mainc import extract, extract_tree
from scrapy_mainc.algorithms import _blocks, _context, auto
from scrapy_mainc.algorithms._values import block_values
from scrapy_mainc.core import _article as article_module
from scrapy_mainc.core._article import headline_links, is_listing, teaser_count
from scrapy_mainc.core._class_names import NameClass, classify_names

#: What these tests check is what happens on articles (see conftest.pages_are_articles).
pytestmark = pytest.mark.usefixtures("pages_are_articles")

SENTENCE = "The council met on Monday, and it agreed on the plan for the new bridge."  # 15 words


def _values(html: str, **overrides: object) -> tuple[object, list[float], list[float]]:
    doc = document(html)
    params = auto.AutoParams(**overrides)  # type: ignore[arg-type]
    regions = _blocks.block_regions(doc.stats)
    context = _context.block_context(doc, regions, params)
    values = block_values(doc.stats, regions, context, doc.headline, params)
    return doc, values, doc.stats.subtree_totals(values)


def test_regions_fold_inline_text_and_short_lists_into_blocks() -> None:
    doc = document(
        "<body><div><p>One <a href='/x'>two three</a> four.</p>"
        "<ul><li>alpha</li><li>beta gamma</li></ul>"
        "<ul><li><p>inner para</p></li></ul></div></body>"
    )
    regions = _blocks.block_regions(doc.stats)
    p, a = node_at(doc, "//div/p"), node_at(doc, "//a")
    first_list, inner_item = node_at(doc, "//ul[1]"), node_at(doc, "//ul[2]/li")
    assert not regions.is_block[a]
    # "One four." outside the link, "two three" inside it, one period
    assert (regions.words[p], regions.link_words[p], regions.punct[p]) == (2, 2, 1)
    # a list of short items is one block of three words; a list item holding a <p> is a block
    assert regions.words[first_list] == 3
    assert not regions.is_block[node_at(doc, "//ul[1]/li[1]")]
    assert regions.is_block[inner_item]
    assert regions.parent_block[node_at(doc, "//ul[2]/li/p")] == inner_item


def test_a_custom_element_in_running_text_is_inline_unless_it_holds_a_block() -> None:
    # a citation wrapped in a custom element inside a sentence (browsers lay an unknown
    # element out inline): its link belongs to the paragraph, not to a block of its own
    # that a link-only block's value would cut
    cite = "(<source-note kind='journal'><a href='https://example.org/1'>1</a></source-note>)"
    paragraph = f"<p>{SENTENCE[:-1]} {cite}.</p>"
    page = f"<body><article>{paragraph * 6}</article></body>"
    doc = document(page)
    regions = _blocks.block_regions(doc.stats)
    assert not regions.is_block[node_at(doc, "//p[1]/source-note")]
    assert regions.link_words[node_at(doc, "//p[1]")] == 1
    assert extract(page).text.count("bridge (1).") == 6
    # outside a paragraph, right after inline markup, nested in another custom element
    loose = document(
        "<body><div>In <b>May</b><x-cite><ref-link><a href='/n'>[1]</a></ref-link></x-cite>, "
        "the council met.</div></body>"
    )
    loose_regions = _blocks.block_regions(loose.stats)
    assert not loose_regions.is_block[node_at(loose, "//x-cite")]
    assert not loose_regions.is_block[node_at(loose, "//ref-link")]
    # a custom element that holds paragraphs is a block, as a <div> would be
    wrapped = document(f"<body><div>Intro words<story-body>{paragraph}</story-body> and more</div></body>")
    assert _blocks.block_regions(wrapped.stats).is_block[node_at(wrapped, "//story-body")]
    # a caller's tree whose root is a custom element
    assert extract_tree(lxml_html.fragment_fromstring(f"<my-app>{paragraph}{paragraph}</my-app>")).text


def test_a_custom_element_between_blocks_is_a_box() -> None:
    # web components style themselves as boxes: a share bar between the headline and the
    # story, a newsletter box named by its class, stay blocks of their own
    share = "<share-bar><a href='/fb'>Share on Facebook</a> <a href='/tw'>Share on Twitter</a></share-bar>"
    body = "<article-body>" + "<br><br>".join([SENTENCE] * 4) + "</article-body>"
    page = f"<body><main><h1>Bridge plan agreed</h1>{share}{body}</main></body>"
    doc = document(page)
    assert _blocks.block_regions(doc.stats).is_block[node_at(doc, "//share-bar")]
    text = extract(page).text
    assert "Share on" not in text and text.count("bridge.") == 4
    box = (
        "<signup-box class='newsletter-signup'>Get our local news in your inbox every morning, "
        "free. <a href='/nl'>Sign up now</a></signup-box>"
    )
    paragraphs = f"<p>{SENTENCE}</p>" * 4
    assert (
        "inbox"
        not in extract(f"<body><article><h1>Bridge</h1>{paragraphs}{box}{paragraphs}</article></body>").text
    )
    # a bar of links inside a paragraph, or words only on one side of a kicker: boxes too
    for inner in (
        f"<p>{SENTENCE}{share}</p>",
        f"<div><x-kicker>Exclusive</x-kicker>{SENTENCE}</div>",
    ):
        widget = document(f"<body>{inner}</body>")
        custom = next(node for node, tag in enumerate(widget.stats.tags) if "-" in tag)
        assert _blocks.block_regions(widget.stats).is_block[custom]


def test_block_value_is_words_minus_links_minus_unpunctuated_penalty() -> None:
    doc, values, _ = _values(
        f"<body><div><p>{SENTENCE}</p><p>Home <a href='/'>News Sport</a></p><h2>Sub heading</h2></div></body>"
    )
    assert values[node_at(doc, "//p[1]")] == 15  # 15 words, punctuated
    assert values[node_at(doc, "//p[2]")] == 1 - 2 - 7  # 1 word, 2 link words, no punctuation
    assert values[node_at(doc, "//h2")] == 2  # headings are exempt from the penalty


def test_root_is_the_subtree_of_largest_total_and_negative_parts_are_pruned() -> None:
    nav = "<div id='menu-links'>" + "".join(f"<a href='/{n}'>Section {n}</a> " for n in range(6)) + "</div>"
    page = (
        f"<body>{nav}<div id='main'><div id='story'><p>{SENTENCE}</p><p>{SENTENCE}</p>"
        "<div class='tools'><a href='/a'>Print this</a> <a href='/b'>Email this</a></div>"
        f"</div></div><div id='foot'><p>{SENTENCE}</p></div></body>"
    )
    doc = document(page)
    selection = auto.select(doc, auto.AutoParams())
    story, tools = node_at(doc, "//div[@id='story']"), node_at(doc, "//div[@class='tools']")
    # story: 15 + 15 - (4 link words + 7) = 19; main has the same total; story comes
    # ... first? No: main is its ancestor with equal total, and the first in document order wins.
    assert selection.nodes == (node_at(doc, "//div[@id='main']"),)
    assert selection.score == pytest.approx(19)
    assert tools in selection.excluded
    assert story not in selection.excluded


def test_names_weaken_or_cut() -> None:
    assert classify_names("relatedStories") is NameClass.NOT_CONTENT
    assert classify_names("share-bar") is NameClass.NOT_CONTENT
    assert classify_names("sharedContent") is NameClass.NONE
    # a social network's post embedded in the story is a quotation, not a share bar
    assert classify_names("social-links") is NameClass.NOT_CONTENT
    assert classify_names("social-media-embed") is NameClass.NONE
    assert classify_names("embedSocial") is NameClass.NONE
    assert classify_names("share-embed") is NameClass.NOT_CONTENT
    # a call to action (support us, send a tip, subscribe): a promotion, not the story
    assert classify_names("widget-custom-cta-letter") is NameClass.NOT_CONTENT
    assert classify_names("ctaBox") is NameClass.NOT_CONTENT
    assert classify_names("octagon") is NameClass.NONE
    # a BEM modifier of the article body ("article__body--cta") leaves it the body
    assert classify_names("article__body--cta") is NameClass.CONTENT
    assert classify_names("share--cta") is NameClass.NOT_CONTENT
    assert classify_names("site-sidebar") is NameClass.BOILERPLATE
    assert classify_names("post-content") is NameClass.CONTENT
    assert classify_names("read-more-box") is NameClass.NOT_CONTENT
    doc, values, _ = _values(
        f"<body><div><p>{SENTENCE}</p><div class='sidebar'><p>{SENTENCE}</p></div>"
        f"<div class='photo-caption'><p>{SENTENCE}</p></div></div></body>"
    )
    assert values[node_at(doc, "//div[@class='sidebar']/p")] == 15 * 0.5
    assert values[node_at(doc, "//div[@class='photo-caption']/p")] == 0  # cut, not counted


def test_a_figure_holding_a_table_is_a_table_not_a_caption() -> None:
    rows = "".join(f"<tr><td>City {n}</td><td>{80 + n}.5</td></tr>" for n in range(4))
    page = (
        f"<html><body><article><p>{SENTENCE}</p>"
        f"<figure class='wp-block-table'><table>{rows}</table>"
        "<figcaption>Source: survey</figcaption></figure>"
        f"<figure><img src='a.jpg'><figcaption>{SENTENCE}</figcaption></figure></article></body></html>"
    )
    doc, values, _ = _values(page)
    assert values[node_at(doc, "//table")] == 12  # 12 words with periods, none cut
    assert values[node_at(doc, "//figure[2]/figcaption")] == 0  # a picture's caption: cut
    assert values[node_at(doc, "//figure[1]/figcaption")] == 2 - 7  # too short to be read, pruned
    doc, values, _ = _values(page, keep_table_figures=False)
    assert values[node_at(doc, "//table")] == 0
    text = extract(page).text
    assert "City 3" in text and "Source" not in text and text.count("council") == 1
    assert "City 3" not in extract(page, keep_table_figures=False).text


def test_an_id_that_spells_the_sections_heading_in_an_outline_is_no_name() -> None:
    # a documentation generator's anchors, each made from its section's title: the first
    # reads as a "more on" promotion, its neighbour names nothing
    section = "<section id='{anchor}'><h2>5.{n}. {title}</h2><p>{text}</p></section>"
    tunnel = SENTENCE.replace("bridge", "tunnel")
    sections = section.format(anchor="more-on-lists", n=1, title="More on Lists", text=SENTENCE)
    sections += section.format(anchor="the-del-statement", n=2, title="The del statement", text=tunnel)
    head = "<html><head><title>Data structures</title></head><body><main><h1>Data structures</h1>"
    page = f"{head}<p>{SENTENCE}</p>{sections}</main></body></html>"
    doc, values, _ = _values(page)
    assert (values[node_at(doc, "//section[1]/p")], values[node_at(doc, "//section[2]/p")]) == (15, 15)
    doc, values, _ = _values(page, ignore_heading_ids=False)
    assert values[node_at(doc, "//section[1]/p")] == 0
    assert extract(page).text.count("bridge") == 2
    # a box that labels itself beside the story is no outline: its name stands
    box = "<div id='related-posts'><h3>Related posts</h3><p>{text}</p></div>".format(
        text=SENTENCE.replace("bridge", "harbour")
    )
    boxed = f"{head}<p>{SENTENCE}</p><p>{SENTENCE}</p>{box}</main></body></html>"
    doc, values, _ = _values(boxed)
    assert values[node_at(doc, "//div[@id='related-posts']/p")] == 0
    assert "harbour" not in extract(boxed).text


def test_names_on_a_page_wrapper_are_ignored() -> None:
    # the only text of the page sits under a "sidebar-layout" wrapper: a layout name
    doc, values, _ = _values(f"<body><div class='with-sidebar'><p>{SENTENCE}</p></div></body>")
    assert values[node_at(doc, "//p")] == 15


def test_teaser_cards_are_cut() -> None:
    card = (
        "<div class='card'><h3><a href='/s{n}'>Another story headline number {n}</a></h3>"
        "<p>A short teaser sentence, for story {n}.</p></div>"
    )
    cards = "".join(card.format(n=n) for n in range(4))
    story = f"<p>{SENTENCE}</p>" * 6  # the teaser list must not be most of the page
    page = f"<body><div id='story'>{story}</div><div id='more'>{cards}</div></body>"
    doc = document(page)
    shape = _blocks.CardShape(max_words=80, min_link_words=3, max_page_share=0.5)
    assert len(_blocks.teaser_cards(doc.stats, _blocks.block_regions(doc.stats), shape)) == 4
    text = extract(page).text
    assert "teaser sentence" not in text and "bridge" in text
    # teasers long enough to outweigh their linked headlines, beside the story in one
    # wrapper: pruning keeps them, only the card cut takes them out
    teaser = "A longer teaser sentence, which tells readers what story {n} is about in a few words."
    cards = "".join(
        card.replace("A short teaser sentence, for story {n}.", teaser).format(n=n) for n in range(4)
    )
    page = f"<body><div id='page'><div id='story'>{story}</div><div id='more'>{cards}</div></div></body>"
    assert "teaser sentence" not in extract(page).text
    assert extract(page, cut_cards=False).text.count("teaser sentence") == 4
    # the list's shape comes from AutoParams: four cards are no list of five, a teaser of
    # 16 words is no card when a card needs 20 of its own, four cards of four are under a
    # share above one
    for thresholds in ({"card_min_alike": 5}, {"card_min_own_words": 20}, {"card_min_share": 1.01}):
        assert extract(page, **thresholds).text.count("teaser sentence") == 4, thresholds
    assert "teaser sentence" not in extract(page, card_min_alike=4, card_min_own_words=16).text


def test_cards_that_describe_what_they_name_are_a_roundup_not_teasers() -> None:
    # a "best of" article: each product a card with a linked name, a price and a
    # paragraph about it; 1 + 45 + 5 = 51 words of its own outside the link
    card = (
        "<div class='product'><h3><a href='/p{n}'>The lamp model number {n}</a></h3><p>$99</p>"
        f"<p>{SENTENCE} {SENTENCE} {SENTENCE} It is worth its price.</p></div>"
    )
    intro = f"<p>{SENTENCE}</p>" * 8  # and as much after: the grid is less than half the page
    grid = "".join(card.format(n=n) for n in range(4))
    page = f"<body><div id='story'>{intro}<div class='grid'>{grid}</div>{intro}</div></body>"
    doc = document(page)
    regions = _blocks.block_regions(doc.stats)
    cards = [node_at(doc, f"//div[@class='product'][{n}]") for n in range(1, 5)]
    assert [doc.stats.words[card] - doc.stats.link_words[card] for card in cards] == [51] * 4

    def cut(limit: int) -> set[int]:
        shape = _blocks.CardShape(
            max_words=80, min_link_words=3, max_page_share=1.0, max_mean_own_words=limit
        )
        return _blocks.teaser_cards(doc.stats, regions, shape)

    assert cut(0) == cut(52) == set(cards)  # no limit, or one above their 51 words: teasers
    assert cut(51) == set()  # 51 words of their own each: described items
    assert extract(page).text.count("worth its price") == 4
    assert extract(page, card_max_mean_own_words=0).text.count("worth its price") == 0


def _diet_cards(picture: bool, read_more: bool) -> str:
    """A page: a story, then six cards, each a two-word name linked, and a teaser."""
    names = ("Protein", "Buckwheat", "Cabbage", "Japanese", "Chocolate", "French")
    thumbnail = "<div class='pic'><a href='/d{n}'><img src='/d{n}.jpg' alt=''></a></div>" if picture else ""
    more = " <a href='/more/{n}'>Read more...</a>" if read_more else ""
    card = (
        f"<div class='tile'>{thumbnail}<div class='name'><a href='/d{{n}}'>{{name}} diet</a></div>"
        "<div class='body'>A popular plan for busy people, which tells readers what it is about"
        f" in a few words.{more}</div></div>"
    )
    cards = "".join(card.format(n=n, name=name) for n, name in enumerate(names))
    story = f"<p>{SENTENCE}</p>" * 12
    return f"<body><div id='page'><div id='story'>{story}</div><div id='more'>{cards}</div></div></body>"


def test_teaser_cards_with_two_word_headlines_need_a_teasers_marks() -> None:
    short = _blocks.CardShape(max_words=80, min_link_words=3, max_page_share=0.5, short_link_words=2)
    three = _blocks.CardShape(max_words=80, min_link_words=3, max_page_share=0.5)
    # cards of a two-word name linked and a teaser ending in a "read more..." link
    page = _diet_cards(picture=False, read_more=True)
    doc = document(page)
    regions = _blocks.block_regions(doc.stats)
    assert len(_blocks.teaser_cards(doc.stats, regions, short)) == 6
    assert _blocks.teaser_cards(doc.stats, regions, three) == set()
    assert "popular plan" not in extract(page).text
    assert extract(page, card_short_link_words=3).text.count("popular plan") == 6
    # no ellipsis: no teaser's mark, even with a thumbnail linked to the name's address
    # (a story's people with their portraits look the same)
    for picture in (False, True):
        cards = document(_diet_cards(picture=picture, read_more=False))
        assert _blocks.teaser_cards(cards.stats, _blocks.block_regions(cards.stats), short) == set()
    # the people a story names, each a linked two-word name and a sentence, one of them
    # quoting words that trail off inside it: no teasers
    people = "".join(
        f"<div class='person'><h3><a href='/p/{n}'>{name} Smith</a></h3><p>{name} Smith leads the "
        'council\'s work on the bridge, and said: "We will build it... and soon."</p></div>'
        for n, name in enumerate(("Ann", "Bob", "Cem", "Dana", "Eve"))
    )
    paragraphs = f"<p>{SENTENCE}</p>" * 8
    story = f"<body><article><h1>Bridge</h1>{paragraphs}<div class='people'>{people}</div></article></body>"
    listed = document(story)
    assert _blocks.teaser_cards(listed.stats, _blocks.block_regions(listed.stats), short) == set()
    assert extract(story).text.count("and soon") == 5


def test_a_list_of_linked_headlines_with_summaries_cut_short_is_teasers() -> None:
    # a news ticker above the story, in its column: inline markup only, no block inside
    # an item, so no structured card; each item a link headline and a summary ending "..."
    item = (
        "<li><a href='/s{n}'>Another story headline number {n}</a> <span>CITY: The first words "
        "of story {n}, which go on for a while and then stop{end}</span></li>"
    )
    ticker = "<ul>" + "".join(item.format(n=n, end="...") for n in range(5)) + "</ul>"
    story = f"<p>{SENTENCE}</p>" * 10  # the ticker must not be most of the page
    page = f"<body><div id='column'><h2>Breaking</h2>{ticker}<div id='story'>{story}</div></div></body>"
    doc = document(page)
    regions = _blocks.block_regions(doc.stats)
    shape = _blocks.CardShape(max_words=80, min_link_words=3, max_page_share=0.5)
    assert len(_blocks.teaser_cards(doc.stats, regions, shape)) == 5
    no_rule = _blocks.CardShape(max_words=80, min_link_words=3, max_page_share=0.5, truncated_summary=False)
    assert _blocks.teaser_cards(doc.stats, regions, no_rule) == set()
    text = extract(page).text
    assert "first words" not in text and text.count("bridge") == 10
    assert extract(page, card_truncated_summary=False).text.count("first words") == 5
    # summaries that end as sentences do: a list of points in the story, each led by a link
    whole = document(page.replace("...", "."))
    assert _blocks.teaser_cards(whole.stats, _blocks.block_regions(whole.stats), shape) == set()
    # an ellipsis, but no link headline first: a list of quotations trailing off
    quoted = document(page.replace("<a href='/s", "<b data-s='").replace("</a>", "</b>"))
    assert _blocks.teaser_cards(quoted.stats, _blocks.block_regions(quoted.stats), shape) == set()
    # an item with a block inside is read as a structured card, or not at all
    structured = document(page.replace("<span>CITY", "<p>CITY").replace("...</span>", "...</p>"))
    assert _blocks._truncated_summary(structured.stats, node_at(structured, "//li[1]"), 3) is False


def test_an_embedded_social_post_stays_in_the_story() -> None:
    tweet = (
        "<div class='social-media-embed'><blockquote class='twitter-tweet'><p>What a plan for "
        "the bridge, the best news this week.</p>&mdash; A Reader (@reader) "
        "<a href='https://example.org/status/1'>November 18, 2019</a></blockquote></div>"
    )
    share = "<div class='social-links'><a href='/s'>Share</a> <a href='/t'>Tweet this story</a></div>"
    page = (
        f"<body><article><p>{SENTENCE}</p><p>{SENTENCE}</p>{tweet}<p>{SENTENCE}</p>{share}</article></body>"
    )
    text = extract(page).text
    assert "best news this week" in text and "Tweet this story" not in text


def test_nested_article_is_related_content() -> None:
    related = f"<article><p>{SENTENCE} Related.</p></article>"
    page = f"<body><article><p>{SENTENCE}</p><p>{SENTENCE}</p><p>{SENTENCE}</p>{related}</article></body>"
    assert "Related." not in extract(page).text
    assert "Related." in extract(page, cut_nested_articles=False).text


def test_headline_and_edges_are_dropped() -> None:
    page = (
        "<html><head><title>Bridge plan agreed | Daily</title></head><body><div>"
        "<h1>Bridge plan agreed</h1><p>By Jane Doe, staff writer</p>"
        f"<p>{SENTENCE}</p><p>{SENTENCE}</p><p>Photo credit</p></div></body></html>"
    )
    result = extract(page)
    assert result.title == "Bridge plan agreed"
    assert result.text == f"{SENTENCE}\n{SENTENCE}"
    # the byline is worth 5 words (punctuated): only edge trimming drops it
    assert "By Jane Doe" in extract(page, trim_edges=False).text
    assert "Bridge plan agreed" in extract(page, drop_headline=False, trim_edges=False).text


def test_paragraph_parent_rescues_paragraphs_mixed_with_link_boilerplate() -> None:
    links = "".join(f"<a href='/{n}'>a link to another page number {n}</a><br>" for n in range(40))
    table = f"<table><tr><td><p>{SENTENCE}</p><p>{SENTENCE}</p><p>{SENTENCE}</p>{links}</td></tr></table>"
    # 20 words: more than one paragraph, so without the rescue the subtree of largest
    # total is the disclaimer (the table cell's total is negative: 45 - 240 link words)
    disclaimer = "<div><p>" + "All content is copyright, and reuse needs permission. " * 2 + "</p></div>"
    page = f"<body>{table}{disclaimer}</body>"
    assert extract(page).text.count("bridge") == 3
    assert "bridge" not in extract(page, paragraph_parent=False).text


def test_page_without_prose_has_a_reason() -> None:
    result = extract("<body><ul><li><a href='/a'>Home</a></li><li><a href='/b'>News</a></li></ul></body>")
    assert result.text == "" and result.reason


def test_a_small_block_with_an_image_is_a_captioned_picture() -> None:
    page = (
        "<body><div><div class='box'><img src='a.jpg'>"
        "<p>The dam after the works, seen from the north bank of the river.</p></div>"
        f"<p>{SENTENCE}</p><p>{SENTENCE}</p>"
        f"<p><img src='b.jpg'> {SENTENCE} {SENTENCE} {SENTENCE}</p></div></body>"
    )
    text = extract(page).text
    assert "seen from the north" not in text
    assert text.count("bridge") == 5  # a long paragraph (45 words) with an inline image is kept
    assert "seen from the north" in extract(page, cut_image_boxes=False).text


def test_marked_article_body_narrows_the_root_when_it_holds_a_fair_share() -> None:
    other = "A different story about the harbour festival, with music, food and boats."  # 12 words
    body = f"<div itemprop='articleBody'><p>{SENTENCE}</p><p>{SENTENCE}</p></div>"
    page = f"<body><div id='wrap'><div>{body}</div><div><p>{other}</p></div></div></body>"
    doc, _, totals = _values(page)
    wrap, marked = node_at(doc, "//div[@id='wrap']"), node_at(doc, "//div[@itemprop]")
    assert (totals[wrap], totals[marked]) == (42, 30)  # 30 >= 0.25 * 42
    assert auto.marked_body(doc, totals, wrap, 0.25) == marked
    assert auto.marked_body(doc, totals, wrap, 0.75) == wrap  # 30 < 0.75 * 42
    assert auto.marked_body(doc, totals, marked, 0.25) == marked  # nothing strictly inside
    assert extract(page).text == f"{SENTENCE}\n{SENTENCE}"
    assert other in extract(page, use_body_markup=False).text
    # itemprop holds a list of tokens
    tokens = page.replace("itemprop='articleBody'", "itemprop=' text  articleBody '")
    assert extract(tokens).text == f"{SENTENCE}\n{SENTENCE}"


def _post(headline: str, sentence: str, paragraphs: int, tag: str = "h2") -> str:
    body = "".join(f"<p>{sentence} Paragraph {n}.</p>" for n in range(paragraphs))
    return f"<article class='post'><{tag}>{headline}</{tag}><div class='entry'>{body}</div></article>"


def test_inner_articles_of_a_wrapper_article_are_not_related_content() -> None:
    # An infinite-scroll feed wraps each post in <article class="post"> inside an outer
    # <article>; each post holds less than 80% of the outer one's words, so the old rule
    # (cut an inner article under 80% of the outer) cut them all and the outdated-browser
    # banner became the text.
    banner = (
        "<div class='browsehappy'><p>You are using an outdated browser. Please upgrade your "
        "browser to improve your experience.</p></div>"
    )
    nav = "<nav>" + "".join(f"<a href='/{n}'>Section {n}</a> " for n in range(8)) + "</nav>"
    other = "The harbour festival drew record crowds, and the ferries ran late into the night."
    posts = _post("Bridge plan agreed", SENTENCE, 3, "h1") + _post("Festival", other, 4) * 2
    page = (
        "<html><head><title>Bridge plan agreed</title></head>"
        f"<body>{banner}{nav}<article class='feed'>{posts}</article></body></html>"
    )
    doc = document(page)
    outer = node_at(doc, "//article[@class='feed']")
    inner = [node for node in _context._outer_articles(doc.stats) if node != outer]
    assert len(inner) == 3 and all(doc.stats.words[node] < 0.8 * doc.stats.words[outer] for node in inner)
    assert _context.related_articles(doc.stats) == set()  # the outer article has no words of its own
    text = extract(page).text
    assert text.count("bridge") == 3 and "festival" not in text and "browser" not in text
    # the feed's other posts are another story, which the headline tells apart
    assert "festival" in extract(page, check_story=False).text


def test_an_inner_article_is_related_when_the_outer_one_has_more_words_of_its_own() -> None:
    related = f"<article><p>{SENTENCE} Related.</p></article>"  # 16 words
    page = f"<body><article><p>{SENTENCE}</p>{related}</article></body>"
    doc = document(page)
    # 31 words in the outer article, 16 of them in the inner one: 15 of its own < 16
    assert _context.related_articles(doc.stats) == set()
    page = f"<body><article><p>{SENTENCE}</p><p>{SENTENCE}</p>{related}</article></body>"
    doc = document(page)
    assert _context.related_articles(doc.stats) == {node_at(doc, "//article/article")}
    # ...unless it holds the page's headline
    assert _context.related_articles(doc.stats, node_at(doc, "//article/article/p")) == set()


def test_inner_articles_that_are_most_of_the_outer_one_are_its_items() -> None:
    # A buying guide: a short introduction, then each product's entry in an <article> of its
    # own. Every entry is shorter than the introduction, as a related story would be, but
    # together they are most of the guide: its items, not related content.
    intro = f"<p>{SENTENCE}</p><p>{SENTENCE}</p><p>{SENTENCE}</p>"  # 45 words of its own
    entries = [
        f"<article class='entry'><h2>Pick {n}</h2><p>Ferry number {n} ran late, and {SENTENCE}</p></article>"
        for n in range(5)
    ]  # 22 words each
    page = f"<html><body><article class='guide'>{intro}{''.join(entries)}</article></body></html>"
    doc = document(page)
    outer = node_at(doc, "//article[@class='guide']")
    inner = [node for node in _context._outer_articles(doc.stats) if node != outer]
    own = doc.stats.words[outer] - sum(doc.stats.words[node] for node in inner)
    assert len(inner) == 5 and all(doc.stats.words[node] <= own for node in inner)
    assert sum(doc.stats.words[node] for node in inner) >= _context.ITEMS_SHARE * doc.stats.words[outer]
    assert _context.related_articles(doc.stats) == set()
    text = extract(page).text
    assert all(f"Ferry number {n} ran late" in text for n in range(5))
    # two such entries in a longer story are a third of it: related stories, cut as before
    page = f"<html><body><article class='guide'>{intro}{intro}{''.join(entries[:2])}</article></body></html>"
    doc = document(page)
    assert len(_context.related_articles(doc.stats)) == 2
    assert "Ferry number" not in extract(page).text
    # a thread of reader comments in articles of their own is no list of items, however long
    comments = "".join(entries).replace("class='entry'", "class='comment-body'")
    doc = document(f"<html><body><article class='guide'>{intro}{comments}</article></body></html>")
    assert len(_context.related_articles(doc.stats)) == 5


SHORT_PAGE = (
    "<html><head><title>Pool closed on Friday</title></head><body>"
    "<ul class='menu'><li><a href='/swim'>Swimming</a></li><li><a href='/gym'>Gym</a></li></ul>"
    "<div class='main'><h1>Pool closed on Friday</h1>{body}</div>"
    "<div class='footer'><a href='/terms'>Terms</a> <a href='/contact'>Contact</a></div></body></html>"
)


def test_short_content_falls_back_to_the_best_candidate_with_a_low_score() -> None:
    # Two short lines without a period or comma: every block is worth less than nothing.
    page = SHORT_PAGE.format(body="<p>Both pools are closed on Friday!</p><p>The gym stays open</p>")
    result = extract(page)
    assert result.text == "Both pools are closed on Friday!\nThe gym stays open"
    assert result.score == -1 + (6 - 7) + (4 - 7) and not result.reason  # usual values (headline -1)
    assert extract(page, fallback=False).reason == "no block of text looks like article content"


def test_a_choice_worth_less_than_one_penalty_gives_way_to_the_choice_without_it() -> None:
    # The first line, 8 words without a period or comma, is worth 8 - 7 = 1: a choice of
    # less than one label's penalty is no evidence against the next line (4 - 7 = -3),
    # so the choice without the penalty (both lines, 8 + 4, and the headline -1) wins.
    page = SHORT_PAGE.format(body="<p>Both pools are closed all day on Friday!</p><p>The gym stays open</p>")
    result = extract(page)
    assert result.text == "Both pools are closed all day on Friday!\nThe gym stays open"
    assert result.score == 11
    assert extract(page, penalty_recheck_words=0).text == "Both pools are closed all day on Friday!"


def test_fallback_needs_a_short_sentence_outside_links_and_boilerplate() -> None:
    # the headline alone is the title, not content; four words are not a sentence
    for body in (
        "",
        "<p>Back on Monday</p>",
        "<div class='sidebar'><p>Opening hours are posted at the desk</p></div>",
    ):
        result = extract(SHORT_PAGE.format(body=body))
        assert result.text == "" and result.reason == "no block of text looks like article content", body
    # five words are
    assert extract(SHORT_PAGE.format(body="<p>We are back on Monday</p>")).text == "We are back on Monday"


def test_fallback_leaves_a_listing_of_links_and_dates_empty() -> None:
    items = "".join(
        f"<li><a href='/story/{n}'>Council story number {n} of the week</a> <span>12 May 2024</span></li>"
        for n in range(6)
    )
    result = extract(f"<body><ul class='latest'>{items}</ul></body>", page_type="article")
    assert result.text == "" and result.reason
    # read as what it is, a listing, its items are its content
    listing = extract(f"<body><ul class='latest'>{items}</ul></body>", page_type="listing")
    assert listing.text.count("Council story number") == 6 and listing.page_type == "listing"


def test_the_container_of_the_headline_is_never_cut_for_its_name() -> None:
    # WordPress puts the post's tags into its class: "tag-cookies" names a cookie notice.
    links = (
        "<ul>"
        + "".join(f"<li><a href='/t{n}'>Another story title number {n}</a></li>" for n in range(12))
        + "</ul>"
    )
    story = f"<h1>Bridge plan agreed</h1><p>{SENTENCE}</p><p>{SENTENCE}</p>"
    post = f"<div class='post type-post tag-cookies'>{story}</div>"
    page = f"<html><head><title>Bridge plan agreed</title></head><body>{post}{links}</body></html>"
    doc = document(page)
    assert doc.stats.words[node_at(doc, "//div")] < 0.5 * doc.stats.words[0]  # no page wrapper
    assert extract(page).text == f"{SENTENCE}\n{SENTENCE}"
    assert extract(page, keep_story_container=False).text == ""
    # with three sentence-like blocks in a sidebar the post holds 2 of 5, not most of the
    # page's prose: only the headline keeps it
    widget = "<div class='widget'>" + "".join(f"<p>{SENTENCE} Aside {n}.</p>" for n in range(3)) + "</div>"
    with_widget = page.replace("</body>", f"{widget}</body>")
    doc = document(with_widget)
    prose = _blocks.prose_counts(doc.stats, _blocks.block_regions(doc.stats), 10)
    assert (prose[node_at(doc, "//div[@class='post type-post tag-cookies']")], prose[0]) == (2, 5)
    assert extract(with_widget).text == f"{SENTENCE}\n{SENTENCE}"
    assert extract(with_widget, keep_story_container=False).text.count("bridge") == 3  # the sidebar's


@pytest.mark.parametrize(
    "block, kept",
    [
        # an image inside a sentence is part of the prose
        ("<p>The mayor said that the work would start, and <img src='i.png'> showed the plan.</p>", True),
        # a picture with its caption, in a block of its own, is not
        ("<p><img src='i.png'>The mayor at the river bank.</p>", False),
        # an image floated at the start of a paragraph that holds a sentence is part of it
        ("<p><img src='i.png'>The mayor at the river bank said, to cheers, that the work starts.</p>", True),
        ("<div><img src='i.png'> Photo: the river bank in May</div>", False),
    ],
)
def test_a_short_block_with_an_image_is_cut_unless_it_sits_in_a_sentence(block: str, kept: bool) -> None:
    sentence = "Paragraph {}: the council voted on a plan for the river bank, with parks and paths. "
    paragraphs = [f"<p>{sentence.format(n) * 3}</p>" for n in range(4)]
    page = f"<html><body><article>{paragraphs[0]}{block}{''.join(paragraphs[1:])}</article></body></html>"
    text = extract(page).text
    assert text.count("Paragraph") == 12
    assert ("mayor" in text or "Photo" in text) is kept


def _wrapped_story(wrapper_class: str, paragraphs: int) -> str:
    story = "".join(f"<p>{SENTENCE} Part {n}.</p>" for n in range(paragraphs))
    aside = f"<div class='widget'><p>{SENTENCE * 4} Aside.</p></div>"  # one block of 61 words
    return (
        "<html><head><title>Bridge plan agreed</title></head><body>"
        f"<h1>Bridge plan agreed</h1><div class='{wrapper_class}'>{story}</div>{aside}"
        + "<div class='newsletter'><p>Sign up, and get the news every morning in your inbox today.</p>"
        + "<p>We never share your address, and you can leave the list at any time.</p></div></body></html>"
    )


def test_a_not_content_name_on_the_wrapper_of_most_prose_is_ignored() -> None:
    # a theme writes its share widget into the article's class; the wrapper holds 3 of the
    # page's 6 sentence-like blocks (the aside 1, the newsletter 2): a half is not more
    # than half, 4 of 7 is (68 of the page's 155 words: less than half, so the name is
    # read, not ignored as a page wrapper's)
    page = _wrapped_story("entry share", 3)
    assert classify_names("entry share") is NameClass.NOT_CONTENT
    assert "Part" not in extract(page).text
    page = _wrapped_story("entry share", 4)
    doc = document(page)
    assert doc.stats.words[node_at(doc, "//div[@class='entry share']")] < 0.5 * doc.stats.words[0]
    text = extract(page).text
    assert text.count("Part") == 4 and "Sign up" not in text
    assert "Part" not in extract(page, keep_story_container=False).text
    # a newsletter box keeps being cut whatever its prose: it is not most of the page
    assert "Sign up" not in extract(_wrapped_story("entry", 1)).text
    # reader comments do not count: 3 of 6 blocks outside a thread of 3 is not most of
    # them, 4 of 7 is (as before), and so is 4 of 10 when a thread holds 3
    thread = "<ol class='commentlist'>" + f"<li><p>{SENTENCE} A reader.</p></li>" * 3 + "</ol>"
    with_thread = _wrapped_story("entry share", 4).replace("</body>", f"{thread}</body>")
    doc = document(with_thread)
    prose = _blocks.prose_counts(doc.stats, _blocks.block_regions(doc.stats), 10)
    assert (prose[node_at(doc, "//div[@class='entry share']")], prose[0]) == (4, 10)
    assert extract(with_thread).text.count("Part") == 4
    assert "Part" not in extract(_wrapped_story("entry share", 3).replace("</body>", f"{thread}</body>")).text


def test_paragraphs_with_a_link_in_a_sentence_are_not_teaser_cards() -> None:
    # each paragraph in its own alike container, with a link inside the sentence: alike
    # siblings with link words and a block inside, but no link headline
    paragraph = (
        "<div class='para'><p>Paragraph {n}: the council said that the <a href='/p{n}'>plan for the "
        "new bridge</a> would be ready by the spring, and work would start soon.</p></div>"
    )
    page = "<body><article>" + "".join(paragraph.format(n=n) for n in range(5)) + "</article></body>"
    doc = document(page)
    regions = _blocks.block_regions(doc.stats)
    shape = _blocks.CardShape(max_words=80, min_link_words=3, max_page_share=1.0)
    assert _blocks.teaser_cards(doc.stats, regions, shape) == set()
    with_links = _blocks.CardShape(max_words=80, min_link_words=3, max_page_share=1.0, link_headline=False)
    assert len(_blocks.teaser_cards(doc.stats, regions, with_links)) == 5  # the old rule cut them all
    assert extract(page).text.count("Paragraph") == 5


def _roundup(articles: str) -> str:
    products = "".join(
        f"<div class='product'><h3>Product {n}</h3><p>{SENTENCE} It costs {n} pounds, and it ships soon.</p>"
        f"<p>{SENTENCE}</p></div>"
        for n in range(4)
    )
    section = f"<section>{articles}<div class='list'>{products}</div></section>"
    return f"<html><body><main>{section}</main></body></html>"


def test_the_only_article_element_inside_the_root_is_the_story() -> None:
    # a roundup: the article, then a product list worth more than it (4 x (2 + 23 + 15))
    article = f"<article><p>{SENTENCE} Intro.</p><p>{SENTENCE}</p></article>"
    page = _roundup(article)
    doc, _, totals = _values(page)
    section, element = node_at(doc, "//section"), node_at(doc, "//article")
    assert (totals[element], totals[section]) == (31, 31 + 4 * 40)
    assert auto.only_article(doc.stats, totals, section, 0.15) == element  # 31 >= 0.15 x 191
    assert auto.only_article(doc.stats, totals, section, 0.2) == section  # 31 < 0.2 x 191
    assert extract(page).text == f"{SENTENCE} Intro.\n{SENTENCE}"
    assert "Product" in extract(page, use_article_element=False).text
    # two articles are a list of stories, or two parts of one: no narrowing
    two = _roundup(article + article.replace("Intro", "Second"))
    assert "Second" in extract(two).text and "Product" in extract(two).text


def test_a_choice_is_checked_against_the_choice_without_the_punctuation_penalty() -> None:
    # a product sheet in short lines without periods or commas (each worth its words
    # minus 7), and, past a list of links (-20 without the penalty), a bio of one
    # punctuated sentence, which wins under the penalty
    specs = "".join(
        f"<p>{line}</p>"
        for line in (
            "Weight 15 kg in total",
            "Burner made of ceramic tiles",
            "Heats up to 800 degrees",
            "Grill area 35 by 29 cm",
            "Housing of brushed steel",
            "Ignition by a piezo button",
        )
    )
    links = "<ul>" + "".join(f"<li><a href='/c{n}'>Category {n}</a></li>" for n in range(10)) + "</ul>"
    page = (
        f"<html><body><div class='sheet'><h1>Beef grill</h1>{specs}</div>{links}"
        "<div class='about'><p>Jane writes about kitchens, gardens and tools, and she has done "
        "so for years.</p></div></body></html>"
    )
    doc, values, totals = _values(page)
    sheet, bio = node_at(doc, "//div[@class='sheet']"), node_at(doc, "//div[@class='about']")
    assert (totals[sheet], totals[bio]) == (2 + 5 + 5 + 5 + 6 + 4 + 5 - 6 * 7, 14)  # h1: 2, no penalty
    text = extract(page).text
    assert "Burner made of ceramic tiles" in text and "Jane" not in text
    assert extract(page, penalty_recheck_words=0).text.startswith("Jane")
    # on a short page whose choice only widens without the penalty, the choice stays
    story = (
        f"<html><body><article><p>{SENTENCE}</p><p>Advertisement</p><p>{SENTENCE}</p></article></body></html>"
    )
    assert "Advertisement" not in extract(story).text
    # a listing of teasers (a linked headline over each excerpt: 6 of 21 words in links,
    # the list worth 2 x (15 - 6) = 18 without the penalty) is no story in short lines
    teaser = "<li><a href='/s{n}'>Harbour bridge reopens after {n} years</a><p>{text}</p></li>"
    text = "Cyclists and buses were first across the span on Monday morning, ahead of the schedule."
    items = "".join(teaser.format(n=n, text=text) for n in range(2))
    listing = f"<html><body><main><ul>{items}</ul></main></body></html>"
    assert extract(listing).text == text
    assert extract(listing, recheck_max_link_share=1.0).text.count("Harbour") == 2


def _paragraph(word: str, words: int) -> str:
    """A paragraph of ``words`` words: ``word`` repeated, then ", end."."""
    return f"<p>{' '.join([word] * (words - 1))}, end.</p>"


def test_the_recheck_counts_the_root_without_the_story_start_added_before_it() -> None:
    # a how-to in three parts: two paragraphs (60 words), 30 short steps without a
    # period (each 4 - 7 = -3 words of value: -90 together) and two more
    # paragraphs (80); under the penalty the last part outweighs the article (60 - 90 +
    # 80 - 1 for the headline), and the story's start adds the first two paragraphs
    first = _paragraph("alpha", 30) + _paragraph("beta", 30)
    steps = "<div>" + "".join(f"<p>Turn screw number {n}</p>" for n in range(30)) + "</div>"
    last = _paragraph("gamma", 40) + _paragraph("delta", 40)
    page = (
        f"<html><body><article><h1>How to fit a shelf</h1><div class='a'>{first}</div>{steps}"
        f"<div class='b'>{last}</div></article></body></html>"
    )
    doc, values, totals = _values(page)
    article, part = node_at(doc, "//article"), node_at(doc, "//div[@class='b']")
    assert (totals[article], totals[part]) == (49, 80)
    # without the penalty the article keeps 60 + 120 + 80 = 260 words: under twice the
    # 140 that the root and its start keep, over twice the root's 80, which is what the
    # recheck counts
    text = extract(page).text
    assert "Turn screw number 29" in text and text.count("alpha") + 10 == text.count("delta") == 39
    bare = extract(page, penalty_recheck_words=0).text
    assert "Turn screw" not in bare and bare.count("alpha") + 10 == bare.count("delta") == 39


def test_a_part_repeated_word_for_word_is_dropped_once_kept() -> None:
    # a product's description laid out twice (one copy for narrow screens), two blocks
    # of 31 and 30 words in each; a reply quoting one paragraph is the page's own text
    description = _paragraph("alpha", 31) + _paragraph("beta", 30)
    page = (
        "<html><body><main><h1>White mug</h1>"
        f"<div class='wide'>{description}</div><div class='narrow'>{description}</div>"
        f"<blockquote>{_paragraph('alpha', 31)}</blockquote></main></body></html>"
    )
    doc = document(page)
    wide, narrow = node_at(doc, "//div[@class='wide']"), node_at(doc, "//div[@class='narrow']")
    main = node_at(doc, "//main")
    regions = _blocks.block_regions(doc.stats)
    params = auto.AutoParams()
    assert (doc.stats.words[wide], doc.stats.words[narrow]) == (61, 61)
    assert auto.repeated_parts(doc.stats, regions, (main,), frozenset(), params) == {narrow}
    # the first copy already dropped: the second is the one kept
    assert auto.repeated_parts(doc.stats, regions, (main,), frozenset({wide}), params) == set()
    # three blocks needed: no part repeats
    three = auto.AutoParams(repeat_min_blocks=3)
    assert auto.repeated_parts(doc.stats, regions, (main,), frozenset(), three) == set()
    text = extract(page).text
    assert (text.count("alpha"), text.count("beta")) == (2 * 30, 29)
    unchecked = extract(page, drop_repeats=False).text
    assert (unchecked.count("alpha"), unchecked.count("beta")) == (3 * 30, 2 * 29)
    # a copy whose twin had a part cut (hidden until a script shows it) is no repeat:
    # what the twin hid is shown once, by it
    hidden = description.replace("<p>", "<p class='hidden'>", 1)
    twins = f"<html><body><main><div>{hidden}</div><div>{description}</div></main></body></html>"
    text = extract(twins).text
    assert (text.count("alpha"), text.count("beta")) == (30, 2 * 29)


def _desk_page(items: int) -> str:
    """A wire desk's page: each item a slug, a headline link in a block of its own and a
    standfirst of one sentence; a desk title above and a one-line footer below."""
    item = (
        "<div class='item'><div class='slug'>LOCAL / 2024-05-{n:02d}</div>"
        "<div class='hed'><a href='/s{n}'>Harbour bridge reopens after {n} long years</a></div>"
        "<div class='dek'>Cyclists and buses crossed the span on Monday, ahead of plan {n}.</div></div>"
    )
    body = "".join(item.format(n=n + 1) for n in range(items))
    return (
        "<html><body><div class='menu'><a href='/a'>News</a> | <a href='/b'>Sport</a></div>"
        f"<div id='left'><div class='title'>Latest from the local desk</div>{body}</div>"
        "<div id='bottom'>The wire is a cooperative news agency. <a href='/about'>About</a></div>"
        "</body></html>"
    )


def test_a_listing_whose_headline_links_pruning_dropped_is_no_story_in_short_lines(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # pruning drops each headline link (a block of links) and keeps the standfirsts, so
    # the words the recheck's choice keeps have no links in them; its teasers (headline
    # link, then prose) give the listing away: 5 teasers of 5 kept prose blocks
    page = _desk_page(5)
    text = extract(page, page_type="article").text
    assert text.count("Cyclists") == 1 and extract(page, page_type="article").article is False
    monkeypatch.setattr(auto, "is_listing", lambda *args: False)
    assert extract(page, page_type="article").text.count("Cyclists") == 5  # the recheck took the whole page


def test_teasers_count_the_prose_kept_and_every_headline_link() -> None:
    doc = document(_desk_page(5))
    stats = doc.stats
    body, left = node_at(doc, "//body"), node_at(doc, "//div[@id='left']")
    title, bottom = node_at(doc, "//div[@class='title']"), node_at(doc, "//div[@id='bottom']")
    # prose: the desk title (5 words), 5 standfirsts, the footer (6 words outside links)
    assert teaser_count(stats, [body]) == (5, 7)
    assert not is_listing(stats, [body])  # 5 < 0.75 x 7
    heds = frozenset(node_at(doc, f"(//div[@class='hed'])[{n}]") for n in range(1, 6))
    assert teaser_count(stats, [body], heds | {title, bottom}) == (5, 5)
    assert is_listing(stats, [body], heds | {title, bottom})
    assert teaser_count(stats, [left], frozenset({left})) == (0, 0)  # no prose kept: no teaser


def _photo_story(pictures: int, intro: int = 1) -> str:
    """A gallery: ``intro`` short sentences of introduction, then ``pictures`` figures
    whose captions tell the story, and a newsletter box of two sentence-like blocks."""
    figures = "".join(
        f"<figure><img src='{n}.jpg'><figcaption>{SENTENCE} Picture {n}.</figcaption></figure>"
        for n in range(pictures)
    )
    return (
        "<html><head><title>Bridge plan agreed</title></head><body>"
        "<h1>Bridge plan agreed</h1>"
        + "<p>The council met, and here is the day in pictures.</p>" * intro
        + f"<div class='gallery'>{figures}</div>"
        + "<div class='newsletter'><p>Sign up, and get the news every morning in your inbox today.</p>"
        + "<p>We never share your address, and you can leave the list at any time.</p></div></body></html>"
    )


def test_the_captions_of_a_photo_story_are_its_text() -> None:
    # four alike captions hold 4 of the 5 sentence-like blocks the page shows outside its
    # cut parts (the newsletter's 2 are cut): a photo story, whose captions are kept
    text = extract(_photo_story(4)).text
    assert text.count("Picture") == 4 and "Sign up" not in text
    assert "Picture" not in extract(_photo_story(4), keep_photo_story=False).text
    # two pictures are no gallery; four captions beside six paragraphs are an article's
    assert "Picture" not in extract(_photo_story(2)).text
    text = extract(_photo_story(4, intro=6).replace("here is the day", "here is the whole long day")).text
    assert "Picture" not in text and text.count("council met") == 6


def _appeal_page(variant_class: str) -> str:
    """A story of three paragraphs, then a donation appeal in three variants, of which a
    script shows one: in the markup, each carries ``variant_class``."""
    story = "".join(f"<p>{SENTENCE} Part {n}.</p>" for n in range(3))
    variants = "".join(
        f"<div class='{variant_class}'><p>We believe that everyone needs good journalism, and we keep"
        f" it free for all readers, so we ask for your help today. Variant {n}.</p></div>"
        for n in range(3)
    )
    return (
        "<html><head><title>Bridge plan agreed</title></head><body>"
        f"<h1>Bridge plan agreed</h1><div class='entry'>{story}<div class='appeal'>{variants}</div></div>"
        "</body></html>"
    )


def test_parts_hidden_by_the_utility_class_hidden_are_cut() -> None:
    # the appeal's variants are hidden by the class a script removes from one of them
    text = extract(_appeal_page("variant hidden")).text
    assert text.count("Part") == 3 and "Variant" not in text
    assert extract(_appeal_page("variant hidden"), cut_hidden_class=False).text.count("Variant") == 3
    # shown on wider screens (a responsive variant), or a name that only holds the word
    assert extract(_appeal_page("variant hidden md:block")).text.count("Variant") == 3
    assert extract(_appeal_page("variant hidden-xs")).text.count("Variant") == 3


def test_too_few_headline_links_make_no_listing_without_counting_teasers(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # each teaser has a headline link of its own: four of them cannot make MIN_TEASERS
    doc = document(_desk_page(4))
    body = node_at(doc, "//body")
    assert headline_links(doc.stats, [body]) == 4 == teaser_count(doc.stats, [body])[0]
    five = document(_desk_page(5))
    assert headline_links(five.stats, [node_at(five, "//body")]) == 5

    def no_walk(*args: object) -> tuple[int, int]:
        raise AssertionError("teasers counted")

    monkeypatch.setattr(article_module, "teaser_count", no_walk)
    assert not is_listing(doc.stats, [body], frozenset(range(len(doc.stats))))


def test_a_product_page_keeps_its_name_price_and_stock_lines() -> None:
    # Short lines without punctuation around a product's description (price, stock, sizes,
    # delivery) are the product's; at an article's edges they are a byline's and a share
    # bar's kind of line, and cut.
    description = (
        "<p>Engineered as a light and packable insulation layer, this jacket stays warm even "
        "when wet and has become a favourite for daily use around town or at the crag.</p>"
    )
    page = (
        "<html><body><nav><a href='/'>Shop</a> <a href='/men'>Men</a> <a href='/women'>Women</a></nav>"
        "<main><div class='product'><div class='gallery'><img src='a.jpg'></div><div class='buy'>"
        "<h1>Nano jacket for men</h1><div class='price'>$229.00 excluding tax</div>"
        "<div class='stock'>In stock at our store</div>"
        "<div class='sizes'><span>Size</span> <span>S</span> <span>M</span> <span>L</span></div>"
        f"<div class='shipping'>Free shipping over $100</div><div class='description'>{description}</div>"
        "</div></div></main><footer><a href='/about'>About us</a> <a href='/jobs'>Jobs</a></footer>"
        "</body></html>"
    )
    article = extract(page, page_type="article", metadata=False)
    assert article.text.startswith("Engineered as a light") and "$229.00" not in article.text
    product = extract(page, page_type="product", metadata=False)
    assert product.text.splitlines()[:4] == [
        "$229.00 excluding tax",
        "In stock at our store",
        "Size S M L",
        "Free shipping over $100",
    ]
    assert product.text.endswith("at the crag.") and product.title == "Nano jacket for men"


def test_a_section_is_widened_to_its_parent_when_the_parent_keeps_more_value() -> None:
    # An offer in three paragraphs (3 x 12 words), a grid of twenty one-word labels
    # (1 - 3 each: -40), a second offer in two paragraphs (24): <main> totals 20, less than
    # the first offer's 36, but keeps 60 once the grid is pruned, 0.67 more than 36.
    first = "".join(
        f"<p>Our advisers plan your move {n}, pack every room and drive it.</p>" for n in range(3)
    )
    grid = "<section class='grid'>" + "".join(f"<div>Feature{n}</div>" for n in range(20)) + "</section>"
    second = "".join(
        f"<p>Storage {n} is heated, guarded day and night, and open daily.</p>" for n in range(2)
    )
    page = (
        "<html><body><nav><a href='/'>Home</a> <a href='/about'>About</a></nav>"
        f"<main><section id='first'>{first}</section>{grid}<section>{second}</section></main>"
        "<footer><a href='/jobs'>Jobs</a></footer></body></html>"
    )
    doc = document(page)
    fixed = {"by_page_type": False, "unpunctuated_penalty": 3.0, "penalty_recheck_words": 0}
    narrow = auto.select(doc, auto.AutoParams(**fixed))  # type: ignore[arg-type]
    assert narrow.nodes == (node_at(doc, "//section[@id='first']"),)
    for gain, root in ((0.6, "//main"), (0.7, "//section[@id='first']")):
        selection = auto.select(doc, auto.AutoParams(**fixed, section_widen_gain=gain))  # type: ignore[arg-type]
        assert selection.nodes == (node_at(doc, root),)
    widened = auto.select(doc, auto.AutoParams(**fixed, section_widen_gain=0.3))  # type: ignore[arg-type]
    assert node_at(doc, "//section[@class='grid']") in widened.excluded
