"""The ``mainc-settings`` directive: a table of the registered ``MAINC_`` settings of a group.

::

    ```{mainc-settings} fields
    ```

The rows come from ``scrapy_mainc.integration._settings.REGISTRY`` (name, type, default,
meaning), so the reference cannot disagree with the code.
"""

from __future__ import annotations

from typing import Any

from docutils import nodes
from docutils.parsers.rst import Directive

from scrapy_mainc.integration._settings import REGISTRY

HEADERS = ("setting", "type", "default", "meaning")
WIDTHS = (28, 12, 16, 44)


class SettingsTable(Directive):
    required_arguments = 1
    has_content = False

    def run(self) -> list[nodes.Node]:
        group = self.arguments[0]
        rows = [setting for setting in REGISTRY if setting.group == group]
        if not rows:
            groups = sorted({setting.group for setting in REGISTRY})
            raise self.error(f"no settings in group {group!r}; groups: {', '.join(groups)}")
        table = nodes.table(classes=["mainc-settings"])
        tgroup = nodes.tgroup(cols=len(HEADERS))
        table += tgroup
        tgroup.extend(nodes.colspec(colwidth=width) for width in WIDTHS)
        head = nodes.thead()
        head += self._row([nodes.Text(title) for title in HEADERS])
        tgroup += head
        body = nodes.tbody()
        for setting in rows:
            meaning, messages = self.state.inline_text(setting.meaning, self.lineno)
            cells = [
                nodes.literal(text=setting.name, ids=[nodes.make_id(setting.name)]),
                nodes.Text(setting.kind),
                nodes.literal(text=_python(setting.default)),
                *meaning,
            ]
            body += self._row(cells[:3] + [cells[3:]])
            body.extend(messages)
        tgroup += body
        return [table]

    @staticmethod
    def _row(cells: list[Any]) -> nodes.row:
        row = nodes.row()
        for content in cells:
            entry = nodes.entry()
            paragraph = nodes.paragraph()
            paragraph.extend(content if isinstance(content, list) else [content])
            entry += paragraph
            row += entry
        return row


def _python(value: object) -> str:
    return repr(value).replace("'", '"')


def setup(app: Any) -> dict[str, Any]:
    app.add_directive("mainc-settings", SettingsTable)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
