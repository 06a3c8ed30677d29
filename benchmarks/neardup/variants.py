"""The edits that make the pages of the near-duplicate benchmark (quality.py).

Each function takes an article's paragraphs (and a seeded ``random.Random``) and returns the
paragraphs of one variant. Copies of the story (must cluster with it):

* ``trimmed``: the last tenth cut at a sentence end;
* ``paragraph``: a paragraph of another article added (about a tenth of the length);
* ``cut-lead`` / ``cut-end``: the first / last one or two paragraphs gone (:func:`cut`);
* ``note``: an editor's note added at the top or the bottom.

A different story on the same news (must stay apart):

* ``rewrite``: the wire copy rewritten by another outlet (:func:`rewrite`).
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence

from scrapy_mainc.dedup import tokens

#: Share of an article cut by the ``trimmed`` edit, and wanted length of an added paragraph.
EDIT_SHARE = 0.1
#: ``cut-lead`` / ``cut-end`` remove two paragraphs (drawn half the time) only when at least
#: this many paragraphs stay, so that a cut copy keeps most of a short article.
MIN_PARAGRAPHS_LEFT = 3
#: ``rewrite``: share of sentences the other outlet keeps word for word (quotes, the facts
#: nobody rephrases), share it leaves out, and every how many tokens a rephrased sentence
#: has one replaced (a changed word breaks the 5 shingles that cover it, a changed character
#: the 4 character shingles).
REWRITE_KEEP = 0.4
REWRITE_DROP = 0.15
REWRITE_EVERY = 3

SENTENCE_END_RE = re.compile(r"(?<=[.!?。！？])\s*")

EDITOR_NOTES = {
    "en": (
        "Editor's note: This story has been updated to correct the title of a spokesperson "
        "quoted in the fifth paragraph. An earlier version also misstated the date of the "
        "hearing. We regret the errors.",
        "Editor's note: This article was first published yesterday evening and has been "
        "updated with new information and additional reporting from our correspondents.",
        "Editor's note: The following article contains descriptions that some readers may "
        "find distressing. Reader discretion is advised.",
    ),
    "zh": (
        "编者按：本文已更新，更正了第五段中一位发言人的职务。此前版本中听证会的日期也有误，特此更正并致歉。",
        "编者按：本文首发于昨日晚间，现根据最新情况及本报驻外记者的补充报道进行了更新。",
        "编者按：以下内容包含部分读者可能感到不适的描述，请谨慎阅读。",
    ),
}


def add_paragraph(paragraphs: Sequence[str], donor: Sequence[str], rng: random.Random) -> tuple[str, ...]:
    """Insert the donor's paragraph closest to ``EDIT_SHARE`` of the article's length."""
    wanted = EDIT_SHARE * len(tokens(" ".join(paragraphs)))
    added = min(donor, key=lambda paragraph: abs(len(tokens(paragraph)) - wanted))
    position = rng.randint(1, len(paragraphs) - 1)
    return (*paragraphs[:position], added, *paragraphs[position:])


def trim(paragraphs: Sequence[str]) -> tuple[str, ...]:
    """Cut the last ``EDIT_SHARE`` of the text, at a sentence end when there is one."""
    text = "\n".join(paragraphs)
    keep = text[: int(len(text) * (1 - EDIT_SHARE))]
    ends = [m.start() for m in SENTENCE_END_RE.finditer(keep) if m.start() > len(keep) // 2]
    cut_text = keep[: ends[-1]] if ends else keep.rsplit(" ", 1)[0]
    return tuple(p for p in cut_text.split("\n") if p.strip())


def cut(paragraphs: Sequence[str], lead: bool, rng: random.Random) -> tuple[str, ...]:
    """Without the first (``lead``) or last one or two paragraphs (two: drawn half the time,
    when ``MIN_PARAGRAPHS_LEFT`` remain)."""
    count = 2 if len(paragraphs) - 2 >= MIN_PARAGRAPHS_LEFT and rng.random() < 0.5 else 1
    return tuple(paragraphs[count:] if lead else paragraphs[:-count])


def add_note(paragraphs: Sequence[str], lang: str, rng: random.Random) -> tuple[str, ...]:
    """An editor's note (one of ``EDITOR_NOTES``) above or below the article."""
    note = rng.choice(EDITOR_NOTES[lang])
    return (note, *paragraphs) if rng.random() < 0.5 else (*paragraphs, note)


def rewrite(
    paragraphs: Sequence[str], donor: Sequence[str], lang: str, rng: random.Random
) -> tuple[str, ...]:
    """The story as another outlet writes it from the same wire copy.

    Per sentence: kept word for word with probability ``REWRITE_KEEP``, left out with
    ``REWRITE_DROP``, otherwise rephrased: every ``REWRITE_EVERY``-th token (from a random
    offset) replaced by a token of the donor article. A model of what survives a rewrite
    in shingles (quotes and stock sentences), not of fluent prose.
    """
    vocabulary = tokens(" ".join(donor)) or ["the"]
    joiner = "" if lang == "zh" else " "
    result = []
    for paragraph in paragraphs:
        sentences = []
        for sentence in (s for s in SENTENCE_END_RE.split(paragraph) if s.strip()):
            draw = rng.random()
            if draw < REWRITE_KEEP:
                sentences.append(sentence)
            elif draw >= REWRITE_KEEP + REWRITE_DROP:
                sentences.append(_rephrase(tokens(sentence), vocabulary, joiner, rng))
        if sentences:
            result.append(joiner.join(sentences))
    return tuple(result)


def _rephrase(words: list[str], vocabulary: Sequence[str], joiner: str, rng: random.Random) -> str:
    offset = rng.randrange(REWRITE_EVERY)
    changed = [rng.choice(vocabulary) if i % REWRITE_EVERY == offset else w for i, w in enumerate(words)]
    return joiner.join(changed) + ("。" if joiner == "" else ".")
