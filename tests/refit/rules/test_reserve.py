"""SaP's German Armor Reserve as pure rules (refit.rules.reserve) against the seed: CG7.21
[L463–471], CG-1's draws [L618–628], CG-5.2 [L756]."""

import json
from pathlib import Path

import pytest

from refit.rules import reserve as rules

DATA = Path(__file__).resolve().parents[3] / "campaigns/games/slaughter_at_ponyri"
CG = json.loads((DATA / "campaign_games.json").read_text())["campaign_games"]["timetable-disrupted"]
RESERVE = CG["german_armor_reserve"]


def pool():
    vehicles, serial = [], 0
    for vehicle_type, count in rules.initial_pool(RESERVE):
        for _n in range(count):
            serial += 1
            vehicles.append(rules.Vehicle(serial, vehicle_type))
    return vehicles


def test_48_afvs_at_the_cg_start_as_printed():
    assert rules.initial_pool(RESERVE) == [
        ("StuG III G", 21),
        ("StuH 42", 9),
        ("StuPz IV", 6),
        ("PzJg Tiger", 6),
        ("Marder III(t) H", 6),
    ]
    assert len(pool()) == 48


def test_cg5_types_join_the_reserve():
    assert rules.cg5_types(CG["time_frames"]) == {"PzKpfw III L", "PzKpfw IV F1", "PzKpfw IV F2"}


def of_type(vehicles, name, n):
    return [v for v in vehicles if v.vehicle_type == name][:n]


def test_cg1_up_to_20_stug_stuh_marder_and_6_stupz_tiger():
    vehicles = pool()
    twenty = of_type(vehicles, "StuG III G", 14) + of_type(vehicles, "Marder III(t) H", 6)
    assert rules.entry_refusals(RESERVE, "CG-1", 0, twenty, vehicles) == []
    one_over = twenty + of_type(vehicles, "StuH 42", 1)
    assert [r.code for r in rules.entry_refusals(RESERVE, "CG-1", 0, one_over, vehicles)] == [
        "over_max"
    ]
    six = of_type(vehicles, "StuPz IV", 3) + of_type(vehicles, "PzJg Tiger", 3)
    assert rules.entry_refusals(RESERVE, "CG-1", 0, six, vehicles) == []
    seven = six + of_type(vehicles, "PzJg Tiger", 4)[3:]
    reasons = rules.entry_refusals(RESERVE, "CG-1", 0, seven, vehicles)
    assert [(r.code, r.params["n"], r.params["max"]) for r in reasons] == [("over_max", 7, 6)]


def test_cg1_counts_those_that_already_entered_this_time_frame():
    vehicles = pool()
    entered = [
        rules.Vehicle(v.serial, v.vehicle_type, rules.IN_PLAY, entered_index=0)
        for v in of_type(vehicles, "StuG III G", 20)
    ]
    rest = [v for v in vehicles if v.serial > 20]
    chosen = of_type(rest, "StuG III G", 1)
    reasons = rules.entry_refusals(RESERVE, "CG-1", 0, chosen, entered + rest)
    assert [(r.code, r.params["n"]) for r in reasons] == [("over_max", 21)]


def test_later_time_frames_take_any_mobile_afv_without_a_number():
    vehicles = pool()
    assert rules.entry_refusals(RESERVE, "CG-2", 1, vehicles, vehicles) == []
    immobile = rules.Vehicle(1, "StuG III G", repair=rules.IMMOBILIZED)
    wreck = rules.Vehicle(2, "StuG III G", repair=rules.WRECK_UNDER_REPAIR)
    broken = rules.Vehicle(3, "StuG III G", repair=rules.MALFUNCTIONED)
    chosen = [immobile, wreck, broken]
    codes = [r.code for r in rules.entry_refusals(RESERVE, "CG-3", 2, chosen, [])]
    assert codes == ["not_mobile", "not_mobile"]


def test_an_afv_in_play_does_not_enter_again():
    played = rules.Vehicle(1, "StuG III G", rules.IN_PLAY, entered_index=1)
    assert [r.code for r in rules.entry_refusals(RESERVE, "CG-2", 1, [played], [played])] == [
        "not_in_reserve"
    ]


@pytest.mark.parametrize(
    ("repair", "after"),
    [
        (rules.MALFUNCTIONED, rules.READY),
        (rules.READY, rules.READY),
        (rules.IMMOBILIZED, rules.IMMOBILIZED),
        (rules.WRECK_UNDER_REPAIR, rules.WRECK_UNDER_REPAIR),
    ],
)
def test_11_6132_repairs_malfunctioned_weapons_only(repair, after):
    assert rules.after_11_6132(repair) == after


def test_counts_by_type_and_state():
    vehicles = pool()[:3] + [rules.Vehicle(99, "StuG III G", rules.IN_PLAY, entered_index=0)]
    assert rules.counts(vehicles) == {"StuG III G": {"reserve": 3, "in_play": 1}}


def test_cg5_2_is_9_july_am():
    assert rules.cg5_period(CG["time_frames"]) == "CG-5"


@pytest.mark.parametrize(
    ("joined", "carried"),
    [
        ({"PzKpfw IV F1": 3}, [("PzKpfw IV F1", 0, "8-1")]),  # the whole platoon: its leader too
        ({"PzKpfw IV F1": 2}, []),  # one short: the leader stays in the OB
        ({"PzKpfw IV F2": 3}, []),  # another platoon's AFVs
    ],
)
def test_cg9_leader_follows_his_whole_platoon_into_the_reserve(joined, carried):
    results = [
        {"source": "CG-5", "type": "PzKpfw IV F1", "n": 1, "leader": "8-1"},
        {"source": "CG-5", "type": "PzKpfw IV F2", "n": 1, "leader": None},
        {"source": "reserve", "type": "PzKpfw IV F1", "n": 1, "leader": "9-1"},
    ]
    assert rules.leader_carriers(results, joined, "CG-5") == carried
