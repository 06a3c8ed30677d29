"""Credits as blogs and company sites write them (issue 33, the WCXB pages): a personal
domain named after the person its JSON-LD credits, a name and the next word in elements
apart, a label in a sentence, pronouns and job titles where names are looked for."""

from __future__ import annotations

import json

import pytest
from test_metadata_authors import _authors, _page

from scrapy_mainc.metadata._credits import Context, read_credit


def _jsonld(obj: object) -> str:
    return f"<script type='application/ld+json'>{json.dumps(obj)}</script>"


def _credited(author: object, site_name: str = "") -> str:
    article = {"@type": "BlogPosting", "headline": "Bridge plan agreed", "author": author}
    og = f"<meta property='og:site_name' content='{site_name}'>" if site_name else ""
    return _page(og + _jsonld(article))


# A personal domain: janedoe.com credits the person Jane Doe (the last test guards the
# site's own names, which stay organisations)


def test_a_person_the_jsonld_credits_is_no_organisation_for_bearing_the_domains_name() -> None:
    page = _credited({"@type": "Person", "name": "Jane Doe"}, site_name="Notes on Bridges")
    assert _authors(page, url="https://janedoe.example/2023/bridge") == ("Jane Doe",)
    assert _authors(page, url="https://janedoe.substack.com/p/bridge") == ("Jane Doe",)


def test_the_visible_byline_of_a_personal_domain_names_its_person() -> None:
    page = _page(
        _jsonld(
            {
                "@type": "BlogPosting",
                "headline": "Bridge plan agreed",
                "author": {"@type": "Person", "name": "Ben Doe"},
            }
        ),
        "<p class='meta'>By Ben Doe</p>",
    )
    assert _authors(page, url="https://www.bendoe.example/posts/bridge") == ("Ben Doe",)


@pytest.mark.parametrize(
    ("author", "site_name", "url"),
    [
        # the name the site states is the site's, whatever type the markup gives it
        ({"@type": "Person", "name": "Quiet Harbour"}, "Quiet Harbour", "https://quietharbour.example/a"),
        # one word is a brand, not a person's full name
        ({"@type": "Person", "name": "Venturo"}, "", "https://venturo.example/a"),
        # untyped, the name of the domain stays the site's
        ("Jane Doe", "", "https://janedoe.example/a"),
    ],
)
def test_the_sites_own_name_stays_an_organisation(author: object, site_name: str, url: str) -> None:
    assert _authors(_credited(author, site_name), url=url) == ()


# A name and the next word in elements apart


@pytest.mark.parametrize(
    ("byline", "expected"),
    [
        ("<div class='post-meta'><span>By </span> <a href='/author/am/'>Alyssa Maio</a> <a href='/b'>on "
         "<time>December 5, 2023</time></a></div>", ("Alyssa Maio",)),
        ("<p class='meta'>by <a href='/author/nk/' rel='author'>Natalia Keogan</a> <br>in <a href='/c'>"
         "Festivals</a></p>", ("Natalia Keogan",)),
    ],
)  # fmt: skip
def test_white_space_between_elements_ends_a_name(byline: str, expected: tuple[str, ...]) -> None:
    assert _authors(_page(body=byline)) == expected


def test_a_word_split_over_elements_without_space_is_still_one_word() -> None:  # a guard
    assert _authors(_page(body="<p class='byline'>By <span>Molly Woo</span><span>d</span></p>")) == (
        "Molly Wood",
    )


# Labels in sentences, pronouns, job titles


@pytest.mark.parametrize(
    "sentence",
    [
        "<p><span>All of our content is written by humans, not robots.</span> <a>Learn More</a></p>",
        "<p><span>Our plans are written by coaches who race.</span></p>",
        "<div><span>Published by our engineering team</span></div>",
    ],
)
def test_a_label_in_a_sentence_or_before_a_pronoun_credits_nobody(sentence: str) -> None:
    assert _authors(_page(body=sentence)) == ()


def test_a_job_title_after_a_name_is_no_name() -> None:
    byline = (
        "<div class='meta'><span>By</span> <span class='author-name'><a href='/author/pf/'>Paul Frew</a>"
        "<span>, Home and Digital Security Expert</span></span> <span>&amp;</span> <span class='author-name'>"
        "<a href='/author/gp/'>Gene Petrino</a><span>, Home Security Expert</span></span></div>"
    )
    assert _authors(_page(body=byline)) == ("Paul Frew", "Gene Petrino")


@pytest.mark.parametrize(
    ("credit", "persons"),
    [
        ("Jane Doe, Home Security Expert", ["Jane Doe"]),
        ("Jane Doe, Data Specialist and John Roe", ["Jane Doe", "John Roe"]),
        ("our engineering team", []),
    ],
)
def test_read_credit_job_titles_and_pronouns(credit: str, persons: list[str]) -> None:
    assert read_credit(credit, Context(accounts_are_people=True)).persons == persons
