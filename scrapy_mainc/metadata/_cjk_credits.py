"""Chinese and Korean credits: reporters ("记者 张三", "（记者 张三）", "张三/文", "[ 张三 ]
来源：", "홍길동 기자"), blog and forum posters ("由张三张贴", "张三 发表于"), and the credit in
brackets that closes a Chinese story ("……。（张三 李四）"). :mod:`._bylines` finds where to
read them.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ._credits import Context, Credit, read_credit

if TYPE_CHECKING:
    from ..core._stats import DomStats

#: Evidence strengths of every byline candidate (:mod:`._bylines` ranks them by these).
AUTHOR_LABEL, REPORTER_CREDIT, POSTER_CREDIT = 3, 2, 1

#: Characters of the chosen text's last blocks read for a closing credit.
CLOSING_CHARS = 40

_HAN = "\u3400-\u9fff"
#: One to six Han names separated by spaces or enumeration commas.
_HAN_NAMES = rf"[{_HAN}]{{2,4}}(?:[ \u3000、，,]+[{_HAN}]{{2,4}})*"
_HANGUL_NAME = "[\uac00-\ud7af]{2,4}"
#: Chinese and Korean reporter credits; the names in group 1.
_REPORTER_RES = (
    # （记者 张三）, 据新华社拉萨电（记者 格桑边觉）, （本报记者 张三 李四）
    re.compile(rf"[（(][^（）()]{{0,12}}记者\s*({_HAN_NAMES})\s*(?:[{_HAN}]{{2}}报道)?\s*[）)]"),
    # 光明日报记者 王建宏 张文攀; 本报记者罗科苏盈发自北京; 记者马俊峰/文
    re.compile(
        rf"记者(?:\s+({_HAN_NAMES})(?=\s*(?:$|[/／]|发自|报道|摄|[）)]|\s))"
        rf"|({_HAN_NAMES})(?=\s*(?:[/／]\s*文|发自|报道|摄)))"
    ),
    # 马俊峰/文
    re.compile(rf"({_HAN_NAMES})\s*[/／]\s*文"),
    # 2004年7月16日08:19 [ 黄宇 ] 来源：
    re.compile(rf"[\[【]\s*({_HAN_NAMES})\s*[\]】]\s*来源"),
    # 칼럼니스트 박생강, 정덕현 칼럼니스트, 홍길동 기자
    re.compile(rf"(?:칼럼니스트|기자|특파원)\s+({_HANGUL_NAME})(?![\uac00-\ud7af])"),
    re.compile(rf"(?<![\uac00-\ud7af])({_HANGUL_NAME})\s*(?:칼럼니스트|기자|특파원)(?![\uac00-\ud7af])"),
)
#: Poster credits of blogs and forums; the name in group 1.
_POSTER_RES = (
    re.compile(r"由\s*\|?\s*([^\s\d|]{2,20}?)\s*\|?\s*(?:张贴|于.{0,40}?发表)"),
    re.compile(r"^([^\s\d:：]{2,20}(?:\d*))\s*发表于"),
)
#: A closing credit of the chosen text: "……。（张三 李四）", "（张三 上海报道）".
_CLOSING_RE = re.compile(
    rf"[。！？”\s][（(]\s*(?:[^（）()]{{0,12}}记者)?\s*({_HAN_NAMES})\s*(?:[{_HAN}]{{2}}报道)?\s*[）)]\s*$|"
    rf"^[（(]\s*(?:[^（）()]{{0,12}}记者)?\s*({_HAN_NAMES})\s*(?:[{_HAN}]{{2}}报道)?\s*[）)]\s*$"
)
_PRIVATE_USE_RE = re.compile("[\ue000-\uf8ff]")
HAN_HINT_RE = re.compile(r"记者|[/／]\s*文|张贴|发表|来源|칼럼니스트|기자|특파원")
#: Two-character Chinese surnames, and the commonest one-character ones: four characters
#: run together are two names when both halves start with a surname ("罗科苏盈").
_COMPOUND_SURNAMES = frozenset(
    "欧阳 司马 上官 诸葛 东方 皇甫 尉迟 公孙 慕容 令狐 长孙 宇文 司徒 夏侯 轩辕 端木 独孤 南宫 西门".split()
)
_SURNAMES = frozenset(
    "王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程苏魏吕丁任沈"
    "姚卢姜崔钟谭陆汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵万钱严覃武戴莫孔向汤"
    "常乔赖文庞樊兰殷施洪翟安颜倪牛温季俞章鲁葛伍申尤毕聂焦柳邢路岳齐梅庄辛管祝左涂谷祁时舒耿詹关苗凌费"
    "纪靳盛童欧项曲成游阳裴席卫屈鲍霍翁隋甘景单包司柏宁柯阮桂闵解强柴华车冉边吉饶戚古米池滕晋苑宫全褚简"
    "娄符穆党燕郎冀谈姬屠连晏栾郁商蒙喻窦迟卓艾蓝巩仲乐虞卞封楚佟栗匡宗应巫鞠桑荆岑胥"
)


def han_credit(text: str, context: Context) -> tuple[int, Credit]:
    """A reporter's or a poster's credit in CJK ``text``, with its strength. Private-use
    characters count as spaces: legacy Chinese encodings' spacing bytes decode to them
    ("[ 黄宇 ]\ue5c2 来源")."""
    visible = visible_context(context)
    text = _PRIVATE_USE_RE.sub(" ", text)
    for strength, patterns in ((REPORTER_CREDIT, _REPORTER_RES), (POSTER_CREDIT, _POSTER_RES)):
        for pattern in patterns:
            match = pattern.search(text)
            names = next((group for group in match.groups() if group), "") if match else ""
            if not match or not names:
                continue
            if text[match.end() :].lstrip().startswith("报道") and " " in names:
                names = names.rsplit(None, 1)[0]  # "彭冲 山东冠县报道": the last is a place
            credit = read_credit(_split_run(names), visible)
            if credit.persons:
                return strength, credit
    return 0, Credit()


def _split_run(names: str) -> str:
    """Four Han characters without a space are two names when both halves start with a
    common surname and the first half is not a two-character surname ("罗科苏盈")."""
    names = names.strip()
    if (
        len(names) == 4
        and names[0] in _SURNAMES
        and names[2] in _SURNAMES
        and names[:2] not in _COMPOUND_SURNAMES
    ):
        return f"{names[:2]} {names[2:]}"
    return names


def closing_credit(stats: DomStats, content: tuple[int, ...], context: Context) -> Credit:
    """A credit in brackets closing one of the chosen text's last three blocks."""
    last = max(stats.end[node] for node in content) - 1
    words, nodes, tags = stats.words, stats.nodes, stats.tags
    checked = 0
    for node in range(last, content[0] - 1, -1):
        if words[node] and tags[node] in ("p", "div", "td", "font", "span"):
            tail = " ".join("".join(nodes[node].itertext()).split())[-CLOSING_CHARS:]
            match = _CLOSING_RE.search(tail)
            if match:
                names = _split_run(next(group for group in match.groups() if group))
                reporter = "记者" in match.group()
                credit = read_credit(names, visible_context(context))
                if credit.persons and (reporter or all(_surname_first(name) for name in credit.persons)):
                    return credit
            checked += 1
            if checked == 3:
                break
    return Credit()


def _surname_first(name: str) -> bool:
    return name[:1] in _SURNAMES or name[:2] in _COMPOUND_SURNAMES


def visible_context(context: Context) -> Context:
    """The context for a visible credit, where user names are people (forum posters)."""
    return Context(site_keys=context.site_keys, accounts_are_people=True)
