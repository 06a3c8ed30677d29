"""The bundled site's other pages: section fronts, tag pages, a wire desk, and the
sitemaps, feeds and robots.txt of a news site (``build_site.py`` writes them).

The section fronts and tag pages are where the article pages' own menus, topic links and
desk links point. Each is labelled, with the reason, in ``page_kinds.json``. URLs in the
sitemaps, feeds and robots.txt are absolute on ``SITE_ORIGIN``, the example server's
default address; the server writes its own address there when it serves them
(``newsdemo/server.py``).
"""

from __future__ import annotations

import json
from html import escape

from build_site import STYLE, herald_footer, herald_header, herald_rail, teaser_grid, up, zh_nav
from stories import BRIDGE, CHINESE, ENGLISH, FESTIVAL, GARDENS, LIBRARY, TRAMS, Story

#: Where the sitemaps, feeds and robots.txt say the site is (the server's default port).
SITE_ORIGIN = "http://127.0.0.1:8000"


def _herald_page(title: str, depth: int, head: str, main: str) -> str:
    return f"""<!DOCTYPE html>
<html lang="en-GB"><head><meta charset="utf-8"><title>{escape(title)} | The Eastgate Herald</title>
<meta name="viewport" content="width=device-width, initial-scale=1">{head}<style>{STYLE}</style></head>
<body>{herald_header(depth)}<div class="page"><main class="section-box">{main}</main>{herald_rail(depth)}</div>
{herald_footer(depth)}</body></html>
"""


def _card(story: Story, href: str) -> str:
    return (
        f'<article class="card"><h3 class="card-title"><a href="{href}">{escape(story.headline)}</a></h3>'
        f'<p class="card-text">{escape(story.standfirst)}</p><time datetime="{story.date}">{story.date}</time>'
        f'<a class="card-more" href="{href}">Read more</a></article>'
    )


def section_front() -> str:
    """``/news/index.html``: the News section's front, a grid of story cards, each an
    ``<article>``; Open Graph says website, its JSON-LD is an ItemList of NewsArticles."""
    stories = (BRIDGE, LIBRARY, GARDENS, FESTIVAL, TRAMS)
    cards = "".join(_card(story, f"../en/{story.slug}.html") for story in stories)
    items = [
        {"@type": "ListItem", "position": n, "item": {"@type": "NewsArticle", "headline": story.headline,
                                                      "url": f"/en/{story.slug}.html"}}
        for n, story in enumerate(stories, 1)
    ]
    data = {"@context": "https://schema.org", "@type": "CollectionPage", "name": "News",
            "mainEntity": {"@type": "ItemList", "itemListElement": items}}
    head = (
        '<meta property="og:type" content="website"><meta property="og:title" content="News">'
        f'<script type="application/ld+json">{json.dumps(data)}</script>'
    )
    main = f'<h1>News</h1><p class="section-intro">The latest from Eastgate and the coast.</p>{cards}{teaser_grid(1, 12)}'
    return _herald_page("News", 1, head, main)


def tag_page(topic: str, stories: tuple[Story, ...], og_type: str) -> str:
    """``/news/<topic>.html``: a topic's page, headlines with dates and page links."""
    items = "".join(
        f'<li class="tag-item"><a href="../en/{story.slug}.html">{escape(story.headline)}</a> '
        f'<time datetime="{story.date}">{story.date}</time></li>'
        for story in stories
    )
    pages = " ".join(f'<a href="{topic.lower()}.html?page={n}">{n}</a>' for n in range(1, 6))
    head = f'<meta property="og:type" content="{og_type}">' if og_type else ""
    main = (
        f'<h1>Topic: {escape(topic)}</h1><p>Every story about {escape(topic.lower())}, newest first.</p>'
        f'<ul class="tag-list">{items}</ul><nav class="pages">Pages: {pages} <a href="?page=2">Next</a></nav>'
    )
    return _herald_page(f"Topic: {topic}", 1, head, main)


def wire_desk() -> str:
    """``/wire/news.html``: the wire service's latest items for one desk, in its markup."""
    items = "".join(
        f'<div class="item"><div class="slug">REGIONAL / {story.date}</div>'
        f'<div class="hed"><a href="../en/{story.slug}.html">{escape(story.headline)}</a></div>'
        f'<div class="dek">{escape(story.standfirst)}</div></div>'
        for story in ENGLISH
    )
    desks = "".join(f'<a class="desk" href="{d}.html">{d.title()}</a> | ' for d in ("news", "business", "sport"))
    return f"""<!DOCTYPE html>
<html><head><meta http-equiv="Content-Type" content="text/html; charset=utf-8">
<title>Latest: News desk - Coastline Wire</title></head>
<body><div id="top"><div class="logo">COASTLINE WIRE</div><div class="desks">{desks}</div></div>
<div id="wrap"><div id="left"><div class="desk-title">Latest from the News desk</div>{items}
<div class="more"><a href="news.html?before=2024-03-01">Older items</a></div></div></div>
<div id="bottom">Coastline Wire is a cooperative news agency. <a href="/about">About</a></div></body></html>
"""


def chinese_section() -> str:
    """``/0/index.html``: the Chinese portal's 新闻 section, lists of dated headlines."""
    rows = "".join(
        f'<li><a href="../zh/{story.slug}.html">{escape(story.headline)}</a><span class="date">{story.date}</span></li>'
        for story in CHINESE * 3
    )
    blocks = "".join(
        f'<div class="list-box"><h2>{name}</h2><ul class="news-list">{rows}</ul></div>' for name in ("国内", "国际", "社会")
    )
    return f"""<!DOCTYPE html>
<html lang="zh-CN"><head><meta charset="utf-8"><title>新闻_东岸新闻网</title><style>{STYLE}</style></head>
<body><div class="top-bar"><a href="{up(1)}index.html">东岸新闻网首页</a> | <a href="/login">登录</a></div>
<div class="header"><div class="logo">东岸新闻网</div><ul class="nav">{zh_nav(1)}</ul></div>
<div class="main"><div class="crumb">当前位置：<a href="../index.html">首页</a> &gt; 新闻</div>{blocks}
<div class="pages">共5页 <a href="index_2.html">下一页</a></div></div>
<div class="footer"><p>东岸新闻网 版权所有 未经授权禁止转载</p></div></body></html>
"""


# --- Sitemaps, feeds, robots.txt -------------------------------------------------------

#: Every article page of the site, by URL path, with its story and language.
ARTICLE_PAGES: tuple[tuple[str, Story, str], ...] = (
    *((f"/en/{story.slug}.html", story, "en") for story in ENGLISH),
    (f"/en/wire/{BRIDGE.slug}.html", BRIDGE, "en"),
    (f"/en/print/{BRIDGE.slug}.html", BRIDGE, "en"),
    *((f"/zh/{story.slug}.html", story, "zh") for story in CHINESE),
)
#: The listing pages, front page first.
LISTING_PAGES = (
    "/index.html", "/en/index.html", "/zh/index.html", "/news/index.html", "/news/local.html",
    "/news/transport.html", "/wire/news.html", "/0/index.html",
)  # fmt: skip


def robots_txt() -> str:
    return f"User-agent: *\nDisallow: /en/print/\n\nSitemap: {SITE_ORIGIN}/sitemap.xml\n"


def sitemap_index() -> str:
    entries = "".join(
        f"<sitemap><loc>{SITE_ORIGIN}/{name}</loc><lastmod>2024-09-09</lastmod></sitemap>"
        for name in ("sitemap-pages.xml", "news-sitemap.xml")
    )
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        f'<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">{entries}</sitemapindex>\n'
    )


def pages_sitemap() -> str:
    """Every page: listings (weekly) and articles (with their dates)."""
    urls = "".join(f"<url><loc>{SITE_ORIGIN}{path}</loc><changefreq>hourly</changefreq></url>" for path in LISTING_PAGES)
    urls += "".join(f"<url><loc>{SITE_ORIGIN}{path}</loc><lastmod>{story.date}</lastmod></url>" for path, story, _ in ARTICLE_PAGES)
    return f'<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">{urls}</urlset>\n'


def news_sitemap() -> str:
    """A Google News sitemap of the articles (``news:`` extension)."""
    urls = "".join(
        f"<url><loc>{SITE_ORIGIN}{path}</loc><news:news><news:publication><news:name>"
        f"{'The Eastgate Herald' if lang == 'en' else '东岸新闻网'}</news:name><news:language>{lang}</news:language>"
        f"</news:publication><news:publication_date>{story.date}</news:publication_date>"
        f"<news:title>{escape(story.headline)}</news:title></news:news></url>"
        for path, story, lang in ARTICLE_PAGES
    )
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" '
        f'xmlns:news="http://www.google.com/schemas/sitemap-news/0.9">{urls}</urlset>\n'
    )


def rss_feed() -> str:
    """RSS 2.0: the English stories of the herald."""
    items = "".join(
        f"<item><title>{escape(story.headline)}</title><link>{SITE_ORIGIN}/en/{story.slug}.html</link>"
        f"<description>{escape(story.standfirst)}</description><pubDate>{story.date}</pubDate>"
        f'<guid isPermaLink="true">{SITE_ORIGIN}/en/{story.slug}.html</guid></item>'
        for story in ENGLISH
    )
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n<rss version="2.0"><channel><title>The Eastgate Herald</title>'
        f"<link>{SITE_ORIGIN}/en/index.html</link><description>Local news</description>{items}</channel></rss>\n"
    )


def atom_feed() -> str:
    """Atom: the Chinese portal's stories."""
    entries = "".join(
        f"<entry><title>{escape(story.headline)}</title>"
        f'<link rel="alternate" type="text/html" href="{SITE_ORIGIN}/zh/{story.slug}.html"/>'
        f"<id>{SITE_ORIGIN}/zh/{story.slug}.html</id><updated>{story.date}T08:00:00+08:00</updated>"
        f"<summary>{escape(story.standfirst)}</summary></entry>"
        for story in CHINESE
    )
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n<feed xmlns="http://www.w3.org/2005/Atom"><title>东岸新闻网</title>'
        f'<link rel="self" href="{SITE_ORIGIN}/atom.xml"/><id>{SITE_ORIGIN}/</id><updated>2024-09-09T08:00:00+08:00</updated>'
        f"{entries}</feed>\n"
    )


def other_pages() -> dict[str, str]:
    """Path -> content of every page this module writes."""
    local = (BRIDGE, GARDENS, LIBRARY, FESTIVAL)
    return {
        "news/index.html": section_front(),
        "news/local.html": tag_page("Local", local, ""),
        "news/transport.html": tag_page("Transport", (BRIDGE, TRAMS), "website"),
        "wire/news.html": wire_desk(),
        "0/index.html": chinese_section(),
        "robots.txt": robots_txt(),
        "sitemap.xml": sitemap_index(),
        "sitemap-pages.xml": pages_sitemap(),
        "news-sitemap.xml": news_sitemap(),
        "rss.xml": rss_feed(),
        "atom.xml": atom_feed(),
    }
