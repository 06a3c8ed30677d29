"""Write the settings tables of the documentation from the settings registry.

    .venv/bin/python scripts/settings_docs.py          # rewrite the tables in docs/*.md
    .venv/bin/python scripts/settings_docs.py --check  # exit 1 when one differs (a test runs it)

Each table is plain Markdown between two comments, so the pages read the same on a code
host as in the built documentation::

    <!-- mainc-settings extraction -->
    | setting | type | default | meaning |
    ...
    <!-- /mainc-settings -->

The rows come from ``scrapy_mainc.config._registry.REGISTRY`` (name, type, default,
meaning), the one place the code takes its defaults from, so the reference cannot disagree
with the code: a test fails when a table is out of date, and when a group of the registry
has no table on any page.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scrapy_mainc.config._registry import REGISTRY  # noqa: E402

DOCS = ROOT / "docs"
#: A table's block: the opening comment names the group.
BLOCK_RE = re.compile(r"(<!-- mainc-settings (\w+) -->\n)(.*?)(<!-- /mainc-settings -->)", re.S)
#: reStructuredText's inline literals (``x``) in the meanings, Markdown's in the tables.
_RST_LITERAL_RE = re.compile(r"``(.+?)``")


def table(group: str) -> str:
    """The Markdown table of the settings of ``group``, in registry order."""
    rows = [setting for setting in REGISTRY if setting.group == group]
    if not rows:
        groups = ", ".join(sorted({setting.group for setting in REGISTRY}))
        raise ValueError(f"no settings in group {group!r}; groups: {groups}")
    lines = ["| setting | type | default | meaning |", "|---|---|---|---|"]
    for setting in rows:
        default = repr(setting.default).replace("'", '"')
        meaning = _RST_LITERAL_RE.sub(r"`\1`", setting.meaning)
        cells = (f"`{setting.name}`", setting.kind, f"`{default}`", meaning)
        lines.append("| " + " | ".join(cell.replace("|", "\\|") for cell in cells) + " |")
    return "\n".join(lines) + "\n"


def rendered(text: str) -> str:
    """``text`` with every settings block holding its group's table as the registry has it."""
    return BLOCK_RE.sub(lambda block: block[1] + table(block[2]) + block[4], text)


def groups_in(text: str) -> list[str]:
    """The groups of the settings blocks of ``text``, in order."""
    return [block[2] for block in BLOCK_RE.finditer(text)]


def main(argv: list[str]) -> int:
    check = "--check" in argv
    stale, shown = [], set()
    for page in sorted(DOCS.glob("*.md")):
        text = page.read_text(encoding="utf-8")
        shown.update(groups_in(text))
        updated = rendered(text)
        if updated != text:
            stale.append(page.name)
            if not check:
                page.write_text(updated, encoding="utf-8")
    missing = sorted({setting.group for setting in REGISTRY} - shown)
    if missing:
        print(f"settings_docs: no table for the group(s) {', '.join(missing)} on any page of docs/")
    if stale:
        print(f"settings_docs: {'out of date' if check else 'rewrote'}: {', '.join(stale)}")
    return 1 if missing or (check and stale) else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
