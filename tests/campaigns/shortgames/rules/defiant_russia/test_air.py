"""Defiant Russia: Axis air points against a fleet (11.52)."""

from campaigns.shortgames.rules.defiant_russia.air import fleet_air_raid


def test_fleet_air_raid_three_points_per_turn(game):
    raid = fleet_air_raid(5, 0, game)
    assert (raid.dice, raid.hit_on) == (3, (5, 6))
    assert fleet_air_raid(2, 2, game).dice == 1
    assert fleet_air_raid(1, 3, game).dice == 0
