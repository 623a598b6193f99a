"""Defiant Russia's combat: how many dice one side rolls (7.11: one per strength point) after
supply, weather, terrain, leaders and air points, every step with its rule, and which faces
hit."""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from campaigns.games.registry import LocalizedText, localized
from campaigns.games.rules import Drm, signed
from campaigns.shortgames.rules.common import data_text, text
from campaigns.shortgames.rules.defiant_russia.terrain import chart, terrain_rows


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
    cavalry: bool = False  # what may attack in breakthrough combat (6.6)
    shock: bool = False  # a Soviet shock army (6.6, 11.1)


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
    rows = terrain_rows(tables, terrain)
    procedure = chart(tables, "dr.combat-procedure")
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
            (across_row,) = terrain_rows(tables, [unit.across])
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
        (strait,) = terrain_rows(tables, ["kerch_strait"])
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
