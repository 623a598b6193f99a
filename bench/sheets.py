"""The sheet PDFs against bare reportlab drawing the same rows with the same font.

The baseline takes the sheet's rows (built once, outside the timing) and draws each cell as a
string on an A4 canvas in the sheet's font, a new page when the page is full: what reportlab alone
costs for the same text. The page's time includes everything the view does (access, queries, the
sheet's rows, the layout of tables with wrapped cells); "render" is the renderer alone drawing the
same built sheet (``render_pdf``), so that the two ratios tell the drawing from the building.
"""

from __future__ import annotations

import gzip
import io
import statistics
import time

from django.test import Client
from django.test.client import RequestFactory
from reportlab.lib.pagesizes import A4
from reportlab.pdfgen.canvas import Canvas

from campaigns import access
from rosters.builders import KINDS, build_sheet
from rosters.pdf import render_pdf, sheet_font


def median_ms(samples: list[float]) -> float:
    return statistics.median(samples) * 1000


def bare_reportlab(sheet, font: str) -> bytes:
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
    canvas.save()
    return buffer.getvalue()


def bench_sheets(world, client: Client, runs: int) -> None:
    campaign, side = world.campaign, world.side
    request = RequestFactory().get("/")
    request.user = world.player
    viewer = access.member(request, campaign.pk)
    font = sheet_font()
    print(
        f"  {'sheet PDF (A4, en)':<34} {'ms':>8} {'bare':>6} {'ratio':>7} "
        f"{'render':>7} {'ratio':>7} {'pages':>7} {'KiB':>8}"
    )
    for kind in KINDS:
        if kind.startswith("blank-"):
            continue
        url = f"/campaigns/{campaign.pk}/sheets/{side}/{kind}.pdf?lang=en&paper=a4"
        sheet = build_sheet(viewer, side, kind, "en")
        response = client.get(url)
        assert response.status_code == 200, (url, response.status_code)
        page, base, drawn = [], [], []
        for _ in range(runs):
            start = time.perf_counter()
            bare_reportlab(sheet, font)
            base.append(time.perf_counter() - start)
            start = time.perf_counter()
            client.get(url)
            page.append(time.perf_counter() - start)
            start = time.perf_counter()
            render_pdf(sheet, "a4")
            drawn.append(time.perf_counter() - start)
        rows = sum(len(t.rows) for t in sheet.tables)
        pdf = response.content
        if response.get("Content-Encoding") == "gzip":
            pdf = gzip.decompress(pdf)
        pages = pdf.count(b"/Type /Page") - pdf.count(b"/Type /Pages")
        print(
            f"  {kind + ' (' + str(rows) + ' rows)':<34} {median_ms(page):8.1f} "
            f"{median_ms(base):6.1f} {median_ms(page) / median_ms(base):6.1f}× "
            f"{median_ms(drawn):7.1f} {median_ms(drawn) / median_ms(base):6.2f}× "
            f"{pages:7d} "
            f"{len(response.content) / 1024:8.1f}"
        )
