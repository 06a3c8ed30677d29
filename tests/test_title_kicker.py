"""Kickers and site names around the headline (issue 19: the title on sites never seen).

A kicker is a section or column label a heading shows before the headline ("Politics |",
a "Opinion" span); a site name set off in ``og:title`` as in ``<title>``. The title leaves
either out when the page's metadata states the headline without it; the headline
element (NCE's title search, which ``auto`` and the metadata stage read) is the heading
that shows it, kicker and all.
"""

from __future__ import annotations

from lxml import html as lxml_html

from helpers import document
from scrapy_mainc import extract
from scrapy_mainc.core._title import find_titles

HEADLINE = "Council approves the new bridge over the river"
STORY = "".join(
    f"<p>The council voted on the plan for the bridge, number {n}, after a long debate. It opens soon.</p>"
    for n in range(6)
)


def _page(heading: str, og_title: str = HEADLINE, title: str = f"{HEADLINE} | City News") -> str:
    return (
        f"<html><head><title>{title}</title><meta property='og:title' content='{og_title}'></head>"
        f"<body><div class='story'>{heading}{STORY}</div></body></html>"
    )


def _titles(page: str) -> tuple[str, str]:
    titles = find_titles(lxml_html.document_fromstring(page))
    return titles.title, titles.shown


def test_a_kicker_set_off_by_a_bar_is_left_out_when_the_metadata_states_the_headline() -> None:
    page = _page(f"<h1>Politics | {HEADLINE}</h1>")
    assert _titles(page) == (HEADLINE, f"Politics | {HEADLINE}")
    result = extract(page)
    assert result.title == HEADLINE
    # the heading showing it is the page's headline, as before: not part of the text
    assert "Politics" not in result.text and result.text.startswith("The council voted")
    doc = document(page)
    assert doc.headline >= 0 and doc.stats.tags[doc.headline] == "h1"


def test_a_kicker_in_an_element_of_its_own_is_left_out_when_og_title_sets_it_off() -> None:
    page = _page(f"<h1><span class='kicker'>Opinion</span> {HEADLINE}</h1>", og_title=f"Opinion | {HEADLINE}")
    assert _titles(page) == (HEADLINE, f"Opinion {HEADLINE}")
    assert extract(page).title == HEADLINE


def test_the_kicker_stays_when_the_metadata_does_not_leave_it_out() -> None:
    # og:title says something else: nothing confirms the label is not part of the headline
    page = _page(f"<h1>Politics | {HEADLINE}</h1>", og_title="Politics | Council approves a bridge")
    assert _titles(page)[0] == f"Politics | {HEADLINE}"
    # a first child element that is the headline's first words, not a label apart
    page = _page("<h1><b>Council approves</b> the new bridge over the river</h1>")
    assert _titles(page)[0] == HEADLINE


def test_a_label_of_more_than_two_words_is_part_of_the_headline() -> None:
    heading = "Best Spy Apps 2023 | Top 10 Reviewed In-Depth"
    page = _page(f"<h1>{heading}</h1>", og_title="Top 10 Reviewed In-Depth", title=heading)
    assert _titles(page)[0] == heading


def test_og_title_loses_the_site_name_that_title_sets_off_too() -> None:
    page = (
        f"<html><head><title>Fact Desk | {HEADLINE}</title>"
        f"<meta property='og:title' content='Fact Desk - {HEADLINE}'></head>"
        f"<body><div>{STORY}</div></body></html>"
    )
    assert _titles(page)[0] == HEADLINE


def test_og_title_keeps_a_part_that_is_a_headline_itself() -> None:
    # the other part is headline-like (three words or more): the site's tagline or a
    # second clause, not a site name; <title>'s longest part is not enough to cut it
    first = "Local horses that won this weekend"
    second = "The auction market news and the latest sire information"
    page = (
        f"<html><head><title>{first} - {second}</title>"
        f"<meta property='og:title' content='{first} - {second}'></head>"
        f"<body><div>{STORY}</div></body></html>"
    )
    assert _titles(page)[0] == f"{first} - {second}"


def test_a_tag_in_brackets_after_the_headline_is_left_out_when_the_title_states_it_without() -> None:
    # the heading's quotes are curly, <title>'s straight: the same words all the same
    quoted = "‘Bigger Houses’ wins the vote on the new bridge"
    page = _page(
        f"<h1>{quoted} [Watch]</h1>",
        og_title=f"WATCH: {quoted}",
        title="'Bigger Houses' wins the vote on the new bridge",
    )
    assert _titles(page) == (quoted, f"{quoted} [Watch]")
    result = extract(page)
    assert result.title == quoted
    assert "Watch" not in result.text and result.text.startswith("The council voted")
    assert _titles(_page(f"<h1>{HEADLINE} (VIDEO)</h1>"))[0] == HEADLINE


def test_a_tag_in_brackets_stays_when_the_metadata_has_it_or_it_is_part_of_the_headline() -> None:
    # og:title and <title> carry the tag too: nothing says it is not the headline's
    tagged = f"{HEADLINE} [Watch]"
    assert _titles(_page(f"<h1>{tagged}</h1>", og_title=tagged, title=tagged))[0] == tagged
    # words in brackets the metadata states as part of the headline
    aside = f"{HEADLINE} (and the old one closes)"
    assert _titles(_page(f"<h1>{aside}</h1>", og_title=aside, title=aside))[0] == aside
    # brackets longer than a kicker are the headline's own, whatever the metadata says
    long_aside = f"{HEADLINE} (after a long wait)"
    assert _titles(_page(f"<h1>{long_aside}</h1>"))[0] == long_aside
