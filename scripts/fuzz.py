#!/usr/bin/env python3
"""Fuzz ``extract``: mutated real pages and generated nasty shapes through every algorithm.

    .venv/bin/python scripts/fuzz.py --seed 1 --pages 3000            # ~33,000 extractions
    .venv/bin/python scripts/fuzz.py --seed 7 --pages 200 --algorithms auto,corex
    .venv/bin/python scripts/fuzz.py --pages 500 --save /tmp/fuzz     # keep failing pages

Seed pages are the development datasets (``html/*.html`` under each ``--datasets``
directory; by default ``../shared/datasets`` next to the repository when it exists) and the
test pages in ``tests/data``. Each fuzzed page is a seed with a few mutations (bytes
inserted, deleted, duplicated or flipped; nasty markup spliced in: unsafe URLs (also behind
Unicode spaces and other invisible characters), forms,
control characters, void elements left open with control characters after them, in what
they hold and in their attributes, unclosed quotes and comments, deep nesting, many
attributes, charset declarations and BOMs; re-encoded), or a generated shape (tag soup,
binary data, huge text, br siblings, comment blocks, deep nesting, void elements with
control characters...). Every page goes through every
algorithm, as bytes or as text, and each result is checked:

* ``extract`` returns an :class:`Extraction` and never raises;
* empty text comes with a reason, non-empty text without one;
* the call takes at most ``--base-seconds`` plus ``--seconds-per-mb`` per megabyte, a
  "<" counting as 50 bytes (``--no-time`` to skip: tests run without timing checks);
* the text, title and metadata text fields hold no control character (but line feeds);
* a page over ``MAX_PAGE_BYTES`` is refused ("page too large");
* the HTML output parses to no unsafe element, no ``on*`` attribute, no URL with a scheme
  other than http, https or mailto (read as any reader may: NFKC, without Unicode
  spaces, controls and other characters that are not printable), no ``style`` with
  ``expression``/``javascript:``, and no control character.

Exit status 1 when any check failed; each failure is printed with its seed and page
number (and saved with ``--save``), so ``--seed S --pages N`` reproduces it.
"""

from __future__ import annotations

import argparse
import html
import random
import re
import sys
import time
import unicodedata
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from lxml import etree

from scrapy_mainc import ALGORITHMS, MAX_PAGE_BYTES, Extraction, extract

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_DATASETS = (ROOT.parent / "shared" / "datasets", ROOT.parent.parent / "shared" / "datasets")
#: Elements the output must never contain.
UNSAFE_ELEMENTS = frozenset(
    "script style iframe frame frameset object embed applet form input button select textarea "
    "portal meta link base svg math template noscript keygen isindex plaintext xmp listing noembed "
    "noframes dialog".split()
)
#: Attribute name prefixes of script frameworks (Alpine, Vue, Angular, htmx) and data-*.
FRAMEWORK_PREFIXES = ("x-", "@", ":", "v-", "ng-", "hx-", "data-")
URL_ATTRIBUTES = frozenset(
    "href src srcset action formaction ping cite background xlink:href poster longdesc lowsrc "
    "dynsrc data codebase usemap manifest icon profile classid archive".split()
)
_CONTROL_RE = re.compile("[\\x00-\\x08\\x0b\\x0c\\x0e-\\x1f]")
#: Characters a reader of a URL may drop (str.strip, a browser) or that turn into spaces:
#: controls, format characters, separators, noncharacters (from the Unicode database).
INVISIBLE = tuple(
    char
    for code in range(0x10000)
    for char in (chr(code),)
    if unicodedata.category(char) in {"Cc", "Cf", "Zs", "Zl", "Zp"} or code in (0xFFFE, 0xFFFF)
)
URL_TEMPLATES = (
    '<a href="{c}javascript:alert(1)">x</a>',
    '<img src="{c}javascript:alert(1)" srcset="{c}javascript:x 1x">',
    "<q cite='java{c}script:x'>quoted</q>",
    '<a href="/ok" ping="{c}vbscript:x">ping</a>',
    '<p style="background: url({c}javascript:x)">styled text, here.</p>',
    "<base href='{c}https://evil.example/'>",
    '<img src="data:," data-src="{c}javascript:alert(1)" data-srcset="{c}javascript:x 1x">',
)
_SCHEME_RE = re.compile(r"([a-z][a-z0-9+.\-]*):")
_DOCUMENT_TAG_RE = re.compile(r"<(html|body)\b", re.I)

#: Markup spliced into pages.
NASTY_SNIPPETS = (
    '<a href="javascript:alert(1)">x</a>',
    "<a href='javascript&colon;alert(1)'>x</a>",
    '<a href=" jav&#x09;ascript:alert(1)">x</a>',
    '<img src="data:text/html,<script>alert(1)</script>" srcset="a.png 1x, vbscript:x 2x">',
    '<img data-original="jav&#x09;ascript:alert(1)" data-lazy-src="/a\x01b.jpg" alt="lazy">',
    # void elements lxml's parser nests what follows in when they are left open
    '<embed src="javascript:alert(1)"><p>After the embed, a sentence of the story.</p>',
    '<picture><source srcset="jav&#x09;ascript:x 1x"><source srcset="/b.webp"><img alt="pic"></picture>',
    "<source src='x.mp4'><track src='x.vtt'><keygen>text after them<wbr>and a word",
    '<p style="width: expression(alert(1)); background: url(javascript:x)">styled text, here.</p>',
    '<p style="background: url(\\6a avascript:x)">escaped css.</p>',
    "<form action='javascript:x'><p>Form text, long enough to count as a sentence here.</p></form>",
    "<portal src='https://evil.example/'></portal>",
    '<blockquote cite="vbscript:x">Quoted words, in a block.</blockquote>',
    '<div onclick="x()" onmouseover="y()">handlers</div>',
    "<svg><a xlink:href='javascript:x'>svg link</a></svg>",
    "<nav><a href=/>Home</a></nav>\x0b\x01\x1f",
    "\x00",
    "<!-- unclosed comment",
    "<script>var s = '</div><p>",
    '<div title="unclosed',
    "<![CDATA[ cdata ]]>",
    "</div></div></div></p></body></html>",
    "<table><tr><td><p>Cell text, with a comma.</td></table>",
    "<br>" * 200,
    "<b>" * 300 + "bold text, here." + "</b>" * 100,
    "<html><body>",
    "&#0;&#xD800;&#x110000;&bogus;&amp",
    "\ufeff\u200b\ufffe",
    '<meta charset="utf-16">',
    '<meta charset="undefined">',
    '<meta http-equiv="Content-Type" content="text/html; charset=punycode">',
    '<?xml version="1.0" encoding="UTF-16"?>',
    "<base href='javascript:alert(1)//'>",
    "<a href='#top' ping='/p javascript:x'>ping</a>",
    "<xmp><b>shown as code</b></xmp>",
    "<noembed><p>hidden fallback</p></noembed><noframes>frames fallback</noframes>",
    "<listing>listed</listing><dialog open><p>over the page</p></dialog>",
    "<plaintext><p>the rest of the page as text",
    "<p x-data='{}' @click='alert(1)' v-html='x' :href='x' data-hx-on:click='alert(2)' ng-click='f()'>t</p>",
    "<title>Ti\x01tle\x7f</title><meta property='og:site_name' content='Si\x02te\x85'>"
    "<meta name='keywords' content='a\x03b, \x04'><meta name='author' content='Jane\x05 Doe'>"
    "<meta name='description' content='De\x1bsc\x9f'><meta property='article:section' content='S\x06'>",
    "<p class='byline'>By Jane\x07 Doe\x8f</p><h1>Head\x10line of \x11the story</h1>",
)
#: Every void element of HTML; lxml's parser nests what follows in those it does not know
#: (embed, source, track, wbr, keygen), which preparation moves out.
VOID_TAGS = tuple("area base br col embed hr img input link meta param source track wbr keygen".split())
#: The characters lxml refuses to be given, which its parser keeps in text and attributes.
XML_REFUSED = tuple(chr(code) for code in (*range(0x09), 0x0B, 0x0C, *range(0x0E, 0x20), 0xFFFE, 0xFFFF))


def void_with_control(rng: random.Random) -> str:
    """A void element left open with a control character lxml refuses after it, in what it
    holds or in its attributes; in a picture, or in a script template of an article body."""
    tag, char = rng.choice(VOID_TAGS), rng.choice(XML_REFUSED)
    return rng.choice(
        (
            f"<{tag}>b{char}c",
            f"<{tag} src='/x{char}.bin'>{char}<b>held{char}</b>tail{char}",
            f"<picture><source srcset='/a{char}.webp{char}1x'><{tag}><img alt='p{char}'></picture>"
            f"after{char}",
            f"<div itemprop='articleBody'><script type='text/template'><p>t{char}</p><{tag}>{char}</script>"
            f"{char}after</div>",
        )
    )


#: URLs of shapes that string splitting gets wrong: bare hosts, no host, invalid hosts.
ODD_URLS = ("http://example.com", "HTTP://EXAMPLE.COM", "http://", "http:", "//", "//[bad", "http://[::1",
            "http://user@:80", "?", "#", "%zz", "http://example.com:99999/x")  # fmt: skip
TAG_WEIGHT = 50
CODECS = ("utf-8", "utf-16", "gbk", "cp1252", "shift_jis", "latin-1", "big5", "cp037")
BOMS = (b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff", b"\xff\xfe\x00\x00")


@dataclass(frozen=True, slots=True)
class Case:
    """One fuzzed page and how it was made."""

    number: int
    label: str
    page: str | bytes
    #: Text every algorithm's result must hold (pages whose decoding is known).
    expected: str = ""


@dataclass(frozen=True, slots=True)
class Failure:
    case: Case
    algorithm: str
    problem: str


def seed_pages(datasets: list[Path]) -> list[bytes]:
    """The seed pages: every dataset's ``html/*.html`` and ``tests/data/*.html``."""
    paths = sorted((ROOT / "tests" / "data").glob("*.html"))
    for directory in datasets:
        paths.extend(sorted(directory.glob("*/html/*.html")) + sorted(directory.glob("html/*.html")))
    return [path.read_bytes() for path in paths]


def generated(rng: random.Random, scale: int, label: str = "") -> tuple[str, str | bytes]:
    """A generated nasty page of about ``scale`` characters: of the shape ``label``, or of
    one chosen at random."""
    paragraph = "<p>The minister said on Tuesday that the budget would rise, a lot.</p>"
    article = "<article>" + paragraph * 6 + "</article>"
    shapes: dict[str, Callable[[], str | bytes]] = {
        "tag soup": lambda: _tag_soup(rng, scale),
        "binary": lambda: rng.randbytes(scale),
        "binary text": lambda: rng.randbytes(scale).replace(b"\x00", b"").decode("cp1252", "replace"),
        "huge text": lambda: "<html><body><p>" + "word, and words. " * (scale // 17) + "</p></body></html>",
        "br siblings": lambda: f"<html><body>{article}<div>" + "<br>" * (scale // 4) + "</div></body></html>",
        "comment blocks": lambda: (
            f"<html><body>{article}<section class='comments'>"
            + "<div class='comment'><b>reader</b> 2024-01-02 <p>Short, comment.</p></div>" * (scale // 80)
            + "</section></body></html>"
        ),
        "deep": lambda: "<html><body>" + "<div>" * (scale // 11) + paragraph + "</div>" * (scale // 11),
        "attributes": lambda: (
            f"<html><body>{article}<div "
            + " ".join(f"a{n}=x" for n in range(rng.choice((100, 512, 513, scale // 6))))
            + ">t</div></body></html>"
        ),
        "no markup": lambda: "just words " * (scale // 11),
        "json": lambda: '{"a": [' + "1, " * (scale // 3) + "2]}",
        "empty": lambda: rng.choice(("", b"", "   ", b"\xef\xbb\xbf")),
        "form root": lambda: "<html><body><form action='/s'>" + paragraph * 12 + "</form></body></html>",
        "empty leaves": lambda: (
            f"<html><body>{article}" + "<time></time>\n" * (scale // 14) + "</body></html>"
        ),
        "over the size limit": lambda: b"<html><body><p>" + b"word, " * (MAX_PAGE_BYTES // 6) + b"</p>",
        "void controls": lambda: (
            f"<html><body>{article}<div>"
            + "".join(f"<p>Words{void_with_control(rng)}</p>" for _ in range(max(1, scale // 120)))
            + "</div></body></html>"
        ),
        "headline link": lambda: (
            f"<html><head><title>Site</title><link rel='canonical' href='{rng.choice(ODD_URLS)}'></head>"
            f"<body><h1><a href='{rng.choice(ODD_URLS)}'>Storm closes the coastal road</a></h1>{article}"
            "</body></html>"
        ),
    }
    label = label or rng.choice(sorted(shapes))
    return label, shapes[label]()


def _tag_soup(rng: random.Random, scale: int) -> str:
    tags = "div p span a b i table tr td ul li form article section nav h2 br img".split()
    pieces = []
    while sum(map(len, pieces)) < scale:
        tag = rng.choice(tags)
        pieces.append(
            rng.choice(
                (
                    f"<{tag}>",
                    f"</{tag}>",
                    f"<{tag} class='c{rng.randrange(9)}' href='/x{rng.randrange(99)}'>",
                    "Some words, here. ",
                    rng.choice(NASTY_SNIPPETS),
                )
            )
        )
    return "".join(pieces)


def mutated(rng: random.Random, seed: bytes) -> tuple[str, str | bytes]:
    """``seed`` with one to four mutations; sometimes decoded or re-encoded."""
    data, labels = bytearray(seed), []
    for _ in range(rng.randint(1, 4)):
        mutation = rng.choice(MUTATIONS)
        labels.append(mutation.__name__.lstrip("_"))
        mutation(rng, data)
    page: str | bytes = bytes(data)
    ending = rng.random()
    if ending < 0.25:
        page = bytes(data).decode("utf-8", "replace")
        labels.append("as text")
    elif ending < 0.35:
        codec = rng.choice(CODECS)
        page = bytes(data).decode("utf-8", "replace").encode(codec, "replace")
        labels.append(f"re-encoded {codec}")
    elif ending < 0.4:
        page = rng.choice(BOMS) + bytes(data)
        labels.append("BOM")
    return "+".join(labels), page


def _splice(rng: random.Random, data: bytearray) -> None:
    data[rng.randrange(len(data) + 1) : 0] = rng.choice(NASTY_SNIPPETS).encode("utf-8", "surrogatepass")


def _splice_invisible_url(rng: random.Random, data: bytearray) -> None:
    """A script URL behind a character some reader drops (``\\u00a0javascript:``)."""
    snippet = rng.choice(URL_TEMPLATES).format(c=rng.choice(INVISIBLE) * rng.randint(1, 3))
    data[rng.randrange(len(data) + 1) : 0] = snippet.encode("utf-8", "surrogatepass")


def _splice_void_control(rng: random.Random, data: bytearray) -> None:
    data[rng.randrange(len(data) + 1) : 0] = void_with_control(rng).encode("utf-8")


def _insert_bytes(rng: random.Random, data: bytearray) -> None:
    data[rng.randrange(len(data) + 1) : 0] = rng.randbytes(rng.randint(1, 64))


def _delete(rng: random.Random, data: bytearray) -> None:
    if data:
        start = rng.randrange(len(data))
        del data[start : start + rng.randint(1, max(1, len(data) // 8))]


def _duplicate(rng: random.Random, data: bytearray) -> None:
    if data:
        start = rng.randrange(len(data))
        chunk = data[start : start + rng.randint(1, 4096)]
        data[rng.randrange(len(data) + 1) : 0] = chunk * rng.randint(1, 20)


def _flip(rng: random.Random, data: bytearray) -> None:
    for _ in range(rng.randint(1, 16)):
        if data:
            data[rng.randrange(len(data))] = rng.randrange(256)


def _truncate(rng: random.Random, data: bytearray) -> None:
    del data[rng.randrange(len(data) + 1) :]


MUTATIONS = (
    _splice, _splice, _splice_invisible_url, _splice_void_control, _insert_bytes, _delete, _duplicate, _flip,
    _truncate,
)  # fmt: skip


def cases(rng: random.Random, seeds: list[bytes], count: int, scale: int) -> Iterator[Case]:
    for number in range(count):
        roll = rng.random()
        if roll < 0.05:
            yield Case(number, *encoded(rng))
            continue
        if roll < 0.3 or not seeds:
            label, page = generated(rng, rng.randint(1, scale))
        else:
            label, page = mutated(rng, rng.choice(seeds))
        yield Case(number, label, page)


#: A sentence with letters outside ASCII, and the page of it every encoded case starts from.
SENTENCE = "Der Bürgermeister eröffnete am Montag die neue Brücke, sagte er."
ENCODED_PAGE = (
    "<html><head>{head}</head><body><article>" + f"<p>{SENTENCE}</p>\n" * 12 + "</article></body></html>"
)


def encoded(rng: random.Random) -> tuple[str, bytes, str]:
    """A page whose text is known, encoded in a way decoders get wrong; the sentence it must
    decode to."""
    shape = rng.choice(("bad utf-8 bytes", "utf-16 or utf-32 without BOM"))
    if shape != "bad utf-8 bytes":
        codec = rng.choice(("utf-16-le", "utf-16-be", "utf-32-le", "utf-32-be"))
        declared = rng.choice((codec[:6], codec.replace("-le", "le").replace("-be", "be")))
        return (
            f"{shape} ({codec})",
            ENCODED_PAGE.format(head=f"<meta charset='{declared}'>").encode(codec),
            SENTENCE,
        )
    page = ENCODED_PAGE.format(head="")
    paragraphs = page.encode("utf-8").split(b"</p>\n")
    for _ in range(rng.randint(1, 3)):  # a byte no UTF-8 holds, between two paragraphs
        spot = rng.randrange(1, len(paragraphs))
        paragraphs[spot] = bytes([rng.choice((0xFF, 0xFE, 0xC3, 0x80))]) + paragraphs[spot]
    return shape, b"</p>\n".join(paragraphs), SENTENCE


def check(case: Case, algorithm: str, time_limit: float | None) -> list[str]:
    """What is wrong with extracting ``case`` with ``algorithm`` (nothing: ``[]``)."""
    started = time.perf_counter()
    try:
        result = extract(case.page, algorithm=algorithm, url="https://fuzz.example/a/page.html")
    except Exception as exc:  # noqa: BLE001 - any exception is the finding
        return [f"raised {type(exc).__name__}: {exc}"]
    elapsed = time.perf_counter() - started
    problems = []
    if not isinstance(result, Extraction) or result.algorithm != algorithm:
        return [f"returned {result!r}"]
    if bool(result.text) == bool(result.reason):
        problems.append(f"text and reason disagree: {len(result.text)} characters, reason {result.reason!r}")
    if time_limit is not None and elapsed > time_limit:
        problems.append(f"took {elapsed:.2f} s, over {time_limit:.2f} s for {len(case.page):,} units")
    if result.milliseconds > elapsed * 1000 + 1:
        problems.append(f"reported {result.milliseconds:.1f} ms, longer than the call")
    problems.extend(f"control character in {name}: {value[:60]!r}" for name, value in _text_fields(result)
                    if _TEXT_CONTROL_RE.search(value))  # fmt: skip
    if len(case.page) > MAX_PAGE_BYTES and not result.reason.startswith("page too large"):
        problems.append(f"{len(case.page):,} units over MAX_PAGE_BYTES, reason {result.reason!r}")
    if case.expected and case.expected not in result.text:
        problems.append(f"text without {case.expected!r}: {result.text[:80]!r}")
    problems.extend(unsafe_output(result.html))
    return problems


#: Control characters (Unicode category Cc) but the line feed that separates text lines.
_TEXT_CONTROL_RE = re.compile("[\\x00-\\x09\\x0b-\\x1f\\x7f-\\x9f]")


def _text_fields(result: Extraction) -> list[tuple[str, str]]:
    """The text fields of ``result``: main text, title and the metadata's text."""
    metadata = result.metadata
    fields = [("text", result.text), ("title", result.title), ("site_name", metadata.site_name)]
    fields += [("description", metadata.description), ("section", metadata.section)]
    return fields + [("author", name) for name in metadata.authors] + [("tag", tag) for tag in metadata.tags]


def unsafe_output(fragment: str) -> list[str]:
    """What makes the HTML ``fragment`` unsafe (an independent check of the sanitiser)."""
    if not fragment:
        return []
    if _CONTROL_RE.search(fragment):
        return ["control character in the HTML"]
    if _DOCUMENT_TAG_RE.search(fragment):  # its attributes would go to the host page's
        return ["<html> or <body> in the HTML"]
    root = etree.fromstring(f"<html><body>{fragment}</body></html>", etree.HTMLParser())
    problems = []
    for element in root.iter():
        if not isinstance(element.tag, str):
            continue
        if element.tag in UNSAFE_ELEMENTS:
            problems.append(f"<{element.tag}> in the HTML")
        for name, value in element.attrib.items():
            problems.extend(_unsafe_attribute(element.tag, name.lower(), value))
    return problems


def _unsafe_attribute(tag: str, name: str, value: str) -> list[str]:
    if name.startswith("on") or name.startswith(FRAMEWORK_PREFIXES):
        return [f"{name} on <{tag}>"]
    if name == "style":
        css = as_any_reader_reads(value).lower()
        return [f"style {value!r}"] if "expression" in css or "script:" in css else []
    if name in URL_ATTRIBUTES | {"srcset", "ping"}:
        if name == "srcset":  # the first word of each candidate
            urls = [candidate.split()[0] for candidate in value.split(",") if candidate.split()]
        else:
            urls = value.split() if name == "ping" else [value]
        for url in urls:
            scheme = _SCHEME_RE.match(as_any_reader_reads(html.unescape(url)).lower())
            if scheme and scheme.group(1) not in ("http", "https", "mailto"):
                return [f"{name}={value[:60]!r} on <{tag}>"]
    return []


def as_any_reader_reads(text: str) -> str:
    """``text`` NFKC-normalised, without whitespace and characters that are not printable."""
    return "".join(char for char in unicodedata.normalize("NFKC", text) if char.isprintable() and char != " ")


def run(
    options: argparse.Namespace, report: Callable[[str], None] = print, seeds: list[bytes] | None = None
) -> list[Failure]:
    """Fuzz as ``options`` say (``seeds`` instead of the seed pages they name); report each
    failure as it is found; return them all."""
    rng = random.Random(options.seed)
    if seeds is None:
        seeds = seed_pages([Path(path) for path in options.datasets])
    names = sorted(ALGORITHMS) if options.algorithms == "all" else options.algorithms.split(",")
    failures = []
    for case in cases(rng, seeds, options.pages, options.scale):
        megabytes = weighted_size(case.page) / 1e6
        limit = None if options.no_time else options.base_seconds + options.seconds_per_mb * megabytes
        for name in names:
            for problem in check(case, name, limit):
                failures.append(Failure(case, name, problem))
                report(f"seed {options.seed} page {case.number} ({case.label}) {name}: {problem}")
                _save(options.save, options.seed, case)
    return failures


def weighted_size(page: str | bytes) -> int:
    """The size the time bound scales with: characters, plus 50 per "<" (an element costs
    more than its few characters, and pages of bare ``<br>`` are all elements)."""
    return len(page) + TAG_WEIGHT * (page.count(b"<") if isinstance(page, bytes) else page.count("<"))


def _save(directory: str | None, seed: int, case: Case) -> None:
    if directory:
        path = Path(directory) / f"seed{seed}-page{case.number}.html"
        path.parent.mkdir(parents=True, exist_ok=True)
        page = case.page.encode("utf-8", "surrogatepass") if isinstance(case.page, str) else case.page
        path.write_bytes(page)


def parse_options(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--pages", type=int, default=1000)
    parser.add_argument("--algorithms", default="all", help="'all' or names separated by commas")
    existing = [str(path) for path in DEFAULT_DATASETS if path.is_dir()][:1]
    parser.add_argument("--datasets", nargs="*", default=existing, help="directories of html/*.html pages")
    parser.add_argument("--scale", type=int, default=300_000, help="largest generated page, in characters")
    parser.add_argument("--base-seconds", type=float, default=1.0)
    parser.add_argument("--seconds-per-mb", type=float, default=2.0)
    parser.add_argument("--no-time", action="store_true", help="skip the time bound")
    parser.add_argument("--save", help="directory to save failing pages in")
    return parser.parse_args(argv)


def main(argv: list[str]) -> int:
    options = parse_options(argv)
    started = time.perf_counter()
    failures = run(options)
    names = len(ALGORITHMS) if options.algorithms == "all" else len(options.algorithms.split(","))
    print(
        f"{options.pages} pages x {names} algorithms, seed {options.seed}: "
        f"{len(failures)} failures in {time.perf_counter() - started:.0f} s"
    )
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
