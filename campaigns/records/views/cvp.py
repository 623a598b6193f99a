"""The CVP tally: each casualty a side suffered (11.12), with each day's sums for victory, for the
CPP replenishment DRM and the running CVP Tally (campaigns.records.cvp_counts)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods
from django.views.decorators.vary import vary_on_headers

from campaigns import access
from campaigns.access import Viewer
from campaigns.models import CvpEntry, Scenario
from campaigns.periods import current_index, day_label, period_word, side_choices
from campaigns.records import services
from campaigns.records.cvp_counts import cvp_days, rules_for
from campaigns.records.forms import STONE_LOCATION_MODULES, CvpForm, scenario_label
from campaigns.records.reads import cvp_entries_of, scenarios_of
from campaigns.state import StateError


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
        scenarios = scenarios_of(campaign.pk)
    entries = cvp_entries_of(campaign.pk)
    sides = side_choices(campaign)
    names = dict(sides)
    scenario_names = {scenario.pk: scenario_label(campaign, scenario) for scenario in scenarios}
    days, totals = cvp_days(entries, [key for key, _name in sides], rules_for(campaign.module))
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
        "rf_rules": campaign.module in STONE_LOCATION_MODULES,
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
@require_http_methods(["GET", "HEAD", "POST"])
@login_required
def cvp(request: HttpRequest, campaign_id: int) -> HttpResponse:
    if request.method != "POST":
        viewer = access.member(request, campaign_id)
        campaign = viewer.campaign
        if request.htmx and request.GET.get("field") == "scenario" and viewer.can_record:
            # The day select changed: offer only that day's scenarios.
            try:
                index = int(request.GET.get("index", ""))
            except ValueError:
                index = current_index(campaign)
            form = CvpForm(
                campaign=campaign,
                scenarios=Scenario.objects.filter(campaign=campaign, index=index),
                only_day=index,
            )
            return render(request, "campaigns/records/cvp.html#scenario-field", {"form": form})
        initial: dict[str, Any] = {"index": current_index(campaign)}
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
                    "side": dict(side_choices(campaign)).get(entry.side, entry.side),
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
