import pytest

from campaigns.games.registry import get_module
from campaigns.orbat.entry import UnitEntryError, UnitLine, parse_entry, vehicle_and_gun_names


@pytest.fixture(scope="module")
def rf_vehicles():
    charts = get_module("red_factories").files["rg_charts"]["sides"]
    return vehicle_and_gun_names(g["units"] for c in charts.values() for g in c["groups"])


@pytest.mark.parametrize(
    ("text", "line"),
    [
        ("14 × 4-6-7", UnitLine(14, "4-6-7", "infantry")),
        ("14x4-6-7", UnitLine(14, "4-6-7", "infantry")),
        ("3 * 8-3-8 AE", UnitLine(3, "8-3-8 AE", "infantry")),
        ("9-1 leader", UnitLine(1, "9-1 leader", "leader")),
        ("10-0 commissar", UnitLine(1, "10-0 commissar", "leader")),
        ("+1 armor leader", UnitLine(1, "+1 armor leader", "leader")),
        ("2 × LMG", UnitLine(2, "LMG", "support_weapon")),
        ("81mm MTR", UnitLine(1, "81mm MTR", "support_weapon")),
        ("StuG III B of platoon A1#2", UnitLine(1, "StuG III B", "vehicle_or_gun", "A1#2")),
        ("2 x T-34 M41 from A3#1", UnitLine(2, "T-34 M41", "vehicle_or_gun", "A3#1")),
        ("2 × 45LL AT PTP 42", UnitLine(2, "45LL AT PTP 42", "vehicle_or_gun")),
        ("3 × A-P minefield", UnitLine(3, "A-P minefield", "fortification")),
    ],
)
def test_quick_entry_reads_what_players_write(rf_vehicles, text, line):
    assert parse_entry(text, rf_vehicles) == [line]


def test_several_lines_at_once(rf_vehicles):
    lines = parse_entry("14 × 4-6-7; 9-1 leader\n2 × LMG", rf_vehicles)
    assert [(line.quantity, line.unit_type) for line in lines] == [
        (14, "4-6-7"),
        (1, "9-1 leader"),
        (2, "LMG"),
    ]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "Enter a unit"),
        ("0 × 4-6-7", "1 or more"),
        ("-2 × LMG", "1 or more"),
        ("1000 × 4-6-7", "more counters"),
        ("3 × Tiger I", "Unknown unit type “Tiger I”"),
        ("4-6", "Unknown unit type"),
    ],
)
def test_bad_input_gets_a_clear_message(rf_vehicles, text, message):
    with pytest.raises(UnitEntryError, match=message):
        parse_entry(text, rf_vehicles)


def test_another_games_vehicles_are_unknown_here(rf_vehicles):
    with pytest.raises(UnitEntryError):
        parse_entry("SU-76M", rf_vehicles)


def test_a_unit_type_longer_than_a_counter_name_is_refused(rf_vehicles):
    with pytest.raises(UnitEntryError, match="at most 60"):
        parse_entry("foxhole " + "x" * 300, rf_vehicles)
