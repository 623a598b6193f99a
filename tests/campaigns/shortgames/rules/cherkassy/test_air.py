"""Cherkassy Pocket: the air points per activation segment (11.16)."""

import pytest

from campaigns.shortgames.rules.cherkassy.air import (
    air_points,
    air_points_from_roll,
    soviet_front_split,
)
from campaigns.shortgames.rules.common import dice_table, lookup


@pytest.mark.parametrize(("turn", "fixed"), [(0, 3), (1, 6), (2, None)])
def test_soviet_air_points(turn, fixed):
    answer = air_points(turn, 1, "soviet", "scenario-4")
    assert answer.fixed == fixed
    assert (answer.table_id is None) == (fixed is not None)


@pytest.mark.parametrize(
    ("campaign_game", "turn", "fixed"),
    [("scenario-2", 7, 3), ("scenario-2", 8, None), ("scenario-3", 16, 3), ("scenario-4", 7, None)],
)
def test_german_air_points(campaign_game, turn, fixed):
    assert air_points(turn, 2, "german", campaign_game).fixed == fixed


def test_german_air_points_at_most_5(tables):
    assert [air_points_from_roll("german", face) for face in range(1, 7)] == [1, 2, 3, 4, 5, 5]
    assert [air_points_from_roll("soviet", face) for face in range(1, 7)] == [1, 2, 3, 4, 5, 6]
    german = dice_table(tables, "cp.air-points-german")
    assert all(
        lookup(german, f)["air_points"] == air_points_from_roll("german", f) for f in range(1, 7)
    )


def test_soviet_front_split():
    assert soviet_front_split(5, 2, False) == (3, 2)  # the odd point to the 1st UF
    assert soviet_front_split(4, 2, False) == (2, 2)
    assert soviet_front_split(6, 1, False) == (3, 3)
    assert soviet_front_split(3, 0, False) is None  # not on turn 0
    assert soviet_front_split(5, 9, True) is None  # not once the pocket has formed
