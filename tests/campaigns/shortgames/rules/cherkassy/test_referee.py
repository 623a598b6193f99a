"""Cherkassy Pocket: the referee slots still empty, each with what it stops."""

from campaigns.shortgames.rules.cherkassy.referee import missing_rolls


def test_every_missing_slot_is_named_with_what_it_stops(game):
    missing = missing_rolls({}, game)
    assert [m.slot_id for m in missing] == [slot["id"] for slot in game["referee_slots"]]
    crt = next(m for m in missing if m.slot_id == "cp.crt")
    assert "CRT" in crt.reason.en and "審判" in crt.reason.ja


def test_a_filled_slot_is_no_longer_missing(game, weather_table):
    missing = missing_rolls({"cp.weather-table": weather_table}, game)
    assert "cp.weather-table" not in [m.slot_id for m in missing]
    assert len(missing) == len(game["referee_slots"]) - 1
