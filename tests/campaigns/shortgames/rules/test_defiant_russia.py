"""Defiant Russia's rules functions against the rules' text (seed 001) and worked examples,
at every limit and one past it."""

import pytest

from campaigns.games.registry import get_module
from campaigns.shortgames.rules import defiant_russia as dr
from campaigns.shortgames.rules.defiant_russia import CombatUnit, RemovedUnit, StackUnit, UnitFacts

BREAKTHROUGH = (
    "axis_breakthrough_movement",
    "axis_breakthrough_combat",
    "soviet_breakthrough_movement",
    "soviet_breakthrough_combat",
)


@pytest.fixture(scope="module")
def files():
    return get_module("defiant_russia").files


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


def limit(limits, key):
    return {item.key: item for item in limits}.get(key)


# --------------------------------------------------------------------------- phases (4.0, 6.7, 8.3)


def test_eleven_phases_in_order(game):
    states = dr.phases(2, "clear", (), game)
    assert [state.number for state in states] == list(range(1, 12))
    assert all(state.applies and not state.limited for state in states)


def test_no_breakthrough_phases_on_turn_1(game):
    states = by_id(dr.phases(1, "clear", (), game))
    for phase in BREAKTHROUGH:
        assert not states[phase].applies
        assert "6.7" in states[phase].reason.en
        assert "第1ターン" in states[phase].reason.ja
    assert states["axis_movement"].applies and states["soviet_combat"].applies


def test_early_invasion_adds_only_the_axis_breakthrough_phases_on_turn_1(game):
    states = by_id(dr.phases(1, "clear", ("early_invasion",), game))
    assert states["axis_breakthrough_movement"].applies
    assert states["axis_breakthrough_combat"].applies
    # AMB-24: 12.1 names only the Axis phases.
    assert not states["soviet_breakthrough_movement"].applies
    assert not states["soviet_breakthrough_combat"].applies


def test_no_breakthrough_in_mud_for_either_side(game):
    states = by_id(dr.phases(5, "mud", (), game))
    for phase in BREAKTHROUGH:
        assert not states[phase].applies
        assert "8.3" in states[phase].reason.en


def test_light_mud_limits_the_axis_and_stops_the_soviet(game):
    states = by_id(dr.phases(4, "light_mud", (), game))
    assert states["axis_breakthrough_movement"].applies
    assert states["axis_breakthrough_movement"].limited
    assert "Guderian" in states["axis_breakthrough_movement"].reason.en
    assert not states["soviet_breakthrough_movement"].applies


def test_snow_limits_the_axis_only(game):
    states = by_id(dr.phases(7, "snow", (), game))
    assert states["axis_breakthrough_movement"].limited
    assert "1 MP" in states["axis_breakthrough_movement"].reason.en
    assert states["soviet_breakthrough_movement"].applies
    assert not states["soviet_breakthrough_movement"].limited


def test_the_historical_matrix_is_what_phases_derive(game):
    for row in game["historical_phase_matrix"]["rows"]:
        states = by_id(dr.phases(row["turn"], row["weather"], (), game))
        for phase, expected in row["phases"].items():
            state = states[phase]
            got = "none" if not state.applies else ("limited" if state.limited else "yes")
            assert got == expected, (row["turn"], phase)


@pytest.mark.parametrize("turn", [0, 8])
def test_turns_outside_1_to_7_are_refused(game, turn):
    with pytest.raises(ValueError):
        dr.phases(turn, "clear", (), game)


def test_unknown_weather_is_refused(game):
    with pytest.raises(ValueError):
        dr.phases(2, "fog", (), game)


# --------------------------------------------------------------------------- steps


def table_use(step, table_id):
    return {use.table_id: use for use in step.tables}[table_id]


@pytest.mark.parametrize(
    ("turn", "rolled"),
    [
        (1, None),
        (2, None),
        (3, "dr.weather-august"),
        (4, "dr.weather-september-october"),
        (5, "dr.weather-september-october"),
        (6, "dr.weather-november"),
        (7, None),
    ],
)
def test_weather_step_rolls_only_the_months_table_with_random_weather(game, sequence, turn, rolled):
    step = by_id(dr.steps(turn, "clear", ("random_weather",), sequence, game))["weather"]
    assert [use.table_id for use in step.tables if use.applies] == ([rolled] if rolled else [])
    historical = by_id(dr.steps(turn, "clear", (), sequence, game))["weather"]
    assert not any(use.applies for use in historical.tables)
    assert all("random_weather" in use.reason.en for use in historical.tables)


@pytest.mark.parametrize(
    ("step_id", "first_turn", "rule"),
    [
        ("axis_replacements", 3, "10.13"),
        ("soviet_replacements", 2, "10.14"),
        ("partisans", 4, "11.2"),
    ],
)
def test_organization_steps_start_on_their_turn(game, sequence, step_id, first_turn, rule):
    before = by_id(dr.steps(first_turn - 1, "clear", (), sequence, game))[step_id]
    assert not before.applies
    assert before.reason.en == f"From turn {first_turn} ({rule})."
    assert by_id(dr.steps(first_turn, "clear", (), sequence, game))[step_id].applies


def test_shock_armies_only_on_turn_7(game, sequence):
    assert not by_id(dr.steps(6, "clear", (), sequence, game))["shock_army_exchange"].applies
    assert by_id(dr.steps(7, "snow", (), sequence, game))["shock_army_exchange"].applies


def test_airborne_drop_table_only_on_snow_turns_6_and_7(game, sequence):
    def drop(turn, weather):
        step = by_id(dr.steps(turn, weather, ("random_weather",), sequence, game))
        return table_use(step["soviet_movement"], "dr.airborne-drop").applies

    assert drop(6, "snow") and drop(7, "snow")
    assert not drop(6, "clear")
    assert not drop(5, "snow")


def test_breakthrough_steps_skip_with_the_phase(game, sequence):
    steps = by_id(dr.steps(5, "mud", (), sequence, game))
    assert not steps["axis_breakthrough_movement"].applies
    assert not steps["soviet_breakthrough_combat"].applies
    assert steps["axis_combat"].applies


# --------------------------------------------------------------------------- limits of the turn


@pytest.mark.parametrize(
    ("side", "weather", "rail", "supply"),
    [
        ("axis", "clear", 3, 3),
        ("axis", "mud", 3, 3),
        ("axis", "snow", 2, 2),  # 6.5, 5.2
        ("soviet", "clear", 6, 3),
        ("soviet", "snow", 6, 3),  # Soviet supply unchanged in snow
    ],
)
def test_rail_moves_and_supply_range(game, side, weather, rail, supply):
    limits = dr.turn_limits(7 if weather == "snow" else 3, weather, side, game)
    assert limit(limits, "rail_moves").value == rail
    assert limit(limits, "rail_moves").rule == "6.5"
    assert limit(limits, "supply_range").value == supply
    assert str(rail) in limit(limits, "rail_moves").text_en
    assert str(rail) in limit(limits, "rail_moves").text_ja


def test_finnish_supply_is_not_reduced_in_snow(game):
    limits = dr.turn_limits(7, "snow", "axis", game)
    assert limit(limits, "supply_range_finnish").value == 3
    assert limit(dr.turn_limits(7, "snow", "soviet", game), "supply_range_finnish") is None


def test_mud_halves_movement(game):
    assert limit(dr.turn_limits(5, "mud", "axis", game), "movement_factor").value == 0.5
    assert limit(dr.turn_limits(4, "light_mud", "axis", game), "movement_factor") is None


def test_snow_halves_axis_attacks_only(game):
    assert limit(dr.turn_limits(7, "snow", "axis", game), "attack_halved").value is True
    assert limit(dr.turn_limits(7, "snow", "soviet", game), "attack_halved") is None
    assert limit(dr.turn_limits(6, "clear", "axis", game), "attack_halved") is None


def test_breakthrough_limit(game):
    assert limit(dr.turn_limits(1, "clear", "axis", game), "breakthrough").value == "none"
    assert limit(dr.turn_limits(4, "light_mud", "axis", game), "breakthrough").value == "limited"
    assert limit(dr.turn_limits(4, "light_mud", "soviet", game), "breakthrough").value == "none"
    assert limit(dr.turn_limits(2, "clear", "soviet", game), "breakthrough").value == "full"


def test_first_snow_turn_soviet_hits_on_5_or_6(game):
    assert limit(
        dr.turn_limits(6, "snow", "soviet", game, first_snow_turn=6), "attack_hits_on"
    ).value == ("5-6")
    assert (
        limit(dr.turn_limits(7, "snow", "soviet", game, first_snow_turn=6), "attack_hits_on")
        is None
    )
    assert (
        limit(dr.turn_limits(6, "snow", "axis", game, first_snow_turn=6), "attack_hits_on") is None
    )


# 11.7 [L576–582]: "「/」の左側が枢軸軍空軍ポイント".
AIR = {1: (6, 0), 2: (8, 0), 3: (8, 0), 4: (7, 1), 5: (6, 2), 6: (4, 2), 7: (0, 4)}


@pytest.mark.parametrize(("turn", "points"), AIR.items())
def test_air_points_schedule(game, turn, points):
    assert (dr.air_points(turn, "axis", game), dr.air_points(turn, "soviet", game)) == points
    assert limit(dr.turn_limits(turn, "clear", "axis", game), "air_points").value == points[0]


@pytest.mark.parametrize(
    ("turn", "axis", "soviet"),
    # 10.13: Axis 1 armor unit per turn from turn 3; 10.14: Soviet 2 July–September, then 1.
    [(1, None, None), (2, None, 2), (3, 1, 2), (4, 1, 2), (5, 1, 1), (7, 1, 1)],
)
def test_armor_replacement_caps(game, turn, axis, soviet):
    def cap(side):
        found = limit(dr.turn_limits(turn, "clear", side, game), "armor_replacements_max")
        return found.value if found else None

    assert (cap("axis"), cap("soviet")) == (axis, soviet)


# --------------------------------------------------------------------------- weather (8.1, 8.2)


def test_historical_weather_needs_no_roll(game):
    roll = dr.weather_table(4, (), game)
    assert (roll.mode, roll.weather, roll.table_id, roll.rule) == (
        "historical",
        "light_mud",
        None,
        "8.1",
    )
    assert "9月" in roll.reason.ja


@pytest.mark.parametrize(("turn", "weather"), [(1, "clear"), (2, "clear"), (7, "snow")])
def test_random_weather_fixed_months(game, turn, weather):
    roll = dr.weather_table(turn, ("random_weather",), game)
    assert (roll.mode, roll.weather, roll.table_id) == ("fixed", weather, None)


def test_random_weather_rolled_by_the_soviet(game):
    roll = dr.weather_table(3, ("random_weather",), game)
    assert (roll.mode, roll.table_id, roll.roller) == ("table", "dr.weather-august", "soviet")


@pytest.mark.parametrize(
    ("turn", "faces"),
    [
        # 8.2 [L372]: August 1–5 clear, 6 light mud.
        (3, ["clear"] * 5 + ["light_mud"]),
        # [L374]: September/October 1–2 clear, 3–4 light mud, 5–6 mud.
        (4, ["clear", "clear", "light_mud", "light_mud", "mud", "mud"]),
        (5, ["clear", "clear", "light_mud", "light_mud", "mud", "mud"]),
        # [L376]: November 1–3 clear, 4–5 mud, 6 snow.
        (6, ["clear", "clear", "clear", "mud", "mud", "snow"]),
    ],
)
def test_weather_from_each_face(game, tables, turn, faces):
    assert [dr.weather_from_roll(turn, face, tables, game) for face in range(1, 7)] == faces


def test_no_weather_roll_on_fixed_turns(game, tables):
    with pytest.raises(ValueError):
        dr.weather_from_roll(7, 6, tables, game)


def test_first_snow_turn():
    assert dr.first_snow_turn({5: "mud", 6: "snow", 7: "snow"}) == 6
    assert dr.first_snow_turn({6: "clear", 7: "snow"}) == 7
    assert dr.first_snow_turn({1: "clear"}) is None


# --------------------------------------------------------------------------- replacements (10.1)


def test_soviet_replacements_start_on_turn_2(game):
    assert dr.replacement_points("soviet", 1, (), (), game).points == 0
    assert not dr.replacement_points("soviet", 1, (), (), game).available
    full = dr.replacement_points("soviet", 2, (), (), game)
    assert (full.points, full.available, full.deductions) == (6, True, ())


def test_axis_replacements_start_on_turn_3_and_ignore_cities(game):
    assert dr.replacement_points("axis", 2, (), (), game).points == 0
    assert "turn 3" in dr.replacement_points("axis", 2, (), (), game).reason.en
    third = dr.replacement_points("axis", 3, ("moscow",), ("kiev",), game)
    assert (third.points, third.deductions, third.available) == (2, (), True)


def test_each_axis_held_city_costs_one(game):
    result = dr.replacement_points("soviet", 3, ("moscow", "kiev"), (), game)
    assert result.points == 4
    assert [(d.city, d.kind, d.points, d.rule) for d in result.deductions] == [
        ("moscow", "held", 1, "10.14"),
        ("kiev", "held", 1, "10.14"),
    ]
    assert result.deductions[0].inferred  # AMB-6: the amount is not printed


def test_a_city_held_and_cut_costs_one(game):
    result = dr.replacement_points("soviet", 3, ("kiev",), ("kiev",), game)
    assert result.points == 5
    assert [d.kind for d in result.deductions] == ["held"]


def test_cut_leningrad_is_10_15(game):
    result = dr.replacement_points("soviet", 3, (), ("leningrad", "stalingrad"), game)
    assert result.points == 4
    assert [(d.city, d.rule) for d in result.deductions] == [
        ("leningrad", "10.15"),
        ("stalingrad", "10.14"),
    ]


def test_only_the_four_cities_count_and_never_below_zero(game):
    assert dr.replacement_points("soviet", 3, ("minsk", "rostov"), ("kharkov",), game).points == 6
    everything = dr.replacement_points(
        "soviet", 7, ("leningrad", "moscow", "kiev", "stalingrad"), (), game
    )
    assert everything.points == 2


def test_replacement_costs():
    assert dr.replacement_cost("restore") == 1
    assert dr.replacement_cost("rebuild") == 2
    with pytest.raises(ValueError):
        dr.replacement_cost("full_return")


def refusal_codes(game, unit, action, *, turn=4, points_left=6, armor=0):
    return [
        warning.code
        for warning in dr.replacement_refusals(
            unit, action, turn=turn, points_left=points_left, armor_units_this_turn=armor, game=game
        )
    ]


def test_a_reduced_unit_in_supply_may_be_restored(game):
    assert (
        refusal_codes(game, UnitFacts("soviet", "soviet", "infantry_army", "reduced"), "restore")
        == []
    )


def test_an_eliminated_unit_may_be_rebuilt_but_not_restored(game):
    unit = UnitFacts("axis", "german", "infantry", "eliminated")
    assert refusal_codes(game, unit, "rebuild") == []
    assert refusal_codes(game, unit, "restore") == ["wrong_state"]


@pytest.mark.parametrize("state", ["eliminated_oos", "eliminated_out_of_supply"])
def test_eliminated_out_of_supply_never_returns(game, state):
    unit = UnitFacts("axis", "german", "infantry", state)
    assert refusal_codes(game, unit, "rebuild") == ["eliminated_out_of_supply"]


@pytest.mark.parametrize("nationality", ["hungarian", "italian", "spanish", "finnish"])
def test_minor_allies_get_no_replacements(game, nationality):
    unit = UnitFacts("axis", nationality, "infantry", "reduced")
    assert refusal_codes(game, unit, "restore") == ["nationality_not_replaceable"]


def test_romanians_may_be_replaced(game):
    assert (
        refusal_codes(game, UnitFacts("axis", "romanian", "infantry", "reduced"), "restore") == []
    )


def test_restore_needs_supply(game):
    unit = UnitFacts("soviet", "soviet", "infantry_army", "reduced", in_supply=False)
    assert refusal_codes(game, unit, "restore") == ["out_of_supply"]


@pytest.mark.parametrize(("points_left", "refused"), [(2, False), (1, True)])
def test_rebuild_needs_two_points(game, points_left, refused):
    unit = UnitFacts("soviet", "soviet", "infantry_army", "eliminated")
    codes = refusal_codes(game, unit, "rebuild", points_left=points_left)
    assert ("not_enough_points" in codes) == refused


@pytest.mark.parametrize(
    ("side", "turn", "already", "refused"),
    [
        ("soviet", 4, 1, False),  # September: 2 armor units
        ("soviet", 4, 2, True),
        ("soviet", 5, 0, False),  # October: 1
        ("soviet", 5, 1, True),
        ("axis", 3, 0, False),
        ("axis", 3, 1, True),
    ],
)
def test_armor_cap(game, side, turn, already, refused):
    armor = UnitFacts(side, "german" if side == "axis" else "soviet",
                      "armor" if side == "axis" else "tank_corps", "reduced")  # fmt: skip
    codes = refusal_codes(game, armor, "restore", turn=turn, armor=already)
    assert ("armor_cap" in codes) == refused
    infantry = UnitFacts(side, armor.nationality, "infantry", "reduced")
    assert "armor_cap" not in refusal_codes(game, infantry, "restore", turn=turn, armor=9)


def test_no_replacements_before_the_first_turn(game):
    unit = UnitFacts("axis", "german", "infantry", "reduced")
    assert refusal_codes(game, unit, "restore", turn=2) == ["no_replacements_yet"]


def test_where_rebuilt_units_appear(game):
    assert dr.rebuild_locations("axis", "german", (), (), game) == ["warsaw"]
    assert dr.rebuild_locations("axis", "romanian", (), (), game) == ["bucharest"]
    assert dr.rebuild_locations("axis", "finnish", (), (), game) == []
    assert dr.rebuild_locations("soviet", "soviet", ("moscow",), ("leningrad",), game) == [
        "kiev",
        "stalingrad",
    ]


# --------------------------------------------------------------------------- reinforcements, events


def test_rules_named_reinforcements(game):
    assert [r.unit_id for r in dr.reinforcements_due(4, "soviet", (), game)] == ["zhukov"]
    assert [r.unit_id for r in dr.reinforcements_due(6, "soviet", (), game)] == ["soviet_airborne"]
    assert dr.reinforcements_due(4, "axis", (), game) == []


def test_early_invasion_reinforcements(game):
    assert [r.unit_id for r in dr.reinforcements_due(4, "axis", ("early_invasion",), game)] == [
        "hungarian_mobile_corps"
    ]
    assert [r.unit_id for r in dr.reinforcements_due(5, "axis", ("early_invasion",), game)] == [
        "italian_csir"
    ]


def test_roster_reinforcements(game):
    roster = [
        {"unit_id": "hungarian_mobile_corps", "side": "axis", "entry_turn": 3},
        {"unit_id": "4th_army", "side": "soviet", "entry_turn": 3},
        {"unit_id": "1st_panzer", "side": "axis", "entry_turn": 2},
    ]
    due = dr.reinforcements_due(3, "axis", (), game, roster)
    assert [(r.unit_id, r.source) for r in due] == [("hungarian_mobile_corps", "roster")]


def test_partisans_from_september(game):
    assert not dr.partisans(3, game).applies
    use = dr.partisans(4, game)
    assert (use.applies, use.table_id, use.roller, use.rule) == (
        True,
        "dr.partisans",
        "soviet",
        "11.2",
    )


@pytest.mark.parametrize(
    ("turn", "weather", "options", "dropped", "applies"),
    [
        (7, "snow", (), False, True),
        (7, "snow", (), True, False),  # once per game
        (6, "snow", (), False, False),  # historical: turn 7 only
        (6, "snow", ("random_weather",), False, True),
        (6, "mud", ("random_weather",), False, False),
        (5, "snow", ("random_weather",), False, False),
    ],
)
def test_airborne_drop(game, turn, weather, options, dropped, applies):
    assert dr.airborne_drop(turn, weather, options, dropped, game).applies == applies


def test_shock_army_exchange(game):
    assert not dr.shock_army_exchange(6, game).applies
    assert dr.shock_army_exchange(7, game).applies


@pytest.mark.parametrize(
    ("some_or_all", "face", "effect"),
    [
        ("some", 1, "leader_dies"),
        ("some", 2, "none"),
        ("all", 2, "leader_dies"),
        ("all", 3, "relocate"),
    ],
)
def test_leader_casualty(game, tables, some_or_all, face, effect):
    assert dr.leader_casualty_result(face, some_or_all, tables, game) == effect


def test_fleet_air_raid_three_points_per_turn(game):
    raid = dr.fleet_air_raid(5, 0, game)
    assert (raid.dice, raid.hit_on) == (3, (5, 6))
    assert dr.fleet_air_raid(2, 2, game).dice == 1
    assert dr.fleet_air_raid(1, 3, game).dice == 0


# --------------------------------------------------------------------------- combat (7.0, 9.0)


def dice(tables, units, **kwargs):
    kwargs.setdefault("weather", "clear")
    return dr.combat_dice(units, tables=tables, **kwargs)


def test_the_7_11_example(tables):
    # A Romanian 4-4 mountain corps attacks the Soviet 18th Tank Corps (2-5) in clear terrain.
    attack = dice(
        tables, [CombatUnit(4, nationality="romanian", mountain=True)], role="attacker", side="axis"
    )
    defence = dice(
        tables,
        [CombatUnit(2, armor=True, nationality="soviet")],
        role="defender",
        side="soviet",
        terrain=["clear"],
    )
    assert (attack.dice, defence.dice) == (4, 2)
    assert attack.hit_on == (6,)


def test_rough_adds_one_per_defending_unit(tables):
    assert (
        dice(tables, [CombatUnit(3)], role="defender", side="soviet", terrain=["rough"]).dice == 4
    )
    assert (
        dice(
            tables,
            [CombatUnit(3), CombatUnit(3)],
            role="defender",
            side="soviet",
            terrain=["rough"],
        ).dice
        == 8
    )


@pytest.mark.parametrize("terrain", ["forest", "swamp", "major_city"])
def test_forest_swamp_major_city_add_one_to_the_total(tables, terrain):
    # 9.0 [L402, L404]: one 3-3 rolls 4 dice, two roll 7.
    assert (
        dice(tables, [CombatUnit(3)], role="defender", side="soviet", terrain=[terrain]).dice == 4
    )
    assert (
        dice(
            tables,
            [CombatUnit(3), CombatUnit(3)],
            role="defender",
            side="soviet",
            terrain=[terrain],
        ).dice
        == 7
    )


def test_the_9_1_example_snow_and_swamp(tables):
    german_armor = CombatUnit(6, armor=True, nationality="german")
    snow = dice(tables, [german_armor], role="attacker", side="axis", weather="snow")
    assert snow.dice == 3
    swamp = dice(
        tables, [german_armor], role="attacker", side="axis", weather="snow", terrain=["swamp"]
    )
    assert swamp.dice == 2  # 6 → 3 → 1½, rounded up once
    assert any(line.rule == "8.3" for line in swamp.lines)


def test_snow_exemptions(tables):
    for unit in (
        CombatUnit(3, nationality="finnish"),
        CombatUnit(3, nationality="german", mountain=True),
        CombatUnit(3, nationality="romanian", mountain=True),
    ):
        assert dice(tables, [unit], role="attacker", side="axis", weather="snow").dice == 3
    assert (
        dice(
            tables,
            [CombatUnit(3, nationality="italian")],
            role="attacker",
            side="axis",
            weather="snow",
        ).dice
        == 2
    )
    # Soviet attackers and all defenders are never halved by snow.
    assert dice(tables, [CombatUnit(3)], role="attacker", side="soviet", weather="snow").dice == 3
    assert (
        dice(
            tables,
            [CombatUnit(3, nationality="german")],
            role="defender",
            side="axis",
            weather="snow",
        ).dice
        == 3
    )


def test_city_costs_attacking_armor_one_each(tables):
    units = [CombatUnit(3, armor=True), CombatUnit(3)]
    assert dice(tables, units, role="attacker", side="axis", terrain=["city"]).dice == 5


def test_river_costs_each_unit_crossing(tables):
    units = [CombatUnit(3, across="river"), CombatUnit(3)]
    assert dice(tables, units, role="attacker", side="axis").dice == 5


def test_kerch_strait(tables):
    assert (
        dice(tables, [CombatUnit(3, across="kerch_strait")], role="attacker", side="axis").dice == 2
    )
    defended = dice(
        tables,
        [CombatUnit(2), CombatUnit(2)],
        role="defender",
        side="soviet",
        attacked_only_across_strait=True,
    )
    assert defended.dice == 6


def test_fortress(tables):
    # AMB-5: −1 per attacking unit (the text), defenders hit on 5–6.
    attack = dice(
        tables,
        [CombatUnit(4), CombatUnit(4, armor=True)],
        role="attacker",
        side="axis",
        terrain=["fortress"],
    )
    assert attack.dice == 6
    defence = dice(
        tables, [CombatUnit(3)], role="defender", side="soviet", terrain=["major_city", "fortress"]
    )
    assert (defence.dice, defence.hit_on) == (4, (5, 6))


def test_out_of_supply(tables):
    assert dice(tables, [CombatUnit(5, out_of_supply=True)], role="attacker", side="axis").dice == 1
    assert dice(tables, [CombatUnit(5, out_of_supply=True)], role="defender", side="axis").dice == 3


def test_never_below_zero(tables):
    units = [CombatUnit(1, armor=True, across="river")]
    assert dice(tables, units, role="attacker", side="axis", terrain=["city", "fortress"]).dice == 0


@pytest.mark.parametrize(
    ("leaders", "role", "weather", "extra"),
    [
        (["guderian"], "attacker", "clear", 2),
        (["guderian"], "attacker", "mud", 1),
        (["guderian"], "defender", "clear", 1),
        (["stalin"], "attacker", "clear", 2),
        (["stalin"], "defender", "snow", 2),  # AMB-10
        (["zhukov"], "attacker", "clear", 2),
        (["zhukov"], "defender", "clear", 1),
    ],
)
def test_leaders(tables, leaders, role, weather, extra):
    side = "axis" if leaders == ["guderian"] else "soviet"
    base = dice(tables, [CombatUnit(3)], role=role, side=side, weather="clear").dice
    got = dice(tables, [CombatUnit(3)], role=role, side=side, weather=weather, leaders=leaders).dice
    assert got - base == extra


def test_zhukov_adjacent_hexes_at_most_two(tables):
    assert (
        dice(tables, [CombatUnit(3)], role="attacker", side="soviet", zhukov_adjacent_hexes=2).dice
        == 5
    )
    assert (
        dice(tables, [CombatUnit(3)], role="attacker", side="soviet", zhukov_adjacent_hexes=3).dice
        == 5
    )


def test_air_points_at_most_three_and_not_in_breakthrough(tables):
    assert dice(tables, [CombatUnit(3)], role="attacker", side="axis", air_points=3).dice == 6
    assert dice(tables, [CombatUnit(3)], role="attacker", side="axis", air_points=4).dice == 6
    assert (
        dice(
            tables, [CombatUnit(3)], role="attacker", side="axis", air_points=3, breakthrough=True
        ).dice
        == 3
    )


def test_hit_numbers():
    assert dr.hit_numbers("attacker", "soviet", [], first_snow_turn=True) == ((5, 6), "8.3")
    assert dr.hit_numbers("defender", "soviet", [], first_snow_turn=True) == ((6,), "7.11")
    assert dr.hit_numbers("attacker", "axis", [], first_snow_turn=True) == ((6,), "7.11")
    assert dr.hit_numbers("defender", "axis", ["fortress"]) == ((5, 6), "9.0")
    # 11.51: fleet dice hit on 6 only, even in a fortress or on the first snow turn.
    assert dr.hit_numbers("attacker", "soviet", [], first_snow_turn=True, fleet=True) == (
        (6,),
        "11.51",
    )


def test_first_snow_turn_soviet_attack_dice(tables):
    result = dice(
        tables,
        [CombatUnit(3)],
        role="attacker",
        side="soviet",
        weather="snow",
        first_snow_turn=True,
    )
    assert result.hit_on == (5, 6)


def test_count_hits():
    assert dr.count_hits([1, 5, 6, 6], (6,)) == 2
    assert dr.count_hits([1, 5, 6, 6], (5, 6)) == 3
    assert dr.count_hits([], (6,)) == 0


def test_effective_terrain():
    assert dr.effective_terrain("swamp", "snow", 35) == "forest"
    assert dr.effective_terrain("swamp", "snow", 34) == "swamp"  # AMB-22: north of 34xx = 35xx+
    assert dr.effective_terrain("swamp", "clear", 40) == "swamp"
    assert dr.effective_terrain("lake", "snow") == "clear"


def test_combat_modifiers_come_from_the_data(tables):
    ids = {modifier.id for modifier in dr.combat_modifiers(tables)}
    assert {"rough.0", "swamp.1", "fortress.1", "snow_axis_attacker", "air_points"} <= ids


# --------------------------------------------------------------------------- victory (13.0)

HISTORICAL_CONTROL = {
    "moscow": "soviet",
    "leningrad": "soviet",
    "rostov": "soviet",
    "sevastopol": "soviet",
    "bryansk": "axis",
    "kharkov": "axis",
    "kiev": "axis",
    "minsk": "axis",
}


def test_the_historical_result_is_6_to_5(game):
    # 13.0 [L604]: the Axis scored on casualties.
    removed = [RemovedUnit("soviet", "other")] * 10 + [RemovedUnit("axis", "german_armor")] * 2
    status = dr.victory_status(HISTORICAL_CONTROL, True, removed, game, turn=7, turn_finished=True)
    assert (status.soviet, status.axis, status.leader, status.final) == (6, 5, "soviet", True)
    assert status.unknown == ()


def test_a_casualty_tie_goes_to_the_soviet(game):
    removed = [RemovedUnit("soviet", "other")] * 3 + [RemovedUnit("axis", "german_armor")]
    status = dr.victory_status(HISTORICAL_CONTROL, False, removed, game)
    # 3 weighted each: Soviet gets the casualty VP; Stalin dead gives the Axis 1.
    assert (status.soviet, status.axis) == (6, 5)
    assert not status.final


def test_casualty_weights(game):
    assert dr.casualty_weight("axis", "german_armor", game) == 3
    assert dr.casualty_weight("axis", "guderian", game) == 3
    assert dr.casualty_weight("axis", "finnish", game) == 2
    assert dr.casualty_weight("axis", "romanian", game) == 1
    assert dr.casualty_weight("soviet", "shock_army", game) == 2
    assert dr.casualty_weight("soviet", "other", game) == 1
    assert dr.casualty_category(UnitFacts("axis", "german", "armor")) == "german_armor"
    assert dr.casualty_category(UnitFacts("axis", "german", "infantry")) == "german_other"
    assert dr.casualty_category(UnitFacts("soviet", "soviet", "tank_corps")) == "other"
    assert dr.casualty_category(UnitFacts("soviet", "soviet", "fleet")) == "fleet"


def test_unknown_control_is_shown_not_counted(game):
    status = dr.victory_status({"moscow": "soviet"}, None, [], game, turn=3)
    assert status.soviet == 3  # Moscow 2 + the casualty tie
    assert "minsk" in status.unknown and "stalin" in status.unknown
    assert not status.final


def test_automatic_victory(game):
    axis = {"leningrad": "axis", "moscow": "axis", "stalingrad": "axis"}
    assert dr.automatic_victory(axis, game) == "axis"
    assert dr.automatic_victory({**axis, "stalingrad": "soviet"}, game) is None
    assert dr.automatic_victory({"warsaw": "soviet", "helsinki": "soviet"}, game) == "soviet"
    status = dr.victory_status(axis, True, [], game, turn=4)
    assert (status.automatic, status.leader, status.final) == ("axis", "axis", True)


# --------------------------------------------------------------------------- stacking (6.2)


def codes(game, units):
    return [warning.code for warning in dr.stacking_warnings(units, game)]


def test_two_units_per_hex(game):
    two = [StackUnit("axis", "german", "infantry"), StackUnit("axis", "german", "armor")]
    assert codes(game, two) == []
    assert codes(game, [*two, StackUnit("axis", "german", "infantry")]) == ["over_stacked"]


def test_leaders_blue_division_and_fleets_do_not_count(game):
    two = [StackUnit("axis", "german", "infantry"), StackUnit("axis", "german", "armor")]
    assert codes(game, [*two, StackUnit("axis", "german", "leader", "guderian")]) == []
    assert codes(game, [*two, StackUnit("axis", "spanish", "infantry", "blue_division")]) == []
    soviet = [
        StackUnit("soviet", "soviet", "tank_corps"),
        StackUnit("soviet", "soviet", "cavalry_corps"),
    ]
    assert codes(game, [*soviet, StackUnit("soviet", "soviet", "fleet", "black_sea_fleet")]) == []


def test_one_soviet_army_per_hex_unless_with_stalin(game):
    armies = [
        StackUnit("soviet", "soviet", "infantry_army"),
        StackUnit("soviet", "soviet", "shock_army"),
    ]
    warnings = dr.stacking_warnings(armies, game)
    assert [(w.code, w.rule) for w in warnings] == [("soviet_armies", "6.21")]
    assert codes(game, [*armies, StackUnit("soviet", "soviet", "leader", "stalin")]) == []
    army_and_corps = [
        StackUnit("soviet", "soviet", "infantry_army"),
        StackUnit("soviet", "soviet", "tank_corps"),
    ]
    assert codes(game, army_and_corps) == []


def test_hungarians_and_romanians_never_together(game):
    units = [StackUnit("axis", "hungarian", "infantry"), StackUnit("axis", "romanian", "infantry")]
    warnings = dr.stacking_warnings(units, game)
    assert [(w.code, w.rule) for w in warnings] == [("hungarian_romanian", "6.23")]
    assert "ルーマニア" in warnings[0].text.ja


def test_before_the_weather_is_known(game, sequence):
    states = by_id(dr.phases(3, None, (), game))
    assert states["axis_movement"].applies
    assert not states["axis_breakthrough_movement"].applies
    assert "not known yet" in states["axis_breakthrough_movement"].reason.en
    steps = by_id(dr.steps(3, None, ("random_weather",), sequence, game))
    assert table_use(steps["weather"], "dr.weather-august").applies
