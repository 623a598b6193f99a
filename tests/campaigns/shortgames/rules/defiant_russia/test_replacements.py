"""Defiant Russia: replacement points, what a unit may receive and where a rebuilt unit appears
(10.1)."""

import pytest

from campaigns.shortgames.rules.defiant_russia.replacements import (
    UnitFacts,
    rebuild_locations,
    replacement_cost,
    replacement_points,
    replacement_refusals,
)


def test_soviet_replacements_start_on_turn_2(game):
    assert replacement_points("soviet", 1, (), (), game).points == 0
    assert not replacement_points("soviet", 1, (), (), game).available
    full = replacement_points("soviet", 2, (), (), game)
    assert (full.points, full.available, full.deductions) == (6, True, ())


def test_axis_replacements_start_on_turn_3_and_ignore_cities(game):
    assert replacement_points("axis", 2, (), (), game).points == 0
    assert "turn 3" in replacement_points("axis", 2, (), (), game).reason.en
    third = replacement_points("axis", 3, ("moscow",), ("kiev",), game)
    assert (third.points, third.deductions, third.available) == (2, (), True)


def test_each_axis_held_city_costs_one(game):
    result = replacement_points("soviet", 3, ("moscow", "kiev"), (), game)
    assert result.points == 4
    assert [(d.city, d.kind, d.points, d.rule) for d in result.deductions] == [
        ("moscow", "held", 1, "10.14"),
        ("kiev", "held", 1, "10.14"),
    ]
    assert result.deductions[0].inferred  # AMB-6: the amount is not printed


def test_a_city_held_and_cut_costs_one(game):
    result = replacement_points("soviet", 3, ("kiev",), ("kiev",), game)
    assert result.points == 5
    assert [d.kind for d in result.deductions] == ["held"]


def test_cut_leningrad_is_10_15(game):
    result = replacement_points("soviet", 3, (), ("leningrad", "stalingrad"), game)
    assert result.points == 4
    assert [(d.city, d.rule) for d in result.deductions] == [
        ("leningrad", "10.15"),
        ("stalingrad", "10.14"),
    ]


def test_only_the_four_cities_count_and_never_below_zero(game):
    assert replacement_points("soviet", 3, ("minsk", "rostov"), ("kharkov",), game).points == 6
    everything = replacement_points(
        "soviet", 7, ("leningrad", "moscow", "kiev", "stalingrad"), (), game
    )
    assert everything.points == 2


def test_replacement_costs():
    assert replacement_cost("restore") == 1
    assert replacement_cost("rebuild") == 2
    with pytest.raises(ValueError):
        replacement_cost("full_return")


def refusal_codes(game, unit, action, *, turn=4, points_left=6, armor=0):
    return [
        warning.code
        for warning in replacement_refusals(
            unit, action, turn=turn, points_left=points_left, armor_units_this_turn=armor, game=game
        )
    ]


def test_a_reduced_unit_in_supply_may_be_restored(game):
    assert (
        refusal_codes(game, UnitFacts("soviet", "soviet", "infantry_army", "reduced"), "restore")
        == []
    )


def test_an_eliminated_unit_may_be_rebuilt_but_not_restored(game):
    unit = UnitFacts("axis", "german", "infantry", "eliminated")
    assert refusal_codes(game, unit, "rebuild") == []
    assert refusal_codes(game, unit, "restore") == ["wrong_state"]


@pytest.mark.parametrize("state", ["eliminated_oos", "eliminated_out_of_supply"])
def test_eliminated_out_of_supply_never_returns(game, state):
    unit = UnitFacts("axis", "german", "infantry", state)
    assert refusal_codes(game, unit, "rebuild") == ["eliminated_out_of_supply"]


@pytest.mark.parametrize("nationality", ["hungarian", "italian", "spanish", "finnish"])
def test_minor_allies_get_no_replacements(game, nationality):
    unit = UnitFacts("axis", nationality, "infantry", "reduced")
    assert refusal_codes(game, unit, "restore") == ["nationality_not_replaceable"]


def test_romanians_may_be_replaced(game):
    assert (
        refusal_codes(game, UnitFacts("axis", "romanian", "infantry", "reduced"), "restore") == []
    )


def test_restore_needs_supply(game):
    unit = UnitFacts("soviet", "soviet", "infantry_army", "reduced", in_supply=False)
    assert refusal_codes(game, unit, "restore") == ["out_of_supply"]


@pytest.mark.parametrize(("points_left", "refused"), [(2, False), (1, True)])
def test_rebuild_needs_two_points(game, points_left, refused):
    unit = UnitFacts("soviet", "soviet", "infantry_army", "eliminated")
    codes = refusal_codes(game, unit, "rebuild", points_left=points_left)
    assert ("not_enough_points" in codes) == refused


@pytest.mark.parametrize(
    ("side", "turn", "already", "refused"),
    [
        ("soviet", 4, 1, False),  # September: 2 armor units
        ("soviet", 4, 2, True),
        ("soviet", 5, 0, False),  # October: 1
        ("soviet", 5, 1, True),
        ("axis", 3, 0, False),
        ("axis", 3, 1, True),
    ],
)
def test_armor_cap(game, side, turn, already, refused):
    armor = UnitFacts(side, "german" if side == "axis" else "soviet",
                      "armor" if side == "axis" else "tank_corps", "reduced")  # fmt: skip
    codes = refusal_codes(game, armor, "restore", turn=turn, armor=already)
    assert ("armor_cap" in codes) == refused
    infantry = UnitFacts(side, armor.nationality, "infantry", "reduced")
    assert "armor_cap" not in refusal_codes(game, infantry, "restore", turn=turn, armor=9)


def test_no_replacements_before_the_first_turn(game):
    unit = UnitFacts("axis", "german", "infantry", "reduced")
    assert refusal_codes(game, unit, "restore", turn=2) == ["no_replacements_yet"]


def test_where_rebuilt_units_appear(game):
    assert rebuild_locations("axis", "german", (), (), game) == ["warsaw"]
    assert rebuild_locations("axis", "romanian", (), (), game) == ["bucharest"]
    assert rebuild_locations("axis", "finnish", (), (), game) == []
    assert rebuild_locations("soviet", "soviet", ("moscow",), ("leningrad",), game) == [
        "kiev",
        "stalingrad",
    ]
