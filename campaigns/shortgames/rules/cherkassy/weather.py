"""Cherkassy Pocket's weather (5.3): fixed by the scenario or the Turn Record Track, or rolled
by the Soviet player on the referee's table."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from campaigns.games.registry import LocalizedText
from campaigns.shortgames.rules.cherkassy.data import (
    WEATHER_WORDS,
    WEATHERS,
    check_turn,
    scenario,
    slot_data,
)
from campaigns.shortgames.rules.cherkassy.referee import SLOT_BLOCKS
from campaigns.shortgames.rules.common import lookup, text


@dataclass(frozen=True)
class WeatherRoll:
    """``fixed`` (no roll, ``weather`` set), ``table`` (the Soviet player rolls the referee's
    table ``table_id``) or ``missing`` (no table yet; ``reason`` says what is missing)."""

    turn: int
    mode: str
    weather: str | None
    table_id: str | None
    roller: str | None
    rule: str
    reason: LocalizedText


def weather_roll(
    turn: int, campaign_game: str, referee_tables: Mapping[str, Any], game: Mapping[str, Any]
) -> WeatherRoll:
    check_turn(game, campaign_game, turn)
    rules = game["weather"]
    for fixed in rules["scenario_first_turn"]:
        if fixed["campaign_game"] == campaign_game and fixed["turn"] == turn:
            en, ja = WEATHER_WORDS[fixed["weather"]]
            return WeatherRoll(
                turn,
                "fixed",
                fixed["weather"],
                None,
                None,
                scenario(game, campaign_game)["rule"],
                text(
                    f"No roll: the scenario's first turn is {en}.",
                    f"ダイスは振りません：シナリオ最初のターンの天候は{ja}です。",
                ),
            )
    track = slot_data(referee_tables, game, rules["track_referee_slot"])
    printed = None
    if track is not None:
        printed = next((row["condition"] for row in track if row.get("turn") == turn), None)
    if printed in WEATHERS:
        en, ja = WEATHER_WORDS[printed]
        return WeatherRoll(
            turn,
            "fixed",
            printed,
            None,
            None,
            rules["rule"],
            text(
                f"No roll: the Turn Record Track shows {en} for this turn.",
                f"ダイスは振りません：ターン記録トラックのこのターンは{ja}です。",
            ),
        )
    table = slot_data(referee_tables, game, rules["referee_slot"])
    if table is None:
        en, ja = SLOT_BLOCKS["cp.weather-table"]
        return WeatherRoll(
            turn,
            "missing",
            None,
            None,
            rules["roller"],
            rules["rule"],
            text(f"{en} The referee enters it.", f"{ja}審判が入力します。"),
        )
    if printed is None:
        reason = text(
            "The Soviet player rolls on the referee's weather table when the Turn Record Track "
            "shows snow/mud for this turn (the track is not recorded here).",
            "ターン記録トラックのこのターンが降雪/泥濘なら、ソ連軍プレイヤーが審判の天候表で"
            "ダイスを振ります（トラックはここに記録されていません）。",
        )
    else:
        reason = text(
            "The Turn Record Track shows snow/mud: the Soviet player rolls for the weather.",
            "ターン記録トラックは降雪/泥濘：ソ連軍プレイヤーがダイスを振って天候を決めます。",
        )
    return WeatherRoll(
        turn, "table", None, rules["referee_slot"], rules["roller"], rules["rule"], reason
    )


def weather_from_roll(face: int, referee_tables: Mapping[str, Any], game: Mapping[str, Any]) -> str:
    table = slot_data(referee_tables, game, game["weather"]["referee_slot"])
    if table is None:
        raise ValueError("the weather table has not been entered")
    return lookup(table, face)["weather"]
