"""The sheet PDFs against bare reportlab drawing the same rows with the same font.

Two baselines, both drawing the sheet's rows (built once, outside the timing) cell by cell as
strings on an A4 canvas in the sheet's font, a new page when the page is full — what reportlab
alone costs for the same text:

- "bare draw": that drawing called directly; the sheet's "render" (``render_pdf`` drawing the
  same built sheet) is compared with it, which tells the drawing apart from the building;
- "bare request": the same drawing answered by a bare Django view (``bare_pdf``, logged in,
  through the same middleware as every page); the sheet's whole request (access, queries, the
  sheet's rows, the drawing) is compared with it.

The four are timed alternately, ``runs`` times each, and their medians compared: the wall
clock, then the process's CPU time (``time.process_time``, what to read on a shared machine).
"pages" is the sheet's page count, then the bare drawing's (landscape sheets with a header per
page and wrapped cells against portrait pages of one line per row: a sheet of more pages than
its bare drawing pays for them in the ratio).

The after-action report's PDF is measured the same way (``bench_report``): its bare drawing is
the report's facts and table rows as lines of text, and each of its charts drawn by reportlab's
own ``renderPDF`` from the same laid-out Drawing.
"""

from __future__ import annotations

import gzip
import io
import statistics
import time
from types import SimpleNamespace

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.test import Client
from django.test.client import RequestFactory
from reportlab.graphics import renderPDF
from reportlab.lib.pagesizes import A4
from reportlab.pdfgen.canvas import Canvas

from campaigns import access
from rosters.builders import KINDS, build_sheet
from rosters.pdf import render_pdf, sheet_font
from rosters.report import build_report
from rosters.report import charts as report_charts
from rosters.report.pdf import render_report_pdf

BARE_URL = "/bench-bare-pdf/"
# What the bare view draws: the sheet being measured and its font (set by bench_sheets).
_BARE: dict = {}


def median_ms(samples: list[float]) -> float:
    return statistics.median(samples) * 1000


def bare_reportlab(sheet, font: str, drawings=()) -> bytes:
    """The sheet's rows as lines of text, then ``drawings`` (reportlab Drawings), a page each."""
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=A4)
    width, height = A4
    y = height - 40
    canvas.setFont(font, 8)
    for table in sheet.tables:
        for row in table.rows:
            if y < 40:
                canvas.showPage()
                canvas.setFont(font, 8)
                y = height - 40
            step = (width - 60) / max(1, len(row.cells))
            for n, cell in enumerate(row.cells):
                canvas.drawString(30 + n * step, y, cell[:40])
            y -= 11
    for drawing in drawings:
        canvas.showPage()
        renderPDF.draw(drawing, canvas, 30, height - 40 - drawing.height)
    canvas.save()
    return buffer.getvalue()


@login_required
def bare_pdf(request: HttpRequest) -> HttpResponse:
    """A bare Django view answering bare reportlab's drawing of the measured sheet's rows."""
    return HttpResponse(
        bare_reportlab(_BARE["sheet"], _BARE["font"], _BARE.get("drawings", ())),
        content_type="application/pdf",
    )


def _pages(pdf: bytes) -> int:
    return pdf.count(b"/Type /Page") - pdf.count(b"/Type /Pages")


def _timed(samples: list[float], ask, *args) -> None:
    start, cpu = time.perf_counter(), time.process_time()
    ask(*args)
    samples.append((time.perf_counter() - start, time.process_time() - cpu))


def _medians(samples: list[tuple[float, float]]) -> tuple[float, float]:
    """The median wall clock and CPU time, in ms."""
    return median_ms([s[0] for s in samples]), median_ms([s[1] for s in samples])


def _viewer(world):
    request = RequestFactory().get("/")
    request.user = world.player
    return access.member(request, world.campaign.pk)


def _header() -> None:
    print(
        f"  {'sheet PDF (A4, en)':<34} {'page ms':>8} {'bare rq':>8} {'ratio':>6} "
        f"{'render':>7} {'bare':>6} {'ratio':>6} {'pages':>7} {'KiB':>7}  "
        f"{'CPU: page':>9} {'bare rq':>7} {'ratio':>6} {'render':>6} {'bare':>5} {'ratio':>6}"
    )


def _compare(client: Client, runs: int, label: str, url: str, render, bare_draw) -> None:
    """The PDF at ``url`` and ``render()`` against ``bare_draw()`` called and through a view
    (what ``_BARE`` holds), alternately, and one line of figures."""
    response = client.get(url)
    assert response.status_code == 200, (url, response.status_code)
    assert client.get(BARE_URL).status_code == 200
    page, bare_request, drawn, bare = [], [], [], []
    for _ in range(runs):
        _timed(bare, bare_draw)
        _timed(page, client.get, url)
        _timed(bare_request, client.get, BARE_URL)
        _timed(drawn, render)
    pdf = response.content
    if response.get("Content-Encoding") == "gzip":
        pdf = gzip.decompress(pdf)
    pages = _pages(pdf)
    bare_pages = _pages(bare_draw())
    (page_ms, page_cpu), (bare_rq_ms, bare_rq_cpu) = _medians(page), _medians(bare_request)
    (drawn_ms, drawn_cpu), (bare_ms, bare_cpu) = _medians(drawn), _medians(bare)
    print(
        f"  {label:<34} {page_ms:8.1f} "
        f"{bare_rq_ms:8.1f} {page_ms / bare_rq_ms:5.2f}× "
        f"{drawn_ms:7.1f} {bare_ms:6.1f} {drawn_ms / bare_ms:5.2f}× "
        f"{f'{pages}/{bare_pages}':>7} {len(response.content) / 1024:7.1f}  "
        f"{page_cpu:9.1f} {bare_rq_cpu:7.1f} {page_cpu / bare_rq_cpu:5.2f}× "
        f"{drawn_cpu:6.1f} {bare_cpu:5.1f} {drawn_cpu / bare_cpu:5.2f}×"
    )


def bench_sheets(world, client: Client, runs: int, kinds: list[str] | None = None) -> None:
    """Each sheet PDF of the world's side (``kinds``: those only), measured as above."""
    campaign, side = world.campaign, world.side
    viewer = _viewer(world)
    font = sheet_font()
    _header()
    for kind in KINDS:
        if kind.startswith("blank-") or (kinds and kind not in kinds):
            continue
        url = f"/campaigns/{campaign.pk}/sheets/{side}/{kind}.pdf?lang=en&paper=a4"
        sheet = build_sheet(viewer, side, kind, "en")
        _BARE.update(sheet=sheet, font=font, drawings=())
        rows = sum(len(t.rows) for t in sheet.tables)
        _compare(
            client,
            runs,
            f"{kind} ({rows} rows)",
            url,
            lambda sheet=sheet: render_pdf(sheet, "a4"),
            lambda sheet=sheet: bare_reportlab(sheet, font),
        )


def bench_report(world, client: Client, runs: int) -> None:
    """The after-action report's PDF against bare reportlab drawing its text and its charts."""
    report = build_report(_viewer(world), "en")
    font = sheet_font()
    text = SimpleNamespace(
        tables=[
            SimpleNamespace(
                rows=[SimpleNamespace(cells=(fact.label, fact.value)) for fact in section.facts]
            )
            for section in report.sections
        ]
        + [table for section in report.sections for table in section.tables]
    )
    drawings = [report_charts.laid_out(chart, font) for chart in report.charts()]
    _BARE.update(sheet=text, font=font, drawings=drawings)
    rows = sum(len(t.rows) for t in text.tables)
    _compare(
        client,
        runs,
        f"report ({rows} rows, {len(drawings)} charts)",
        f"/campaigns/{world.campaign.pk}/report/report.pdf?lang=en&paper=a4",
        lambda: render_report_pdf(report, "a4"),
        lambda: bare_reportlab(text, font, drawings),
    )
