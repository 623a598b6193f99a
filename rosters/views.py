"""The Sheets page and each sheet as a PDF or a printable page.

Access: ``access.member`` first (outsiders 404), then rosters.builders decides per sheet with
``Viewer.can_see_side`` — a side's secret sheets for its players and the referee, blank forms
for every member; anything else is a 404, exactly like a sheet that does not exist. The
language (ja/en) and paper (A4/Letter) come from the query string; an unknown value is a 404
rather than a silent substitute.
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlencode

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils import translation
from django.utils.cache import patch_cache_control
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_safe

from campaigns import access
from campaigns.games.registry import Side
from refit.models import PerimeterState
from refit.perimeters import state as perimeter
from rosters.builders import LANGUAGES, SheetKind, build_sheet, has_sheets, kinds_for
from rosters.pdf import PAPERS, render_pdf
from rosters.perimeter_pdf import render_pdf as render_perimeter_pdf

PAPER_CHOICES = (("a4", _("A4")), ("letter", _("Letter")))
LANGUAGE_CHOICES = (("ja", "日本語"), ("en", "English"))


def _choice(request: HttpRequest, name: str, allowed: tuple[str, ...], default: str) -> str:
    value = request.GET.get(name) or default
    if value not in allowed:
        raise Http404
    return value


def _language(request: HttpRequest) -> str:
    default = "ja" if (translation.get_language() or "en").startswith("ja") else "en"
    return _choice(request, "lang", LANGUAGES, default)


def _paper(request: HttpRequest) -> str:
    return _choice(request, "paper", tuple(PAPERS), "a4")


@dataclass(frozen=True)
class SheetLink:
    kind: SheetKind
    pdf: str
    page: str


@dataclass(frozen=True)
class SideSheets:
    side: Side
    secret: list[SheetLink]
    blank: list[SheetLink]


@require_safe
@login_required
def sheets(request: HttpRequest, campaign_id: int) -> HttpResponse:
    viewer = access.member(request, campaign_id)
    language, paper = _language(request), _paper(request)
    query = "?" + urlencode({"lang": language, "paper": paper})
    sides = []
    for side in viewer.campaign.sides:
        links = [
            SheetLink(
                kind,
                reverse("rosters:pdf", args=[campaign_id, side.key, kind.slug]) + query,
                reverse("rosters:page", args=[campaign_id, side.key, kind.slug]) + query,
            )
            for kind in kinds_for(viewer, side.key)
        ]
        if links:
            sides.append(
                SideSheets(
                    side,
                    [link for link in links if link.kind.secret],
                    [link for link in links if not link.kind.secret],
                )
            )
    return render(
        request,
        "rosters/sheets.html",
        {
            "viewer": viewer,
            "campaign": viewer.campaign,
            "has_sheets": has_sheets(viewer.campaign),
            "blank_forms_only": not viewer.visible_sides(),
            "sides": sides,
            "language": language,
            "paper": paper,
            "languages": LANGUAGE_CHOICES,
            "papers": PAPER_CHOICES,
        },
    )


def _private(response: HttpResponse) -> HttpResponse:
    """A side's sheet must not be kept by a shared cache or the browser's disk cache."""
    patch_cache_control(response, private=True, no_store=True)
    return response


@require_safe
@login_required
def sheet_pdf(request: HttpRequest, campaign_id: int, side: str, kind: str) -> HttpResponse:
    viewer = access.member(request, campaign_id)
    language, paper = _language(request), _paper(request)
    sheet = build_sheet(viewer, side, kind, language)
    response = HttpResponse(render_pdf(sheet, paper), content_type="application/pdf")
    filename = f"campaign-{campaign_id}-{side}-{kind}-{language}-{paper}.pdf"
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    return _private(response)


@require_safe
@login_required
def sheet_page(request: HttpRequest, campaign_id: int, side: str, kind: str) -> HttpResponse:
    viewer = access.member(request, campaign_id)
    language, paper = _language(request), _paper(request)
    sheet = build_sheet(viewer, side, kind, language)
    query = "?" + urlencode({"lang": language, "paper": paper})
    with translation.override(language):
        response = render(
            request,
            "rosters/sheet.html",
            {
                "viewer": viewer,
                "campaign": viewer.campaign,
                "sheet": sheet,
                "paper_size": "A4" if paper == "a4" else "letter",
                "pdf_url": reverse("rosters:pdf", args=[campaign_id, side, kind]) + query,
                "index_url": reverse("rosters:index", args=[campaign_id]) + query,
            },
        )
    return _private(response)


@require_safe
@login_required
def perimeter_map(request: HttpRequest, campaign_id: int) -> HttpResponse:
    """The reduced map as the public sees it (declared units only): both perimeters; the open
    Refit Phase's, a CG day's (``?day=``) or a recorded one (``?perimeter=``, an oid)."""
    viewer = access.member(request, campaign_id, feature=perimeter.has_perimeters)
    day = request.GET.get("day")
    token = request.GET.get("perimeter")
    if token is not None:
        # A recorded perimeter the perimeter page's history chose (after the CG's end).
        state = perimeter.past_state(viewer.campaign, token) if token else None
    elif day is not None:
        # A CG day's perimeter (the after-action report links each): its last one.
        if not day.isdigit():
            raise Http404
        state = (
            PerimeterState.objects.filter(campaign=viewer.campaign, index=int(day))
            .order_by("-id")
            .first()
        )
    else:
        # The open Refit Phase's perimeter, else the last one recorded; reading never starts one.
        state = perimeter.shown_state(viewer.campaign)
    if state is None:
        raise Http404
    computation = perimeter.compute(
        None, state, perimeter.terrain_of(viewer.campaign), perimeter.unit_rows(state)
    )
    content = render_perimeter_pdf(viewer.campaign, state, computation)
    response = HttpResponse(content, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="perimeter-{state.index + 1}.pdf"'
    return response
