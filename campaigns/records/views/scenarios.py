"""The scenarios played: each one's sides, winner, locations and CVP, with each side's won/lost
record and, in Red Factories, the CG Scenario Balance DRM (11.32)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import IntegrityError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods
from django.views.decorators.vary import vary_on_headers
from django_htmx.http import push_url

from campaigns import access
from campaigns.access import Viewer
from campaigns.games.rules import signed
from campaigns.models import Scenario
from campaigns.periods import current_index, day_label, period_word, side_choices
from campaigns.records import services
from campaigns.records.balance import scenario_balance_drm, win_loss
from campaigns.records.cvp_counts import cvp_lines, rules_for, scenario_cvp
from campaigns.records.forms import ScenarioForm, scenario_label
from campaigns.state import StateError

# Modules whose rules have the automatic CG Scenario Balance (RF 11.32).
SCENARIO_BALANCE_MODULES = ("red_factories",)


@dataclass(frozen=True)
class ScenarioRow:
    scenario: Scenario
    label: str
    attacker: str
    sets_up_first: str
    moves_first: str
    winner: str
    locations: list[tuple[str, Any, Any]]
    cvp: list[tuple[str, int]]


def _scenarios_context(viewer: Viewer, form: ScenarioForm | None, **extra: Any) -> dict[str, Any]:
    campaign = viewer.campaign
    scenarios = list(Scenario.objects.filter(campaign=campaign))
    sides = side_choices(campaign)
    names = dict(sides)
    cvp = scenario_cvp(
        cvp_lines(campaign),
        {scenario.pk: scenario.index for scenario in scenarios},
        rules_for(campaign.module),
    )
    rows = [
        ScenarioRow(
            scenario=scenario,
            label=day_label(campaign, scenario.index),
            attacker=names.get(scenario.attacker, scenario.attacker),
            sets_up_first=names.get(scenario.sets_up_first, scenario.sets_up_first),
            moves_first=names.get(scenario.moves_first, scenario.moves_first),
            winner=names.get(scenario.winner, scenario.winner),
            locations=[
                (
                    name,
                    (scenario.locations or {}).get(key, {}).get("gained"),
                    (scenario.locations or {}).get(key, {}).get("lost"),
                )
                for key, name in sides
            ],
            cvp=[(name, cvp[scenario.pk].get(key, 0)) for key, name in sides],
        )
        for scenario in scenarios
    ]
    winners = [scenario.winner for scenario in scenarios]
    with_balance = campaign.module in SCENARIO_BALANCE_MODULES
    record = [
        {
            "name": name,
            "won": win_loss(winners, key)[0],
            "lost": win_loss(winners, key)[1],
            "drm": signed(scenario_balance_drm(winners, key)) if with_balance else None,
        }
        for key, name in sides
    ]
    can_edit = viewer.can_record
    if form is None and can_edit:
        form = ScenarioForm(campaign=campaign, initial={"index": current_index(campaign)})
    return {
        "viewer": viewer,
        "campaign": campaign,
        "can_edit": can_edit,
        "rows": rows,
        "period_word": period_word(campaign),
        "record": record,
        "completed": sum(1 for winner in winners if winner),
        "with_balance": with_balance,
        "side_names": [name for _key, name in sides],
        "columns": 10 + 2 * len(sides),
        "form": form if can_edit else None,
        "editing": None,
        **extra,
    }


def _save_scenario_form(
    request: HttpRequest, viewer: Viewer, form: ScenarioForm, scenario: Scenario | None
) -> Scenario | None:
    """Save a valid form through campaigns.records.services; None (with a message) when
    refused."""
    if not form.is_valid():
        return None
    try:
        return services.save_scenario(
            viewer.campaign,
            by=request.user,
            scenario=scenario,
            version=form.cleaned_data["version"] if scenario is not None else None,
            **form.scenario_fields(),
        )
    except StateError as error:
        messages.error(request, str(error))
    except IntegrityError:  # another device took the same day and sequence a moment ago
        messages.error(request, _("A scenario is already recorded for that day; edit it instead."))
    return None


@vary_on_headers("HX-Request")
@require_http_methods(["GET", "POST"])
@login_required
def scenarios(request: HttpRequest, campaign_id: int) -> HttpResponse:
    if request.method == "GET":
        viewer = access.member(request, campaign_id)
        return render(request, "campaigns/records/scenarios.html", _scenarios_context(viewer, None))
    viewer = access.recorder(request, campaign_id)
    campaign = viewer.campaign
    form = ScenarioForm(request.POST, campaign=campaign)
    saved = _save_scenario_form(request, viewer, form, None)
    if saved is not None:
        messages.success(
            request,
            _("Recorded the scenario of %(day)s.") % {"day": scenario_label(campaign, saved)},
        )
        if not request.htmx:
            return redirect("campaigns:scenarios", campaign_id=campaign.pk)
        form = None
    template = "campaigns/records/scenarios.html"
    if request.htmx:
        template += "#scenario-book"
    return render(request, template, _scenarios_context(viewer, form))


@vary_on_headers("HX-Request")
@require_http_methods(["GET", "POST"])
@login_required
def scenario(request: HttpRequest, campaign_id: int, scenario_id: int) -> HttpResponse:
    viewer = access.member(request, campaign_id)
    campaign = viewer.campaign
    record = get_object_or_404(Scenario, pk=scenario_id, campaign=campaign)
    if request.method == "POST":
        access.require(viewer.can_record)
        form = ScenarioForm(request.POST, campaign=campaign, scenario=record)
        saved = _save_scenario_form(request, viewer, form, record)
        if saved is not None:
            messages.success(
                request,
                _("Saved the scenario of %(day)s.") % {"day": scenario_label(campaign, saved)},
            )
            list_url = reverse("campaigns:scenarios", args=[campaign.pk])
            if not request.htmx:
                return redirect(f"{list_url}#scenario-{saved.pk}")
            response = render(
                request,
                "campaigns/records/scenarios.html#scenario-book",
                _scenarios_context(viewer, None),
            )
            return push_url(response, list_url)
    else:
        form = ScenarioForm(campaign=campaign, scenario=record)
    template = "campaigns/records/scenarios.html"
    if request.htmx:
        template += "#scenario-book"
    return render(
        request,
        template,
        _scenarios_context(
            viewer, form, editing=record, editing_label=scenario_label(campaign, record)
        ),
    )
