"""Migration 0008 moves a roll's turn step and form token out of its note, and back."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("campaigns", "0007_short_games")]
AFTER = [("campaigns", "0008_roll_step_and_form_token")]

# (module, step, table_id, note as written before) → (note, sequence_step, form_token) after.
ROLLS = [
    (
        ("defiant_russia", "8.0", "dr.weather-august", "weather"),
        ("", "weather", ""),
    ),
    (
        ("defiant_russia", "11.2", "dr.partisans", "partisans: weather: seen"),
        ("weather: seen", "partisans", ""),
    ),
    (
        ("defiant_russia", "7.11", "", "Kiev [north] [f00d] (1/2)"),
        ("Kiev [north] (1/2)", "", "f00d"),
    ),
    (
        ("defiant_russia", "11.51", "", "combat [f00d] fleet (1/1)"),
        ("combat fleet (1/1)", "", "f00d"),
    ),
    (
        ("cherkassy_pocket", "11.16", "cp.air-points-german", "s2.air_power"),
        ("", "s2.air_power", ""),
    ),
    (
        ("cherkassy_pocket", "11.9", "", "combat · 26:7 → 4:1 [abc]"),
        ("combat · 26:7 → 4:1", "", "abc"),
    ),
    # Red Factories never wrote either value into a note: its notes stay as they are.
    (
        ("red_factories", "11.618", "rf.weather", "weather: snow [abc]"),
        ("weather: snow [abc]", "", ""),
    ),
]


def migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


def test_notes_move_into_the_new_fields_and_back():
    apps = migrate(BEFORE)
    Campaign = apps.get_model("campaigns", "Campaign")
    DiceRoll = apps.get_model("campaigns", "DiceRoll")
    ids = []
    for (module, step, table_id, note), _after in ROLLS:
        campaign = Campaign.objects.create(
            name=module, module=module, campaign_game="cg", data_version="1"
        )
        roll = DiceRoll.objects.create(
            campaign=campaign,
            index=0,
            step=step,
            table_id=table_id,
            kind="dr",
            faces=[3],
            original=3,
            final=3,
            note=note,
            visibility="public",
        )
        ids.append(roll.pk)

    apps = migrate(AFTER)
    DiceRoll = apps.get_model("campaigns", "DiceRoll")
    moved = {r.pk: (r.note, r.sequence_step, r.form_token) for r in DiceRoll.objects.all()}
    assert [moved[pk] for pk in ids] == [after for _before, after in ROLLS]

    apps = migrate(BEFORE)
    DiceRoll = apps.get_model("campaigns", "DiceRoll")
    restored = {r.pk: r.note for r in DiceRoll.objects.all()}
    assert [restored[pk] for pk in ids] == [before[3] for before, _after in ROLLS]

    executor = MigrationExecutor(connection)
    migrate(executor.loader.graph.leaf_nodes())
