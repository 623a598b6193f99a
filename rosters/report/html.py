"""A sheet table of the report written in Python: the same text, to the byte, as
``templates/rosters/_sheet_table.html`` draws it (tested: tests/rosters/report/test_html.py).

The report prints every table of its sections (the RG list of a side, the day-by-day rows); the
template's loops cost a look-up per cell and tag. The sheets' own page keeps the template.
"""

from __future__ import annotations

from collections.abc import Sequence
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


def sections_html(sections: Sequence[Any]) -> SafeString:
    """The report's sections (``rosters.report.views.ShownSection``s: each section with its
    charts' SVG and its tables' HTML) as the loop of ``templates/rosters/report/report.html``
    drew them, to the byte (tested: tests/rosters/report/test_html.py, the loop kept there)."""
    out: list[str] = []
    for shown in sections:
        section = shown.section
        slug = _escape(section.slug)
        out.append(
            f'\n  <section id="report-{slug}" aria-labelledby="report-{slug}-heading">\n'
            f'    <h2 id="report-{slug}-heading">{_escape(section.title)}</h2>\n    '
        )
        if section.facts:
            out.append('\n    <dl class="facts">\n      ')
            for fact in section.facts:
                out.append(f"<dt>{_escape(fact.label)}</dt><dd>{_escape(fact.value)}</dd>")
            out.append("\n    </dl>\n    ")
        out.append("\n    ")
        for item in shown.charts:
            chart = item.chart
            chart_slug = _escape(chart.slug)
            out.append(
                f'\n    <figure class="report-chart" id="chart-{chart_slug}">\n'
                f'      <figcaption id="chart-{chart_slug}-title">{_escape(chart.title)}'
                f'<span class="visually-hidden"> — {_escape(chart.summary)}</span></figcaption>\n'
                f"      {_escape(item.svg)}\n    </figure>\n    "
            )
        out.append("\n    ")
        for item in shown.tables:
            out.append("\n    ")
            if item.table.title:
                out.append(f"<h3>{_escape(item.table.title)}</h3>")
            out.append(f"\n    {_escape(item.html)}\n    ")
        out.append("\n    ")
        if section.links:
            out.append('<ul class="report-links">')
            for link in section.links:
                out.append(f'<li><a href="{_escape(link.url)}">{_escape(link.text)}</a></li>')
            out.append("</ul>")
        out.append("\n    ")
        for note in section.notes:
            out.append(f'<p class="help">{_escape(note)}</p>')
        out.append("\n  </section>\n  ")
    return mark_safe("".join(out))  # noqa: S308
