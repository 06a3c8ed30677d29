"""Authors of forum and Q&A threads: the thread's original poster, by the user name the
forum shows, from the opening post's markup (JSON-LD ``DiscussionForumPosting``, a
``QAPage``'s ``Question``, microdata of the question outside its answers and comments), else
from what the thread shows (a "Thread starter" label, the first element named as a user
name)."""

from __future__ import annotations

import json

import pytest

from scrapy_mainc import extract
from scrapy_mainc.metadata._credits import Context, read_credit

POST = (
    "<p>"
    + "I have tried every setting in the panel and the printer still drops the job halfway. " * 3
    + "</p>"
)
REPLY = "<p>" + "Check the driver version first, then reset the spooler service and try again. " * 3 + "</p>"
URL = "https://forum.example.org/t/printer-drops-jobs/123"


def _jsonld(*objects: object) -> str:
    return "".join(f"<script type='application/ld+json'>{json.dumps(obj)}</script>" for obj in objects)


def _thread(head: str = "", first: str = "", second: str = "", under: str = "") -> str:
    return (
        f"<html><head><title>Printer drops jobs - Example Forum</title>{head}</head><body>"
        "<nav><a href='/'>Latest</a> <a href='/categories'>Categories</a></nav>"
        f"<h1>Printer drops jobs</h1>{under}<div class='post'>{first}{POST}</div>"
        f"<div class='post'>{second}{REPLY}</div><div class='post'>{REPLY}</div></body></html>"
    )


def _authors(page: str, page_type: str | None = "forum") -> tuple[str, ...]:
    return extract(page, url=URL, page_type=page_type).metadata.authors


def _person(name: str) -> dict[str, str]:
    return {"@type": "Person", "name": name, "url": f"https://forum.example.org/u/{name}"}


def _posting(poster: str) -> dict[str, object]:
    return {"@type": "DiscussionForumPosting", "headline": "Printer drops jobs", "author": _person(poster)}


# JSON-LD: the opening post


def test_a_qa_pages_question_gives_its_asker_by_user_name() -> None:
    page = {
        "@type": "QAPage",
        "mainEntity": {"@type": "Question", "name": "Printer drops jobs", "author": _person("raoul")},
    }
    assert _authors(_thread(_jsonld(page))) == ("raoul",)


def test_a_web_pages_main_entity_posting_gives_its_poster() -> None:
    posting = _posting("felix_en")
    page = {"@type": "WebPage", "url": URL, "mainEntity": posting}
    assert _authors(_thread(_jsonld(page))) == ("felix_en",)


def test_a_posting_of_its_own_gives_its_poster_whatever_the_page_type() -> None:
    posting = _posting("TissueBox")
    assert _authors(_thread(_jsonld(posting)), page_type="article") == ("TissueBox",)


def test_a_story_of_the_page_wins_over_a_posting() -> None:
    story = {"@type": "NewsArticle", "headline": "Printer drops jobs", "author": _person("Jane Doe")}
    posting = _posting("raoul")
    assert _authors(_thread(_jsonld(story, posting))) == ("Jane Doe",)


# Microdata: the question's author, not its answers' or comments'


def _card(name: str) -> str:
    return (
        "<div class='user-info' itemprop='author' itemscope itemtype='http://schema.org/Person'>"
        f"<a href='/users/{name}'>{name}</a> <span>1,655</span></div>"
    )


def _qa_thread() -> str:
    question = f"<div itemprop='mainEntity' itemscope itemtype='https://schema.org/Question'>{_card('drat')}"
    answer = "<div itemprop='suggestedAnswer' itemscope itemtype='https://schema.org/Answer'>{}</div>"
    comment = "<li itemprop='comment' itemscope itemtype='https://schema.org/Comment'>{}</li>"
    return _thread(
        first=question,
        second=comment.format(_card("vartec")) + answer.format(_card("Flimzy Jones")) + "</div>",
    )


def test_a_forum_questions_microdata_author_is_its_asker_by_user_name() -> None:
    assert _authors(_qa_thread()) == ("drat",)


def test_on_an_article_a_user_name_in_microdata_is_an_account_and_answers_are_not_authors() -> None:
    assert _authors(_qa_thread(), page_type="article") == ()


# What the thread shows: the original poster's label, the first user name


@pytest.mark.parametrize(
    ("under", "expected"),
    [
        # a label for screen readers, the user name in a link beside it
        ("<ul class='p-description'><li><i class='fa-user'></i><span class='u-srOnly'>Thread starter</span> "
         "<a href='/members/ridwan123.29/' class='username'>ridwan123</a></li><li>Jan 5, 2025</li></ul>",
         ("ridwan123",)),
        ("<p id='pageDescription'>Discussion in '<a href='/f/65/'>Hosting Advice</a>' started by "
         "<a href='/members/pelex.13/'>pelex</a>, Jan 5, 2025.</p>", ("pelex",)),
        # a link aggregator's submitter
        ("<div class='byline'><span>via</span> <a href='/~scvalex'>scvalex</a> <span>3 hours</span></div>",
         ("scvalex",)),
    ],
)  # fmt: skip
def test_a_forums_label_of_the_original_poster(under: str, expected: tuple[str, ...]) -> None:
    assert _authors(_thread(under=under)) == expected


def test_the_first_element_named_as_a_user_name_is_the_poster() -> None:
    profile = (
        "<dl class='postprofile'><dt><a href='/memberlist.php?u=4211' class='username'>b.scherer</a></dt>"
        "<dd>Posts: 12</dd></dl>"
    )
    second = (
        "<dl class='postprofile'><dt><a href='/memberlist.php?u=77' class='username'>galitsyn</a></dt></dl>"
    )
    assert _authors(_thread(first=profile, second=second)) == ("b.scherer",)


def test_a_forum_rank_is_no_user_name() -> None:
    profile = "<div class='author_information'><span class='username'>Members</span></div>"
    assert _authors(_thread(first=profile)) == ()


def test_on_an_article_forum_labels_and_user_names_credit_nobody() -> None:  # a guard
    under = "<p><span>Thread starter</span> <a href='/members/pelex.13/' class='username'>pelex</a></p>"
    assert _authors(_thread(under=under), page_type="article") == ()


def test_the_posters_markup_wins_over_a_byline_quoted_in_the_thread() -> None:
    posting = _posting("beijingwalker")
    quoted = "<blockquote><p class='byline'>By ERIK VAN KLINKEN</p></blockquote>"
    assert _authors(_thread(_jsonld(posting), first=quoted)) == ("beijingwalker",)


@pytest.mark.parametrize(
    ("credit", "persons", "organisations"),
    [
        ("ridwan123 Member", ["ridwan123"], []),  # digits inside a user name stay
        ("Diêgo Holanda, G1 RO", ["Diêgo Holanda"], []),  # digits make no name of several words
        ("Members", [], ["Members"]),  # a rank, not a person
    ],
)
def test_read_credit_user_names(credit: str, persons: list[str], organisations: list[str]) -> None:
    credited = read_credit(credit, Context(accounts_are_people=True))
    assert (credited.persons, credited.organisations) == (persons, organisations)
