"""Tag sets used across stages, in one place."""

from __future__ import annotations

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

#: Elements dropped from rendered HTML (content kept) or removed outright.
UNWRAP_IN_OUTPUT = frozenset({"form", "fieldset"})

HEADING_TAGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})

#: Inline markup: its text belongs to the nearest enclosing block.
INLINE_TAGS = frozenset(
    """a abbr acronym b bdi bdo big br cite code data del dfn em font i img ins kbd label
    mark nobr q rp rt ruby s samp small span strike strong sub sup time tt u var wbr""".split()
)
