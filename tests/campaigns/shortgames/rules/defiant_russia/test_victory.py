"""Defiant Russia: the VP as they stand and the automatic victory (13.0)."""

from campaigns.shortgames.rules.defiant_russia.replacements import UnitFacts
from campaigns.shortgames.rules.defiant_russia.victory import (
    RemovedUnit,
    automatic_victory,
    casualty_category,
    casualty_weight,
    victory_status,
)

HISTORICAL_CONTROL = {
    "moscow": "soviet",
    "leningrad": "soviet",
    "rostov": "soviet",
    "sevastopol": "soviet",
    "bryansk": "axis",
    "kharkov": "axis",
    "kiev": "axis",
    "minsk": "axis",
}


def test_the_historical_result_is_6_to_5(game):
    # 13.0 [L604]: the Axis scored on casualties.
    removed = [RemovedUnit("soviet", "other")] * 10 + [RemovedUnit("axis", "german_armor")] * 2
    status = victory_status(HISTORICAL_CONTROL, True, removed, game, turn=7, turn_finished=True)
    assert (status.soviet, status.axis, status.leader, status.final) == (6, 5, "soviet", True)
    assert status.unknown == ()


def test_a_casualty_tie_goes_to_the_soviet(game):
    removed = [RemovedUnit("soviet", "other")] * 3 + [RemovedUnit("axis", "german_armor")]
    status = victory_status(HISTORICAL_CONTROL, False, removed, game)
    # 3 weighted each: Soviet gets the casualty VP; Stalin dead gives the Axis 1.
    assert (status.soviet, status.axis) == (6, 5)
    assert not status.final


def test_casualty_weights(game):
    assert casualty_weight("axis", "german_armor", game) == 3
    assert casualty_weight("axis", "guderian", game) == 3
    assert casualty_weight("axis", "finnish", game) == 2
    assert casualty_weight("axis", "romanian", game) == 1
    assert casualty_weight("soviet", "shock_army", game) == 2
    assert casualty_weight("soviet", "other", game) == 1
    assert casualty_category(UnitFacts("axis", "german", "armor")) == "german_armor"
    assert casualty_category(UnitFacts("axis", "german", "infantry")) == "german_other"
    assert casualty_category(UnitFacts("soviet", "soviet", "tank_corps")) == "other"
    assert casualty_category(UnitFacts("soviet", "soviet", "fleet")) == "fleet"


def test_unknown_control_is_shown_not_counted(game):
    status = victory_status({"moscow": "soviet"}, None, [], game, turn=3)
    assert status.soviet == 3  # Moscow 2 + the casualty tie
    assert "minsk" in status.unknown and "stalin" in status.unknown
    assert not status.final


def test_automatic_victory(game):
    axis = {"leningrad": "axis", "moscow": "axis", "stalingrad": "axis"}
    assert automatic_victory(axis, game) == "axis"
    assert automatic_victory({**axis, "stalingrad": "soviet"}, game) is None
    assert automatic_victory({"warsaw": "soviet", "helsinki": "soviet"}, game) == "soviet"
    status = victory_status(axis, True, [], game, turn=4)
    assert (status.automatic, status.leader, status.final) == ("axis", "axis", True)
