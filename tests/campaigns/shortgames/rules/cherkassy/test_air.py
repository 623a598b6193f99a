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


def test_a_credit_is_recorded_per_front_while_the_split_holds():
    from campaigns.shortgames.rules.cherkassy.air import credited_by_front

    # The worked example: 5 rolled on turn 2 → 3 to the 1st UF (the odd point), 2 to the 2nd.
    assert credited_by_front("soviet", 5, 2, False) == [("1uf", 3), ("2uf", 2)]
    assert credited_by_front("soviet", 1, 2, False) == [("1uf", 1)]  # the 2nd UF gets no row
    assert credited_by_front("soviet", 3, 0, False) == [("", 3)]  # turn 0: not split
    assert credited_by_front("soviet", 4, 9, True) == [("", 4)]  # the pocket formed
    assert credited_by_front("german", 5, 2, False) == [("", 5)]


def test_a_front_spends_its_own_share_at_the_limit_and_not_one_over():
    from campaigns.shortgames.rules.cherkassy.air import front_to_spend

    left = {"1uf": 3, "2uf": 1}
    assert front_to_spend("soviet", "2uf", 1, left) == ("2uf", None)  # the limit: its last point
    pool, refused = front_to_spend("soviet", "2uf", 1, {"1uf": 3, "2uf": 0})  # one over
    assert refused is not None and refused.rule == "11.16"
    assert "2nd Ukrainian Front has 0" in refused.in_language("en")
    assert "第2ウクライナ正面軍" in refused.in_language("ja")
    # While the points are split a spending names its Front.
    assert front_to_spend("soviet", "", 1, left)[1].code == "front_needed"
    # Points no Front owns (turn 0, after the pocket) pay for any combat.
    assert front_to_spend("soviet", "1uf", 1, {"": 2}) == ("", None)
    assert front_to_spend("soviet", "", 1, {"": 2}) == ("", None)
    assert front_to_spend("german", "", 1, {"": 1}) == ("", None)
