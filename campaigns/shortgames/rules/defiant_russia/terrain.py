"""Defiant Russia's terrain in combat: the terrain effects chart and the combat procedure's
strength modifiers as data (9.0), and how terrain counts in snow (8.3)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from campaigns.games.registry import LocalizedText
from campaigns.shortgames.rules.common import data_text


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


def chart(tables: Mapping[str, Any], chart_id: str) -> Mapping[str, Any]:
    for chart in tables["charts"]:
        if chart["id"] == chart_id:
            return chart
    raise KeyError(chart_id)


def terrain_rows(tables: Mapping[str, Any], terrain: Iterable[str]) -> list[Mapping[str, Any]]:
    rows = {row["terrain"]: row for row in chart(tables, "dr.terrain-effects")["rows"]}
    unknown = [name for name in terrain if name not in rows]
    if unknown:
        raise ValueError(f"unknown terrain {unknown}")
    return [rows[name] for name in terrain]


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
