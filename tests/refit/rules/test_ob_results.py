"""What a RePh roll's result does to the OB lines it concerns (refit.rules.ob_results)."""

import pytest

from refit.rules import ob_results as ob
from refit.rules.ob_results import Line, LineChange


def leader(id, unit_type, box="retained", statuses=(), quantity=1, origin=""):
    return Line(id, unit_type, "leader", quantity, box, tuple(statuses), origin)


# --- wounded leaders (11.610) ---------------------------------------------------------------


def test_a_wounded_leader_rolling_3_or_more_is_eliminated():
    line = leader(1, "9-1", box="wounded", statuses=["wounded"])
    outcome = ob.wounded_leader(line, {"leader": "eliminated"})
    assert outcome.key == "leader_eliminated"
    assert outcome.changes == (LineChange(1, 1, box="casualties"),)


def test_a_wounded_leader_rolling_2_or_less_stays_wounded_and_retained():
    line = leader(1, "8-0", box="retained", statuses=["wounded"])
    outcome = ob.wounded_leader(line, {"leader": "retained_wounded"})
    assert outcome.key == "leader_stays_wounded"
    assert outcome.changes == (LineChange(1, 1, box="wounded", add_statuses=("wounded",)),)


def test_one_already_in_the_wounded_box_does_not_move():
    line = leader(1, "8-0", box="wounded", statuses=["wounded"])
    assert ob.wounded_leader(line, {"eliminated": False}).changes == ()


def test_sap_reads_its_eliminated_flag():
    line = leader(1, "8-0", box="wounded")
    assert ob.wounded_leader(line, {"eliminated": True}).key == "leader_eliminated"


def test_an_unwounded_leader_cannot_be_named_for_the_wounded_leader_roll():
    with pytest.raises(ob.ResultError):
        ob.wounded_leader(leader(1, "9-1"), {"leader": "eliminated"})


# --- leader battle hardening (11.6113) ------------------------------------------------------


@pytest.mark.parametrize(
    ("before", "after"),
    [
        ("6+1", "7-0"),
        ("7-0", "8-0"),
        ("8-0", "8-1"),
        ("8-1", "9-1"),
        ("9-1", "9-2"),
        ("9-2", "10-2"),
        ("10-2", "10-3"),
        ("9-1 leader", "9-2 leader"),
    ],
)
def test_a_leader_hardens_to_the_next_counter_of_the_ladder(before, after):
    assert ob.promoted(before, soviet=False) == after


def test_the_ladder_ends_at_10_3():
    assert ob.promoted("10-3", soviet=False) is None


def test_a_soviet_9_0_always_hardens_to_10_0_and_an_8_1_to_9_1():
    assert ob.promoted("9-0 commissar", soviet=True) == "10-0 commissar"
    assert ob.promoted("8-1", soviet=True) == "9-1"
    assert ob.promoted("9-0", soviet=False) is None


def test_the_leader_of_the_tables_rating_hardens():
    lines = [leader(1, "8-0"), leader(2, "9-1"), leader(3, "7-0")]
    outcome = ob.leader_hardening({"leader": "9-1"}, lines, soviet=False)
    assert outcome.key == "leader_hardened"
    assert outcome.changes == (LineChange(2, 1, unit_type="9-2"),)


def test_without_that_rating_the_lowest_rated_unwounded_retained_leader_hardens():
    lines = [
        leader(1, "8-0"),
        leader(2, "6+1", statuses=["wounded"]),
        leader(3, "7-0", box="casualties"),
        leader(4, "7-0"),
        Line(5, "+1 armor leader", "leader"),
    ]
    outcome = ob.leader_hardening({"leader": "10-2"}, lines, soviet=False)
    assert outcome.changes == (LineChange(4, 1, unit_type="8-0"),)


def test_the_soviet_footnote_names_what_the_leader_becomes():
    lines = [leader(1, "9-0 commissar"), leader(2, "8-1")]
    outcome = ob.leader_hardening({"leader": "9-0", "hardens_to": "10-0"}, lines, soviet=True)
    assert outcome.changes == (LineChange(1, 1, unit_type="10-0 commissar"),)


def test_no_retained_leader_means_nothing_hardens():
    lines = [leader(1, "8-0", box="wounded")]
    outcome = ob.leader_hardening({"leader": "8-0"}, lines, soviet=False)
    assert outcome.key == "no_leader"
    assert outcome.changes == ()


def test_a_10_3_asks_the_owner_rather_than_inventing_a_counter():
    outcome = ob.leader_hardening({"leader": "10-2"}, [leader(1, "10-3")], soviet=False)
    assert outcome.choose == "leader_type"
    assert outcome.changes == ()


def test_one_of_a_line_of_two_hardens():
    change = ob.leader_hardening({"leader": "8-0"}, [leader(1, "8-0", quantity=2)], soviet=False)
    applied = ob.apply(leader(1, "8-0", quantity=2), change.changes[0])
    assert applied.line.quantity == 1
    assert applied.split.unit_type == "8-1"
    assert applied.split.quantity == 1


# --- MMC battle hardening (11.6112) ---------------------------------------------------------


def squads(id=1, unit="4-4-7", quantity=5, box="retained"):
    return Line(id, unit, "infantry", quantity, box)


def test_the_owner_names_what_each_hardened_mmc_becomes():
    outcome = ob.mmc_hardening([(squads(), 2, "4-5-8")], allowed=2)
    assert outcome.changes == (LineChange(1, 2, unit_type="4-5-8"),)
    assert outcome.detail["count"] == 2


def test_an_elite_mmc_named_without_a_type_becomes_fanatic():
    outcome = ob.mmc_hardening([(squads(unit="5-4-8"), 1, "")], allowed=1)
    assert outcome.changes == (LineChange(1, 1, add_statuses=("fanatic",)),)


def test_no_more_than_the_table_allows_in_the_reph():
    with pytest.raises(ob.ResultError) as error:
        ob.mmc_hardening([(squads(), 2, "4-5-8")], allowed=3, already=2)
    assert error.value.key == "too_many"
    assert ob.mmc_hardening([(squads(), 1, "4-5-8")], allowed=3, already=2).changes


@pytest.mark.parametrize(
    ("line", "becomes", "key"),
    [
        (Line(1, "2-2-8 crew", "infantry", 1), "", "not_mmc"),
        (squads(box="casualties"), "4-5-8", "not_mmc"),
        (squads(), "9-1", "not_mmc_type"),
        (squads(quantity=1), "4-5-8", "count"),
    ],
)
def test_crews_eliminated_units_and_non_squad_types_are_refused(line, becomes, key):
    count = 2 if key == "count" else 1
    with pytest.raises(ob.ResultError) as error:
        ob.mmc_hardening([(line, count, becomes)], allowed=5)
    assert error.value.key == key


def test_nothing_chosen_is_refused():
    with pytest.raises(ob.ResultError):
        ob.mmc_hardening([(squads(), 0, "")], allowed=5)


# --- weapon repair (11.6132) ----------------------------------------------------------------


def weapon(kind="support_weapon", box="pending", statuses=("malfunctioned",), quantity=1):
    unit = "LMG" if kind == "support_weapon" else "PzKpfw IIIH"
    return Line(7, unit, kind, quantity, box, statuses)


def test_a_repaired_weapon_goes_back_to_retained():
    outcome = ob.repair(weapon(), {"repaired": True})
    assert outcome.changes == (
        LineChange(7, 1, box="retained", remove_statuses=("malfunctioned",)),
    )


def test_an_unrepaired_support_weapon_is_eliminated():
    assert ob.repair(weapon(), {"repaired": False}).changes == (LineChange(7, 1, box="casualties"),)


def test_an_unrepaired_vehicular_weapon_is_disabled_and_the_recall_left_to_the_owner():
    outcome = ob.repair(weapon("vehicle_or_gun", box="retained"), {"repaired": False})
    assert outcome.key == "weapon_disabled"
    assert outcome.changes[0].add_statuses == ("disabled",)
    assert outcome.choose == "recall_if_ma"


def test_a_captured_weapon_is_not_repaired_on_this_table():
    with pytest.raises(ob.ResultError):
        ob.repair(weapon(statuses=("malfunctioned", "captured")), {"repaired": True})


# --- AFV withdrawal (11.6142) ---------------------------------------------------------------


def test_a_withdrawn_platoon_loses_its_non_isolated_afvs_and_armor_leader():
    afv = Line(1, "StuG III", "vehicle_or_gun", 3, origin_rg="A1#2")
    lines = [
        afv,
        Line(2, "StuG III", "vehicle_or_gun", 1, statuses=("immobilized",), origin_rg="A1#2"),
        Line(3, "StuG III", "vehicle_or_gun", 1, statuses=("isolated",), origin_rg="A1#2"),
        Line(4, "+1 armor leader", "leader", 1, origin_rg="A1#2"),
        Line(5, "StuG III", "vehicle_or_gun", 2, origin_rg="A1#3"),
        Line(6, "StuG III", "vehicle_or_gun", 1, box="casualties", origin_rg="A1#2"),
    ]
    outcome = ob.afv_withdrawal(afv, lines, {"withdrawn": True})
    assert outcome.key == "withdrawn"
    assert [(c.line, c.count, c.box) for c in outcome.changes] == [
        (1, 3, "casualties"),
        (2, 1, "casualties"),
        (4, 1, "casualties"),
    ]


def test_a_retained_platoon_stays():
    afv = Line(1, "T-34 M43", "vehicle_or_gun", 3)
    assert ob.afv_withdrawal(afv, [afv], {"withdrawn": False}).changes == ()


def test_a_dug_in_platoon_does_not_roll():
    dug_in = Line(1, "T-34", "vehicle_or_gun", statuses=("dug_in",))
    assert not ob.eligible("afv_withdrawal", dug_in)


# --- fortification removal (11.615) ---------------------------------------------------------


def test_a_removed_fortification_leaves_the_order_of_battle():
    wire = Line(9, "wire", "fortification", 4, box="fortifications")
    outcome = ob.fortification_removal(wire, {"removed": True})
    assert outcome.changes == (LineChange(9, 1, remove=True),)
    assert ob.apply(wire, outcome.changes[0]).line.quantity == 3


def test_a_known_minefield_asks_for_the_others_of_its_location():
    mines = Line(9, "A-P minefield", "fortification", 1, box="fortifications")
    outcome = ob.fortification_removal(mines, {"removed": True})
    assert outcome.choose == "other_minefields"
    assert ob.apply(mines, outcome.changes[0]).removed


def test_no_effect_changes_nothing():
    wire = Line(9, "wire", "fortification", 1, box="fortifications")
    assert ob.fortification_removal(wire, {"removed": False}).changes == ()


# --- escapes (11.6063) ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("row", "column", "key"),
    [
        ({"infantry": {"escapes": True}}, "infantry", "escaped"),
        ({"infantry": {"escapes": True, "replaced": True}}, "infantry", "replaced"),
        ({"infantry": {"casualty_reduced": True}}, "infantry", "casualty_reduced"),
        ({"infantry": {"eliminated": True}}, "infantry", "eliminated"),
        ({"infantry": {"casualty_reduction": True}}, "infantry", "casualty_reduced"),
        ({"mobile_afv": {"abandoned": True}}, "mobile_afv", "abandoned"),
        ({"mobile_afv": {"destroyed": True}}, "mobile_afv", "destroyed"),
    ],
)
def test_an_escape_rows_outcome_is_read_as_a_key(row, column, key):
    assert ob.escape_outcome(row, column) == key


def test_eliminated_escapers_go_to_the_eliminated_box():
    squads = Line(1, "4-6-7", "infantry", 5)
    outcome = ob.escape(squads, "eliminated", 2)
    applied = ob.apply(squads, outcome.changes[0])
    assert applied.line.quantity == 3
    assert applied.split.box == "casualties"
    assert applied.split.quantity == 2


def test_a_reduced_escaper_is_the_owners_to_name():
    outcome = ob.escape(Line(1, "4-6-7", "infantry", 1), "casualty_reduced")
    assert outcome.choose == "reduced_type"
    assert outcome.changes == ()


def test_more_escapers_than_the_line_has_is_refused():
    with pytest.raises(ob.ResultError):
        ob.escape(Line(1, "4-6-7", "infantry", 1), "eliminated", 2)
