"""The short games' turn: its steps on the same step engine as the Refit Phase walker, each side's
marks, the turn's weather, the rolls of the game's tables through the one dice service, and the
replacement and air points of the turn.

Which steps take place this turn and why the others are skipped comes from the pure rules
(campaigns.shortgames.rules.defiant_russia / cherkassy); the step texts come from
``turn_sequence.json`` read by
campaigns.games.steps. A step belongs to one side (its player or the referee marks it) or, with no
side, to
both (each side marks it). Steps are walked in order: a step can be marked once every earlier step
that takes place is marked. The turn advances when every step that takes place is marked.

Nothing in these games is hidden (the map is open): every mark, roll and point is public.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction
from django.db.models import Sum
from django.utils.text import slugify
from django.utils.translation import gettext as _

from campaigns import state
from campaigns.access import PUBLIC
from campaigns.dice import services as dice
from campaigns.games import steps as engine
from campaigns.games.dice_tables import DiceTable, parse_table
from campaigns.games.registry import GameDataError, LocalizedText
from campaigns.history import services as history
from campaigns.models import (
    Campaign,
    CampaignDay,
    CampaignEvent,
    ControlPoint,
    DiceRoll,
    GameUnit,
    PointEntry,
    PointKind,
    ShortGame,
    TurnMark,
    UnitState,
)
from campaigns.records import services as records
from campaigns.shortgames import services as short_games
from campaigns.shortgames.rules.cherkassy import air as cp_air
from campaigns.shortgames.rules.cherkassy import breakdown as cp_breakdown
from campaigns.shortgames.rules.cherkassy import combat as cp_combat_rules
from campaigns.shortgames.rules.cherkassy import data as cp_data
from campaigns.shortgames.rules.cherkassy import losses as cp_losses
from campaigns.shortgames.rules.cherkassy import referee as cp_referee
from campaigns.shortgames.rules.cherkassy import reinforcements as cp_reinforcements
from campaigns.shortgames.rules.cherkassy import turn_sequence as cp_turn_sequence
from campaigns.shortgames.rules.cherkassy import victory as cp_victory_rules
from campaigns.shortgames.rules.cherkassy import weather as cp_weather
from campaigns.shortgames.rules.common import count_hits
from campaigns.shortgames.rules.defiant_russia import air as dr_air
from campaigns.shortgames.rules.defiant_russia import phases as dr_phases
from campaigns.shortgames.rules.defiant_russia import reinforcements as dr_reinforcements
from campaigns.shortgames.rules.defiant_russia import replacements as dr_replacements
from campaigns.shortgames.rules.defiant_russia import weather as dr_weather
from campaigns.state import StateError


class TurnError(ValueError):
    """A step cannot be marked, a roll not made, a turn not advanced (message for the user)."""


@dataclass(frozen=True)
class TableOffer:
    table_id: str
    name: LocalizedText | None
    applies: bool
    reason: LocalizedText | None


@dataclass
class TurnStep:
    """One step of this turn as the walker shows it."""

    id: str
    rule: str
    name: Mapping[str, str]
    applies_text: Any
    side: str | None  # None: every side marks it
    applies: bool
    limited: bool
    reason: LocalizedText | None
    tables: list[TableOffer]
    referee_slots: tuple[str, ...]
    segment: int | None
    marks: dict[str, TurnMark] = field(default_factory=dict)
    status: str = "todo"  # skipped (does not take place), done, current, todo

    @property
    def sides_to_mark(self) -> tuple[str, ...]:
        return (self.side,) if self.side else ()

    @property
    def html_id(self) -> str:
        return "step-" + self.id.replace(".", "-")


# --- the turn's facts -----------------------------------------------------------------------


def current_day(campaign: Campaign) -> CampaignDay:
    return CampaignDay.objects.get(campaign=campaign, index=campaign.period_index)


def options_of(game: ShortGame | None) -> tuple[str, ...]:
    return tuple(game.options) if game is not None else ()


def derived_weather(campaign: Campaign, game: ShortGame | None) -> tuple[str | None, Any]:
    """The turn's weather when no roll is needed (historical, fixed by the rules or the
    scenario), and the rules' answer (mode, table, reason)."""
    turn = short_games.turn_number(campaign)
    data = short_games.game_data(campaign)
    if campaign.module == "defiant_russia":
        answer = dr_weather.weather_table(turn, options_of(game), data)
    else:
        answer = cp_weather.weather_roll(
            turn, campaign.campaign_game, short_games.referee_tables(campaign), data
        )
    return getattr(answer, "weather", None), answer


def weather_now(campaign: Campaign, day: CampaignDay, game: ShortGame | None) -> str | None:
    """The weather recorded for the turn, else the one the rules fix; None until it is rolled."""
    if day.weather:
        return day.weather
    weather, _answer = derived_weather(campaign, game)
    return weather


def cp_state(campaign: Campaign, game: ShortGame | None) -> Any:
    pz24 = (
        DiceRoll.objects.filter(
            campaign=campaign, table_id="cp.pz24-arrival", voided_at__isnull=True
        )
        .values_list("final", flat=True)
        .first()
    )
    north = GameUnit.objects.filter(
        campaign=campaign, side="german", arrival_edge="N", state__in=("full", "reduced")
    ).exists()
    return cp_data.CpState(
        encirclement_formed=game is not None and game.pocket_formed_index is not None,
        german_north_entered=north,
        pz24_rolled=pz24 is not None,
        pz24_arrives=None if pz24 is None else cp_reinforcements.pz24_result(pz24),
    )


def _rules_steps(campaign: Campaign, game: ShortGame | None, weather: str | None) -> list[Any]:
    data = short_games.game_data(campaign)
    sequence = campaign.game.files["turn_sequence"]
    turn = short_games.turn_number(campaign)
    if campaign.module == "defiant_russia":
        if weather is None:
            return _before_weather(
                dr_phases.steps(turn, "clear", options_of(game), sequence, data), sequence
            )
        return dr_phases.steps(turn, weather, options_of(game), sequence, data)
    return cp_turn_sequence.steps(
        turn, campaign.campaign_game, cp_state(campaign, game), sequence, data
    )


WEATHER_UNKNOWN = LocalizedText(
    en="Depends on the turn's weather: roll it first (8.2).",
    ja="このターンの天候しだいです。先に天候を決めてください（8.2）。",
)


def _before_weather(answers: list[Any], sequence: Mapping[str, Any]) -> list[Any]:
    """Until the weather is rolled, a step that depends on it is neither on nor off."""
    depends = {
        raw["id"] for raw in sequence["steps"] if (raw.get("conditions") or {}).get("weather")
    }
    return [
        replace(answer, applies=True, limited=True, reason=WEATHER_UNKNOWN)
        if answer.id in depends
        else answer
        for answer in answers
    ]


def _table_name(campaign: Campaign, table_id: str) -> LocalizedText | None:
    for table in campaign.game.files.get("tables", {}).get("dice_tables", []):
        if table["id"] == table_id:
            name = table.get("name") or {}
            return LocalizedText(en=name.get("en", table_id), ja=name.get("ja", table_id))
    return None


def turn_steps(
    campaign: Campaign, game: ShortGame | None, weather: str | None, marks: Sequence[TurnMark]
) -> list[TurnStep]:
    """Every step of the turn with its status, from the rules and the marks of this turn."""
    raw_by_id = {raw["id"]: raw for raw in campaign.game.files["turn_sequence"]["steps"]}
    defs = {
        raw["id"]: step for step, raw in engine.main_steps(campaign.game.files["turn_sequence"])
    }
    by_step: dict[str, dict[str, TurnMark]] = {}
    for mark in marks:
        by_step.setdefault(mark.step, {})[mark.side] = mark
    steps = []
    blocked = False
    for answer in _rules_steps(campaign, game, weather):
        raw = raw_by_id.get(answer.id, {})
        definition = defs.get(answer.id)
        step = TurnStep(
            id=answer.id,
            rule=answer.rule,
            name=raw.get("name") or {"en": answer.id, "ja": answer.id},
            applies_text=definition.applies if definition else "",
            side=answer.side,
            applies=answer.applies,
            limited=getattr(answer, "limited", False),
            reason=answer.reason,
            tables=[
                TableOffer(
                    use.table_id, _table_name(campaign, use.table_id), use.applies, use.reason
                )
                for use in getattr(answer, "tables", ())
                if use.table_id
            ],
            referee_slots=tuple(
                getattr(answer, "referee_slots", ()) or raw.get("referee_slots") or ()
            ),
            segment=raw.get("segment"),
            marks=by_step.get(answer.id, {}),
        )
        needed = step.sides_to_mark or campaign.game.side_keys
        if not step.applies:
            step.status = "skipped"
        elif all(side in step.marks for side in needed):
            step.status = "done"
        elif not blocked:
            step.status = "current"
            blocked = True
        steps.append(step)
    return steps


def marks_of(campaign: Campaign, index: int | None = None) -> list[TurnMark]:
    index = campaign.period_index if index is None else index
    return list(TurnMark.objects.filter(campaign=campaign, index=index))


def turn_complete(steps: Sequence[TurnStep]) -> bool:
    return all(step.status in ("done", "skipped") for step in steps)


def is_last_turn(campaign: Campaign) -> bool:
    return campaign.period_index >= len(campaign.cg.periods) - 1


# --- marking ---------------------------------------------------------------------------------


def _locked_campaign(campaign: Campaign, index: int) -> Campaign:
    locked = Campaign.objects.select_for_update(of=("self",)).get(pk=campaign.pk)
    if locked.period_index != index:
        raise TurnError(_("That page was for an earlier turn; nothing was changed."))
    return locked


@transaction.atomic
def mark(
    campaign: Campaign,
    *,
    index: int,
    side: str,
    step_id: str,
    by: AbstractBaseUser,
    skipped: bool = False,
    reason: str = "",
    note: str = "",
) -> TurnMark:
    campaign = _locked_campaign(campaign, index)
    if side not in campaign.game.side_keys:
        raise TurnError(_("That is not a side of this game."))
    game = short_games.setup_of(campaign)
    if game is None:
        raise TurnError(_("Start the game first: choose the optional rules."))
    day = current_day(campaign)
    weather = weather_now(campaign, day, game)
    steps = turn_steps(campaign, game, weather, marks_of(campaign))
    step = next((s for s in steps if s.id == step_id), None)
    if step is None:
        raise TurnError(_("%(step)s is not a step of this turn.") % {"step": step_id})
    if step.side and step.side != side:
        raise TurnError(_("This step belongs to the other side."))
    if side in step.marks:
        return step.marks[side]  # the same form sent twice
    if step.status != "current":
        raise TurnError(
            _("%(rule)s does not take place this turn.") % {"rule": step.rule}
            if step.status == "skipped"
            else _("Finish the earlier steps first.")
        )
    if skipped and not reason.strip():
        raise TurnError(_("Say why the step is skipped."))
    # Defiant Russia's steps depend on the weather; Cherkassy Pocket's weather only changes
    # movement costs, and the players may read it off the printed track themselves.
    if (
        not skipped
        and _is_weather_step(step)
        and not weather
        and campaign.module == "defiant_russia"
    ):
        raise TurnError(_("Roll or record the turn's weather first."))
    turn_mark = TurnMark.objects.create(
        campaign=campaign,
        index=index,
        side=side,
        step=step_id,
        status=TurnMark.Status.SKIPPED if skipped else TurnMark.Status.DONE,
        reason=reason.strip(),
        note=note.strip(),
        by=by,
    )
    if _is_weather_step(step) and weather and not day.weather:
        # The weather the rules fixed is written on the turn record when its step is done.
        records.update_day(campaign, day, by=by, version=day.version, weather=weather)
    history.record_change(
        campaign,
        by,
        "turn.step_marked",
        visibility=PUBLIC,
        changes=[(turn_mark, None, history.snapshot(turn_mark))],
        step=step_id,
        rule=step.rule,
        side=side,
        status=turn_mark.status,
        reason=turn_mark.reason,
        index=index,
    )
    return turn_mark


def _is_weather_step(step: TurnStep) -> bool:
    return step.id == "weather"


@transaction.atomic
def unmark(
    campaign: Campaign, *, index: int, side: str, step_id: str, by: AbstractBaseUser
) -> None:
    """Take back a mark while no later step has been marked by anyone."""
    campaign = _locked_campaign(campaign, index)
    marks = marks_of(campaign)
    target = next((m for m in marks if m.step == step_id and m.side == side), None)
    if target is None:
        raise TurnError(_("That step is not marked."))
    order = [raw["id"] for raw in campaign.game.files["turn_sequence"]["steps"]]
    if any(order.index(m.step) > order.index(step_id) for m in marks if m.step in order):
        raise TurnError(_("A later step is already marked; take that back first."))
    before = history.snapshot(target)
    target.delete()
    history.record_change(
        campaign,
        by,
        "turn.step_unmarked",
        visibility=PUBLIC,
        changes=[(target, before, None)],
        step=step_id,
        side=side,
        index=index,
    )


@transaction.atomic
def advance(campaign: Campaign, *, index: int, by: AbstractBaseUser) -> Campaign:
    """Move the turn marker on once every step of the turn that takes place is marked."""
    campaign = _locked_campaign(campaign, index)
    game = short_games.setup_of(campaign)
    day = current_day(campaign)
    steps = turn_steps(campaign, game, weather_now(campaign, day, game), marks_of(campaign))
    if not turn_complete(steps):
        raise TurnError(_("Every step of the turn must be marked first."))
    if is_last_turn(campaign):
        raise TurnError(_("This is the last turn of the game."))
    before = history.snapshot(campaign)
    campaign.period_index = index + 1
    campaign.save(update_fields=["period_index"])
    # Undoable while nothing has happened on the new turn (see _refuse_undo_of_advance).
    history.record_change(
        campaign,
        by,
        "turn.advanced",
        visibility=PUBLIC,
        changes=[(campaign, before, history.snapshot(campaign))],
        index=index,
        next=index + 1,
    )
    return campaign


def _refuse_undo_of_advance(event: CampaignEvent) -> None:
    """Taking the turn marker back would orphan what was already done on the new turn."""
    new_turn = event.data.get("next")
    campaign = event.campaign
    if campaign.period_index != new_turn:
        raise history.UndoError(_("The turn marker has moved since; undo the later turn first."))
    happened = (
        TurnMark.objects.filter(campaign=campaign, index=new_turn).exists()
        or DiceRoll.objects.filter(
            campaign=campaign, index=new_turn, voided_at__isnull=True
        ).exists()
        or PointEntry.objects.filter(campaign=campaign, index=new_turn).exists()
        or CampaignDay.objects.filter(campaign=campaign, index=new_turn)
        .exclude(weather="")
        .exists()
    )
    if happened:
        raise history.UndoError(
            _(
                "The new turn already has marks, rolls, points or weather; take those back "
                "first (a referee voids a roll)."
            )
        )


history.UNDO_GUARDS["turn.advanced"] = _refuse_undo_of_advance


# --- rolls -------------------------------------------------------------------------------------

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
) -> DiceRoll:
    """Roll one of the step's tables (through campaigns.dice.services) and book what the app keeps
    of the
    result: the turn's weather, a side's air points, a Soviet tank's breakdown."""
    campaign = _locked_campaign(campaign, index)
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
    if table_id == "cp.weather-table" and _is_weather_step(step):
        offer = TableOffer(table_id, None, True, None)
    if offer is None:
        raise TurnError(_("That table is not rolled in this step."))
    if not offer.applies:
        reason = offer.reason.in_language(_lang()) if offer.reason else ""
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
    if table_id in WEATHER_TABLES and day.weather:
        raise TurnError(_("The turn's weather is already recorded."))
    if table_id == "cp.tank-breakdown" and (unit is None or unit.campaign_id != campaign.pk):
        raise TurnError(_("Choose the Soviet tank unit that moved."))
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


def _lang() -> str:
    from django.utils.translation import get_language

    return get_language() or "en"


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
        add_points(
            campaign,
            by=by,
            side=AIR_TABLES[dice_roll.table_id],
            index=dice_roll.index,
            kind=PointKind.AIR,
            action=PointEntry.Action.RECEIVED,
            amount=points,
            note=_("%(step)s: rolled %(roll)s") % {"step": step.id, "roll": dice_roll.final},
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


# --- points ----------------------------------------------------------------------------------


def balance(campaign: Campaign, side: str, index: int, kind: str) -> int:
    total = PointEntry.objects.filter(
        campaign=campaign, side=side, index=index, kind=kind
    ).aggregate(total=Sum("amount"))["total"]
    return total or 0


@transaction.atomic
def add_points(
    campaign: Campaign,
    *,
    by: AbstractBaseUser,
    side: str,
    index: int,
    kind: str,
    action: str,
    amount: int,
    note: str = "",
    unit: GameUnit | None = None,
) -> PointEntry:
    if side not in campaign.game.side_keys:
        raise StateError(_("That is not a side of this game."))
    if kind not in PointKind.values or action not in PointEntry.Action.values:
        raise StateError(_("That kind of points does not exist."))
    if amount == 0:
        raise StateError(_("An entry of 0 points changes nothing."))
    if action == PointEntry.Action.ADJUSTMENT and not note.strip():
        raise StateError(_("Give the reason for the adjustment."))
    if amount < 0 and action != PointEntry.Action.ADJUSTMENT:
        # Lock the side's rows of the turn: two players cannot spend the same points at once.
        list(
            PointEntry.objects.select_for_update(of=("self",)).filter(
                campaign=campaign, side=side, index=index, kind=kind
            )
        )
        if balance(campaign, side, index, kind) + amount < 0:
            raise StateError(_("Not enough points left this turn."))
    entry = PointEntry.objects.create(
        campaign=campaign,
        side=side,
        index=index,
        kind=kind,
        action=action,
        amount=amount,
        unit=unit,
        note=note.strip()[:200],
        created_by=by,
    )
    history.record_change(
        campaign,
        by,
        "points.added",
        visibility=PUBLIC,
        changes=[(entry, None, history.snapshot(entry))],
        side=side,
        kind=kind,
        what=action,
        amount=amount,
        unit=unit.name if unit is not None else "",
        index=index,
    )
    return entry


def _held_and_cut(campaign: Campaign, side: str) -> tuple[list[str], list[str]]:
    """Places the enemy of ``side`` holds, and places cut off by rail (DR 10.14, 10.15)."""
    held, cut = [], []
    for point in ControlPoint.objects.filter(campaign=campaign):
        if point.controller and point.controller != side:
            held.append(point.key)
        if point.cut_off:
            cut.append(point.key)
    return held, cut


def replacements_now(campaign: Campaign, side: str) -> Any:
    """The side's replacement points this turn by the rules, from the places' control."""
    held, cut = _held_and_cut(campaign, side)
    return dr_replacements.replacement_points(
        side, short_games.turn_number(campaign), held, cut, short_games.game_data(campaign)
    )


def received(campaign: Campaign, side: str, index: int, kind: str) -> bool:
    return PointEntry.objects.filter(
        campaign=campaign, side=side, index=index, kind=kind, action=PointEntry.Action.RECEIVED
    ).exists()


@transaction.atomic
def receive_points(
    campaign: Campaign, *, side: str, index: int, kind: str, by: AbstractBaseUser
) -> PointEntry:
    """Book the turn's allotment by the rules (DR replacement 10.13/10.14, air 11.7), once."""
    campaign = _locked_campaign(campaign, index)
    if campaign.module != "defiant_russia":
        raise TurnError(_("In this game air points are rolled on the turn page."))
    if received(campaign, side, index, kind):
        raise TurnError(_("This turn's points are already booked."))
    turn = short_games.turn_number(campaign)
    data = short_games.game_data(campaign)
    if kind == PointKind.REPLACEMENT:
        answer = replacements_now(campaign, side)
        amount = answer.points
        note = "; ".join(d.text.en for d in answer.deductions)[:200]
    else:
        amount = dr_air.air_points(turn, side, data)
        note = ""
    if amount <= 0:
        raise TurnError(_("The rules give this side no such points this turn."))
    return add_points(
        campaign,
        by=by,
        side=side,
        index=index,
        kind=kind,
        action=PointEntry.Action.RECEIVED,
        amount=amount,
        note=note,
    )


def armor_replaced(campaign: Campaign, side: str, index: int) -> int:
    return PointEntry.objects.filter(
        campaign=campaign,
        side=side,
        index=index,
        kind=PointKind.REPLACEMENT,
        action__in=(PointEntry.Action.RESTORE, PointEntry.Action.REBUILD),
        unit__unit_type__in=ARMOR_TYPES,
    ).count()


ARMOR_TYPES = ("armor", "tank_corps")


def unit_facts(unit: GameUnit) -> Any:
    return dr_replacements.UnitFacts(
        side=unit.side,
        nationality=unit.nationality,
        type=unit.unit_type,
        state=unit.state,
        in_supply=not unit.out_of_supply,
        unit_id=slugify(unit.name),
    )


def replacement_refusals(
    campaign: Campaign,
    unit: GameUnit,
    action: str,
    index: int,
    *,
    points_left: int | None = None,
    armor_units: int | None = None,
) -> list[Any]:
    """Why the unit may not receive replacement points now (the page passes the side's points
    and armor count, read once for all its units)."""
    if points_left is None:
        points_left = balance(campaign, unit.side, index, PointKind.REPLACEMENT)
    if armor_units is None:
        armor_units = armor_replaced(campaign, unit.side, index)
    return dr_replacements.replacement_refusals(
        unit_facts(unit),
        action,
        turn=short_games.turn_number(campaign, index),
        points_left=points_left,
        armor_units_this_turn=armor_units,
        game=short_games.game_data(campaign),
    )


@transaction.atomic
def replace_unit(
    campaign: Campaign,
    unit: GameUnit,
    *,
    action: str,
    index: int,
    version: int,
    by: AbstractBaseUser,
) -> list[str]:
    """Spend replacement points on a unit (DR 10.11): restore a reduced unit (1) or rebuild an
    eliminated one at reduced strength (2). Returns where a rebuilt unit may appear."""
    campaign = _locked_campaign(campaign, index)
    unit = GameUnit.objects.select_for_update(of=("self",)).get(pk=unit.pk, campaign=campaign)
    if unit.version != version:
        raise state.StaleEdit
    refusals = replacement_refusals(campaign, unit, action, index)
    if refusals:
        first = refusals[0]
        raise TurnError(f"{first.text.in_language(_lang())} ({first.rule})")
    cost = dr_replacements.replacement_cost(action)
    add_points(
        campaign,
        by=by,
        side=unit.side,
        index=index,
        kind=PointKind.REPLACEMENT,
        action=action,
        amount=-cost,
        unit=unit,
        note=unit.name,
    )
    short_games.change_unit(
        campaign,
        unit,
        by=by,
        version=unit.version,
        state=UnitState.FULL if action == "restore" else UnitState.REDUCED,
        **({"hex": ""} if action == "rebuild" else {}),
    )
    if action != "rebuild":
        return []
    held, cut = _held_and_cut(campaign, unit.side)
    return dr_replacements.rebuild_locations(
        unit.side, unit.nationality, held, cut, short_games.game_data(campaign)
    )


@transaction.atomic
def roll_combat(
    campaign: Campaign,
    *,
    side: str,
    dice_count: int,
    fleet_dice: int,
    hit_on: Sequence[int],
    by: AbstractBaseUser,
    note: str = "",
    token: str = "",
) -> dict[str, Any]:
    """One die per strength point (DR 7.11), each through campaigns.dice.services; fleet dice
    apart, hitting
    on 6 only (11.51). Returns the faces and the hits. ``token`` comes from the page: the same
    form sent twice returns the dice of the first time instead of rolling again."""
    if dice_count > 60 or fleet_dice > 10:
        raise TurnError(_("That is more dice than a combat can roll."))
    token = slugify(token)[:20]
    label = (note.strip() or _("combat"))[:100]
    if token:
        earlier = list(
            DiceRoll.objects.filter(
                campaign=campaign, step__in=("7.11", "11.51"), form_token=token
            ).order_by("id")
        )
        if earlier:
            faces = [roll.original for roll in earlier if roll.step == "7.11"]
            fleet_faces = [roll.original for roll in earlier if roll.step == "11.51"]
            hits = count_hits(faces, hit_on) + count_hits(fleet_faces, (6,))
            return {"faces": faces, "fleet_faces": fleet_faces, "hits": hits}
    faces, fleet_faces = [], []
    for number in range(dice_count):
        made = dice.roll(
            campaign,
            by=by,
            kind="dr",
            step="7.11",
            index=campaign.period_index,
            side=side,
            visibility=PUBLIC,
            note=f"{label} ({number + 1}/{dice_count})",
            form_token=token,
        )
        faces.append(made.original)
    for number in range(fleet_dice):
        made = dice.roll(
            campaign,
            by=by,
            kind="dr",
            step="11.51",
            index=campaign.period_index,
            side=side,
            visibility=PUBLIC,
            note=f"{label} fleet ({number + 1}/{fleet_dice})",
            form_token=token,
        )
        fleet_faces.append(made.original)
    hits = count_hits(faces, hit_on) + count_hits(fleet_faces, (6,))
    return {"faces": faces, "fleet_faces": fleet_faces, "hits": hits}


# --- Cherkassy Pocket: the combat roll (11.6-11.9) ---------------------------------------------


@dataclass(frozen=True)
class CpCombat:
    """A Cherkassy combat as the page shows it: the odds, the column after the shifts, and
    what stops the roll (empty: it can be made)."""

    attack: int
    defense: int
    odds: str
    shift: int
    shift_rules: tuple[str, ...]
    column: str
    blocked: tuple[LocalizedText, ...]


def cp_combat(
    campaign: Campaign, *, attack: int, defense: int, shifts: Sequence[str], terrain: str = ""
) -> CpCombat:
    """The odds column (11.6, 11.8) after the chosen column shifts (11.9), terrain from the
    referee's TEC. A missing CRT, or TEC when a terrain shift is asked, blocks the roll."""
    data = short_games.game_data(campaign)
    tables = campaign.game.files["tables"]
    referee = short_games.referee_tables(campaign)
    missing = {m.slot_id: m for m in cp_referee.missing_rolls(referee, data)}
    blocked = []
    if not cp_combat_rules.crt_entered(referee, data):
        blocked.append(_missing_text(missing["cp.crt"]))
    shift, rules = cp_combat_rules.column_shift([s for s in shifts if s != "terrain"], tables)
    if "terrain" in shifts:
        terrain_shifts = cp_combat_rules.terrain_shifts(referee, data)
        if "cp.tec" in missing:
            blocked.append(_missing_text(missing["cp.tec"]))
        elif terrain not in terrain_shifts:
            blocked.append(
                LocalizedText(
                    en="Choose the defender's terrain from the referee's terrain chart (11.12).",
                    ja="防御側の地形をレフェリーの地形効果表から選んでください（11.12）。",
                )
            )
        else:
            shift += terrain_shifts[terrain]
            rules = (*rules, "11.12")
    return CpCombat(
        attack=attack,
        defense=defense,
        odds=cp_combat_rules.odds(attack, defense),
        shift=shift,
        shift_rules=rules,
        column=cp_combat_rules.odds_column(attack, defense, shift, data),
        blocked=tuple(blocked),
    )


def _missing_text(missing: Any) -> LocalizedText:
    return LocalizedText(
        en=f"{missing.name.en} ({missing.rule}): {missing.reason.en}",
        ja=f"{missing.name.ja or missing.name.en}（{missing.rule}）：{missing.reason.ja}",
    )


@transaction.atomic
def roll_cp_combat(
    campaign: Campaign,
    combat: CpCombat,
    *,
    index: int,
    side: str,
    by: AbstractBaseUser,
    token: str,
    note: str = "",
) -> DiceRoll:
    """One die on the referee's CRT column (11.9), logged with its result. ``token`` comes
    from the page: the same form sent twice returns the first roll."""
    campaign = _locked_campaign(campaign, index)
    if combat.blocked:
        raise TurnError(combat.blocked[0].in_language(_lang()))
    token = slugify(token)[:20]
    if not token:
        raise TurnError(_("That page was for an earlier turn; nothing was changed."))
    earlier = DiceRoll.objects.filter(campaign=campaign, step="11.9", form_token=token).first()
    if earlier is not None:
        return earlier
    label = (note.strip() or _("combat"))[:100]
    made = dice.roll(
        campaign,
        by=by,
        kind="dr",
        step="11.9",
        index=index,
        side=side,
        visibility=PUBLIC,
        note=f"{label} · {combat.attack}:{combat.defense} → {combat.column}",
        form_token=token,
    )
    try:
        cell = cp_combat_rules.crt_result(
            combat.column,
            made.original,
            short_games.referee_tables(campaign),
            short_games.game_data(campaign),
        )
    except (KeyError, TypeError):
        cell = None
    made.result = dict(cell) if cell is not None else None
    made.save(update_fields=["result"])
    return made


# --- reinforcements --------------------------------------------------------------------------


@dataclass
class QueueRow:
    """A unit due to enter: this turn or late (``due``), on a later turn (``coming``), or named
    by the rules and already on the map (``arrived``) or not in the roster (``not_entered``)."""

    turn: int | None
    side: str
    name: Any  # str (a roster unit) or LocalizedText (a unit the rules name)
    unit: GameUnit | None
    status: str
    may_enter: bool
    rule: str
    reason: LocalizedText | None = None
    edge: str = ""


ARRIVAL_RULE = {"defiant_russia": "10.2", "cherkassy_pocket": "9.1"}


def roster_key(name: str) -> str:
    """A roster unit's name in the rules' ids ("Soviet airborne" → "soviet_airborne")."""
    return slugify(name).replace("-", "_")


def _segment_now(campaign: Campaign, game: ShortGame | None) -> int:
    """The activation segment the Cherkassy turn stands in (1 until segment 2 has begun)."""
    if game is None:
        return 1
    day = current_day(campaign)
    steps = turn_steps(campaign, game, weather_now(campaign, day, game), marks_of(campaign))
    current = next((step for step in steps if step.status == "current"), None)
    if current is None:
        return max((step.segment or 1 for step in steps), default=1)
    if current.segment is None:
        # Before segment 1 (weather, supply) it is 1; after segment 2 (tank recovery) it is 2.
        done_segments = [step.segment for step in steps if step.segment and step.status == "done"]
        return max(done_segments, default=1)
    return current.segment


def reinforcement_queue(
    campaign: Campaign, game: ShortGame | None, units: Sequence[GameUnit]
) -> list[QueueRow]:
    """Who enters this turn and on the turns to come: the units the rules name (Defiant Russia
    10.2, 11.63, 11.8, 12.1) and the roster's units awaiting their arrival turn, with whether
    each may enter now (Cherkassy Pocket 9.1 late never early, 9.4 north edge, 9.5 24th Panzer)."""
    turn = short_games.turn_number(campaign)
    rule = ARRIVAL_RULE[campaign.module]
    awaiting = [unit for unit in units if unit.state == UnitState.AWAITING]
    rows: list[QueueRow] = []
    if campaign.module == "defiant_russia":
        data = short_games.game_data(campaign)
        named = {entry["unit"] for entry in data["reinforcements"]["named"]}
        by_key = {roster_key(unit.name): unit for unit in units if roster_key(unit.name) in named}
        by_id = {str(unit.pk): unit for unit in awaiting}
        roster = [
            {
                "unit_id": key if (key := roster_key(unit.name)) in named else str(unit.pk),
                "side": unit.side,
                "entry_turn": unit.arrival_turn,
            }
            for unit in awaiting
        ]
        for number in short_games.all_turns(campaign):
            if number < turn:
                continue
            for side in campaign.game.side_keys:
                for due in dr_reinforcements.reinforcements_due(
                    number, side, options_of(game), data, roster
                ):
                    unit = by_key.get(due.unit_id) or by_id.get(due.unit_id)
                    if unit is None:
                        status = "not_entered"
                    elif unit.state != UnitState.AWAITING:
                        status = "arrived"
                    else:
                        status = "due" if number <= turn else "coming"
                    rows.append(
                        QueueRow(
                            number,
                            side,
                            unit.name if unit is not None else due.name or due.unit_id,
                            unit,
                            status,
                            status == "due",
                            due.rule,
                        )
                    )
        listed = {row.unit.pk for row in rows if row.unit is not None}
        for unit in awaiting:
            if unit.pk in listed or (unit.arrival_turn is not None and unit.arrival_turn >= turn):
                continue
            # Late (its turn is past) or no arrival turn recorded: it may enter now.
            rows.append(QueueRow(unit.arrival_turn, unit.side, unit.name, unit, "due", True, rule))
    else:
        state = cp_state(campaign, game)
        segment = _segment_now(campaign, game)
        by_id = {str(unit.pk): unit for unit in awaiting}
        roster = [
            {
                "unit_id": str(unit.pk),
                "side": unit.side,
                "entry_turn": unit.arrival_turn,
                "entry_edge": unit.arrival_edge,
                "formation": unit.formation,
            }
            for unit in awaiting
        ]
        for due in cp_reinforcements.reinforcement_queue(turn, segment, roster, state):
            unit = by_id[due.unit_id]
            rows.append(
                QueueRow(
                    due.turn,
                    due.side,
                    unit.name,
                    unit,
                    "due",
                    due.may_enter,
                    rule,
                    due.reason,
                    due.edge,
                )
            )
        for unit in awaiting:
            if unit.arrival_turn is None or unit.arrival_turn > turn:
                rows.append(
                    QueueRow(
                        unit.arrival_turn,
                        unit.side,
                        unit.name,
                        unit,
                        "coming" if unit.arrival_turn is not None else "due",
                        unit.arrival_turn is None,
                        rule,
                        None,
                        unit.arrival_edge,
                    )
                )
    rows.sort(key=lambda row: (row.turn if row.turn is not None else -1, row.side))
    return rows


NOT_YET = LocalizedText(
    en="Not before its arrival turn: a reinforcement enters on its turn, or late, never early",
    ja="登場ターンより前には登場できません。増援は登場ターンか、それより遅れて登場します",
)


@transaction.atomic
def arrive(
    campaign: Campaign,
    unit: GameUnit,
    *,
    index: int,
    version: int,
    hex: str,
    by: AbstractBaseUser,
) -> GameUnit:
    """A reinforcement enters the map: full strength, in ``hex`` — refused with the rule when
    it is not its turn or its edge is closed."""
    campaign = _locked_campaign(campaign, index)
    unit = GameUnit.objects.select_for_update(of=("self",)).get(pk=unit.pk, campaign=campaign)
    if unit.version != version:
        raise state.StaleEdit
    if unit.state != UnitState.AWAITING:
        raise TurnError(_("%(unit)s is not awaiting its arrival.") % {"unit": unit.name})
    hex = hex.strip()
    if len(hex) > 20:
        raise TurnError(_("A hex is at most 20 characters."))
    game = short_games.setup_of(campaign)
    units = list(GameUnit.objects.filter(campaign=campaign))
    row = next(
        (r for r in reinforcement_queue(campaign, game, units) if r.unit and r.unit.pk == unit.pk),
        None,
    )
    if row is None or not row.may_enter:
        if row is not None and row.reason is not None:
            raise TurnError(row.reason.in_language(_lang()))  # the rules' text names the rule
        rule = row.rule if row is not None else ARRIVAL_RULE[campaign.module]
        raise TurnError(f"{NOT_YET.in_language(_lang())} ({rule})")
    before = history.snapshot(unit)
    state.save_versioned(unit, version, {"state": UnitState.FULL, "hex": hex})
    history.record_change(
        campaign,
        by,
        "unit.arrived",
        visibility=PUBLIC,
        changes=[(unit, before, history.snapshot(unit))],
        side=unit.side,
        unit=unit.name,
        hex=hex,
        index=index,
    )
    return unit


# --- Cherkassy Pocket: German infantry reconstitution (12.1) ---------------------------------


def reconstitution_options(units: Sequence[GameUnit]) -> list[Any]:
    """12.1 for each division's battalions in the Eligible for Reconstitution box (the
    Stemmermann Group's counted apart), from the roster."""
    return cp_losses.reconstitution(
        [
            cp_losses.BoxUnit(str(u.pk), u.formation, u.size, u.in_pocket)
            for u in units
            if u.side == "german" and u.state == UnitState.RECONSTITUTION and u.formation
        ],
        divisions_used={u.formation for u in units if u.reconstituted and u.formation},
        divisions_on_map={
            u.formation
            for u in units
            if u.state in (UnitState.FULL, UnitState.REDUCED) and u.hex and u.formation
        },
    )


@transaction.atomic
def reconstitute(
    campaign: Campaign,
    unit: GameUnit,
    *,
    index: int,
    version: int,
    hex: str,
    by: AbstractBaseUser,
) -> GameUnit:
    """12.1: ``unit`` (a battalion in the Eligible box) returns on its reduced side in ``hex``,
    with or next to a unit of its division; the division's other units in the box go to
    Permanently Eliminated and the division never reconstitutes again. Refused with the rule."""
    campaign = _locked_campaign(campaign, index)
    units = list(GameUnit.objects.select_for_update(of=("self",)).filter(campaign=campaign))
    unit = next((u for u in units if u.pk == unit.pk), None)
    if unit is None:
        raise TurnError(_("That unit is not in this game."))
    if unit.version != version:
        raise state.StaleEdit
    if unit.side != "german" or unit.state != UnitState.RECONSTITUTION or unit.size != "battalion":
        raise TurnError(
            _(
                "Only a German infantry battalion in the Eligible for Reconstitution box "
                "returns (12.1)."
            )
        )
    option = next(
        (
            o
            for o in reconstitution_options(units)
            if o.division == unit.formation and o.stemmermann == unit.in_pocket
        ),
        None,
    )
    if option is None or not option.returns:
        reason = option.reason.in_language(_lang()) if option and option.reason else ""
        raise TurnError(f"{reason} (12.1)".strip())
    hex = hex.strip()
    if not hex or len(hex) > 20:
        raise TurnError(
            _("Give the hex, with or next to a unit of its division (12.1; at most 20 characters).")
        )
    changes = []
    for other in units:
        returning = other.pk == unit.pk
        in_box = other.state == UnitState.RECONSTITUTION and other.formation == unit.formation
        if not (returning or in_box):
            continue
        before = history.snapshot(other)
        if returning:
            fields = {
                "state": UnitState.REDUCED if other.steps == 2 else UnitState.FULL,
                "hex": hex,
                "reconstituted": True,
            }
        else:
            fields = {"state": UnitState.ELIMINATED, "hex": ""}
        state.save_versioned(other, other.version, fields)
        changes.append((other, before, history.snapshot(other)))
    history.record_change(
        campaign,
        by,
        "unit.changed",
        visibility=PUBLIC,
        changes=changes,
        side=unit.side,
        unit=f"{unit.name} ({unit.formation})",
        fields=["reconstituted (12.1)", "state", "hex"],
        division=unit.formation,
        hex=hex,
        eliminated=[u.name for u, _before, _after in changes if u.pk != unit.pk],
        reconstituted=True,
        index=index,
    )
    return unit


# --- Cherkassy Pocket: the Soviet VP -----------------------------------------------------------


def cp_victory_facts(
    campaign: Campaign,
    game: ShortGame | None,
    units: Sequence[GameUnit],
    control: Sequence[ControlPoint],
    *,
    game_over: bool,
) -> Any:
    """What the scenario's VP conditions test, from the roster, the pocket and the places; a
    fact the app cannot know is None (the condition is shown, not counted)."""
    from campaigns.models import CampaignEvent

    formed = game is not None and game.pocket_formed_index is not None
    at_formation: dict[str, int] = {}
    if formed:
        event = (
            CampaignEvent.objects.filter(
                campaign=campaign, action="pocket.changed", undone_at__isnull=True
            )
            .order_by("-id")
            .first()
        )
        at_formation = (event.data.get("at_formation") if event else None) or {}
    group = [u for u in units if u.side == "german" and u.in_pocket]
    out = short_games.OUT_OF_PLAY_STATES
    manual = {
        c["id"]
        for c in short_games.victory_conditions(campaign)
        if short_games.is_manual_condition(c)
    }
    ticked = manual & set(game.victory if game else {})
    return cp_victory_rules.CpVictoryFacts(
        encirclement_formed=formed,
        n_eliminated_or_encircled_at_formation=at_formation.get("n"),
        non_n_eliminated_or_encircled_at_formation=at_formation.get("non_n"),
        hex_control={
            point.key.removeprefix("hex-"): point.controller
            for point in control
            if point.controller
        },
        stemmermann_on_map=sum(1 for u in group if u.on_map) if formed else None,
        stemmermann_all_eliminated_before_relief=True if ticked else None,
        stemmermann_n_ever=sum(1 for u in group if u.marked_n) if formed else None,
        stemmermann_non_n_ever=sum(1 for u in group if not u.marked_n) if formed else None,
        german_tanks_eliminated=sum(
            1 for u in units if u.side == "german" and u.unit_type == "tank" and u.state in out
        ),
        soviet_tanks_eliminated_or_in_recovery=sum(
            1 for u in units if u.side == "soviet" and u.unit_type == "tank" and u.state in out
        ),
        game_over=game_over,
    )


def cp_victory(campaign: Campaign, game: ShortGame | None) -> Any:
    """The scenario's Soviet VP as they stand
    (campaigns.shortgames.rules.cherkassy.victory_tally)."""
    units = list(GameUnit.objects.filter(campaign=campaign))
    control = list(ControlPoint.objects.filter(campaign=campaign))
    game_over = False
    if game is not None and is_last_turn(campaign):
        day = current_day(campaign)
        steps = turn_steps(campaign, game, weather_now(campaign, day, game), marks_of(campaign))
        game_over = turn_complete(steps)
    facts = cp_victory_facts(campaign, game, units, control, game_over=game_over)
    return cp_victory_rules.victory_tally(
        campaign.campaign_game, facts, short_games.game_data(campaign)
    )
