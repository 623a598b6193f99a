"""A side's reinforcements of the open SaP time frame (issue 16): what arrives, how it enters,
the RGs to roll (their rolls are on the RG page, 11.618), and the Russian's CG-3.1/3.2/4.1
designations with CG-4.2's south-edge check. Secret to the side and the referee."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST
from django.views.decorators.vary import vary_on_headers

from campaigns import access
from campaigns.access import Viewer
from campaigns.models import Campaign, ReinforcementGroup, SideDay
from campaigns.orbat.rg_status import status_label
from campaigns.state import StaleEdit, StateError
from campaigns.templatetags.gamedata_tags import loc
from refit.reserve import leaders
from refit.walker import arrivals

PAGE = "refit/walker/arrivals.html"


def _context(viewer: Viewer, side: str, posted: dict[str, str] | None = None) -> dict[str, Any]:
    campaign = viewer.campaign
    index = campaign.period_index
    period = campaign.cg.periods[index]
    frame = arrivals.time_frames(campaign).get(period.key) or {}
    entries = {
        group.get("group"): loc(group.get("entry", ""))
        for group in (frame.get("reinforcements") or {}).get(side) or []
    }
    found = arrivals.arrivals_for(campaign, index, side)
    rgs = ReinforcementGroup.objects.filter(
        campaign=campaign, side=side, index=index, source=ReinforcementGroup.Source.TIME_FRAME
    ).order_by("rg_id", "number")
    row = SideDay.objects.get(campaign=campaign, index=index, side=side)
    may, south_rule = arrivals.designation_rules(campaign, index)
    plan = row.arrival_plan or {}
    items = []
    for arrival in found:
        for rg, n in arrival.rgs:
            items.append((rg, f"RG {rg}", n))
        for unit in arrival.units:
            items.append((unit.text, unit.text, unit.count))
    fields = [
        (
            f"turn_two_{n}",
            key,
            label,
            most,
            (posted or {}).get(f"turn_two_{n}", plan.get("turn_two", {}).get(key, 0)),
        )
        for n, (key, label, most) in enumerate(items)
    ]
    return {
        "viewer": viewer,
        "campaign": campaign,
        "side": side,
        "side_name": campaign.side(side).name,
        "period_label": period.label.in_language(get_language()),
        "groups": [(a, entries.get(a.group, "")) for a in found],
        "rgs": [(rg, status_label(rg.status)) for rg in rgs],
        "arrived": arrivals.arrived(campaign, index, side),
        "rg_page": reverse("purchases:page", args=[campaign.pk, side]),
        "may_designate": may and bool(found),
        "south_rule": south_rule,
        "fields": fields,
        "south": (posted or {}).get("south", plan.get("south") if plan else ""),
        "row": row,
        "can_act": viewer.can_act_for_side(side),
        "plan": plan,
        "leaders": leaders.with_serials(campaign, leaders.results(campaign, side)),
        "leader_platoons": leaders.platoons(campaign, side),
        "may_roll_leaders": leaders.may_roll(campaign),
        "to_place": arrivals.to_place(campaign, side),
        "placed": arrivals.placed(campaign, index, side),
        "waits_off_map": arrivals.rules.waits_off_map(
            side, arrivals.special_rules(campaign, index)
        ),
        "needs_plan": may and bool(found) and "turn_two" not in plan,
    }


def _is_sap(campaign: Campaign) -> bool:
    """The arrivals are Slaughter at Ponyri's time frames (404 in any other game)."""
    return campaign.module == arrivals.SAP


def _number(value: str) -> int:
    value = (value or "").strip()
    if not value:
        return 0
    if not value.isdigit():
        raise StateError(_("Write whole numbers, 0 or more."))
    return int(value)


@vary_on_headers("HX-Request")
@require_http_methods(["GET", "HEAD", "POST"])
@login_required
def arrivals_page(request: HttpRequest, campaign_id: int, side: str) -> HttpResponse:
    viewer = access.side_reader(request, campaign_id, side, feature=_is_sap)
    if request.method != "POST":
        return render(request, PAGE, _context(viewer, side))
    viewer = access.side_actor(request, campaign_id, side)
    context = _context(viewer, side)
    posted = {key: str(value) for key, value in request.POST.items()}
    try:
        turn_two = {key: _number(posted.get(name, "")) for name, key, *_r in context["fields"]}
        south_text = posted.get("south", "").strip()
        south = _number(south_text) if south_text else None
        version = _number(posted.get("version", ""))
        arrivals.designate(
            viewer.campaign, side, turn_two=turn_two, south=south, version=version, by=request.user
        )
    except StaleEdit:
        messages.error(request, _("This page is out of date: reload it."))
    except StateError as error:
        messages.error(request, str(error))
        return render(request, PAGE, _context(viewer, side, posted), status=200)
    else:
        messages.success(request, _("Designations recorded."))
    return redirect(reverse("refit:arrivals", args=[campaign_id, side]))


@vary_on_headers("HX-Request")
@require_POST
@login_required
def armor_leaders(request: HttpRequest, campaign_id: int, side: str) -> HttpResponse:
    """CG9 before the CG: one action rolls every platoon's armor leader of the side."""
    viewer = access.side_actor(request, campaign_id, side, feature=_is_sap)
    try:
        made = leaders.roll_all(viewer.campaign, side, by=request.user)
    except StateError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, _("%(n)s armor-leader rolls made.") % {"n": len(made)})
    return redirect(reverse("refit:arrivals", args=[campaign_id, side]) + "#armor-leaders")


@vary_on_headers("HX-Request")
@require_POST
@login_required
def place(request: HttpRequest, campaign_id: int, side: str) -> HttpResponse:
    """One action: the time frame's arriving units into the Retained box, by the designations."""
    viewer = access.side_actor(request, campaign_id, side, feature=_is_sap)
    try:
        done = arrivals.place(viewer.campaign, side, by=request.user)
    except StateError as error:
        messages.error(request, str(error))
    else:
        n = sum(line.quantity for line in done)
        messages.success(request, _("%(n)s units are in the Retained box.") % {"n": n})
    return redirect(reverse("refit:arrivals", args=[campaign_id, side]) + "#placement")
