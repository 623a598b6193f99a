"""Fortification costs (RF 11.621, SaP 11.619) on the rules' examples and at the limits."""

import pytest

from campaigns.games.registry import get_module
from refit.rules.fortification import (
    FortificationOrder,
    Moment,
    Pending,
    booby_trap_level,
    booby_trap_level_after,
    cost,
    item_refusals,
    purchase_table,
    record_totals,
)

RF = get_module("red_factories").files["tables"]
SAP = get_module("slaughter_at_ponyri").files["tables"]
I2 = [{"kind": "fortifications_only", "side": "german", "items": ["?"]}]


def rf(side="soviet", **kw):
    return Moment("red_factories", side, "rb-cg-1", "1942-10-18", "new_day", **kw)


def sap(side="russian", period="CG-2", kind="daytime", **kw):
    return Moment("slaughter_at_ponyri", side, "timetable-disrupted", period, kind, **kw)


def fpp(tables, moment, **order):
    total, reasons = cost(tables, moment, FortificationOrder(**order))
    assert reasons == [], reasons
    return total


def codes(tables, moment, **order):
    return [r.code for r in cost(tables, moment, FortificationOrder(**order))[1]]


def test_rf_worked_example_40_fpp():
    assert fpp(RF, rf(), item="fortified-building") == 10
    assert fpp(RF, rf(), item="ap-minefield", factors=6) == 18
    hip = [
        fpp(RF, rf(), item="hip", unit="squad", quantity=2),
        fpp(RF, rf(), item="hip", unit="hs", quantity=2),
        fpp(RF, rf(), item="hip", unit="crew"),
        fpp(RF, rf(), item="hip", unit="smc"),
    ]
    assert hip == [6, 4, 1, 1] and sum(hip) == 12


@pytest.mark.parametrize(("size", "expected"), [(3, 3), (2, 2), (1, 1)])
def test_rf_foxhole_sizes(size, expected):
    assert fpp(RF, rf(), item="foxhole", size=size) == expected


def test_rf_minefields_by_side():
    assert fpp(RF, rf("german"), item="ap-minefield", factors=6) == 6
    assert fpp(RF, rf("german"), item="at-minefield", factors=2) == 6
    assert fpp(RF, rf(), item="at-minefield", factors=2) == 18


def test_rf_minefield_cap_at_90_and_one_over():
    assert codes(RF, rf(minefield_fpp_today=72), item="ap-minefield", factors=6) == []
    assert codes(RF, rf(minefield_fpp_today=73), item="ap-minefield", factors=6) == [
        "minefield_cap"
    ]


def test_rf_pillbox_and_soviet_only_items():
    assert fpp(RF, rf(), item="pillbox", capacity=2, ca_drm=3, nca_drm=2) == 21
    assert codes(RF, rf("german"), item="pillbox", capacity=2, ca_drm=3, nca_drm=2) == [
        "soviet_only"
    ]
    assert codes(RF, rf("german"), item="at-ditch") == ["soviet_only"]
    assert codes(RF, rf("german"), item="hip", unit="afv") == ["hip_afv_soviet_only"]
    assert fpp(RF, rf(), item="hip", unit="afv") == 5


def test_rf_booby_traps_raise_the_level_to_a_at_most():
    assert fpp(RF, rf(), item="booby-trap") == 40
    assert codes(RF, rf(booby_trap_level="B"), item="booby-trap") == []
    assert codes(RF, rf(booby_trap_level="A"), item="booby-trap") == ["booby_trap_max"]
    assert codes(RF, rf(booby_traps_today=1), item="booby-trap", quantity=2) == ["booby_trap_max"]
    assert booby_trap_level_after("C", 1) == "B"


def test_rf_set_dc_names_its_detonating_unit():
    assert codes(RF, rf(), item="set-dc") == ["detonating_unit"]
    assert fpp(RF, rf(), item="set-dc", detonating_unit="4-4-7 of I3#1") == 15


def test_rf_initial_reph_german_only_concealment():
    initial = Moment("red_factories", "german", "rb-cg-1", "1942-10-17", "before_initial", I2)
    assert codes(RF, initial, item="concealment") == []
    assert codes(RF, initial, item="wire") == ["only_concealment"]


def test_rf_no_under_construction():
    assert "no_under_construction" in codes(RF, rf(), item="wire", under_construction=True)


def test_sap_11_6191_example_30_fpp_under_construction():
    uc = dict(under_construction=True, hexes="Q12 R12")
    parts = [
        fpp(SAP, sap(), item="trench", **uc),
        fpp(SAP, sap(), item="trench", connected=True, quantity=2, **uc),
        fpp(SAP, sap(), item="known_mine_belt", belt="ap_6", quantity=2, **uc),
        fpp(SAP, sap(), item="flame_mine", **uc),
        fpp(SAP, sap(), item="fortified_building_location", **uc),
        fpp(SAP, sap(), item="foxhole", size=2, quantity=2, **uc),
    ]
    assert parts == [4, 6, 10, 3, 5, 2]
    assert sum(parts) == 30


def test_sap_under_construction_rules():
    assert codes(SAP, sap("german"), item="wire", under_construction=True, hexes="A1") == [
        "no_under_construction"
    ]
    assert codes(SAP, sap(), item="wire", under_construction=True) == ["hexes_needed"]
    assert codes(SAP, sap(), item="hip", unit="squad", under_construction=True, hexes="A1") == [
        "no_under_construction"
    ]


def test_sap_trench_variants_pillbox_and_belts():
    assert fpp(SAP, sap(), item="trench") == 7
    assert fpp(SAP, sap(), item="trench", replaces_foxhole=True) == 4
    assert fpp(SAP, sap(), item="pillbox", capacity=1, ca_drm=2, nca_drm=2) == 8  # 7.5 → 8
    am = sap(period="CG-1", kind="pre_cg")
    assert fpp(SAP, am, item="pillbox", capacity=1, ca_drm=2, nca_drm=2) == 4
    assert fpp(SAP, sap(kind="full"), item="hidden_mine_belt", belt="at_4") == 40
    assert codes(SAP, sap(), item="hidden_mine_belt", belt="ap_6") == ["no_hidden_belts_daytime"]
    assert codes(SAP, sap("german"), item="flame_mine") == ["soviet_only"]


def test_sap_german_only_concealment_in_7_july_am():
    am = sap("german", period="CG-1", kind="pre_cg")
    assert codes(SAP, am, item="concealment") == []
    assert codes(SAP, am, item="wire") == ["only_concealment"]


# --- the Fortification Purchase Record's Total # boxes (11.621) ----------------------------


def test_the_11_621_example_total_boxes():
    # One Fortified Building Location ("1"), one 6-factor A-P minefield ("A-P 6"), and HIP for
    # 2 squads, 2 HS, 1 crew and 1 SMC written each in its own box.
    pending = [
        Pending("fortified-building", 1, {}),
        Pending("ap-minefield", 1, {"factors": 6}),
        Pending("hip", 2, {"unit": "squad"}),
        Pending("hip", 2, {"unit": "hs"}),
        Pending("hip", 1, {"unit": "crew"}),
        Pending("hip", 1, {"unit": "smc"}),
    ]
    assert record_totals(pending) == {
        "fortified-building": (("", 1),),
        "ap-minefield": (("ap", 6),),
        "hip": (("squad", 2), ("hs", 2), ("crew", 1), ("smc", 1)),
    }


def test_minefield_totals_add_factors_not_minefields():
    pending = [
        Pending("ap-minefield", 2, {"factors": 6}),  # two 6-factor minefields
        Pending("ap-minefield", 1, {"factors": 4}),
        Pending("at-minefield", 1, {"factors": 2}),
    ]
    assert record_totals(pending) == {"ap-minefield": (("ap", 16),), "at-minefield": (("at", 2),)}


def test_hip_units_keep_the_tables_order_whatever_the_order_bought():
    pending = [Pending("hip", 1, {"unit": "smc"}), Pending("hip", 3, {"unit": "squad"})]
    pending.append(Pending("hip", 1, {"unit": "afv"}))
    assert record_totals(pending)["hip"] == (("afv", 1), ("squad", 3), ("smc", 1))


def test_sap_belts_by_strength_and_foxholes_by_size():
    pending = [
        Pending("known_mine_belt", 2, {"belt": "ap_6"}),
        Pending("known_mine_belt", 1, {"belt": "at_2"}),
        Pending("foxhole", 2, {"size": 2}),
        Pending("foxhole", 1, {"size": 3}),
    ]
    assert record_totals(pending) == {
        "known_mine_belt": (("ap_6", 2), ("at_2", 1)),
        "foxhole": (("2S", 2), ("3S", 1)),
    }


def test_nothing_pending_leaves_every_box_empty_and_an_unknown_minefield_counts_as_bought():
    assert record_totals([]) == {}
    # A purchase stored without its factors (before they were kept) is still counted.
    assert record_totals([Pending("ap-minefield", 2, {})]) == {"ap-minefield": (("", 2),)}


# --- the booby-trap level in force --------------------------------------------------------


def test_the_days_purchase_raises_the_level_of_that_days_scenario():
    # Bought on day 2 (11.621 comes before day 2's scenario): B for day 2's scenario.
    assert booby_trap_level([(2, 1)], 2) == "B"
    assert booby_trap_level([(2, 1)], 1) == "C"


def test_a_drop_comes_before_the_same_days_purchase_and_the_level_stays_within_c_to_a():
    # Day 3: at A, the 11.6123 drop (−1) then a purchase (+1): A again, never above A.
    assert booby_trap_level([(1, 1), (2, 1), (3, 1), (3, -1)], 3) == "A"
    assert booby_trap_level([(1, 1), (2, 1), (2, 1)], 2) == "A"
    assert booby_trap_level([(1, -1)], 1) == "C"


def test_under_construction_holds_from_the_next_time_frame():
    # SaP 11.6191: bought on time frame 1 Under Construction, it is entered as from 2.
    assert booby_trap_level([(1 + 1, 1)], 1) == "C"
    assert booby_trap_level([(1 + 1, 1)], 2) == "B"


def refusals(tables, moment, item_id):
    table = purchase_table(tables)
    item = next(i for i in table["items"] if i["id"] == item_id)
    return [r.code for r in item_refusals(table, moment, item)]


def test_item_refusals_judge_the_item_before_its_variant_is_chosen():
    """What the page shows before the Buy button: the same refusals ``cost`` gives."""
    initial = Moment("red_factories", "german", "rb-cg-1", "1942-10-17", "before_initial", I2)
    assert refusals(RF, initial, "foxhole") == ["only_concealment"]  # no size chosen yet
    assert refusals(RF, initial, "concealment") == []
    assert refusals(RF, rf("german"), "foxhole") == []  # a later RePh
    assert refusals(RF, rf("german"), "at-ditch") == ["soviet_only"]
    assert refusals(SAP, sap(), "hidden_mine_belt") == ["no_hidden_belts_daytime"]
    assert refusals(SAP, sap(kind="full"), "hidden_mine_belt") == []
    am = sap("german", period="CG-1", kind="pre_cg")
    assert refusals(SAP, am, "trench") == ["only_concealment"]
