"""Defiant Russia: Axis air points against a fleet (11.52)."""

from campaigns.shortgames.rules.defiant_russia.air import (
    fleet_air_raid,
    fleet_raid_refusals,
    fleet_raid_result,
)


def test_fleet_air_raid_three_points_per_turn(game):
    raid = fleet_air_raid(5, 0, game)
    assert (raid.dice, raid.hit_on) == (3, (5, 6))
    assert fleet_air_raid(2, 2, game).dice == 1
    assert fleet_air_raid(1, 3, game).dice == 0


def test_the_rule_at_the_limit_and_one_over(game):
    assert fleet_raid_refusals("axis", 4, 2, game) == []
    (far,) = fleet_raid_refusals("axis", 5, 0, game)
    assert (far.code, far.rule) == ("fleet_raid_too_far", "11.52")
    (cap,) = fleet_raid_refusals("axis", 1, 3, game)
    assert cap.code == "fleet_raid_cap"
    assert fleet_raid_refusals("axis", None, 0, game)[0].code == "fleet_raid_distance_missing"
    assert fleet_raid_refusals("soviet", 1, 0, game)[0].code == "fleet_raid_not_axis"
    assert fleet_raid_result(True, True, True) == "reduced"
    assert fleet_raid_result(True, True, False) == "eliminated"  # the Baltic Fleet
    assert fleet_raid_result(True, False, True) == "eliminated"
    assert fleet_raid_result(False, True, True) == ""
