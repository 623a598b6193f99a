"""The after-action report as a PDF: the sheets' renderer (rosters.pdf) for its facts and tables,
each chart the same reportlab Drawing the page shows as SVG (rosters.report.charts)."""

from __future__ import annotations

from types import SimpleNamespace
from xml.sax.saxutils import escape

from reportlab.graphics.shapes import Drawing
from reportlab.platypus import Flowable, KeepTogether, Paragraph, Spacer

from rosters.pdf import (
    SheetRenderer,
)
from rosters.report import charts
from rosters.report.data import Report


class ReportRenderer(SheetRenderer):
    def __init__(self, paper: str = "a4", font: str | None = None, base_url: str = "") -> None:
        super().__init__(paper, font)
        self.base_url = base_url  # where the report's links point from a PDF on its own

    def _chart(self, chart, styles) -> Flowable:
        shape: Drawing = charts.drawing(chart, self.font)
        scale = min(1.0, (self.frame_width * 0.75) / shape.width)
        shape.scale(scale, scale)
        shape.width, shape.height = shape.width * scale, shape.height * scale
        shape.hAlign = "LEFT"
        return KeepTogether([self.line(chart.title, styles.heading), shape, Spacer(1, 4)])

    def report_story(self, report: Report) -> list[Flowable]:
        styles = self.styles(report)
        story: list[Flowable] = [
            self.line(report.title, styles.title),
            self.line(
                " · ".join((report.campaign, report.campaign_game, report.shown_sides)),
                styles.subtitle,
            ),
            self.line(report.scope_note, styles.note),
        ]
        for section in report.sections:
            story.append(self.line(section.title, styles.heading))
            if section.facts:
                story.append(self._facts(section.facts, styles))
            for table in section.tables:
                if table.title:
                    story.append(self.line(table.title, styles.heading))
                if table.rows:
                    story.append(self._table(table, styles, False))
                else:
                    story.append(self.line(table.empty_text or "—", styles.cell))
            for chart in section.charts:
                story.append(self._chart(chart, styles))
            for link in section.links:
                href = escape(self.base_url + link.url, {'"': "&quot;"})
                story.append(
                    Paragraph(f'<a href="{href}" color="blue">{escape(link.text)}</a>', styles.note)
                )
            story += [self.line(note, styles.note) for note in section.notes]
        story += [self.line(note, styles.note) for note in report.notes]
        return story

    def render_report(self, report: Report) -> bytes:
        footer_facts = SimpleNamespace(
            campaign=report.campaign,
            side=report.shown_sides,
            date=report.date,
            data_version=report.data_version,
            language=report.language,
        )
        return self.build(
            lambda: self.report_story(report),
            footer_facts,
            title=report.title,
            campaign=report.campaign,
            subject=report.campaign_game,
            language=report.language,
        )


def render_report_pdf(report: Report, paper: str = "a4", base_url: str = "") -> bytes:
    return ReportRenderer(paper, base_url=base_url).render_report(report)
