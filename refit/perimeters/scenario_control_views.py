"""The scenario end's control record page (refit.perimeters.scenario_control): every member
sees it (perimeters are public); players and the referee record (``access.recorder``). A hex
click answers with the small ``#selection`` partial; a form with HTMX the ``#scenario-control``
partial, without it a redirect."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe
from django.views.decorators.vary import vary_on_headers

from campaigns import access
from campaigns.access import Viewer
from campaigns.models import Scenario
from campaigns.records.forms import scenario_label
from campaigns.state import StateError
from refit.perimeters import scenario_control
from refit.perimeters import state as perimeter
from refit.perimeters.drawing import control_statuses, svg_map, view_box
from refit.perimeters.forms import ScenarioControlForm, TakeBackForm
from refit.rules.hexgrid import HexError
from refit.rules.perimeter.control_changes import front_hexes

TEMPLATE = "refit/perimeters/scenario_control.html"


def _scenario(viewer: Viewer, scenario_id: int) -> Scenario:
    return get_object_or_404(Scenario, pk=scenario_id, campaign=viewer.campaign)


def _selected(request: HttpRequest, viewer: Viewer) -> str:
    hexmap = perimeter.base_map(viewer.campaign)
    try:
        return hexmap.name(hexmap.hex(request.GET.get("hex", "")))
    except HexError:
        return ""


def _context(request: HttpRequest, viewer: Viewer, scenario: Scenario) -> dict[str, Any]:
    campaign = viewer.campaign
    current = scenario_control.control_record(campaign, scenario)
    hexmap = perimeter.hex_map(campaign, perimeter.terrain_of(campaign))
    selected = _selected(request, viewer)
    names = {
        key: campaign.side(key).name.in_language(get_language()) for key in campaign.game.side_keys
    }
    changes = [
        {
            **entry,
            "from_name": names.get(entry["from"], _("no control")),
            "to_name": names.get(entry["to"], _("no control")),
            "may_take_back": any(
                viewer.can_act_for_side(s) for s in (entry["from"], entry["to"]) if s
            ),
        }
        for entry in current.changes
    ]
    front = front_hexes(hexmap, current.before)
    side_keys = list(campaign.game.side_keys)
    changed = set(perimeter.known_hexes(hexmap, [e["hex"] for e in changes]))
    return {
        "viewer": viewer,
        "campaign": campaign,
        "scenario": scenario,
        "scenario_label": scenario_label(campaign, scenario),
        "view_box": view_box(hexmap),
        "map_shapes": mark_safe(  # noqa: S308 — svg_map escapes every text it writes
            svg_map(hexmap, control_statuses(hexmap, current.after), side_keys, changed=changed)
        ),
        "selected": selected,
        "side_keys": side_keys,
        "sides": [
            {"key": key, "name": name, "can_edit": viewer.can_act_for_side(key)}
            for key, name in names.items()
        ],
        "changes": changes,
        "version": current.version,
        "front": [(name, names.get(current.after.get(name, ""), "")) for name in front],
        "can_record": viewer.can_record,
    }


@require_safe
@login_required
@vary_on_headers("HX-Request")
def page(request: HttpRequest, campaign_id: int, scenario_id: int) -> HttpResponse:
    viewer = access.member(request, campaign_id, feature=perimeter.has_perimeters)
    scenario = _scenario(viewer, scenario_id)
    if request.htmx and request.htmx.target == "selection":
        context = {"selected": _selected(request, viewer), "oob": True}
        return render(request, TEMPLATE + "#selection", context)
    template = TEMPLATE + ("#scenario-control" if request.htmx else "")
    return render(request, template, _context(request, viewer, scenario))


def _answer(request: HttpRequest, viewer: Viewer, scenario: Scenario) -> HttpResponse:
    if request.htmx:
        return render(request, TEMPLATE + "#scenario-control", _context(request, viewer, scenario))
    url = reverse("perimeters:scenario_control", args=[viewer.campaign.pk, scenario.pk])
    return redirect(url)


@require_POST
@login_required
@vary_on_headers("HX-Request")
def change(request: HttpRequest, campaign_id: int, scenario_id: int) -> HttpResponse:
    viewer = access.recorder(request, campaign_id, feature=perimeter.has_perimeters)
    scenario = _scenario(viewer, scenario_id)
    campaign = viewer.campaign
    current = scenario_control.control_record(campaign, scenario)
    hexmap = perimeter.base_map(campaign)
    form = ScenarioControlForm(request.POST, front=front_hexes(hexmap, current.before))
    if not form.is_valid():
        errors = "; ".join(" ".join(e) for e in form.errors.values())
        messages.error(request, _("Check the form: %(errors)s") % {"errors": errors})
        return _answer(request, viewer, scenario)
    data = form.cleaned_data
    try:
        names = list(data["front"])
        if data["hexes"].strip():
            names += perimeter.parse_hexes(hexmap, data["hexes"])
        if not names:
            raise StateError(_("Name at least one hex."))
        done = scenario_control.set_control(
            viewer,
            scenario,
            by=request.user,
            version=data["version"],
            names=names,
            side=data["side"],
        )
    except StateError as error:
        messages.error(request, str(error))
    else:
        messages.success(
            request,
            _("Control after the scenario recorded in %(hexes)s.") % {"hexes": " ".join(done)},
        )
    return _answer(request, viewer, scenario)


@require_POST
@login_required
@vary_on_headers("HX-Request")
def take_back(request: HttpRequest, campaign_id: int, scenario_id: int) -> HttpResponse:
    viewer = access.recorder(request, campaign_id, feature=perimeter.has_perimeters)
    scenario = _scenario(viewer, scenario_id)
    form = TakeBackForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Check the form: %(errors)s") % {"errors": form.errors})
        return _answer(request, viewer, scenario)
    try:
        scenario_control.take_back(
            viewer,
            scenario,
            by=request.user,
            version=form.cleaned_data["version"],
            name=form.cleaned_data["hex"],
        )
    except StateError as error:
        messages.error(request, str(error))
    else:
        messages.success(
            request, _("Control change in %(hex)s taken back.") % {"hex": form.cleaned_data["hex"]}
        )
    return _answer(request, viewer, scenario)
