"""The moon is Red Factories' (night scenarios); SaP leaves night out, the short games have none."""

import pytest
from django.urls import reverse

from campaigns.games.registry import get_module
from campaigns.members import services
from campaigns.models import CampaignDay, Role
from campaigns.records.forms import DayForm, has_moon
from tests.campaigns.shortgames.conftest import make_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def sap(people):
    return services.create_campaign(
        user=people["german"],
        name="Ponyri",
        module=get_module("slaughter_at_ponyri"),
        cg_key="timetable-disrupted",
        role=Role.PLAYER,
        side="german",
    )


def test_only_red_factories_keeps_the_moon(campaign, sap, people):
    assert has_moon(campaign)
    assert not has_moon(sap)
    assert not has_moon(make_game(people, "defiant_russia", "full-game", "axis"))


def test_the_sap_calendar_neither_shows_nor_asks_the_moon(sap, client_as):
    client = client_as("german")
    page = client.get(reverse("campaigns:calendar", args=[sap.pk])).content.decode()
    assert "Moon" not in page
    form_page = client.get(reverse("campaigns:day", args=[sap.pk, 0]))
    assert 'name="moon"' not in form_page.content.decode()
    record = CampaignDay.objects.get(campaign=sap, index=0)
    response = client.post(
        reverse("campaigns:day", args=[sap.pk, 0]),
        {
            "moon": "Full",
            "weather": "",
            "ec": "",
            "wind": "",
            "notes": "Hot",
            "version": record.version,
        },
    )
    assert response.status_code == 302
    record.refresh_from_db()
    assert record.notes == "Hot" and record.moon == ""  # a posted moon is not the calendar's


def test_the_red_factories_calendar_keeps_the_moon(campaign, client_as):
    client = client_as("german")
    page = client.get(reverse("campaigns:calendar", args=[campaign.pk])).content.decode()
    assert "Moon" in page
    form_page = client.get(reverse("campaigns:day", args=[campaign.pk, 0])).content.decode()
    assert 'name="moon"' in form_page


def test_a_day_form_without_the_moon_saves_the_rest():
    form = DayForm(data={"weather": "Clear", "notes": "", "version": 0}, moon=False)
    assert form.is_valid(), form.errors
    assert "moon" not in form.changes()
