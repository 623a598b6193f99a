"""The report's charts: one reportlab drawing, as inline SVG for the page and in the PDF."""

import shutil

import pytest

from rosters.pdf import sheet_font
from rosters.report import charts
from rosters.report.data import BARS, LINE, Chart, Series


def chart(slug="cpp", kind=LINE, values=(1.0, None, 7.0)):
    return Chart(
        slug=slug,
        title="CPP <available>",
        kind=kind,
        labels=("17 Oct", "18 Oct", "19 Oct"),
        series=(Series("German & co", tuple(values)), Series("spent", (0.0, 1.0, 2.0), True)),
    )


@pytest.mark.parametrize(("value", "top"), [(0, 1), (7, 10), (23, 50), (1.5, 2), (100, 100)])
def test_the_axis_top_is_a_round_number(value, top):
    assert charts.nice_top(value) == top


def test_a_series_needs_one_value_per_label():
    with pytest.raises(ValueError):
        Chart("x", "x", LINE, ("a", "b"), (Series("s", (1.0,)),))


def test_the_svg_scales_has_unique_ids_and_escapes_its_text():
    svg = charts.svg(chart(), sheet_font())
    assert svg.startswith("<svg ") and "<?xml" not in svg and "DOCTYPE" not in svg
    opening = svg.split(">", 1)[0]
    assert 'viewBox="0 0 520 250"' in opening and " width=" not in opening
    assert "fill: None" not in svg
    assert 'id="chart-cpp-clip"' in svg and "url(#chart-cpp-clip)" in svg
    assert 'role="img"' in svg and 'aria-labelledby="chart-cpp-title"' in svg
    assert "German &amp; co" in svg and "German & co" not in svg
    other = charts.svg(chart(slug="cvp"), sheet_font())
    assert 'id="chart-cvp-clip"' in other


def test_bars_draw_a_rectangle_per_value_and_the_expected_as_a_dashed_line():
    shape = charts.drawing(chart(kind=BARS, values=(3.0, 0.0, 5.0)), sheet_font())
    svg = charts.svg(chart(kind=BARS, values=(3.0, 0.0, 5.0)), sheet_font())
    assert shape.width == charts.WIDTH
    assert svg.count("stroke-dasharray") >= 2  # the legend's and the line's


def test_a_small_count_is_ticked_in_whole_numbers():
    # Counts up to 2: the axis reads 0, 1, 2, not 0.4, 0.8, … (QA found fractional ticks).
    shape = charts.drawing(chart(kind=BARS, values=(1.0, 0.0, 0.0)), sheet_font())
    labels = {
        item.text
        for item in shape.contents
        if getattr(item, "textAnchor", "") == "end" and hasattr(item, "text")
    }
    assert labels == {"0", "1", "2"}


def test_the_axis_label_stands_along_the_axis_inside_the_drawing():
    chart = Chart("c", "t", BARS, ["1", "2"], [Series("German", [1, 2])], y_label="points")
    shape = charts.drawing(chart, sheet_font("en"))
    x0, y0, x1, y1 = shape.getBounds()
    assert x0 >= 0 and y0 >= 0  # a word written across, centred at x=10, ran off the left edge
    (along,) = [item for item in shape.contents if getattr(item, "transform", None)]
    assert along.transform[:4] == pytest.approx((0, 1, -1, 0))  # turned a quarter, read upwards


# --- the PDF draws the shared drawing straight onto the canvas (rosters.report.pdf) ----------


def _pdf_pixels(tmp_path, name, draw) -> bytes:
    import subprocess
    from io import BytesIO

    from reportlab.pdfgen.canvas import Canvas

    out = BytesIO()
    canvas = Canvas(out, pagesize=(600, 300), invariant=1)
    draw(canvas)
    canvas.showPage()
    canvas.save()
    path = tmp_path / f"{name}.pdf"
    path.write_bytes(out.getvalue())
    subprocess.run(["pdftoppm", "-r", "96", "-png", str(path), str(tmp_path / name)], check=True)
    (image,) = tmp_path.glob(f"{name}-*.png")
    return image.read_bytes()


LAID_OUT = [
    chart(),  # a gap, a dashed series
    chart("bars", BARS, (3.0, 0.0, 12.0)),  # bars beside a dashed line
    Chart(  # a single value (a mark), many labels, the y label turned along the axis
        "mark",
        "Perimeter",
        LINE,
        tuple(str(n) for n in range(30)),
        (Series("German", (None,) * 12 + (5.0,) + (None,) * 17),),
        y_label="hexes",
    ),
]


@pytest.mark.parametrize("laid_out", LAID_OUT, ids=lambda c: c.slug)
@pytest.mark.parametrize("scale", [1.0, 0.8])
@pytest.mark.parametrize("language", ["en", "ja"])
def test_the_pdf_draws_a_chart_as_reportlabs_renderer_does(tmp_path, laid_out, scale, language):
    from reportlab.graphics import renderPDF

    from rosters.report.pdf import ChartFlowable

    if shutil.which("pdftoppm") is None:
        pytest.skip("pdftoppm (poppler-utils) is not installed")
    font = sheet_font(language)

    def by_reportlab(canvas):
        shape = charts.drawing(laid_out, font)
        shape.scale(scale, scale)
        shape.width, shape.height = shape.width * scale, shape.height * scale
        renderPDF.draw(shape, canvas, 20, 30)

    def straight(canvas):
        flowable = ChartFlowable(charts.laid_out(laid_out, font), scale)
        flowable.wrapOn(canvas, 600, 300)
        flowable.drawOn(canvas, 20, 30)

    expected = _pdf_pixels(tmp_path, "reportlab", by_reportlab)
    assert _pdf_pixels(tmp_path, "straight", straight) == expected
    assert _pdf_pixels(tmp_path, "empty", lambda canvas: None) != expected  # it drew something


def test_the_shared_drawing_is_laid_out_once_and_not_marked_by_drawing_it(tmp_path):
    from io import BytesIO

    from reportlab.pdfgen.canvas import Canvas

    from rosters.report.pdf import ChartFlowable

    font = sheet_font("en")
    shape = charts.laid_out(chart(), font)
    assert charts.laid_out(chart(), font) is shape
    before = [dict(node.__dict__) for node in shape.contents]
    canvas = Canvas(BytesIO())
    ChartFlowable(shape, 0.5).drawOn(canvas, 0, 0)
    assert [dict(node.__dict__) for node in shape.contents] == before
    assert (shape.width, shape.height) == (charts.WIDTH, charts.HEIGHT)
