"""The unit roster: every side's units (HTMX partial ``#reinforcements``), adding units by form,
quick entry or data file, one unit's page, removing a unit, a reinforcement's arrival and
Cherkassy's reconstitution."""

from __future__ import annotations

import re
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST, require_safe
from django.views.decorators.vary import vary_on_headers

from campaigns import access
from campaigns.access import Viewer, viewer_for
from campaigns.models import GameUnit
from campaigns.shortgames import arrivals, reconstitution, turn_steps
from campaigns.shortgames import services as short_games
from campaigns.shortgames.forms import (
    ArriveForm,
    QuickEntryForm,
    UnitForm,
    UploadForm,
    VersionForm,
)
from campaigns.shortgames.pages.roster import roster_page, state_choices
from campaigns.shortgames.units import UnitDataError, write_file
from campaigns.shortgames.views.common import checked_turn, page_context, stale, units_url
from campaigns.state import StaleEdit, StateError

ROSTER = "campaigns/shortgames/units.html"


def roster_context(viewer: Viewer, **forms: Any) -> dict[str, Any]:
    """The roster page, with empty forms unless ``forms`` gives one refused (and ``form_side``,
    the side it was for)."""
    campaign = viewer.campaign
    empty = {
        "quick_form": QuickEntryForm(),
        "upload_form": UploadForm(),
        "unit_form": UnitForm(module=campaign.module, states=state_choices(campaign)),
    }
    return page_context(viewer, roster_page(viewer), **{**empty, **forms})


@vary_on_headers("HX-Request")
@require_safe
@login_required
def units(request: HttpRequest, campaign_id: int) -> HttpResponse:
    viewer = access.member(request, campaign_id, feature=short_games.is_short_game)
    template = f"{ROSTER}#reinforcements" if request.htmx else ROSTER
    return render(request, template, roster_context(viewer))


@require_POST
@login_required
def add_unit(request: HttpRequest, campaign_id: int, side: str) -> HttpResponse:
    viewer = access.side_actor(
        request, campaign_id, side, secret=False, feature=short_games.is_short_game
    )
    campaign = viewer.campaign
    form = UnitForm(request.POST, module=campaign.module, states=state_choices(campaign))
    if form.is_valid():
        try:
            short_games.add_units(campaign, by=request.user, units=[form.unit_data(side)])
        except UnitDataError as error:
            form.add_error(None, str(error))
        else:
            messages.success(request, _("Unit added."))
            return redirect(units_url(campaign, side))
    context = roster_context(viewer, unit_form=form, form_side=side)
    return render(request, ROSTER, context, status=400)


@require_POST
@login_required
def quick_entry(request: HttpRequest, campaign_id: int, side: str) -> HttpResponse:
    viewer = access.side_actor(
        request, campaign_id, side, secret=False, feature=short_games.is_short_game
    )
    campaign = viewer.campaign
    form = QuickEntryForm(request.POST, module=campaign.module, side=side)
    if form.is_valid():
        try:
            added = short_games.add_units(
                campaign, by=request.user, units=form.cleaned_data["units"], source="quick"
            )
        except UnitDataError as error:
            form.add_error("text", str(error))
        else:
            messages.success(request, _("%(count)s units added.") % {"count": len(added)})
            return redirect(units_url(campaign, side))
    context = roster_context(viewer, quick_form=form, form_side=side)
    return render(request, ROSTER, context, status=400)


@require_POST
@login_required
def upload(request: HttpRequest, campaign_id: int) -> HttpResponse:
    """Load a roster data file: the units of every side the uploader may edit."""
    viewer = access.recorder(request, campaign_id, feature=short_games.is_short_game)
    campaign = viewer.campaign
    form = UploadForm(request.POST, request.FILES, module=campaign.module)
    if form.is_valid():
        units_ = form.cleaned_data["units"]
        refused = sorted({u.side for u in units_ if not viewer.can_act_for_side(u.side)})
        try:
            if refused:
                raise UnitDataError(
                    _("The file has units of a side you do not play (%(side)s).")
                    % {"side": refused[0][:20]}
                )
            added = short_games.add_units(campaign, by=request.user, units=units_, source="file")
        except UnitDataError as error:
            form.add_error("file", str(error))
        else:
            messages.success(request, _("%(count)s units added.") % {"count": len(added)})
            return redirect(units_url(campaign))
    return render(request, ROSTER, roster_context(viewer, upload_form=form), status=400)


@require_safe
@login_required
def units_file(request: HttpRequest, campaign_id: int) -> HttpResponse:
    viewer = access.member(request, campaign_id, feature=short_games.is_short_game)
    campaign = viewer.campaign
    units_ = [short_games.unit_data(u) for u in GameUnit.objects.filter(campaign=campaign)]
    payload = write_file(campaign.module, campaign.data_version, units_)
    response = JsonResponse(payload, json_dumps_params={"ensure_ascii": False, "indent": 1})
    name = re.sub(r"[^A-Za-z0-9_-]+", "-", f"{campaign.module}-units-{campaign.pk}")
    response["Content-Disposition"] = f'attachment; filename="{name}.json"'
    return response


@require_http_methods(["GET", "HEAD", "POST"])
@login_required
def unit(request: HttpRequest, campaign_id: int, unit_id: int) -> HttpResponse:
    viewer = access.member(request, campaign_id, feature=short_games.is_short_game)
    campaign = viewer.campaign
    game_unit = get_object_or_404(GameUnit, campaign=campaign, pk=unit_id)
    states = state_choices(campaign)
    if request.method == "POST":
        access.require_side_actor(viewer, game_unit.side, secret=False)
        form = UnitForm(request.POST, module=campaign.module, states=states)
        version = VersionForm(request.POST)
        if form.is_valid() and version.is_valid():
            try:
                short_games.change_unit(
                    campaign,
                    game_unit,
                    by=request.user,
                    version=version.cleaned_data["version"],
                    **form.changes(game_unit.side),
                )
            except (UnitDataError, StateError) as error:
                form.add_error(None, str(error))
            else:
                messages.success(request, _("Unit saved."))
                return redirect(units_url(campaign, game_unit.side))
        status = 400
    else:
        form = UnitForm(
            initial={name: getattr(game_unit, name) for name in UnitForm.base_fields},
            module=campaign.module,
            states=states,
        )
        status = 200
    return render(
        request,
        "campaigns/shortgames/unit.html",
        {
            "campaign": campaign,
            "viewer": viewer,
            "unit": game_unit,
            "form": form,
            "can_edit": viewer.can_act_for_side(game_unit.side),
        },
        status=status,
    )


@require_POST
@login_required
def unit_remove(request: HttpRequest, campaign_id: int, unit_id: int) -> HttpResponse:
    viewer = access.member(request, campaign_id, feature=short_games.is_short_game)
    game_unit = get_object_or_404(GameUnit, campaign=viewer.campaign, pk=unit_id)
    access.require_side_actor(viewer, game_unit.side, secret=False)
    form = VersionForm(request.POST)
    if form.is_valid():
        try:
            short_games.remove_unit(
                viewer.campaign, game_unit, by=request.user, version=form.cleaned_data["version"]
            )
        except StaleEdit as error:
            messages.error(request, str(error))
        else:
            messages.success(request, _("Unit removed from the roster."))
    return redirect(units_url(viewer.campaign, game_unit.side))


@vary_on_headers("HX-Request")
@require_POST
@login_required
def arrive(request: HttpRequest, campaign_id: int, unit_id: int) -> HttpResponse:
    """A reinforcement enters the map (plain POST, or HTMX swapping the queue)."""
    viewer = access.member(request, campaign_id, feature=short_games.is_short_game)
    game_unit = get_object_or_404(GameUnit, campaign=viewer.campaign, pk=unit_id)
    access.require_side_actor(viewer, game_unit.side, secret=False)
    form = ArriveForm(request.POST)
    if checked_turn(request, viewer, form):
        try:
            arrivals.arrive(
                viewer.campaign,
                game_unit,
                index=form.cleaned_data["turn"],
                version=form.cleaned_data["version"],
                hex=form.cleaned_data["hex"],
                by=request.user,
            )
        except (turn_steps.TurnError, StateError) as error:
            messages.error(request, str(error))
        else:
            messages.success(request, _("%(unit)s has entered the map.") % {"unit": game_unit.name})
    if request.htmx:
        fresh = viewer_for(request.user, viewer.campaign.pk)
        return render(request, f"{ROSTER}#reinforcements", roster_context(fresh))
    return redirect(reverse("shortgames:units", args=[viewer.campaign.pk]) + "#reinforcements")


@require_POST
@login_required
def reconstitute(request: HttpRequest, campaign_id: int, unit_id: int) -> HttpResponse:
    """A German battalion returns from the Eligible for Reconstitution box (CP 12.1)."""
    viewer = access.member(request, campaign_id, feature=short_games.is_short_game)
    if viewer.campaign.module != "cherkassy_pocket":
        raise Http404
    game_unit = get_object_or_404(GameUnit, campaign=viewer.campaign, pk=unit_id)
    access.require_side_actor(viewer, game_unit.side, secret=False)
    form = ArriveForm(request.POST)
    if checked_turn(request, viewer, form):
        try:
            reconstitution.reconstitute(
                viewer.campaign,
                game_unit,
                index=form.cleaned_data["turn"],
                version=form.cleaned_data["version"],
                hex=form.cleaned_data["hex"],
                by=request.user,
            )
        except StaleEdit:
            messages.error(request, stale())
        except (turn_steps.TurnError, StateError) as error:
            messages.error(request, str(error))
        else:
            messages.success(
                request, _("%(unit)s returns on its reduced side.") % {"unit": game_unit.name}
            )
    return redirect(reverse("shortgames:units", args=[viewer.campaign.pk]) + "#reconstitution")
