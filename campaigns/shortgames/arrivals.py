"""Reinforcements: who enters this turn and on the turns to come (Defiant Russia 10.2,
Cherkassy Pocket 9.1-9.5), and a unit entering the map."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction
from django.utils.text import slugify
from django.utils.translation import gettext as _

from campaigns import state
from campaigns.access import PUBLIC
from campaigns.games.registry import LocalizedText
from campaigns.history import services as history
from campaigns.models import (
    Campaign,
    GameUnit,
    ShortGame,
    UnitState,
)
from campaigns.shortgames import services as short_games
from campaigns.shortgames.rules.cherkassy import reinforcements as cp_reinforcements
from campaigns.shortgames.rules.defiant_russia import reinforcements as dr_reinforcements
from campaigns.shortgames.turn_steps import (
    TurnError,
    cp_state,
    current_day,
    locked_campaign,
    marks_of,
    options_of,
    reader_language,
    turn_steps,
    weather_now,
)


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
        rules_ids = {
            unit.pk: dr_reinforcements.named_unit_id(
                roster_key(unit.name), unit.unit_type, unit.side, data
            )
            for unit in units
        }
        by_key = {rules_ids[unit.pk]: unit for unit in units if rules_ids[unit.pk]}
        by_id = {str(unit.pk): unit for unit in awaiting}
        roster = [
            {
                "unit_id": rules_ids[unit.pk] or str(unit.pk),
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
    campaign = locked_campaign(campaign, index)
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
            raise TurnError(
                row.reason.in_language(reader_language())
            )  # the rules' text names the rule
        rule = row.rule if row is not None else ARRIVAL_RULE[campaign.module]
        raise TurnError(f"{NOT_YET.in_language(reader_language())} ({rule})")
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
