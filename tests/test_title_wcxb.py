"""Titles on documentation and forum pages (issue 33).

A heading's link to its own anchor (documentation): Sphinx, MkDocs and other generators put
a mark after each heading ("¶", "#", "§") that links to the heading; the title is the
heading without it. A "#" that is part of the words stays.

A forum thread's category after its title (forum): Discourse shows the thread's title and
its category badge in one title block; the title is the thread's, not the block's."""

from __future__ import annotations

import pytest

from scrapy_mainc import extract

SECTION = "".join(
    f"<p>Lists have more methods than append, number {n}: here is each of them with an example.</p>"
    for n in range(6)
)


def _doc_page(heading: str, title: str = "Python 3 documentation") -> str:
    return (
        f"<html><head><title>{title}</title></head><body><div class='body'>{heading}{SECTION}</div>"
        "</body></html>"
    )


@pytest.mark.parametrize(
    ("heading", "title"),
    [
        ("<h1>Data Structures<a class='headerlink' href='#data-structures' title='Link to this heading'>¶</a>"
         "</h1>", "Data Structures"),
        ("<h1 id='auth'>About authentication<a href='#auth'>#</a></h1>", "About authentication"),
        ("<h1>Models <a class='headerlink' href='#models'>§</a></h1>", "Models"),
    ],
)  # fmt: skip
def test_a_headings_link_to_itself_is_no_part_of_the_title(heading: str, title: str) -> None:
    assert extract(_doc_page(heading)).title == title


@pytest.mark.parametrize(
    ("heading", "title"),
    [
        ("<h1>Learning C#</h1>", "Learning C#"),  # the mark is a word's, not a link's
        ("<h1>Learning <a href='#csharp'>C#</a></h1>", "Learning C#"),  # a link, but not the mark alone
    ],
)
def test_a_mark_that_is_part_of_the_heading_stays(heading: str, title: str) -> None:  # guards
    assert extract(_doc_page(heading)).title == title


POST = (
    "<p>"
    + "I have tried every setting in the panel and the printer still drops the job halfway. " * 3
    + "</p>"
)


def test_a_category_shown_after_a_threads_title_is_no_part_of_it() -> None:
    page = (
        "<html><head><title>Printer drops jobs - Help - Example Forum</title>"
        "<meta property='og:title' content='Printer drops jobs'></head><body>"
        "<div id='topic-title'><h1><a href='/t/printer-drops-jobs/1'>Printer drops jobs</a></h1> "
        "<div class='topic-category'><a href='/c/help/3' class='badge'><span>Help</span></a></div></div>"
        f"<div class='topic-body crawler-post'>{POST}</div><div class='topic-body crawler-post'>{POST}</div>"
        "</body></html>"
    )
    assert extract(page, url="https://forum.example.org/t/printer-drops-jobs/1").title == "Printer drops jobs"
