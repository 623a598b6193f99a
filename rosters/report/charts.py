"""The report's charts drawn with reportlab.graphics: one Drawing per chart, which the PDF
places as it is and the page shows as inline SVG (no JavaScript, nothing from elsewhere).

``drawing(chart, font)`` lays a chart out: a y axis with round gridlines, the x labels (every
few when there are many), lines (a gap where a value is None) or grouped bars, a dashed line
for a series marked ``dashed`` (the fair dice's expected counts), and a legend above.
``svg(chart, font)`` is the same drawing as an ``<svg>`` element for a page: ids made unique
from the chart's slug, the fixed size replaced by a viewBox that scales to the column.
"""

from __future__ import annotations

import functools
import math
import re

from reportlab.graphics import renderSVG
from reportlab.graphics.shapes import Drawing, Group, Line, PolyLine, Rect, String
from reportlab.lib import colors
from reportlab.pdfbase.pdfmetrics import stringWidth

from rosters.report.data import BARS, Chart

WIDTH, HEIGHT = 520, 250
LEFT, RIGHT, BOTTOM, TOP = 44, 12, 42, 12
FONT_SIZE = 9
LEGEND_ROW = 12
MAX_LABELS = 12

PALETTE = (
    colors.Color(0.16, 0.35, 0.62),
    colors.Color(0.75, 0.22, 0.17),
    colors.Color(0.20, 0.55, 0.30),
    colors.Color(0.55, 0.35, 0.65),
    colors.Color(0.80, 0.50, 0.10),
    colors.Color(0.35, 0.35, 0.35),
)
GRID = colors.Color(0.85, 0.85, 0.85)
AXIS = colors.Color(0.25, 0.25, 0.25)


def nice_top(value: float) -> float:
    """The smallest 1, 2 or 5 × 10ⁿ at least ``value`` (an axis's top; 1 for nothing)."""
    if value <= 0:
        return 1.0
    power = 10 ** math.floor(math.log10(value))
    for step in (1, 2, 5, 10):
        if value <= step * power:
            return float(step * power)
    return float(10 * power)


def _color(position: int, chart: Chart) -> colors.Color:
    """Each side keeps one colour for its pair of series (available / spent) in the CPP chart;
    elsewhere each series its own."""
    solid = [series for series in chart.series if not series.dashed]
    if chart.kind != BARS and len(solid) * 2 == len(chart.series):
        position //= 2
    return PALETTE[position % len(PALETTE)]


def _legend(drawing: Drawing, chart: Chart, font: str) -> float:
    """The legend along the top, wrapped; returns its height."""
    x, rows = LEFT, 1
    for position, series in enumerate(chart.series):
        width = 18 + stringWidth(series.name, font, FONT_SIZE) + 12
        if x + width > WIDTH - RIGHT and x > LEFT:
            x, rows = LEFT, rows + 1
        y = HEIGHT - TOP - rows * LEGEND_ROW + 3
        line = Line(x, y + 2.5, x + 14, y + 2.5, strokeColor=_color(position, chart), strokeWidth=2)
        if series.dashed:
            line.strokeDashArray = [3, 2]
        drawing.add(line)
        drawing.add(String(x + 18, y, series.name, fontName=font, fontSize=FONT_SIZE))
        x += width
    return rows * LEGEND_ROW + 4


def drawing(chart: Chart, font: str) -> Drawing:
    """The chart laid out as a reportlab Drawing of its own (to scale, to draw)."""
    return _lay_out(chart, font)


def laid_out(chart: Chart, font: str) -> Drawing:
    """The chart laid out, once per process for the same chart (``_drawing``), as ``_svg``:
    reportlab checks every attribute of every shape as it is set (~1.5 ms for the report's four
    charts). Shared: only read, never drawn by reportlab's renderers (which mark the shapes
    they draw) — the PDF draws it with ``rosters.report.pdf.ChartFlowable``. A chart of lists
    (not hashable) is laid out anew."""
    try:
        return _drawing(chart, font)
    except TypeError:  # unhashable: lists where the builders give tuples
        return _lay_out(chart, font)


def _lay_out(chart: Chart, font: str) -> Drawing:
    shape = Drawing(WIDTH, HEIGHT)
    legend = _legend(shape, chart, font)
    plot_top = HEIGHT - TOP - legend
    plot_height = plot_top - BOTTOM
    plot_width = WIDTH - LEFT - RIGHT
    values = [value for series in chart.series for value in series.values if value is not None]
    top = nice_top(max(values, default=0))
    # A small count is ticked in whole numbers (one roll is not 0.2, 0.4, …).
    small_count = 1 <= top < 5 and top == int(top)
    ticks = int(top) if small_count else (5 if top % 5 == 0 or top < 5 else 4)
    for tick in range(ticks + 1):
        value = top * tick / ticks
        y = BOTTOM + plot_height * tick / ticks
        shape.add(Line(LEFT, y, LEFT + plot_width, y, strokeColor=GRID, strokeWidth=0.5))
        text = f"{value:g}" if value == int(value) else f"{value:.1f}"
        shape.add(
            String(LEFT - 4, y - 2.5, text, fontName=font, fontSize=FONT_SIZE, textAnchor="end")
        )
    shape.add(Line(LEFT, BOTTOM, LEFT, plot_top, strokeColor=AXIS, strokeWidth=0.8))
    shape.add(Line(LEFT, BOTTOM, LEFT + plot_width, BOTTOM, strokeColor=AXIS, strokeWidth=0.8))
    if chart.y_label:
        # Along the axis, read bottom to top: a word written across would run off the left edge.
        label = String(0, 0, chart.y_label, fontName=font)
        label.fontSize, label.textAnchor = FONT_SIZE, "middle"
        along = Group(label)
        along.translate(12, BOTTOM + plot_height / 2)
        along.rotate(90)
        shape.add(along)
    count = max(len(chart.labels), 1)
    slot = plot_width / count
    stride = max(1, math.ceil(count / MAX_LABELS))
    for position, text in enumerate(chart.labels):
        if position % stride:
            continue
        x = LEFT + slot * (position + 0.5)
        shape.add(Line(x, BOTTOM, x, BOTTOM - 3, strokeColor=AXIS, strokeWidth=0.5))
        shape.add(
            String(x, BOTTOM - 12, text, fontName=font, fontSize=FONT_SIZE, textAnchor="middle")
        )

    def y_of(value: float) -> float:
        return BOTTOM + plot_height * value / top

    bars = [series for series in chart.series if chart.kind == BARS and not series.dashed]
    width = slot * 0.8 / max(len(bars), 1)
    bar = 0
    for position, series in enumerate(chart.series):
        color = _color(position, chart)
        if chart.kind == BARS and not series.dashed:
            for at, value in enumerate(series.values):
                if value:
                    x = LEFT + slot * at + slot * 0.1 + width * bar
                    shape.add(
                        Rect(
                            x,
                            BOTTOM,
                            width,
                            y_of(value) - BOTTOM,
                            fillColor=color,
                            strokeColor=None,
                        )
                    )
            bar += 1
            continue
        run: list[float] = []
        for at, value in enumerate([*series.values, None]):
            if value is None:
                if len(run) >= 4:
                    line = PolyLine(run, strokeColor=color, strokeWidth=1.6, fillColor=None)
                    if series.dashed:
                        line.strokeDashArray = [4, 2]
                    shape.add(line)
                elif len(run) == 2:  # a single value: a mark
                    shape.add(Rect(run[0] - 2, run[1] - 2, 4, 4, fillColor=color, strokeColor=None))
                run = []
                continue
            run += [LEFT + slot * (at + 0.5), y_of(value)]
    return shape


_drawing = functools.lru_cache(maxsize=64)(_lay_out)

_HEAD = re.compile(r"^.*?<svg ", re.S)


def svg(chart: Chart, font: str) -> str:
    """The chart as an inline ``<svg>``: labelled by its title, ids unique on the page, scaled
    by the page's CSS (``svg.chart``).

    Drawn once per process for the same chart (``_svg``): reportlab's SVG renderer builds an
    XML DOM, ~3 ms a chart. The text is a function of the chart's own value (its slug, words and
    numbers: a frozen dataclass) and the font alone, so a chart kept is only ever given for an
    equal chart — never stale, and nothing another viewer's page did not already hold."""
    return _svg(chart, font)


@functools.lru_cache(maxsize=64)
def _svg(chart: Chart, font: str) -> str:
    # A Drawing of its own: reportlab's renderers mark the shapes they draw (``_canvas``,
    # ``_parent``) while they draw them, which a drawing shared between threads must not be.
    text = renderSVG.drawToString(_lay_out(chart, font))
    text = _HEAD.sub("<svg ", text, count=1)
    text = re.sub(r'\swidth="[\d.]+" height="[\d.]+"', "", text, count=1)
    prefix = f"chart-{chart.slug}"
    text = text.replace('id="clip"', f'id="{prefix}-clip"').replace(
        "url(#clip)", f"url(#{prefix}-clip)"
    )
    text = text.replace('id="group"', f'id="{prefix}-group"')
    text = re.sub(r"<title>.*?</title>\s*<desc>.*?</desc>", "", text, count=1, flags=re.S)
    text = text.replace(
        "<svg ",
        f'<svg class="chart" role="img" aria-labelledby="{prefix}-title" ',
        1,
    )
    text = re.sub(r"font-family: [^;]+;", "font-family: sans-serif;", text)
    # reportlab writes an unfilled line as "fill: None", which CSS ignores (filling it black).
    return text.replace("fill: None;", "fill: none;")
