"""The CG victory page: every member reads how the CG VC stand (public facts only); the
referee (without a referee, any player) enters the Stone Location totals and the CVP table.
With HTMX a save answers with the ``#cg-victory`` partial; without, it redirects."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods
from django.views.decorators.vary import vary_on_headers

from campaigns import access
from campaigns.access import Viewer
from campaigns.records import victory_data
from campaigns.records.cg_victory_page import victory_page
from campaigns.records.end import has_scenario_end
from campaigns.records.victory_forms import CvpTableForm, TotalsForm
from campaigns.state import StateError

TEMPLATE = "campaigns/records/victory.html"


def _render(
    request: HttpRequest,
    viewer: Viewer,
    totals_form: TotalsForm | None = None,
    cvp_form: CvpTableForm | None = None,
) -> HttpResponse:
    page = victory_page(viewer)
    if page["can_edit"]:
        page["totals_form"] = totals_form or TotalsForm(rows=page["totals"])
        page["cvp_form"] = cvp_form or CvpTableForm(rows=page["cvp_values"])
    template = TEMPLATE + "#cg-victory" if request.htmx else TEMPLATE
    return render(request, template, page)


def _saved(request: HttpRequest, viewer: Viewer, count: int) -> HttpResponse:
    if count:
        messages.success(request, _("Saved: %(count)s changed.") % {"count": count})
    else:
        messages.info(request, _("Nothing to save: no value was changed."))
    if request.htmx:
        return _render(request, viewer)
    return redirect("campaigns:cg_victory", campaign_id=viewer.campaign.pk)


@vary_on_headers("HX-Request")
@require_http_methods(["GET", "HEAD", "POST"])
@login_required
def cg_victory(request: HttpRequest, campaign_id: int) -> HttpResponse:
    viewer = access.member(request, campaign_id, feature=has_scenario_end)
    if request.method != "POST":
        return _render(request, viewer)
    access.require(viewer.can_act_for_campaign)
    page = victory_page(viewer)
    form = TotalsForm(request.POST, rows=page["totals"])
    return _save(request, viewer, form, victory_data.save_totals, "totals_form")


@vary_on_headers("HX-Request")
@require_http_methods(["POST"])
@login_required
def cvp_table(request: HttpRequest, campaign_id: int) -> HttpResponse:
    viewer = access.member(request, campaign_id, feature=has_scenario_end)
    access.require(viewer.can_act_for_campaign)
    page = victory_page(viewer)
    form = CvpTableForm(request.POST, rows=page["cvp_values"])
    return _save(request, viewer, form, victory_data.save_cvp_values, "cvp_form")


def _save(
    request: HttpRequest, viewer: Viewer, form: Any, save: Callable[..., int], form_name: str
) -> HttpResponse:
    """Either form of the page: saved through ``save`` (the totals, the CVP table), or shown
    again as ``form_name`` with what is wrong."""
    if not form.is_valid():
        messages.error(request, _("Nothing was saved: correct what is marked below."))
        return _render(request, viewer, **{form_name: form})
    try:
        count = save(
            viewer.campaign, by=request.user, values=form.values(), versions=form.versions()
        )
    except StateError as error:
        messages.error(request, str(error))
        return _render(request, viewer, **{form_name: form})
    return _saved(request, viewer, count)
