"""Defiant Russia: partisans, the airborne drop, shock armies and the leaders' casualty rolls."""

import pytest

from campaigns.shortgames.rules.defiant_russia.events import (
    airborne_drop,
    leader_casualty_result,
    partisans,
    shock_army_exchange,
)


def test_partisans_from_september(game):
    assert not partisans(3, game).applies
    use = partisans(4, game)
    assert (use.applies, use.table_id, use.roller, use.rule) == (
        True,
        "dr.partisans",
        "soviet",
        "11.2",
    )


@pytest.mark.parametrize(
    ("turn", "weather", "options", "dropped", "applies"),
    [
        (7, "snow", (), False, True),
        (7, "snow", (), True, False),  # once per game
        (6, "snow", (), False, False),  # historical: turn 7 only
        (6, "snow", ("random_weather",), False, True),
        (6, "mud", ("random_weather",), False, False),
        (5, "snow", ("random_weather",), False, False),
    ],
)
def test_airborne_drop(game, turn, weather, options, dropped, applies):
    assert airborne_drop(turn, weather, options, dropped, game).applies == applies


def test_shock_army_exchange(game):
    assert not shock_army_exchange(6, game).applies
    assert shock_army_exchange(7, game).applies


@pytest.mark.parametrize(
    ("some_or_all", "face", "effect"),
    [
        ("some", 1, "leader_dies"),
        ("some", 2, "none"),
        ("all", 2, "leader_dies"),
        ("all", 3, "relocate"),
    ],
)
def test_leader_casualty(game, tables, some_or_all, face, effect):
    assert leader_casualty_result(face, some_or_all, tables, game) == effect
