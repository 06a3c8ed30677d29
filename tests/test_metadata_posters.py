"""Authors of forum and Q&A threads: the thread's original poster, by the user name the
forum shows, from the opening post's markup (JSON-LD ``DiscussionForumPosting``, a
``QAPage``'s ``Question``, microdata of the question outside its answers and comments)."""

from __future__ import annotations

import json

from scrapy_mainc import extract

POST = (
    "<p>"
    + "I have tried every setting in the panel and the printer still drops the job halfway. " * 3
    + "</p>"
)
REPLY = "<p>" + "Check the driver version first, then reset the spooler service and try again. " * 3 + "</p>"
URL = "https://forum.example.org/t/printer-drops-jobs/123"


def _jsonld(*objects: object) -> str:
    return "".join(f"<script type='application/ld+json'>{json.dumps(obj)}</script>" for obj in objects)


def _thread(head: str = "", first: str = "", second: str = "") -> str:
    return (
        f"<html><head><title>Printer drops jobs - Example Forum</title>{head}</head><body>"
        "<nav><a href='/'>Latest</a> <a href='/categories'>Categories</a></nav>"
        f"<h1>Printer drops jobs</h1><div class='post'>{first}{POST}</div>"
        f"<div class='post'>{second}{REPLY}</div><div class='post'>{REPLY}</div></body></html>"
    )


def _authors(page: str, page_type: str | None = "forum") -> tuple[str, ...]:
    return extract(page, url=URL, page_type=page_type).metadata.authors


def _person(name: str) -> dict[str, str]:
    return {"@type": "Person", "name": name, "url": f"https://forum.example.org/u/{name}"}


# JSON-LD: the opening post


def test_a_qa_pages_question_gives_its_asker_by_user_name() -> None:
    page = {
        "@type": "QAPage",
        "mainEntity": {"@type": "Question", "name": "Printer drops jobs", "author": _person("raoul")},
    }
    assert _authors(_thread(_jsonld(page))) == ("raoul",)


def test_a_web_pages_main_entity_posting_gives_its_poster() -> None:
    posting = {
        "@type": "DiscussionForumPosting",
        "headline": "Printer drops jobs",
        "author": _person("felix_en"),
    }
    page = {"@type": "WebPage", "url": URL, "mainEntity": posting}
    assert _authors(_thread(_jsonld(page))) == ("felix_en",)


def test_a_posting_of_its_own_gives_its_poster_whatever_the_page_type() -> None:
    posting = {
        "@type": "DiscussionForumPosting",
        "headline": "Printer drops jobs",
        "author": _person("TissueBox"),
    }
    assert _authors(_thread(_jsonld(posting)), page_type="article") == ("TissueBox",)


def test_a_story_of_the_page_wins_over_a_posting() -> None:
    story = {"@type": "NewsArticle", "headline": "Printer drops jobs", "author": _person("Jane Doe")}
    posting = {
        "@type": "DiscussionForumPosting",
        "headline": "Printer drops jobs",
        "author": _person("raoul"),
    }
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
