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
from campaigns.models import OrbatBox, OrbatEntry, Scenario
from campaigns.oid import oid
from campaigns.periods import day_label, period_word, side_choices
from campaigns.records import services
from campaigns.records.balance import scenario_balance_drm, win_loss
from campaigns.records.cvp_counts import cvp_lines, rules_for, scenario_cvp
from campaigns.records.end import (
    end_page,
    game_squad_types,
    has_scenario_end,
    scenario_cvp_lost,
    verdict_for,
)
from campaigns.records.end_forms import EndForm, LossesForm
from campaigns.records.forms import (
    STONE_LOCATION_MODULES,
    ScenarioForm,
    new_scenario_initial,
    scenario_label,
)
from campaigns.records.reads import scenarios_of
from campaigns.records.setup import setup_lines
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
    scenarios = scenarios_of(campaign.pk)
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
        form = ScenarioForm(
            campaign=campaign,
            initial=new_scenario_initial(
                campaign,
                recorded=len(scenarios),
                taken=[scenario.index for scenario in scenarios],
            ),
        )
    return {
        "viewer": viewer,
        "campaign": campaign,
        "can_edit": can_edit,
        "rows": rows,
        "period_word": period_word(campaign),
        "record": record,
        "completed": sum(1 for winner in winners if winner),
        "with_balance": with_balance,
        "with_end": has_scenario_end(campaign),
        "with_night": campaign.module in STONE_LOCATION_MODULES,
        "side_names": [name for _key, name in sides],
        "columns": (10 if campaign.module in STONE_LOCATION_MODULES else 9) + 2 * len(sides),
        "form": form if can_edit else None,
        "editing": None,
        "setup_lines": setup_lines(campaign),
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
@require_http_methods(["GET", "HEAD", "POST"])
@login_required
def scenarios(request: HttpRequest, campaign_id: int) -> HttpResponse:
    if request.method != "POST":
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
@require_http_methods(["GET", "HEAD", "POST"])
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
                return redirect(f"{list_url}#scenario-{oid(saved.pk)}")
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


# --- the scenario's end -------------------------------------------------------------------


def _end_response(
    request: HttpRequest, viewer: Viewer, scenario: Scenario, **forms: Any
) -> HttpResponse:
    template = "campaigns/records/scenario_end.html"
    if request.htmx:
        template += "#scenario-end"
    return render(request, template, end_page(viewer, scenario, **forms))


def _end_url(campaign_id: int, scenario_id: int, anchor: str = "") -> str:
    url = reverse("campaigns:scenario_end", args=[campaign_id, scenario_id])
    return f"{url}#{anchor}" if anchor else url


@vary_on_headers("HX-Request")
@require_http_methods(["GET", "HEAD", "POST"])
@login_required
def scenario_end(request: HttpRequest, campaign_id: int, scenario_id: int) -> HttpResponse:
    """The scenario's end: its losses from each side's OB (a side's own, the referee both), the
    public counts, and the winner the VC give (or the players' choice where they cannot)."""
    viewer = access.member(request, campaign_id, feature=has_scenario_end)
    campaign = viewer.campaign
    record = get_object_or_404(Scenario, pk=scenario_id, campaign=campaign)
    if request.method != "POST":
        return _end_response(request, viewer, record)
    access.require(viewer.can_record)
    form = EndForm(request.POST, campaign=campaign, scenario=record)
    if form.is_valid():
        locations, end = form.locations(), form.end()
        verdict = verdict_for(campaign, record, scenario_cvp_lost(campaign, record), locations, end)
        if verdict.derived:
            winner, end["winner_by"] = verdict.winner or "", "rules"
        else:
            # The players' winner, or their "not decided": either way the end was recorded
            # (what "Scenario over" waits for where no winner is needed; issue 15).
            winner = form.cleaned_data["winner"]
            end["winner_by"] = "players"
        try:
            services.save_end(
                record,
                by=request.user,
                version=form.cleaned_data["version"],
                locations=locations,
                end=end,
                winner=winner,
            )
        except StateError as error:
            messages.error(request, str(error))
        else:
            messages.success(
                request,
                _("Recorded the end of the scenario of %(day)s.")
                % {"day": scenario_label(campaign, record)},
            )
            if not request.htmx:
                return redirect(_end_url(campaign.pk, record.pk, "verdict"))
            form = None
    return _end_response(request, viewer, record, end_form=form)


@vary_on_headers("HX-Request")
@require_http_methods(["POST"])
@login_required
def scenario_losses(
    request: HttpRequest, campaign_id: int, scenario_id: int, side: str
) -> HttpResponse:
    """Book what happened to ``side``'s OB lines: secret to the side, so the opponent and the
    observers find no such page (404)."""
    viewer = access.side_actor(request, campaign_id, side, feature=has_scenario_end)
    campaign = viewer.campaign
    record = get_object_or_404(Scenario, pk=scenario_id, campaign=campaign)
    entries = list(
        OrbatEntry.objects.filter(campaign=campaign, side=side)
        .exclude(box__in=(OrbatBox.CASUALTIES, OrbatBox.FORTIFICATIONS))
        .order_by("box", "group_id", "id")
    )
    form = LossesForm(
        request.POST,
        campaign=campaign,
        entries=entries,
        types=game_squad_types(campaign),
        prefix=side,
    )
    if form.is_valid():
        try:
            created = services.record_losses(
                record,
                by=request.user,
                side=side,
                losses=[services.Loss(**loss) for loss in form.losses()],
            )
        except StateError as error:
            messages.error(request, str(error))
        else:
            messages.success(
                request,
                _("Recorded the end of the scenario for %(side)s: %(cvp)s CVP.")
                % {
                    "side": dict(side_choices(campaign)).get(side, side),
                    "cvp": sum(entry.cvp for entry in created if not entry.no_cvp),
                },
            )
            if not request.htmx:
                return redirect(_end_url(campaign.pk, record.pk, f"losses-{side}"))
            return _end_response(request, viewer, record)
    return _end_response(request, viewer, record, losses_form=(side, form))
