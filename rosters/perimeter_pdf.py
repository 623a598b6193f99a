"""The reduced map of 11.6066 on paper: both perimeters in their colours (first side blue,
second side red, as in the rules' example), No Man's Land shaded, isolated areas lettered A–D,
non-ground pockets as circled level numbers. One page, scaled to fit; A4 portrait."""

from __future__ import annotations

import io
from typing import Any

from django.utils.translation import get_language
from django.utils.translation import gettext as _
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from refit.perimeters.drawing import SIZE, picture
from rosters.pdf import sheet_font

COLOURS = (colors.HexColor("#1f4fbf"), colors.HexColor("#c02020"))
FILLS = {
    "nml": colors.HexColor("#e6e6e6"),
    "isolated": colors.HexColor("#fde9a9"),
    "water": colors.HexColor("#9cc9ef"),
}


def render_pdf(campaign: Any, state: Any, computation: Any) -> bytes:
    from refit.perimeters import state as perimeter

    font = sheet_font()
    hexmap, result = computation.hexmap, computation.result
    drawing = picture(hexmap, result, perimeter.markers(state, hexmap), set())
    sides = list(perimeter.sides(campaign))
    page_width, page_height = A4
    margin = 12 * mm
    title_space = 14 * mm
    scale = min(
        (page_width - 2 * margin) / drawing.width,
        (page_height - 2 * margin - title_space) / drawing.height,
    )
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=A4, pageCompression=1)
    language = get_language()
    canvas.setTitle(f"{campaign.name} — {_('Perimeters')}")
    canvas.setFont(font, 11)
    day = campaign.cg.periods[min(state.index, len(campaign.cg.periods) - 1)].label
    code = campaign.cg.shown_code.in_language(language)
    canvas.drawString(
        margin,
        page_height - margin - 4 * mm,
        f"{campaign.name} · {code} · {day.in_language(language)} · {_('Perimeters')} (11.6066)",
    )
    canvas.setFont(font, 8)
    legend = " · ".join(
        f"{campaign.side(side).name.in_language(language)}: {name}"
        for side, name in zip(sides, (_("blue"), _("red")), strict=True)
    )
    canvas.drawString(margin, page_height - margin - 9 * mm, legend)

    top = page_height - margin - title_space

    def xy(x: float, y: float) -> tuple[float, float]:
        return (margin + x * scale, top - y * scale)

    canvas.setLineWidth(0.2)
    for cell in drawing.hexes:
        fill = FILLS.get(cell.status)
        path = canvas.beginPath()
        first = xy(*cell.corners[0])
        path.moveTo(*first)
        for corner in cell.corners[1:]:
            path.lineTo(*xy(*corner))
        path.close()
        canvas.setStrokeColor(colors.HexColor("#c8c8c8"))
        if fill is not None:
            canvas.setFillColor(fill)
        canvas.drawPath(path, stroke=1, fill=1 if fill is not None else 0)
    canvas.setLineWidth(max(0.8, SIZE * scale * 0.18))
    for line in drawing.borders:
        canvas.setStrokeColor(COLOURS[sides.index(line.side)])
        canvas.line(*xy(line.x1, line.y1), *xy(line.x2, line.y2))
    canvas.setFillColor(colors.HexColor("#7a5b00"))
    canvas.setFont(font, max(5, SIZE * scale * 0.9))
    for label in drawing.areas:
        x, y = xy(label.x, label.y)
        canvas.drawCentredString(x, y - SIZE * scale * 0.3, label.text)
    canvas.setFont(font, max(3, SIZE * scale * 0.45))
    canvas.setLineWidth(0.3)
    for label in drawing.pockets:
        x, y = xy(label.x, label.y)
        canvas.setStrokeColor(COLOURS[sides.index(label.side)])
        canvas.setFillColor(COLOURS[sides.index(label.side)])
        canvas.circle(x, y, SIZE * scale * 0.3, stroke=1, fill=0)
        canvas.drawCentredString(x, y - SIZE * scale * 0.15, label.text)
    canvas.showPage()
    canvas.save()
    return buffer.getvalue()
