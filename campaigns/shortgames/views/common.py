"""What several short-game pages share: the first check of a form that names its side, the turn
a form was shown for, the pages' addresses, and a page dataclass as a template's context."""

from __future__ import annotations

from dataclasses import fields
from typing import Any

from django.contrib import messages
from django.http import HttpRequest
from django.urls import reverse
from django.utils.translation import gettext as _

from campaigns import access
from campaigns.access import Viewer
from campaigns.models import Campaign
from campaigns.shortgames import services as short_games
from campaigns.shortgames.forms import TurnForm


def stale() -> str:
    return _("That page was for an earlier turn; nothing was changed. Here is the turn now.")


def incomplete() -> str:
    return _("The form was incomplete; nothing was changed.")


def side_player_or_referee(request: HttpRequest, campaign_id: int) -> Viewer:
    """A member who acts for at least one side (its players and the referee; 403 for observers,
    404 for outsiders): the first check of a form that names the side it acts for, before the
    form is read. The side itself is checked once read (``access.require_side_actor``)."""
    viewer = access.member(request, campaign_id, feature=short_games.is_short_game)
    access.require(any(viewer.can_act_for_side(s) for s in viewer.campaign.game.side_keys))
    return viewer


def checked_turn(request: HttpRequest, viewer: Viewer, form: TurnForm) -> bool:
    """Whether ``form`` is complete and was shown for the turn the game stands in; if not, the
    message says why and nothing is to be changed."""
    if not form.is_valid():
        messages.error(request, incomplete())
        return False
    if form.cleaned_data["turn"] != viewer.campaign.period_index:
        messages.error(request, stale())
        return False
    return True


def page_context(viewer: Viewer, page: Any, **extra: Any) -> dict[str, Any]:
    """A page dataclass's fields as a template's names, with the campaign and the viewer."""
    context = {"campaign": viewer.campaign, "viewer": viewer}
    context.update({f.name: getattr(page, f.name) for f in fields(page)})
    context.update(extra)
    return context


def _address(name: str, campaign: Campaign, anchor: str) -> str:
    return reverse(f"shortgames:{name}", args=[campaign.pk]) + (f"#{anchor}" if anchor else "")


def turn_url(campaign: Campaign, anchor: str = "") -> str:
    return _address("turn", campaign, anchor)


def units_url(campaign: Campaign, side: str = "") -> str:
    return _address("units", campaign, f"side-{side}" if side else "")


def points_url(campaign: Campaign, side: str = "") -> str:
    return _address("points", campaign, f"points-{side}" if side else "")


def victory_url(campaign: Campaign, anchor: str = "") -> str:
    return _address("victory", campaign, anchor)
