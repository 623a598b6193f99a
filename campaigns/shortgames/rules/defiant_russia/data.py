"""Defiant Russia's sides and unit types, and the rows of its game data the rules read."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from campaigns.games.registry import LocalizedText
from campaigns.shortgames.rules.common import data_text, text

SIDES = ("axis", "soviet")
WEATHERS = ("clear", "light_mud", "mud", "snow")
ARMOR_TYPES = frozenset({"armor", "tank_corps"})
SOVIET_ARMY_TYPES = frozenset({"infantry_army", "shock_army"})
# 5.1: eliminated while out of supply, never replaced (the roster stores "eliminated_oos").
ELIMINATED_OUT_OF_SUPPLY = frozenset({"eliminated_oos", "eliminated_out_of_supply"})
SIDE_NAMES = {"axis": ("Axis", "枢軸軍"), "soviet": ("Soviet", "ソビエト連邦")}


# 6.4: at the start the Axis holds every hex of Greater Germany, Finland, Hungary and Romania;
# the Soviet player every hex of the USSR. The places outside the USSR, by their roles.
AXIS_AT_START_ROLES = frozenset(
    {"axis_rebuild", "finnish_supply", "finnish_conquest", "romanian_rebuild", "romanian_conquest"}
)


def start_controller(place: Mapping[str, Any]) -> str:
    """6.4: who holds a named place when play starts: the Axis Warsaw, Helsinki and Bucharest,
    the Soviet player every place in the USSR."""
    return "axis" if AXIS_AT_START_ROLES & set(place.get("roles") or ()) else "soviet"


# --------------------------------------------------------------------------- data access


def turn_row(game: Mapping[str, Any], turn: int) -> Mapping[str, Any]:
    for row in game["turns"]:
        if row["turn"] == turn:
            return row
    raise ValueError(f"Defiant Russia has turns 1–{len(game['turns'])}, not {turn}")


def weather_name(game: Mapping[str, Any], weather: str) -> LocalizedText:
    for kind in game["weather"]["types"]:
        if kind["key"] == weather:
            return data_text(kind["name"])
    raise ValueError(f"unknown weather {weather!r}")


def location_name(game: Mapping[str, Any], location: str) -> LocalizedText:
    for place in game["key_locations"]:
        if place["id"] == location:
            return data_text(place["name"])
    return text(location, location)


def replacement_schedule(game: Mapping[str, Any], turn: int) -> Mapping[str, Any]:
    turn_row(game, turn)
    for row in game["replacements"]["schedule"]:
        if row["turn"] == turn:
            return row
    raise ValueError(f"no replacement schedule for turn {turn}")
