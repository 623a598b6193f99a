"""The Referee tables page (Cherkassy Pocket): grids typed as printed, rows and columns added
without JavaScript, HTMX swapping one table, refusals naming the cell, no die spent on a table
that cannot answer, and the tables as a file to reuse in the next game."""

import io
import json

import pytest
from django.urls import reverse

from campaigns.models import DiceRoll, RefereeTable
from campaigns.shortgames import combat_rolls, turn_rolls, turn_steps
from campaigns.shortgames import services as short_games
from campaigns.shortgames.rules.cherkassy import grids
from tests.campaigns.shortgames.conftest import make_game

pytestmark = pytest.mark.django_db

COLUMNS = ["1:4", "1:3", "1:2", "1:1", "2:1", "3:1", "4:1", "5:1", "6:1", "7:1"]


def crt_form(cell="0/1"):
    form = {"slot": "cp.crt", "action": "save", "version": "0", "column": COLUMNS}
    form["label"] = [str(face) for face in range(1, 7)]
    for i in range(6):
        for j, column in enumerate(COLUMNS):
            form[f"cell-{i}-{j}"] = "1/1" if (i, column) == (3, "2:1") else cell
    return form


def crt_section(response):
    html = response.content.decode()
    section = html[html.index('<section id="cp.crt"') :]
    return section[: section.index("</section>")]


def url(campaign, name="tables"):
    return reverse(f"shortgames:{name}", args=[campaign.pk])


@pytest.mark.parametrize(
    ("persona", "status", "inputs"),
    [
        ("german", 200, False),
        ("soviet", 200, False),
        ("referee", 200, True),
        ("observer", 200, False),
        ("outsider", 404, False),
    ],
)
def test_every_member_reads_the_tables_the_referee_types_them(
    cp_started, client_as, persona, status, inputs
):
    response = client_as(persona).get(url(cp_started))
    assert response.status_code == status
    html = response.content.decode()
    assert ('name="cell-0-0"' in html) is inputs
    assert ('value="add-row"' in html) is inputs
    if status == 200:
        assert "Download the tables as a file" in html


def test_adding_a_row_and_a_column_without_javascript_saves_nothing(cp_started, client_as):
    form = {**crt_form(), "action": "add-row"}
    response = client_as("referee").post(url(cp_started), form)
    assert response.status_code == 200
    assert 'name="cell-6-0"' in crt_section(response)  # a 7th row
    assert "<html" in response.content.decode()  # the whole page without JavaScript
    response = client_as("referee").post(url(cp_started), {**crt_form(), "action": "add-column"})
    assert 'name="cell-0-10"' in crt_section(response)
    response = client_as("referee").post(url(cp_started), {**crt_form(), "action": "remove-row-0"})
    assert 'name="cell-5-0"' not in crt_section(response)
    assert 'name="cell-4-0"' in crt_section(response)
    assert not RefereeTable.objects.exists()


def test_htmx_swaps_the_one_table(cp_started, client_as):
    response = client_as("referee").post(
        url(cp_started), {**crt_form(), "action": "add-row"}, HTTP_HX_REQUEST="true"
    )
    html = response.content.decode()
    assert html.lstrip().startswith('<section id="cp.crt"') and "<html" not in html
    assert response["Vary"] and "HX-Request" in response["Vary"]
    refused = client_as("referee").post(
        url(cp_started), {**crt_form(), "cell-0-0": "?"}, HTTP_HX_REQUEST="true"
    )
    assert refused.status_code == 200  # HTMX swaps 2xx answers only
    assert "Row 1, column 1:4: &#x27;?&#x27; is not a result" in refused.content.decode()
    assert not RefereeTable.objects.exists()
    response = client_as("referee").post(url(cp_started), crt_form(), HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    assert "Table saved." in response.content.decode()


def test_a_saved_crt_is_rolled_on(cp_started, client_as, people):
    response = client_as("referee").post(url(cp_started), crt_form())
    assert response.status_code == 302 and response["Location"].endswith("#cp.crt")
    stored = RefereeTable.objects.get(campaign=cp_started, slot="cp.crt").data
    assert stored["format"] == "grid" and stored["rows"][3]["cells"][4] == "1/1"
    combat = combat_rolls.cp_combat(cp_started, attack=12, defense=6, shifts=[])
    assert not combat.blocked
    made = combat_rolls.roll_cp_combat(
        cp_started, combat, index=0, side="german", by=people["german"], token="t1"
    )
    assert made.result in (
        {"attacker_steps": 0, "defender_steps": 1},
        {"attacker_steps": 1, "defender_steps": 1},
    )


def test_a_refused_grid_names_its_cell_in_japanese_too(cp_started, client_as):
    client = client_as("referee")
    client.cookies["django_language"] = "ja"
    form = {**crt_form(), "cell-2-2": "X"}
    response = client.post(url(cp_started), form, HTTP_ACCEPT_LANGUAGE="ja")
    assert response.status_code == 400
    assert "3行目・1:2列：「X」は戦闘結果ではありません" in response.content.decode()
    assert not RefereeTable.objects.exists()


def test_no_die_is_spent_on_a_table_that_cannot_answer(cp_started, people):
    # Entered before the grids in a shape the app could not use: kept, never rolled on.
    RefereeTable.objects.create(
        campaign=cp_started, slot="cp.weather-table", data={"rows": [{"min": 1, "max": 3}]}
    )
    RefereeTable.objects.create(
        campaign=cp_started, slot="cp.crt", data={"columns": ["2:1"], "rows": [["1/1"]]}
    )
    assert short_games.referee_tables(cp_started)["cp.weather-table"] is None
    with pytest.raises(turn_steps.TurnError):
        turn_rolls.roll_table(
            cp_started,
            index=0,
            side="soviet",
            step_id="weather",
            table_id="cp.weather-table",
            by=people["soviet"],
        )
    combat = combat_rolls.cp_combat(cp_started, attack=12, defense=6, shifts=[])
    assert combat.blocked
    with pytest.raises(turn_steps.TurnError):
        combat_rolls.roll_cp_combat(
            cp_started, combat, index=0, side="german", by=people["german"], token="t2"
        )
    assert not DiceRoll.objects.exists()


@pytest.mark.parametrize(
    ("persona", "status"),
    [("german", 200), ("soviet", 200), ("referee", 200), ("observer", 200), ("outsider", 404)],
)
def test_the_tables_file_is_read_by_every_member(cp_started, client_as, persona, status):
    response = client_as(persona).get(url(cp_started, "tables_file"))
    assert response.status_code == status
    if status == 200:
        assert json.loads(response.content)["format"] == grids.FILE_FORMAT


def upload(client, campaign, payload):
    file = io.BytesIO(json.dumps(payload).encode())
    file.name = "tables.json"
    return client.post(url(campaign, "tables_upload"), {"file": file})


def test_the_tables_go_to_the_next_game_by_file(cp_started, client_as, people):
    referee = client_as("referee")
    referee.post(url(cp_started), crt_form())
    weather = {
        "slot": "cp.weather-table",
        "action": "save",
        "version": "0",
        "column": ["Weather"],
        "label": ["1-3", "4-6"],
        "cell-0-0": "snow",
        "cell-1-0": "mud",
    }
    referee.post(url(cp_started), weather)
    payload = json.loads(referee.get(url(cp_started, "tables_file")).content)
    assert [t["slot"] for t in payload["tables"]] == ["cp.weather-table", "cp.crt"]
    next_game = make_game(people, "cherkassy_pocket", "scenario-2", "german")
    for persona in ("german", "soviet", "observer"):
        assert upload(client_as(persona), next_game, payload).status_code == 403
    response = upload(referee, next_game, payload)
    assert response.status_code == 302
    assert (
        short_games.referee_tables(next_game)["cp.crt"]
        == short_games.referee_tables(cp_started)["cp.crt"]
    )
    again = json.loads(referee.get(url(next_game, "tables_file")).content)
    assert again == payload


def test_a_file_with_an_unusable_table_loads_nothing(cp_started, client_as):
    grid = grids.from_legacy("cp.crt", {"columns": COLUMNS, "rows": [["Z"] * 10] * 6})
    payload = grids.tables_file({"cp.crt": grid.data()})
    response = upload(client_as("referee"), cp_started, payload)
    assert response.status_code == 400
    assert "Combat results table: Row 1, column 1:4: &#x27;Z&#x27; is not a result" in (
        response.content.decode()
    )
    assert not RefereeTable.objects.exists()


def test_the_migration_reads_earlier_json_tables_into_grids(cp_started):
    import importlib

    from django.apps import apps

    migration = importlib.import_module("campaigns.migrations.0023_cpgame_referee_grids")
    tec = RefereeTable.objects.create(
        campaign=cp_started, slot="cp.tec", data={"woods": {"combat": "L1"}}
    )
    odd = RefereeTable.objects.create(campaign=cp_started, slot="cp.crt", data=["plain"])
    migration.to_grids(apps, None)
    tec.refresh_from_db()
    odd.refresh_from_db()
    assert tec.data == {
        "format": "grid",
        "columns": ["Combat"],
        "rows": [{"label": "woods", "cells": ["L1"]}],
    }
    assert odd.data == ["plain"]  # no grid holds it: kept, shown to be entered again
