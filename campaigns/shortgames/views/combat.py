"""The combat helpers: Defiant Russia's dice count then the roll, one logged die per strength
point (7.11, 9.0); Cherkassy's odds column after the shifts then one logged die read on the
referee's CRT (11.6–11.9), no roll while the CRT (or the TEC for a terrain shift) is missing.

Every member counts (GET); a roll (POST) is refused before anything typed is read to whoever
may not roll for the side the form names (observers, the other side's players: 403)."""

from __future__ import annotations

import secrets

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_http_methods

from campaigns import access
from campaigns.access import Viewer
from campaigns.models import DiceRoll
from campaigns.shortgames import combat as combat_service
from campaigns.shortgames import combat_rolls, turn_steps
from campaigns.shortgames import services as short_games
from campaigns.shortgames.combat_forms import CpCombatForm, DrCombatForm
from campaigns.shortgames.pages.combat import CpCombatPage, cp_combat_page, dr_combat_page
from campaigns.shortgames.views.common import page_context, side_player_or_referee, stale


@require_http_methods(["GET", "HEAD", "POST"])
@login_required
def combat(request: HttpRequest, campaign_id: int) -> HttpResponse:
    if request.method == "POST":
        viewer = side_player_or_referee(request, campaign_id)
    else:
        viewer = access.member(request, campaign_id, feature=short_games.is_short_game)
    if viewer.campaign.module == "cherkassy_pocket":
        return _cherkassy(request, viewer)
    if viewer.campaign.module == "defiant_russia":
        return _defiant_russia(request, viewer)
    raise Http404


def _defiant_russia(request: HttpRequest, viewer: Viewer) -> HttpResponse:
    campaign = viewer.campaign
    values = request.POST if request.method == "POST" else request.GET
    if request.method == "POST":
        access.require_side_actor(viewer, values.get("side", ""), secret=False)
    form = DrCombatForm(values, sides=campaign.game.side_keys)
    if values.get("units") and form.crafted:
        raise Http404
    page = dr_combat_page(viewer, form)
    if request.method == "POST" and page.result:
        answer = page.result["answer"]
        try:
            page.result.update(
                combat_rolls.roll_dr_combat(
                    campaign,
                    side=form.cleaned_data["side"],
                    dice_count=answer.dice,
                    fleet_dice=answer.fleet_dice,
                    hit_on=answer.hit_on,
                    air_points=form.cleaned_data["air_points"],
                    by=request.user,
                    note=form.cleaned_data["note"],
                    token=form.cleaned_data["token"],
                    entry=form.cleaned_data,
                )
            )
        except turn_steps.TurnError as failure:
            page.error = str(failure)
    context = page_context(viewer, page, values=values, token=secrets.token_hex(8))
    return render(
        request,
        "campaigns/shortgames/combat.html",
        context,
        status=400 if page.error or page.refusals else 200,
    )


def _cherkassy(request: HttpRequest, viewer: Viewer) -> HttpResponse:
    campaign = viewer.campaign
    sides = campaign.game.side_keys
    values = request.POST if request.method == "POST" else request.GET
    if request.method == "POST":
        side = CpCombatForm.side_of(values, sides)
        access.require_side_actor(viewer, side, secret=False)
    shifts = [row[0] for row in combat_service.cp_shift_rows(campaign)]
    form = CpCombatForm(values, sides=sides, shifts=shifts)
    if form.crafted:
        raise Http404
    page = cp_combat_page(viewer, form, asked="count" in values or request.method == "POST")
    rolled, error = None, page.error
    if request.method == "POST" and page.combat is not None:
        rolled, error = _roll_cp(request, viewer, form, page)
    context = page_context(
        viewer, page, values=values, rolled=rolled, error=error, token=secrets.token_hex(8)
    )
    return render(
        request, "campaigns/shortgames/cp_combat.html", context, status=400 if error else 200
    )


def _roll_cp(
    request: HttpRequest, viewer: Viewer, form: CpCombatForm, page: CpCombatPage
) -> tuple[DiceRoll | None, str]:
    """The roll of the combat counted on ``page``, or why none was made."""
    turn = form.cleaned_data["turn"]
    if turn is None:
        return None, stale()
    try:
        made = combat_rolls.roll_cp_combat(
            viewer.campaign,
            page.combat,
            index=turn,
            side=page.side,
            by=request.user,
            token=form.cleaned_data["token"],
            note=form.cleaned_data["note"],
        )
    except turn_steps.TurnError as failure:
        return None, str(failure)
    except ValueError:
        return None, stale()
    return made, ""
