"""Cherkassy Pocket: the steps of the turn sequence on each turn of a scenario (5.2)."""

import pytest

from campaigns.shortgames.rules.cherkassy import turn_sequence
from campaigns.shortgames.rules.cherkassy.data import CpState


def by_id(states):
    return {state.id: state for state in states}


def uses(step):
    return {use.table_id: use for use in step.tables}


def test_every_step_of_a_normal_turn(game, sequence):
    steps = turn_sequence.steps(8, "scenario-2", CpState(), sequence, game)
    assert [s.id for s in steps][:4] == [
        "weather",
        "mutual_supply",
        "recovery_designation",
        "s1.air_power",
    ]
    assert all(s.applies and not s.limited for s in steps)
    assert uses(by_id(steps)["s1.air_power"])["cp.air-points-german"].applies
    assert uses(by_id(steps)["s1.air_power"])["cp.air-points-soviet"].applies
    assert by_id(steps)["s1.soviet_operations_1"].referee_slots == ("cp.crt", "cp.tec")


@pytest.mark.parametrize(("campaign_game", "turn"), [("scenario-2", 7), ("scenario-3", 16)])
def test_scenarios_2_and_3_start_in_the_german_operations_segment(
    game, sequence, campaign_game, turn
):
    steps = by_id(turn_sequence.steps(turn, campaign_game, CpState(), sequence, game))
    for skipped in (
        "mutual_supply",
        "recovery_designation",
        "s1.soviet_operations_1",
        "s1.soviet_operations_2",
    ):
        assert not steps[skipped].applies, skipped
        assert "German operations" in steps[skipped].reason.en
    assert steps["s1.german_operations_1"].applies
    assert "starts here" in steps["s1.german_operations_1"].reason.en
    assert steps["weather"].applies and "No roll" in steps["weather"].reason.en
    # The German player gets 3 air points in each segment of the first turn, without a roll.
    for air in ("s1.air_power", "s2.air_power"):
        german = uses(steps[air])["cp.air-points-german"]
        assert not german.applies and "3" in german.reason.en
    assert steps["s2.soviet_operations_1"].applies


def test_turn_0_restrictions_of_scenarios_1_and_4(game, sequence):
    for campaign_game in ("scenario-1", "scenario-4"):
        steps = by_id(turn_sequence.steps(0, campaign_game, CpState(), sequence, game))
        soviet = steps["s1.soviet_operations_1"]
        assert soviet.applies and soviet.limited
        assert "1st Ukrainian Front" in soviet.reason.en
        assert "18th, 20th and 29th" in soviet.reason.en  # segment 1 only
        assert "第1ウクライナ正面軍" in soviet.reason.ja
        assert "18th" not in steps["s2.soviet_operations_1"].reason.en
        german = steps["s1.german_operations_1"]
        assert german.limited and "37xx" in german.reason.en
        # Soviet air points are fixed on turn 0 (11.16 B).
        assert not uses(steps["s1.air_power"])["cp.air-points-soviet"].applies


def test_pz24_roll_only_in_the_first_german_segment_of_turn_9(game, sequence):
    def pz24(turn, step_id, state=None):
        steps = by_id(turn_sequence.steps(turn, "scenario-4", state or CpState(), sequence, game))
        return uses(steps[step_id])["cp.pz24-arrival"].applies

    assert pz24(9, "s1.german_operations_1")
    assert not pz24(9, "s2.german_operations_1")
    assert not pz24(8, "s1.german_operations_1")
    assert not pz24(10, "s1.german_operations_1")
    assert not pz24(9, "s1.german_operations_1", CpState(pz24_rolled=True))
    assert not pz24(9, "s1.german_operations_1", CpState(pz24_automatic=True))


@pytest.mark.parametrize(
    ("campaign_game", "turn"),
    [
        ("scenario-1", 7),
        ("scenario-2", 6),
        ("scenario-2", 16),
        ("scenario-3", 15),
        ("scenario-4", 24),
    ],
)
def test_turns_outside_the_scenario_are_refused(game, sequence, campaign_game, turn):
    with pytest.raises(ValueError):
        turn_sequence.steps(turn, campaign_game, CpState(), sequence, game)


@pytest.mark.parametrize(
    ("campaign_game", "first", "last"),
    [("scenario-1", 0, 6), ("scenario-2", 7, 15), ("scenario-3", 16, 23), ("scenario-4", 0, 23)],
)
def test_scenario_turns(game, sequence, campaign_game, first, last):
    turn_sequence.steps(first, campaign_game, CpState(), sequence, game)
    turn_sequence.steps(last, campaign_game, CpState(), sequence, game)
