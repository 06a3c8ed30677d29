"""The parameters of the reader-comment stage (:mod:`._comments`): which kinds of evidence
it reads, and how much of a selection each may take."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class CommentParams:
    """Parameters of the comment-region search (NCE phase 2)."""

    #: Blocks in a component that mark a comment region (the paper: at least 3).
    min_blocks: int = 3
    #: Largest number of elements between the end of one block and the start of an alike
    #: block for the two to be "close in DFS order".
    max_gap: int = 12
    #: Require a date in every block of the component (the paper's evidence of comments:
    #: dates, permalinks, author lines); without it any list of alike items qualifies.
    require_date: bool = True
    #: Share of the selection's characters that must come before the region. Comments
    #: follow the body; a "region" that starts near the top is a run of alike blocks
    #: inside the article (dated photo captions, timelines), not comments. Tuned on the
    #: shared datasets: 0.2 keeps every article body and still drops long threads.
    min_preceding_share: float = 0.2
    #: Largest share of the selection's characters allowed after the last block of the
    #: component: comments end the page; alike dated blocks followed by more article
    #: text (embedded social posts) are not comments.
    max_following_share: float = 0.25
    #: A heading that titles a comment section (``_comment_regions._COMMENT_HEADING_RE``)
    #: marks the start of the comment region, under the same ``min_preceding_share`` rule.
    headings: bool = True
    #: Fewest words the stage leaves of a selection that had more, unless the evidence is
    #: strong (see the docstring of ``core._comments``): two sentences. 0 turns the guard off. On the
    #: development data, the shortest article left after a correct removal has 77 words.
    min_kept_words: int = 30
    #: Blocks that open with an ``<h1>``-``<h3>`` heading are sections of the text (the
    #: items of a listicle, each with its date), never comments.
    sections_are_text: bool = True
    #: Customer reviews are comments too: a container named ``reviews``
    #: (``_comment_names.REVIEW_TOKENS``, in a name without its BEM modifier: not
    #: ``product--has-reviews``) is a comment section if it holds at most two thirds of
    #: the selection's words, or more with alike dated blocks or a comment heading; a
    #: story named so is protected as one named as comments is.
    #: None (the default): as the page's type says, on for products, whose reviews are the
    #: buyers' comments (``REVIEWS_ARE_COMMENTS`` in ``..algorithms._page_type_params``).
    reviews: bool | None = None
    #: A run of alike dated blocks closing the selection marks the comment region (NCE's
    #: phase 2, above). None (the default): as the page's type says, off on listings and
    #: collections, whose items are such a run (a news section's dated teasers, a chart's
    #: entries; ``ITEMS_ARE_CONTENT`` in ``..algorithms._page_type_params``); the names and
    #: the comment headings still count there.
    dated_runs: bool | None = None
