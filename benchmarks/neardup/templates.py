"""Page templates and page chrome for the near-duplicate benchmark (quality.py).

Four made-up news sites, each with its own structure, navigation, related-links boxes,
footer and reader comments, in English and in Chinese. ``render_page`` puts one article
into one site; everything around the article (related links, comments) is drawn from
``rng``, so two pages of one site share navigation and footer but not comments.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from html import escape


@dataclass(frozen=True, slots=True)
class Chrome:
    """Language-specific strings of the page chrome."""

    nav: tuple[str, ...]
    related: str
    most_read: str
    comments: str
    reply: str
    newsletter: str
    footer: str
    authors: tuple[str, ...]
    comment_sentences: tuple[str, ...]


EN = Chrome(
    nav=(
        "Home",
        "World",
        "Business",
        "Politics",
        "Technology",
        "Science",
        "Health",
        "Sport",
        "Culture",
        "Opinion",
        "Travel",
        "Video",
        "Podcasts",
        "Newsletters",
        "Weather",
    ),
    related="Related stories",
    most_read="Most read",
    comments="Reader comments",
    reply="Reply",
    newsletter="Get the morning briefing in your inbox. Sign up for our free newsletter and "
    "never miss the stories that matter. You can unsubscribe at any time.",
    footer="About us | Contact | Careers | Advertise with us | Terms of use | Privacy policy | "
    "Cookie settings | Accessibility | Corrections | Site map. Copyright 2024, all rights "
    "reserved. Reproduction of material from any pages without written permission is "
    "strictly prohibited.",
    authors=(
        "jm_harris",
        "Linda P.",
        "oldtimer72",
        "Sam Okafor",
        "rivercity",
        "T. Nguyen",
        "marta_k",
        "Paul from Leeds",
        "quietobserver",
        "D. Alvarez",
    ),
    comment_sentences=(
        "Great reporting, thanks for covering this.",
        "I have been saying this for years and nobody listened.",
        "Does anyone know where the original figures come from?",
        "This is exactly why people stopped trusting the experts.",
        "Not sure I agree with the conclusion, but an interesting read.",
        "My family went through something similar last winter.",
        "The headline is misleading, the article says something else entirely.",
        "Finally someone asks the right questions.",
        "Who is going to pay for all of this in the end?",
        "Well written and balanced, for once.",
        "I would like to see a follow-up in six months.",
        "Can we please have fewer ads on this site?",
        "The comments here are more informative than the story.",
        "Sad to read, but not surprising at all.",
        "Thank you for the clear explanation of a complicated topic.",
        "This will not age well.",
        "Interesting, but the numbers do not add up for me.",
        "Shared this with my whole team this morning.",
        "Let us wait and see what actually happens next.",
        "Another day, another crisis.",
        "I remember when this kind of news would have been on the front page.",
        "Good points on both sides of the argument.",
    ),
)

ZH = Chrome(
    nav=(
        "首页",
        "新闻",
        "国内",
        "国际",
        "财经",
        "科技",
        "体育",
        "娱乐",
        "汽车",
        "房产",
        "教育",
        "健康",
        "旅游",
        "视频",
        "图片",
    ),
    related="相关新闻",
    most_read="热门排行",
    comments="网友评论",
    reply="回复",
    newsletter="订阅我们的每日早报，第一时间获取最新资讯。扫描二维码关注官方微信公众号，"
    "下载客户端阅读更多精彩内容。",
    footer="关于我们 | 联系我们 | 广告服务 | 招聘信息 | 网站地图 | 隐私政策 | 免责声明。"
    "版权所有，未经书面授权禁止转载、摘编或利用其它方式使用上述作品。违法和不良信息举报电话。",
    authors=(
        "北京网友",
        "上海网友",
        "小王",
        "老李头",
        "匿名用户",
        "清风明月",
        "广东网友",
        "路人甲",
        "云南网友",
        "江南雨",
    ),
    comment_sentences=(
        "写得很好，支持一下。",
        "这个问题早就应该重视了。",
        "有没有人知道这些数据是从哪里来的？",
        "标题党，内容和标题不符。",
        "说得太对了，希望有关部门能看到。",
        "我家那边也是这样的情况。",
        "看完心情很复杂。",
        "坐等后续报道。",
        "楼上说得有道理。",
        "这种事情以后还会发生吗？",
        "感谢记者的辛苦采访。",
        "不太同意作者的观点，但是值得一读。",
        "广告太多了，影响阅读。",
        "转发给家里人看看。",
        "希望越来越好吧。",
        "这才是真正的新闻。",
        "数字看起来有点问题。",
        "又是这样，没什么好说的。",
        "顶一个，说出了大家的心声。",
        "建议多做一些这样的深度报道。",
    ),
)

CHROME = {"en": EN, "zh": ZH}
SITES = ("ledger", "magazine", "portal", "minimal")


@dataclass(frozen=True, slots=True)
class PageParts:
    """What goes into one page: the article and the chrome drawn for it."""

    headline: str
    paragraphs: tuple[str, ...]
    related: tuple[str, ...]
    comments: tuple[tuple[str, str], ...]


def draw_parts(
    headline: str,
    paragraphs: Sequence[str],
    other_titles: Sequence[str],
    lang: str,
    rng: random.Random,
) -> PageParts:
    """The article plus related links and comments drawn with ``rng``."""
    chrome = CHROME[lang]
    related = tuple(rng.sample(list(other_titles), min(len(other_titles), rng.randint(5, 8))))
    comments = []
    for _ in range(rng.randint(3, 7)):
        sentences = rng.sample(chrome.comment_sentences, rng.randint(1, 3))
        comments.append((rng.choice(chrome.authors), " ".join(sentences)))
    return PageParts(headline, tuple(paragraphs), related, tuple(comments))


def render_page(site: str, parts: PageParts, lang: str) -> str:
    """One HTML page of ``site`` showing ``parts``."""
    chrome = CHROME[lang]
    body = _RENDERERS[site](parts, chrome)
    return (
        f'<!DOCTYPE html><html lang="{lang}"><head><meta charset="utf-8">'
        f"<title>{escape(parts.headline)} - {site.title()}</title>"
        "<script>window.dataLayer = [];</script><style>body{margin:0}</style></head>"
        f"<body>{body}</body></html>"
    )


def _links(items: Sequence[str], href: str = "/story/") -> str:
    return "".join(f'<li><a href="{href}{index}">{escape(item)}</a></li>' for index, item in enumerate(items))


def _paragraphs(parts: PageParts, tag: str = "p") -> str:
    return "".join(f"<{tag}>{escape(text)}</{tag}>" for text in parts.paragraphs)


def _comments_divs(parts: PageParts, chrome: Chrome) -> str:
    return "".join(
        f'<div class="comment"><p class="author">{escape(author)}</p><p>{escape(text)}</p>'
        f'<a href="#reply">{chrome.reply}</a></div>'
        for author, text in parts.comments
    )


def _ledger(parts: PageParts, chrome: Chrome) -> str:
    return (
        '<header><div class="logo">The Daily Ledger</div>'
        f"<nav><ul>{_links(chrome.nav, '/s/')}</ul></nav></header>"
        f'<div class="breadcrumb"><a href="/">{chrome.nav[0]}</a> &gt; '
        f'<a href="/w">{chrome.nav[1]}</a></div>'
        f'<main><article><h1>{escape(parts.headline)}</h1><p class="byline">Staff reporter</p>'
        f"{_paragraphs(parts)}</article>"
        f'<aside class="related"><h2>{chrome.related}</h2><ul>{_links(parts.related)}</ul></aside>'
        f'<section id="comments"><h3>{chrome.comments} ({len(parts.comments)})</h3>'
        f"{_comments_divs(parts, chrome)}</section></main>"
        f"<footer><p>{chrome.footer}</p></footer>"
    )


def _magazine(parts: PageParts, chrome: Chrome) -> str:
    nav = _links(chrome.nav[::-1][:10], "/section/")
    return (
        f'<div id="top"><span>Weekly Review</span><ul class="menu">{nav}</ul></div>'
        f'<div class="wrap"><div class="sidebar"><h4>{chrome.most_read}</h4>'
        f"<ol>{_links(parts.related[:5], '/top/')}</ol><p>{chrome.newsletter}</p></div>"
        f'<div class="story"><div class="headline"><h1>{escape(parts.headline)}</h1></div>'
        f'<div class="story-body">{_paragraphs(parts, "div")}</div>'
        f'<div class="responses"><h3>{chrome.comments}</h3><ol>'
        + "".join(f"<li><b>{escape(a)}</b>: {escape(t)}</li>" for a, t in parts.comments)
        + "</ol></div></div></div>"
        f'<div class="bottom"><p>Weekly Review Media Group. {chrome.footer}</p></div>'
    )


def _portal(parts: PageParts, chrome: Chrome) -> str:
    ticker = _links(parts.related[::-1], "/live/")
    return (
        '<table width="100%"><tr><td><b>NewsPortal</b></td>'
        f"<td>{' | '.join(chrome.nav[:12])}</td></tr></table>"
        f'<div class="ticker"><ul>{ticker}</ul></div>'
        f'<div id="content"><div class="title"><h2>{escape(parts.headline)}</h2></div>'
        f'<div class="text">{_paragraphs(parts)}</div>'
        f'<div class="also"><h3>{chrome.related}</h3>'
        f"<ul>{_links(parts.related, '/also/')}</ul></div></div>"
        f'<div id="disqus_thread"><h3>{chrome.comments}</h3>{_comments_divs(parts, chrome)}</div>'
        f'<div id="footer"><ul>{_links(chrome.nav, "/f/")}</ul><p>{chrome.footer}</p></div>'
    )


def _minimal(parts: PageParts, chrome: Chrome) -> str:
    return (
        f'<nav><a href="/">{chrome.nav[0]}</a> <a href="/latest">{chrome.nav[1]}</a></nav>'
        f"<article><header><h1>{escape(parts.headline)}</h1></header>{_paragraphs(parts)}"
        '<div class="share"><a href="#t">Share</a> <a href="#f">Post</a> '
        '<a href="#m">Mail</a></div>'
        "</article>"
        f'<section class="comments"><h2>{chrome.comments}</h2>'
        f"{_comments_divs(parts, chrome)}</section>"
        f'<p class="newsletter">{chrome.newsletter}</p>'
    )


_RENDERERS = {"ledger": _ledger, "magazine": _magazine, "portal": _portal, "minimal": _minimal}
