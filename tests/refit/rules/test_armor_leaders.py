"""SaP CG9's platoons and DRMs before the CG, against the data's derived counts and the seed
(L471, L473, L487)."""

import json
from pathlib import Path

from refit.rules import armor_leaders as rules

DATA = Path(__file__).resolve().parents[3] / "campaigns/games/slaughter_at_ponyri"
CG = json.loads((DATA / "campaign_games.json").read_text())["campaign_games"]["timetable-disrupted"]


def tally(platoons):
    counts = {}
    for p in platoons:
        counts[(p.source, p.vehicle_type)] = counts.get((p.source, p.vehicle_type), 0) + 1
    return counts


def test_german_platoons_reserve_and_9_july_am():
    # StuG 21 → 7, StuH 9 → 3, StuPz 6 → 2, PzJg Tiger 6 → 2, Marder 6 → 2; CG-5 3 × 3 → 1 each.
    assert tally(rules.to_roll(CG, "german")) == {
        ("reserve", "StuG III G"): 7,
        ("reserve", "StuH 42"): 3,
        ("reserve", "StuPz IV"): 2,
        ("reserve", "PzJg Tiger"): 2,
        ("reserve", "Marder III(t) H"): 2,
        ("CG-5", "PzKpfw III L"): 1,
        ("CG-5", "PzKpfw IV F1"): 1,
        ("CG-5", "PzKpfw IV F2"): 1,
    }
    derived = CG["german_armor_reserve"]["armor_leaders_before_cg"]["platoons_derived"]
    assert sum(derived.values()) == len(rules.to_roll(CG, "german")) == 19


def test_russian_platoons_stavka_and_dug_in():
    # CG-3: T-34 M43 30 → 10, KV-1 M42 11 + 4 AAMG = 15 → 5; CG-4: T-70 15 → 5, T-34 M43 5 → 1,
    # Valentine 10 + SU-152 2 = 12 → 4; CG-5: dug-in T-34 M41 6 → 2.
    assert tally(rules.to_roll(CG, "russian")) == {
        ("CG-3", "T-34 M43"): 10,
        ("CG-3", "KV-1 M42"): 5,
        ("CG-4", "T-70"): 5,
        ("CG-4", "T-34 M43"): 1,
        ("CG-4", "Valentine VIII(b)"): 4,
        ("CG-5", "T-34 M41"): 2,
    }


def test_drms():
    stug = rules.Platoon("reserve", "StuG III G", 1)
    tiger = rules.Platoon("reserve", "PzJg Tiger", 1)
    dug_in = rules.Platoon("CG-5", "T-34 M41", 1, dug_in=True)
    t70 = rules.Platoon("CG-4", "T-70", 1)
    assert rules.drm_ids("german", stug) == ["stug", "german"]
    assert rules.drm_ids("german", tiger) == ["german"]
    assert rules.drm_ids("russian", dug_in) == ["dug-in"]
    assert rules.drm_ids("russian", t70) == []


def test_platoons_round_down():
    assert len(rules.platoons([("T-70", 2)], "CG-4")) == 0
    assert len(rules.platoons([("T-70", 5)], "CG-4")) == 1
    assert len(rules.platoons([("T-70", 6)], "CG-4")) == 2
