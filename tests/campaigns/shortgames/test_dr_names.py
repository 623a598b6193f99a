"""Defiant Russia's pages and the Japanese status sheet name types, nationalities, sides, weather
and optional rules in the reader's language, never by their data keys."""

import pytest
from django.urls import reverse

from campaigns.access import viewer_for
from campaigns.shortgames import services as short_games
from campaigns.shortgames.units import UnitData
from rosters.builders import build_sheet

pytestmark = pytest.mark.django_db


def test_the_japanese_status_sheet_names_the_nationality(dr_started, people):
    short_games.add_units(
        dr_started,
        by=people["german"],
        units=[
            UnitData(
                side="axis",
                name="XXIV Pz",
                unit_type="armor",
                nationality="german",
                full="6-6",
                reduced="3-6",
                hex="3308",
            )
        ],
    )
    sheet = build_sheet(viewer_for(people["observer"], dr_started.pk), "axis", "status", "ja")
    units, _reinforcements, places, _record = sheet.tables
    (unit,) = units.rows
    assert unit.cells[1] == "装甲" and unit.cells[2] == "ドイツ軍"
    kiev = next(row for row in places.rows if row.cells[0] == "キエフ")
    assert kiev.cells[2] == "ソ連軍"  # held from the start (6.4), by name


def test_the_victory_lines_name_their_side(dr_started, client_as):
    html = client_as("observer").get(reverse("shortgames:victory", args=[dr_started.pk]))
    text = html.content.decode()
    assert "Soviet +2: Moscow" in text and "soviet +2" not in text


def test_the_combat_page_names_the_weather_and_nationalities(dr_started, client_as):
    dr_started.period_index = 3  # September: light mud
    dr_started.save()
    html = client_as("observer").get(reverse("shortgames:combat", args=[dr_started.pk]))
    text = html.content.decode()
    assert '<span id="weather">Light mud</span>' in text
    assert '<option value="german">German</option>' in text


def test_an_optional_rule_is_named_on_the_turn_page(dr_started, client_as):
    dr_started.period_index = 2  # August: random weather would roll
    dr_started.save()
    text = client_as("observer").get(reverse("shortgames:turn", args=[dr_started.pk]))
    text = text.content.decode()
    assert "Only with the optional rule Random weather (8.2)" in text
    assert "random_weather" not in text
