"""Reading Markdown back with a CommonMark parser (markdown-it-py, GFM tables and
strikethrough): the text a reader sees, the URLs it follows, and any raw HTML."""

from __future__ import annotations

from dataclasses import dataclass, field

from markdown_it import MarkdownIt
from markdown_it.token import Token

#: CommonMark with GFM's tables and strikethrough, raw HTML recognised (so it can be found).
PARSER = MarkdownIt("commonmark", {"html": True}).enable(["table", "strikethrough"])


@dataclass
class Read:
    """What a CommonMark reader makes of a Markdown text."""

    #: The text of every block, image descriptions left out, one block per line.
    text: str = ""
    #: Block kinds met: ``heading``, ``paragraph``, ``bullet_list``, ``table``, ``fence``...
    blocks: set[str] = field(default_factory=set)
    #: Link and image URLs.
    urls: list[str] = field(default_factory=list)
    #: Raw HTML the reader would pass through.
    html: list[str] = field(default_factory=list)
    #: Inline kinds met: ``strong``, ``em``, ``s``, ``link``, ``image``, ``code_inline``.
    inline: set[str] = field(default_factory=set)


def read(markdown: str) -> Read:
    found = Read()
    lines: list[str] = []
    for token in PARSER.parse(markdown):
        if token.type.endswith("_open"):
            found.blocks.add(token.type.removesuffix("_open"))
        if token.type in ("html_block", "html_inline"):
            found.html.append(token.content)
        elif token.type in ("fence", "code_block"):
            found.blocks.add(token.type)
            lines.append(token.content)
        elif token.type == "inline":
            lines.append(_inline_text(token.children or [], found))
    found.text = "\n".join(lines)
    return found


def _inline_text(children: list[Token], found: Read) -> str:
    pieces = []
    in_image = 0
    for child in children:
        kind = child.type
        if kind.endswith("_open"):
            found.inline.add(kind.removesuffix("_open"))
        if kind == "link_open":
            found.urls.append(str(child.attrGet("href")))
        elif kind == "image":
            found.inline.add("image")
            found.urls.append(str(child.attrGet("src")))
            in_image += 1  # its children are the description: not text of the page
        elif kind == "html_inline":
            found.html.append(child.content)
        elif kind in ("text", "code_inline") and not in_image:
            pieces.append(child.content)
            if kind == "code_inline":
                found.inline.add("code_inline")
        elif kind in ("softbreak", "hardbreak"):
            pieces.append("\n")
        if kind == "image":
            in_image -= 1
    return "".join(pieces)
