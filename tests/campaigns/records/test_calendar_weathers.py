"""The calendar of a game that names its weathers (the short games) offers them as a choice:
the rules read a weather key, so free text such as "Mud" or "light mud" never reaches them."""

import pytest
from django.urls import reverse
from django.utils import translation

from campaigns.games.registry import get_module
from campaigns.members import services
from campaigns.models import CampaignDay, Role
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


def test_red_factories_offers_its_weathers_december_ones_in_december_only(campaign):
    # RB CG I (October): the RF Weather Table's four results; December's types are RO CG III's.
    assert [key for key, _name in weather_choices(campaign, 0)] == [
        "mist",
        "overcast",
        "clear",
        "clear_gusty",
    ]
    form = DayForm(data={"weather": "Overcast", "version": 0}, weathers=weather_choices(campaign))
    assert not form.is_valid()  # a typed word is no weather: the rules read the key


def test_slaughter_at_ponyri_keeps_free_text(people):
    sap = services.create_campaign(
        user=people["german"],
        name="Ponyri",
        module=get_module("slaughter_at_ponyri"),
        cg_key="timetable-disrupted",
        role=Role.PLAYER,
        side="german",
    )
    assert weather_choices(sap) is None
    form = DayForm(data={"weather": "Overcast", "version": 0}, weathers=weather_choices(sap))
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


# --- Red Factories: weather as a key, shown in the reader's language (issue 15) -------------


def test_a_red_factories_weather_is_shown_in_english_and_japanese(campaign, client_as, people):
    CampaignDay.objects.filter(campaign=campaign, index=1).update(weather="clear_gusty", ec="moist")
    # An older campaign's words, as an earlier version booked them, read as their weather.
    CampaignDay.objects.filter(campaign=campaign, index=2).update(weather="Clear; Ground Snow")
    url = reverse("campaigns:calendar", args=[campaign.pk])
    html = client_as("observer").get(url).content.decode()
    assert "Clear &amp; Gusty" in html and "clear_gusty" not in html
    assert '<td class="ec">Moist</td>' in html
    assert "Clear; Ground Snow" in html
    people["observer"].language = "ja"
    people["observer"].save()
    html = client_as("observer").get(url).content.decode()
    assert "突風性の晴天" in html and "晴天、積雪" in html and '<td class="ec">湿潤</td>' in html
    assert "Clear &amp; Gusty" not in html


def test_older_words_open_as_their_weather_and_are_saved_as_its_key(campaign, client_as):
    CampaignDay.objects.filter(campaign=campaign, index=0).update(weather="Overcast")
    client = client_as("soviet")
    html = client.get(reverse("campaigns:day", args=[campaign.pk, 0])).content.decode()
    assert '<option value="overcast" selected>' in html
    assert post_day(client, campaign, weather="overcast").status_code == 302
    assert CampaignDay.objects.get(campaign=campaign, index=0).weather == "overcast"


def test_words_that_name_no_weather_are_kept_when_the_day_is_saved(campaign, client_as):
    CampaignDay.objects.filter(campaign=campaign, index=0).update(weather="Fog by the Volga")
    client = client_as("soviet")
    html = client.get(reverse("campaigns:day", args=[campaign.pk, 0])).content.decode()
    assert '<option value="Fog by the Volga" selected>Fog by the Volga (as written)' in html
    response = post_day(client, campaign, weather="Fog by the Volga", notes="still foggy")
    assert response.status_code == 302
    record = CampaignDay.objects.get(campaign=campaign, index=0)
    assert (record.weather, record.notes) == ("Fog by the Volga", "still foggy")
    # … and any other day refuses them: only the game's weathers may be chosen.
    day = CampaignDay.objects.get(campaign=campaign, index=1)
    response = client.post(
        reverse("campaigns:day", args=[campaign.pk, 1]),
        {"weather": "Fog by the Volga", "version": day.version},
    )
    assert response.status_code == 200
    assert CampaignDay.objects.get(campaign=campaign, index=1).weather == ""


def test_a_red_factories_ec_is_chosen_as_its_key(campaign, client_as):
    CampaignDay.objects.filter(campaign=campaign, index=0).update(ec="Dry")  # an older word
    client = client_as("soviet")
    html = client.get(reverse("campaigns:day", args=[campaign.pk, 0])).content.decode()
    assert '<option value="dry" selected>' in html
    response = post_day(client, campaign, ec="Very dry")
    assert "Choose one of this game&#x27;s ECs." in response.content.decode()
    assert post_day(client, campaign, ec="moderate").status_code == 302
    assert CampaignDay.objects.get(campaign=campaign, index=0).ec == "moderate"
