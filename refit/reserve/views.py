"""SaP's German Armor Reserve page (CG7.21): secret to the German side and the referee.

Thin views: access through campaigns.access, forms parse, refit.reserve.services acts. The page
is one query for the vehicles (its cost does not grow with the campaign); HTMX swaps the
``reserve`` partial, and without JavaScript a POST redirects back to the page.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import get_language, gettext_lazy
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST
from django.views.decorators.vary import vary_on_headers

from campaigns import access
from campaigns.access import Viewer
from campaigns.oid import OpaqueIdField
from campaigns.orbat.forms import LinesField, error_texts
from campaigns.state import StaleEdit, StateError
from refit.models import ArmorReserveVehicle
from refit.reserve import services
from refit.rules import reserve as rules

PAGE = "refit/reserve/page.html"
SIDE = services.SIDE


class ChosenForm(forms.Form):
    vehicles = LinesField(label=gettext_lazy("AFVs"))


class ReturnForm(ChosenForm):
    repair = forms.ChoiceField(
        label=gettext_lazy("Repair state"),
        choices=ArmorReserveVehicle.Repair.choices,
        required=False,
    )


def _viewer(request: HttpRequest, campaign_id: int, *, act: bool) -> Viewer:
    getter = access.side_actor if act else access.side_reader
    viewer = getter(request, campaign_id, SIDE)
    if not services.has_reserve(viewer.campaign):
        raise Http404
    return viewer


def _context(viewer: Viewer) -> dict[str, Any]:
    campaign = viewer.campaign
    vehicles = list(ArmorReserveVehicle.objects.filter(campaign=campaign).order_by("serial"))
    periods = campaign.cg.periods
    tally = rules.counts(services.rule_view(v) for v in vehicles)
    return {
        "viewer": viewer,
        "campaign": campaign,
        "vehicles": vehicles,
        "in_reserve": [v for v in vehicles if v.state == rules.IN_RESERVE],
        "in_play": [v for v in vehicles if v.state == rules.IN_PLAY],
        "tally": [(name, row[rules.IN_RESERVE], row[rules.IN_PLAY]) for name, row in tally.items()],
        "total_reserve": sum(row[rules.IN_RESERVE] for row in tally.values()),
        "period_labels": {n: p.label.in_language(get_language()) for n, p in enumerate(periods)},
        "current": periods[campaign.period_index].label.in_language(get_language()),
        "can_act": viewer.can_act_for_side(SIDE),
        "repairs": ArmorReserveVehicle.Repair.choices,
        "page_url": reverse("reserve:page", args=[campaign.pk]),
        "cg5_lines": services.cg5_lines(campaign),
    }


def _answer(request: HttpRequest, viewer: Viewer) -> HttpResponse:
    if request.htmx:
        return render(request, PAGE + "#reserve", _context(viewer))
    return redirect(reverse("reserve:page", args=[viewer.campaign.pk]))


@vary_on_headers("HX-Request")
@require_http_methods(["GET", "HEAD"])
@login_required
def page(request: HttpRequest, campaign_id: int) -> HttpResponse:
    viewer = _viewer(request, campaign_id, act=False)
    return render(request, PAGE, _context(viewer))


def _act(request: HttpRequest, campaign_id: int, form_class: type[forms.Form], act) -> HttpResponse:
    viewer = _viewer(request, campaign_id, act=True)
    form = form_class(request.POST)
    if not form.is_valid():
        messages.error(request, " ".join(error_texts(form)))
        return _answer(request, viewer)
    try:
        done = act(viewer, form.cleaned_data)
    except StaleEdit:
        messages.error(request, _("This page is out of date: reload it."))
    except StateError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, done)
    return _answer(request, viewer)


@vary_on_headers("HX-Request")
@require_POST
@login_required
def enter(request: HttpRequest, campaign_id: int) -> HttpResponse:
    """Checked AFVs enter play in the open time frame."""

    def act(viewer: Viewer, data: dict[str, Any]) -> str:
        moved = services.enter_play(viewer.campaign, data["vehicles"], by=request.user)
        return _("%(n)s AFVs left the reserve for the OB.") % {"n": len(moved)}

    return _act(request, campaign_id, ChosenForm, act)


@vary_on_headers("HX-Request")
@require_POST
@login_required
def back(request: HttpRequest, campaign_id: int) -> HttpResponse:
    """Checked AFVs, retained off-map, go back into the reserve."""

    def act(viewer: Viewer, data: dict[str, Any]) -> str:
        moved = services.to_reserve(
            viewer.campaign, data["vehicles"], repair=data.get("repair") or "", by=request.user
        )
        return _("%(n)s AFVs are back in the reserve.") % {"n": len(moved)}

    return _act(request, campaign_id, ReturnForm, act)


class JoinForm(forms.Form):
    entry = OpaqueIdField()
    version = forms.IntegerField(min_value=0)
    quantity = forms.IntegerField(label=gettext_lazy("How many"), min_value=1)


@vary_on_headers("HX-Request")
@require_POST
@login_required
def join(request: HttpRequest, campaign_id: int) -> HttpResponse:
    """CG-5.2: some of a 9 July AM AFV line, left off-map, join the reserve."""

    def act(viewer: Viewer, data: dict[str, Any]) -> str:
        entry = next(
            (line for line in services.cg5_lines(viewer.campaign) if line.pk == data["entry"]),
            None,
        )
        if entry is None:
            raise StateError(_("Only the 9 July AM group's AFVs join the reserve (CG-5.2)."))
        made = services.join_from_cg5(
            viewer.campaign,
            entry,
            version=data["version"],
            quantity=data["quantity"],
            by=request.user,
        )
        return _("%(n)s AFVs joined the reserve.") % {"n": len(made)}

    return _act(request, campaign_id, JoinForm, act)
