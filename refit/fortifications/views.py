"""The fortification page of one side: the Fortification Purchase Table to buy from, the
Fortification Purchase Record with the set-up Locations, the FPP box.

Secret to the side and the referee: ``access.side_reader`` to read (404 for the opponent,
observers and outsiders), ``access.side_actor`` to act; the referee alone buys past a limit
(``Viewer.can_overrule``). The page is one ``FortificationSituation`` from
refit.fortifications.situation; changes go through refit.fortifications.services. Every form
carries the id of the Refit Phase it was shown for, so a page left open changes nothing once
the campaign moved on. With HTMX a form answers with the page's ``#fortifications`` partial.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import fields
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, QueryDict
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe
from django.views.decorators.vary import vary_on_headers

from campaigns import access, paging
from campaigns.access import Viewer
from campaigns.models import FortificationPurchase
from refit.fortifications import services as fortifications
from refit.fortifications.forms import (
    FortificationActionForm,
    FortificationForm,
    FortificationLocationForm,
)
from refit.fortifications.situation import fortification_situation
from refit.rules.fortification import FortificationOrder
from refit.walker import services as walker


def _stale() -> str:
    return _("That page was for an earlier Refit Phase; nothing was changed.")


# Lines of the Fortification Purchase Record on one page: the newest first, "all" on request
# (the printed sheet has them all).
RECORD_PAGE_SIZE = 50


def _newest_first(lines: Sequence[Any]) -> Sequence[Any]:
    return lines.newest_first() if isinstance(lines, paging.LazyRows) else lines[::-1]


def _context(viewer: Viewer, side: str, params: QueryDict | None = None) -> dict[str, Any]:
    campaign = viewer.campaign
    situation = fortification_situation(viewer, side)
    page_url = reverse("fortifications:page", args=[campaign.pk, side])
    lines = paging.window(
        _newest_first(situation.record.lines),
        params if params is not None else QueryDict(),
        size=RECORD_PAGE_SIZE,
        path=page_url,
        param="lines",
    )
    context: dict[str, Any] = {
        "viewer": viewer,
        "campaign": campaign,
        "side": campaign.side(side),
        **{field.name: getattr(situation, field.name) for field in fields(situation)},
        "record_url": page_url,
        "lines": list(reversed(lines.rows)),
        "lines_window": lines,
        "rg_page_url": reverse("purchases:page", args=[campaign.pk, side]),
        "sheet_url": reverse("rosters:page", args=[campaign.pk, side, "fortifications"]),
    }
    if situation.reph is not None:
        context["token"] = secrets.token_urlsafe(16)
        context["step_url"] = reverse("refit:step", args=[campaign.pk, side, situation.rule])
    return context


@vary_on_headers("HX-Request")
@require_safe
@login_required
def page(request: HttpRequest, campaign_id: int, side: str) -> HttpResponse:
    viewer = access.side_reader(
        request, campaign_id, side, feature=fortifications.has_fortifications
    )
    # HTMX asks for another page of the record: the page's block only.
    template = "refit/fortifications/page.html" + ("#fortifications" if request.htmx else "")
    return render(request, template, _context(viewer, side, request.GET))


def _after(request: HttpRequest, viewer: Viewer, side: str) -> HttpResponse:
    if request.htmx:
        return render(
            request, "refit/fortifications/page.html#fortifications", _context(viewer, side)
        )
    return redirect(reverse("fortifications:page", args=[viewer.campaign.pk, side]))


def _order(data: dict[str, Any]) -> FortificationOrder:
    pillbox = [data["capacity"], data["ca_drm"], data["nca_drm"]]
    if any(value is not None for value in pillbox):
        pillbox = [value or 0 for value in pillbox]
    return FortificationOrder(
        item=data["item"],
        quantity=data["quantity"],
        size=data["size"],
        factors=data["factors"],
        capacity=pillbox[0],
        ca_drm=pillbox[1],
        nca_drm=pillbox[2],
        unit=data["unit"],
        connected=data["trench"] == "connected",
        replaces_foxhole=data["trench"] == "replaces_3s_foxhole",
        belt=data["belt"],
        detonating_unit=data["detonating_unit"],
        under_construction=data["under_construction"],
        hexes=data["hexes"],
    )


@vary_on_headers("HX-Request")
@require_POST
@login_required
def buy(request: HttpRequest, campaign_id: int, side: str) -> HttpResponse:
    viewer = access.side_actor(
        request, campaign_id, side, feature=fortifications.has_fortifications
    )
    form = FortificationForm(request.POST)
    if not form.is_valid():
        errors = "; ".join(
            f"{form.fields[name].label}: {' '.join(messages_)}" if name in form.fields else ""
            for name, messages_ in form.errors.items()
        )
        messages.error(request, _("Nothing was bought: %(errors)s") % {"errors": errors})
        return _after(request, viewer, side)
    data = form.cleaned_data
    reph = walker.posted_reph(viewer.campaign, data["reph"])
    if reph is None:
        messages.error(request, _stale())
        return _after(request, viewer, side)
    try:
        purchase = fortifications.buy(
            viewer.campaign,
            side,
            reph.index,
            _order(data),
            request.user,
            hexes_confirmed=data["hexes_confirmed"],
            override_reason=data["override_reason"] if viewer.can_overrule else "",
            token=data["token"],
        )
    except fortifications.FortificationError as error:
        messages.error(request, _("Nothing was bought: %(why)s") % {"why": error})
    else:
        messages.success(
            request,
            _("Bought %(quantity)s × %(item)s for %(fpp)s FPP.")
            % {
                "quantity": purchase.quantity,
                "item": fortifications.item_name(viewer.campaign, data["item"]),
                "fpp": purchase.fpp,
            },
        )
    return _after(request, viewer, side)


def _side_purchase(viewer: Viewer, side: str, pk: int) -> FortificationPurchase:
    return get_object_or_404(FortificationPurchase, pk=pk, campaign=viewer.campaign, side=side)


@vary_on_headers("HX-Request")
@require_POST
@login_required
def remove(request: HttpRequest, campaign_id: int, side: str, purchase_pk: int) -> HttpResponse:
    viewer = access.side_actor(
        request, campaign_id, side, feature=fortifications.has_fortifications
    )
    purchase = _side_purchase(viewer, side, purchase_pk)
    form = FortificationActionForm(request.POST)
    if (
        not form.is_valid()
        or walker.posted_reph(viewer.campaign, form.cleaned_data["reph"]) is None
    ):
        messages.error(request, _stale())
        return _after(request, viewer, side)
    try:
        fortifications.remove(viewer.campaign, purchase, request.user)
    except fortifications.FortificationError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, _("Took back the purchase; its FPP are back."))
    return _after(request, viewer, side)


@vary_on_headers("HX-Request")
@require_POST
@login_required
def location(request: HttpRequest, campaign_id: int, side: str, purchase_pk: int) -> HttpResponse:
    viewer = access.side_actor(
        request, campaign_id, side, feature=fortifications.has_fortifications
    )
    purchase = _side_purchase(viewer, side, purchase_pk)
    form = FortificationLocationForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Nothing was saved: the form was incomplete."))
        return _after(request, viewer, side)
    data = form.cleaned_data
    try:
        fortifications.set_location(
            viewer.campaign,
            purchase,
            data["version"],
            data["location"],
            request.user,
            lost=data["lost"],
        )
    except fortifications.FortificationError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, _("Saved."))
    return _after(request, viewer, side)
