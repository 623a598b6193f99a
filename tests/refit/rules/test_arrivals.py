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


# --- placement into the Retained box (SaP 11.2 "Retained" [L379], CG-3.1/3.2/4.1) -----------


def _lines(*rows):
    return [rules.ArrivingLine(n, text, count) for n, (text, count) in enumerate(rows, 1)]


def test_cg3_designations_split_off_the_turn_two_part_with_its_groups_rule():
    special = FRAMES["CG-3"]["special_rules"]
    groups = FRAMES["CG-3"]["reinforcements"]["russian"]
    rule_of = {
        unit["text"]: rules.designation_rule(group["entry"]["en"], special)
        for group in groups
        for unit in group["units"]
    }
    assert rule_of == {
        "T-34 M43": "CG-3.1",
        "KV-1 M42": "CG-3.2",
        "KV-1 M42 (with AAMG)": "CG-3.2",
    }
    found = rules.placements(
        _lines(("T-34 M43", 30), ("KV-1 M42", 11)),
        turn_two={"T-34 M43": 10},
        rule_of=rule_of,
        period="CG-3",
    )
    assert found == [
        rules.Placement(1, 10, True, "CG-3.1"),
        rules.Placement(1, 20, False, "CG-3"),
        rules.Placement(2, 11, False, "CG-3"),
    ]


@pytest.mark.parametrize(
    ("designated", "expected"),
    [
        (30, [rules.Placement(1, 30, True, "CG-4.1")]),  # the limit: the whole line
        (31, [rules.Placement(1, 30, True, "CG-4.1")]),  # one over: never more than arrive
        (0, [rules.Placement(1, 30, False, "CG-4")]),
    ],
)
def test_a_designation_takes_at_most_the_line(designated, expected):
    found = rules.placements(
        _lines(("T-70", 30)),
        turn_two={"T-70": designated},
        rule_of={"T-70": "CG-4.1"},
        period="CG-4",
    )
    assert found == expected


def test_an_lmg_or_leader_is_never_designated():
    lmg = rules.ArrivingLine(1, "LMG", 6, "support_weapon")
    assert rules.placements([lmg], turn_two={"LMG": 6}, rule_of={}, period="CG-5") == [
        rules.Placement(1, 6, False, "CG-5")
    ]


def test_only_cg5s_german_afvs_wait_off_map():
    assert rules.waits_off_map("german", FRAMES["CG-5"]["special_rules"])
    assert not rules.waits_off_map("russian", FRAMES["CG-5"]["special_rules"])
    assert not rules.waits_off_map("german", FRAMES["CG-6"]["special_rules"])


@pytest.mark.parametrize(
    ("before", "after", "refused"),
    [
        (["dug_in"], [], True),
        (["dug_in", "isolated"], ["isolated"], True),
        (["dug_in"], ["dug_in", "isolated"], False),
        ([], [], False),
        ([], ["dug_in"], False),
    ],
)
def test_cg7_23_a_dug_in_afv_is_never_made_mobile(before, after, refused):
    reason = rules.dug_in_refusal(before, after)
    assert (reason is not None) is refused
    if refused:
        assert (reason.code, reason.rule) == ("dug_in_never_mobile", "CG7.23")
