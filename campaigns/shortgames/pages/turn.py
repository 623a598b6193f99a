"""The turn walker's page: the turn's steps with their marks, rolls and tables, its weather and
limits, and whether the turn marker may move on."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import get_language
from django.utils.translation import gettext as _

from campaigns.access import Viewer
from campaigns.games.registry import localized
from campaigns.models import Campaign, CampaignDay, DiceRoll, GameUnit, ShortGame
from campaigns.shortgames import (
    cp_combat_record,
    cp_segments,
    segment_record_dr,
    turn_points,
    turn_rolls,
    turn_steps,
)
from campaigns.shortgames import services as short_games
from campaigns.shortgames.rules.cherkassy import referee as cp_referee
from campaigns.shortgames.rules.cherkassy import turn_sequence as cp_sequence
from campaigns.shortgames.rules.defiant_russia import limits as dr_limits
from campaigns.shortgames.turn_rolls import FLEET_RAID, FLEET_TYPE

# Cherkassy's tank breakdown table is rolled for one of these Soviet units.
TANK_BREAKDOWN_TYPES = ("tank", "mech_infantry")


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
    fleets: list[GameUnit] = field(default_factory=list)  # DR 11.52: the fleets to raid
    order_sides: list[str] = field(default_factory=list)  # CP 5.4: who declares its order here


@dataclass
class TurnPage:
    game: ShortGame | None
    day: CampaignDay
    weather: str | None
    weather_name: str
    weather_reason: str
    weather_choices: list[tuple[str, str]]
    rows: list[StepRow]
    complete: bool
    last_turn: bool
    limits: list[SideLimits]
    can_act: bool
    options: list[tuple[dict[str, Any], bool]]  # each optional rule, and whether it is chosen
    option_names: list[tuple[str, str]]  # the start form's choices
    chosen_options: list[str]
    missing: list[Any]
    turn_number: int
    side_names: dict[str, str]
    table_names: dict[str, str]  # a dice table's id → its name in the reader's language
    order_names: dict[str, str] = field(default_factory=dict)  # CP 5.4's orders in words
    segment_orders: list[Any] = field(default_factory=list)  # CP: the orders declared this turn
    fronts: list[Any] = field(default_factory=list)  # CP 11.16: each Soviet Front's air points
    air_now: str = ""  # CP 11.16: the Soviet air points spendable now, and why (per segment)
    # Defiant Russia: the phases' choices and the combats in the order rolled (segment_record_dr)
    record: list[segment_record_dr.RecordLine] = field(default_factory=list)
    # Cherkassy Pocket: the turn's combats in the order rolled, with the map's facts declared
    cp_combats: list[cp_combat_record.CombatLine] = field(default_factory=list)


def weather_names(campaign: Campaign) -> dict[str, str]:
    """The game's weathers by key, named in the reader's language."""
    types = short_games.game_data(campaign)["weather"]["types"]
    return {item["key"]: localized(item.get("name"), get_language()) for item in types}


def table_names(campaign: Campaign) -> dict[str, str]:
    """The game's dice tables by id, named in the reader's language (never the raw id)."""
    tables = (campaign.game.files.get("tables") or {}).get("dice_tables", [])
    return {
        table["id"]: localized(table.get("name"), get_language()) or table["id"]
        for table in tables
        if isinstance(table, dict) and "id" in table
    }


def side_names(campaign: Campaign) -> dict[str, str]:
    return {side.key: side.name.in_language(get_language()) for side in campaign.sides}


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


def _missing(campaign: Campaign) -> list[Any]:
    if campaign.module != "cherkassy_pocket":
        return []
    return cp_referee.missing_rolls(
        short_games.referee_tables(campaign), short_games.game_data(campaign)
    )


def _fleets(campaign: Campaign) -> list[GameUnit]:
    """DR 11.52: the fleets on the map (full or reduced) an Axis air point may raid."""
    return list(
        GameUnit.objects.filter(
            campaign=campaign, unit_type=FLEET_TYPE, state__in=("full", "reduced")
        ).order_by("name")
    )


def _tank_units(campaign: Campaign) -> list[GameUnit]:
    if campaign.module != "cherkassy_pocket":
        return []
    return [
        unit
        for unit in GameUnit.objects.filter(
            campaign=campaign, side="soviet", state__in=("full", "reduced")
        )
        if unit.unit_type in TANK_BREAKDOWN_TYPES
    ]


def _tables(
    campaign: Campaign,
    step: turn_steps.TurnStep,
    sides: list[str],
    day: CampaignDay,
    weather_answer: Any,
) -> list[dict[str, Any]]:
    """The tables a current step rolls, for the sides this viewer may roll for."""
    tables = [
        {
            "id": offer.table_id,
            "name": localized(offer.name, get_language()) or offer.table_id,
            "applies": offer.applies,
            "reason": localized(offer.reason, get_language()),
            "sides": sides,
            "owner": turn_rolls.AIR_TABLES.get(offer.table_id, ""),
        }
        for offer in step.tables
    ]
    if step.id == "weather" and campaign.module == "cherkassy_pocket":
        tables.append(
            {
                "id": "cp.weather-table",
                "name": _("Weather table"),
                "applies": getattr(weather_answer, "mode", "") == "table"
                and turn_steps.recorded_weather(campaign, day) is None,
                "reason": localized(getattr(weather_answer, "reason", ""), get_language()),
                "sides": sides,
            }
        )
    return tables


def turn_page(viewer: Viewer) -> TurnPage:
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
    tank_units = _tank_units(campaign)
    editable = [side for side in campaign.game.side_keys if viewer.can_act_for_side(side)]
    rows = []
    is_cp = campaign.module == "cherkassy_pocket"
    for step in steps:
        needed = step.sides_to_mark or campaign.game.side_keys
        current = step.status == "current"
        tables = (
            _tables(campaign, step, [s for s in needed if s in editable], day, weather_answer)
            if current
            else []
        )
        rows.append(
            StepRow(
                step=step,
                name=localized(step.name, get_language()),
                reason=localized(step.reason, get_language()),
                applies_text=localized(step.applies_text, get_language()),
                can_mark=[s for s in needed if s in editable and s not in step.marks]
                if current
                else [],
                can_unmark=[s for s in step.marks if s in editable],
                rolls=[roll for roll in rolls if roll.sequence_step == step.id],
                tables=tables,
                tank_units=tank_units
                if any(t["id"] == "cp.tank-breakdown" for t in tables)
                else [],
                fleets=_fleets(campaign) if any(t["id"] == FLEET_RAID for t in tables) else [],
                order_sides=[
                    side
                    for side in needed
                    if is_cp and current and cp_sequence.order_needed(step.id, side, steps)
                ],
            )
        )
    weathers = weather_names(campaign)
    choices = short_games.option_choices(campaign)
    chosen = game.options if game else []
    return TurnPage(
        game=game,
        day=day,
        weather=weather,
        weather_name=weathers.get(weather or "", weather or ""),
        weather_reason=localized(getattr(weather_answer, "reason", ""), get_language()),
        weather_choices=list(weathers.items()),
        rows=rows,
        complete=game is not None and turn_steps.turn_complete(steps),
        last_turn=turn_steps.is_last_turn(campaign),
        limits=_limits(campaign, weather, game),
        can_act=bool(editable),
        options=[(option, option["id"] in chosen) for option in choices],
        option_names=[(o["id"], localized(o["name"], get_language())) for o in choices],
        chosen_options=chosen,
        missing=_missing(campaign),
        turn_number=short_games.turn_number(campaign),
        side_names=side_names(campaign),
        table_names=table_names(campaign),
        order_names={
            key: words.in_language(get_language()) for key, words in cp_sequence.ORDERS.items()
        },
        segment_orders=cp_segments.segment_orders(campaign, campaign.period_index, marks)
        if is_cp
        else [],
        fronts=turn_points.front_points(campaign, campaign.period_index) if is_cp else [],
        air_now=turn_points.air_now(campaign, "soviet").words() if is_cp else "",
        cp_combats=cp_combat_record.turn_combats(campaign, campaign.period_index) if is_cp else [],
        record=segment_record_dr.turn_record(campaign, campaign.period_index, side_names(campaign))
        if campaign.module == "defiant_russia"
        else [],
    )
