"""Defiant Russia: the weather of the turn, historical or rolled (8.1, 8.2), and the first snow
turn (8.3)."""

import pytest

from campaigns.shortgames.rules.defiant_russia.weather import (
    first_snow_turn,
    weather_from_roll,
    weather_table,
)


def test_historical_weather_needs_no_roll(game):
    roll = weather_table(4, (), game)
    assert (roll.mode, roll.weather, roll.table_id, roll.rule) == (
        "historical",
        "light_mud",
        None,
        "8.1",
    )
    assert "9月" in roll.reason.ja


@pytest.mark.parametrize(("turn", "weather"), [(1, "clear"), (2, "clear"), (7, "snow")])
def test_random_weather_fixed_months(game, turn, weather):
    roll = weather_table(turn, ("random_weather",), game)
    assert (roll.mode, roll.weather, roll.table_id) == ("fixed", weather, None)


def test_random_weather_rolled_by_the_soviet(game):
    roll = weather_table(3, ("random_weather",), game)
    assert (roll.mode, roll.table_id, roll.roller) == ("table", "dr.weather-august", "soviet")


@pytest.mark.parametrize(
    ("turn", "faces"),
    [
        # 8.2 [L372]: August 1–5 clear, 6 light mud.
        (3, ["clear"] * 5 + ["light_mud"]),
        # [L374]: September/October 1–2 clear, 3–4 light mud, 5–6 mud.
        (4, ["clear", "clear", "light_mud", "light_mud", "mud", "mud"]),
        (5, ["clear", "clear", "light_mud", "light_mud", "mud", "mud"]),
        # [L376]: November 1–3 clear, 4–5 mud, 6 snow.
        (6, ["clear", "clear", "clear", "mud", "mud", "snow"]),
    ],
)
def test_weather_from_each_face(game, tables, turn, faces):
    assert [weather_from_roll(turn, face, tables, game) for face in range(1, 7)] == faces


def test_no_weather_roll_on_fixed_turns(game, tables):
    with pytest.raises(ValueError):
        weather_from_roll(7, 6, tables, game)


def test_first_snow_turn():
    assert first_snow_turn({5: "mud", 6: "snow", 7: "snow"}) == 6
    assert first_snow_turn({6: "clear", 7: "snow"}) == 7
    assert first_snow_turn({1: "clear"}) is None
