"""Defiant Russia's air power: the air points of the turn (11.7) and Axis air points against
a fleet (11.52)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from campaigns.shortgames.rules.common import text
from campaigns.shortgames.rules.defiant_russia.combat import CombatDice, CombatLine
from campaigns.shortgames.rules.defiant_russia.data import turn_row


def air_points(turn: int, side: str, game: Mapping[str, Any]) -> int:
    """11.7's schedule; points are not saved from turn to turn."""
    return turn_row(game, turn)["air_points"][side]


def fleet_air_raid(points: int, already_this_turn: int, game: Mapping[str, Any]) -> CombatDice:
    """11.52: Axis air points against a fleet, one die each (AMB-12), hits on 5–6, at most 3
    points per fleet per turn."""
    raid = game["air_power"]["vs_fleets"]
    allowed = max(0, raid["max_points_per_fleet_per_turn"] - already_this_turn)
    dice = min(points, allowed)
    lines = [
        CombatLine(
            raid["rule"],
            text(
                f"{dice} air point(s) against the fleet (at most "
                f"{raid['max_points_per_fleet_per_turn']} per fleet per turn); each 5–6 is a "
                "step loss.",
                f"艦隊に空軍ポイント{dice}（1ターンに各艦隊最大{raid['max_points_per_fleet_per_turn']}）。"
                "5か6で1ステップ損失。",
            ),
            dice,
        )
    ]
    return CombatDice(dice, (5, 6), tuple(lines))
