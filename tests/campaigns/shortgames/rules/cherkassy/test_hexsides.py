"""Cherkassy Pocket: the map's restrictions on an attack, declared by the attacker
(11.14, 11.22)."""

from campaigns.shortgames.rules.cherkassy import hexsides
from campaigns.shortgames.rules.cherkassy.hexsides import (
    RiverAttacker,
    Support,
    artillery_range_refusals,
    lake_refusals,
    river_refusals,
    river_total,
)


def codes(reasons):
    return [reason.code for reason in reasons]


# --- lake (11.14) --------------------------------------------------------------------------------


def test_no_attack_across_a_lake():
    (reason,) = lake_refusals(True)
    assert (reason.code, reason.rule) == ("attack_across_lake", "11.14")
    assert "lake" in reason.in_language("en")
    assert "湖" in reason.in_language("ja")


def test_an_attack_not_across_a_lake_is_not_refused():
    assert lake_refusals(False) == []


# --- river (11.14) -------------------------------------------------------------------------------


def test_a_tank_across_a_river_is_refused_naming_it():
    (reason,) = river_refusals(
        [
            RiverAttacker("20 TB", "tank", across_river=True),
            RiverAttacker("254 RR", "infantry", across_river=True),
        ]
    )
    assert (reason.code, reason.rule, reason.params["units"]) == (
        "tank_across_river",
        "11.14",
        ["20 TB"],
    )


def test_a_tank_not_across_the_river_and_infantry_across_it_may_attack():
    assert (
        river_refusals(
            [
                RiverAttacker("20 TB", "tank", across_river=False),
                RiverAttacker("254 RR", "infantry", across_river=True),
            ]
        )
        == []
    )


def test_river_attackers_are_summed_then_halved_rounding_up():
    # 11.14: 4 + 3 across the river = 7 → 4 (rounded up), plus 5 not across it in full.
    assert river_total([(4, True), (3, True), (5, False)]) == (9, 4)
    # Summed first: two 3s across give 3, not 2 + 2.
    assert river_total([(3, True), (3, True)]) == (3, 3)
    assert river_total([(6, False)]) == (6, 0)


# --- artillery range (11.22): at the limit, one over, unknown, missing ----------------------------


def test_artillery_at_its_range_may_fire():
    assert artillery_range_refusals([Support("1 Art", range=3, distance=3)]) == []


def test_artillery_one_hex_beyond_its_range_is_refused():
    (reason,) = artillery_range_refusals([Support("1 Art", range=3, distance=4)])
    assert (reason.code, reason.rule) == ("artillery_out_of_range", "11.22")
    assert reason.params == {"unit": "1 Art", "distance": 4, "range": 3}
    assert "射程3" in reason.in_language("ja")


def test_an_adjacent_target_is_one_hex_away():
    assert artillery_range_refusals([Support("1 Art", range=1, distance=1)]) == []
    assert codes(artillery_range_refusals([Support("1 Art", range=1, distance=0)])) == [
        "artillery_distance_missing"
    ]


def test_a_distance_must_be_declared():
    assert codes(artillery_range_refusals([Support("1 Art", range=3, distance=None)])) == [
        "artillery_distance_missing"
    ]


def test_a_range_not_entered_is_not_judged():
    assert artillery_range_refusals([Support("1 Art", range=None, distance=9)]) == []


def test_the_charts_halving_row_applies_only_without_river_ticks():
    assert hexsides.chart_halving_applies(row_halves=True, ticked_across_river=False)
    assert not hexsides.chart_halving_applies(row_halves=True, ticked_across_river=True)
    assert not hexsides.chart_halving_applies(row_halves=False, ticked_across_river=False)


def test_defending_artillery_reaches_the_unit_it_supports_at_its_range_not_one_over():
    at_range = hexsides.Support("AR", 3, 3, defending=True)
    over = hexsides.Support("AR", 3, 4, defending=True)
    unknown = hexsides.Support("AR", None, 9, defending=True)
    missing = hexsides.Support("AR", 3, None, defending=True)
    assert hexsides.artillery_range_refusals([at_range, unknown]) == []
    (refusal,) = hexsides.artillery_range_refusals([over])
    assert refusal.rule == "11.22" and "defending unit it supports" in refusal.in_language("en")
    (asked,) = hexsides.artillery_range_refusals([missing])
    assert asked.code == "artillery_distance_missing"
