"""Defiant Russia: the limits of a side's turn (rail moves, supply, movement, breakthrough, snow,
air and replacement points)."""

import pytest

from campaigns.shortgames.rules.defiant_russia.air import air_points
from campaigns.shortgames.rules.defiant_russia.limits import turn_limits


def limit(limits, key):
    return {item.key: item for item in limits}.get(key)


@pytest.mark.parametrize(
    ("side", "weather", "rail", "supply"),
    [
        ("axis", "clear", 3, 3),
        ("axis", "mud", 3, 3),
        ("axis", "snow", 2, 2),  # 6.5, 5.2
        ("soviet", "clear", 6, 3),
        ("soviet", "snow", 6, 3),  # Soviet supply unchanged in snow
    ],
)
def test_rail_moves_and_supply_range(game, side, weather, rail, supply):
    limits = turn_limits(7 if weather == "snow" else 3, weather, side, game)
    assert limit(limits, "rail_moves").value == rail
    assert limit(limits, "rail_moves").rule == "6.5"
    assert limit(limits, "supply_range").value == supply
    assert str(rail) in limit(limits, "rail_moves").text_en
    assert str(rail) in limit(limits, "rail_moves").text_ja


def test_finnish_supply_is_not_reduced_in_snow(game):
    limits = turn_limits(7, "snow", "axis", game)
    assert limit(limits, "supply_range_finnish").value == 3
    assert limit(turn_limits(7, "snow", "soviet", game), "supply_range_finnish") is None


def test_mud_halves_movement(game):
    assert limit(turn_limits(5, "mud", "axis", game), "movement_factor").value == 0.5
    assert limit(turn_limits(4, "light_mud", "axis", game), "movement_factor") is None


def test_snow_halves_axis_attacks_only(game):
    assert limit(turn_limits(7, "snow", "axis", game), "attack_halved").value is True
    assert limit(turn_limits(7, "snow", "soviet", game), "attack_halved") is None
    assert limit(turn_limits(6, "clear", "axis", game), "attack_halved") is None


def test_breakthrough_limit(game):
    assert limit(turn_limits(1, "clear", "axis", game), "breakthrough").value == "none"
    assert limit(turn_limits(4, "light_mud", "axis", game), "breakthrough").value == "limited"
    assert limit(turn_limits(4, "light_mud", "soviet", game), "breakthrough").value == "none"
    assert limit(turn_limits(2, "clear", "soviet", game), "breakthrough").value == "full"


def test_first_snow_turn_soviet_hits_on_5_or_6(game):
    assert limit(
        turn_limits(6, "snow", "soviet", game, first_snow_turn=6), "attack_hits_on"
    ).value == ("5-6")
    assert (
        limit(turn_limits(7, "snow", "soviet", game, first_snow_turn=6), "attack_hits_on") is None
    )
    assert limit(turn_limits(6, "snow", "axis", game, first_snow_turn=6), "attack_hits_on") is None


# 11.7 [L576–582]: "「/」の左側が枢軸軍空軍ポイント".
AIR = {1: (6, 0), 2: (8, 0), 3: (8, 0), 4: (7, 1), 5: (6, 2), 6: (4, 2), 7: (0, 4)}


@pytest.mark.parametrize(("turn", "points"), AIR.items())
def test_air_points_schedule(game, turn, points):
    assert (air_points(turn, "axis", game), air_points(turn, "soviet", game)) == points
    assert limit(turn_limits(turn, "clear", "axis", game), "air_points").value == points[0]


@pytest.mark.parametrize(
    ("turn", "axis", "soviet"),
    # 10.13: Axis 1 armor unit per turn from turn 3; 10.14: Soviet 2 July–September, then 1.
    [(1, None, None), (2, None, 2), (3, 1, 2), (4, 1, 2), (5, 1, 1), (7, 1, 1)],
)
def test_armor_replacement_caps(game, turn, axis, soviet):
    def cap(side):
        found = limit(turn_limits(turn, "clear", side, game), "armor_replacements_max")
        return found.value if found else None

    assert (cap("axis"), cap("soviet")) == (axis, soviet)
