"""The calendar of a game that names its weathers (the short games) offers them as a choice:
the rules read a weather key, so free text such as "Mud" or "light mud" never reaches them."""

import pytest
from django.urls import reverse
from django.utils import translation

from campaigns.models import CampaignDay
from campaigns.records.forms import DayForm, weather_choices, weather_label
from tests.campaigns.shortgames.conftest import make_game


@pytest.fixture
def dr(people):
    return make_game(people, "defiant_russia", "full-game", "axis")


def post_day(client, campaign, **fields):
    record = CampaignDay.objects.get(campaign=campaign, index=0)
    data = {"moon": "", "weather": "", "ec": "", "wind": "", "notes": "", "version": record.version}
    data.update(fields)
    return client.post(reverse("campaigns:day", args=[campaign.pk, 0]), data)


def test_defiant_russia_offers_its_four_weathers(dr):
    assert [key for key, _name in weather_choices(dr)] == ["clear", "light_mud", "mud", "snow"]


def test_red_factories_keeps_free_text(campaign):
    assert weather_choices(campaign) is None
    form = DayForm(data={"weather": "Overcast", "version": 0}, weathers=weather_choices(campaign))
    assert form.is_valid(), form.errors


@pytest.mark.parametrize("typed", ["Mud", "light mud", "泥濘", "Snow "])
def test_a_typed_weather_is_refused_and_nothing_is_saved(dr, client_as, typed):
    response = post_day(client_as("german"), dr, weather=typed)
    assert response.status_code == 200
    assert "Choose one of this game&#x27;s weathers." in response.content.decode()
    assert CampaignDay.objects.get(campaign=dr, index=0).weather == ""


def test_a_chosen_weather_is_stored_as_its_key_and_shown_in_the_readers_language(dr, client_as):
    response = post_day(client_as("german"), dr, weather="light_mud")
    assert response.status_code == 302
    assert CampaignDay.objects.get(campaign=dr, index=0).weather == "light_mud"
    html = client_as("observer").get(reverse("campaigns:calendar", args=[dr.pk])).content.decode()
    assert "Light mud" in html and "light_mud" not in html
    with translation.override("ja"):
        assert weather_label(dr, "light_mud") == "軽い泥濘"


def test_an_older_free_text_weather_is_shown_as_written(dr):
    assert weather_label(dr, "Mud (typed long ago)") == "Mud (typed long ago)"
