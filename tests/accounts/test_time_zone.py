"""A user's time zone: chosen on the account, every time shown in it, the zone named beside them."""

import datetime as dt

import pytest
from django.urls import reverse
from django.utils import timezone

from accounts.time_zones import zone_choices
from campaigns.dice import services as dice
from campaigns.models import CampaignEvent, DiceRoll
from tests.rosters.test_pdf import plain_text

pytestmark = pytest.mark.django_db
URL = reverse("time_zone")
# 23:30 UTC on 1 Nov is 08:30 on 2 Nov in Tokyo: the date moves too.
MOMENT = dt.datetime(2026, 11, 1, 23, 30, tzinfo=dt.UTC)


def _a_roll_at(campaign, people, moment):
    with dice.use_roller(3):
        roll = dice.roll(
            campaign, by=people["german"], kind="dr", step="11.612", index=0, visibility="public"
        )
    DiceRoll.objects.filter(pk=roll.pk).update(rolled_at=moment)
    CampaignEvent.objects.filter(campaign=campaign).update(created_at=moment)
    return roll


def test_i_choose_tokyo_and_it_stays_on_my_account(people, client_as):
    client = client_as("german")
    response = client.post(URL, {"time_zone": "Asia/Tokyo"})
    assert response.status_code == 302
    people["german"].refresh_from_db()
    assert people["german"].time_zone == "Asia/Tokyo"
    page = client.get(URL).content.decode()
    assert "Times are shown in Asia/Tokyo." in page
    assert '<option value="Asia/Tokyo" selected>' in page


def test_a_zone_python_does_not_know_is_refused_and_nothing_is_saved(people, client_as):
    response = client_as("german").post(URL, {"time_zone": "Mars/Olympus_Mons"})
    assert response.status_code == 200
    assert "Select a valid choice" in response.content.decode()
    people["german"].refresh_from_db()
    assert people["german"].time_zone == ""


def test_empty_is_the_servers_zone(people, client_as, settings):
    people["german"].time_zone = "Asia/Tokyo"
    people["german"].save()
    client_as("german").post(URL, {"time_zone": ""})
    people["german"].refresh_from_db()
    assert people["german"].time_zone == ""
    assert "Times are shown in UTC." in client_as("german").get(URL).content.decode()


def test_someone_signed_out_is_sent_to_sign_in(client):
    response = client.get(URL)
    assert response.status_code == 302
    assert reverse("login") in response["Location"]


def test_the_dice_log_and_the_history_show_my_zone_and_name_it(campaign, people, client_as):
    _a_roll_at(campaign, people, MOMENT)
    people["soviet"].time_zone = "Asia/Tokyo"
    people["soviet"].save()
    dice_log = reverse("campaigns:dice_log", args=[campaign.pk])
    history = reverse("campaigns:history", args=[campaign.pk])
    for url in (dice_log, history):
        tokyo = client_as("soviet").get(url).content.decode()
        assert "Times in Asia/Tokyo." in tokyo
        assert "2026-11-02T08:30:00+09:00" in tokyo  # the <time datetime> of the row
        utc = client_as("german").get(url).content.decode()
        assert "Times in UTC." in utc
        assert "2026-11-01T23:30:00+00:00" in utc


def test_a_zone_removed_from_tzdata_falls_back_to_the_servers(campaign, people, client_as):
    people["german"].time_zone = "Europe/Atlantis"  # saved once, unknown now
    people["german"].save()
    page = client_as("german").get(reverse("campaigns:dice_log", args=[campaign.pk]))
    assert page.status_code == 200
    assert "Times in UTC." in page.content.decode()


def test_the_printed_sheet_and_its_pdf_name_the_zone(campaign, people, client_as):
    people["german"].time_zone = "Asia/Tokyo"
    people["german"].save()
    client = client_as("german")
    page = client.get(reverse("rosters:page", args=[campaign.pk, "german", "rg-record"]))
    assert "Asia/Tokyo</footer>" in page.content.decode()
    pdf = client.get(reverse("rosters:pdf", args=[campaign.pk, "german", "rg-record"]))
    assert "Asia/Tokyo" in plain_text(pdf.content)
    other = client_as("soviet").get(
        reverse("rosters:pdf", args=[campaign.pk, "soviet", "rg-record"])
    )
    assert "Asia/Tokyo" not in plain_text(other.content)
    assert " UTC" in plain_text(other.content)


def test_the_zone_leaves_with_the_request(people, client_as):
    people["german"].time_zone = "Asia/Tokyo"
    people["german"].save()
    client_as("german").get(URL)
    assert timezone.get_current_timezone_name() == "UTC"


def test_tokyo_comes_first_and_every_zone_is_offered():
    choices = [name for name, _label in zone_choices()]
    assert choices[0] == "Asia/Tokyo"
    assert {"America/Los_Angeles", "Europe/Paris", "Australia/Sydney"} <= set(choices)
    assert len(choices) == len(set(choices))
