"""Reading a roll's turn step and form token out of a note written the old way (pure)."""

import pytest

from campaigns.dice.legacy_notes import (
    RollNote,
    legacy_note,
    split_legacy_note,
    turn_step_ids,
)
from campaigns.games.registry import get_module

DR_STEPS = turn_step_ids(get_module("defiant_russia").files["turn_sequence"])
CP_STEPS = turn_step_ids(get_module("cherkassy_pocket").files["turn_sequence"])


def split(note, *, step="8.0", table_id="", turn_steps=DR_STEPS):
    return split_legacy_note(note, step=step, table_id=table_id, turn_steps=turn_steps)


def test_turn_step_ids_are_the_ids_of_the_turn_sequence():
    assert {"weather", "axis_combat", "partisans"} <= DR_STEPS
    assert {"s1.air_power", "s2.air_power"} <= CP_STEPS
    assert turn_step_ids(None) == frozenset()
    assert turn_step_ids({"steps": [{"id": "a"}, {"name": "no id"}, "junk"]}) == {"a"}


@pytest.mark.parametrize(
    "note, table_id, expected",
    [
        ("weather", "dr.weather-august", RollNote("", sequence_step="weather")),
        ("partisans: Pripyat", "dr.partisans", RollNote("Pripyat", sequence_step="partisans")),
        # Only the first "<step>: " is the app's; the rest is the player's, colons and all.
        (
            "weather: partisans: x",
            "dr.weather-august",
            RollNote("partisans: x", sequence_step="weather"),
        ),
        # Not a step of the game, or no space after the colon: the player's words.
        ("Kiev: held", "dr.partisans", RollNote("Kiev: held")),
        ("weather:x", "dr.weather-august", RollNote("weather:x")),
        ("weathered", "dr.weather-august", RollNote("weathered")),
    ],
)
def test_a_table_roll_gives_up_its_step(note, table_id, expected):
    assert split(note, table_id=table_id) == expected


def test_a_cp_segment_step_keeps_its_segment():
    assert split(
        "s2.air_power", step="11.16", table_id="cp.air-points-german", turn_steps=CP_STEPS
    ) == RollNote("", sequence_step="s2.air_power")


def test_a_roll_without_a_table_never_had_a_step_in_its_note():
    # A combat die with a player's label that happens to start like a step.
    assert split("weather: attack in the rain (1/2)", step="7.11") == RollNote(
        "weather: attack in the rain (1/2)"
    )


@pytest.mark.parametrize(
    "note, step, expected",
    [
        ("combat [form-1] (1/9)", "7.11", RollNote("combat (1/9)", form_token="form-1")),
        ("combat [a1b2] fleet (2/2)", "11.51", RollNote("combat fleet (2/2)", form_token="a1b2")),
        # A player's brackets before the token stay in the label.
        ("Kiev [north] [f1] (1/3)", "7.11", RollNote("Kiev [north] (1/3)", form_token="f1")),
        ("Korsun · 26:7 → 4:1 [abc]", "11.9", RollNote("Korsun · 26:7 → 4:1", form_token="abc")),
        # No token was sent: nothing to take out.
        ("combat (1/3)", "7.11", RollNote("combat (1/3)")),
        ("Kiev [north] (1/3) extra", "7.11", RollNote("Kiev [north] (1/3) extra")),
        # Brackets in a roll of another rule are the player's.
        ("[abc]", "11.7", RollNote("[abc]")),
        ("Korsun [Abc!]", "11.9", RollNote("Korsun [Abc!]")),
    ],
)
def test_a_combat_roll_gives_up_its_form_token(note, step, expected):
    assert split(note, step=step) == expected


def test_a_game_without_a_turn_sequence_keeps_its_notes():
    for note, step, table_id in (
        ("weather: snow", "11.618", "rf.weather"),
        ("combat [form-1] (1/9)", "7.11", ""),
        ("x [abc]", "11.9", ""),
    ):
        assert split(note, step=step, table_id=table_id, turn_steps=frozenset()) == RollNote(note)


@pytest.mark.parametrize(
    "roll_note, step, old",
    [
        (RollNote("", sequence_step="weather"), "8.0", "weather"),
        (RollNote("Pripyat", sequence_step="partisans"), "11.2", "partisans: Pripyat"),
        (RollNote("combat (1/9)", form_token="form-1"), "7.11", "combat [form-1] (1/9)"),
        (RollNote("combat fleet (2/2)", form_token="t"), "11.51", "combat [t] fleet (2/2)"),
        (RollNote("Kiev [n] (1/3)", form_token="f1"), "7.11", "Kiev [n] [f1] (1/3)"),
        (RollNote("Korsun · 26:7 → 4:1", form_token="abc"), "11.9", "Korsun · 26:7 → 4:1 [abc]"),
        (RollNote("Kessel dice"), "11.616", "Kessel dice"),
    ],
)
def test_the_old_note_is_written_back_and_read_again(roll_note, step, old):
    assert legacy_note(roll_note, step=step) == old
    table_id = "a.table" if roll_note.sequence_step else ""
    assert split(old, step=step, table_id=table_id) == roll_note


def test_a_written_back_note_fits_the_column():
    long = RollNote("x" * 200, sequence_step="weather")
    assert len(legacy_note(long, step="8.0")) == 200
