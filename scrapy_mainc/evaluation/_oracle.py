"""The oracle of several extractors, and why a chosen extractor lost its pages.

Both work on :class:`~._evaluate.Report` records of one dataset (text or snippet gold),
so they run on saved results as well as fresh ones; ``benchmarks/quality/oracle.py`` prints them
for ``auto`` against its own algorithms and the peers.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ._evaluate import LOST_F1, PageResult, Report
from ._gold import summarize_scores

#: A page F1 from which a candidate is good: "another of its own algorithms scores 0.8 or
#: more there" is how issue 24 defines a wrong choice.
GOOD_F1 = 0.8
#: The kinds of a lost page, in the order they are decided (see :func:`split_lost`).
WRONG_CHOICE, LOST_BY_ALL, NEVER_BUILT = "wrong choice", "lost by every system", "never built"
LOSS_KINDS = (WRONG_CHOICE, NEVER_BUILT, LOST_BY_ALL)


@dataclass(frozen=True, slots=True)
class LostPage:
    """A page the chosen extractor lost, with the best candidate and the best peer there."""

    page_id: str
    kind: str
    f1: float
    best_candidate: str
    best_candidate_f1: float
    best_peer: str
    best_peer_f1: float

    def describe(self, chosen: str = "auto") -> str:
        """One line: the page, why it is of its kind, and the figures."""
        detail = ""
        if self.kind == NEVER_BUILT:
            detail = " (a peer)" if self.best_peer_f1 >= LOST_F1 else " (weak candidate)"
        peer = f"; best peer {self.best_peer} {self.best_peer_f1:.2f}" if self.best_peer else ""
        return (
            f"{self.page_id}{detail}: {chosen} {self.f1:.2f}; best candidate "
            f"{self.best_candidate} {self.best_candidate_f1:.2f}{peer}"
        )


def oracle(name: str, reports: Sequence[Report]) -> Report:
    """Per page, the result of the report with the highest page F1; a tie goes to the report
    that comes first. The reports must be over the same pages, in the same order."""
    if not reports:
        raise ValueError("the oracle of no reports")
    page_ids = [page.page_id for page in reports[0].pages]
    if any([page.page_id for page in report.pages] != page_ids for report in reports):
        raise ValueError("the oracle needs reports over the same pages in the same order")
    chosen = [
        max((report.pages[index] for report in reports), key=lambda result: result.score.f1)
        for index in range(len(page_ids))
    ]
    kind = reports[0].kind
    return Report(
        name, kind, summarize_scores(kind, (page.score for page in chosen)), 0.0, 0.0, tuple(chosen)
    )


def split_lost(chosen: Report, candidates: Sequence[Report], peers: Sequence[Report]) -> list[LostPage]:
    """The pages ``chosen`` lost (page F1 under :data:`LOST_F1`), each of one kind:

    - **wrong choice**: a candidate has page F1 at least :data:`GOOD_F1` there;
    - **lost by every system**: every candidate and every peer is under :data:`LOST_F1` too;
    - **never built**: the rest: no candidate reaches :data:`GOOD_F1`, yet a candidate or a
      peer reaches :data:`LOST_F1`.

    A tie for the best candidate or peer names the one that comes first.
    """
    candidate_pages = [(report.name, _by_page(report)) for report in candidates]
    peer_pages = [(report.name, _by_page(report)) for report in peers]
    chosen_pages = _by_page(chosen)
    lost = []
    for page_id in chosen.lost:
        candidate, candidate_f1 = _best(page_id, candidate_pages)
        peer, peer_f1 = _best(page_id, peer_pages)
        if candidate_f1 >= GOOD_F1:
            kind = WRONG_CHOICE
        elif candidate_f1 < LOST_F1 and peer_f1 < LOST_F1:
            kind = LOST_BY_ALL
        else:
            kind = NEVER_BUILT
        f1 = chosen_pages[page_id].score.f1
        lost.append(LostPage(page_id, kind, f1, candidate, candidate_f1, peer, peer_f1))
    return lost


def _by_page(report: Report) -> dict[str, PageResult]:
    return {page.page_id: page for page in report.pages}


def _best(page_id: str, reports: list[tuple[str, dict[str, PageResult]]]) -> tuple[str, float]:
    """The name and page F1 of the report doing best on ``page_id`` (``("", 0.0)`` for none)."""
    best_name, best_f1 = "", 0.0
    for name, pages in reports:
        f1 = pages[page_id].score.f1
        if not best_name or f1 > best_f1:
            best_name, best_f1 = name, f1
    return best_name, best_f1
