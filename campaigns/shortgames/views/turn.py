"""The turn walker: the turn's steps (HTMX partial ``#turn``), starting the game with its
optional rules, marking a step done or skipped and taking the mark back, rolling a step's
table, the referee's weather, and moving the turn marker on."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe
from django.views.decorators.vary import vary_on_headers

from campaigns import access
from campaigns.access import Viewer, viewer_for
from campaigns.dice import services as dice
from campaigns.games.registry import localized
from campaigns.models import GameUnit
from campaigns.records import services as records
from campaigns.shortgames import services as short_games
from campaigns.shortgames import turn_marks, turn_rolls, turn_steps
from campaigns.shortgames.forms import MarkForm, RollForm, StartForm, TurnForm, WeatherForm
from campaigns.shortgames.pages.turn import turn_page, weather_names
from campaigns.shortgames.views.common import checked_turn, page_context, turn_url
from campaigns.state import StateError


def turn_context(viewer: Viewer) -> dict[str, Any]:
    page = turn_page(viewer)
    start_form = StartForm(choices=page.option_names, initial={"options": page.chosen_options})
    return page_context(viewer, page, start_form=start_form)


def _step_anchor(step_id: str) -> str:
    return "step-" + step_id.replace(".", "-")


def _answer(request: HttpRequest, viewer: Viewer, anchor: str = "") -> HttpResponse:
    """The turn partial for HTMX, else back to the turn page."""
    if request.htmx:
        # The campaign may have moved on: read it again for the partial.
        fresh = viewer_for(request.user, viewer.campaign.pk)
        return render(request, "campaigns/shortgames/turn.html#turn", turn_context(fresh))
    return redirect(turn_url(viewer.campaign, anchor))


@vary_on_headers("HX-Request")
@require_safe
@login_required
def turn(request: HttpRequest, campaign_id: int) -> HttpResponse:
    viewer = access.member(request, campaign_id, feature=short_games.is_short_game)
    template = (
        "campaigns/shortgames/turn.html#turn" if request.htmx else "campaigns/shortgames/turn.html"
    )
    return render(request, template, turn_context(viewer))


@require_POST
@login_required
def start(request: HttpRequest, campaign_id: int) -> HttpResponse:
    viewer = access.recorder(request, campaign_id, feature=short_games.is_short_game)
    choices = [(o["id"], o["id"]) for o in short_games.option_choices(viewer.campaign)]
    form = StartForm(request.POST, choices=choices)
    if form.is_valid():
        try:
            short_games.start(
                viewer.campaign, by=request.user, options=form.cleaned_data["options"]
            )
        except StateError as error:
            messages.error(request, str(error))
        else:
            messages.success(request, _("The game is started with the optional rules chosen."))
    else:
        messages.error(request, _("Choose among the optional rules of this game."))
    return redirect(turn_url(viewer.campaign))


@vary_on_headers("HX-Request")
@require_POST
@login_required
def mark(request: HttpRequest, campaign_id: int, side: str, step_id: str) -> HttpResponse:
    viewer = access.side_actor(
        request, campaign_id, side, secret=False, feature=short_games.is_short_game
    )
    form = MarkForm(request.POST)
    if checked_turn(request, viewer, form):
        data = form.cleaned_data
        try:
            turn_marks.mark(
                viewer.campaign,
                index=data["turn"],
                side=side,
                step_id=step_id,
                by=request.user,
                skipped=data["action"] == "skip",
                reason=data["reason"],
                note=data["note"],
                order=data["order"],
            )
        except turn_steps.TurnError as error:
            messages.error(request, str(error))
            if data["note"].strip():
                messages.info(request, _("What you typed: %(text)s") % {"text": data["note"]})
        else:
            messages.success(request, _("Step marked."))
    return _answer(request, viewer, _step_anchor(step_id))


@vary_on_headers("HX-Request")
@require_POST
@login_required
def unmark(request: HttpRequest, campaign_id: int, side: str, step_id: str) -> HttpResponse:
    viewer = access.side_actor(
        request, campaign_id, side, secret=False, feature=short_games.is_short_game
    )
    form = TurnForm(request.POST)
    if checked_turn(request, viewer, form):
        try:
            turn_marks.unmark(
                viewer.campaign,
                index=form.cleaned_data["turn"],
                side=side,
                step_id=step_id,
                by=request.user,
            )
        except turn_steps.TurnError as error:
            messages.error(request, str(error))
        else:
            messages.success(request, _("Mark taken back: the step is to do again."))
    return _answer(request, viewer, _step_anchor(step_id))


def _result_text(result: Any) -> str:
    if isinstance(result, dict):
        text = localized({k: v for k, v in result.items() if k in ("en", "ja")}, get_language())
        if text:
            return text
        return ", ".join(f"{k}: {v}" for k, v in result.items())
    return "" if result is None else str(result)


@vary_on_headers("HX-Request")
@require_POST
@login_required
def roll(request: HttpRequest, campaign_id: int, side: str, step_id: str) -> HttpResponse:
    viewer = access.side_actor(
        request, campaign_id, side, secret=False, feature=short_games.is_short_game
    )
    form = RollForm(request.POST)
    if checked_turn(request, viewer, form):
        data = form.cleaned_data
        unit = None
        if data.get("unit"):
            unit = GameUnit.objects.filter(campaign=viewer.campaign, pk=data["unit"]).first()
        try:
            made = turn_rolls.roll_table(
                viewer.campaign,
                index=data["turn"],
                side=side,
                step_id=step_id,
                table_id=data["table"],
                by=request.user,
                note=data["note"],
                unit=unit,
                distance=data.get("distance"),
            )
        except (turn_steps.TurnError, dice.DiceError, StateError) as error:
            messages.error(request, str(error))
        else:
            messages.success(
                request,
                _("Rolled %(faces)s → %(final)s: %(result)s")
                % {
                    "faces": " + ".join(str(f) for f in made.faces),
                    "final": made.final,
                    "result": _result_text(made.result),
                },
            )
    return _answer(request, viewer, _step_anchor(step_id))


@require_POST
@login_required
def weather(request: HttpRequest, campaign_id: int) -> HttpResponse:
    """Write the turn's weather by hand when the rules we have cannot say it: the referee, or a
    player in a game without one."""
    viewer = access.campaign_actor(request, campaign_id, feature=short_games.is_short_game)
    campaign = viewer.campaign
    form = WeatherForm(request.POST, weathers=list(weather_names(campaign).items()))
    if checked_turn(request, viewer, form):
        try:
            records.update_day(
                campaign,
                turn_steps.current_day(campaign),
                by=request.user,
                version=form.cleaned_data["version"],
                weather=form.cleaned_data["weather"],
            )
        except StateError as error:
            messages.error(request, str(error))
        else:
            messages.success(request, _("Weather recorded."))
    return redirect(turn_url(campaign, "step-weather"))


@require_POST
@login_required
def advance(request: HttpRequest, campaign_id: int) -> HttpResponse:
    viewer = access.recorder(request, campaign_id, feature=short_games.is_short_game)
    form = TurnForm(request.POST)
    if checked_turn(request, viewer, form):
        try:
            turn_marks.advance(viewer.campaign, index=form.cleaned_data["turn"], by=request.user)
        except turn_steps.TurnError as error:
            messages.error(request, str(error))
        else:
            messages.success(request, _("The turn marker moves on."))
    return redirect(turn_url(viewer.campaign))
