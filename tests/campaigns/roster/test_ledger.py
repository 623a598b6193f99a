"""The CG Roster's CPP and FPP columns, derived from ledger movements."""

import pytest

from campaigns.roster.ledger import Movement, cpp_days, fpp_days, new_shortfalls, shortfalls


def test_a_cpp_chain_over_several_days():
    # Day 0: initial OB 15 CPP, buys A5 (4) and I1 (5), recon 1 CPP (dr 3: 3 Locations).
    # Left = 15 − 9 − 1 = 5 (11.622), which is day 1's Start.
    # Day 1: Start 5, replenishment +16 (11.6162), buys A6 on map (8).
    # Day 2: Start = 13, replenishment +9, nothing bought, no recon.
    days = cpp_days(
        3,
        [
            Movement(0, "initial", 15),
            Movement(0, "rg_purchase", -4, "A5"),
            Movement(0, "rg_purchase", -5, "I1"),
            Movement(0, "recon", -1, locations=3),
            Movement(1, "replenishment", 16),
            Movement(1, "rg_purchase", -8, "A6"),
            Movement(2, "replenishment", 9),
        ],
    )
    assert [(d.start, d.repl, d.total, d.spent, d.left, d.recon) for d in days] == [
        (15, None, 15, 9, 5, 3),
        (5, 16, 21, 8, 13, None),
        (13, 9, 22, 0, 22, None),
    ]
    assert [d.recon_cpp for d in days] == [1, 0, 0]
    assert days[0].purchases == (("A5", 4, 1), ("I1", 5, 1))
    assert days[0].purchased == "A5 (4), I1 (5)"


def test_an_rg_bought_again_the_same_day_at_the_same_cost_is_named_once_with_its_count():
    # 11.619: each RG's ID "(and the CPP used)" in RG Purchased. Bought three times at 5 and once
    # on board at 8 (11.6194a), between them an A5: each RG and cost once, in the order first
    # booked; Spent counts every purchase.
    days = cpp_days(
        1,
        [
            Movement(0, "initial", 40),
            Movement(0, "rg_purchase", -5, "I1"),
            Movement(0, "rg_purchase", -4, "A5"),
            Movement(0, "rg_purchase", -5, "I1"),
            Movement(0, "rg_purchase", -8, "I1"),
            Movement(0, "rg_purchase", -5, "I1"),
        ],
    )
    assert days[0].purchased == "I1 (5) ×3, A5 (4), I1 (8)"
    assert days[0].has_multiples
    assert (days[0].spent, days[0].left) == (27, 13)


def test_movements_already_summed_in_sql_give_the_same_cell():
    # side_movements hands over one Movement per RG and cost with its count.
    one_by_one = cpp_days(1, [Movement(0, "rg_purchase", -5, "I1")] * 2)
    summed = cpp_days(1, [Movement(0, "rg_purchase", -10, "I1", count=2)])
    assert one_by_one == summed
    assert summed[0].purchased == "I1 (5) ×2"
    assert not cpp_days(1, [Movement(0, "rg_purchase", -5, "I1")])[0].has_multiples


def test_the_rules_example_two_carried_over_and_sixteen_replenished_make_eighteen():
    # RF 11.6162: the German carried 2 CPP over; replenishment +16 gives a Total of 18.
    days = cpp_days(2, [Movement(0, "initial", 2), Movement(1, "replenishment", 16)])
    assert (days[1].start, days[1].repl, days[1].total) == (2, 16, 18)


def test_the_first_days_repl_is_blank_as_on_the_printed_form():
    days = cpp_days(2, [Movement(0, "initial", 8)])
    assert days[0].repl is None
    assert days[1].repl == 0


def test_a_referee_adjustment_changes_the_total_and_is_shown_apart():
    days = cpp_days(1, [Movement(0, "initial", 10), Movement(0, "adjustment", -3)])
    assert (days[0].adjustment, days[0].total, days[0].left) == (-3, 7, 7)


def test_recon_is_taken_off_left_at_once_and_left_is_the_next_start():
    # RF 11.622: subtract 1 (2 with the favourable drm) from Left and write the new total in
    # the next day's Start; SaP 11.620: "shown at once in the Left column".
    days = cpp_days(2, [Movement(0, "initial", 10), Movement(0, "recon", -2, locations=7)])
    assert (days[0].left, days[0].recon_cpp, days[1].start) == (8, 2, 8)


def test_the_recon_column_holds_the_locations_not_the_cpp():
    # 11.622: "the modified dr is the number of Locations … written in the Recon column".
    # dr 4 with the 2-CPP +3 drm and the Soviet +1: 8 Locations for 2 CPP.
    days = cpp_days(1, [Movement(0, "initial", 10), Movement(0, "recon", -2, locations=8)])
    assert (days[0].recon, days[0].recon_cpp) == (8, 2)


def test_no_recon_leaves_the_column_blank_and_a_zero_dr_shows_zero():
    none = cpp_days(1, [Movement(0, "initial", 4)])
    zero = cpp_days(1, [Movement(0, "initial", 4), Movement(0, "recon", -1, locations=0)])
    assert none[0].recon is None
    assert (zero[0].recon, zero[0].left) == (0, 3)


def test_a_recon_payment_booked_without_its_count_reads_as_zero_locations():
    days = cpp_days(1, [Movement(0, "initial", 4), Movement(0, "recon", -1)])
    assert (days[0].recon, days[0].left) == (0, 3)


def test_recon_when_no_cpp_are_left_makes_left_negative_for_the_service_to_refuse():
    # The ledger only adds up; campaigns.roster.services refuses a cost above Left.
    days = cpp_days(1, [Movement(0, "initial", 2), Movement(0, "rg_purchase", -2, "I1")])
    assert days[0].left == 0


def test_an_entry_outside_the_cg_is_refused():
    with pytest.raises(ValueError, match="outside the CG"):
        cpp_days(5, [Movement(5, "replenishment", 3)])


def test_unspent_fpp_are_lost_each_day():
    # RF 11.621: "All FPP not spent at the end of this step are lost."
    days = fpp_days(
        2,
        [
            Movement(0, "initial", 50),
            Movement(0, "fortification_purchase", -44),
            Movement(1, "fortification_rg", 30),
            Movement(1, "fortification_purchase", -30),
        ],
    )
    assert [(d.available, d.spent, d.lost) for d in days] == [(50, 44, 6), (30, 30, 0)]


# --- shortfalls: what no undo may leave (campaigns.roster.books) ----------------------------


def test_a_day_whose_cpp_are_spent_past_what_it_has_falls_short_by_that_much():
    # 10 initial, 8 spent on day 0; day 1 spends the 2 carried over and 3 more.
    movements = [
        Movement(0, "initial", 10),
        Movement(0, "rg_purchase", -8, "A6"),
        Movement(1, "rg_purchase", -5, "I1"),
    ]
    assert shortfalls("cpp", 2, movements) == {1: -3}


def test_recon_counts_against_what_the_day_has_left():
    movements = [
        Movement(0, "initial", 5),
        Movement(0, "rg_purchase", -5, "A6"),
        Movement(0, "recon", -1),
    ]
    assert shortfalls("cpp", 1, movements) == {0: -1}


def test_books_at_exactly_zero_are_balanced():
    movements = [Movement(0, "initial", 5), Movement(0, "rg_purchase", -5, "A6")]
    assert shortfalls("cpp", 1, movements) == {}


def test_fpp_fall_short_on_the_day_they_are_spent_only():
    movements = [
        Movement(0, "fortification_rg", 4),
        Movement(0, "fortification_purchase", -6),
        Movement(1, "fortification_rg", 10),
    ]
    assert shortfalls("fpp", 2, movements) == {0: -2}


def test_taking_back_a_spent_credit_is_a_new_shortfall():
    after = [Movement(0, "initial", 10), Movement(0, "rg_purchase", -8, "A6")]
    before = [*after, Movement(0, "adjustment", 5)]
    assert new_shortfalls("cpp", 1, before, before) == {}
    assert new_shortfalls("cpp", 1, before, after[:1] + [Movement(0, "rg_purchase", -12)]) == {
        0: -2
    }


def test_a_day_already_short_is_no_new_breach_unless_it_gets_deeper():
    # A referee's negative adjustment left day 0 at −2; a change that keeps it there is allowed,
    # one that takes it to −3 is not.
    before = [Movement(0, "initial", 3), Movement(0, "adjustment", -5)]
    same = [*before, Movement(0, "replenishment", 0)]
    deeper = [*before, Movement(0, "rg_purchase", -1, "A6")]
    assert new_shortfalls("cpp", 1, before, same) == {}
    assert new_shortfalls("cpp", 1, before, deeper) == {0: -3}
