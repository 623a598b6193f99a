"""What the combat helpers read from a player, without a database: Defiant Russia's "6a, 3"
units, Cherkassy's printed strengths and the totals typed by hand."""

import pytest

from campaigns.shortgames.rules.combat_input import (
    DR_MAX_UNITS,
    air_points,
    cp_attack_defense,
    cp_totals,
    parse_combat_units,
    typed_strength,
)
from campaigns.shortgames.rules.defiant_russia.combat import CombatUnit

# --- Defiant Russia ---------------------------------------------------------------------------


def test_each_letter_is_a_unit_quality():
    units = parse_combat_units("6a, 4M, 3o, 2r, 1k, 5amo", "german")
    assert units == [
        CombatUnit(6, armor=True, nationality="german"),
        CombatUnit(4, mountain=True, nationality="german"),
        CombatUnit(3, out_of_supply=True, nationality="german"),
        CombatUnit(2, across="river", nationality="german"),
        CombatUnit(1, across="kerch_strait", nationality="german"),
        CombatUnit(5, armor=True, mountain=True, out_of_supply=True, nationality="german"),
    ]


def test_a_japanese_comma_and_empty_parts_are_fine():
    assert [u.strength for u in parse_combat_units("6、3,, 2 ", "")] == [6, 3, 2]


@pytest.mark.parametrize("text", ["", " , ", "6x", "a6", "100", "6 a", "-1"])
def test_what_is_not_a_unit_is_refused(text):
    with pytest.raises(ValueError):
        parse_combat_units(text, "soviet")


def test_at_most_twelve_units():
    assert len(parse_combat_units(", ".join(["1"] * DR_MAX_UNITS), "")) == DR_MAX_UNITS
    with pytest.raises(ValueError):
        parse_combat_units(", ".join(["1"] * (DR_MAX_UNITS + 1)), "")


@pytest.mark.parametrize(("typed", "points"), [("", 0), ("0", 0), ("2", 2), ("3", 3), ("9", 9)])
def test_air_points_are_read_as_typed_and_the_rules_refuse_over_three(typed, points):
    # Not cut to 3 any more: 11.7's limit is a refusal (rules.defiant_russia.attack).
    assert air_points(typed) == points


@pytest.mark.parametrize("typed", ["-2", "two", "100"])
def test_air_points_below_zero_words_and_huge_numbers_are_refused(typed):
    with pytest.raises(ValueError):
        air_points(typed)


def test_cavalry_and_shock_army_letters():
    cavalry, shock = parse_combat_units("2c, 5s", "soviet")
    assert (cavalry.cavalry, cavalry.shock, shock.shock) == (True, False, True)


# --- Cherkassy Pocket -------------------------------------------------------------------------


def test_attack_and_defence_as_the_counter_shows_them():
    assert cp_attack_defense("6-8-12", "3-4-12", reduced_now=False) == (6, 8)
    assert cp_attack_defense("9-6-16", "5-3-16", reduced_now=True) == (5, 3)


def test_a_reduced_unit_without_a_reduced_line_shows_its_full_line():
    assert cp_attack_defense("9-6-16", "", reduced_now=True) == (9, 6)


def test_a_two_number_line_gives_its_first_number_to_both():
    assert cp_attack_defense("9-6", "", reduced_now=False) == (9, 9)


@pytest.mark.parametrize("line", ["", "art", "6", "6-8-12-1", "100-1"])
def test_a_line_without_strengths_has_none(line):
    assert cp_attack_defense(line, "", reduced_now=False) is None


@pytest.mark.parametrize(("typed", "value"), [("", 0), ("  ", 0), (" 0 ", 0), ("200", 200)])
def test_a_typed_strength(typed, value):
    assert typed_strength(typed) == value


@pytest.mark.parametrize("typed", ["201", "-1", "x", "1.5"])
def test_a_typed_strength_out_of_range_or_not_a_number(typed):
    with pytest.raises(ValueError):
        typed_strength(typed)


def test_totals_add_the_chosen_units_to_what_was_typed():
    strengths = {1: (6, 8), 2: (5, 3), 3: None}
    assert cp_totals(
        attack=2, defense=0, attackers=[1, 3, 99], defenders=[2], strengths=strengths
    ) == (8, 3)
    assert cp_totals(attack=0, defense=0, attackers=[], defenders=[], strengths=strengths) == (
        0,
        0,
    )
