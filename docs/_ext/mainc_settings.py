"""The ``mainc-settings`` directives: tables of the registered ``MAINC_`` settings.

::

    ```{mainc-settings} fields
    ```

    ```{mainc-settings-others}
    ```

The rows come from ``scrapy_mainc.integration._settings.REGISTRY`` (name, type, default,
meaning), so the reference cannot disagree with the code. ``mainc-settings GROUP`` renders
one group; a group with no registered setting is an error that lists the groups there are
(a typo, or a section whose settings were removed). ``mainc-settings-others`` renders,
under a heading each, every group that no ``mainc-settings`` directive earlier on the same
page rendered, and nothing when there is none: a group added to the registry is in the
reference before anyone writes a section for it.
"""

from __future__ import annotations

from typing import Any

from docutils import nodes
from docutils.parsers.rst import Directive

from scrapy_mainc.integration._settings import REGISTRY, Setting

HEADERS = ("setting", "type", "default", "meaning")
WIDTHS = (28, 12, 16, 44)


#: ``env.temp_data`` key: the groups rendered so far on the page being read.
_RENDERED = "mainc_settings_rendered"


class SettingsTable(Directive):
    required_arguments = 1
    has_content = False

    def run(self) -> list[nodes.Node]:
        group = self.arguments[0]
        rows = [setting for setting in REGISTRY if setting.group == group]
        if not rows:
            groups = sorted({setting.group for setting in REGISTRY})
            raise self.error(f"no settings in group {group!r}; groups: {', '.join(groups)}")
        _rendered(self).add(group)
        return [self._table(rows)]

    def _table(self, rows: list[Setting]) -> nodes.table:
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
        return table

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


class OtherSettingsTables(SettingsTable):
    """Every group not rendered earlier on the page, each under a heading of its name."""

    required_arguments = 0

    def run(self) -> list[nodes.Node]:
        rendered = _rendered(self)
        groups = list(dict.fromkeys(setting.group for setting in REGISTRY if setting.group not in rendered))
        output: list[nodes.Node] = []
        for group in groups:
            rendered.add(group)
            output.append(nodes.rubric(text=f"Group {group!r}"))
            output.append(self._table([setting for setting in REGISTRY if setting.group == group]))
        return output


def _rendered(directive: Directive) -> set[str]:
    temp_data = directive.state.document.settings.env.temp_data  # cleared for every page
    groups: set[str] = temp_data.setdefault(_RENDERED, set())
    return groups


def _python(value: object) -> str:
    return repr(value).replace("'", '"')


def setup(app: Any) -> dict[str, Any]:
    app.add_directive("mainc-settings", SettingsTable)
    app.add_directive("mainc-settings-others", OtherSettingsTables)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
