"""Defiant Russia: the terrain effects chart as data (9.0) and terrain in snow (8.3)."""

from campaigns.shortgames.rules.defiant_russia.terrain import combat_modifiers, effective_terrain


def test_effective_terrain():
    assert effective_terrain("swamp", "snow", 35) == "forest"
    assert effective_terrain("swamp", "snow", 34) == "swamp"  # AMB-22: north of 34xx = 35xx+
    assert effective_terrain("swamp", "clear", 40) == "swamp"
    assert effective_terrain("lake", "snow") == "clear"


def test_combat_modifiers_come_from_the_data(tables):
    ids = {modifier.id for modifier in combat_modifiers(tables)}
    assert {"rough.0", "swamp.1", "fortress.1", "snow_axis_attacker", "air_points"} <= ids
