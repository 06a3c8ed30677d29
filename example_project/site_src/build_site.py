"""Write the bundled news site (``example_project/site``) from ``stories.py``.

    python example_project/site_src/build_site.py

Five page templates give the same kind of content different markup, as real sites do: an
English newspaper (heavy navigation, ``<article>``, Open Graph and JSON-LD, reader
comments), a wire-service layout (``<div>`` soup, JSON-LD only), a print view (almost no
boilerplate, no metadata), a Chinese portal in UTF-8 with comments, and an old table
layout in GBK that declares no charset anywhere (no header, no ``<meta>``). Listing pages
(front pages, section fronts, topic pages, a wire desk), sitemaps, feeds and robots.txt
come from ``listings.py``; ``page_kinds.json`` says which pages are articles, and why. The
output is committed; rerun this script after editing a story or a template.
"""

from __future__ import annotations

import json
from html import escape
from pathlib import Path

from stories import (
    BRIDGE,
    BUSES,
    CHINESE,
    ENGLISH,
    FESTIVAL,
    GARDENS,
    LIBRARY,
    RESERVOIR,
    TEA,
    TRAMS,
    Comment,
    Story,
)

SITE = Path(__file__).resolve().parent.parent / "site"

EN_SECTIONS = {
    "News": ["Local", "National", "Politics", "Health", "Education", "Crime"],
    "World": ["Europe", "Americas", "Asia", "Africa", "Middle East", "Oceania"],
    "Business": ["Markets", "Companies", "Economy", "Property", "Work", "Tech"],
    "Sport": ["Football", "Cricket", "Rugby", "Tennis", "Cycling", "Athletics"],
    "Culture": ["Film", "Music", "Books", "Theatre", "Art", "Television"],
    "Science": ["Space", "Climate", "Nature", "Energy", "Medicine", "Oceans"],
    "Travel": ["City breaks", "Rail", "Walking", "Islands", "Food", "Deals"],
    "Opinion": ["Editorials", "Columnists", "Letters", "Cartoons", "Obituaries", "Corrections"],
    "Lifestyle": ["Food", "Fashion", "Homes", "Gardens", "Family", "Wellbeing"],
    "Money": ["Savings", "Pensions", "Mortgages", "Tax", "Consumer", "Energy bills"],
    "Motoring": ["Reviews", "Electric cars", "Road safety", "Classic cars", "Advice", "Parking"],
    "Puzzles": ["Crossword", "Sudoku", "Quiz", "Word wheel", "Chess", "Bridge"],
}
EN_MOST_READ = [
    "Council approves new ferry timetable for the winter season",
    "Bakery on Quay Street celebrates its hundredth year",
    "Why the old lighthouse keeper's cottage is up for auction",
    "Weekend weather: showers clearing to sunshine by Sunday",
    "Five walks along the estuary you can finish before lunch",
    "Youth orchestra to tour three countries this summer",
    "Fishing fleet reports best mackerel season in a decade",
    "Hospital car park charges to be scrapped for night staff",
]
EN_TEASERS = [
    ("Transport", "New cycle lanes planned for the western ring road"),
    ("Business", "Harbour warehouse becomes a food market and co-working space"),
    ("Sport", "Rowing club celebrates first national title in forty years"),
    ("Culture", "Restored cinema organ plays again after three decades"),
    ("Science", "Volunteers count a record number of seals on the sandbanks"),
    ("Education", "College opens evening courses in boat building"),
    ("Health", "Walk-in clinic extends its weekend opening hours"),
    ("Weather", "Why this spring has been the wettest since records began"),
    ("Local", "Residents vote to keep the old market clock tower"),
    ("Travel", "Three island ferry routes to add summer sailings"),
    ("Food", "Fishmonger's stall wins the regional produce award"),
    ("Money", "What the new parking charges mean for town-centre shops"),
]
ZH_SECTIONS = {
    "新闻": ["国内", "国际", "社会", "评论", "图片"],
    "财经": ["股票", "基金", "理财", "产经", "宏观"],
    "科技": ["互联网", "手机", "数码", "通信", "探索"],
    "体育": ["足球", "篮球", "综合", "彩票", "赛事"],
    "娱乐": ["电影", "电视", "音乐", "综艺", "明星"],
    "生活": ["汽车", "房产", "教育", "健康", "旅游"],
    "文化": ["读书", "历史", "艺术", "收藏", "非遗"],
    "本地": ["城区", "区县", "民生", "交通", "天气"],
    "汽车": ["新车", "导购", "用车", "试驾", "车展"],
    "房产": ["新房", "二手房", "家居", "装修", "政策"],
    "教育": ["高考", "中考", "留学", "考研", "职教"],
    "健康": ["养生", "医疗", "食品", "育儿", "心理"],
}
ZH_MORE = [
    "老旧小区加装电梯工作提速", "夜市经济带动周边消费", "城市绿道新增二十公里",
    "中小学食堂推行明厨亮灶", "社区食堂让老人吃上热乎饭", "地铁新线开始铺轨",
    "农民丰收节活动安排公布", "文化馆推出周末公益课堂", "公共自行车系统升级",
    "医院推出夜间门诊服务", "城区新增五处停车场", "图书馆开设古籍修复体验课",
    "滨江公园改造即将完工", "菜市场改造后焕然一新", "城市马拉松开始报名",
    "博物馆新展讲述老城故事",
]
ZH_HOT = [
    "市区新增两处口袋公园 周末免费开放",
    "高铁站改造完成 换乘更方便了",
    "本周末气温回升 最高可达二十五度",
    "老城区十条小巷完成改造",
    "图书馆延长开放时间至晚上九点",
    "农产品展销会下月举行",
    "中小学暑期托管服务开始报名",
    "江边步道全线贯通",
]


def main() -> None:
    pages = {
        "index.html": front_page(),
        "en/index.html": english_listing(),
        "zh/index.html": chinese_listing(),
        f"en/{BRIDGE.slug}.html": herald(BRIDGE, depth=1),
        f"en/wire/{BRIDGE.slug}.html": wire(BRIDGE, depth=2),
        f"en/print/{BRIDGE.slug}.html": print_view(BRIDGE, depth=2),
        f"en/{LIBRARY.slug}.html": herald(LIBRARY, depth=1),
        f"en/{FESTIVAL.slug}.html": wire(FESTIVAL, depth=1),
        f"en/{GARDENS.slug}.html": herald(GARDENS, depth=1),
        f"en/{TRAMS.slug}.html": print_view(TRAMS, depth=1),
        f"zh/{RESERVOIR.slug}.html": portal(RESERVOIR, depth=1),
        f"zh/{BUSES.slug}.html": portal(BUSES, depth=1),
    }
    from listings import other_pages  # it imports this module's templates

    pages.update(other_pages())
    for path, html in pages.items():
        write(path, html.encode("utf-8"))
    # The GBK page: encoded GBK, and nothing anywhere says so.
    write(f"zh/{TEA.slug}.html", old_table_layout(TEA, depth=1).encode("gbk"))


def write(path: str, data: bytes) -> None:
    target = SITE / path
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(data)
    print(f"{len(data):>7,} bytes  {path}")


def up(depth: int) -> str:
    return "../" * depth


# --- English newspaper ---------------------------------------------------------------

STYLE = "\n".join(
    f".{name} {{ margin: {n % 4}px {n % 7}px; padding: {n % 5}px; color: #{n * 1234567 % 0xFFFFFF:06x}; }}"
    for n, name in enumerate(
        f"{part}-{kind}" for part in ("masthead", "menu", "story", "rail", "footer", "promo")
        for kind in ("box", "title", "link", "text", "item", "icon", "grid")
    )
)
ANALYTICS = """
(function (w, d) {
  var queue = w.hhq = w.hhq || [];
  function send(event, data) { queue.push({event: event, data: data, at: Date.now()}); }
  w.addEventListener('scroll', function () { send('scroll', {y: w.scrollY}); });
  d.addEventListener('click', function (e) {
    var link = e.target.closest('a');
    if (link) { send('click', {href: link.href, text: link.textContent.slice(0, 80)}); }
  });
  send('pageview', {path: d.location.pathname, referrer: d.referrer});
})(window, document);
""" * 3


def herald_header(depth: int) -> str:
    menu = "".join(
        f'<li class="menu-item"><a class="menu-link" href="{up(depth)}{section.lower()}/index.html">'
        f'{section}</a><ul class="menu-sub">'
        + "".join(
            f'<li><a href="{up(depth)}{section.lower()}/{sub.lower().replace(" ", "-")}.html">{sub}</a></li>'
            for sub in subs
        )
        + "</ul></li>"
        for section, subs in EN_SECTIONS.items()
    )
    return (
        '<div class="cookie-banner" id="cookies"><p>We use cookies to improve your experience and to '
        'show you relevant advertising.</p><button>Accept all</button> <button>Manage</button></div>'
        f'<header class="masthead"><a class="masthead-logo" href="{up(depth)}index.html">The Eastgate Herald</a>'
        '<span class="masthead-date">Independent local news since 1891</span>'
        '<form class="search" action="/search"><input name="q" placeholder="Search"><button>Go</button></form>'
        '<a href="/subscribe">Subscribe</a> <a href="/login">Sign in</a></header>'
        f'<nav class="menu" aria-label="Sections"><ul>{menu}</ul></nav>'
    )


def herald_rail(depth: int) -> str:
    items = "".join(
        f'<li class="rail-item"><span class="rail-rank">{n}</span>'
        f'<a href="{up(depth)}news/most-read-{n}.html">{escape(title)}</a></li>'
        for n, title in enumerate(EN_MOST_READ, 1)
    )
    return (
        f'<aside class="rail"><h2>Most read</h2><ol>{items}</ol>'
        '<div class="promo-box"><h3>Get the Herald in your inbox</h3>'
        '<p>The day\'s top stories, every morning at seven.</p>'
        '<form><input type="email" name="email"><button>Sign up</button></form></div>'
        '<div class="ad ad-rail">Advertisement</div></aside>'
    )


ICON = (
    '<svg class="icon" viewBox="0 0 24 24" width="16" height="16" aria-hidden="true">'
    '<path d="M12 2a10 10 0 1 0 0 20a10 10 0 1 0 0-20zm0 3a7 7 0 0 1 7 7h-2a5 5 0 0 0-5-5z'
    'm-5 7a5 5 0 0 0 5 5v2a7 7 0 0 1-7-7z"/></svg>'
)
AD_CONFIG = json.dumps(
    {"slots": [{"id": f"slot-{n}", "sizes": [[300, 250], [728, 90]], "targeting": {"pos": n}}
               for n in range(12)], "consent": {"required": True, "vendors": list(range(80))}}
)


def teaser_grid(depth: int, count: int = 24) -> str:
    cards = "".join(
        f'<div class="promo-item"><a href="{up(depth)}{kicker.lower()}/story-{n}.html">'
        f'<img src="{up(depth)}img/thumb-{n}.jpg" alt="" width="240" height="135"></a>'
        f'<span class="promo-title">{kicker}</span>'
        f'<h3><a class="promo-link" href="{up(depth)}{kicker.lower()}/story-{n}.html">{escape(title)}</a></h3>'
        f'<time>{n % 23 + 1} hours ago</time></div>'
        for n, (kicker, title) in enumerate((EN_TEASERS * 3)[:count])
    )
    return f'<section class="promo-grid"><h2>More from the Herald</h2>{cards}</section>'


def herald_footer(depth: int) -> str:
    columns = "".join(
        f'<div class="footer-col"><h4>{section}</h4><ul>'
        + "".join(f'<li><a href="{up(depth)}{section.lower()}/{sub.lower().replace(" ", "-")}.html">{sub}</a></li>' for sub in subs)
        + "</ul></div>"
        for section, subs in EN_SECTIONS.items()
    )
    return (
        f'<footer class="footer-box">{columns}<p class="footer-text">&copy; 2024 Eastgate Herald '
        'Media Ltd. All rights reserved. <a href="/terms">Terms</a> <a href="/privacy">Privacy</a> '
        '<a href="/cookies">Cookie settings</a> <a href="/contact">Contact us</a></p></footer>'
    )


def comments_section(comments: tuple[Comment, ...]) -> str:
    if not comments:
        return ""
    items = "".join(
        f'<li class="comment"><div class="comment-meta"><span class="comment-author">{escape(c.author)}</span> '
        f'<time>{escape(c.when)}</time></div><p class="comment-body">{escape(c.text)}</p>'
        '<a class="comment-reply" href="#reply">Reply</a> <a class="comment-report" href="#report">Report</a></li>'
        for c in comments
    )
    return (
        f'<section class="comments" id="comments"><h2>Reader comments ({len(comments)})</h2>'
        f'<ol class="comment-list">{items}</ol>'
        '<form class="comment-form"><textarea name="comment"></textarea><button>Post comment</button></form></section>'
    )


def json_ld(story: Story, kind: str = "NewsArticle") -> str:
    data = {
        "@context": "https://schema.org", "@type": kind, "headline": story.headline,
        "datePublished": story.date, "author": {"@type": "Person", "name": story.byline},
    }
    return f'<script type="application/ld+json">{json.dumps(data, ensure_ascii=False)}</script>'


def herald(story: Story, depth: int) -> str:
    paragraphs = "".join(f"<p>{escape(p)}</p>" for p in story.paragraphs)
    figure = (
        f'<figure><img src="{up(depth)}img/{story.slug}.jpg" alt=""><figcaption>{escape(story.caption)}</figcaption></figure>'
        if story.caption else ""
    )
    share = "".join(
        f'<a class="share-{s.lower()}" href="#share-{s.lower()}">{ICON}<span>Share on {s}</span></a> '
        for s in ("Mastodon", "Facebook", "LinkedIn", "WhatsApp", "Email", "Print")
    )
    return f"""<!DOCTYPE html>
<html lang="en-GB"><head><meta charset="utf-8"><title>{escape(story.headline)} | The Eastgate Herald</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta property="og:type" content="article"><meta property="og:title" content="{escape(story.headline)}">
<meta name="description" content="{escape(story.standfirst)}">
<style>{STYLE}</style>{json_ld(story)}<script>{ANALYTICS}</script>
<script>window.adConfig = {AD_CONFIG};</script></head>
<body>{herald_header(depth)}
<div class="page"><main class="story-box">
<nav class="breadcrumb"><a href="{up(depth)}index.html">Home</a> &rsaquo; <a href="index.html">News</a></nav>
<article class="story">
<h1 class="story-title">{escape(story.headline)}</h1>
<p class="standfirst">{escape(story.standfirst)}</p>
<div class="byline">{escape(story.byline)} <time datetime="{story.date}">{story.date}</time></div>
<div class="share">{share}</div>
{figure}
<div class="story-body">{paragraphs}</div>
<div class="tags">Topics: <a href="{up(depth)}news/local.html">Local</a> <a href="{up(depth)}news/transport.html">Transport</a></div>
</article>
{comments_section(story.comments)}
<div class="ad ad-leaderboard">Advertisement</div>
{teaser_grid(depth)}
</main>{herald_rail(depth)}</div>
{herald_footer(depth)}</body></html>
"""


# --- Wire service --------------------------------------------------------------------

def wire(story: Story, depth: int) -> str:
    paragraphs = "".join(f'<div class="para">{escape(p)}</div>' for p in story.paragraphs)
    more = "".join(f'<div class="more-item"><a href="{up(depth)}wire/item-{n}.html">{escape(t)}</a></div>' for n, t in enumerate(EN_MOST_READ))
    desks = "".join(f'<a class="desk" href="{up(depth)}wire/{d.lower()}.html">{d}</a> | ' for d in EN_SECTIONS)
    return f"""<!DOCTYPE html>
<html><head><meta http-equiv="Content-Type" content="text/html; charset=utf-8">
<title>{escape(story.headline)} - Coastline Wire</title>{json_ld(story)}
<script>var wireConfig = {{"desk": "regional", "slot": "story", "ads": [1, 2, 3]}};</script></head>
<body><div id="top"><div class="logo">COASTLINE WIRE</div><div class="desks">{desks}</div>
<div class="ticker">Markets: index up 0.4% | Ferry services running normally | Weather: rain clearing</div></div>
<div id="wrap"><div id="left">
<div class="slug">REGIONAL / {story.date}</div>
<div class="hed">{escape(story.headline)}</div>
<div class="dek">{escape(story.standfirst)}</div>
<div class="storytext">{paragraphs}</div>
<div class="credit">(Reporting by Coastline Wire staff; editing by the regional desk)</div>
<div class="licensing">&copy; Coastline Wire. Republication requires a licence. <a href="/licensing">Licensing</a></div>
</div><div id="right"><div class="box-title">More from the wire</div>{more}
<div class="adslot">Sponsored</div></div></div>
<div id="bottom">{desks}<br>Coastline Wire is a cooperative news agency. <a href="/about">About</a> <a href="/contact">Contact</a></div>
</body></html>
"""


# --- Print view ----------------------------------------------------------------------

def print_view(story: Story, depth: int) -> str:
    paragraphs = "\n".join(f"<p>{escape(p)}</p>" for p in story.paragraphs)
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{escape(story.headline)} (print)</title></head>
<body><div id="print-header">The Eastgate Herald &middot; printed edition &middot; <a href="javascript:window.print()">Print this page</a></div>
<div id="content"><h1>{escape(story.headline)}</h1>
<p><b>{escape(story.standfirst)}</b></p>
<p><i>{escape(story.byline)}, {story.date}</i></p>
{paragraphs}
</div><div id="print-footer">&copy; 2024 Eastgate Herald. <a href="{up(depth)}index.html">eastgateherald.example</a></div></body></html>
"""


# --- Chinese portal (UTF-8) ----------------------------------------------------------

def zh_nav(depth: int) -> str:
    return "".join(
        f'<li><a class="nav-main" href="{up(depth)}{n}/index.html">{section}</a><div class="nav-sub">'
        + "".join(f'<a href="{up(depth)}{n}/{m}.html">{sub}</a>' for m, sub in enumerate(subs))
        + "</div></li>"
        for n, (section, subs) in enumerate(ZH_SECTIONS.items())
    )


def zh_comments(comments: tuple[Comment, ...]) -> str:
    if not comments:
        return ""
    items = "".join(
        f'<div class="comment-item"><div class="comment-user">{escape(c.author)} <span>{escape(c.when)}</span></div>'
        f'<div class="comment-text">{escape(c.text)}</div><div class="comment-op"><a href="#">回复</a> <a href="#">顶</a> <a href="#">举报</a></div></div>'
        for c in comments
    )
    return (
        f'<div class="comment-box" id="comment"><h3>网友评论（{len(comments)}条）</h3>'
        '<div class="comment-tip">文明上网，理性发言。</div>'
        f'<div class="comment-list">{items}</div>'
        '<form><textarea></textarea><button>发表评论</button></form></div>'
    )


def portal(story: Story, depth: int) -> str:
    paragraphs = "".join(f"<p>　　{escape(p)}</p>" for p in story.paragraphs)
    hot = "".join(f'<li><em>{n}</em><a href="{up(depth)}hot/{n}.html">{escape(t)}</a></li>' for n, t in enumerate(ZH_HOT, 1))
    related = "".join(
        f'<li><a href="{up(depth)}related/{n}.html">{escape(t)}</a><span>{n % 28 + 1}日</span></li>'
        for n, t in enumerate(ZH_MORE[:10])
    )
    recommend = "".join(
        f'<div class="rec-item"><a href="{up(depth)}rec/{n}.html"><img src="{up(depth)}img/rec-{n}.jpg"></a>'
        f'<p><a href="{up(depth)}rec/{n}.html">{escape(t)}</a></p><span class="rec-src">东岸日报</span></div>'
        for n, t in enumerate(ZH_MORE + ZH_HOT)
    )
    links = " ".join(f'<a href="http://partner{n}.example/">{escape(t[:4])}网</a>' for n, t in enumerate(ZH_MORE + ZH_HOT))
    caption = f'<div class="img-box"><img src="{up(depth)}img/{story.slug}.jpg"><p>{escape(story.caption)}</p></div>' if story.caption else ""
    return f"""<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>{escape(story.headline)}_东岸新闻网</title>
<meta name="keywords" content="东岸新闻,本地新闻"><meta property="og:type" content="article">
<style>{STYLE}</style><script>{ANALYTICS}</script>
<script>window.adConfig = {AD_CONFIG};</script></head>
<body><div class="top-bar"><a href="{up(depth)}index.html">东岸新闻网首页</a> | <a href="/app">手机版</a> | <a href="/login">登录</a> | <a href="/reg">注册</a></div>
<div class="header"><div class="logo">东岸新闻网</div><ul class="nav">{zh_nav(depth)}</ul></div>
<div class="main"><div class="left">
<div class="crumb">当前位置：<a href="{up(depth)}index.html">首页</a> &gt; <a href="index.html">本地新闻</a> &gt; 正文</div>
<h1>{escape(story.headline)}</h1>
<div class="info">{story.date} 来源：东岸日报 {escape(story.byline)}</div>
<div class="summary">【摘要】{escape(story.standfirst)}</div>
<div class="article-content">{caption}{paragraphs}</div>
<div class="editor">（责任编辑：周红）</div>
<div class="share">分享到：<a href="#">微信</a> <a href="#">微博</a> <a href="#">QQ空间</a></div>
<div class="related"><h3>相关新闻</h3><ul>{related}</ul></div>
{zh_comments(story.comments)}
<div class="recommend"><h3>猜你喜欢</h3>{recommend}</div>
</div><div class="right"><div class="hot"><h3>热点排行</h3><ol>{hot}</ol></div><div class="ad">广告</div></div></div>
<div class="friend-links">友情链接：{links}</div>
<div class="footer"><div class="footer-nav">{zh_nav(depth)}</div><p><a href="/about">关于我们</a> | <a href="/contact">联系我们</a> | <a href="/ads">广告服务</a> | <a href="/jobs">招聘信息</a> | <a href="/map">网站地图</a></p>
<p>东岸新闻网 版权所有 未经授权禁止转载</p></div></body></html>
"""


# --- Old table layout (GBK, undeclared) ---------------------------------------------

def old_table_layout(story: Story, depth: int) -> str:
    nav = " | ".join(f'<a href="{up(depth)}{n}/index.html">{section}</a>' for n, section in enumerate(ZH_SECTIONS))
    paragraphs = "".join(f"<p>　　{escape(p)}</p>" for p in story.paragraphs)
    side = "".join(f'<tr><td>·<a href="{up(depth)}old/{n}.html">{escape(t)}</a></td></tr>' for n, t in enumerate(ZH_HOT))
    comments = "".join(
        f'<tr><td class="pl-user">{escape(c.author)}（{escape(c.when)}）</td></tr><tr><td class="pl-text">{escape(c.text)}</td></tr>'
        for c in story.comments
    )
    return f"""<html><head><title>{escape(story.headline)}--西岭资讯网</title></head>
<body bgcolor="#ffffff"><table width="960" align="center"><tr><td><font size="5"><b>西岭资讯网</b></font></td></tr>
<tr><td bgcolor="#cc0000">{nav}</td></tr></table>
<table width="960" align="center"><tr><td width="700" valign="top">
<table width="100%"><tr><td align="center"><font size="4"><b>{escape(story.headline)}</b></font></td></tr>
<tr><td align="center"><font size="2">{story.date}　{escape(story.byline)}　【字体：大 中 小】</font></td></tr>
<tr><td class="content">{paragraphs}</td></tr></table>
<table width="100%" class="pinglun"><tr><td><b>网友评论</b></td></tr>{comments}</table>
</td><td width="260" valign="top"><table width="100%"><tr><td><b>推荐阅读</b></td></tr>{side}</table></td></tr></table>
<table width="960" align="center"><tr><td align="center"><font size="2">西岭资讯网 版权所有 联系电话：0000-12345678</font></td></tr></table>
</body></html>
"""


# --- Listing pages -------------------------------------------------------------------

def teaser(href: str, story: Story) -> str:
    return (
        f'<li class="teaser"><a class="story-link" href="{href}">{escape(story.headline)}</a>'
        f"<p>{escape(story.standfirst)}</p></li>"
    )


def listing(title: str, lang: str, depth: int, body: str) -> str:
    return f"""<!DOCTYPE html>
<html lang="{lang}"><head><meta charset="utf-8"><title>{escape(title)}</title><style>{STYLE}</style></head>
<body>{herald_header(depth)}<main><h1>{escape(title)}</h1>{body}</main>{herald_rail(depth)}{herald_footer(depth)}</body></html>
"""


def front_page() -> str:
    stories = "".join(teaser(f"en/{s.slug}.html", s) for s in (BRIDGE, LIBRARY))
    stories += "".join(teaser(f"zh/{s.slug}.html", s) for s in (RESERVOIR,))
    sections = (
        '<p><a class="section-link" href="en/index.html">English news</a> &middot; '
        '<a class="section-link" href="zh/index.html">中文新闻</a></p>'
    )
    return listing("The Eastgate Herald: front page", "en", 0, f"<ul>{stories}</ul>{sections}")


def english_listing() -> str:
    stories = "".join(teaser(f"{s.slug}.html", s) for s in ENGLISH)
    copies = teaser(f"wire/{BRIDGE.slug}.html", BRIDGE) + teaser(f"print/{BRIDGE.slug}.html", BRIDGE)
    body = f'<ul>{stories}</ul><h2>The bridge story elsewhere</h2><ul>{copies}</ul>'
    body += '<p><a class="section-link" href="../index.html">Front page</a></p>'
    return listing("English news", "en", 1, body)


def chinese_listing() -> str:
    stories = "".join(teaser(f"{s.slug}.html", s) for s in CHINESE)
    body = f'<ul>{stories}</ul><p><a class="section-link" href="../index.html">Front page</a></p>'
    return listing("中文新闻", "zh-CN", 1, body)


if __name__ == "__main__":
    main()
