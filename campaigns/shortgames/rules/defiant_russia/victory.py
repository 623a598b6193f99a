"""Defiant Russia's victory (13.0): the VP as they stand, the casualty categories and
weights, and the automatic victory."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from campaigns.games.registry import LocalizedText
from campaigns.shortgames.rules.common import data_text, text
from campaigns.shortgames.rules.defiant_russia.data import SIDE_NAMES, SIDES
from campaigns.shortgames.rules.defiant_russia.replacements import UnitFacts


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
