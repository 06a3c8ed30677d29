"""A thread's replies (``AutoParams.thread_posts``): a choice that keeps one post takes in
the run of posts beside it, and pruning keeps each reply's sentences, not only its total."""

from __future__ import annotations

from helpers import document, node_at
from scrapy_mainc import extract
from scrapy_mainc.algorithms import _blocks, _context, _thread, auto
from scrapy_mainc.algorithms._auto_params import AutoParams
from scrapy_mainc.algorithms._page_type_params import PAGE_TYPE_PRESETS
from scrapy_mainc.algorithms._values import block_values
from scrapy_mainc.core._types import Document

QUESTION = " ".join(
    f"My old planer {n} leaves ridges on every board, even after I sharpened the blade twice."
    for n in range(4)
)
REPLIES = [
    "Check that both knives sit at the same height, then take a lighter cut.",
    "The rollers may be worn, so the board lifts, and the cut dips at each end.",
    "Feed the boards with the grain, or the blade tears the fibres as it leaves.",
    "Wax the bed with paste wax, it lets the board slide evenly past the knives.",
]


def _labels(name: str) -> str:
    """An author's lines: name, rank, join date, post count, buttons (no punctuation)."""
    return (
        f"<div class='user'><h4>{name}</h4><div>Senior Member</div><div>Joined Mar 2019</div>"
        "<div>Messages 1024</div></div>"
    )


def _post(kind: str, name: str, body: str) -> str:
    buttons = "<div class='bar'><span>Like</span></div><div class='bar'><span>Quote</span></div>"
    return f"<div class='{kind}'>{_labels(name)}<div class='body'><p>{body}</p></div>{buttons}</div>"


def _page() -> str:
    first = _post("first-post", "asker", QUESTION)
    replies = "".join(_post("reply", f"user{n}", body) for n, body in enumerate(REPLIES))
    return (
        "<html><body><nav><a href='/'>Forums</a> <a href='/new'>New posts</a></nav>"
        f"<main><div class='thread'>{first}<div class='replies'>{replies}</div></div></main>"
        "<footer><a href='/terms'>Terms</a></footer></body></html>"
    )


def _values(params: AutoParams) -> tuple[Document, list[float]]:
    doc = document(_page())
    regions = _blocks.block_regions(doc.stats)
    context = _context.block_context(doc, regions, params)
    return doc, block_values(doc.stats, regions, context, doc.headline, params)


def test_a_run_of_posts_is_alike_siblings_each_with_a_sentence() -> None:
    params = AutoParams(by_page_type=False)
    doc, values = _values(params)
    runs = _thread.post_runs(doc.stats, values, 3, params.sentence_min_words)
    replies = [node_at(doc, f"//div[@class='replies']/div[{n}]") for n in range(1, 5)]
    assert runs == [replies]
    # four replies: a run of five would need one more
    assert _thread.post_runs(doc.stats, values, 5, params.sentence_min_words) == []


def test_a_reply_outweighed_by_its_author_s_lines_is_dropped_without_the_thread_rule() -> None:
    params = AutoParams(by_page_type=False, penalty_recheck_words=0)
    doc, values = _values(params)
    totals = doc.stats.subtree_totals(values)
    reply = node_at(doc, "//div[@class='replies']/div[1]")
    body = node_at(doc, "//div[@class='replies']/div[1]/div[@class='body']/p")
    assert values[body] >= params.sentence_min_words and totals[reply] < 0
    selection = auto.select(doc, params)
    (root,) = selection.nodes
    first = node_at(doc, "//div[@class='first-post']")
    assert doc.stats.contains(first, root)  # the question alone


def test_the_thread_rule_keeps_every_reply_s_sentences_and_drops_their_labels() -> None:
    assert PAGE_TYPE_PRESETS["forum"]["thread_posts"] is True
    params = AutoParams(by_page_type=False, penalty_recheck_words=0, thread_posts=True)
    doc = document(_page())
    selection = auto.select(doc, params)
    assert selection.nodes == (node_at(doc, "//div[@class='thread']"),)
    buttons = node_at(doc, "//div[@class='replies']/div[2]/div[@class='bar'][1]")
    assert buttons in selection.excluded
    text = extract(_page(), page_type="forum").text
    assert all(reply in text for reply in REPLIES) and QUESTION in text
    assert "Quote" not in text and "Forums" not in text


def _article_post(name: str, body: str) -> str:
    """A post as an ``<article>`` around its body's own ``<article>``, the author's lines
    (16 words) outnumbering a reply's (14)."""
    author = f"{_labels(name)}<div>Member since the spring of 2019 in Leeds</div>"
    return f"<article class='post'>{author}<article class='message'><p>{body}</p></article></article>"


def test_a_forum_post_s_body_in_an_inner_article_is_no_related_story() -> None:
    assert PAGE_TYPE_PRESETS["forum"]["cut_nested_articles"] is False
    posts = [_article_post("asker", QUESTION)]
    posts += [_article_post(f"user{n}", reply) for n, reply in enumerate(REPLIES)]
    page = "<html><body><main>" + "".join(posts) + "</main></body></html>"
    doc = document(page)
    body = node_at(doc, "//article[@class='post'][2]/article")
    # the author's 16 words outnumber the reply's 14: read as content related to the post
    assert body in _context.related_articles(doc.stats)
    assert REPLIES[0] not in extract(page, page_type="forum", cut_nested_articles=True).text
    text = extract(page, page_type="forum").text
    assert all(reply in text for reply in REPLIES)
