"""Defiant Russia: the rules' numbers as pure functions over the module's data (no Django).

Every function takes the data files as plain dicts (``module.files["game"]``, ``["tables"]``,
``["turn_sequence"]``), so tests pass them in and nothing here reads a file. Rule numbers and
line references are to seed 001; the choices the seed leaves open are the AMB-n decisions
recorded in game.json and docs/rules-decisions.md.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from campaigns.games.registry import LocalizedText, localized
from campaigns.games.rules import Drm, signed
from campaigns.shortgames.rules.common import (
    Limit,
    RuleWarning,
    StepState,
    TableUse,
    data_text,
    dice_table,
    lookup,
    text,
    turn_list,
)
from campaigns.shortgames.rules.common import count_hits as count_hits

SIDES = ("axis", "soviet")
WEATHERS = ("clear", "light_mud", "mud", "snow")
ARMOR_TYPES = frozenset({"armor", "tank_corps"})
SOVIET_ARMY_TYPES = frozenset({"infantry_army", "shock_army"})
# 5.1: eliminated while out of supply, never replaced (the roster stores "eliminated_oos").
ELIMINATED_OUT_OF_SUPPLY = frozenset({"eliminated_oos", "eliminated_out_of_supply"})
SIDE_NAMES = {"axis": ("Axis", "枢軸軍"), "soviet": ("Soviet", "ソビエト連邦")}


# --------------------------------------------------------------------------- data access


def _turn(game: Mapping[str, Any], turn: int) -> Mapping[str, Any]:
    for row in game["turns"]:
        if row["turn"] == turn:
            return row
    raise ValueError(f"Defiant Russia has turns 1–{len(game['turns'])}, not {turn}")


def _weather_name(game: Mapping[str, Any], weather: str) -> LocalizedText:
    for kind in game["weather"]["types"]:
        if kind["key"] == weather:
            return data_text(kind["name"])
    raise ValueError(f"unknown weather {weather!r}")


def _location_name(game: Mapping[str, Any], location: str) -> LocalizedText:
    for place in game["key_locations"]:
        if place["id"] == location:
            return data_text(place["name"])
    return text(location, location)


def _schedule(game: Mapping[str, Any], turn: int) -> Mapping[str, Any]:
    _turn(game, turn)
    for row in game["replacements"]["schedule"]:
        if row["turn"] == turn:
            return row
    raise ValueError(f"no replacement schedule for turn {turn}")


# --------------------------------------------------------------------------- turn sequence


@dataclass(frozen=True)
class PhaseState:
    """One of the eleven phases of 4.0 on a given turn and weather."""

    id: str
    number: int
    side: str | None
    name: LocalizedText
    rule: str
    applies: bool
    limited: bool = False
    reason: LocalizedText | None = None


def _condition(
    condition: Mapping[str, Any],
    *,
    turn: int,
    weather: str | None,
    options: Iterable[str],
    rule: str,
    game: Mapping[str, Any],
    breakthrough: bool = False,
) -> tuple[bool, bool, LocalizedText | None]:
    """Evaluate a phase/step condition (the shape documented in the module's README)."""
    options = set(options)
    required = condition.get("requires_option")
    if required and required not in options:
        return (
            False,
            False,
            text(
                f"Only with the optional rule {required} ({rule}).",
                f"オプションルール「{required}」を使うときだけ（{rule}）。",
            ),
        )
    turns = condition.get("turns")
    if turns is not None:
        turns = set(turns)
        for change in condition.get("option_changes") or ():
            if change["option"] in options:
                turns |= set(change.get("add_turns") or ())
        if turn not in turns:
            if breakthrough and turn == 1:
                return (
                    False,
                    False,
                    text(
                        "Not on turn 1 (6.7).",
                        "第1ターンにはありません（6.7）。",
                    ),
                )
            if turn < min(turns) and set(range(min(turns), max(turns) + 1)) <= turns:
                return (
                    False,
                    False,
                    text(
                        f"From turn {min(turns)} ({rule}).",
                        f"第{min(turns)}ターンから（{rule}）。",
                    ),
                )
            return (
                False,
                False,
                text(
                    f"Only on turn {turn_list(turns)} ({rule}).",
                    f"第{turn_list(turns)}ターンのみ（{rule}）。",
                ),
            )
    weathers = condition.get("weather")
    if weathers is not None and weather is None:
        return (
            False,
            False,
            text(
                "Depends on the weather, which is not known yet (8.0).",
                "天候次第です。天候はまだ決まっていません（8.0）。",
            ),
        )
    if weather is None:
        return True, False, None
    name = _weather_name(game, weather)
    if weathers is not None and weather not in weathers:
        return (
            False,
            False,
            text(
                f"Not in {name.en.lower()} (8.3).",
                f"{name.ja}のターンにはありません（8.3）。",
            ),
        )
    limited = (condition.get("limited") or {}).get(weather)
    if limited:
        return True, True, data_text(limited)
    return True, False, None


def phases(
    turn: int, weather: str | None, options: Iterable[str], game: Mapping[str, Any]
) -> list[PhaseState]:
    """The 11 phases of 4.0 for ``turn`` in ``weather``: which take place, which are limited.
    ``weather`` None (not rolled yet): the weather-dependent phases say so."""
    _turn(game, turn)
    if weather is not None:
        _weather_name(game, weather)
    options = tuple(options)
    result = []
    for phase in game["phases"]:
        applies, limited, reason = _condition(
            phase["exists"],
            turn=turn,
            weather=weather,
            options=options,
            rule="4.0",
            game=game,
            breakthrough="breakthrough" in phase["id"],
        )
        result.append(
            PhaseState(
                id=phase["id"],
                number=phase["number"],
                side=phase["side"],
                name=data_text(phase["name"]),
                rule=phase["rule"],
                applies=applies,
                limited=limited,
                reason=reason,
            )
        )
    return result


def steps(
    turn: int,
    weather: str | None,
    options: Iterable[str],
    sequence: Mapping[str, Any],
    game: Mapping[str, Any],
) -> list[StepState]:
    """The steps of turn_sequence.json for ``turn``: whether each takes place and which of its
    tables are rolled (weather tables only with random weather on turns 3–6, …)."""
    _turn(game, turn)
    options = tuple(options)
    result = []
    for step in sequence["steps"]:
        applies, limited, reason = _condition(
            step["conditions"],
            turn=turn,
            weather=weather,
            options=options,
            rule=step["rule"],
            game=game,
            breakthrough="breakthrough" in (step.get("phase") or ""),
        )
        uses = []
        for table_id in step.get("tables") or ():
            condition = (step.get("table_conditions") or {}).get(table_id)
            table_applies, table_reason = applies, reason
            if applies and condition:
                table_applies, _, table_reason = _condition(
                    condition,
                    turn=turn,
                    weather=weather,
                    options=options,
                    rule=dice_rule(game, table_id, step["rule"]),
                    game=game,
                )
            uses.append(
                TableUse(
                    table_id=table_id,
                    applies=table_applies,
                    rule=step["rule"],
                    reason=table_reason,
                    roller=step.get("side"),
                )
            )
        result.append(
            StepState(
                id=step["id"],
                phase=step.get("phase"),
                side=step.get("side"),
                rule=step["rule"],
                applies=applies,
                limited=limited,
                reason=reason,
                tables=tuple(uses),
            )
        )
    return result


def dice_rule(game: Mapping[str, Any], table_id: str, default: str) -> str:
    if table_id.startswith("dr.weather"):
        return "8.2"
    if table_id == "dr.airborne-drop":
        return game["airborne"]["rule"]
    return default


# --------------------------------------------------------------------------- limits


def _side_text(side: str) -> tuple[str, str]:
    return SIDE_NAMES[side]


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
    row = _turn(game, turn)
    effects = game["weather"]["effects"][weather]
    weather_name = _weather_name(game, weather)
    en_side, ja_side = _side_text(side)
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
                    f"{weather_name.en}: every movement allowance is halved (rounded up).",
                    f"{weather_name.ja}：すべての許容移動力は半減（端数切り上げ）。",
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

    schedule = _schedule(game, turn)[side]
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


# --------------------------------------------------------------------------- weather


@dataclass(frozen=True)
class WeatherRoll:
    """How the turn's weather is found: ``historical`` or ``fixed`` (no roll, ``weather`` set)
    or ``table`` (the ``roller`` rolls ``table_id``)."""

    turn: int
    mode: str
    weather: str | None
    table_id: str | None
    roller: str | None
    rule: str
    reason: LocalizedText


def weather_table(turn: int, options: Iterable[str], game: Mapping[str, Any]) -> WeatherRoll:
    row = _turn(game, turn)
    month = data_text(row["month"])
    if "random_weather" not in set(options):
        weather = row["historical_weather"]
        name = _weather_name(game, weather)
        return WeatherRoll(
            turn,
            "historical",
            weather,
            None,
            None,
            "8.1",
            text(
                f"Historical weather: {month.en} is {name.en.lower()} (8.1).",
                f"歴史的な天候：{month.ja}は{name.ja}（8.1）。",
            ),
        )
    random = row["random_weather"]
    if "fixed" in random:
        name = _weather_name(game, random["fixed"])
        return WeatherRoll(
            turn,
            "fixed",
            random["fixed"],
            None,
            None,
            "8.2",
            text(
                f"No roll: {month.en} is always {name.en.lower()} (8.2).",
                f"サイコロは振りません：{month.ja}はいつも{name.ja}（8.2）。",
            ),
        )
    roller = next(mode for mode in game["weather"]["modes"] if mode["key"] == "random")["roller"]
    return WeatherRoll(
        turn,
        "table",
        None,
        random["table"],
        roller,
        "8.2",
        text(
            f"The Soviet player rolls one die for {month.en}'s weather (8.2).",
            f"ソビエト連邦プレイヤーが{month.ja}の天候をサイコロ1個で決めます（8.2）。",
        ),
    )


def weather_from_roll(
    turn: int, face: int, tables: Mapping[str, Any], game: Mapping[str, Any]
) -> str:
    """The weather key a die face gives on ``turn``'s random weather table."""
    random = _turn(game, turn)["random_weather"]
    if "table" not in random:
        raise ValueError(f"turn {turn} has no weather roll")
    return lookup(dice_table(tables, random["table"]), face)["weather"]


def first_snow_turn(weather_by_turn: Mapping[int, str]) -> int | None:
    """The first turn with snow so far (8.3, AMB-20), or None."""
    snowy = [turn for turn, weather in weather_by_turn.items() if weather == "snow"]
    return min(snowy) if snowy else None


# --------------------------------------------------------------------------- replacements


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
    schedule = _schedule(game, turn)[side]
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
        name = _location_name(game, city)
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
) -> list[RuleWarning]:
    """Why ``unit`` may not be restored/rebuilt now (empty: it may). ``armor_units_this_turn``:
    other armor units of the side that already received points this turn."""
    rules = game["replacements"]
    side_rules = rules[unit.side]
    refusals: list[RuleWarning] = []
    cost = replacement_cost(action)
    first = side_rules["first_turn"]
    if turn < first:
        refusals.append(
            RuleWarning(
                "no_replacements_yet",
                side_rules["rule"],
                text(
                    f"No replacements before turn {first}.",
                    f"補充は第{first}ターンからです。",
                ),
            )
        )
    banned = side_rules.get("not_replaceable", {}).get("nationalities", ())
    if unit.nationality in banned:
        refusals.append(
            RuleWarning(
                "nationality_not_replaceable",
                "11.41",
                text(
                    "Hungarian, Italian, Spanish and Finnish units never receive replacements.",
                    "ハンガリー軍、イタリア軍、スペイン軍、フィンランド軍の部隊に補充は使えません。",
                ),
            )
        )
    wanted = {"restore": "reduced", "rebuild": "eliminated"}[action]
    if unit.state in ELIMINATED_OUT_OF_SUPPLY:
        refusals.append(
            RuleWarning(
                "eliminated_out_of_supply",
                "5.1",
                text(
                    "A unit eliminated out of supply is removed for good and never returns.",
                    "補給切れで除去された部隊はプレイから恒久的に取り除かれ、決して復帰できません。",
                ),
            )
        )
    elif unit.state != wanted:
        refusals.append(
            RuleWarning(
                "wrong_state",
                "10.11",
                text(
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
            RuleWarning(
                "out_of_supply",
                "10.11",
                text(
                    "A reduced unit must be in supply to be restored (Leningrad is always in "
                    "supply, 10.15).",
                    "減少戦力の部隊を回復させるには補給下になければなりません"
                    "（レニングラードは常に補給下、10.15）。",
                ),
            )
        )
    if cost > points_left:
        refusals.append(
            RuleWarning(
                "not_enough_points",
                "10.11",
                text(
                    f"Needs {cost} replacement points; {points_left} left this turn.",
                    f"補充ポイントが{cost}必要です（このターンの残り{points_left}）。",
                ),
            )
        )
    cap = _schedule(game, turn)[unit.side]["armor_units_max"]
    if unit.type in ARMOR_TYPES and cap is not None and armor_units_this_turn >= cap:
        refusals.append(
            RuleWarning(
                "armor_cap",
                side_rules["rule"],
                text(
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


# --------------------------------------------------------------------------- air, reinforcements


def air_points(turn: int, side: str, game: Mapping[str, Any]) -> int:
    """11.7's schedule; points are not saved from turn to turn."""
    return _turn(game, turn)["air_points"][side]


@dataclass(frozen=True)
class Reinforcement:
    unit_id: str
    side: str
    turn: int | None
    rule: str
    source: str  # "rules" or "roster"
    name: LocalizedText | None = None
    note: LocalizedText | None = None


def _field(unit: Any, key: str) -> Any:
    if isinstance(unit, Mapping):
        return unit.get(key)
    return getattr(unit, key, None)


def reinforcements_due(
    turn: int,
    side: str,
    options: Iterable[str],
    game: Mapping[str, Any],
    roster_units: Iterable[Any] = (),
) -> list[Reinforcement]:
    """Units entering on ``turn`` (10.2): those the rules name (Zhukov, the airborne unit, the
    Hungarian and Italian units under Early Invasion) and roster units whose ``entry_turn`` is
    ``turn``. A rules-named unit whose turn the rules do not give is left to the roster."""
    options = set(options)
    oob = {unit["id"]: unit for unit in game["oob"]["units"]}
    due: list[Reinforcement] = []
    named_ids = set()
    for named in game["reinforcements"]["named"]:
        if named["side"] != side:
            continue
        named_ids.add(named["unit"])
        entry = named["turn"]
        if "early_invasion" in options and named.get("early_invasion_turn"):
            entry = named["early_invasion_turn"]
        if entry == turn:
            unit = oob.get(named["unit"])
            due.append(
                Reinforcement(
                    named["unit"],
                    side,
                    entry,
                    named["rule"],
                    "rules",
                    name=data_text(unit["name"]) if unit else None,
                )
            )
    for unit in roster_units:
        unit_id = _field(unit, "unit_id")
        if _field(unit, "side") != side or _field(unit, "entry_turn") != turn:
            continue
        if unit_id in named_ids and any(r.unit_id == unit_id for r in due):
            continue
        due.append(Reinforcement(unit_id, side, turn, "10.2", "roster"))
    return due


# --------------------------------------------------------------------------- special events


def partisans(turn: int, game: Mapping[str, Any]) -> TableUse:
    rules = game["partisans"]
    if turn < rules["first_turn"]:
        return TableUse(
            rules["table"],
            False,
            rules["rule"],
            text(
                f"Partisans act from turn {rules['first_turn']} (September).",
                f"パルチザンは第{rules['first_turn']}ターン(9月)から。",
            ),
            rules["roller"],
        )
    return TableUse(
        rules["table"],
        True,
        rules["rule"],
        text(
            "The Soviet player rolls one die in his organization phase; on a 6 the Axis player "
            "reduces one non-Finnish infantry unit.",
            "ソビエト連邦プレイヤーは組織フェイズにサイコロを1個振ります。6なら枢軸軍プレイヤーは"
            "フィンランド軍以外の歩兵部隊1つを減少させます。",
        ),
        rules["roller"],
    )


def airborne_drop(
    turn: int,
    weather: str,
    options: Iterable[str],
    already_dropped: bool,
    game: Mapping[str, Any],
) -> TableUse:
    """11.3: one drop per game, on a snow turn: turn 7, or turn 6 under random weather."""
    rules = game["airborne"]
    mode = "random_weather" if "random_weather" in set(options) else "historical"
    table, rule, roller = rules["table"], rules["rule"], "soviet"
    if already_dropped:
        return TableUse(
            table,
            False,
            rule,
            text("The airborne unit has dropped already.", "空挺部隊はすでに降下しました。"),
            roller,
        )
    if turn not in rules["drop_turns"][mode]:
        return TableUse(
            table,
            False,
            rule,
            text(
                f"The airborne unit may drop only on turn {turn_list(rules['drop_turns'][mode])}.",
                f"空挺部隊が降下できるのは第{turn_list(rules['drop_turns'][mode])}ターンだけです。",
            ),
            roller,
        )
    if weather not in rules["drop_weather"]:
        return TableUse(
            table,
            False,
            rule,
            text(
                "The airborne unit drops only on a snow turn.",
                "空挺部隊は雪ターンにだけ降下できます。",
            ),
            roller,
        )
    return TableUse(
        table,
        True,
        rule,
        text(
            "At the start of a movement phase the unit moves from a city to a hex within 4 "
            "hexes; then the Soviet player rolls: 1 eliminated, 2–3 reduced.",
            "移動フェイズ開始時に都市から4ヘクス以内に置き、サイコロを1個振ります：1で除去、"
            "2か3で減少戦力。",
        ),
        roller,
    )


def shock_army_exchange(turn: int, game: Mapping[str, Any]) -> TableUse:
    rules = game["shock_armies"]
    applies = turn >= rules["available_turn"]
    return TableUse(
        None,
        applies,
        rules["rule"],
        data_text(rules["procedure"])
        if applies
        else text(
            f"Shock armies are available from turn {rules['available_turn']} (December).",
            f"打撃軍は第{rules['available_turn']}ターン(12月)から利用できます。",
        ),
        "soviet",
    )


def leader_casualty_table(some_or_all: str, game: Mapping[str, Any]) -> str:
    """11.6: which table a leader rolls on when units stacked with him are eliminated (a step
    loss alone never calls for a roll)."""
    tables = game["leaders"]["casualty_tables"]
    key = {"some": "some_of_stack_eliminated", "all": "whole_stack_eliminated"}[some_or_all]
    return tables[key]


def leader_casualty_result(
    face: int, some_or_all: str, tables: Mapping[str, Any], game: Mapping[str, Any]
) -> str:
    """``leader_dies``, ``none`` (survives) or ``relocate`` (survives, placed per 11.6x)."""
    return lookup(dice_table(tables, leader_casualty_table(some_or_all, game)), face)["effect"]


# --------------------------------------------------------------------------- combat


@dataclass(frozen=True)
class CombatUnit:
    """One unit in an attack or defence. ``across``: "river" or "kerch_strait" when attacking
    across that hexside."""

    strength: int
    armor: bool = False
    nationality: str = ""
    mountain: bool = False
    across: str | None = None
    out_of_supply: bool = False


@dataclass(frozen=True)
class CombatLine:
    rule: str
    text: LocalizedText
    dice_after: int


@dataclass(frozen=True)
class CombatDice:
    dice: int
    hit_on: tuple[int, ...]
    lines: tuple[CombatLine, ...]
    fleet_dice: int = 0  # rolled apart: fleet dice hit on 6 only (11.51)


@dataclass(frozen=True)
class CombatModifier:
    id: str
    rule: str
    side: str
    scope: str
    op: str
    value: Any
    text: LocalizedText


def combat_modifiers(tables: Mapping[str, Any]) -> list[CombatModifier]:
    """Every terrain effect of the TEC (9.0) and every strength modifier of the combat
    procedure, as data, for a form that lets the players tick what applies."""
    result = []
    for chart in tables["charts"]:
        if chart["id"] == "dr.terrain-effects":
            for row in chart["rows"]:
                for index, effect in enumerate(row["combat"]):
                    result.append(
                        CombatModifier(
                            f"{row['terrain']}.{index}",
                            chart["rule"],
                            effect["side"],
                            effect.get("scope", "each_unit"),
                            effect["op"],
                            effect.get("value"),
                            data_text(row["name"]),
                        )
                    )
        if chart["id"] == "dr.combat-procedure":
            for modifier in chart["strength_modifiers"]:
                result.append(
                    CombatModifier(
                        modifier["id"],
                        modifier["rule"],
                        modifier["side"],
                        modifier["scope"],
                        modifier["op"],
                        modifier.get("value", modifier.get("value_per_point")),
                        data_text(modifier.get("when"), modifier["id"]),
                    )
                )
    return result


def _chart(tables: Mapping[str, Any], chart_id: str) -> Mapping[str, Any]:
    for chart in tables["charts"]:
        if chart["id"] == chart_id:
            return chart
    raise KeyError(chart_id)


def hit_numbers(
    role: str,
    attacker_side: str,
    terrain: Iterable[str],
    *,
    first_snow_turn: bool = False,
    fleet: bool = False,
    air: bool = False,
) -> tuple[tuple[int, ...], str]:
    """Which faces hit, and the rule: 6 (7.11); 5–6 for defenders of an undestroyed fortress
    (9.0) and for every Soviet attack on the first snow turn (8.3); fleet dice on 6 only (11.51);
    air dice as the attacker's (AMB-19). Pass "fortress" in ``terrain`` only while it stands."""
    if fleet:
        return (6,), "11.51"
    terrain = set(terrain)
    if role == "defender" and "fortress" in terrain:
        return (5, 6), "9.0"
    if role == "attacker" and attacker_side == "soviet" and first_snow_turn:
        return (5, 6), "8.3"
    return (6,), "11.7" if air else "7.11"


def _terrain_rows(tables: Mapping[str, Any], terrain: Iterable[str]) -> list[Mapping[str, Any]]:
    rows = {row["terrain"]: row for row in _chart(tables, "dr.terrain-effects")["rows"]}
    unknown = [name for name in terrain if name not in rows]
    if unknown:
        raise ValueError(f"unknown terrain {unknown}")
    return [rows[name] for name in terrain]


def _to_the_total(drm: Drm, dice: int) -> CombatLine:
    """A modifier of the side's whole dice count (terrain, leaders) as its line (9.0, 7.2x)."""
    value = signed(drm.value)
    return CombatLine(
        drm.rule,
        text(
            f"{localized(drm.reason, 'en')}: {value} to the total.",
            f"{localized(drm.reason, 'ja')}：全戦力に{value}。",
        ),
        dice,
    )


def combat_dice(
    units: Sequence[CombatUnit],
    *,
    role: str,
    side: str,
    weather: str,
    tables: Mapping[str, Any],
    terrain: Sequence[str] = (),
    leaders: Sequence[str] = (),
    zhukov_adjacent_hexes: int = 0,
    air_points: int = 0,
    breakthrough: bool = False,
    first_snow_turn: bool = False,
    attacked_only_across_strait: bool = False,
    fleet_strength: int = 0,
    hit_on: tuple[int, ...] | None = None,
) -> CombatDice:
    """How many dice one side of a combat rolls (7.11: one per strength point), every step
    with its rule.

    ``terrain``: the defender's hex (``clear``, ``rough``, ``forest``, ``swamp``, ``city``,
    ``major_city``, ``fortress`` while undestroyed) as it counts this turn (snow: lakes clear,
    swamps north of 34xx forest — see ``effective_terrain``); river and strait come per unit
    (``CombatUnit.across``). Per unit, halvings are multiplied and rounded up once, then the
    per-unit +/− apply (AMB-18, the 9.1 example); then the totals, leaders and air dice.
    """
    if role not in ("attacker", "defender"):
        raise ValueError(f"role must be attacker or defender, not {role!r}")
    attacker_side = side if role == "attacker" else ("axis" if side == "soviet" else "soviet")
    rows = _terrain_rows(tables, terrain)
    procedure = _chart(tables, "dr.combat-procedure")
    modifiers = {modifier["id"]: modifier for modifier in procedure["strength_modifiers"]}
    snow = modifiers["snow_axis_attacker"]
    lines: list[CombatLine] = []

    per_unit_total = 0
    for unit in units:
        value = float(unit.strength)
        if unit.out_of_supply and role == "attacker":
            value = 1.0
        else:
            factor = 1.0
            if unit.out_of_supply:
                factor *= 0.5
            if (
                role == "attacker"
                and side == "axis"
                and weather == snow["weather"]
                and not _snow_exempt(unit, snow["exempt"])
            ):
                factor *= 0.5
            for row in rows:
                for effect in row["combat"]:
                    if (
                        effect["side"] == role
                        and effect["op"] == "halve"
                        and effect["scope"] == "each_armor_unit"
                        and unit.armor
                    ):
                        factor *= 0.5
            value = math.ceil(value * factor)
        for row in rows:
            for effect in row["combat"]:
                if effect["side"] != role or effect["op"] != "add":
                    continue
                scope = effect["scope"]
                if scope == "each_unit" or (scope == "each_armor_unit" and unit.armor):
                    value += effect["value"]
        if unit.across:
            (across_row,) = _terrain_rows(tables, [unit.across])
            for effect in across_row["combat"]:
                if effect["side"] == role and effect["scope"] == "each_unit_across":
                    value += effect["value"]
        per_unit_total += max(0, int(value))
    dice = per_unit_total
    lines.append(
        CombatLine(
            "7.11",
            text(
                f"{len(units)} unit(s), strength {sum(u.strength for u in units)}; after "
                f"supply, weather and per-unit terrain: {dice}.",
                f"{len(units)}部隊、戦力{sum(u.strength for u in units)}。補給・天候・部隊ごとの"
                f"地形を適用して{dice}。",
            ),
            dice,
        )
    )
    _explain_unit_effects(units, role, side, weather, rows, snow, lines, dice)

    for row in rows:
        for effect in row["combat"]:
            if effect["side"] == role and effect["op"] == "add" and effect["scope"] == "total":
                drm = Drm(effect["value"], data_text(row["name"]), "9.0")
                dice += drm.value
                lines.append(_to_the_total(drm, dice))
    if role == "defender" and attacked_only_across_strait:
        (strait,) = _terrain_rows(tables, ["kerch_strait"])
        bonus = next(e for e in strait["combat"] if e["side"] == "defender")["value"]
        dice += bonus * len(units)
        lines.append(
            CombatLine(
                "9.22",
                text(
                    f"Attacked only across the Kerch Strait: {signed(bonus)} per defending unit.",
                    f"ケルチ海峡越しにだけ攻撃された：防御部隊ごとに{signed(bonus)}。",
                ),
                dice,
            )
        )

    dice = _leader_dice(leaders, role, weather, zhukov_adjacent_hexes, modifiers, lines, dice)

    if air_points and role == "attacker":
        air = modifiers["air_points"]
        if breakthrough:
            lines.append(
                CombatLine(
                    air["rule"],
                    text(
                        "Air points cannot be used in breakthrough combat.",
                        "空軍ポイントは突破戦闘フェイズには使えません。",
                    ),
                    dice,
                )
            )
        else:
            used = min(air_points, air["max_points"])
            dice += used
            lines.append(
                CombatLine(
                    air["rule"],
                    text(
                        f"Air points: {signed(used)} dice (at most {air['max_points']} per attack"
                        + ("; a German unit must attack" if side == "axis" else "")
                        + ").",
                        f"空軍ポイント：サイコロ{signed(used)}（1回の攻撃に最大{air['max_points']}"
                        + ("。ドイツ軍部隊が攻撃していること" if side == "axis" else "")
                        + "）。",
                    ),
                    dice,
                )
            )
    dice = max(0, dice)
    if hit_on is None:
        hit_on, rule = hit_numbers(role, attacker_side, terrain, first_snow_turn=first_snow_turn)
    else:
        rule = "7.11"
    faces = "5–6" if hit_on == (5, 6) else "–".join(str(face) for face in hit_on)
    lines.append(
        CombatLine(
            rule,
            text(
                f"Roll {dice} dice; each {faces} is a hit.", f"サイコロ{dice}個、{faces}でヒット。"
            ),
            dice,
        )
    )
    if fleet_strength:
        lines.append(
            CombatLine(
                "11.51",
                text(
                    f"Fleet: {fleet_strength} dice rolled apart, hitting on 6 only.",
                    f"艦隊：サイコロ{fleet_strength}個を別に振り、6のみヒット。",
                ),
                dice,
            )
        )
    return CombatDice(dice, tuple(hit_on), tuple(lines), fleet_dice=fleet_strength)


def _snow_exempt(unit: CombatUnit, exempt: Iterable[str]) -> bool:
    exempt = set(exempt)
    if unit.nationality in exempt:
        return True
    return unit.mountain and f"{unit.nationality}_mountain" in exempt


def _explain_unit_effects(
    units: Sequence[CombatUnit],
    role: str,
    side: str,
    weather: str,
    rows: Sequence[Mapping[str, Any]],
    snow: Mapping[str, Any],
    lines: list[CombatLine],
    dice: int,
) -> None:
    """One line per per-unit effect that touched at least one unit, so the total can be
    checked by hand."""
    if role == "attacker" and any(u.out_of_supply for u in units):
        lines.append(
            CombatLine(
                "5.1",
                text("Out of supply: attacks with strength 1.", "補給切れ：攻撃力は1。"),
                dice,
            )
        )
    if role == "defender" and any(u.out_of_supply for u in units):
        lines.append(
            CombatLine(
                "5.1",
                text(
                    "Out of supply: defence halved (rounded up).",
                    "補給切れ：防御力は半減（切り上げ）。",
                ),
                dice,
            )
        )
    if (
        role == "attacker"
        and side == "axis"
        and weather == snow["weather"]
        and any(not _snow_exempt(u, snow["exempt"]) and not u.out_of_supply for u in units)
    ):
        lines.append(
            CombatLine(
                "8.3",
                text(
                    "Snow: attacking Axis units halved (rounded up once, 9.1), except Finnish and "
                    "German/Romanian mountain units.",
                    "雪：攻撃する枢軸軍部隊は半減（端数は最後に1回切り上げ、9.1）。フィンランド軍と"
                    "ドイツ軍・ルーマニア軍の山岳部隊を除く。",
                ),
                dice,
            )
        )
    for row in rows:
        name = data_text(row["name"])
        for effect in row["combat"]:
            if effect["side"] != role or effect["op"] == "hits_on" or effect["scope"] == "total":
                continue
            armor_only = effect["scope"] == "each_armor_unit"
            if armor_only and not any(u.armor for u in units):
                continue
            if effect["op"] == "halve":
                en, ja = "each armor unit halved (rounded up)", "装甲部隊ごとに半減（切り上げ）"
            else:
                value = signed(effect["value"])
                en = f"{value} per {'armor ' if armor_only else ''}unit"
                ja = f"{'装甲' if armor_only else ''}部隊ごとに{value}"
            lines.append(CombatLine("9.0", text(f"{name.en}: {en}.", f"{name.ja}：{ja}。"), dice))
    crossing_names = {
        "kerch_strait": ("the Kerch Strait", "ケルチ海峡", "9.22"),
        "river": ("a river", "川ヘクスサイド", "9.0"),
    }
    for across in sorted({u.across for u in units if u.across}):
        en, ja, rule = crossing_names[across]
        lines.append(
            CombatLine(
                rule,
                text(
                    f"Attacking across {en}: −1 per unit crossing.",
                    f"{ja}を横切って攻撃：横切る部隊ごとに−1。",
                ),
                dice,
            )
        )


def _leader_dice(
    leaders: Sequence[str],
    role: str,
    weather: str,
    zhukov_adjacent_hexes: int,
    modifiers: Mapping[str, Mapping[str, Any]],
    lines: list[CombatLine],
    dice: int,
) -> int:
    names = {"guderian": ("Guderian", "グデーリアン"), "stalin": ("Stalin", "スターリン"),
             "zhukov": ("Zhukov", "ジューコフ")}  # fmt: skip
    for leader in leaders:
        if leader == "guderian":
            modifier = modifiers["guderian_attack" if role == "attacker" else "guderian_defense"]
            value = modifier["value"]
            if isinstance(value, Mapping):
                value = value["clear"] if weather == "clear" else value["other"]
        elif leader == "stalin":
            modifier = modifiers["stalin"]
            value = modifier["value"]
        elif leader == "zhukov":
            modifier = modifiers["zhukov_attack_stack" if role == "attacker" else "zhukov_defense"]
            value = modifier["value"]
        else:
            raise ValueError(f"unknown leader {leader!r}")
        drm = Drm(value, text(*names[leader]), modifier["rule"])
        dice += drm.value
        lines.append(_to_the_total(drm, dice))
    if role == "attacker" and zhukov_adjacent_hexes:
        modifier = modifiers["zhukov_attack_adjacent"]
        hexes = min(zhukov_adjacent_hexes, 2)
        dice += modifier["value"] * hexes
        lines.append(
            CombatLine(
                modifier["rule"],
                text(
                    f"Zhukov: +1 for each of {hexes} adjacent hex(es) attacking (at most 2).",
                    f"ジューコフ：隣接する攻撃ヘクス{hexes}つにそれぞれ+1（最大2ヘクス）。",
                ),
                dice,
            )
        )
    return dice


def effective_terrain(terrain: str, weather: str, hex_row: int | None = None) -> str:
    """8.3: in snow lakes freeze (clear) and swamps north of row 34xx count as forest
    (AMB-22: rows 35xx and above). ``hex_row``: the first two digits of the hex number."""
    if weather != "snow":
        return terrain
    if terrain == "lake":
        return "clear"
    if terrain == "swamp" and hex_row is not None and hex_row > 34:
        return "forest"
    return terrain


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


# --------------------------------------------------------------------------- victory


@dataclass(frozen=True)
class RemovedUnit:
    """An enemy unit out of play at the end of the game, by its casualty category (13.0)."""

    side: str  # the side that lost it
    category: str


@dataclass(frozen=True)
class VpLine:
    side: str | None
    vp: int
    rule: str
    text: LocalizedText
    known: bool = True


@dataclass(frozen=True)
class VictoryStatus:
    axis: int
    soviet: int
    lines: tuple[VpLine, ...]
    leader: str | None
    final: bool
    automatic: str | None = None
    unknown: tuple[str, ...] = field(default=())


def casualty_category(unit: UnitFacts) -> str:
    """The 13.0 category of a removed unit: Soviet fleet/shock army/airborne/Zhukov count 2;
    Guderian and German armor 3; other German and Finnish 2; the other allies 1."""
    if unit.side == "soviet":
        if unit.unit_id == "zhukov":
            return "zhukov"
        if unit.type in ("fleet", "shock_army", "airborne"):
            return unit.type
        return "other"
    if unit.unit_id == "guderian":
        return "guderian"
    if unit.nationality == "german":
        return "german_armor" if unit.type == "armor" else "german_other"
    return unit.nationality


def casualty_weight(side: str, category: str, game: Mapping[str, Any]) -> int:
    for row in game["victory"]["casualties"]["weights"]:
        if row["side"] == side and category in row["units"]:
            return row["weight"]
    for row in game["victory"]["casualties"]["weights"]:
        if row["side"] == side and "other" in row["units"]:
            return row["weight"]
    raise ValueError(f"no casualty weight for {side} {category}")


def automatic_victory(city_control: Mapping[str, str], game: Mapping[str, Any]) -> str | None:
    """13.0: the Axis holding Leningrad, Moscow and Stalingrad at once, or the Soviet Warsaw
    and Helsinki, wins at once."""
    for rule in game["victory"]["automatic"]:
        if all(city_control.get(city) == rule["side"] for city in rule["hold_simultaneously"]):
            return rule["side"]
    return None


def victory_status(
    city_control: Mapping[str, str],
    stalin_alive: bool | None,
    removed: Iterable[RemovedUnit],
    game: Mapping[str, Any],
    *,
    turn: int = 7,
    turn_finished: bool = False,
) -> VictoryStatus:
    """The VP as they stand (13.0): the VP cities by control, Stalin, and 1 VP for the side
    that removed more (weighted) enemy units, the Soviet on a tie. A city whose control is not
    given is shown unknown and not counted. ``final`` once turn 7 is finished."""
    rules = game["victory"]
    lines: list[VpLine] = []
    unknown: list[str] = []
    points = {"axis": 0, "soviet": 0}
    for city in rules["cities"]:
        name = data_text(city["name"])
        holder = city_control.get(city["id"])
        if holder not in SIDES:
            unknown.append(city["id"])
            lines.append(
                VpLine(
                    None,
                    city["vp"],
                    "13.0",
                    text(
                        f"{name.en}: control not recorded.",
                        f"{name.ja}：支配が記録されていません。",
                    ),
                    known=False,
                )
            )
            continue
        points[holder] += city["vp"]
        en, ja = SIDE_NAMES[holder]
        lines.append(
            VpLine(
                holder,
                city["vp"],
                "13.0",
                text(f"{name.en} ({en}): {city['vp']} VP.", f"{name.ja}（{ja}）：{city['vp']}VP。"),
            )
        )
    stalin = rules["stalin"]
    if stalin_alive is None:
        unknown.append("stalin")
        lines.append(
            VpLine(None, 1, "13.0", text("Stalin: not recorded.", "スターリン：未記録。"), False)
        )
    else:
        holder, vp = next(iter((stalin["alive"] if stalin_alive else stalin["dead"]).items()))
        points[holder] += vp
        lines.append(
            VpLine(
                holder,
                vp,
                "11.62",
                text("Stalin is alive.", "スターリンは生存。")
                if stalin_alive
                else text("Stalin is dead.", "スターリンは死亡。"),
            )
        )
    removed_by = {"axis": 0, "soviet": 0}  # weighted enemy units each side removed
    for unit in removed:
        enemy = "soviet" if unit.side == "axis" else "axis"
        removed_by[enemy] += casualty_weight(unit.side, unit.category, game)
    casualties = rules["casualties"]
    winner = "axis" if removed_by["axis"] > removed_by["soviet"] else casualties["tie"]
    points[winner] += casualties["vp"]
    en, ja = SIDE_NAMES[winner]
    lines.append(
        VpLine(
            winner,
            casualties["vp"],
            "13.0",
            text(
                f"Units removed (weighted): Axis {removed_by['axis']}, Soviet "
                f"{removed_by['soviet']} → {en} {casualties['vp']} VP"
                + (
                    " (tie goes to the Soviet)."
                    if removed_by["axis"] == removed_by["soviet"]
                    else "."
                ),
                f"取り除いた敵部隊（重み付き）：枢軸軍{removed_by['axis']}、ソビエト連邦"
                f"{removed_by['soviet']} → {ja}{casualties['vp']}VP"
                + (
                    "（同数はソビエト連邦）。"
                    if removed_by["axis"] == removed_by["soviet"]
                    else "。"
                ),
            ),
        )
    )
    automatic = automatic_victory(city_control, game)
    if points["axis"] > points["soviet"]:
        leader = "axis"
    elif points["soviet"] > points["axis"]:
        leader = "soviet"
    else:
        leader = None
    final = automatic is not None or (turn >= len(game["turns"]) and turn_finished)
    return VictoryStatus(
        axis=points["axis"],
        soviet=points["soviet"],
        lines=tuple(lines),
        leader=automatic or leader,
        final=final,
        automatic=automatic,
        unknown=tuple(unknown),
    )


# --------------------------------------------------------------------------- stacking


@dataclass(frozen=True)
class StackUnit:
    side: str
    nationality: str
    type: str
    unit_id: str = ""


def _counts_for_stacking(unit: StackUnit, game: Mapping[str, Any]) -> bool:
    if unit.type == "leader":
        return False  # 11.6
    if unit.nationality == "spanish":
        return False  # 6.22, 11.44
    # 6.2 says nothing of fleets (AMB-11): like leaders they are not ground units.
    return unit.type != "fleet"


def stacking_warnings(
    units_in_hex: Sequence[StackUnit], game: Mapping[str, Any]
) -> list[RuleWarning]:
    """6.2: at most 2 units per hex at the end of every phase (leaders, the Blue Division and
    fleets not counted), one Soviet army per hex unless with Stalin, Hungarians and Romanians
    never together. Excess units are removed, chosen by the opponent."""
    rules = game["stacking"]
    warnings: list[RuleWarning] = []
    counted = [unit for unit in units_in_hex if _counts_for_stacking(unit, game)]
    maximum = rules["max_units_per_hex"]
    if len(counted) > maximum:
        warnings.append(
            RuleWarning(
                "over_stacked",
                rules["rule"],
                text(
                    f"{len(counted)} units in one hex; at most {maximum} (leaders, the Blue "
                    "Division and fleets not counted). The opponent removes the excess at the "
                    "end of the phase.",
                    f"1ヘクスに{len(counted)}部隊。最大{maximum}部隊です（リーダー、青師団、艦隊は"
                    "数えません）。フェイズ終了時に超過分は相手の選択で取り除かれます。",
                ),
            )
        )
    with_stalin = any(unit.unit_id == "stalin" for unit in units_in_hex)
    armies = [unit for unit in counted if unit.type in SOVIET_ARMY_TYPES]
    army_rule = rules["soviet_army_units_per_hex"]
    if len(armies) > army_rule["max"] and not with_stalin:
        warnings.append(
            RuleWarning(
                "soviet_armies",
                army_rule["rule"],
                text(
                    "Only one Soviet infantry army or shock army per hex (any two Soviet units "
                    "may stack with Stalin, 11.62).",
                    "1ヘクスに置けるソビエト連邦歩兵軍か打撃軍は1つだけです"
                    "（スターリンとはどの2部隊でもスタックできます、11.62）。",
                ),
            )
        )
    nationalities = {unit.nationality for unit in counted}
    hate = rules["never_together"]
    if set(hate["nationalities"]) <= nationalities:
        warnings.append(
            RuleWarning(
                "hungarian_romanian",
                hate["rule"],
                text(
                    "Hungarian and Romanian units may never end a phase stacked together.",
                    "ハンガリーとルーマニアの部隊は決して一緒に積み重ねられてフェイズを終えることは"
                    "できません。",
                ),
            )
        )
    return warnings
