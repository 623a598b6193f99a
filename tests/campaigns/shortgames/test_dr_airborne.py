"""Defiant Russia's airborne drop (11.3) lands on the roster's airborne unit: placed in the hex
typed with the roll, reduced or eliminated by the die."""

import pytest

from campaigns.dice import services as dice
from campaigns.models import GameUnit
from campaigns.shortgames import services as short_games
from campaigns.shortgames import turn_rolls
from campaigns.shortgames.rules.defiant_russia.events import airborne_drop_state
from campaigns.shortgames.units import parse_quick_entry
from tests.campaigns.dice.test_services import Loaded

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("effect", "state", "after"),
    [
        ("eliminated", "full", "eliminated"),
        ("reduced", "full", "reduced"),
        ("reduced", "reduced", "eliminated"),
        ("none", "reduced", "reduced"),
    ],
)
def test_the_drop_states(effect, state, after):
    assert airborne_drop_state(effect, state) == after


@pytest.mark.parametrize(
    ("face", "state", "hex_"), [(1, "eliminated", ""), (2, "reduced", "2813"), (4, "full", "2813")]
)
def test_the_drop_roll_lands_on_the_airborne_unit(dr_started, people, face, state, hex_):
    (airborne,) = short_games.add_units(
        dr_started,
        by=people["soviet"],
        units=parse_quick_entry(
            "defiant_russia", "soviet", "1st Airborne | airborne | soviet | 2-4 | 1-4 | 2812"
        ),
    )
    dr_started.period_index = 6  # December, turn 7: snow (11.3)
    dr_started.save()
    with dice.use_roller(Loaded(face)):
        turn_rolls.roll_table(
            dr_started,
            index=6,
            side="soviet",
            step_id="soviet_movement",
            table_id="dr.airborne-drop",
            by=people["soviet"],
            note="2813",
        )
    airborne = GameUnit.objects.get(pk=airborne.pk)
    assert (airborne.state, airborne.hex) == (state, hex_)
