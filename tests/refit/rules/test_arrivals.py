"""What each SaP time frame brings (refit.rules.arrivals), against the seed's OB lists
(004 L646–778) and CG7.22 / CG7.23 / CG-4.2."""

import json
from pathlib import Path

import pytest

from refit.rules import arrivals as rules

DATA = Path(__file__).resolve().parents[3] / "campaigns/games/slaughter_at_ponyri"
FRAMES = json.loads((DATA / "campaign_games.json").read_text())["campaign_games"][
    "timetable-disrupted"
]["time_frames"]


def brought(period, side):
    found = rules.arrivals(FRAMES, period, side)
    rgs, units = {}, {}
    for arrival in found:
        for rg, n in arrival.rgs:
            rgs[rg] = rgs.get(rg, 0) + n
        for unit in arrival.units:
            units[unit.text] = units.get(unit.text, 0) + unit.count
    return rgs, units


def test_cg1_brings_nothing_its_forces_are_the_initial_ob():
    assert brought("CG-1", "german") == ({}, {})
    assert brought("CG-1", "russian") == ({}, {})


def test_cg2_german_rgs_and_no_reserve_draw_as_units():
    # L658–662: RG I1 × 2, I3 × 3, I6 (× 1); the reserve draw (L654) is not an arrival.
    assert brought("CG-2", "german") == ({"I1": 2, "I3": 3, "I6": 1}, {})
    assert brought("CG-2", "russian") == ({}, {})
    (arrival,) = rules.arrivals(FRAMES, "CG-2", "german")
    assert arrival.turn == 1


def test_cg3_stavka_east_and_south():
    # L678: I2 × 4, T-34 M43 × 30 (east); L682: I2 × 2, KV-1 M42 × 11, KV-1 M42 AAMG × 4 (south).
    east, south = rules.arrivals(FRAMES, "CG-3", "russian")
    assert east.rgs == (("I2", 4),)
    assert [(u.text, u.count, u.stavka) for u in east.units] == [("T-34 M43", 30, True)]
    assert south.rgs == (("I2", 2),)
    assert [(u.text, u.count) for u in south.units] == [
        ("KV-1 M42", 11),
        ("KV-1 M42 (with AAMG)", 4),
    ]
    assert east.unit_count + south.unit_count == 45
    assert brought("CG-3", "german") == ({}, {})


def test_cg4_stavka():
    # L706: T-70 × 15, T-34 M43 × 5, Valentine VIII(b) × 10, SU-152 × 2.
    assert brought("CG-4", "russian") == (
        {},
        {"T-70": 15, "T-34 M43": 5, "Valentine VIII(b)": 10, "SU-152": 2},
    )
    (arrival,) = rules.arrivals(FRAMES, "CG-4", "russian")
    assert all(u.stavka for u in arrival.units)


def test_cg5_dug_in_t34s_set_up_with_an_lmg_each_and_the_german_group():
    # L730: T-34 M41 (dug-in) × 6, set up inside the perimeter (no entry turn).
    (dug_in,) = rules.arrivals(FRAMES, "CG-5", "russian")
    assert dug_in.turn is None
    assert [(u.text, u.count, u.dug_in, u.stavka) for u in dug_in.units] == [
        ("T-34 M41 (dug-in)", 6, True, False)
    ]
    assert rules.dug_in_lmg(dug_in.units) == 6  # CG7.23: one LMG per T-34 M41
    # L742–750: I1 × 3, I4 × 2, PzKpfw III L × 3, PzKpfw IV F1 × 3, PzKpfw IV F2 × 3.
    assert brought("CG-5", "german") == (
        {"I1": 3, "I4": 2},
        {"PzKpfw III L": 3, "PzKpfw IV F1": 3, "PzKpfw IV F2": 3},
    )


def test_cg6_russian_i2_from_turn_3():
    (arrival,) = rules.arrivals(FRAMES, "CG-6", "russian")
    assert (arrival.rgs, arrival.turn) == ((("I2", 2),), 3)
    assert brought("CG-6", "german") == ({}, {})


def test_no_lmg_for_other_afvs():
    units = [rules.ArrivingUnit("T-34 M43", 5, stavka=True)]
    assert rules.dug_in_lmg(units) == 0


@pytest.mark.parametrize(
    ("south", "codes"),
    [
        (9, ["south_edge_minimum"]),
        (10, []),
        (32, []),
        (33, ["south_edge_over"]),
        (None, ["south_edge_minimum"]),
    ],
)
def test_cg4_2_at_least_10_via_the_south_edge(south, codes):
    found = rules.arrivals(FRAMES, "CG-4", "russian")
    reasons = rules.designation_problems(found, turn_two={}, south=south, south_rule=True)
    assert [r.code for r in reasons] == codes


def test_turn_two_designations_within_what_arrives():
    found = rules.arrivals(FRAMES, "CG-3", "russian")
    ok = rules.designation_problems(
        found, turn_two={"T-34 M43": 30, "I2": 6}, south=None, south_rule=False
    )
    assert ok == []
    over = rules.designation_problems(
        found, turn_two={"T-34 M43": 31}, south=None, south_rule=False
    )
    assert [(r.code, r.params["max"]) for r in over] == [("designation_over", 30)]


@pytest.mark.parametrize(
    ("statuses", "leaves"),
    [
        (["stavka"], True),
        (["stavka", "immobilized"], True),
        (["stavka", "captured"], False),
        (["stavka", "blaze_wreck"], False),
        (["dug_in"], False),
        ([], False),
    ],
)
def test_stavka_leaves_unless_captured_or_in_a_blaze(statuses, leaves):
    assert rules.stavka_leaves(statuses) is leaves
