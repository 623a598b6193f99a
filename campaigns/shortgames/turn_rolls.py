"""Rolling the tables of the turn's steps through the one dice service
(campaigns.dice.services), and booking what the app keeps of a result: the turn's weather, a
side's Cherkassy Pocket air points, a Soviet tank's breakdown."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction
from django.db.models import Sum
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from campaigns.access import PUBLIC
from campaigns.dice import services as dice
from campaigns.games.dice_tables import DiceTable, parse_table
from campaigns.games.registry import GameDataError, localized
from campaigns.models import (
    Campaign,
    CampaignDay,
    DiceRoll,
    GameUnit,
    PointEntry,
    PointKind,
    ShortGame,
    UnitState,
)
from campaigns.records import services as records
from campaigns.shortgames import services as short_games
from campaigns.shortgames.arrivals import roster_key
from campaigns.shortgames.rules.cherkassy import air as cp_air
from campaigns.shortgames.rules.cherkassy import breakdown as cp_breakdown
from campaigns.shortgames.rules.defiant_russia import air as dr_air
from campaigns.shortgames.rules.defiant_russia import events as dr_events
from campaigns.shortgames.rules.defiant_russia import reinforcements as dr_reinforcements
from campaigns.shortgames.turn_points import add_points, receive_air
from campaigns.shortgames.turn_steps import (
    TableOffer,
    TurnError,
    TurnStep,
    current_day,
    is_weather_step,
    locked_campaign,
    marks_of,
    reader_language,
    recorded_weather,
    turn_steps,
    weather_now,
)
from campaigns.shortgames.units import is_hex

WEATHER_TABLES = {
    "dr.weather-august",
    "dr.weather-september-october",
    "dr.weather-november",
    "cp.weather-table",
}
# Rolled once per turn (per step: each activation segment rolls its own air points).
ONCE_PER_STEP = WEATHER_TABLES | {
    "dr.partisans",
    "cp.air-points-german",
    "cp.air-points-soviet",
    "cp.pz24-arrival",
}
ONCE_PER_GAME = {"cp.pz24-arrival", "dr.airborne-drop"}
AIR_TABLES = {"cp.air-points-german": "german", "cp.air-points-soviet": "soviet"}


def table_for(campaign: Campaign, table_id: str) -> DiceTable:
    """A module table, or a table the referee supplied for this game (Cherkassy Pocket)."""
    try:
        return campaign.game.dice_table(table_id)
    except KeyError:
        pass
    data = short_games.referee_tables(campaign).get(table_id)
    if data is None:
        raise TurnError(
            _(
                "%(table)s cannot be rolled: the rules we have do not print it and the "
                "referee has not entered it yet."
            )
            % {"table": table_id}
        )
    try:
        # Logged under the slot's id, whatever the referee called the table.
        return parse_table({**data, "id": table_id} if isinstance(data, dict) else data, table_id)
    except GameDataError as error:
        raise TurnError(str(error)) from None


def rolls_of_step(campaign: Campaign, index: int, step_id: str) -> list[DiceRoll]:
    return list(
        DiceRoll.objects.filter(campaign=campaign, index=index, sequence_step=step_id).order_by(
            "id"
        )
    )


@transaction.atomic
def roll_table(
    campaign: Campaign,
    *,
    index: int,
    side: str,
    step_id: str,
    table_id: str,
    by: AbstractBaseUser,
    note: str = "",
    unit: GameUnit | None = None,
    distance: int | None = None,
) -> DiceRoll:
    """Roll one of the step's tables (through campaigns.dice.services) and book what the app keeps
    of the
    result: the turn's weather, a side's air points, a Soviet tank's breakdown, an air raid on
    a fleet (DR 11.52: the fleet ``unit`` and the declared ``distance`` of the nearest Axis
    unit; one Axis air point spent in the same action, its hit booked on the fleet)."""
    campaign = locked_campaign(campaign, index)
    game = short_games.setup_of(campaign)
    if game is None:
        raise TurnError(_("Start the game first: choose the optional rules."))
    day = current_day(campaign)
    steps = turn_steps(campaign, game, weather_now(campaign, day, game), marks_of(campaign))
    step = next((s for s in steps if s.id == step_id), None)
    if step is None or not step.applies:
        raise TurnError(_("That step does not take place this turn."))
    if step.side and step.side != side:
        raise TurnError(_("This step belongs to the other side."))
    offer = next((t for t in step.tables if t.table_id == table_id), None)
    if table_id == "cp.weather-table" and is_weather_step(step):
        offer = TableOffer(table_id, None, True, None)
    if offer is None:
        raise TurnError(_("That table is not rolled in this step."))
    if not offer.applies:
        reason = offer.reason.in_language(reader_language()) if offer.reason else ""
        raise TurnError(_("That table is not rolled now. %(reason)s") % {"reason": reason})
    if table_id in AIR_TABLES and AIR_TABLES[table_id] != side:
        raise TurnError(_("Each side rolls its own air points."))
    table = table_for(campaign, table_id)
    live = DiceRoll.objects.filter(campaign=campaign, table_id=table_id, voided_at__isnull=True)
    if table_id in ONCE_PER_GAME and live.exists():
        raise TurnError(_("This table is rolled once per game; it has been rolled."))
    if table_id in AIR_TABLES:
        live = live.filter(side=side)
    if table_id in ONCE_PER_STEP and any(
        r.voided_at is None
        for r in rolls_of_step(campaign, index, step_id)
        if r.table_id == table_id
    ):
        raise TurnError(
            _("This table has been rolled in this step; a referee may void the roll first.")
        )
    if table_id in WEATHER_TABLES and recorded_weather(campaign, day) is not None:
        raise TurnError(_("The turn's weather is already recorded."))
    if table_id == "cp.tank-breakdown" and (unit is None or unit.campaign_id != campaign.pk):
        raise TurnError(_("Choose the Soviet tank unit that moved."))
    if table_id == FLEET_RAID:
        _spend_on_fleet(campaign, side=side, index=index, unit=unit, distance=distance, by=by)
    dice_roll = dice.roll(
        campaign,
        by=by,
        kind=table.roll if table.roll in dice.DICE else "dr",
        step=step.rule[:20],
        index=index,
        side=side,
        visibility=PUBLIC,
        table=table,
        note=(unit.name if unit is not None else note).strip()[:200],
        sequence_step=step_id,
    )
    _book(campaign, game, day, dice_roll, side=side, step=step, by=by, unit=unit)
    return dice_roll


def _book(
    campaign: Campaign,
    game: ShortGame,
    day: CampaignDay,
    dice_roll: DiceRoll,
    *,
    side: str,
    step: TurnStep,
    by: AbstractBaseUser,
    unit: GameUnit | None,
) -> None:
    result = dice_roll.result if isinstance(dice_roll.result, dict) else {}
    if dice_roll.table_id in WEATHER_TABLES and result.get("weather"):
        records.update_day(campaign, day, by=by, version=day.version, weather=result["weather"])
    elif dice_roll.table_id in AIR_TABLES:
        points = cp_air.air_points_from_roll(AIR_TABLES[dice_roll.table_id], dice_roll.final)
        receive_air(
            campaign,
            by=by,
            side=AIR_TABLES[dice_roll.table_id],
            index=dice_roll.index,
            amount=points,
            note=_("%(step)s: rolled %(roll)s")
            % {"step": localized(step.name, get_language()) or step.id, "roll": dice_roll.final},
            segment=step.segment,
        )
    elif dice_roll.table_id == "cp.tank-breakdown" and unit is not None:
        outcome = cp_breakdown.breakdown_result(
            dice_roll.final, unit.state == UnitState.FULL, unit.msl
        )
        if outcome.step_lost:
            changes: dict[str, Any] = {}
            if unit.state == UnitState.FULL:
                changes = {"state": UnitState.REDUCED, "msl": True}
            else:
                box = {"recovery_1": UnitState.RECOVERY_1, "recovery_2": UnitState.RECOVERY_2}
                changes = {"state": box.get(str(outcome.to_box), UnitState.ELIMINATED), "hex": ""}
            short_games.change_unit(campaign, unit, by=by, version=unit.version, **changes)
    elif dice_roll.table_id == FLEET_RAID and unit is not None:
        _book_fleet_raid(campaign, unit, dice_roll, by=by)
    elif dice_roll.table_id == "dr.airborne-drop":
        _book_airborne_drop(campaign, dice_roll, result, by=by)


FLEET_RAID = "dr.fleet-air-raid"
FLEET_TYPE = "fleet"


def fleet_raid_points(campaign: Campaign, index: int, fleet: GameUnit) -> int:
    """The Axis air points spent on ``fleet`` on turn ``index`` (11.52's 3 per fleet per turn)."""
    spent = PointEntry.objects.filter(
        campaign=campaign,
        index=index,
        side="axis",
        kind=PointKind.AIR,
        action=PointEntry.Action.USED,
        unit=fleet,
        note__startswith="11.52",
    ).aggregate(total=Sum("amount"))["total"]
    return -(spent or 0)


def _spend_on_fleet(
    campaign: Campaign,
    *,
    side: str,
    index: int,
    unit: GameUnit | None,
    distance: int | None,
    by: AbstractBaseUser,
) -> None:
    """DR 11.52: judge the raid (the fleet on the map, the nearest Axis unit's declared
    distance, 3 points per fleet per turn) and spend its one Axis air point, in the roll's
    action (a ``used`` entry on the fleet, taken back from the history like any points)."""
    if (
        unit is None
        or unit.campaign_id != campaign.pk
        or unit.unit_type != FLEET_TYPE
        or unit.state not in (UnitState.FULL, UnitState.REDUCED)
    ):
        raise TurnError(_("Choose the fleet on the map that the air point attacks (11.52)."))
    refusals = dr_air.fleet_raid_refusals(
        side, distance, fleet_raid_points(campaign, index, unit), short_games.game_data(campaign)
    )
    if refusals:
        raise TurnError(refusals[0].in_language(reader_language()))
    add_points(
        campaign,
        by=by,
        side=side,
        index=index,
        kind=PointKind.AIR,
        action=PointEntry.Action.USED,
        amount=-1,
        unit=unit,
        note=f"11.52 · {unit.name} · {distance}",
    )


def _book_fleet_raid(
    campaign: Campaign, unit: GameUnit, dice_roll: DiceRoll, *, by: AbstractBaseUser
) -> None:
    """11.52: a 5 or 6 reduces the fleet, or removes it when reduced already or without a
    reduced side (one step)."""
    unit.refresh_from_db()
    outcome = dr_air.fleet_raid_result(
        dice_roll.final in (5, 6), unit.state == UnitState.FULL, unit.steps >= 2
    )
    if outcome == "reduced":
        short_games.change_unit(
            campaign, unit, by=by, version=unit.version, state=UnitState.REDUCED
        )
    elif outcome == "eliminated":
        short_games.change_unit(
            campaign, unit, by=by, version=unit.version, state=UnitState.ELIMINATED, hex=""
        )


def _book_airborne_drop(
    campaign: Campaign, dice_roll: DiceRoll, result: dict[str, Any], *, by: AbstractBaseUser
) -> None:
    """11.3: the drop's result on the Soviet airborne unit on the map (the roster's unit of
    type airborne, 10.2), placed in the hex typed with the roll if one was."""
    data = short_games.game_data(campaign)
    unit = next(
        (
            u
            for u in GameUnit.objects.filter(
                campaign=campaign,
                side="soviet",
                state__in=(UnitState.FULL, UnitState.REDUCED),
            ).order_by("id")
            if dr_reinforcements.named_unit_id(roster_key(u.name), u.unit_type, u.side, data)
            == "soviet_airborne"
        ),
        None,
    )
    if unit is None:
        return
    changes: dict[str, Any] = {}
    if is_hex(dice_roll.note):
        changes["hex"] = dice_roll.note.strip()
    state = dr_events.airborne_drop_state(str(result.get("effect", "none")), unit.state)
    if state != unit.state:
        changes["state"] = state
    if state == UnitState.ELIMINATED:
        changes["hex"] = ""
    if changes:
        short_games.change_unit(campaign, unit, by=by, version=unit.version, **changes)
