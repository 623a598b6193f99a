"""Defiant Russia: how many dice a side of a combat rolls and which faces hit (7.0, 9.0)."""

import pytest

from campaigns.shortgames.rules.defiant_russia.combat import CombatUnit, combat_dice, hit_numbers


def dice(tables, units, **kwargs):
    kwargs.setdefault("weather", "clear")
    return combat_dice(units, tables=tables, **kwargs)


def test_the_7_11_example(tables):
    # A Romanian 4-4 mountain corps attacks the Soviet 18th Tank Corps (2-5) in clear terrain.
    attack = dice(
        tables, [CombatUnit(4, nationality="romanian", mountain=True)], role="attacker", side="axis"
    )
    defence = dice(
        tables,
        [CombatUnit(2, armor=True, nationality="soviet")],
        role="defender",
        side="soviet",
        terrain=["clear"],
    )
    assert (attack.dice, defence.dice) == (4, 2)
    assert attack.hit_on == (6,)


def test_rough_adds_one_per_defending_unit(tables):
    assert (
        dice(tables, [CombatUnit(3)], role="defender", side="soviet", terrain=["rough"]).dice == 4
    )
    assert (
        dice(
            tables,
            [CombatUnit(3), CombatUnit(3)],
            role="defender",
            side="soviet",
            terrain=["rough"],
        ).dice
        == 8
    )


@pytest.mark.parametrize("terrain", ["forest", "swamp", "major_city"])
def test_forest_swamp_major_city_add_one_to_the_total(tables, terrain):
    # 9.0 [L402, L404]: one 3-3 rolls 4 dice, two roll 7.
    assert (
        dice(tables, [CombatUnit(3)], role="defender", side="soviet", terrain=[terrain]).dice == 4
    )
    assert (
        dice(
            tables,
            [CombatUnit(3), CombatUnit(3)],
            role="defender",
            side="soviet",
            terrain=[terrain],
        ).dice
        == 7
    )


def test_the_9_1_example_snow_and_swamp(tables):
    german_armor = CombatUnit(6, armor=True, nationality="german")
    snow = dice(tables, [german_armor], role="attacker", side="axis", weather="snow")
    assert snow.dice == 3
    swamp = dice(
        tables, [german_armor], role="attacker", side="axis", weather="snow", terrain=["swamp"]
    )
    assert swamp.dice == 2  # 6 → 3 → 1½, rounded up once
    assert any(line.rule == "8.3" for line in swamp.lines)


def test_snow_exemptions(tables):
    for unit in (
        CombatUnit(3, nationality="finnish"),
        CombatUnit(3, nationality="german", mountain=True),
        CombatUnit(3, nationality="romanian", mountain=True),
    ):
        assert dice(tables, [unit], role="attacker", side="axis", weather="snow").dice == 3
    assert (
        dice(
            tables,
            [CombatUnit(3, nationality="italian")],
            role="attacker",
            side="axis",
            weather="snow",
        ).dice
        == 2
    )
    # Soviet attackers and all defenders are never halved by snow.
    assert dice(tables, [CombatUnit(3)], role="attacker", side="soviet", weather="snow").dice == 3
    assert (
        dice(
            tables,
            [CombatUnit(3, nationality="german")],
            role="defender",
            side="axis",
            weather="snow",
        ).dice
        == 3
    )


def test_city_costs_attacking_armor_one_each(tables):
    units = [CombatUnit(3, armor=True), CombatUnit(3)]
    assert dice(tables, units, role="attacker", side="axis", terrain=["city"]).dice == 5


def test_river_costs_each_unit_crossing(tables):
    units = [CombatUnit(3, across="river"), CombatUnit(3)]
    assert dice(tables, units, role="attacker", side="axis").dice == 5


def test_kerch_strait(tables):
    assert (
        dice(tables, [CombatUnit(3, across="kerch_strait")], role="attacker", side="axis").dice == 2
    )
    defended = dice(
        tables,
        [CombatUnit(2), CombatUnit(2)],
        role="defender",
        side="soviet",
        attacked_only_across_strait=True,
    )
    assert defended.dice == 6


def test_fortress(tables):
    # AMB-5: −1 per attacking unit (the text), defenders hit on 5–6.
    attack = dice(
        tables,
        [CombatUnit(4), CombatUnit(4, armor=True)],
        role="attacker",
        side="axis",
        terrain=["fortress"],
    )
    assert attack.dice == 6
    defence = dice(
        tables, [CombatUnit(3)], role="defender", side="soviet", terrain=["major_city", "fortress"]
    )
    assert (defence.dice, defence.hit_on) == (4, (5, 6))


def test_out_of_supply(tables):
    assert dice(tables, [CombatUnit(5, out_of_supply=True)], role="attacker", side="axis").dice == 1
    assert dice(tables, [CombatUnit(5, out_of_supply=True)], role="defender", side="axis").dice == 3


def test_never_below_zero(tables):
    units = [CombatUnit(1, armor=True, across="river")]
    assert dice(tables, units, role="attacker", side="axis", terrain=["city", "fortress"]).dice == 0


@pytest.mark.parametrize(
    ("leaders", "role", "weather", "extra"),
    [
        (["guderian"], "attacker", "clear", 2),
        (["guderian"], "attacker", "mud", 1),
        (["guderian"], "defender", "clear", 1),
        (["stalin"], "attacker", "clear", 2),
        (["stalin"], "defender", "snow", 2),  # AMB-10
        (["zhukov"], "attacker", "clear", 2),
        (["zhukov"], "defender", "clear", 1),
    ],
)
def test_leaders(tables, leaders, role, weather, extra):
    side = "axis" if leaders == ["guderian"] else "soviet"
    base = dice(tables, [CombatUnit(3)], role=role, side=side, weather="clear").dice
    got = dice(tables, [CombatUnit(3)], role=role, side=side, weather=weather, leaders=leaders).dice
    assert got - base == extra


def test_zhukov_adjacent_hexes_at_most_two(tables):
    assert (
        dice(tables, [CombatUnit(3)], role="attacker", side="soviet", zhukov_adjacent_hexes=2).dice
        == 5
    )
    assert (
        dice(tables, [CombatUnit(3)], role="attacker", side="soviet", zhukov_adjacent_hexes=3).dice
        == 5
    )


def test_air_points_at_most_three_and_not_in_breakthrough(tables):
    assert dice(tables, [CombatUnit(3)], role="attacker", side="axis", air_points=3).dice == 6
    assert dice(tables, [CombatUnit(3)], role="attacker", side="axis", air_points=4).dice == 6
    assert (
        dice(
            tables, [CombatUnit(3)], role="attacker", side="axis", air_points=3, breakthrough=True
        ).dice
        == 3
    )


def test_hit_numbers():
    assert hit_numbers("attacker", "soviet", [], first_snow_turn=True) == ((5, 6), "8.3")
    assert hit_numbers("defender", "soviet", [], first_snow_turn=True) == ((6,), "7.11")
    assert hit_numbers("attacker", "axis", [], first_snow_turn=True) == ((6,), "7.11")
    assert hit_numbers("defender", "axis", ["fortress"]) == ((5, 6), "9.0")
    # 11.51: fleet dice hit on 6 only, even in a fortress or on the first snow turn.
    assert hit_numbers("attacker", "soviet", [], first_snow_turn=True, fleet=True) == (
        (6,),
        "11.51",
    )


def test_first_snow_turn_soviet_attack_dice(tables):
    result = dice(
        tables,
        [CombatUnit(3)],
        role="attacker",
        side="soviet",
        weather="snow",
        first_snow_turn=True,
    )
    assert result.hit_on == (5, 6)
