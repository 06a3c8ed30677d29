"""From a credit as pages write it to person names: labels, job titles, e-mail addresses,
handles and dates dropped, several names split, organisations told apart from people.

A credit is split on "and", "&", commas, "、" and similar; each part is kept when it reads
as a person's name: a few capitalised words (or one: "by Catherine"), or two to six Han
characters, or a hangul name; job titles ("Staff Writer", "AP Auto Writer") and
credentials ("MS, RD") are parts of their own or trailing words, and go. Organisations
(news agencies, desks, "Staff", the site's own name, a domain) are recognised by their
words; what is left of a credit that names only organisations is no author, and such a
credit is reported as an organisation so that other evidence does not overrule it.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from html import unescape

from ..core._text import clean_text

#: Leading labels of a credit line, any language the datasets show and the usual others.
_LABEL_RE = re.compile(
    r"^[\W_]{0,3}(?:(?:publicado|escrito)\s+por\b|"
    r"(?:written|posted|reported|analysis|story|words|text|reporting|compiled|published|"
    r"commentary|opinion|column|review|interview|article)\s+by\b|by\b|von\b|par\b|por\b|"
    r"door\b|av\b|af\b|autor(?:in|es)?\b|authors?\b|auteur\b|text\b|texto\b|текст\b|автор\b|"
    r"publicado\s+por\b|escrito\s+por\b|reporter\b|(?:thread|topic|discussion)\s+starter\b|started\s+by\b|"
    r"original\s+poster\b|via\b|"
    r"作者|撰文|执笔人?|文\s*[/／|:：]|本报(?:实习|特约)?记者|(?:实习|特约|首席)?记者|通讯员|报道员|"
    r"供稿|整理|原创|楼主|发帖人|发表人|发布人|署名)\s*[:：/／|]?\s*",
    re.I,
)
#: Things in a credit that are never names.
_NOISE_RE = re.compile(
    r"\S+@\S+\.\w+|https?://\S+|www\.\S+|@\w+|[\w.-]+\.(?:com|net|org|co)/\S*|\([^)]*@[^)]*\)|[<>«»\[\]【】〔〕（）()]|\u200b"
)
#: Where a credit's names end: a date, a time, "on <date>", "updated", a pipe.
_TAIL_RE = re.compile(
    r"\s+(?:on|at|am|le|el|il|em|updated|published|posted|last|aktualisiert|发表于|发布于|"
    r"于|时间|日期|来源|编辑|责任编辑)\b.*$|"
    r"\s+(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?\s+\d.*$|(?<!\w)\d.*$|"
    r"\s+(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b.*$|\s[•·—–-]\s.*$|"
    r"\s+[^\s:：|]+[:：].*$|"
    r"[\s.|]+(?:photo(?:s|graph(?:s|y))?|pictures?|illustrations?|images?|video|graphics?)\s+by\b.*$|"
    r"[\s.|]+(?:additional\s+|with\s+)?(?:contributions?|reporting|research)\s+(?:from|by)\b.*$",
    re.I,
)
#: Separators between names. "/" splits too: "文/张三" lost its label already.
_SPLIT_RE = re.compile(
    r"\s*(?:,|;|，|；|、|\||/|／|\s&\s|&amp;|(?<=[^\W\d_]{2})\.\s+(?=[A-Z])|\s+(?i:and|und|y|e|et|en|og|och|i|и)\s+)\s*"
)
#: An affiliation after a name: "Jane Doe For Dailymail.com", "Jane Doe for the Courier".
_AFFILIATION_RE = re.compile(r"\s+for\s+(?=\S)", re.I)
#: A conjunction left at the start of a part when names stand in elements of their own
#: ("<span>Jane Doe</span> <span>and John Smith, CNN</span>").
_LEADING_CONJUNCTION_RE = re.compile(r"^(?:and|und|et|y|e|en|og|och|i|и|&)\s+(?=\S)", re.I)
#: A part ending in an initial: its full stop belongs to the name.
_INITIAL_END_RE = re.compile(r"(?<![^\W\d_])[A-Z]\.$")
_HAN_RE = re.compile(r"^[\u3400-\u9fff\uf900-\ufaff·•．]+$")
_HANGUL_RE = re.compile(r"^[\uac00-\ud7af]{2,5}$")
#: A Han name: 2 to 4 characters, or a transcribed foreign name with a middle dot.
_HAN_NAME_RE = re.compile(r"^(?:[\u3400-\u9fff]{2,4}|[\u3400-\u9fff]{1,8}[·•．][\u3400-\u9fff·•．]{1,12})$")
#: Han names run together with spaces: "宋怡 杨志华".
_HAN_RUN_RE = re.compile(r"^[\u3400-\u9fff]{2,4}(?:\s+[\u3400-\u9fff]{2,4})+$")
#: Han organisation endings: newspapers, agencies, sites, bureaus, companies, groups.
_HAN_ORG_RE = re.compile(
    r"(?:报|社|网|台|站|部|局|厅|委|会|院|所|处|中心|公司|集团|网络|频道|新闻|日报|晚报|周刊|杂志|"
    r"政府|办公室|编辑部|课题组|小组|出版社|研究|协会|学会|大学|学院|工作室)$"
)
#: Han words that follow or precede credits and are no names.
_HAN_NOT_NAMES = frozenset(
    "出自 来源 编辑 责编 日期 时间 发表 发布 更新 点击 阅读 评论 字号 打印 关闭 转载 原创 博客 英文 中文 "
    "图片 摄影 供图 作者 记者 本报 通讯员 实习生 报道 综合 整理 专访 获悉 近日 日前 网友 楼主 管理员".split()
)
_HAN_NOT_NAME_END_RE = re.compile(r"(?:报道|发自|电|讯|摄|供图|整理|编译)$")
_CONJUNCTIONS = frozenset("and und & y e et en og och i и with".split())
#: Words of links and buttons next to a byline ("View More Articles", "Follow").
UI_WORDS = frozenset(
    """view more articles article read follow profile email e-mail twitter facebook contact
    all posts stories subscribe share comments comment bio biography see latest about
    publish published updated social links archive rss feed""".split()
)
#: Pronouns and determiners: never a name, even where user names count ("Published by our
#: engineering team").
FUNCTION_WORDS = frozenset(
    "a an the this that these those our my your his her their its we us you them".split()
)
#: Job titles and affiliations: a part holding one of these words is not a name.
JOB_WORDS = frozenset(
    """writer writers reporter reporters correspondent correspondents editor editors
    contributor contributors columnist columnists journalist journalists producer
    analyst critic blogger intern chief senior national political sports special staff
    director managing deputy associate manager founder president professor fellow
    photographer photographers photo photos illustration illustrator video host anchor
    contributing freelance guest bureau desk team columnista redakteur redaktion executive
    correspondente repórter redação redacción reportero periodista giornalista
    redattore auteur rédaction journaliste envoyé sportswriter expert experts specialist""".split()
)  # fmt: skip
#: Words of organisation names (news agencies, publications, institutions).
ORG_WORDS = frozenset(
    """associated press reuters ap afp pti ians ani upi dpa efe ansa xinhua bloomberg
    kyodo yonhap tass agency agencies news newsroom bureau editorial board staff
    desk service services wire wires media times post daily weekly journal magazine
    tribune herald gazette network channel radio tv television online digital group inc
    ltd llc corp company foundation institute university association council government
    ministry department office center centre society committee coordenadoria sport
    sports admin administrator webmaster reports report team publishers publishing
    insider international global world leader courier chronicle observer register star
    sun examiner inquirer independent guardian telegraph mirror express standard globe
    mail record dispatch bulletin enquirer monitor cnn bbc cbs nbc abc fox msnbc npr pbs wsj
    nyt usa today club editors redaktion redacción redação rédaction redazione""".split()
)  # fmt: skip
#: Last words of a desk or staff credit: the whole credit is an organisation.
DESK_WORDS = frozenset(
    "staff team desk bureau editorial editors reports newsroom redaktion redazione wire".split()
)
#: Single-word credits that are accounts or roles, not people.
ACCOUNT_WORDS = frozenset(
    """admin administrator webmaster editor editorial staff guest anonymous user member members
    moderator""".split()
)
#: Credentials after a name ("Rachael Link, MS, RD").
_CREDENTIAL_RE = re.compile(r"^(?:[A-Z]{2,5}|Ph\.?D\.?|M\.?D\.?|Dr\.?|MSc|MBA|RDN|CPT|CSCS|Esq\.?)$")
_PARTICLES = frozenset(
    "de da di del della der den van von la le du dos das bin ibn al el y e zu ter ten".split()
)
_NAME_TOKEN_RE = re.compile(r"^(?:[^\W\d_][\w'’.\-]*|[A-Z]\.)$")


#: A credit that is a name as it stands: two to four capitalised words of letters.
_PLAIN_NAME_RE = re.compile(r"^[A-Z][a-z'’]+(?: (?:[A-Z]\.|[A-Z][a-z'’]+)){1,3}$")
#: First words that are labels, not names ("By Jane", "Von Anna").
_LABEL_WORDS = frozenset("by von par por door av af text texto autor author posted written".split())


#: The page type of forum and Q&A threads (:attr:`Document.page_type`), whose posters go by
#: user names.
FORUM = "forum"


@dataclass(slots=True)
class Credit:
    """What one credit says: person names, and organisations it names instead."""

    persons: list[str] = field(default_factory=list)
    organisations: list[str] = field(default_factory=list)
    #: Parts that read as neither (a sentence, a date, a label).
    unread: int = 0


@dataclass(frozen=True, slots=True)
class Context:
    """What organisation names look like on this page."""

    #: Site names and the page's domain labels, as letters and digits only, lower-cased.
    site_keys: frozenset[str] = frozenset()
    #: Whether a one-word, lower-case or digit-bearing credit (a user name) is a person:
    #: true for a visible forum or blog credit, false for markup, where such values are
    #: CMS accounts.
    accounts_are_people: bool = False


def read_credit(raw: str, context: Context) -> Credit:
    """The person names and the organisations of one credit string."""
    credit = Credit()
    plain = _PLAIN_NAME_RE.match(raw) and raw.split(None, 1)[0].casefold() not in _LABEL_WORDS
    if plain and classify(raw, context) == "person":
        credit.persons.append(raw)  # "Jane Doe": nothing to clean, split or strip
        return credit
    text = _clean(raw)
    if not text:
        return credit
    if _HAN_RUN_RE.match(text):
        parts = text.split()
    else:
        parts = [part for part in _SPLIT_RE.split(text) if part]
    first = True
    for part in parts:
        if _key(part) in context.site_keys:
            credit.organisations.append(part)  # the site's own name after a name: "New York Daily News"
            first = False
            continue
        if not first and any(word.casefold().strip(".") in JOB_WORDS for word in part.split()[-1:]):
            credit.unread += 1  # a job title after a name: "Jane Doe, Home Security Expert"
            continue
        part = _strip_part(part)
        if not part or _CREDENTIAL_RE.match(part) or part.casefold() in _CONJUNCTIONS:
            continue
        kind = classify(part, context)
        head = _AFFILIATION_RE.split(part, 1)[0]
        if head != part and classify(head, context) == "person":
            part, kind = head, "person"  # "Jane Doe For Dailymail.com": the writer, then for whom
        if not kind and first and context.accounts_are_people and _poster_first(part):
            part = part.split()[0]  # a poster and what the forum says about them
            kind = classify(part, context)
        if kind == "person" and not first and " " not in part and part.isascii():
            kind = ""  # one word after the names: "Futurism", "Biography", "Follow"
        first = False
        if kind == "person":
            credit.persons.append(part)
        elif kind == "organisation":
            credit.organisations.append(part)
        else:
            credit.unread += 1
    return credit


def _poster_first(part: str) -> bool:
    """Whether ``part`` may be a forum poster's user name followed by what the forum says
    of them ("zboygirl Senior Member", "lanzhou 版主"), not a given name and one word that
    makes a name no person's ("Jane Writer": no author rather than "Jane")."""
    head, _, rest = part.partition(" ")
    if not rest:
        return False
    return " " in rest.strip() or not (head[:1].isupper() and head[1:].islower() and rest[:1].isupper())


def _clean(raw: str) -> str:
    text = unicodedata.normalize("NFKC", unescape(raw)) if "&" in raw or not raw.isascii() else raw
    text = clean_text(text) if not text.isprintable() else text  # "Jane\x01 Doe"
    if " " not in text.strip():
        return _LABEL_RE.sub("", text.strip())  # one token: a name or a user name ("cjy52191")
    text = " ".join(_NOISE_RE.sub(" ", text).split())
    for _ in range(3):  # "By: Text: ...", "文/记者 张三"
        stripped = _LABEL_RE.sub("", text, count=1).strip()
        if stripped == text:
            break
        text = stripped
    return _TAIL_RE.sub("", text).strip(" :：-–—|,;")


def _strip_part(part: str) -> str:
    """A part without its label and its trailing job or affiliation words ("Tom Davies
    Associated Press", "정덕현 칼럼니스트"); a part ending in a desk word ("HNN Staff",
    "Science X staff") is kept whole: it is an organisation."""
    part = _LEADING_CONJUNCTION_RE.sub("", _LABEL_RE.sub("", part.strip(" :：-–—'\"“”‘’")).strip())
    if part.endswith(".") and not _INITIAL_END_RE.search(part):
        part = part.rstrip(". ")  # a sentence's full stop, not an initial's ("Maria T.K.")
    tokens = part.split()
    if len(tokens) > 1 and all(len(token) == 1 and _HAN_RE.match(token) for token in tokens):
        return "".join(tokens)  # "赵 培": a name spaced out to the width of longer ones
    if len(tokens) > 1 and (tokens[-1].casefold() in DESK_WORDS or tokens[0].casefold() == "the"):
        return part
    trailing = 0
    while len(tokens) - trailing > 2 and _is_trailing_title(tokens[-1 - trailing]):
        trailing += 1
    removed = [token.casefold().strip(".") for token in tokens[len(tokens) - trailing :]]
    # "Tom Davies Associated Press" loses its agency, "European Space Agency" keeps its word
    if trailing and (trailing > 1 or removed[0] in JOB_WORDS or _is_title_word(tokens[-1])):
        tokens = tokens[: len(tokens) - trailing]
        if len(tokens) > 2 and tokens[-1].casefold() == "the":
            tokens.pop()  # "Sean O'Hara The Associated Press"
    if len(tokens) == 2 and _is_trailing_title(tokens[-1]) and not tokens[0].isascii():
        tokens.pop()  # "정덕현 칼럼니스트"
    return " ".join(tokens)


def _is_trailing_title(token: str) -> bool:
    lowered = token.casefold().strip(".")
    return lowered in JOB_WORDS or lowered in ORG_WORDS or _is_title_word(token)


def _is_title_word(token: str) -> bool:
    return token in ("칼럼니스트", "기자", "특파원", "논설위원", "记者", "编辑", "通讯员")


def classify(name: str, context: Context) -> str:
    """``person``, ``organisation`` or ``""`` (neither: a title, a date, a sentence)."""
    if len(name) > 60 or _DIGIT_RE.search(name) and (not context.accounts_are_people or " " in name):
        return ""  # digits: in a user name only ("cjy52191"), never in a name of several words ("G1 RO")
    key = _key(name)
    if not key:
        return ""
    if key in context.site_keys or (
        " " not in name and len(key) >= 4 and any(key in site for site in context.site_keys)
    ):
        return "organisation"  # the site's own name: "LinkNaija", "AppleInsider"
    if _HAN_RE.match(name):
        return _han_kind(name)
    if _HANGUL_RE.match(name):
        return "person"
    tokens = name.split()
    lowered = [token.casefold().strip(".,") for token in tokens]
    if len(tokens) == 1:
        if lowered[0] in ORG_WORDS or "." in name and _looks_like_domain(name):
            return "organisation"
        if (
            lowered[0] in UI_WORDS
            or lowered[0] in FUNCTION_WORDS
            or lowered[0] in JOB_WORDS
            and lowered[0] not in ACCOUNT_WORDS
        ):
            return ""  # "Follow", "Executive" (but "Editor" is an account: an organisation)
        return _single_word(name, lowered[0], context)
    if name[0].isascii() and name[0].islower():
        return ""  # "the Chinese government"
    if any(token in ORG_WORDS for token in lowered) or "." in name and _looks_like_domain(name):
        return "organisation"
    if lowered[0] == "the":
        return "organisation"  # "The Water Coolest"
    if any(token in JOB_WORDS or token in UI_WORDS for token in lowered):
        return ""
    if len(tokens) > 5 or not all(_NAME_TOKEN_RE.match(token) for token in tokens):
        return ""
    capitalised = [token for token, low in zip(tokens, lowered) if low not in _PARTICLES]
    return "person" if capitalised and all(token[0].isupper() for token in capitalised) else ""


def _han_kind(name: str) -> str:
    if name in _HAN_NOT_NAMES or _HAN_NOT_NAME_END_RE.search(name):
        return ""
    if _HAN_ORG_RE.search(name):
        return "organisation"
    return "person" if _HAN_NAME_RE.match(name) else ""


def _single_word(name: str, lowered: str, context: Context) -> str:
    if lowered in ACCOUNT_WORDS or lowered.endswith("admin"):
        return "organisation"
    if context.accounts_are_people:
        return "person" if _ACCOUNT_RE.match(name) else ""
    if not _NAME_TOKEN_RE.match(name) or not name[0].isupper() or "_" in name:
        return "organisation"  # a user name: "gto", "kei_eno"
    if name.isupper() and len(name) > 3:
        return "organisation"  # a station or desk account: "KWCHCIK"
    if any(char.isupper() for char in name[1:]):
        return "organisation"  # "LinkNaija", "AppleInsider"
    return "person"


#: A user name: letters, digits and a few joiners ("cjy52191", "放飞&心情").
_ACCOUNT_RE = re.compile(r"^[^\W_][\w.&\-]{1,19}$")


_DOMAIN_RE = re.compile(r"\w\.(?:com|net|org|info|co|cn|de|uk|ru|fr|it|es|br|in|jp|kr|io|news|tv)\b", re.I)


def _looks_like_domain(name: str) -> bool:
    return _DOMAIN_RE.search(name) is not None


def _key(name: str) -> str:
    return _NOT_ALNUM_RE.sub("", name.casefold())


_NOT_ALNUM_RE = re.compile(r"[\W_]+")
_DIGIT_RE = re.compile(r"\d")


def site_keys(*names: str) -> frozenset[str]:
    """Keys of the page's own names (site names, domain labels) for :class:`Context`."""
    keys = set()
    for name in names:
        key = _key(name)
        if len(key) >= 3:
            keys.add(key)
    return frozenset(keys)
