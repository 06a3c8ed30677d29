"""Rendering a selection as Markdown, over the statistics, like the plain text.

The walk is :func:`scrapy_mainc.core._render.render_text`'s: the same subtrees, the same
text pieces in the same order, excluded subtrees skipped with their tails kept, so the
Markdown holds the words of ``main_text`` and no others (image descriptions aside), and
it reads the tree before :func:`render_html` edits it. Every element that breaks a line
in the text ends a Markdown block: headings (``#``), paragraphs, list items (``-``,
``1.``), block quotes (``>``), fenced code (``<pre>``), GFM tables (data tables only, see
:mod:`._tables`; a layout table is the blocks it holds), ``---`` for ``<hr>``; ``<br>`` is a
hard line break. Inline: ``**strong**``, ``*emphasis*``, ``~~deleted~~``, ```code```,
``[links](url)`` and ``![alt text](src)``.

It is safe to render: text is escaped (``\\*``, ``\\[``, ``\\<``...: no HTML, no link, no
emphasis the page did not mark), and a link or image URL is emitted only when the HTML
output would keep it (http, https, mailto or relative, made absolute against the page's
URL: :func:`scrapy_mainc.core._sanitize.is_safe_url`, judged as emitted).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import dataclass, field

from ._markup import (
    EMPHASIS,
    HARD_BREAK,
    STRIKE,
    STRONG,
    code_fence,
    code_span,
    escape,
    inline_text,
    markdown_url,
    markup,
    plain,
    table_lines,
)
from ._sanitize import image_source, image_srcset, safe_srcset, safe_url
from ._stats import DomStats
from ._tables import data_tables
from ._tags import AMP_IMAGE_TAGS, BLOCK_TAGS, HEADING_TAGS
from ._types import OutputOptions

_EMPHASIS_OF = {"strong": STRONG, "b": STRONG, "em": EMPHASIS, "i": EMPHASIS, "cite": EMPHASIS,
                "dfn": EMPHASIS, "var": EMPHASIS, "s": STRIKE, "strike": STRIKE, "del": STRIKE}  # fmt: skip
_CODE_TAGS = frozenset({"code", "kbd", "samp", "tt"})
_LIST_TAGS = frozenset({"ul", "ol", "menu", "dir"})
#: Block quotes and list items nested deeper than this are written at this depth
#: (markdown-it reads 20 levels of nesting; CommonMark readers limit it).
MAX_NESTING = 16
#: The elements the writer has something to do with; the walk passes the others by.
_HANDLED = BLOCK_TAGS | set(_EMPHASIS_OF) | _CODE_TAGS | AMP_IMAGE_TAGS | {"a", "img", "br"}
#: Blocks that only end a paragraph where they start and end (outside tables and ``<pre>``).
_PLAIN_BLOCKS = BLOCK_TAGS - HEADING_TAGS - _LIST_TAGS - {
    "blockquote", "li", "pre", "table", "caption", "tbody", "thead", "tfoot", "tr", "td", "th", "hr", "br"
}  # fmt: skip
#: Placeholders, which a link label of nothing else does not show (``str.translate`` table).
_NOT_VISIBLE = dict.fromkeys(map(ord, HARD_BREAK + "".join(STRONG + EMPHASIS + STRIKE)), " ")


@dataclass(slots=True)
class _Container:
    """A block quote (``marker`` ``"> "``) or a list item (its marker, written before its
    first line only; later lines are indented by its width)."""

    marker: str
    item: bool
    first: bool = True

    def prefix(self) -> str:
        """The prefix of the next block's first line."""
        if self.item and self.first:
            self.first = False
            return self.marker
        return self.continuation()

    def continuation(self) -> str:
        """The prefix of every other line."""
        return " " * len(self.marker) if self.item else self.marker


@dataclass(slots=True)
class _Table:
    rows: list[list[str]] = field(default_factory=list)


class _Writer:
    """Builds the Markdown of a walk of open, text and close events."""

    def __init__(self, stats: DomStats, base_url: str | None, options: OutputOptions, tables: set[int]):
        self.stats, self.base_url, self.options, self.tables = stats, base_url, options, tables
        self.lines: list[str] = []
        self.inline: list[str] = []
        self.containers: list[_Container] = []
        self.pushed: list[bool] = []  # for each open <blockquote> and <li>: has a container
        self.lists: list[list[int]] = []  # [next number] of each open list; [0]: unordered
        self.heading = 0
        self.blocks = 0  # blocks flushed: a link or code span open across one is abandoned
        self.links: list[tuple[int, int, str] | None] = []
        self.code: list[tuple[int, int] | None] = []
        self.raw: list[str] | None = None  # text of the <pre> being written
        self.pre_depth = 0  # <pre> elements open (one inside another is a line break)
        self.table: _Table | None = None
        self.cell: list[str] | None = None
        self.tight = False  # the last block was a list item's first
        self.marked = False  # the block has emphasis placeholders
        self.emitted_in: list[_Container] = []  # the containers of the last block

    # --- events ------------------------------------------------------------------------

    def open(self, position: int) -> None:
        tag = self.stats.tags[position]
        if self.raw is not None:
            self.pre_depth += tag == "pre"
            if tag in BLOCK_TAGS:
                self.raw.append("\n")
        elif tag in _EMPHASIS_OF:
            self._mark(_EMPHASIS_OF[tag][0])
        elif tag == "a":
            self._open_link(position)
        elif tag in _CODE_TAGS:
            self.code.append(
                (len(self.inline), self.blocks) if self.options.formatting and not self.code else None
            )
        elif tag == "img" or tag in AMP_IMAGE_TAGS:
            self._image(position)
        elif tag == "br":
            self.inline.append(" " if self.heading or self.cell is not None else HARD_BREAK)
        elif tag in BLOCK_TAGS:
            self._open_block(position, tag)

    def close(self, position: int) -> None:
        tag = self.stats.tags[position]
        if self.raw is not None:
            self.pre_depth -= tag == "pre"
            if tag == "pre" and not self.pre_depth:
                self._close_pre()
            elif tag in BLOCK_TAGS:
                self.raw.append("\n")
        elif tag in _EMPHASIS_OF:
            self._mark(_EMPHASIS_OF[tag][1])
        elif tag == "a":
            self._close_link()
        elif tag in _CODE_TAGS:
            self._close_code()
        elif tag in BLOCK_TAGS and tag != "br":
            self._close_block(position, tag)

    def text(self, text: str | None) -> None:
        """Page text, as it is: :func:`inline_text` escapes a block's text at once, apart
        from the markup pieces (``markup``)."""
        if self.raw is not None:
            self.raw.append(plain(text or ""))
        elif text:
            self.inline.append(" " if text.isspace() else plain(text))

    # --- inline ------------------------------------------------------------------------

    def _mark(self, placeholder: str) -> None:
        if self.options.formatting and not self.code:
            self.inline.append(placeholder)
            self.marked = True

    def _open_link(self, position: int) -> None:
        url = (
            self._url(self.stats.nodes[position].get("href"))
            if self.options.links and not self.code
            else None
        )
        self.links.append((len(self.inline), self.blocks, url) if url else None)

    def _close_link(self) -> None:
        link = self.links.pop() if self.links else None
        if link is None or link[1] != self.blocks:
            return
        start, _, url = link
        label = "".join(self.inline[start:]).translate(_NOT_VISIBLE)
        if label.strip():
            self.inline.insert(start, markup("["))
            self.inline.append(markup(f"]({url})"))

    def _close_code(self) -> None:
        code = self.code.pop() if self.code else None
        if code is not None and code[1] == self.blocks:
            span = code_span("".join(self.inline[code[0] :]).replace(HARD_BREAK, " "))
            self.inline[code[0] :] = [markup(span)] if span else []

    def _image(self, position: int) -> None:
        if not self.options.images or self.code:
            return
        element = self.stats.nodes[position]
        url = self._url(image_source(element))
        if not url:  # only a srcset: its first candidate, when the HTML keeps the srcset
            first = _first_candidate(safe_srcset(image_srcset(element), self.base_url) or "")
            url = markdown_url(first) if first else None
        if url:
            alt = " ".join(plain(element.get("alt") or "").split())
            self.inline.append(markup(f"![{escape(alt)}]({url})"))

    def _url(self, value: str | None) -> str | None:
        emitted = safe_url(value, self.base_url) if value and value.strip() else None
        return markdown_url(emitted) if emitted else None

    # --- blocks ------------------------------------------------------------------------

    def _open_block(self, position: int, tag: str) -> None:
        if self.table is not None and tag in ("td", "th"):
            self.cell = self.inline = []
            return
        if self.table is not None and tag in ("tr", "thead", "tbody", "tfoot"):
            if tag == "tr":
                self.table.rows.append([])
            return
        self.flush()
        if tag in HEADING_TAGS:
            self.heading = int(tag[1])
        elif tag == "blockquote":
            self._push(_Container("> ", item=False))
        elif tag in _LIST_TAGS:
            start = self.stats.nodes[position].get("start", "1") if tag == "ol" else ""
            self.lists.append([int(start) if start.isdigit() else 1] if tag == "ol" else [0])
        elif tag == "li":
            self._push(_Container(self._item_marker(), item=True))
        elif tag == "pre":
            self.raw, self.pre_depth = [], 1
        elif tag == "table" and position in self.tables:
            self.table = _Table()
        elif tag == "hr":
            self._emit(["---"])

    def _item_marker(self) -> str:
        if not self.lists or not self.lists[-1][0]:
            return "- "
        number = self.lists[-1][0]
        self.lists[-1][0] += 1
        return f"{number}. "

    def _close_block(self, position: int, tag: str) -> None:
        if self.table is not None and tag in ("td", "th"):
            if not self.table.rows:
                self.table.rows.append([])
            self.table.rows[-1].append(self._cell())
            return
        if self.table is not None and tag in ("tr", "thead", "tbody", "tfoot"):
            return
        self.flush()
        if tag == "table" and self.table is not None:
            rows = [row for row in self.table.rows if any(row)]
            self.table = None
            if rows:
                self._emit(table_lines(rows))
        elif (tag == "blockquote" or tag == "li") and self.pushed.pop():
            self.containers.pop()
        elif tag in _LIST_TAGS and self.lists:
            self.lists.pop()
            self.tight = False  # the next list is another list

    def _cell(self) -> str:
        lines = inline_text(self.cell or [], breaks=False, marked=self.marked)
        self.marked = False
        self.cell, self.inline = None, []
        return lines[0] if lines else ""

    def _push(self, container: _Container) -> None:
        """Open a block quote or list item, up to ``MAX_NESTING`` deep (deeper ones, which
        CommonMark readers do not nest further either, are written at that depth)."""
        pushed = len(self.containers) < MAX_NESTING
        if pushed:
            self.containers.append(container)
        self.pushed.append(pushed)

    def _close_pre(self) -> None:
        lines = [line.rstrip() for line in "".join(self.raw or []).split("\n")]
        self.raw = None
        while lines and not lines[-1]:
            lines.pop()
        while lines and not lines[0]:
            lines.pop(0)
        if lines:
            self._emit(code_fence(lines))

    def flush(self) -> None:
        """End the block being written (a paragraph or heading) and emit it."""
        self.blocks += 1
        if self.code:
            self.code = [None] * len(self.code)  # an open code span's text is a block's text now
        if self.cell is not None:
            return
        if not self.inline:
            self.heading = 0
            return
        lines = inline_text(self.inline, breaks=not self.heading, marked=self.marked)
        self.inline, self.marked = [], False
        if lines and self.heading:
            heading = lines[0][:-1] + "\\#" if lines[0].endswith("#") else lines[0]
            lines = ["#" * self.heading + " " + heading]
        self.heading = 0
        if lines:
            self._emit(lines)

    def _emit(self, lines: list[str]) -> None:
        """Add a block, prefixed by its containers, after a blank line (none between the
        items of a tight list)."""
        starts_item = any(container.item and container.first for container in self.containers)
        if self.lines and not (starts_item and self.tight):  # inside the containers both are in
            shared = []
            for container, before in zip(self.containers, self.emitted_in):
                if container is not before:
                    break
                shared.append(container.continuation())
            self.lines.append("".join(shared).rstrip())
        rest = "".join(container.continuation() for container in self.containers)
        first = "".join(container.prefix() for container in self.containers)
        self.lines.append(first + lines[0])
        self.lines.extend(rest + line for line in lines[1:])
        self.tight = starts_item
        self.emitted_in = list(self.containers)


def render_markdown(
    stats: DomStats,
    roots: Iterable[int],
    excluded: Collection[int] = (),
    base_url: str | None = None,
    options: OutputOptions | None = None,
) -> str:
    """Markdown of the subtrees at ``roots`` (see the module docstring), with the links,
    images and emphasis that ``options`` keep."""
    roots = tuple(roots)
    options = options or OutputOptions()
    writer = _Writer(stats, base_url, options, set(data_tables(stats, roots, excluded)))
    end, tags, texts, tails = stats.end, stats.tags, stats.texts, stats.tails
    for root in roots:
        open_nodes: list[int] = []  # ~position for an excluded subtree: its tail only
        position, stop = root, end[root]
        while position < stop:
            while open_nodes and end[open_nodes[-1] if open_nodes[-1] >= 0 else ~open_nodes[-1]] <= position:
                _close(writer, open_nodes.pop(), root, tags, tails)
            if position in excluded and position != root:
                open_nodes.append(~position)
                position = end[position]
                continue
            tag = tags[position]
            if tag in _PLAIN_BLOCKS and writer.raw is None and writer.table is None:
                writer.flush()  # most blocks: a paragraph ends, nothing else
            elif tag in _HANDLED:
                writer.open(position)
            text = texts[position]
            if text:
                if writer.raw is None and not writer.code:
                    writer.inline.append(" " if text.isspace() else plain(text))
                else:
                    writer.text(text)
            open_nodes.append(position)
            position += 1
        while open_nodes:
            _close(writer, open_nodes.pop(), root, tags, tails)
        writer.flush()
    return "\n".join(line.rstrip() for line in writer.lines).strip("\n")


def _close(writer: _Writer, node: int, root: int, tags: list[str], tails: list[str | None]) -> None:
    """Close ``node`` (``~node``: an excluded subtree, not opened) and write its tail."""
    if node < 0:
        node = ~node
    elif tags[node] in _PLAIN_BLOCKS and writer.raw is None and writer.table is None:
        writer.flush()
    elif tags[node] in _HANDLED:
        writer.close(node)
    tail = tails[node] if node != root else None
    if not tail:
        return
    if writer.raw is None and not writer.code:  # as writer.text does, without the call
        writer.inline.append(" " if tail.isspace() else plain(tail))
    else:
        writer.text(tail)


def _first_candidate(srcset: str) -> str:
    """The URL of a ``srcset``'s first candidate (an image with no ``src``), or ``""``."""
    return (srcset.split(",", 1)[0].split() or [""])[0]
