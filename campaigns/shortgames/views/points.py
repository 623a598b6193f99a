"""Replacement and air points: each side's points this turn, booking what a side receives, uses
or (the referee) adjusts, and restoring or rebuilding a unit with them (Defiant Russia)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from campaigns import access
from campaigns.access import Viewer
from campaigns.models import GameUnit
from campaigns.shortgames import services as short_games
from campaigns.shortgames import turn_points, turn_steps
from campaigns.shortgames.forms import PointsForm
from campaigns.shortgames.pages.points import points_page
from campaigns.shortgames.views.common import (
    checked_turn,
    page_context,
    points_url,
    side_player_or_referee,
)
from campaigns.state import StateError


@require_safe
@login_required
def points(request: HttpRequest, campaign_id: int) -> HttpResponse:
    viewer = access.member(request, campaign_id, feature=short_games.is_short_game)
    return render(
        request, "campaigns/shortgames/points.html", page_context(viewer, points_page(viewer))
    )


def _replace(request: HttpRequest, viewer: Viewer, data: dict) -> str:
    """Restore or rebuild one of the side's units; the sentence saying what was done."""
    target = get_object_or_404(
        GameUnit, campaign=viewer.campaign, pk=data["unit"] or 0, side=data["side"]
    )
    where = turn_points.replace_unit(
        viewer.campaign,
        target,
        action=data["action"],
        index=data["turn"],
        version=-1 if data["version"] is None else data["version"],
        by=request.user,
    )
    if data["action"] == "rebuild":
        return _("%(unit)s rebuilt at reduced strength; it appears in: %(where)s.") % {
            "unit": target.name,
            "where": ", ".join(where) or "—",
        }
    return _("%(unit)s restored to full strength.") % {"unit": target.name}


@require_POST
@login_required
def points_change(request: HttpRequest, campaign_id: int) -> HttpResponse:
    # Who may book points is known before the form is read: a side's players and the referee
    # (observers 403); the side the form names is checked once read.
    viewer = side_player_or_referee(request, campaign_id)
    campaign = viewer.campaign
    form = PointsForm(request.POST)
    if not checked_turn(request, viewer, form):
        return redirect(points_url(campaign))
    data = form.cleaned_data
    side, action = data["side"], data["action"]
    access.require_side_actor(viewer, side, secret=False)
    if action == "adjustment":
        access.require(viewer.can_overrule)
    try:
        if action == "receive":
            turn_points.receive_points(
                campaign, side=side, index=data["turn"], kind=data["kind"], by=request.user
            )
            messages.success(request, _("Points booked."))
        elif action in ("restore", "rebuild"):
            messages.success(request, _replace(request, viewer, data))
        elif action in ("used", "adjustment"):
            amount = data["amount"] or 0
            turn_points.add_points(
                campaign,
                by=request.user,
                side=side,
                index=data["turn"],
                kind=data["kind"],
                action=action,
                amount=-abs(amount) if action == "used" else amount,
                note=data["note"],
                front=data["front"],
            )
            messages.success(request, _("Points booked."))
        else:
            raise Http404
    except (turn_steps.TurnError, StateError) as error:
        messages.error(request, str(error))
    return redirect(points_url(campaign, side))
