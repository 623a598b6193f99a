"""The winner of a scenario from what its end recorded (11.6031, 11.6235, 11.51–11.58 initial
VC): each rule at its limits, on the campaign games' own data."""

import json
from pathlib import Path

import pytest

from campaigns.records.victory import EndFacts, scenario_vc, scenario_winner

GAMES = Path(__file__).resolve().parents[3] / "campaigns" / "games"
RF = json.loads((GAMES / "red_factories" / "campaign_games.json").read_text())["campaign_games"]
SAP = json.loads((GAMES / "slaughter_at_ponyri" / "campaign_games.json").read_text())[
    "campaign_games"
]
SIDES = ("german", "soviet")


def judge(cg, scenario_type, attacker="", **facts):
    return scenario_winner(
        scenario_vc(RF[cg], scenario_type), EndFacts(**facts), SIDES, attacker=attacker
    )


# --- Dual Attack: CVP inflicted + Stone Locations gained; the German needs more -------------


def test_dual_attack_the_german_wins_with_more_vp():
    verdict = judge(
        "rb-cg-1",
        "dual_attack",
        cvp_lost={"german": 10, "soviet": 12},
        gained={"german": 3, "soviet": 4},
    )
    # German: 12 CVP inflicted + 3 = 15; Soviet: 10 + 4 = 14.
    assert (verdict.winner, verdict.reason) == ("german", "dual_attack_vp")
    assert verdict.values["vp"] == {"german": 15, "soviet": 14}


def test_dual_attack_equal_vp_is_a_soviet_win():
    verdict = judge(
        "rb-cg-1",
        "dual_attack",
        cvp_lost={"german": 10, "soviet": 10},
        gained={"german": 2, "soviet": 2},
    )
    assert verdict.winner == "soviet"


def test_dual_attack_waits_for_the_locations_gained():
    verdict = judge("rb-cg-1", "dual_attack", cvp_lost={"german": 10}, gained={"german": 2})
    assert verdict.winner is None and verdict.missing == ("gained:soviet",)


# --- Assaults -------------------------------------------------------------------------------


@pytest.mark.parametrize(("net", "winner"), [(24, "german"), (23, "soviet")])
def test_a_german_assault_needs_24_stone_locations_net(net, winner):
    verdict = judge("rb-cg-1", "assault", "german", gained={"german": net + 2}, lost={"german": 2})
    assert verdict.winner == winner


@pytest.mark.parametrize(("net", "winner"), [(12, "soviet"), (11, "german")])
def test_a_soviet_assault_needs_12_stone_locations_net(net, winner):
    assert judge("rb-cg-2", "assault", "soviet", gained={"soviet": net}).winner == winner


def test_ro_cg_iii_swaps_the_figures():
    assert judge("ro-cg-3", "assault", "german", gained={"german": 12}).winner == "german"
    assert judge("ro-cg-3", "assault", "soviet", gained={"soviet": 23}).winner == "german"


@pytest.mark.parametrize(("inflicted", "winner"), [(20, "german"), (19, "soviet")])
def test_an_attacker_wins_with_twice_the_cvp(inflicted, winner):
    verdict = judge(
        "rb-cg-1",
        "assault",
        "german",
        cvp_lost={"german": 10, "soviet": inflicted},
        gained={"german": 0},
    )
    assert verdict.winner == winner
    assert verdict.reason == ("assault_cvp" if winner == "german" else "assault_defender")


def test_no_casualties_at_all_is_no_cvp_win():
    verdict = judge("rb-cg-1", "assault", "german", gained={"german": 1}, lost={"german": 0})
    assert (verdict.winner, verdict.reason) == ("soviet", "assault_defender")


def test_the_soviet_holding_every_stone_location_wins_any_assault():
    verdict = judge(
        "rb-cg-1",
        "assault",
        "german",
        cvp_lost={"soviet": 40},
        gained={"german": 30},
        all_stone_locations="soviet",
    )
    assert (verdict.winner, verdict.reason) == ("soviet", "assault_all_stone_locations")


def test_an_assault_needs_its_attacker():
    verdict = judge("rb-cg-1", "assault", "", gained={"german": 30})
    assert verdict.winner is None and verdict.missing == ("attacker",)


def test_an_assault_won_on_cvp_needs_no_locations_but_one_lost_on_them_does():
    won = judge("rb-cg-1", "assault", "german", cvp_lost={"soviet": 4})
    assert won.winner == "german"
    unknown = judge("rb-cg-1", "assault", "german", cvp_lost={"soviet": 4, "german": 3})
    assert unknown.winner is None and unknown.missing == ("gained:german",)


# --- Initial scenarios (11.51–11.58) --------------------------------------------------------


@pytest.mark.parametrize(("controlled", "winner"), [(15, "german"), (14, "soviet")])
def test_rb_cg_i_initial_15_stone_locations(controlled, winner):
    assert judge("rb-cg-1", "initial", controlled={"german": controlled}).winner == winner


def test_rb_cg_i_initial_waits_for_the_count():
    verdict = judge("rb-cg-1", "initial", gained={"german": 30})
    assert verdict.winner is None and verdict.missing == ("controlled:german",)
    assert verdict.reason == "record_counts"


@pytest.mark.parametrize(("net", "winner"), [(26, "german"), (25, "soviet")])
def test_rb_cg_ii_initial_26_net(net, winner):
    assert judge("rb-cg-2", "initial", gained={"german": net + 1}, lost={"german": 1}).winner == (
        winner
    )


def test_ro_cg_ii_initial_asks_the_players_when_only_the_map_can_tell():
    # 20 net, "of which 10 in V22": the app knows the 20, not where they are.
    verdict = judge("ro-cg-2", "initial", gained={"german": 20})
    assert verdict.winner is None
    assert verdict.missing == ("net_stone_locations_gained_at_least",)
    assert judge("ro-cg-2", "initial", gained={"german": 19}).winner == "soviet"


@pytest.mark.parametrize("cg", ["ro-cg-1", "ro-cg-3", "rb-cg-4", "rf-cg-1"])
def test_vc_on_buildings_factories_or_map_groups_are_for_the_players(cg):
    verdict = judge(cg, "initial", gained={"german": 40, "soviet": 40}, controlled={"german": 40})
    assert verdict.winner is None and verdict.missing
    assert verdict.reason in ("initial_undecided", "map_groups_unknown")


def test_slaughter_at_ponyri_has_no_scenario_vc():
    (definition,) = SAP.values()
    assert scenario_vc(definition, "time_frame") is None
    verdict = scenario_winner(None, EndFacts(), ("german", "russian"))
    assert verdict.winner is None and verdict.missing == ("no_vc",)
