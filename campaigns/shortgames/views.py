"""The short games' pages (Defiant Russia, Cherkassy Pocket): the turn walker, the unit roster,
points, places and victory, the referee's tables and the combat dice helper.

Thin views: a campaigns.access getter first — ``member`` to read (outsiders 404), ``side_actor``
or ``require_side_actor`` with ``secret=False`` to act for a side (its players and the referee;
403 for the other members), ``recorder`` for game-wide changes (not observers), ``overruler`` for
what the referee alone writes. Nothing in these games is hidden, so every member reads every
page. Changes go
through campaigns.shortgames.services and campaigns.shortgames.turns; every form carries the turn
or the row version it
was shown for. The turn page answers HTMX with its ``#turn`` partial.
"""

from __future__ import annotations

import json
import re
import secrets
from dataclasses import dataclass, field
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.text import slugify
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django.views.decorators.vary import vary_on_headers

from campaigns import access
from campaigns.access import Viewer, viewer_for
from campaigns.dice import services as dice
from campaigns.games.registry import localized
from campaigns.models import (
    Campaign,
    CampaignDay,
    ControlPoint,
    DiceRoll,
    GameUnit,
    PointEntry,
    PointKind,
    RefereeTable,
    ShortGame,
    UnitState,
)
from campaigns.models.short_game import GAME_STATES
from campaigns.shortgames import (
    arrivals,
    combat_rolls,
    cp_victory,
    reconstitution,
    turn_marks,
    turn_points,
    turn_rolls,
    turn_steps,
)
from campaigns.shortgames import services as short_games
from campaigns.shortgames.forms import (
    ArriveForm,
    ControlForm,
    MarkForm,
    PointsForm,
    QuickEntryForm,
    RefereeTableForm,
    RollForm,
    StartForm,
    TurnForm,
    UnitForm,
    UploadForm,
    VersionForm,
    WeatherForm,
)
from campaigns.shortgames.rules.cherkassy import combat as cp_combat
from campaigns.shortgames.rules.cherkassy import referee as cp_referee
from campaigns.shortgames.rules.cherkassy import stacking as cp_stacking
from campaigns.shortgames.rules.defiant_russia import air as dr_air
from campaigns.shortgames.rules.defiant_russia import combat as dr_combat
from campaigns.shortgames.rules.defiant_russia import limits as dr_limits
from campaigns.shortgames.rules.defiant_russia import stacking as dr_stacking
from campaigns.shortgames.rules.defiant_russia import victory as dr_victory
from campaigns.shortgames.rules.defiant_russia import weather as dr_weather
from campaigns.shortgames.units import (
    UnitData,
    UnitDataError,
    parse_quick_entry,
    read_file,
    type_label,
    write_file,
)
from campaigns.state import StaleEdit, StateError


def _stale() -> str:
    return _("That page was for an earlier turn; nothing was changed. Here is the turn now.")


def _weather_names(campaign: Campaign) -> dict[str, str]:
    types = short_games.game_data(campaign)["weather"]["types"]
    return {item["key"]: localized(item.get("name"), get_language()) for item in types}


# --- the turn page ---------------------------------------------------------------------------


@dataclass
class SideLimits:
    side: str
    name: str
    limits: list[Any]


@dataclass
class StepRow:
    step: turn_steps.TurnStep
    name: str
    reason: str
    applies_text: str
    can_mark: list[str]
    can_unmark: list[str]
    rolls: list[DiceRoll]
    tables: list[dict[str, Any]]
    tank_units: list[GameUnit] = field(default_factory=list)


def _limits(campaign: Campaign, weather: str | None, game: ShortGame | None) -> list[SideLimits]:
    if campaign.module != "defiant_russia" or weather is None:
        return []
    data = short_games.game_data(campaign)
    turn = short_games.turn_number(campaign)
    return [
        SideLimits(
            side.key,
            side.name.in_language(get_language()),
            dr_limits.turn_limits(turn, weather, side.key, data, turn_steps.options_of(game)),
        )
        for side in campaign.sides
    ]


def _turn_context(viewer: Viewer) -> dict[str, Any]:
    campaign = viewer.campaign
    game = short_games.setup_of(campaign)
    day = turn_steps.current_day(campaign)
    weather = turn_steps.weather_now(campaign, day, game)
    _derived, weather_answer = turn_steps.derived_weather(campaign, game)
    marks = turn_steps.marks_of(campaign)
    steps = turn_steps.turn_steps(campaign, game, weather, marks) if game is not None else []
    rolls = list(
        DiceRoll.objects.filter(campaign=campaign, index=campaign.period_index)
        .select_related("rolled_by")
        .order_by("id")
    )
    tank_units = (
        [
            unit
            for unit in GameUnit.objects.filter(
                campaign=campaign, side="soviet", state__in=("full", "reduced")
            )
            if unit.unit_type in ("tank", "mech_infantry")
        ]
        if campaign.module == "cherkassy_pocket"
        else []
    )
    editable = [side for side in campaign.game.side_keys if viewer.can_act_for_side(side)]
    rows = []
    for step in steps:
        needed = step.sides_to_mark or campaign.game.side_keys
        step_rolls = [roll for roll in rolls if roll.sequence_step == step.id]
        tables = []
        if step.status == "current":
            for offer in step.tables:
                tables.append(
                    {
                        "id": offer.table_id,
                        "name": localized(offer.name, get_language()) or offer.table_id,
                        "applies": offer.applies,
                        "reason": localized(offer.reason, get_language()),
                        "sides": [s for s in needed if s in editable],
                        "owner": turn_rolls.AIR_TABLES.get(offer.table_id, ""),
                    }
                )
            if step.id == "weather" and campaign.module == "cherkassy_pocket":
                tables.append(
                    {
                        "id": "cp.weather-table",
                        "name": _("Weather table"),
                        "applies": getattr(weather_answer, "mode", "") == "table"
                        and not day.weather,
                        "reason": localized(getattr(weather_answer, "reason", ""), get_language()),
                        "sides": [s for s in needed if s in editable],
                    }
                )
        rows.append(
            StepRow(
                step=step,
                name=localized(step.name, get_language()),
                reason=localized(step.reason, get_language()),
                applies_text=localized(step.applies_text, get_language()),
                can_mark=[s for s in needed if s in editable and s not in step.marks]
                if step.status == "current"
                else [],
                can_unmark=[s for s in step.marks if s in editable],
                rolls=step_rolls,
                tables=tables,
                tank_units=tank_units
                if any(t["id"] == "cp.tank-breakdown" for t in tables)
                else [],
            )
        )
    weathers = _weather_names(campaign)
    return {
        "campaign": campaign,
        "viewer": viewer,
        "game": game,
        "day": day,
        "weather": weather,
        "weather_name": weathers.get(weather or "", weather or ""),
        "weather_reason": localized(getattr(weather_answer, "reason", ""), get_language()),
        "weather_choices": list(weathers.items()),
        "rows": rows,
        "complete": game is not None and turn_steps.turn_complete(steps),
        "last_turn": turn_steps.is_last_turn(campaign),
        "limits": _limits(campaign, weather, game),
        "can_act": bool(editable),
        "options": [
            (option, option["id"] in (game.options if game else []))
            for option in short_games.option_choices(campaign)
        ],
        "start_form": StartForm(
            choices=[
                (o["id"], localized(o["name"], get_language()))
                for o in short_games.option_choices(campaign)
            ],
            initial={"options": game.options if game else []},
        ),
        "missing": _missing(campaign),
        "turn_number": short_games.turn_number(campaign),
        "side_names": {side.key: side.name.in_language(get_language()) for side in campaign.sides},
    }


def _missing(campaign: Campaign) -> list[Any]:
    if campaign.module != "cherkassy_pocket":
        return []
    return cp_referee.missing_rolls(
        short_games.referee_tables(campaign), short_games.game_data(campaign)
    )


def _turn_url(campaign: Campaign, anchor: str = "") -> str:
    return reverse("shortgames:turn", args=[campaign.pk]) + (f"#{anchor}" if anchor else "")


def _turn_response(request: HttpRequest, viewer: Viewer, anchor: str = "") -> HttpResponse:
    if request.htmx:
        # The campaign may have moved on: read it again for the partial.
        fresh = viewer_for(request.user, viewer.campaign.pk)
        return render(request, "campaigns/shortgames/turn.html#turn", _turn_context(fresh))
    return redirect(_turn_url(viewer.campaign, anchor))


@vary_on_headers("HX-Request")
@require_GET
@login_required
def turn(request: HttpRequest, campaign_id: int) -> HttpResponse:
    viewer = access.member(request, campaign_id, feature=short_games.is_short_game)
    template = (
        "campaigns/shortgames/turn.html#turn" if request.htmx else "campaigns/shortgames/turn.html"
    )
    return render(request, template, _turn_context(viewer))


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
    return redirect(_turn_url(viewer.campaign))


def _checked_turn(request: HttpRequest, viewer: Viewer, form: TurnForm) -> bool:
    if not form.is_valid():
        messages.error(request, _("The form was incomplete; nothing was changed."))
        return False
    if form.cleaned_data["turn"] != viewer.campaign.period_index:
        messages.error(request, _stale())
        return False
    return True


@vary_on_headers("HX-Request")
@require_POST
@login_required
def mark(request: HttpRequest, campaign_id: int, side: str, step_id: str) -> HttpResponse:
    viewer = access.side_actor(
        request, campaign_id, side, secret=False, feature=short_games.is_short_game
    )
    form = MarkForm(request.POST)
    if _checked_turn(request, viewer, form):
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
            )
        except turn_steps.TurnError as error:
            messages.error(request, str(error))
            if data["note"].strip():
                messages.info(request, _("What you typed: %(text)s") % {"text": data["note"]})
        else:
            messages.success(request, _("Step marked."))
    return _turn_response(request, viewer, "step-" + step_id.replace(".", "-"))


@vary_on_headers("HX-Request")
@require_POST
@login_required
def unmark(request: HttpRequest, campaign_id: int, side: str, step_id: str) -> HttpResponse:
    viewer = access.side_actor(
        request, campaign_id, side, secret=False, feature=short_games.is_short_game
    )
    form = TurnForm(request.POST)
    if _checked_turn(request, viewer, form):
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
    return _turn_response(request, viewer, "step-" + step_id.replace(".", "-"))


@vary_on_headers("HX-Request")
@require_POST
@login_required
def roll(request: HttpRequest, campaign_id: int, side: str, step_id: str) -> HttpResponse:
    viewer = access.side_actor(
        request, campaign_id, side, secret=False, feature=short_games.is_short_game
    )
    form = RollForm(request.POST)
    if _checked_turn(request, viewer, form):
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
    return _turn_response(request, viewer, "step-" + step_id.replace(".", "-"))


def _result_text(result: Any) -> str:
    if isinstance(result, dict):
        text = localized({k: v for k, v in result.items() if k in ("en", "ja")}, get_language())
        if text:
            return text
        return ", ".join(f"{k}: {v}" for k, v in result.items())
    return "" if result is None else str(result)


@require_POST
@login_required
def weather(request: HttpRequest, campaign_id: int) -> HttpResponse:
    """Write the turn's weather by hand: the referee, when the rules we have cannot say it."""
    viewer = access.overruler(request, campaign_id, feature=short_games.is_short_game)
    campaign = viewer.campaign
    form = WeatherForm(request.POST, weathers=list(_weather_names(campaign).items()))
    if _checked_turn(request, viewer, form):
        day = turn_steps.current_day(campaign)
        try:
            from campaigns.records import services as records

            records.update_day(
                campaign,
                day,
                by=request.user,
                version=form.cleaned_data["version"],
                weather=form.cleaned_data["weather"],
            )
        except StateError as error:
            messages.error(request, str(error))
        else:
            messages.success(request, _("Weather recorded."))
    return redirect(_turn_url(campaign, "step-weather"))


@require_POST
@login_required
def advance(request: HttpRequest, campaign_id: int) -> HttpResponse:
    viewer = access.recorder(request, campaign_id, feature=short_games.is_short_game)
    form = TurnForm(request.POST)
    if _checked_turn(request, viewer, form):
        try:
            turn_marks.advance(viewer.campaign, index=form.cleaned_data["turn"], by=request.user)
        except turn_steps.TurnError as error:
            messages.error(request, str(error))
        else:
            messages.success(request, _("The turn marker moves on."))
    return redirect(_turn_url(viewer.campaign))


# --- the unit roster -------------------------------------------------------------------------


def _state_choices(campaign: Campaign) -> list[tuple[str, str]]:
    return [(state.value, state.label) for state in GAME_STATES[campaign.module]]


@dataclass
class SideRoster:
    side: str
    name: str
    units: list[GameUnit]
    can_edit: bool
    warnings: list[tuple[str, str, str]]  # hex, rule, text


def stacking_warnings(campaign: Campaign, units: list[GameUnit]) -> list[tuple[str, str, str]]:
    """Every hex over the rules' stacking limits, with the rule (DR 6.2, CP 8.1–8.4)."""
    data = short_games.game_data(campaign)
    found = []
    for hex_, stack in sorted(short_games.stacks(units).items()):
        if campaign.module == "defiant_russia":
            warnings = dr_stacking.stacking_warnings(
                [
                    dr_stacking.StackUnit(u.side, u.nationality, u.unit_type, slugify(u.name))
                    for u in stack
                ],
                data,
            )
        else:
            warnings = cp_stacking.stacking_warnings([cp_stack_unit(u) for u in stack], data)
        found += [(hex_, w.rule, localized(w.text, get_language())) for w in warnings]
    return found


def cp_stack_unit(unit: GameUnit) -> Any:
    return cp_stacking.StackUnit(
        side=unit.side,
        artillery=unit.unit_type in ("artillery", "motorized_artillery", "rocket_artillery"),
        unit_id=str(unit.pk),
    )


def _roster_context(viewer: Viewer, **extra: Any) -> dict[str, Any]:
    campaign = viewer.campaign
    units = list(GameUnit.objects.filter(campaign=campaign))
    warnings = stacking_warnings(campaign, units)
    labels = dict(_state_choices(campaign))
    for unit in units:
        unit.state_label = labels.get(unit.state, unit.state)
        unit.type_label = type_label(unit.unit_type)
    sides = [
        SideRoster(
            side.key,
            side.name.in_language(get_language()),
            [u for u in units if u.side == side.key],
            viewer.can_act_for_side(side.key),
            [w for w in warnings if any(u.side == side.key and u.hex == w[0] for u in units)],
        )
        for side in campaign.sides
    ]
    context = {
        "campaign": campaign,
        "viewer": viewer,
        "sides": sides,
        "warnings": warnings,
        "queue": _queue_rows(viewer, units),
        "turn_number": short_games.turn_number(campaign),
        "side_names": {side.key: side.name.in_language(get_language()) for side in campaign.sides},
        "quick_form": QuickEntryForm(),
        "upload_form": UploadForm(),
        "unit_form": UnitForm(module=campaign.module, states=_state_choices(campaign)),
        "is_dr": campaign.module == "defiant_russia",
        "turn_numbers": short_games.all_turns(campaign),
        "reconstitution": _reconstitution_rows(viewer, units),
    }
    context.update(extra)
    return context


@dataclass
class ReconstitutionRow:
    division: str
    stemmermann: bool
    battalions: int
    may_return: bool
    reason: str
    units: list[GameUnit]
    can_act: bool


def _reconstitution_rows(viewer: Viewer, units: list[GameUnit]) -> list[ReconstitutionRow]:
    """Cherkassy's Eligible for Reconstitution box per division and group (12.1)."""
    if viewer.campaign.module != "cherkassy_pocket":
        return []
    return [
        ReconstitutionRow(
            option.division,
            option.stemmermann,
            option.battalions,
            bool(option.returns),
            localized(option.reason, get_language()),
            [
                u
                for u in units
                if u.state == UnitState.RECONSTITUTION
                and u.formation == option.division
                and u.in_pocket == option.stemmermann
                and u.size == "battalion"
            ],
            viewer.can_act_for_side("german"),
        )
        for option in reconstitution.reconstitution_options(units)
    ]


@dataclass
class QueueLine:
    row: arrivals.QueueRow
    name: str
    reason: str
    can_arrive: bool


def _queue_rows(viewer: Viewer, units: list[GameUnit]) -> list[QueueLine]:
    campaign = viewer.campaign
    game = short_games.setup_of(campaign)
    return [
        QueueLine(
            row,
            localized(row.name, get_language()),
            localized(row.reason, get_language()),
            row.unit is not None
            and row.status == "due"
            and row.may_enter
            and viewer.can_act_for_side(row.side),
        )
        for row in arrivals.reinforcement_queue(campaign, game, units)
    ]


def _reinforcements_url(campaign: Campaign) -> str:
    return reverse("shortgames:units", args=[campaign.pk]) + "#reinforcements"


@vary_on_headers("HX-Request")
@require_POST
@login_required
def arrive(request: HttpRequest, campaign_id: int, unit_id: int) -> HttpResponse:
    """A reinforcement enters the map (plain POST, or HTMX swapping the queue)."""
    viewer = access.member(request, campaign_id, feature=short_games.is_short_game)
    game_unit = get_object_or_404(GameUnit, campaign=viewer.campaign, pk=unit_id)
    access.require_side_actor(viewer, game_unit.side, secret=False)
    form = ArriveForm(request.POST)
    if _checked_turn(request, viewer, form):
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
        return render(
            request, "campaigns/shortgames/units.html#reinforcements", _roster_context(fresh)
        )
    return redirect(_reinforcements_url(viewer.campaign))


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
    if _checked_turn(request, viewer, form):
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
            messages.error(request, _stale())
        except (turn_steps.TurnError, StateError) as error:
            messages.error(request, str(error))
        else:
            messages.success(
                request, _("%(unit)s returns on its reduced side.") % {"unit": game_unit.name}
            )
    return redirect(reverse("shortgames:units", args=[viewer.campaign.pk]) + "#reconstitution")


@vary_on_headers("HX-Request")
@require_GET
@login_required
def units(request: HttpRequest, campaign_id: int) -> HttpResponse:
    viewer = access.member(request, campaign_id, feature=short_games.is_short_game)
    template = (
        "campaigns/shortgames/units.html#reinforcements"
        if request.htmx
        else "campaigns/shortgames/units.html"
    )
    return render(request, template, _roster_context(viewer))


def _units_url(campaign: Campaign, side: str = "") -> str:
    return reverse("shortgames:units", args=[campaign.pk]) + (f"#side-{side}" if side else "")


def _unit_from_form(side: str, data: dict[str, Any]) -> UnitData:
    values = {k: (v if v is not None else None) for k, v in data.items()}
    for key in (
        "nationality",
        "formation",
        "size",
        "full",
        "reduced",
        "setup",
        "arrival_edge",
        "hex",
        "notes",
    ):
        values[key] = (values.get(key) or "").strip()
    if values.get("nationality"):
        values["nationality"] = values["nationality"].lower()
    return UnitData(
        side=side, **{k: v for k, v in values.items() if k in UnitData.__dataclass_fields__}
    )


@require_POST
@login_required
def add_unit(request: HttpRequest, campaign_id: int, side: str) -> HttpResponse:
    viewer = access.side_actor(
        request, campaign_id, side, secret=False, feature=short_games.is_short_game
    )
    campaign = viewer.campaign
    form = UnitForm(request.POST, module=campaign.module, states=_state_choices(campaign))
    if form.is_valid():
        try:
            short_games.add_units(
                campaign, by=request.user, units=[_unit_from_form(side, form.cleaned_data)]
            )
        except UnitDataError as error:
            form.add_error(None, str(error))
        else:
            messages.success(request, _("Unit added."))
            return redirect(_units_url(campaign, side))
    return render(
        request,
        "campaigns/shortgames/units.html",
        _roster_context(viewer, unit_form=form, form_side=side),
        status=400,
    )


@require_POST
@login_required
def quick_entry(request: HttpRequest, campaign_id: int, side: str) -> HttpResponse:
    viewer = access.side_actor(
        request, campaign_id, side, secret=False, feature=short_games.is_short_game
    )
    campaign = viewer.campaign
    form = QuickEntryForm(request.POST)
    if form.is_valid():
        try:
            units_ = parse_quick_entry(campaign.module, side, form.cleaned_data["text"])
            added = short_games.add_units(campaign, by=request.user, units=units_, source="quick")
        except UnitDataError as error:
            form.add_error("text", str(error))
        else:
            messages.success(request, _("%(count)s units added.") % {"count": len(added)})
            return redirect(_units_url(campaign, side))
    return render(
        request,
        "campaigns/shortgames/units.html",
        _roster_context(viewer, quick_form=form, form_side=side),
        status=400,
    )


@require_POST
@login_required
def upload(request: HttpRequest, campaign_id: int) -> HttpResponse:
    """Load a roster data file: the units of every side the uploader may edit."""
    viewer = access.recorder(request, campaign_id, feature=short_games.is_short_game)
    campaign = viewer.campaign
    form = UploadForm(request.POST, request.FILES)
    if form.is_valid():
        file = form.cleaned_data["file"]
        try:
            if file.size > 2_000_000:
                raise UnitDataError(_("The file is larger than a roster can be."))
            try:
                payload = json.loads(file.read().decode("utf-8"))
            except (UnicodeDecodeError, json.JSONDecodeError):
                raise UnitDataError(_("The file is not JSON.")) from None
            units_ = read_file(campaign.module, payload, with_state=form.cleaned_data["with_state"])
            refused = sorted({u.side for u in units_ if not viewer.can_act_for_side(u.side)})
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
            return redirect(_units_url(campaign))
    return render(
        request,
        "campaigns/shortgames/units.html",
        _roster_context(viewer, upload_form=form),
        status=400,
    )


@require_GET
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


@require_http_methods(["GET", "POST"])
@login_required
def unit(request: HttpRequest, campaign_id: int, unit_id: int) -> HttpResponse:
    viewer = access.member(request, campaign_id, feature=short_games.is_short_game)
    campaign = viewer.campaign
    game_unit = get_object_or_404(GameUnit, campaign=campaign, pk=unit_id)
    states = _state_choices(campaign)
    if request.method == "POST":
        access.require_side_actor(viewer, game_unit.side, secret=False)
        form = UnitForm(request.POST, module=campaign.module, states=states)
        version = VersionForm(request.POST)
        if form.is_valid() and version.is_valid():
            fields = {
                k: v
                for k, v in vars(_unit_from_form(game_unit.side, form.cleaned_data)).items()
                if k in form.cleaned_data
            }
            try:
                short_games.change_unit(
                    campaign,
                    game_unit,
                    by=request.user,
                    version=version.cleaned_data["version"],
                    **fields,
                )
            except (UnitDataError, StateError) as error:
                form.add_error(None, str(error))
            else:
                messages.success(request, _("Unit saved."))
                return redirect(_units_url(campaign, game_unit.side))
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
    return redirect(_units_url(viewer.campaign, game_unit.side))


# --- points: replacement and air -----------------------------------------------------------


@dataclass
class SidePoints:
    side: str
    name: str
    can_edit: bool
    entries: list[PointEntry]
    replacement_left: int
    air_left: int
    replacements: Any  # the rules' Replacements (DR)
    air_due: int | None
    replacement_received: bool
    air_received: bool
    candidates: list[tuple[GameUnit, str, list[str]]]  # unit, action, refusals


def _points_context(viewer: Viewer) -> dict[str, Any]:
    campaign = viewer.campaign
    index = campaign.period_index
    is_dr = campaign.module == "defiant_russia"
    entries = list(PointEntry.objects.filter(campaign=campaign, index=index).select_related("unit"))
    units_ = list(GameUnit.objects.filter(campaign=campaign, state__in=("reduced", "eliminated")))
    data = short_games.game_data(campaign)
    sides = []
    for side in campaign.sides:
        mine = [e for e in entries if e.side == side.key]
        replacement_left = sum(e.amount for e in mine if e.kind == PointKind.REPLACEMENT)
        armor_units = sum(
            1
            for e in mine
            if e.action in ("restore", "rebuild")
            and e.unit is not None
            and e.unit.unit_type in turn_points.ARMOR_TYPES
        )
        candidates = []
        if is_dr:
            for unit_ in units_:
                if unit_.side != side.key:
                    continue
                action = "restore" if unit_.state == UnitState.REDUCED else "rebuild"
                refusals = [
                    f"{localized(r.text, get_language())} ({r.rule})"
                    for r in turn_points.replacement_refusals(
                        campaign,
                        unit_,
                        action,
                        index,
                        points_left=replacement_left,
                        armor_units=armor_units,
                    )
                ]
                candidates.append((unit_, action, refusals))
        sides.append(
            SidePoints(
                side=side.key,
                name=side.name.in_language(get_language()),
                can_edit=viewer.can_act_for_side(side.key),
                entries=mine,
                replacement_left=replacement_left,
                air_left=sum(e.amount for e in mine if e.kind == PointKind.AIR),
                replacements=turn_points.replacements_now(campaign, side.key) if is_dr else None,
                air_due=dr_air.air_points(short_games.turn_number(campaign), side.key, data)
                if is_dr
                else None,
                replacement_received=any(
                    e.kind == PointKind.REPLACEMENT and e.action == "received" for e in mine
                ),
                air_received=any(e.kind == PointKind.AIR and e.action == "received" for e in mine),
                candidates=candidates,
            )
        )
    return {"campaign": campaign, "viewer": viewer, "sides": sides, "is_dr": is_dr}


@require_GET
@login_required
def points(request: HttpRequest, campaign_id: int) -> HttpResponse:
    viewer = access.member(request, campaign_id, feature=short_games.is_short_game)
    return render(request, "campaigns/shortgames/points.html", _points_context(viewer))


def _points_url(campaign: Campaign, side: str = "") -> str:
    return reverse("shortgames:points", args=[campaign.pk]) + (f"#points-{side}" if side else "")


@require_POST
@login_required
def points_change(request: HttpRequest, campaign_id: int) -> HttpResponse:
    viewer = access.member(request, campaign_id, feature=short_games.is_short_game)
    campaign = viewer.campaign
    form = PointsForm(request.POST)
    if not _checked_turn(request, viewer, form):
        return redirect(_points_url(campaign))
    data = form.cleaned_data
    side = data["side"]
    access.require_side_actor(viewer, side, secret=False)
    try:
        if data["action"] == "receive":
            turn_points.receive_points(
                campaign, side=side, index=data["turn"], kind=data["kind"], by=request.user
            )
            messages.success(request, _("Points booked."))
        elif data["action"] in ("restore", "rebuild"):
            target = get_object_or_404(GameUnit, campaign=campaign, pk=data["unit"] or 0, side=side)
            where = turn_points.replace_unit(
                campaign,
                target,
                action=data["action"],
                index=data["turn"],
                version=int(request.POST.get("version", -1)),
                by=request.user,
            )
            messages.success(
                request,
                _("%(unit)s rebuilt at reduced strength; it appears in: %(where)s.")
                % {"unit": target.name, "where": ", ".join(where) or "—"}
                if data["action"] == "rebuild"
                else _("%(unit)s restored to full strength.") % {"unit": target.name},
            )
        elif data["action"] in ("used", "adjustment"):
            if data["action"] == "adjustment":
                access.require(viewer.can_overrule)
            amount = data["amount"] or 0
            turn_points.add_points(
                campaign,
                by=request.user,
                side=side,
                index=data["turn"],
                kind=data["kind"],
                action=data["action"],
                amount=-abs(amount) if data["action"] == "used" else amount,
                note=data["note"],
            )
            messages.success(request, _("Points booked."))
        else:
            raise Http404
    except (turn_steps.TurnError, StateError) as error:
        messages.error(request, str(error))
    return redirect(_points_url(campaign, side))


# --- places and victory ------------------------------------------------------------------

OUT_OF_PLAY = ("eliminated", "eliminated_oos", "removed")


def _victory_context(viewer: Viewer) -> dict[str, Any]:
    campaign = viewer.campaign
    game = short_games.setup_of(campaign)
    control = {p.key: p for p in ControlPoint.objects.filter(campaign=campaign)}
    places = []
    for place in short_games.places(campaign):
        point = control.get(place["id"])
        places.append(
            {
                "id": place["id"],
                "name": localized(place.get("name"), get_language())
                or place.get("hex")
                or place["id"],
                "hex": place.get("hex") or "",
                "point": point,
            }
        )
    data = short_games.game_data(campaign)
    context: dict[str, Any] = {
        "campaign": campaign,
        "viewer": viewer,
        "game": game,
        "places": places,
        "is_dr": campaign.module == "defiant_russia",
        "can_act": viewer.can_record,
    }
    units_ = list(GameUnit.objects.filter(campaign=campaign))
    if campaign.module == "defiant_russia":
        city_control = {key: p.controller for key, p in control.items() if p.controller}
        stalin = next((u for u in units_ if slugify(u.name) == "stalin"), None)
        # Every unit out of play counts, except Stalin, who scores on his own (AMB-15/16).
        removed = [
            dr_victory.RemovedUnit(u.side, dr_victory.casualty_category(turn_points.unit_facts(u)))
            for u in units_
            if u.state in OUT_OF_PLAY and slugify(u.name) != "stalin"
        ]
        context["status"] = dr_victory.victory_status(
            city_control,
            None if stalin is None else stalin.state in ("full", "reduced"),
            removed,
            data,
            turn=short_games.turn_number(campaign),
            turn_finished=False,
        )
        context["automatic"] = dr_victory.automatic_victory(city_control, data)
    else:
        manual = {
            c["id"]
            for c in short_games.victory_conditions(campaign)
            if short_games.is_manual_condition(c)
        }
        tally = cp_victory.cp_victory(campaign, game)
        ticked = game.victory if game else {}
        rows = [
            {
                "id": condition.id,
                "vp": condition.vp,
                "text": localized(condition.text, get_language()),
                "note": localized(condition.note, get_language()),
                "met": condition.met,
                "scored": condition.scored,
                "manual": condition.id in manual,
                "ticked": condition.id in ticked,
                "turn": ticked.get(condition.id),
            }
            for condition in tally.conditions
        ]
        total, level = tally.vp, localized(tally.level, get_language())
        context.update(
            {
                "conditions": rows,
                "vp_total": total,
                "vp_max": tally.max_vp,
                "vp_final": tally.final,
                "level": level,
                "german_units": [u for u in units_ if u.side == "german"],
                "pocket_members": [u for u in units_ if u.in_pocket],
                "pocket_turn": _period_label(campaign, game.pocket_formed_index),
                "divisions_used": sorted({u.formation for u in units_ if u.reconstituted}),
            }
        )
    return context


@require_GET
@login_required
def victory(request: HttpRequest, campaign_id: int) -> HttpResponse:
    viewer = access.member(request, campaign_id, feature=short_games.is_short_game)
    return render(request, "campaigns/shortgames/victory.html", _victory_context(viewer))


def _victory_url(campaign: Campaign, anchor: str = "") -> str:
    return reverse("shortgames:victory", args=[campaign.pk]) + (f"#{anchor}" if anchor else "")


@require_POST
@login_required
def control(request: HttpRequest, campaign_id: int) -> HttpResponse:
    viewer = access.recorder(request, campaign_id, feature=short_games.is_short_game)
    form = ControlForm(request.POST)
    if form.is_valid():
        data = form.cleaned_data
        try:
            short_games.set_control(
                viewer.campaign,
                by=request.user,
                key=data["key"],
                controller=data["controller"],
                cut_off=data["cut_off"],
                version=data["version"],
            )
        except StateError as error:
            messages.error(request, str(error))
        else:
            messages.success(request, _("Control recorded."))
    return redirect(_victory_url(viewer.campaign, "places"))


@require_POST
@login_required
def pocket(request: HttpRequest, campaign_id: int) -> HttpResponse:
    viewer = access.recorder(request, campaign_id, feature=short_games.is_short_game)
    form = VersionForm(request.POST)
    if form.is_valid():
        members = [int(v) for v in request.POST.getlist("members") if v.isdigit()]
        try:
            short_games.set_pocket(
                viewer.campaign,
                by=request.user,
                formed=request.POST.get("formed") == "1",
                members=members,
                version=form.cleaned_data["version"],
            )
        except StateError as error:
            messages.error(request, str(error))
        else:
            messages.success(request, _("The pocket is recorded."))
    return redirect(_victory_url(viewer.campaign, "pocket"))


@require_POST
@login_required
def condition(request: HttpRequest, campaign_id: int) -> HttpResponse:
    viewer = access.recorder(request, campaign_id, feature=short_games.is_short_game)
    form = VersionForm(request.POST)
    if form.is_valid():
        try:
            short_games.set_victory_condition(
                viewer.campaign,
                by=request.user,
                condition=request.POST.get("condition", ""),
                met=request.POST.get("met") == "1",
                version=form.cleaned_data["version"],
            )
        except StateError as error:
            messages.error(request, str(error))
        else:
            messages.success(request, _("Victory condition recorded."))
    return redirect(_victory_url(viewer.campaign, "vp"))


# --- referee tables (Cherkassy Pocket) ---------------------------------------------------------


@require_http_methods(["GET", "POST"])
@login_required
def tables(request: HttpRequest, campaign_id: int) -> HttpResponse:
    viewer = access.member(request, campaign_id, feature=short_games.is_short_game)
    campaign = viewer.campaign
    if campaign.module != "cherkassy_pocket":
        raise Http404
    rows = {row.slot: row for row in RefereeTable.objects.filter(campaign=campaign)}
    errors: dict[str, str] = {}
    typed: dict[str, str] = {}
    if request.method == "POST":
        access.require(viewer.can_overrule)
        form = RefereeTableForm(request.POST)
        if form.is_valid():
            slot = form.cleaned_data["slot"]
            try:
                data = json.loads(form.cleaned_data["data"])
            except json.JSONDecodeError as error:
                errors[slot] = _("Not JSON: %(error)s") % {"error": error.msg}
                typed[slot] = form.cleaned_data["data"]
            else:
                try:
                    short_games.save_referee_table(
                        campaign,
                        by=request.user,
                        slot_id=slot,
                        data=data,
                        version=form.cleaned_data["version"],
                    )
                except StateError as error:
                    errors[slot] = str(error)
                    typed[slot] = form.cleaned_data["data"]
                else:
                    messages.success(request, _("Table saved."))
                    return redirect(reverse("shortgames:tables", args=[campaign.pk]) + f"#{slot}")
    slots = []
    for slot in short_games.referee_slots(campaign):
        row = rows.get(slot["id"])
        slots.append(
            {
                "slot": slot,
                "name": localized(slot.get("name"), get_language()),
                "shape": localized(slot.get("shape"), get_language()),
                "known": [
                    localized(item.get("text"), get_language())
                    for item in slot.get("what_is_known", [])
                ],
                "row": row,
                "text": typed.get(slot["id"])
                or (json.dumps(row.data, ensure_ascii=False, indent=1) if row else ""),
                "error": errors.get(slot["id"], ""),
            }
        )
    return render(
        request,
        "campaigns/shortgames/tables.html",
        {"campaign": campaign, "viewer": viewer, "slots": slots},
        status=400 if errors else 200,
    )


# --- the combat dice helper (Defiant Russia) ---------------------------------------------------

_UNIT_FLAGS = {
    "a": "armor",
    "m": "mountain",
    "o": "out_of_supply",
    "r": "river",
    "k": "kerch_strait",
}
TERRAIN = ("clear", "rough", "forest", "swamp", "city", "major_city", "fortress")
LEADERS = ("guderian", "stalin", "zhukov")


def parse_combat_units(text: str, nationality: str) -> list[Any]:
    """ "6a, 4m, 3o" → units: a = armor, m = mountain, o = out of supply, r / k = attacking
    across a river / the Kerch Strait."""
    units_ = []
    for part in text.replace("、", ",").split(","):
        part = part.strip().lower()
        if not part:
            continue
        match = re.fullmatch(r"(\d{1,2})([amork]*)", part)
        if not match:
            raise ValueError(part)
        flags = {_UNIT_FLAGS[f] for f in match.group(2)}
        across = (
            "river" if "river" in flags else "kerch_strait" if "kerch_strait" in flags else None
        )
        units_.append(
            dr_combat.CombatUnit(
                strength=int(match.group(1)),
                armor="armor" in flags,
                nationality=nationality,
                mountain="mountain" in flags,
                across=across,
                out_of_supply="out_of_supply" in flags,
            )
        )
    if not units_ or len(units_) > 12:
        raise ValueError(text)
    return units_


@require_http_methods(["GET", "POST"])
@login_required
def combat(request: HttpRequest, campaign_id: int) -> HttpResponse:
    """How many dice a side rolls in a combat and which faces hit (DR 7.11, 9.0), then the roll
    (one logged die per strength point)."""
    viewer = access.member(request, campaign_id, feature=short_games.is_short_game)
    campaign = viewer.campaign
    if campaign.module == "cherkassy_pocket":
        return _cp_combat(request, viewer)
    if campaign.module != "defiant_russia":
        raise Http404
    game = short_games.setup_of(campaign)
    day = turn_steps.current_day(campaign)
    weather = turn_steps.weather_now(campaign, day, game) or "clear"
    snow_turns = {
        short_games.turn_number(campaign, d.index): d.weather
        for d in CampaignDay.objects.filter(campaign=campaign, index__lte=campaign.period_index)
        if d.weather
    }
    first_snow = dr_weather.first_snow_turn(snow_turns) == short_games.turn_number(campaign)
    values = request.POST if request.method == "POST" else request.GET
    result: dict[str, Any] = {}
    error = ""
    if values.get("units"):
        side = values.get("side", "")
        role = values.get("role", "attacker")
        if side not in campaign.game.side_keys or role not in ("attacker", "defender"):
            raise Http404
        terrain = [t for t in values.getlist("terrain") if t in TERRAIN]
        leaders = [leader for leader in values.getlist("leaders") if leader in LEADERS]
        try:
            air = max(0, min(3, int(values.get("air_points") or 0)))
            combat_units = parse_combat_units(values["units"], values.get("nationality", ""))
            answer = dr_combat.combat_dice(
                combat_units,
                role=role,
                side=side,
                weather=weather,
                tables=campaign.game.files["tables"],
                terrain=terrain,
                leaders=leaders,
                air_points=air,
                breakthrough=values.get("breakthrough") == "1",
                first_snow_turn=first_snow,
            )
        except ValueError:
            error = _(
                "Write each unit's strength, with a for armor, m for mountain, o for out of "
                "supply, r or k when attacking across a river or the Kerch Strait (e.g. “6a, 3”)."
            )
        else:
            result = {
                "answer": answer,
                "lines": [
                    (line.rule, localized(line.text, get_language()), line.dice_after)
                    for line in answer.lines
                ],
            }
            if request.method == "POST":
                access.require(viewer.can_act_for_side(side))
                rolled = combat_rolls.roll_combat(
                    campaign,
                    side=side,
                    dice_count=answer.dice,
                    fleet_dice=answer.fleet_dice,
                    hit_on=answer.hit_on,
                    by=request.user,
                    note=values.get("note", ""),
                    token=values.get("token", ""),
                )
                result.update(rolled)
    return render(
        request,
        "campaigns/shortgames/combat.html",
        {
            "campaign": campaign,
            "viewer": viewer,
            "weather": weather,
            "first_snow": first_snow,
            "terrain": TERRAIN,
            "leaders": LEADERS,
            "values": values,
            "chosen_terrain": [t for t in values.getlist("terrain") if t in TERRAIN],
            "chosen_leaders": [x for x in values.getlist("leaders") if x in LEADERS],
            "result": result,
            "error": error,
            "can_roll": any(viewer.can_act_for_side(s) for s in campaign.game.side_keys),
            "token": secrets.token_hex(8),
        },
        status=400 if error else 200,
    )


# --- the combat helper (Cherkassy Pocket) ------------------------------------------------------

_CP_LINE = re.compile(r"^(\d{1,2})-(\d{1,2})(?:-(\d{1,2}))?$")


def cp_attack_defense(unit: GameUnit) -> tuple[int, int] | None:
    """The attack and defence the counter shows now: "6-8-12" (attack-defence-movement) on
    its full or reduced side; a two-number line gives its first number to both."""
    line = unit.reduced if unit.state == UnitState.REDUCED and unit.reduced else unit.full
    match = _CP_LINE.match(line or "")
    if not match:
        return None
    if match.group(3) is None:
        return int(match.group(1)), int(match.group(1))
    return int(match.group(1)), int(match.group(2))


def _typed_strength(value: str) -> int:
    value = (value or "").strip()
    if not value:
        return 0
    number = int(value)  # ValueError: the page says how to write it
    if not 0 <= number <= 200:
        raise ValueError(value)
    return number


def _cp_combat(request: HttpRequest, viewer: Viewer) -> HttpResponse:
    """The odds of a Cherkassy combat (11.6), the column after the shifts (11.8, 11.9), then
    one logged die read on the referee's CRT — no roll while the CRT (or the TEC for a terrain
    shift) is missing, with the reason."""
    campaign = viewer.campaign
    values = request.POST if request.method == "POST" else request.GET
    units = [
        unit
        for unit in GameUnit.objects.filter(
            campaign=campaign, state__in=(UnitState.FULL, UnitState.REDUCED)
        ).order_by("side", "name")
    ]
    strengths = {unit.pk: cp_attack_defense(unit) for unit in units}
    chart = next(
        c for c in campaign.game.files["tables"]["charts"] if c["id"] == "cp.column-shifts"
    )
    shift_rows = [
        (row["id"], row["rule"], localized(row["when"], get_language())) for row in chart["rows"]
    ]
    referee = short_games.referee_tables(campaign)
    terrains = sorted(cp_combat.terrain_shifts(referee, short_games.game_data(campaign)))
    side = values.get("side") or campaign.game.side_keys[0]
    if side not in campaign.game.side_keys:
        raise Http404
    chosen = {
        "attackers": _chosen_ids(values.getlist("attackers")),
        "defenders": _chosen_ids(values.getlist("defenders")),
        "shifts": [s for s in values.getlist("shifts") if s in {row[0] for row in shift_rows}],
    }
    combat_answer, rolled, error = None, None, ""
    if "count" in values or request.method == "POST":
        try:
            attack = _typed_strength(values.get("attack", "")) + sum(
                strengths[pk][0] for pk in chosen["attackers"] if strengths.get(pk)
            )
            defense = _typed_strength(values.get("defense", "")) + sum(
                strengths[pk][1] for pk in chosen["defenders"] if strengths.get(pk)
            )
            combat_answer = combat_rolls.cp_combat(
                campaign,
                attack=attack,
                defense=defense,
                shifts=chosen["shifts"],
                terrain=values.get("terrain", ""),
            )
        except ValueError:
            error = _(
                "Choose the units or write the attack and defence strengths (whole numbers); "
                "both must be more than 0."
            )
    if request.method == "POST" and combat_answer is not None:
        access.require(viewer.can_act_for_side(side))
        try:
            index = int(values.get("turn", ""))
            rolled = combat_rolls.roll_cp_combat(
                campaign,
                combat_answer,
                index=index,
                side=side,
                by=request.user,
                token=values.get("token", ""),
                note=values.get("note", "")[:100],
            )
        except (ValueError, turn_steps.TurnError) as failure:
            error = str(failure) if isinstance(failure, turn_steps.TurnError) else _stale()
    return render(
        request,
        "campaigns/shortgames/cp_combat.html",
        {
            "campaign": campaign,
            "viewer": viewer,
            "side": side,
            "units": [(unit, strengths[unit.pk]) for unit in units],
            "chosen": chosen,
            "shift_rows": shift_rows,
            "terrains": terrains,
            "values": values,
            "combat": combat_answer,
            "blocked": [localized(reason, get_language()) for reason in combat_answer.blocked]
            if combat_answer
            else [],
            "rolled": rolled,
            "error": error,
            "token": secrets.token_hex(8),
            "can_roll": viewer.can_act_for_side(side),
        },
        status=400 if error else 200,
    )


def _chosen_ids(raw: list[str]) -> list[int]:
    return [int(value) for value in raw if value.isdigit()][:30]


def _period_label(campaign: Campaign, index: int | None) -> str:
    """The turn's label ("Turn 5: 28 January") in the reader's language, or ""."""
    periods = campaign.cg.periods
    if index is None or not 0 <= index < len(periods):
        return ""
    return periods[index].label.in_language(get_language())
