"""Slaughter at Ponyri's calendar stores its weathers and ECs by key (weather.json), worded
in the reader's language; the fields stay free text (no table to roll on); words stored by
earlier versions are converted by a data migration; the calendar says the rules do not give
the weather only where the SSRs do not fix it."""

import importlib
import re

import pytest
from django.apps import apps
from django.urls import reverse

from campaigns.games.registry import get_module
from campaigns.members import services
from campaigns.models import CampaignDay, Role
from campaigns.records import services as records

pytestmark = pytest.mark.django_db

JA = {"Accept-Language": "ja"}
NOT_GIVEN = "Our rules do not give the moon phases or the weather"


@pytest.fixture
def ponyri(people):
    return services.create_campaign(
        user=people["german"],
        name="Ponyri",
        module=get_module("slaughter_at_ponyri"),
        cg_key="timetable-disrupted",
        role=Role.PLAYER,
        side="german",
    )


def calendar(client, campaign, headers=None):
    url = reverse("campaigns:calendar", args=[campaign.pk])
    return client.get(url, headers=headers or {}).content.decode()


def row(html, index):
    return re.search(rf'<tr id="day-{index}".*?</tr>', html, re.S).group(0)


def day(campaign, index):
    return CampaignDay.objects.get(campaign=campaign, index=index)


def test_the_ssrs_weather_and_ec_are_stored_as_keys(ponyri):
    assert (day(ponyri, 0).weather, day(ponyri, 0).ec) == ("", "moderate")
    assert (day(ponyri, 4).weather, day(ponyri, 4).ec) == ("overcast", "moderate")


def test_the_calendar_and_roster_word_them_in_japanese(ponyri, client_as):
    client = client_as("german")
    html = row(calendar(client, ponyri, JA), 4)
    assert "曇天" in html and "普通" in html
    assert "Overcast" not in html and "Moderate" not in html
    url = reverse("campaigns:roster", args=[ponyri.pk, "german"])
    roster = client.get(url, headers=JA).content.decode()
    assert "曇天" in roster and "普通" in roster
    assert "Overcast" not in roster and "Moderate" not in roster


def test_the_calendar_and_roster_word_them_in_english(ponyri, client_as):
    html = row(calendar(client_as("german"), ponyri), 4)
    assert "Overcast" in html and "Moderate" in html and "overcast" not in html


def test_the_fields_stay_free_text_and_typed_names_are_stored_as_keys(ponyri, client_as):
    client = client_as("german")
    url = reverse("campaigns:day", args=[ponyri.pk, 1])
    form = client.get(url, headers=JA).content.decode()
    assert '<select name="weather"' not in form and '<select name="ec"' not in form
    assert 'value="普通"' in form  # the stored key, in the reader's words
    data = {"moon": "", "weather": "霞", "ec": "Wet", "wind": "", "notes": "", "version": 0}
    assert client.post(url, data).status_code == 302
    assert (day(ponyri, 1).weather, day(ponyri, 1).ec) == ("mist", "wet")
    data = {**data, "weather": "Heat haze", "ec": "普通", "version": 1}
    assert client.post(url, data).status_code == 302
    assert (day(ponyri, 1).weather, day(ponyri, 1).ec) == ("Heat haze", "moderate")


def test_the_ec_after_rain_is_stored_as_a_key(ponyri, people):
    morning = day(ponyri, 4)
    records.update_day(ponyri, morning, by=people["german"], version=morning.version, rain=True)
    assert day(ponyri, 5).ec == "wet"


def test_the_data_migration_converts_stored_words_and_back(ponyri, campaign):
    migration = importlib.import_module("campaigns.migrations.0022_fixc_sap_weather_keys")
    CampaignDay.objects.filter(campaign=ponyri, index=4).update(weather="Overcast", ec="Moderate")
    CampaignDay.objects.filter(campaign=ponyri, index=3).update(weather="Fog", ec="wet")
    CampaignDay.objects.filter(campaign=campaign, index=0).update(weather="Overcast")  # RF
    migration.forwards(apps, None)
    assert (day(ponyri, 4).weather, day(ponyri, 4).ec) == ("overcast", "moderate")
    assert (day(ponyri, 3).weather, day(ponyri, 3).ec) == ("Fog", "wet")
    assert day(campaign, 0).weather == "Overcast"  # another game's calendar is left alone
    migration.backwards(apps, None)
    assert (day(ponyri, 4).weather, day(ponyri, 4).ec) == ("Overcast", "Moderate")
    assert day(ponyri, 3).ec == "Wet"


def test_the_rules_do_not_give_only_the_weather_the_ssrs_do_not_fix(ponyri, client_as):
    html = calendar(client_as("german"), ponyri)
    assert NOT_GIVEN not in html
    assert "except where the campaign game's SSRs" in html
    assert 'class="by-ssr"' in row(html, 4) and 'class="by-ssr"' in row(html, 5)
    assert 'class="by-ssr"' not in row(html, 0)
