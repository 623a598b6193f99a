"""Cherkassy Pocket's rules functions against the rules' text (seed 002) and worked examples,
at every limit and one past it; what the rules lack is reported, never guessed."""

import pytest

from campaigns.games.registry import get_module
from campaigns.shortgames.rules import cherkassy as cp
from campaigns.shortgames.rules.cherkassy import BoxUnit, CpState, CpVictoryFacts, StackUnit
from campaigns.shortgames.rules.common import dice_table, lookup


@pytest.fixture(scope="module")
def files():
    return get_module("cherkassy_pocket").files


@pytest.fixture(scope="module")
def game(files):
    return files["game"]


@pytest.fixture(scope="module")
def tables(files):
    return files["tables"]


@pytest.fixture(scope="module")
def sequence(files):
    return files["turn_sequence"]


def by_id(states):
    return {state.id: state for state in states}


def uses(step):
    return {use.table_id: use for use in step.tables}


WEATHER_TABLE = {
    "id": "cp.weather",
    "rule": "5.3",
    "roll": "dr",
    "rows": [
        {"min": 1, "max": 4, "result": {"weather": "snow"}},
        {"min": 5, "max": 6, "result": {"weather": "mud"}},
    ],
}


# --------------------------------------------------------------------------- turn sequence (5.2)


def test_every_step_of_a_normal_turn(game, sequence):
    steps = cp.steps(8, "scenario-2", CpState(), sequence, game)
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
    steps = by_id(cp.steps(turn, campaign_game, CpState(), sequence, game))
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
        steps = by_id(cp.steps(0, campaign_game, CpState(), sequence, game))
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
        steps = by_id(cp.steps(turn, "scenario-4", state or CpState(), sequence, game))
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
        cp.steps(turn, campaign_game, CpState(), sequence, game)


@pytest.mark.parametrize(
    ("campaign_game", "first", "last"),
    [("scenario-1", 0, 6), ("scenario-2", 7, 15), ("scenario-3", 16, 23), ("scenario-4", 0, 23)],
)
def test_scenario_turns(game, sequence, campaign_game, first, last):
    cp.steps(first, campaign_game, CpState(), sequence, game)
    cp.steps(last, campaign_game, CpState(), sequence, game)


# --------------------------------------------------------------------------- referee slots


def test_every_missing_slot_is_named_with_what_it_stops(game):
    missing = cp.missing_rolls({}, game)
    assert [m.slot_id for m in missing] == [slot["id"] for slot in game["referee_slots"]]
    crt = next(m for m in missing if m.slot_id == "cp.crt")
    assert "CRT" in crt.reason.en and "レフェリー" in crt.reason.ja


def test_a_filled_slot_is_no_longer_missing(game):
    missing = cp.missing_rolls({"cp.weather-table": WEATHER_TABLE}, game)
    assert "cp.weather-table" not in [m.slot_id for m in missing]
    assert len(missing) == len(game["referee_slots"]) - 1


# --------------------------------------------------------------------------- weather (5.3)


@pytest.mark.parametrize(
    ("campaign_game", "turn", "weather"), [("scenario-2", 7, "snow"), ("scenario-3", 16, "mud")]
)
def test_scenario_first_turn_weather_is_fixed(game, campaign_game, turn, weather):
    roll = cp.weather_roll(turn, campaign_game, {}, game)
    assert (roll.mode, roll.weather, roll.table_id) == ("fixed", weather, None)


def test_weather_cannot_be_rolled_without_the_table(game):
    roll = cp.weather_roll(0, "scenario-1", {}, game)
    assert (roll.mode, roll.weather, roll.table_id) == ("missing", None, None)
    assert "5.3" in roll.reason.en
    # Scenario 2's second turn is not fixed any more.
    assert cp.weather_roll(8, "scenario-2", {}, game).mode == "missing"


def test_weather_rolled_on_the_referees_table(game):
    roll = cp.weather_roll(3, "scenario-4", {"cp.weather-table": WEATHER_TABLE}, game)
    assert (roll.mode, roll.table_id, roll.roller) == ("table", "cp.weather-table", "soviet")
    assert cp.weather_from_roll(4, {"cp.weather-table": WEATHER_TABLE}, game) == "snow"
    assert cp.weather_from_roll(5, {"cp.weather-table": WEATHER_TABLE}, game) == "mud"


def test_the_track_decides_whether_to_roll(game):
    track = [{"turn": 3, "condition": "mud"}, {"turn": 4, "condition": "snow_or_mud_roll"}]
    referee = {"cp.weather-track": track, "cp.weather-table": WEATHER_TABLE}
    assert cp.weather_roll(3, "scenario-4", referee, game).weather == "mud"
    assert cp.weather_roll(4, "scenario-4", referee, game).mode == "table"


# --------------------------------------------------------------------------- air power (11.16)


@pytest.mark.parametrize(("turn", "fixed"), [(0, 3), (1, 6), (2, None)])
def test_soviet_air_points(turn, fixed):
    answer = cp.air_points(turn, 1, "soviet", "scenario-4")
    assert answer.fixed == fixed
    assert (answer.table_id is None) == (fixed is not None)


@pytest.mark.parametrize(
    ("campaign_game", "turn", "fixed"),
    [("scenario-2", 7, 3), ("scenario-2", 8, None), ("scenario-3", 16, 3), ("scenario-4", 7, None)],
)
def test_german_air_points(campaign_game, turn, fixed):
    assert cp.air_points(turn, 2, "german", campaign_game).fixed == fixed


def test_german_air_points_at_most_5(tables):
    assert [cp.air_points_from_roll("german", face) for face in range(1, 7)] == [1, 2, 3, 4, 5, 5]
    assert [cp.air_points_from_roll("soviet", face) for face in range(1, 7)] == [1, 2, 3, 4, 5, 6]
    german = dice_table(tables, "cp.air-points-german")
    assert all(
        lookup(german, f)["air_points"] == cp.air_points_from_roll("german", f) for f in range(1, 7)
    )


def test_soviet_front_split():
    assert cp.soviet_front_split(5, 2, False) == (3, 2)  # the odd point to the 1st UF
    assert cp.soviet_front_split(4, 2, False) == (2, 2)
    assert cp.soviet_front_split(6, 1, False) == (3, 3)
    assert cp.soviet_front_split(3, 0, False) is None  # not on turn 0
    assert cp.soviet_front_split(5, 9, True) is None  # not once the pocket has formed


# --------------------------------------------------------------------------- tank breakdown (10.3)


@pytest.mark.parametrize(
    ("side", "unit_type", "kwargs", "required"),
    [
        ("soviet", "tank", {}, True),
        ("soviet", "mech_infantry", {}, True),
        ("soviet", "motorized_infantry", {}, False),
        ("german", "tank", {}, False),
        ("soviet", "tank", {"advance_after_combat": True}, False),
        ("soviet", "tank", {"moved": False}, False),
    ],
)
def test_who_rolls_for_breakdown(side, unit_type, kwargs, required):
    answer = cp.tank_breakdown(side, unit_type, **kwargs)
    assert answer.required == required
    assert (answer.table_id, answer.fails_on) == ("cp.tank-breakdown", (1,))


def test_breakdown_results(tables):
    table = dice_table(tables, "cp.tank-breakdown")
    for face in range(1, 7):
        assert cp.breakdown_result(face, True, False).step_lost == (
            lookup(table, face)["effect"] == "maintenance_step_loss"
        )
    full = cp.breakdown_result(1, True, False)
    assert (full.step_lost, full.to_box, full.place_msl) == (True, None, True)
    assert cp.breakdown_result(1, False, True).to_box == "recovery_2"
    assert cp.breakdown_result(1, False, False).to_box == "recovery_1"
    assert not cp.breakdown_result(2, False, True).step_lost


# --------------------------------------------------------------------------- reinforcements (9.0)


def test_pz24(tables):
    assert cp.pz24_arrival(9, 1, CpState()).applies
    assert not cp.pz24_arrival(9, 2, CpState()).applies
    assert not cp.pz24_arrival(8, 1, CpState()).applies
    table = dice_table(tables, "cp.pz24-arrival")
    for face in range(1, 7):
        assert cp.pz24_result(face) == (lookup(table, face)["effect"] == "arrives")
    assert cp.pz24_result(3) and not cp.pz24_result(4)


def test_north_edge(game):
    assert not cp.north_edge_open("german", 2, 1, CpState())[0]
    assert cp.north_edge_open("german", 2, 2, CpState())[0]
    assert cp.north_edge_open("german", 3, 1, CpState())[0]
    assert cp.north_edge_open("german", 1, 1, CpState(encirclement_formed=True))[0]
    assert not cp.north_edge_open("soviet", 5, 1, CpState(encirclement_formed=True))[0]
    assert cp.north_edge_open("soviet", 5, 1, CpState(german_north_entered=True))[0]


def test_reinforcement_queue():
    roster = [
        {
            "unit_id": "a",
            "side": "german",
            "entry_turn": 3,
            "entry_edge": "E",
            "formation": "SS Wiking",
        },
        {
            "unit_id": "b",
            "side": "german",
            "entry_turn": 4,
            "entry_edge": "W",
            "formation": "16 PzD",
        },
        {
            "unit_id": "n",
            "side": "german",
            "entry_turn": 1,
            "entry_edge": "N",
            "formation": "72 ID",
        },
        {
            "unit_id": "pz",
            "side": "german",
            "entry_turn": 9,
            "entry_edge": "E",
            "formation": "24 PzD",
        },
        {"unit_id": "set-up", "side": "soviet", "entry_turn": None},
    ]
    queue = {r.unit_id: r for r in cp.reinforcement_queue(3, 1, roster, CpState())}
    assert set(queue) == {"a", "n"}  # late is allowed, early never
    assert queue["a"].may_enter and queue["n"].may_enter
    queue = {r.unit_id: r for r in cp.reinforcement_queue(9, 1, roster, CpState())}
    assert not queue["pz"].may_enter and "Roll" in queue["pz"].reason.en
    assert not {
        r.unit_id: r for r in cp.reinforcement_queue(9, 1, roster, CpState(pz24_arrives=False))
    }["pz"].may_enter
    assert {r.unit_id: r for r in cp.reinforcement_queue(9, 1, roster, CpState(pz24_arrives=True))}[
        "pz"
    ].may_enter
    early_n = {r.unit_id: r for r in cp.reinforcement_queue(1, 2, roster, CpState())}
    assert not early_n["n"].may_enter


# --------------------------------------------------------------------------- pocket, losses


def test_stemmermann_group_only_shrinks():
    group = cp.stemmermann_group({"a", "b", "c"}, relieved={"c"}, eliminated={"b"})
    assert group.members == {"a", "b"}
    assert group.on_map == {"a"}
    assert group.eliminated == {"b"}
    assert group.ever == {"a", "b", "c"}


@pytest.mark.parametrize(
    ("args", "kwargs", "box"),
    [
        (("german", "infantry"), {"divisional": True}, "reconstitution"),
        (("german", "infantry"), {"divisional": True, "division_reconstituted": True}, "permanent"),
        (("german", "infantry"), {"divisional": False}, "permanent"),
        (("soviet", "tank"), {"divisional": True, "has_msl": True}, "recovery_1"),
        (("soviet", "tank"), {"divisional": True}, "permanent"),
        (
            ("soviet", "tank"),
            {"divisional": True, "has_msl": True, "by_breakdown": True},
            "recovery_2",
        ),
        (("soviet", "mech_infantry"), {"divisional": True, "by_breakdown": True}, "recovery_1"),
    ],
)
def test_elimination_box(tables, args, kwargs, box):
    assert cp.elimination_box(*args, **kwargs) == box
    routing = next(c for c in tables["charts"] if c["id"] == "cp.elimination-routing")
    assert cp.BOXES[box] in {b["id"] for b in routing["boxes"]}


def battalions(division, count, stemmermann=False):
    return [BoxUnit(f"{division}-{i}", division, "battalion", stemmermann) for i in range(count)]


def test_reconstitution_three_battalions_return_one():
    options = {
        o.division: o for o in cp.reconstitution(battalions("88", 3) + battalions("72", 2), ())
    }
    assert (options["88"].battalions, options["88"].returns) == (3, 1)
    assert (options["72"].battalions, options["72"].returns) == (2, 0)
    assert cp.reconstitution(battalions("88", 6), ())[0].returns == 1  # one unit, only once


def test_reconstitution_once_per_division_regiments_never_and_groups_apart():
    assert cp.reconstitution(battalions("88", 3), ("88",))[0].returns == 0
    regiments = [BoxUnit(f"r{i}", "88", "regiment") for i in range(3)]
    assert cp.reconstitution(regiments, ()) == []
    mixed = cp.reconstitution(battalions("88", 2) + battalions("88", 2, stemmermann=True), ())
    assert [o.returns for o in mixed] == [0, 0]
    assert cp.reconstitution(battalions("88", 3), (), divisions_on_map=("72",))[0].returns == 0


# --------------------------------------------------------------------------- odds (11.6, 11.8)


def test_odds_examples():
    assert cp.odds(26, 7) == "3:1"  # 11.6 [L377]
    assert cp.odds(5, 11) == "1:3"  # [L381]
    assert cp.odds(7, 7) == "1:1"
    assert cp.odds(6, 7) == "1:2"


def test_odds_column_clamps_and_shifts(game):
    assert cp.odds_column(10, 2, 2, game) == "7:1"  # 11.8 [L383]: 5:1, R3 L1 → 7:1
    assert cp.odds_column(20, 2, -1, game) == "6:1"  # 10:1 → 7:1, then one left
    assert cp.odds_column(1, 9, 1, game) == "1:3"  # 1:9 → 1:4, then one right
    assert cp.odds_column(1, 9, -2, game) == "1:4"
    with pytest.raises(ValueError):
        cp.odds(0, 3)


def test_column_shifts(tables):
    assert cp.column_shift(["prepared_attack", "air"], tables)[0] == 2
    net, rules = cp.column_shift(["stream", "fortified_line", "fortified_line_and_stream"], tables)
    assert (net, rules) == (-2, ("11.15",))
    with pytest.raises(ValueError, match="terrain"):
        cp.column_shift(["terrain"], tables)


def test_crt_only_the_printed_cell_without_the_referee(game):
    assert cp.crt_result("2:1", 4, {}, game) == {"attacker_steps": 1, "defender_steps": 1}
    assert cp.crt_result("2:1", 3, {}, game) is None
    crt = {"3:1": {"2": {"attacker_steps": 0, "defender_steps": 2}}}
    assert cp.crt_result("3:1", 2, {"cp.crt": crt}, game) == {
        "attacker_steps": 0,
        "defender_steps": 2,
    }


# --------------------------------------------------------------------------- victory


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
    tally = cp.victory_tally("scenario-1", s1(n, non_n, airfield), game)
    assert tally.vp == vp
    assert tally.final


def test_scenario_1_levels(game):
    assert cp.victory_tally("scenario-1", s1(10, 14), game).level.en == "Soviet strategic victory"
    assert (
        cp.victory_tally("scenario-1", s1(9, 13, "german"), game).level.en
        == "German operational victory"
    )


def test_scenario_1_without_a_pocket(game):
    facts = CpVictoryFacts(
        n_eliminated_or_encircled_at_formation=12, hex_control={"3809": "soviet"}
    )
    tally = cp.victory_tally("scenario-1", facts, game)
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
    assert cp.victory_tally(campaign_game, s2(1, False), game).vp == 1
    assert cp.victory_tally(campaign_game, s2(0, True), game).vp == 2
    assert cp.victory_tally(campaign_game, s2(0, True, 3, 2), game).vp == 3
    assert cp.victory_tally(campaign_game, s2(0, True, 3, 3), game).vp == 2  # "more than"
    assert cp.victory_tally(campaign_game, s2(0, False), game).vp == 0  # relieved
    # The two pocket conditions never both score.
    assert cp.victory_tally(campaign_game, s2(1, True), game).vp == 1


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
    assert cp.victory_tally("scenario-4", facts, game).vp == 2
    short = CpVictoryFacts(**{**facts.__dict__, "stemmermann_non_n_ever": 13})
    assert cp.victory_tally("scenario-4", short, game).vp == 1
    no_pocket = CpVictoryFacts(
        stemmermann_on_map=0,
        german_tanks_eliminated=5,
        soviet_tanks_eliminated_or_in_recovery=4,
        game_over=True,
    )
    assert cp.victory_tally("scenario-4", no_pocket, game).vp == 1  # only the tank point


def test_unknown_facts_are_not_counted(game):
    tally = cp.victory_tally("scenario-2", CpVictoryFacts(encirclement_formed=True), game)
    assert tally.vp == 0
    assert all(condition.met is None for condition in tally.conditions)


# --------------------------------------------------------------------------- stacking (8.0)


def test_three_non_artillery_units(game):
    three = [StackUnit("german") for _ in range(3)]
    assert cp.stacking_warnings(three, game) == []
    warnings = cp.stacking_warnings([*three, StackUnit("german")], game)
    assert [(w.code, w.rule) for w in warnings] == [("over_stacked", "8.1")]


def test_artillery_never_stacks(game):
    assert cp.stacking_warnings([StackUnit("soviet", artillery=True)], game) == []
    warnings = cp.stacking_warnings(
        [StackUnit("soviet", artillery=True), StackUnit("soviet")], game
    )
    assert [(w.code, w.rule) for w in warnings] == [("artillery_stacked", "8.4")]
