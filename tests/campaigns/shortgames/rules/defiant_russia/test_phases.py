"""Defiant Russia: the phases of 4.0 and the steps of the turn sequence on each turn and
weather (4.0, 6.7, 8.3)."""

import pytest

from campaigns.shortgames.rules.defiant_russia import phases

BREAKTHROUGH = (
    "axis_breakthrough_movement",
    "axis_breakthrough_combat",
    "soviet_breakthrough_movement",
    "soviet_breakthrough_combat",
)


def by_id(states):
    return {state.id: state for state in states}


def test_eleven_phases_in_order(game):
    states = phases.phases(2, "clear", (), game)
    assert [state.number for state in states] == list(range(1, 12))
    assert all(state.applies and not state.limited for state in states)


def test_no_breakthrough_phases_on_turn_1(game):
    states = by_id(phases.phases(1, "clear", (), game))
    for phase in BREAKTHROUGH:
        assert not states[phase].applies
        assert "6.7" in states[phase].reason.en
        assert "第1ターン" in states[phase].reason.ja
    assert states["axis_movement"].applies and states["soviet_combat"].applies


def test_early_invasion_adds_only_the_axis_breakthrough_phases_on_turn_1(game):
    states = by_id(phases.phases(1, "clear", ("early_invasion",), game))
    assert states["axis_breakthrough_movement"].applies
    assert states["axis_breakthrough_combat"].applies
    # AMB-24: 12.1 names only the Axis phases.
    assert not states["soviet_breakthrough_movement"].applies
    assert not states["soviet_breakthrough_combat"].applies


def test_no_breakthrough_in_mud_for_either_side(game):
    states = by_id(phases.phases(5, "mud", (), game))
    for phase in BREAKTHROUGH:
        assert not states[phase].applies
        assert "8.3" in states[phase].reason.en


def test_light_mud_limits_the_axis_and_stops_the_soviet(game):
    states = by_id(phases.phases(4, "light_mud", (), game))
    assert states["axis_breakthrough_movement"].applies
    assert states["axis_breakthrough_movement"].limited
    assert "Guderian" in states["axis_breakthrough_movement"].reason.en
    assert not states["soviet_breakthrough_movement"].applies


def test_snow_limits_the_axis_only(game):
    states = by_id(phases.phases(7, "snow", (), game))
    assert states["axis_breakthrough_movement"].limited
    assert "1 MP" in states["axis_breakthrough_movement"].reason.en
    assert states["soviet_breakthrough_movement"].applies
    assert not states["soviet_breakthrough_movement"].limited


def test_the_historical_matrix_is_what_phases_derive(game):
    for row in game["historical_phase_matrix"]["rows"]:
        states = by_id(phases.phases(row["turn"], row["weather"], (), game))
        for phase, expected in row["phases"].items():
            state = states[phase]
            got = "none" if not state.applies else ("limited" if state.limited else "yes")
            assert got == expected, (row["turn"], phase)


@pytest.mark.parametrize("turn", [0, 8])
def test_turns_outside_1_to_7_are_refused(game, turn):
    with pytest.raises(ValueError):
        phases.phases(turn, "clear", (), game)


def test_unknown_weather_is_refused(game):
    with pytest.raises(ValueError):
        phases.phases(2, "fog", (), game)


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
    step = by_id(phases.steps(turn, "clear", ("random_weather",), sequence, game))["weather"]
    assert [use.table_id for use in step.tables if use.applies] == ([rolled] if rolled else [])
    historical = by_id(phases.steps(turn, "clear", (), sequence, game))["weather"]
    assert not any(use.applies for use in historical.tables)
    # The optional rule by its name, never its data key.
    assert all("Random weather" in use.reason.en for use in historical.tables)
    assert not any("random_weather" in use.reason.en + use.reason.ja for use in historical.tables)


@pytest.mark.parametrize(
    ("step_id", "first_turn", "rule"),
    [
        ("axis_replacements", 3, "10.13"),
        ("soviet_replacements", 2, "10.14"),
        ("partisans", 4, "11.2"),
    ],
)
def test_organization_steps_start_on_their_turn(game, sequence, step_id, first_turn, rule):
    before = by_id(phases.steps(first_turn - 1, "clear", (), sequence, game))[step_id]
    assert not before.applies
    assert before.reason.en == f"From turn {first_turn} ({rule})."
    assert by_id(phases.steps(first_turn, "clear", (), sequence, game))[step_id].applies


def test_shock_armies_only_on_turn_7(game, sequence):
    assert not by_id(phases.steps(6, "clear", (), sequence, game))["shock_army_exchange"].applies
    assert by_id(phases.steps(7, "snow", (), sequence, game))["shock_army_exchange"].applies


def test_airborne_drop_table_only_on_snow_turns_6_and_7(game, sequence):
    def drop(turn, weather):
        step = by_id(phases.steps(turn, weather, ("random_weather",), sequence, game))
        return table_use(step["soviet_movement"], "dr.airborne-drop").applies

    assert drop(6, "snow") and drop(7, "snow")
    assert not drop(6, "clear")
    assert not drop(5, "snow")


def test_breakthrough_steps_skip_with_the_phase(game, sequence):
    steps = by_id(phases.steps(5, "mud", (), sequence, game))
    assert not steps["axis_breakthrough_movement"].applies
    assert not steps["soviet_breakthrough_combat"].applies
    assert steps["axis_combat"].applies


def test_before_the_weather_is_known(game, sequence):
    states = by_id(phases.phases(3, None, (), game))
    assert states["axis_movement"].applies
    assert not states["axis_breakthrough_movement"].applies
    assert "not known yet" in states["axis_breakthrough_movement"].reason.en
    steps = by_id(phases.steps(3, None, ("random_weather",), sequence, game))
    assert table_use(steps["weather"], "dr.weather-august").applies
