"""Cherkassy Pocket: the weather of the turn, fixed or rolled on the referee's table (5.3)."""

import pytest

from campaigns.shortgames.rules.cherkassy.weather import weather_from_roll, weather_roll


@pytest.mark.parametrize(
    ("campaign_game", "turn", "weather"), [("scenario-2", 7, "snow"), ("scenario-3", 16, "mud")]
)
def test_scenario_first_turn_weather_is_fixed(game, campaign_game, turn, weather):
    roll = weather_roll(turn, campaign_game, {}, game)
    assert (roll.mode, roll.weather, roll.table_id) == ("fixed", weather, None)


def test_weather_cannot_be_rolled_without_the_table(game):
    roll = weather_roll(0, "scenario-1", {}, game)
    assert (roll.mode, roll.weather, roll.table_id) == ("missing", None, None)
    assert "5.3" in roll.reason.en
    # Scenario 2's second turn is not fixed any more.
    assert weather_roll(8, "scenario-2", {}, game).mode == "missing"


def test_weather_rolled_on_the_referees_table(game, weather_table):
    roll = weather_roll(3, "scenario-4", {"cp.weather-table": weather_table}, game)
    assert (roll.mode, roll.table_id, roll.roller) == ("table", "cp.weather-table", "soviet")
    assert weather_from_roll(4, {"cp.weather-table": weather_table}, game) == "snow"
    assert weather_from_roll(5, {"cp.weather-table": weather_table}, game) == "mud"


def test_the_track_decides_whether_to_roll(game, weather_table):
    track = [{"turn": 3, "condition": "mud"}, {"turn": 4, "condition": "snow_or_mud_roll"}]
    referee = {"cp.weather-track": track, "cp.weather-table": weather_table}
    assert weather_roll(3, "scenario-4", referee, game).weather == "mud"
    assert weather_roll(4, "scenario-4", referee, game).mode == "table"
