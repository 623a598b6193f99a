"""The after-action report: the page (charts inline as SVG) and the PDF.

Access: ``access.member`` (outsiders 404; a game without a report 404); what each member reads
of the campaign is decided by the builder through the same ``Viewer`` (rosters.report.build).
The language (ja/en) and paper (A4/Letter) come from the query string as for the sheets.
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlencode

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils import translation
from django.utils.cache import patch_cache_control
from django.utils.safestring import SafeString, mark_safe
from django.views.decorators.http import require_safe

from campaigns import access
from rosters.pdf import sheet_font
from rosters.report import build_report, has_report
from rosters.report import charts as drawn
from rosters.report.data import Chart, Report, Section
from rosters.report.html import sections_html, table_html
from rosters.report.pdf import render_report_pdf
from rosters.sheets import Table
from rosters.views import LANGUAGE_CHOICES, PAPER_CHOICES, _language, _paper


@dataclass(frozen=True)
class ShownChart:
    chart: Chart
    svg: SafeString  # reportlab's SVG, its text escaped by reportlab


@dataclass(frozen=True)
class ShownTable:
    table: Table
    html: SafeString  # templates/rosters/_sheet_table.html's text (rosters.report.html)


@dataclass(frozen=True)
class ShownSection:
    section: Section
    charts: list[ShownChart]
    tables: list[ShownTable]


def shown_sections(report: Report) -> list[ShownSection]:
    """Each section of the report with its charts' SVG and its tables' HTML."""
    font = sheet_font()
    return [
        ShownSection(
            section,
            [
                ShownChart(chart, mark_safe(drawn.svg(chart, font)))  # noqa: S308
                for chart in section.charts
            ],
            [ShownTable(table, table_html(table)) for table in section.tables],
        )
        for section in report.sections
    ]


# How many of each side's RGs the page lists (the newest; the PDF prints them all): a page that
# stays the same size however long the campaign (issue 18).
PAGE_WINDOW = 50


def _private(response: HttpResponse) -> HttpResponse:
    """The report holds a side's secrets for its players: no shared or disk cache."""
    patch_cache_control(response, private=True, no_store=True)
    return response


@require_safe
@login_required
def page(request: HttpRequest, campaign_id: int) -> HttpResponse:
    viewer = access.member(request, campaign_id, feature=has_report)
    language, paper = _language(request), _paper(request)
    report = build_report(viewer, language, window=PAGE_WINDOW)
    sections = shown_sections(report)
    query = "?" + urlencode({"lang": language, "paper": paper})
    with translation.override(language):
        response = render(
            request,
            "rosters/report/report.html",
            {
                "viewer": viewer,
                "campaign": viewer.campaign,
                "report": report,
                "sections_html": sections_html(sections),
                "language": language,
                "paper": paper,
                "languages": LANGUAGE_CHOICES,
                "papers": PAPER_CHOICES,
                "pdf_url": reverse("report:pdf", args=[campaign_id]) + query,
            },
        )
    return _private(response)


@require_safe
@login_required
def pdf(request: HttpRequest, campaign_id: int) -> HttpResponse:
    viewer = access.member(request, campaign_id, feature=has_report)
    language, paper = _language(request), _paper(request)
    report = build_report(viewer, language)
    content = render_report_pdf(report, paper, base_url=request.build_absolute_uri("/")[:-1])
    response = HttpResponse(content, content_type="application/pdf")
    filename = f"campaign-{campaign_id}-report-{language}-{paper}.pdf"
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    return _private(response)
