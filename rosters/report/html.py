"""A sheet table of the report written in Python: the same text, to the byte, as
``templates/rosters/_sheet_table.html`` draws it (tested: tests/rosters/report/test_html.py).

The report prints every table of its sections (the RG list of a side, the day-by-day rows); the
template's loops cost a look-up per cell and tag. The sheets' own page keeps the template.
"""

from __future__ import annotations

from html import escape as html_escape
from typing import Any

from django.utils.html import conditional_escape
from django.utils.safestring import SafeString, mark_safe

from rosters.sheets import Table


def _escape(text: Any) -> str:
    """``conditional_escape(text)``: a plain ``str`` (most cells) escaped as Django's ``escape``
    does (``html.escape``), without its lazy-string wrapper; anything else by Django."""
    return html_escape(text) if type(text) is str else conditional_escape(text)


def table_html(table: Table) -> SafeString:
    """``render_to_string("rosters/_sheet_table.html", {"table": table})``."""
    if not table.rows:
        return mark_safe(f"\n\n<p>{_escape(table.empty_text or '—')}</p>\n\n")  # noqa: S308
    out = ['\n\n<table class="grid compact sheet-table">\n  <thead>\n    ']
    for head_row in table.head_rows():
        out.append("\n    <tr>")
        for head in head_row:
            scope = "colgroup" if head.colspan > 1 else "col"
            out.append(f'<th scope="{scope}"')
            if head.colspan > 1:
                out.append(f' colspan="{head.colspan}"')
            if head.rowspan > 1:
                out.append(f' rowspan="{head.rowspan}"')
            if head.numeric:
                out.append(' class="num"')
            out.append(f">{_escape(head.text)}</th>")
        out.append("</tr>\n    ")
    out.append("\n  </thead>\n  <tbody>\n  ")
    numeric = [column.numeric for column in table.columns]
    for row in table.rows:
        out.append(
            '\n    <tr aria-current="date">\n      ' if row.current else "\n    <tr>\n      "
        )
        shaded = row.shaded
        for position, text in enumerate(row.cells):
            if position == 0:
                out.append(f'<th scope="row">{_escape(text)}</th>')
                continue
            number, grey = numeric[position], position in shaded
            if number or grey:
                kind = ("num" if number else "") + (" shaded" if grey else "")
                out.append(f'<td class="{kind}">{_escape(text)}</td>')
            else:
                out.append(f"<td>{_escape(text)}</td>")
        out.append("\n    </tr>\n  ")
    out.append("\n  </tbody>\n</table>\n\n")
    return mark_safe("".join(out))  # noqa: S308
