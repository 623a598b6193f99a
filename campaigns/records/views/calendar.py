"""The campaign calendar: one row per CG day (moon, weather, EC…), each edited in place."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_safe
from django.views.decorators.vary import vary_on_headers

from campaigns import access
from campaigns.access import Viewer
from campaigns.models import Campaign, CampaignDay
from campaigns.periods import current_index, day_label, period_word
from campaigns.records import services
from campaigns.records.forms import (
    DayForm,
    ec_choices,
    ec_initial,
    ec_label,
    has_moon,
    typed_as_keys,
    weather_choices,
    weather_initial,
    weather_label,
)
from campaigns.records.reads import days_of
from campaigns.records.services import rain_decides_next_ec
from campaigns.state import StateError, fixed_conditions


@dataclass(frozen=True)
class DayRow:
    index: int
    label: str
    day: CampaignDay
    current: bool
    weather: str  # in the reader's words: the game's name for its weather keys
    ec: str = ""  # likewise for its EC keys
    weather_by_ssr: bool = False  # the campaign game's SSRs fix this day's weather


def _weather_by_ssr(campaign: Campaign) -> set[int]:
    """The calendar indexes whose weather the campaign game's SSRs fix."""
    return {index for index, fields in fixed_conditions(campaign).items() if "weather" in fields}


def _day_rows(campaign: Campaign, days: Iterable[CampaignDay]) -> list[DayRow]:
    by_index = {day.index: day for day in days}
    current = current_index(campaign)
    language = get_language()
    by_ssr = _weather_by_ssr(campaign)
    rows = []
    for index, period in enumerate(campaign.cg.periods):
        day = by_index.get(index)
        if day is None:  # a calendar row the state lacks (older data): shown as all unknown
            day = CampaignDay(campaign=campaign, index=index)
        label = period.label.in_language(language)
        weather, ec = weather_label(campaign, day.weather), ec_label(campaign, day.ec)
        rows.append(DayRow(index, label, day, index == current, weather, ec, index in by_ssr))
    return rows


def _calendar_context(viewer: Viewer, **extra: Any) -> dict[str, Any]:
    campaign = viewer.campaign
    rows = _day_rows(campaign, days_of(campaign.pk))
    return {
        "viewer": viewer,
        "campaign": campaign,
        "can_edit": viewer.can_record,
        "period_word": period_word(campaign),
        "rows": rows,
        # Some days' weather the SSRs fix: the rules do not give only the others'.
        "some_weather_by_ssr": any(row.weather_by_ssr for row in rows),
        "has_moon": has_moon(campaign),
        "editing": None,
        **extra,
    }


@require_safe
@login_required
def calendar(request: HttpRequest, campaign_id: int) -> HttpResponse:
    viewer = access.member(request, campaign_id)
    return render(request, "campaigns/records/calendar.html", _calendar_context(viewer))


@vary_on_headers("HX-Request")
@require_http_methods(["GET", "HEAD", "POST"])
@login_required
def day(request: HttpRequest, campaign_id: int, index: int) -> HttpResponse:
    """One calendar row as a form (GET), saved with its version (POST)."""
    viewer = access.member(request, campaign_id)
    campaign = viewer.campaign
    if not 0 <= index < len(campaign.cg.periods):
        raise Http404
    record = get_object_or_404(CampaignDay, campaign=campaign, index=index)
    can_edit = viewer.can_record
    moon = has_moon(campaign)
    current = current_index(campaign)
    if request.method == "POST":
        access.require(can_edit)
        form = DayForm(
            request.POST,
            weathers=weather_choices(campaign, index, record.weather),
            ecs=ec_choices(campaign, record.ec),
            rain=rain_decides_next_ec(campaign, index),
            moon=moon,
        )
        if form.is_valid():
            try:
                services.update_day(
                    campaign,
                    record,
                    by=request.user,
                    version=form.cleaned_data["version"],
                    **typed_as_keys(campaign, form.changes()),
                )
            except StateError as error:  # StaleEdit: someone saved the row meanwhile
                messages.error(request, str(error))
            else:
                row = DayRow(
                    index,
                    day_label(campaign, index),
                    record,
                    index == current,
                    weather_label(campaign, record.weather),
                    ec_label(campaign, record.ec),
                    index in _weather_by_ssr(campaign),
                )
                if request.htmx:
                    return render(
                        request,
                        "campaigns/records/calendar.html#day-row",
                        {
                            "campaign": campaign,
                            "row": row,
                            "can_edit": True,
                            "has_moon": moon,
                        },
                    )
                messages.success(
                    request,
                    _("Saved the calendar for %(day)s.") % {"day": day_label(campaign, index)},
                )
                return redirect(reverse("campaigns:calendar", args=[campaign.pk]) + f"#day-{index}")
    else:
        initial = {name: getattr(record, name) for name in (*DayForm.FIELDS, "version")}
        initial["weather"] = weather_initial(campaign, record.weather)
        initial["ec"] = ec_initial(campaign, record.ec)
        initial["rain"] = record.rain
        form = DayForm(
            initial=initial,
            weathers=weather_choices(campaign, index, record.weather),
            ecs=ec_choices(campaign, record.ec),
            rain=rain_decides_next_ec(campaign, index),
            moon=moon,
        )
    row = DayRow(
        index,
        day_label(campaign, index),
        record,
        index == current,
        weather_label(campaign, record.weather),
        ec_label(campaign, record.ec),
        index in _weather_by_ssr(campaign),
    )
    if request.htmx:
        partial = "day-form-row" if can_edit else "day-row"
        return render(
            request,
            f"campaigns/records/calendar.html#{partial}",
            {
                "campaign": campaign,
                "row": row,
                "form": form,
                "can_edit": can_edit,
                "has_moon": moon,
            },
        )
    return render(
        request,
        "campaigns/records/calendar.html",
        _calendar_context(viewer, editing=index if can_edit else None, form=form),
    )
