"""Defiant Russia's replacements (10.1): the points of the turn with each deduction, why a
unit may not be restored or rebuilt, and where a rebuilt unit appears."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from campaigns.games.registry import LocalizedText
from campaigns.games.rules import Reason, signed
from campaigns.shortgames.rules.common import text
from campaigns.shortgames.rules.defiant_russia.data import (
    ARMOR_TYPES,
    ELIMINATED_OUT_OF_SUPPLY,
    location_name,
    replacement_schedule,
)


@dataclass(frozen=True)
class Deduction:
    city: str
    kind: str  # "held" (Axis-controlled) or "cut" (no rail line to a Soviet map edge)
    points: int
    rule: str
    text: LocalizedText
    inferred: str = ""


@dataclass(frozen=True)
class Replacements:
    side: str
    turn: int
    base: int
    deductions: tuple[Deduction, ...]
    points: int
    armor_units_max: int | None
    rule: str
    available: bool
    reason: LocalizedText


def replacement_points(
    side: str,
    turn: int,
    enemy_held_cities: Iterable[str],
    cut_rail_lines: Iterable[str],
    game: Mapping[str, Any],
) -> Replacements:
    """The side's replacement points this turn with each deduction and its rule (10.13–10.15).

    ``enemy_held_cities``: cities the Axis controls; ``cut_rail_lines``: cities that cannot trace
    a rail line free of Axis units to a Soviet map edge (for Leningrad also free of Axis ZoC not
    negated by Soviet units, 10.15). Only Leningrad, Moscow, Kiev and Stalingrad count; each at
    most once (AMB-6). Both are ignored for the Axis."""
    rules = game["replacements"]
    schedule = replacement_schedule(game, turn)[side]
    side_rules = rules[side]
    if side == "axis":
        base = schedule["points"]
        deductions: tuple[Deduction, ...] = ()
    else:
        base = schedule["base_points"]
        deductions = (
            _soviet_deductions(enemy_held_cities, cut_rail_lines, game)
            if schedule["deductions_apply"]
            else ()
        )
    points = max(0, base - sum(deduction.points for deduction in deductions))
    first = side_rules["first_turn"]
    if base == 0 and turn < first:
        reason = text(
            f"No replacements before turn {first} ({side_rules['rule']}).",
            f"補充は第{first}ターンから（{side_rules['rule']}）。",
        )
    else:
        reason = text(
            f"{points} replacement points; unused points are lost (10.12).",
            f"補充ポイント{points}。使わなかったポイントは失われます（10.12）。",
        )
    return Replacements(
        side=side,
        turn=turn,
        base=base,
        deductions=deductions,
        points=points,
        armor_units_max=schedule["armor_units_max"],
        rule=side_rules["rule"],
        available=turn >= first,
        reason=reason,
    )


def _soviet_deductions(
    held: Iterable[str], cut: Iterable[str], game: Mapping[str, Any]
) -> tuple[Deduction, ...]:
    soviet = game["replacements"]["soviet"]
    by_id = {deduction["id"]: deduction for deduction in soviet["deductions"]}
    held, cut = set(held), set(cut)
    result = []
    for city in soviet["deduction_cities"]:
        name = location_name(game, city)
        if city in held:
            rule = by_id["city_axis_controlled"]
            result.append(
                Deduction(
                    city,
                    "held",
                    rule["points"],
                    "10.14",
                    text(
                        f"{name.en} is Axis-controlled: {signed(-rule['points'])}.",
                        f"{name.ja}が枢軸軍の支配下：{signed(-rule['points'])}。",
                    ),
                    inferred=rule.get("inferred", ""),
                )
            )
        elif city in cut:
            rule = by_id["leningrad_cut" if city == "leningrad" else "city_rail_cut"]
            result.append(
                Deduction(
                    city,
                    "cut",
                    rule["points"],
                    rule.get("rule", "10.14"),
                    text(
                        f"{name.en} cannot trace a rail line to a Soviet map edge: "
                        f"{signed(-rule['points'])}.",
                        f"{name.ja}からソビエト領の地図盤端へ鉄道線が引けない：{signed(-rule['points'])}。",
                    ),
                )
            )
    return tuple(result)


def replacement_cost(action: str) -> int:
    """10.11: restoring a reduced unit costs 1, returning an eliminated one (reduced) costs 2."""
    costs = {"restore": 1, "rebuild": 2}
    if action not in costs:
        raise ValueError(f"unknown replacement action {action!r}")
    return costs[action]


@dataclass(frozen=True)
class UnitFacts:
    """What the replacement and casualty rules need to know of a roster unit."""

    side: str
    nationality: str
    type: str
    state: str = "full"
    in_supply: bool = True
    unit_id: str = ""


def replacement_refusals(
    unit: UnitFacts,
    action: str,
    *,
    turn: int,
    points_left: int,
    armor_units_this_turn: int,
    game: Mapping[str, Any],
) -> list[Reason]:
    """Why ``unit`` may not be restored/rebuilt now (empty: it may). ``armor_units_this_turn``:
    other armor units of the side that already received points this turn."""
    rules = game["replacements"]
    side_rules = rules[unit.side]
    refusals: list[Reason] = []
    cost = replacement_cost(action)
    first = side_rules["first_turn"]
    if turn < first:
        refusals.append(
            Reason(
                "no_replacements_yet",
                side_rules["rule"],
                text=text(
                    f"No replacements before turn {first}.",
                    f"補充は第{first}ターンからです。",
                ),
            )
        )
    banned = side_rules.get("not_replaceable", {}).get("nationalities", ())
    if unit.nationality in banned:
        refusals.append(
            Reason(
                "nationality_not_replaceable",
                "11.41",
                text=text(
                    "Hungarian, Italian, Spanish and Finnish units never receive replacements.",
                    "ハンガリー軍、イタリア軍、スペイン軍、フィンランド軍の部隊に補充は使えません。",
                ),
            )
        )
    wanted = {"restore": "reduced", "rebuild": "eliminated"}[action]
    if unit.state in ELIMINATED_OUT_OF_SUPPLY:
        refusals.append(
            Reason(
                "eliminated_out_of_supply",
                "5.1",
                text=text(
                    "A unit eliminated out of supply is removed for good and never returns.",
                    "補給切れで除去された部隊はプレイから恒久的に取り除かれ、決して復帰できません。",
                ),
            )
        )
    elif unit.state != wanted:
        refusals.append(
            Reason(
                "wrong_state",
                "10.11",
                text=text(
                    "Only a reduced unit can be restored to full strength."
                    if action == "restore"
                    else "Only an eliminated unit can be rebuilt (it returns reduced).",
                    "完全戦力に戻せるのは減少戦力の部隊だけです。"
                    if action == "restore"
                    else "再建できるのは除去された部隊だけです（減少戦力で復帰）。",
                ),
            )
        )
    if action == "restore" and not unit.in_supply:
        refusals.append(
            Reason(
                "out_of_supply",
                "10.11",
                text=text(
                    "A reduced unit must be in supply to be restored (Leningrad is always in "
                    "supply, 10.15).",
                    "減少戦力の部隊を回復させるには補給下になければなりません"
                    "（レニングラードは常に補給下、10.15）。",
                ),
            )
        )
    if cost > points_left:
        refusals.append(
            Reason(
                "not_enough_points",
                "10.11",
                text=text(
                    f"Needs {cost} replacement points; {points_left} left this turn.",
                    f"補充ポイントが{cost}必要です（このターンの残り{points_left}）。",
                ),
            )
        )
    cap = replacement_schedule(game, turn)[unit.side]["armor_units_max"]
    if unit.type in ARMOR_TYPES and cap is not None and armor_units_this_turn >= cap:
        refusals.append(
            Reason(
                "armor_cap",
                side_rules["rule"],
                text=text(
                    f"Only {cap} armor unit(s) may receive replacements this turn.",
                    f"このターンに補充を受けられる装甲部隊は{cap}個までです。",
                ),
            )
        )
    return refusals


def rebuild_locations(
    side: str,
    nationality: str,
    enemy_held_cities: Iterable[str],
    cut_rail_lines: Iterable[str],
    game: Mapping[str, Any],
) -> list[str]:
    """Where a rebuilt unit appears (reduced): Axis Warsaw, Romanians Bucharest (10.13, 11.41);
    Soviet: Leningrad, Moscow, Kiev or Stalingrad if Soviet-held and not cut off (10.14, 10.15)."""
    rules = game["replacements"][side]
    if side == "axis":
        if nationality in rules["not_replaceable"]["nationalities"]:
            return []
        appear = rules["rebuilt_units_appear"]
        return [appear.get(nationality, appear["default"]).lower()]
    blocked = set(enemy_held_cities) | set(cut_rail_lines)
    return [city for city in rules["rebuilt_units_appear"]["cities"] if city not in blocked]
