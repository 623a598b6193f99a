"""Cherkassy Pocket's sides, unit types and boxes, what the turn depends on (``CpState``), and
the rows of its game data the rules read: the scenarios and the referee slots."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from campaigns.games.registry import LocalizedText
from campaigns.shortgames.rules.common import text

SIDES = ("german", "soviet")
WEATHERS = ("snow", "mud")
# How the rules' texts name them (the game data's names are "Snow"/"降雪", "Mud"/"泥濘").
WEATHER_WORDS = {"snow": ("snow", "降雪"), "mud": ("mud", "泥濘")}
BREAKDOWN_TYPES = frozenset({"tank", "mech_infantry"})  # 10.3: not motorized infantry
ARTILLERY_TYPES = frozenset({"artillery", "motorized_artillery", "rocket_artillery"})
# Where eliminated units go (11.10, 10.3): short keys for the Play Aid Card's boxes.
BOXES = {
    "reconstitution": "eligible_for_reconstitution",
    "recovery_1": "recovery_1_step",
    "recovery_2": "recovery_2_steps",
    "permanent": "permanently_eliminated",
}


# The victory hexes the rules name (7.9, scenario victory conditions: "the Korsun airfield
# (3809)"), so that pages and sheets name the place rather than print its hex.
PLACE_NAMES = {"3809": {"en": "Korsun airfield", "ja": "コルスン飛行場"}}


@dataclass(frozen=True)
class CpState:
    """What the turn sequence depends on beyond the turn and scenario."""

    encirclement_formed: bool = False
    german_north_entered: bool = False
    pz24_rolled: bool = False
    pz24_automatic: bool = False
    pz24_arrives: bool | None = None


def scenario(game: Mapping[str, Any], campaign_game: str) -> Mapping[str, Any]:
    for row in game["scenarios"]:
        if row["campaign_game"] == campaign_game:
            return row
    raise ValueError(f"unknown Cherkassy Pocket scenario {campaign_game!r}")


def check_turn(game: Mapping[str, Any], campaign_game: str, turn: int) -> Mapping[str, Any]:
    row = scenario(game, campaign_game)
    if not row["start"]["turn"] <= turn <= row["end_turn"]:
        raise ValueError(
            f"{campaign_game} runs from turn {row['start']['turn']} to {row['end_turn']}, "
            f"not {turn}"
        )
    return row


def referee_slot(game: Mapping[str, Any], slot_id: str) -> Mapping[str, Any]:
    for slot in game["referee_slots"]:
        if slot["id"] == slot_id:
            return slot
    raise KeyError(slot_id)


def slot_data(referee_tables: Mapping[str, Any], game: Mapping[str, Any], slot_id: str) -> Any:
    if slot_id in referee_tables:
        return referee_tables[slot_id] or None
    return referee_slot(game, slot_id).get("data") or None


def fixed_text(values: Mapping[str, Any]) -> LocalizedText:
    if "weather" in values:
        en, ja = WEATHER_WORDS[values["weather"]]
        return text(
            f"No roll: the scenario fixes the weather ({en}).",
            f"ダイスは振りません：シナリオで天候は{ja}に決まっています。",
        )
    points = values.get("german")
    return text(
        f"No German roll: the scenario gives {points} air points per activation segment "
        "(credited when the German player marks the air power step done).",
        f"ドイツ軍はダイスを振りません：シナリオにより各活性化セグメント{points}ポイント"
        "（ドイツ軍が空軍力ステップを完了にすると加算されます）。",
    )
