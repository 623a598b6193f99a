"""Defiant Russia's reinforcements (10.2): the units the rules name and the roster's units
due on a turn."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from campaigns.games.registry import LocalizedText
from campaigns.shortgames.rules.common import data_text, field_of


@dataclass(frozen=True)
class Reinforcement:
    unit_id: str
    side: str
    turn: int | None
    rule: str
    source: str  # "rules" or "roster"
    name: LocalizedText | None = None
    note: LocalizedText | None = None


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
        unit_id = field_of(unit, "unit_id")
        if field_of(unit, "side") != side or field_of(unit, "entry_turn") != turn:
            continue
        if unit_id in named_ids and any(r.unit_id == unit_id for r in due):
            continue
        due.append(Reinforcement(unit_id, side, turn, "10.2", "roster"))
    return due


def named_unit_id(name_key: str, unit_type: str, side: str, game: Mapping[str, Any]) -> str | None:
    """The id of the unit the rules name that a roster unit is (10.2): by its name
    ("soviet_airborne"), or, for the one Soviet airborne unit of 11.3, by its type — whatever the
    players call it ("1st Airborne Corps"). None: a unit the rules do not name."""
    named = {n["unit"] for n in game["reinforcements"]["named"] if n["side"] == side}
    if name_key in named:
        return name_key
    airborne = game["airborne"]
    if unit_type == "airborne" and side == "soviet" and airborne.get("units") == 1:
        return next((unit_id for unit_id in sorted(named) if "airborne" in unit_id), None)
    return None
