"""Export and import of a short game: lossless round trip, crafted input refused."""

import copy
import json

import pytest

from campaigns.access import viewer_for
from campaigns.dice import services as dice
from campaigns.models import GameUnit, PointEntry, RefereeTable, ShortGame, TurnMark
from campaigns.shortgames import combat_rolls, turn_marks, turn_points, turn_rolls
from campaigns.shortgames import services as short_games
from campaigns.shortgames.units import UnitData
from campaigns.transfer import services as transfer
from tests.campaigns.dice.test_services import Loaded
from tests.campaigns.transfer.test_services import comparable

pytestmark = pytest.mark.django_db


@pytest.fixture
def played_dr(dr_game, people):
    short_games.start(dr_game, by=people["german"], options=["random_weather", "no_purge"])
    (army,) = short_games.add_units(
        dr_game,
        by=people["soviet"],
        units=[
            UnitData(
                side="soviet",
                name="5th Army",
                unit_type="infantry_army",
                nationality="soviet",
                full="3-3",
                reduced="1-3",
                state="eliminated",
            )
        ],
    )
    short_games.set_control(
        dr_game, by=people["german"], key="kiev", controller="axis", cut_off=True, version=0
    )
    turn_marks.mark(dr_game, index=0, side="soviet", step_id="weather", by=people["soviet"])
    dr_game.period_index = 1
    dr_game.save()
    turn_points.receive_points(
        dr_game, side="soviet", index=1, kind="replacement", by=people["soviet"]
    )
    turn_points.replace_unit(
        dr_game, army, action="rebuild", index=1, version=army.version, by=people["soviet"]
    )
    with dice.use_roller(Loaded(6, 2)):
        combat_rolls.roll_combat(
            dr_game, side="soviet", dice_count=2, fleet_dice=0, hit_on=(6,), by=people["soviet"]
        )
    return dr_game


def export_as(campaign, user):
    return transfer.build_export(viewer_for(user, campaign.pk))


def round_trip(campaign, exporter, importer):
    first = export_as(campaign, exporter)
    parsed = transfer.parse_export(transfer.dumps(first).encode())
    copy_ = transfer.load(parsed, user=importer)
    return first, copy_, export_as(copy_, importer)


@pytest.mark.parametrize("persona", ["referee", "german", "soviet", "observer"])
def test_a_short_game_round_trips_losslessly(played_dr, people, persona):
    first, imported, second = round_trip(played_dr, people[persona], people["outsider"])
    assert comparable(second) == comparable(first)
    section = first["short_game"]
    assert section["setup"]["options"] == ["random_weather", "no_purge"]
    assert [u["state"] for u in section["units"]] == ["reduced"]
    assert [p["action"] for p in section["points"]] == ["received", "rebuild"]
    assert section["points"][1]["unit"] == section["units"][0]["id"]
    assert GameUnit.objects.filter(campaign=imported).count() == 1
    rebuilt = PointEntry.objects.get(campaign=imported, action="rebuild")
    assert rebuilt.unit.campaign_id == imported.pk
    assert ShortGame.objects.get(campaign=imported).options == ["random_weather", "no_purge"]


def test_a_cp_game_with_a_referee_table_round_trips(cp_started, people):
    table = {
        "id": "cp.weather",
        "rule": "5.3",
        "roll": "dr",
        "rows": [{"min": 1, "max": 6, "result": {"weather": "snow"}}],
    }
    short_games.save_referee_table(
        cp_started, by=people["referee"], slot_id="cp.weather-table", data=table, version=None
    )
    first, imported, second = round_trip(cp_started, people["referee"], people["outsider"])
    assert comparable(second) == comparable(first)
    # Entered before the grids, as JSON: kept as the grid it reads as, and still rolled on.
    assert RefereeTable.objects.get(campaign=imported).data == {
        "format": "grid",
        "columns": ["Weather"],
        "rows": [{"label": "1-6", "cells": ["snow"]}],
    }
    weather = short_games.referee_tables(imported)["cp.weather-table"]
    assert weather["rows"] == [
        {"min": 1, "max": 6, "result": {"weather": "snow", "en": "snow", "ja": "降雪"}}
    ]


def refused(data, match):
    with pytest.raises(transfer.ImportRefused, match=match):
        transfer.parse_export(json.dumps(data).encode())


@pytest.mark.parametrize(
    "change, match",
    [
        (lambda s: s["units"][0].update(state="flying"), "state"),
        (lambda s: s["units"][0].update(steps=3), "steps"),
        (lambda s: s["units"][0].update(side="german"), "side"),
        (lambda s: s["points"][1].update(unit=99), "unit"),
        (lambda s: s["turn_marks"][0].update(step="no-such-step"), "step"),
        (lambda s: s["turn_marks"].append(dict(s["turn_marks"][0])), "twice"),
        (lambda s: s["control"][0].update(key="paris"), "key"),
        (lambda s: s["setup"].update(options=["cheat"]), "options"),
        (lambda s: s.update(referee_tables=[{"slot": "cp.crt", "data": {}}]), "slot"),
    ],
)
def test_crafted_short_game_rows_are_refused(played_dr, people, change, match):
    data = copy.deepcopy(export_as(played_dr, people["referee"]))
    change(data["short_game"])
    refused(data, match)


def test_a_short_game_section_in_a_campaign_game_file_is_refused(campaign, played_dr, people):
    data = export_as(campaign, people["referee"])
    data["short_game"] = export_as(played_dr, people["referee"])["short_game"]
    refused(data, "another game")


def test_marks_survive_and_the_walker_reads_them(played_dr, people):
    _first, imported, _second = round_trip(played_dr, people["referee"], people["outsider"])
    assert list(TurnMark.objects.filter(campaign=imported).values_list("step", flat=True)) == [
        "weather"
    ]


# --- dice rolls: the turn step and the form token ------------------------------------------


@pytest.fixture
def rolled_dr(dr_game, people):
    """A weather roll with a player's note, and a combat sent with its page's token."""
    short_games.start(dr_game, by=people["german"], options=["random_weather"])
    dr_game.period_index = 2
    dr_game.save()
    with dice.use_roller(Loaded(6, 6, 1, 2)):
        turn_rolls.roll_table(
            dr_game,
            index=2,
            side="soviet",
            step_id="weather",
            table_id="dr.weather-august",
            by=people["soviet"],
            note="partisans: seen",
        )
        combat_rolls.roll_combat(
            dr_game,
            side="axis",
            dice_count=2,
            fleet_dice=1,
            hit_on=(6,),
            by=people["german"],
            note="Kiev",
            token="form-1",
        )
    return dr_game


def roll_fields(campaign):
    return [
        (roll.step, roll.note, roll.sequence_step, roll.form_token)
        for roll in campaign.rolls.order_by("id")
    ]


ROLLED = [
    ("8.0", "partisans: seen", "weather", ""),
    ("7.11", "Kiev (1/2)", "", "form-1"),
    ("7.11", "Kiev (2/2)", "", "form-1"),
    ("11.51", "Kiev fleet (1/1)", "", "form-1"),
]


def test_a_rolls_turn_step_and_form_token_round_trip(rolled_dr, people):
    assert roll_fields(rolled_dr) == ROLLED
    first, imported, second = round_trip(rolled_dr, people["referee"], people["outsider"])
    assert comparable(second) == comparable(first)
    assert [(r["sequence_step"], r["form_token"]) for r in first["dice_rolls"]] == [
        ("weather", ""),
        ("", "form-1"),
        ("", "form-1"),
        ("", "form-1"),
    ]
    assert roll_fields(imported) == ROLLED
    assert turn_rolls.rolls_of_step(imported, 2, "weather") == [imported.rolls.get(step="8.0")]


def test_an_older_file_keeps_the_step_and_token_in_its_notes_and_still_imports(rolled_dr, people):
    first = export_as(rolled_dr, people["referee"])
    older = copy.deepcopy(first)
    old_notes = ["weather: partisans: seen", "Kiev [form-1] (1/2)", "Kiev [form-1] (2/2)"]
    old_notes.append("Kiev [form-1] fleet (1/1)")
    for row, note in zip(older["dice_rolls"], old_notes, strict=True):
        del row["sequence_step"], row["form_token"]
        row["note"] = note
    imported = transfer.load(
        transfer.parse_export(transfer.dumps(older).encode()), user=people["outsider"]
    )
    assert roll_fields(imported) == ROLLED
    assert comparable(export_as(imported, people["outsider"])) == comparable(first)


def test_a_roll_of_a_step_the_game_does_not_have_is_refused(rolled_dr, people):
    data = copy.deepcopy(export_as(rolled_dr, people["referee"]))
    data["dice_rolls"][0]["sequence_step"] = "no-such-step"
    refused(data, "dice_rolls, entry 1, “sequence_step”: is not a step of this game.")


def test_a_cp_game_with_declared_orders_and_grids_round_trips(cp_started, people):
    from tests.campaigns.shortgames.test_turns import mark_all

    mark_all(cp_started, people, upto="s1.air_power")
    turn_marks.mark(
        cp_started,
        index=0,
        side="soviet",
        step_id="s1.air_power",
        by=people["soviet"],
        order="combat_first",
    )
    grid = {
        "format": "grid",
        "columns": ["Combat", "Movement (mud)"],
        "rows": [{"label": "Woods", "cells": ["L1", "2"]}],
    }
    short_games.save_referee_table(
        cp_started, by=people["referee"], slot_id="cp.tec", data=grid, version=0
    )
    first, imported, second = round_trip(cp_started, people["soviet"], people["outsider"])
    assert comparable(second) == comparable(first)
    mark = TurnMark.objects.get(campaign=imported, step="s1.air_power")
    assert mark.order == "combat_first"
    assert RefereeTable.objects.get(campaign=imported).data == grid
    credited = PointEntry.objects.get(campaign=imported, side="soviet")
    assert credited.amount == 3
    bad = copy.deepcopy(first)
    row = next(m for m in bad["short_game"]["turn_marks"] if m["step"] == "s1.air_power")
    row["order"] = "sideways"
    refused(bad, "order")


def test_a_cp_game_with_front_points_and_the_5mc_fact_round_trips(cp_started, people):
    """11.16's Front of each Soviet air point and 11.18's entered 5 MC fact are exported."""
    from tests.campaigns.shortgames.test_turns import mark_all

    cp_started.period_index = 1
    cp_started.save(update_fields=["period_index"])
    mark_all(cp_started, people, upto="s1.air_power")
    turn_marks.mark(
        cp_started,
        index=1,
        side="soviet",
        step_id="s1.air_power",
        by=people["soviet"],
        order="combat_first",
    )
    turn_points.add_points(
        cp_started,
        by=people["soviet"],
        side="soviet",
        index=1,
        kind="air",
        action="used",
        amount=-1,
        front="2uf",
    )
    short_games.add_units(
        cp_started,
        by=people["referee"],
        units=[
            UnitData(
                side="soviet",
                name="233 TBde",
                unit_type="tank",
                formation="5 MC",
                size="brigade",
                full="5-4-16",
                with_5gtc=True,
            ),
            UnitData(side="soviet", name="1 Art", unit_type="artillery", artillery_range=3),
        ],
    )
    first, imported, second = round_trip(cp_started, people["referee"], people["outsider"])
    assert comparable(second) == comparable(first)
    rows = PointEntry.objects.filter(campaign=imported).order_by("id")
    assert [(p.front, p.amount) for p in rows] == [("1uf", 3), ("2uf", 3), ("2uf", -1)]
    assert GameUnit.objects.get(campaign=imported, name="233 TBde").with_5gtc
    assert GameUnit.objects.get(campaign=imported, name="1 Art").artillery_range == 3
    bad = copy.deepcopy(first)
    bad["short_game"]["points"][0]["front"] = "3uf"
    refused(bad, "front")
