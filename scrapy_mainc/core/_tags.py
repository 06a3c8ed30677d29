"""Tag sets used across stages, in one place."""

from __future__ import annotations

from types import MappingProxyType

#: Subtrees that never hold readable content; removed (their tails kept) before analysis.
#: The union of what the five papers ignore: CoreEx and CETD drop scripts, styles and
#: form controls, WLR drops head-only tags and ``noscript``. ``form`` itself is kept:
#: many sites wrap the whole page in one.
NON_CONTENT_TAGS = frozenset(
    {
        "script", "style", "noscript", "template", "iframe", "frame", "frameset",
        "object", "embed", "applet", "select", "option", "optgroup", "datalist",
        "textarea", "input", "button", "svg", "math", "canvas", "audio", "video",
        "source", "track", "map", "head", "title", "meta", "link", "base",
    }
)  # fmt: skip

#: Void elements of HTML5 that libxml2's HTML parser (written for HTML 4) does not know as
#: void: it nests whatever follows an unclosed one inside it, up to its parent's end
#: (``<picture><source srcset=...><img src=...></picture>`` puts the image inside the
#: ``<source>``; an unclosed ``<embed>`` takes the rest of the article).
HOLDING_VOID_TAGS = ("embed", "source", "track", "wbr", "keygen")

#: Tags whose boundaries break a line when rendering plain text.
BLOCK_TAGS = frozenset(
    {
        "address", "article", "aside", "blockquote", "body", "caption", "center",
        "dd", "details", "dialog", "dir", "div", "dl", "dt", "fieldset", "figcaption",
        "figure", "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6", "header",
        "hgroup", "hr", "li", "main", "menu", "nav", "ol", "p", "pre", "section",
        "summary", "table", "tbody", "td", "tfoot", "th", "thead", "tr", "ul", "br",
        "html", "legend",
    }
)  # fmt: skip

#: The only elements the HTML output holds: text structure and phrasing, lists, tables,
#: images, quotations, edits, ruby, and the presentational tags old pages still use. An
#: allow-list, not a block-list: anything else (custom elements, ``dialog``, ``form``...)
#: is unwrapped, its content kept, renamed (``RENAMED_IN_OUTPUT``), or removed with its
#: content (``DROPPED_IN_OUTPUT``). Nothing here loads, runs, submits or overlays anything
#: (``img`` loads its checked ``src``).
OUTPUT_TAGS = frozenset(
    """a abbr acronym address article aside b bdi bdo big blockquote br caption center cite
    code col colgroup data dd del details dfn div dl dt em figcaption figure font footer h1
    h2 h3 h4 h5 h6 header hgroup hr i img ins kbd label legend li main mark nav nobr ol p
    picture pre q rb rp rt rtc ruby s samp section small span strike strong sub summary sup
    table tbody td tfoot th thead time tr tt u ul var wbr""".split()
)
#: AMP's images: an ``<img>`` in the output (their children, a sizer and a fallback, go).
AMP_IMAGE_TAGS = frozenset({"amp-img", "amp-anim"})
#: Elements the output renames: what browsers show as preformatted text becomes a ``<pre>``
#: (``<plaintext>`` would turn the rest of a page embedding the fragment into text), AMP's
#: images become ``<img>``.
RENAMED_IN_OUTPUT = MappingProxyType(
    {"xmp": "pre", "listing": "pre", "plaintext": "pre", **dict.fromkeys(AMP_IMAGE_TAGS, "img")}
)
#: Elements removed from the output with their content: raw text a browser does not show
#: (``noembed``, ``noframes``, ``script``, ``style``...) and what loads, embeds, submits
#: or runs something. Preparation removed most of them from the analysis tree already;
#: the output removes them again whatever preparation did.
DROPPED_IN_OUTPUT = frozenset(
    """script style noscript template title textarea noembed noframes iframe frame frameset
    object embed applet param portal keygen isindex bgsound layer ilayer svg math select
    option optgroup datalist button input head meta link base audio video source track
    canvas map""".split()
)

HEADING_TAGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})

#: WAI-ARIA roles of dialogs: a page shows them over itself, they are not the page
#: (``aria-modal`` is only valid on these roles).
DIALOG_ROLES = frozenset({"dialog", "alertdialog"})

#: Inline markup: its text belongs to the nearest enclosing block. (``<picture>`` is an
#: image, as ``<img>`` is: phrasing content in HTML, not a box of its own.)
INLINE_TAGS = frozenset(
    """a abbr acronym b bdi bdo big br cite code data del dfn em font i img ins kbd label
    mark nobr picture q rp rt ruby s samp small span strike strong sub sup time tt u var
    wbr""".split()
)

#: Phrasing markup that ``formatting=False`` unwraps in the HTML output (and leaves out of
#: the Markdown): emphasis, code, edits, and the presentational tags.
FORMATTING_TAGS = frozenset(
    """b strong i em u s strike del ins mark small big sub sup tt code kbd samp var cite dfn
    abbr acronym font""".split()
)
