"""The after-action report as a PDF: the sheets' renderer (rosters.pdf) for its facts and tables,
each chart the same reportlab Drawing the page shows as SVG (rosters.report.charts)."""

from __future__ import annotations

from types import SimpleNamespace
from xml.sax.saxutils import escape

from reportlab.graphics.shapes import Drawing, Group, Line, PolyLine, Rect, String
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus import Flowable, KeepTogether, Paragraph, Spacer

from rosters.pdf import (
    SheetRenderer,
)
from rosters.report import charts
from rosters.report.data import Report


class ChartFlowable(Flowable):
    """A chart's Drawing (``charts.laid_out``, shared) drawn straight onto the canvas, scaled:
    what reportlab's ``renderPDF`` draws of the shapes the charts use (lines, poly-lines,
    rectangles, strings, a transformed group), without its per-shape state machinery (a saved
    and restored graphics state, a state delta and a dispatch per shape: ~20 % of the report's
    PDF) and without marking the shared shapes as it draws them. The same pixels
    (tests/rosters/report/test_charts.py compares both renderings)."""

    def __init__(self, shape: Drawing, scale: float) -> None:
        super().__init__()
        self.shape, self.scale = shape, scale
        self.width, self.height = shape.width * scale, shape.height * scale
        self.hAlign = "LEFT"

    def wrap(self, available_width, available_height):
        return self.width, self.height

    def draw(self) -> None:
        canvas = self.canv
        canvas.saveState()
        canvas.scale(self.scale, self.scale)
        canvas.setLineCap(0)
        canvas.setLineJoin(0)
        canvas.setMiterLimit(10)
        _draw_shapes(canvas, self.shape.contents)
        canvas.restoreState()


def _stroke(canvas, node) -> bool:
    if node.strokeColor is None:
        return False
    canvas.setStrokeColor(node.strokeColor)
    canvas.setLineWidth(node.strokeWidth)
    if node.strokeDashArray:
        canvas.setDash(node.strokeDashArray, 0)
    else:
        canvas.setDash()
    return True


def _draw_shapes(canvas, shapes) -> None:
    for node in shapes:
        kind = type(node)
        if kind is Line:
            if _stroke(canvas, node):
                canvas.line(node.x1, node.y1, node.x2, node.y2)
        elif kind is String:
            if node.fillColor is None:
                continue
            canvas.setFillColor(node.fillColor)
            canvas.setFont(node.fontName, node.fontSize)
            x, anchor = node.x, node.textAnchor
            if anchor not in ("start", "inherited"):
                width = stringWidth(node.text, node.fontName, node.fontSize, node.encoding)
                x -= width if anchor == "end" else width * 0.5
            canvas.drawString(x, node.y, node.text)
        elif kind is Rect:
            fill = node.fillColor is not None
            if fill:
                canvas.setFillColor(node.fillColor)
            stroke = _stroke(canvas, node)
            canvas.rect(node.x, node.y, node.width, node.height, stroke=int(stroke), fill=int(fill))
        elif kind is PolyLine:
            if _stroke(canvas, node):
                points = node.points
                path = canvas.beginPath()
                path.moveTo(points[0], points[1])
                for at in range(2, len(points), 2):
                    path.lineTo(points[at], points[at + 1])
                canvas.drawPath(path)
        elif kind is Group:
            canvas.saveState()
            canvas.transform(*node.transform)
            _draw_shapes(canvas, node.contents)
            canvas.restoreState()
        else:
            raise TypeError(f"a chart draws no {kind.__name__}")


class ReportRenderer(SheetRenderer):
    def __init__(self, paper: str = "a4", font: str | None = None, base_url: str = "") -> None:
        super().__init__(paper, font)
        self.base_url = base_url  # where the report's links point from a PDF on its own

    def _chart(self, chart, styles) -> Flowable:
        shape: Drawing = charts.laid_out(chart, self.font)
        scale = min(1.0, (self.frame_width * 0.75) / shape.width)
        return KeepTogether(
            [self.line(chart.title, styles.heading), ChartFlowable(shape, scale), Spacer(1, 4)]
        )

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
