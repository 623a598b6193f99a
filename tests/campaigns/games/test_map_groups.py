"""RF CG I (11.58) over the real campaign-game data: which tables are rolled per map group, the
Historical DRM a roll takes, victory combined over the map groups, the set-up limits."""

import pytest

from campaigns.games import map_groups as rules
from campaigns.games.registry import get_module

CGS = get_module("red_factories").files["campaign_games"]["campaign_games"]
RF_CG_I, RB_CG_I = CGS["rf-cg-1"], CGS["rb-cg-1"]


def test_rf_cg_i_is_played_on_two_map_groups_and_rb_cg_i_on_one():
    assert rules.map_groups(RF_CG_I) == ("RB", "RO")
    assert rules.is_split(RF_CG_I) and not rules.is_split(RB_CG_I)


def test_the_cpp_replenishment_is_rolled_per_map_group_in_rf_cg_i_only():
    assert rules.per_map_group_tables(RF_CG_I) == {"rf.cpp-replenishment"}
    assert rules.groups_to_roll(RF_CG_I, "rf.cpp-replenishment") == ("RB", "RO")
    assert rules.groups_to_roll(RF_CG_I, "rf.elr-change") == ("",)
    assert rules.groups_to_roll(RB_CG_I, "rf.cpp-replenishment") == ("",)


def test_missing_groups():
    assert rules.missing_groups(("RB", "RO"), ["RO"]) == ("RB",)
    assert rules.missing_groups(("RB", "RO"), ["RO", "RB"]) == ()
    assert rules.missing_groups(("",), [""]) == ()


@pytest.mark.parametrize(("group", "value"), [("RB", -1), ("RO", 0), ("", None), ("XX", None)])
def test_a_roll_takes_its_map_groups_value(group, value):
    by_group = {"RB": -1, "RO": 0}
    assert rules.hist_drm(RF_CG_I, single=5, by_group=by_group, map_group=group) == value


def test_an_unknown_map_groups_value_is_unknown():
    assert rules.hist_drm(RF_CG_I, single=None, by_group={"RB": 1}, map_group="RO") is None


def test_a_campaign_game_on_one_map_group_takes_the_sides_value():
    assert rules.hist_drm(RB_CG_I, single=-2, by_group={}, map_group="") == -2


def test_the_values_a_side_roll_may_take():
    assert rules.hist_drm_choices(RF_CG_I, {"RB": -1, "RO": 1}) == (-1, 1)
    assert rules.hist_drm_choices(RF_CG_I, {"RB": 0, "RO": 0}) == (0,)
    assert rules.hist_drm_choices(RF_CG_I, {"RB": 0}) is None


def verdict(group, winner):
    return rules.GroupVerdict(group, winner)


def test_one_side_on_each_map_group_is_a_draw():
    combined = rules.combine([verdict("RB", "german"), verdict("RO", "soviet")])
    assert (combined.winner, combined.why) == (rules.DRAW, "split")


def test_the_same_side_on_both_map_groups_wins():
    combined = rules.combine([verdict("RB", "soviet"), verdict("RO", "soviet")])
    assert (combined.winner, combined.why) == ("soviet", "same_side")


def test_one_map_group_unknown_leaves_the_whole_unknown():
    combined = rules.combine([verdict("RB", "german"), verdict("RO", "")])
    assert (combined.winner, combined.why) == ("", "group_unknown")


def test_the_set_up_limits_of_rf_cg_i():
    limits = {limit.kind: limit for limit in rules.setup_limits(RF_CG_I)}
    assert limits["oba_modules_max_per_scenario"].value == 4
    assert limits["oba_modules_max_per_scenario"].rule == "11.58 CG6"
    assert (
        limits["sniper_counters_per_side"].value,
        limits["sniper_counters_per_side"].per_map_group,
    ) == (4, 2)
    assert limits["self_rally_attempts_max"].value == 4
    assert limits["rb_afv_no_south_edge"].rule == "11.58 CG9"
    assert rules.setup_limits(RB_CG_I) == ()
