"""Public records: the campaign calendar, the scenarios played and the CVP tally.

All three are public: every member sees them (observers too), outsiders get 404. Any player of
either side or the referee may record and edit them (``Viewer.can_record``); observers read
only (403 on POST). Nothing here reads a side's secrets (CPP, FPP, purchases, ELR/SAN): only
CampaignDay, Scenario and CvpEntry. Changes go through campaigns.records.services; CVP sums
are derived from the CVP entries by campaigns.records.cvp_counts, never stored.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import IntegrityError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods
from django.views.decorators.vary import vary_on_headers
from django_htmx.http import push_url

from campaigns import access
from campaigns.access import Viewer
from campaigns.games.rules import signed
from campaigns.models import Campaign, CampaignDay, CvpEntry, Scenario
from campaigns.records import services
from campaigns.records.balance import scenario_balance_drm, win_loss
from campaigns.records.cvp_counts import cvp_days, cvp_lines, scenario_cvp
from campaigns.records.forms import (
    CvpForm,
    DayForm,
    ScenarioForm,
    day_label,
    period_word,
    scenario_label,
)
from campaigns.state import StateError

# Modules whose rules have the automatic CG Scenario Balance (RF 11.32).
SCENARIO_BALANCE_MODULES = ("red_factories",)


def _current_index(campaign: Campaign) -> int:
    return min(campaign.period_index, len(campaign.cg.periods) - 1)


def _side_names(campaign: Campaign) -> list[tuple[str, str]]:
    language = get_language()
    return [(side.key, side.name.in_language(language)) for side in campaign.sides]


# --- calendar ------------------------------------------------------------------------------


@dataclass(frozen=True)
class DayRow:
    index: int
    label: str
    day: CampaignDay
    current: bool


def _day_rows(campaign: Campaign, days: Iterable[CampaignDay]) -> list[DayRow]:
    by_index = {day.index: day for day in days}
    current = _current_index(campaign)
    language = get_language()
    rows = []
    for index, period in enumerate(campaign.cg.periods):
        day = by_index.get(index)
        if day is None:  # a calendar row the state lacks (older data): shown as all unknown
            day = CampaignDay(campaign=campaign, index=index)
        rows.append(DayRow(index, period.label.in_language(language), day, index == current))
    return rows


def _calendar_context(viewer: Viewer, **extra: Any) -> dict[str, Any]:
    campaign = viewer.campaign
    return {
        "viewer": viewer,
        "campaign": campaign,
        "can_edit": viewer.can_record,
        "period_word": period_word(campaign),
        "rows": _day_rows(campaign, CampaignDay.objects.filter(campaign=campaign)),
        "editing": None,
        **extra,
    }


@require_GET
@login_required
def calendar(request: HttpRequest, campaign_id: int) -> HttpResponse:
    viewer = access.member(request, campaign_id)
    return render(request, "campaigns/records/calendar.html", _calendar_context(viewer))


@vary_on_headers("HX-Request")
@require_http_methods(["GET", "POST"])
@login_required
def day(request: HttpRequest, campaign_id: int, index: int) -> HttpResponse:
    """One calendar row as a form (GET), saved with its version (POST)."""
    viewer = access.member(request, campaign_id)
    campaign = viewer.campaign
    if not 0 <= index < len(campaign.cg.periods):
        raise Http404
    record = get_object_or_404(CampaignDay, campaign=campaign, index=index)
    can_edit = viewer.can_record
    current = _current_index(campaign)
    if request.method == "POST":
        access.require(can_edit)
        form = DayForm(request.POST)
        if form.is_valid():
            try:
                services.update_day(
                    campaign,
                    record,
                    by=request.user,
                    version=form.cleaned_data["version"],
                    **form.changes(),
                )
            except StateError as error:  # StaleEdit: someone saved the row meanwhile
                messages.error(request, str(error))
            else:
                row = DayRow(index, day_label(campaign, index), record, index == current)
                if request.htmx:
                    return render(
                        request,
                        "campaigns/records/calendar.html#day-row",
                        {"campaign": campaign, "row": row, "can_edit": True},
                    )
                messages.success(
                    request,
                    _("Saved the calendar for %(day)s.") % {"day": day_label(campaign, index)},
                )
                return redirect(reverse("campaigns:calendar", args=[campaign.pk]) + f"#day-{index}")
    else:
        form = DayForm(
            initial={name: getattr(record, name) for name in (*DayForm.FIELDS, "version")}
        )
    row = DayRow(index, day_label(campaign, index), record, index == current)
    if request.htmx:
        partial = "day-form-row" if can_edit else "day-row"
        return render(
            request,
            f"campaigns/records/calendar.html#{partial}",
            {"campaign": campaign, "row": row, "form": form, "can_edit": can_edit},
        )
    return render(
        request,
        "campaigns/records/calendar.html",
        _calendar_context(viewer, editing=index if can_edit else None, form=form),
    )


# --- scenarios -----------------------------------------------------------------------------


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
    sides = _side_names(campaign)
    names = dict(sides)
    cvp = scenario_cvp(cvp_lines(campaign), {scenario.pk: scenario.index for scenario in scenarios})
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
        form = ScenarioForm(campaign=campaign, initial={"index": _current_index(campaign)})
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


# --- CVP -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class CvpRow:
    entry: CvpEntry
    day: str
    side: str
    scenario: str


def _cvp_context(
    viewer: Viewer,
    form: CvpForm | None,
    scenarios: list[Scenario] | None = None,
    initial: dict[str, Any] | None = None,
) -> dict[str, Any]:
    campaign = viewer.campaign
    if scenarios is None:
        scenarios = list(Scenario.objects.filter(campaign=campaign))
    entries = list(CvpEntry.objects.filter(campaign=campaign).order_by("index", "id"))
    sides = _side_names(campaign)
    names = dict(sides)
    scenario_names = {scenario.pk: scenario_label(campaign, scenario) for scenario in scenarios}
    days, totals = cvp_days(entries, [key for key, _name in sides])
    can_edit = viewer.can_record
    if form is None and can_edit:
        form = CvpForm(campaign=campaign, scenarios=scenarios, initial=initial or {})
    return {
        "viewer": viewer,
        "campaign": campaign,
        "can_edit": can_edit,
        "form": form if can_edit else None,
        "side_names": [name for _key, name in sides],
        "period_word": period_word(campaign),
        "days": [(day_label(campaign, index), sums) for index, sums in days],
        "totals": totals,
        "entries": [
            CvpRow(
                entry=entry,
                day=day_label(campaign, entry.index),
                side=names.get(entry.side, entry.side),
                scenario=scenario_names.get(entry.scenario_id, ""),
            )
            for entry in entries
        ],
    }


# The next casualty form keeps these: casualties come in runs (same side, day, scenario, phase).
STICKY = ("side", "index", "scenario", "phase")


def _sticky(entry: CvpEntry) -> dict[str, Any]:
    return {
        "side": entry.side,
        "index": entry.index,
        "scenario": entry.scenario_id or "",
        "phase": entry.phase,
    }


@vary_on_headers("HX-Request")
@require_http_methods(["GET", "POST"])
@login_required
def cvp(request: HttpRequest, campaign_id: int) -> HttpResponse:
    if request.method == "GET":
        viewer = access.member(request, campaign_id)
        campaign = viewer.campaign
        if request.htmx and request.GET.get("field") == "scenario" and viewer.can_record:
            # The day select changed: offer only that day's scenarios.
            try:
                index = int(request.GET.get("index", ""))
            except ValueError:
                index = _current_index(campaign)
            form = CvpForm(
                campaign=campaign,
                scenarios=Scenario.objects.filter(campaign=campaign, index=index),
                only_day=index,
            )
            return render(request, "campaigns/records/cvp.html#scenario-field", {"form": form})
        initial: dict[str, Any] = {"index": _current_index(campaign)}
        initial.update({key: request.GET[key] for key in STICKY if request.GET.get(key)})
        return render(
            request, "campaigns/records/cvp.html", _cvp_context(viewer, None, initial=initial)
        )
    viewer = access.recorder(request, campaign_id)
    campaign = viewer.campaign
    scenarios = list(Scenario.objects.filter(campaign=campaign))
    form = CvpForm(request.POST, campaign=campaign, scenarios=scenarios)
    if form.is_valid():
        try:
            entry = services.add_cvp(campaign, by=request.user, **form.cvp_fields())
        except StateError as error:
            messages.error(request, str(error))
        else:
            messages.success(
                request,
                _("Recorded: %(side)s lost %(what)s, %(cvp)s CVP (%(day)s).")
                % {
                    "side": dict(_side_names(campaign)).get(entry.side, entry.side),
                    "what": entry.what,
                    "cvp": entry.cvp,
                    "day": day_label(campaign, entry.index),
                },
            )
            if not request.htmx:
                query = urlencode(_sticky(entry))
                return redirect(f"{reverse('campaigns:cvp', args=[campaign.pk])}?{query}")
            form = CvpForm(campaign=campaign, scenarios=scenarios, initial=_sticky(entry))
    template = "campaigns/records/cvp.html"
    if request.htmx:
        template += "#cvp-tally"
    return render(request, template, _cvp_context(viewer, form, scenarios))
