"""Defiant Russia's weather: historical (8.1) or rolled by the month's table (8.2), and the
first snow turn (8.3)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from campaigns.games.registry import LocalizedText
from campaigns.shortgames.rules.common import data_text, dice_table, lookup, text
from campaigns.shortgames.rules.defiant_russia.data import turn_row, weather_name


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
    row = turn_row(game, turn)
    month = data_text(row["month"])
    if "random_weather" not in set(options):
        weather = row["historical_weather"]
        name = weather_name(game, weather)
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
        name = weather_name(game, random["fixed"])
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
    random = turn_row(game, turn)["random_weather"]
    if "table" not in random:
        raise ValueError(f"turn {turn} has no weather roll")
    return lookup(dice_table(tables, random["table"]), face)["weather"]


def first_snow_turn(weather_by_turn: Mapping[int, str]) -> int | None:
    """The first turn with snow so far (8.3, AMB-20), or None."""
    snowy = [turn for turn, weather in weather_by_turn.items() if weather == "snow"]
    return min(snowy) if snowy else None
