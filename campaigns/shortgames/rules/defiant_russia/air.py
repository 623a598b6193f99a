"""Defiant Russia's air power: the air points of the turn (11.7) and Axis air points against
a fleet (11.52)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from campaigns.games.rules import Reason
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


def fleet_raid_refusals(
    side: str, distance: int | None, already_this_turn: int, game: Mapping[str, Any]
) -> list[Reason]:
    """11.52: one Axis air point against a fleet, in the Axis combat phase, while an Axis unit
    is within 4 hexes of the fleet (declared: the app has no map), at most 3 points per fleet
    per turn (``already_this_turn``: the points spent on this fleet this turn)."""
    raid = game["air_power"]["vs_fleets"]
    within = raid["axis_unit_within_hexes"]
    most = raid["max_points_per_fleet_per_turn"]
    rule = raid["rule"]
    if side != "axis":
        return [
            Reason(
                "fleet_raid_not_axis",
                rule,
                text=text(
                    "Only the Axis makes air raids on a fleet.",
                    "艦隊への空襲は枢軸軍だけが行えます。",
                ),
            )
        ]
    refusals = []
    if distance is None or distance < 1:
        refusals.append(
            Reason(
                "fleet_raid_distance_missing",
                rule,
                text=text(
                    "Give the distance in hexes from the nearest Axis unit to the fleet.",
                    "最も近い枢軸軍部隊から艦隊までのヘクス数を入力してください。",
                ),
            )
        )
    elif distance > within:
        refusals.append(
            Reason(
                "fleet_raid_too_far",
                rule,
                {"distance": distance, "within": within},
                text=text(
                    f"The nearest Axis unit is {distance} hexes from the fleet; an air raid "
                    f"needs one within {within}.",
                    f"最も近い枢軸軍部隊は艦隊から{distance}ヘクスです。空襲には{within}ヘクス"
                    "以内の枢軸軍部隊が必要です。",
                ),
            )
        )
    if fleet_air_raid(1, already_this_turn, game).dice == 0:
        refusals.append(
            Reason(
                "fleet_raid_cap",
                rule,
                {"most": most},
                text=text(
                    f"This fleet has been raided with {most} air points this turn, the most "
                    "a turn allows.",
                    f"この艦隊には今ターンすでに空軍ポイント{most}が使われています（上限）。",
                ),
            )
        )
    return refusals


def fleet_raid_result(hit: bool, full: bool, has_reduced_side: bool) -> str:
    """11.52: a 5 or 6 reduces the fleet, or removes it when it is reduced already or has no
    reduced side: "reduced", "eliminated" or "" (no effect)."""
    if not hit:
        return ""
    return "reduced" if full and has_reduced_side else "eliminated"
