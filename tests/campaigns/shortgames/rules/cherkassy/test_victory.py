"""Cherkassy Pocket: the scenarios' Soviet VP."""

import pytest

from campaigns.shortgames.rules.cherkassy.victory import CpVictoryFacts, victory_tally


def s1(n, non_n, airfield="soviet", **kwargs):
    return CpVictoryFacts(
        encirclement_formed=True,
        n_eliminated_or_encircled_at_formation=n,
        non_n_eliminated_or_encircled_at_formation=non_n,
        hex_control={"3809": airfield},
        game_over=True,
        **kwargs,
    )


@pytest.mark.parametrize(
    ("n", "non_n", "airfield", "vp"),
    [
        (10, 14, "soviet", 3),
        (10, 13, "soviet", 2),  # one short of 14
        (9, 20, "soviet", 1),  # the non-N point needs the N point ("in addition to the above")
        (10, 14, "german", 2),
        (9, 13, "german", 0),
    ],
)
def test_scenario_1_vp(game, n, non_n, airfield, vp):
    tally = victory_tally("scenario-1", s1(n, non_n, airfield), game)
    assert tally.vp == vp
    assert tally.final


def test_scenario_1_levels(game):
    assert victory_tally("scenario-1", s1(10, 14), game).level.en == "Soviet strategic victory"
    assert (
        victory_tally("scenario-1", s1(9, 13, "german"), game).level.en
        == "German operational victory"
    )


def test_scenario_1_without_a_pocket(game):
    facts = CpVictoryFacts(
        n_eliminated_or_encircled_at_formation=12, hex_control={"3809": "soviet"}
    )
    tally = victory_tally("scenario-1", facts, game)
    assert tally.vp == 1
    assert tally.conditions[0].met is None  # judged when the pocket forms
    assert not tally.final


def s2(on_map, destroyed, german_tanks=0, soviet_tanks=0):
    return CpVictoryFacts(
        encirclement_formed=True,
        stemmermann_on_map=on_map,
        stemmermann_all_eliminated_before_relief=destroyed,
        german_tanks_eliminated=german_tanks,
        soviet_tanks_eliminated_or_in_recovery=soviet_tanks,
        game_over=True,
    )


@pytest.mark.parametrize("campaign_game", ["scenario-2", "scenario-3"])
def test_scenarios_2_and_3_vp(game, campaign_game):
    assert victory_tally(campaign_game, s2(1, False), game).vp == 1
    assert victory_tally(campaign_game, s2(0, True), game).vp == 2
    assert victory_tally(campaign_game, s2(0, True, 3, 2), game).vp == 3
    assert victory_tally(campaign_game, s2(0, True, 3, 3), game).vp == 2  # "more than"
    assert victory_tally(campaign_game, s2(0, False), game).vp == 0  # relieved
    # The two pocket conditions never both score.
    assert victory_tally(campaign_game, s2(1, True), game).vp == 1


def test_scenario_4_vp(game):
    facts = CpVictoryFacts(
        encirclement_formed=True,
        stemmermann_n_ever=10,
        stemmermann_non_n_ever=14,
        stemmermann_on_map=2,
        stemmermann_all_eliminated_before_relief=False,
        german_tanks_eliminated=1,
        soviet_tanks_eliminated_or_in_recovery=4,
        game_over=True,
    )
    assert victory_tally("scenario-4", facts, game).vp == 2
    short = CpVictoryFacts(**{**facts.__dict__, "stemmermann_non_n_ever": 13})
    assert victory_tally("scenario-4", short, game).vp == 1
    no_pocket = CpVictoryFacts(
        stemmermann_on_map=0,
        german_tanks_eliminated=5,
        soviet_tanks_eliminated_or_in_recovery=4,
        game_over=True,
    )
    assert victory_tally("scenario-4", no_pocket, game).vp == 1  # only the tank point


def test_unknown_facts_are_not_counted(game):
    tally = victory_tally("scenario-2", CpVictoryFacts(encirclement_formed=True), game)
    assert tally.vp == 0
    assert all(condition.met is None for condition in tally.conditions)
