"""Defiant Russia: the limits of a side's turn — rail moves (6.5), supply range (5.0, 5.2),
movement and attacks in bad weather (8.3), breakthrough (6.6), air and replacement points."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from campaigns.shortgames.rules.common import Limit, text
from campaigns.shortgames.rules.defiant_russia.data import (
    SIDES,
    replacement_schedule,
    turn_row,
    weather_name,
)
from campaigns.shortgames.rules.defiant_russia.phases import phases


def turn_limits(
    turn: int,
    weather: str,
    side: str,
    game: Mapping[str, Any],
    options: Iterable[str] = (),
    *,
    first_snow_turn: int | None = None,
) -> list[Limit]:
    """The limits of ``side``'s turn: rail moves, supply range, movement, breakthrough, snow
    halving, air points, replacements. ``first_snow_turn`` (see ``first_snow_turn()``) adds the
    Soviet 5–6 hits of 8.3 when this is that turn."""
    if side not in SIDES:
        raise ValueError(f"unknown side {side!r}")
    row = turn_row(game, turn)
    shown = weather_name(game, weather)  # an unknown weather is refused before it is looked up
    effects = game["weather"]["effects"][weather]
    limits: list[Limit] = []

    rail = game["rail_movement"]["units_per_turn"][side]
    rail_moves = rail["snow"] if weather == "snow" else rail["default"]
    limits.append(
        Limit(
            "rail_moves",
            rail_moves,
            game["rail_movement"]["rule"],
            text(
                f"Rail movement: at most {rail_moves} units this turn.",
                f"鉄道移動：このターンは最大{rail_moves}部隊。",
            ),
        )
    )

    supply = effects[f"{side}_supply_range"]
    limits.append(
        Limit(
            "supply_range",
            supply,
            "5.2" if weather == "snow" and side == "axis" else "5.0",
            text(
                f"Supply line: at most {supply} hexes to a rail hex.",
                f"補給線：鉄道ヘクスまで{supply}ヘクス以内。",
            ),
        )
    )
    if side == "axis":
        finnish = effects["finnish_supply_range"]
        limits.append(
            Limit(
                "supply_range_finnish",
                finnish,
                "5.2",
                text(
                    f"Finnish supply line: {finnish} hexes (always in supply in Finland, 5.3).",
                    f"フィンランド軍の補給線：{finnish}ヘクス（フィンランド国内では常に補給下、5.3）。",
                ),
            )
        )

    factor = effects["movement_allowance"]["factor"]
    if factor != 1:
        limits.append(
            Limit(
                "movement_factor",
                factor,
                "8.3",
                text(
                    f"{shown.en}: every movement allowance is halved (rounded up).",
                    f"{shown.ja}：すべての許容移動力は半減（端数切り上げ）。",
                ),
            )
        )

    breakthrough = next(
        phase
        for phase in phases(turn, weather, options, game)
        if phase.id == f"{side}_breakthrough_movement"
    )
    if not breakthrough.applies:
        value, en, ja = "none", "No breakthrough phases.", "突破フェイズはありません。"
    elif breakthrough.limited:
        value, en, ja = "limited", "Breakthrough phases limited: ", "突破フェイズは制限されます："
    else:
        value, en, ja = (
            "full",
            "Breakthrough phases take place (6.6).",
            "突破フェイズがあります（6.6）。",
        )
    reason = breakthrough.reason
    limits.append(
        Limit(
            "breakthrough",
            value,
            "6.6",
            text(en + (f" {reason.en}" if reason else ""), ja + (reason.ja if reason else "")),
        )
    )

    if side == "axis" and effects.get("axis_attack_halved"):
        limits.append(
            Limit(
                "attack_halved",
                True,
                "8.3",
                text(
                    "Snow: attacking Axis units are halved (rounded up), except Finnish and "
                    "German/Romanian mountain units.",
                    "雪：攻撃する枢軸軍部隊の戦力は半減（端数切り上げ）。フィンランド軍と"
                    "ドイツ軍・ルーマニア軍の山岳部隊を除く。",
                ),
            )
        )
    if side == "soviet" and first_snow_turn is not None and turn == first_snow_turn:
        limits.append(
            Limit(
                "attack_hits_on",
                "5-6",
                "8.3",
                text(
                    "First snow turn: every Soviet attack hits on 5 or 6 (fleet dice on 6 only).",
                    "最初の雪ターン：ソビエト軍のすべての攻撃は5か6でヒット（艦隊は6のみ）。",
                ),
            )
        )

    points = row["air_points"][side]
    limits.append(
        Limit(
            "air_points",
            points,
            game["air_power"]["rule"],
            text(
                f"Air points this turn: {points} (lost if unused; at most "
                f"{game['air_power']['max_points_per_attack']} per attack, not in breakthrough "
                "combat).",
                f"このターンの空軍ポイント：{points}（蓄積不可。1回の攻撃に最大"
                f"{game['air_power']['max_points_per_attack']}、突破戦闘では使えません）。",
            ),
        )
    )

    schedule = replacement_schedule(game, turn)[side]
    base = schedule.get("points", schedule.get("base_points"))
    limits.append(
        Limit(
            "replacement_points_base",
            base,
            game["replacements"][side]["rule"],
            text(
                f"Replacement points: {base}"
                + (" before deductions." if side == "soviet" else "."),
                f"補充ポイント：{base}" + ("（減少前）。" if side == "soviet" else "。"),
            ),
        )
    )
    armor = schedule["armor_units_max"]
    if armor is not None:
        limits.append(
            Limit(
                "armor_replacements_max",
                armor,
                game["replacements"][side]["rule"],
                text(
                    f"At most {armor} armor unit(s) may receive replacements this turn.",
                    f"このターンに補充を受けられる装甲部隊は最大{armor}個。",
                ),
            )
        )
    return limits
