"""The turn's weather as people type it on the calendar ("Mud", "light mud", "泥濘"): read as the
game's weather when it is one; anything else counts as not recorded, with a note on the turn
page — never an error page."""

from html import unescape

import pytest
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from campaigns.dice import services as dice
from campaigns.models import CampaignDay
from campaigns.shortgames import services as short_games
from campaigns.shortgames import turn_marks, turn_rolls, turn_steps
from tests.campaigns.dice.test_services import Loaded
from tests.campaigns.shortgames.conftest import make_game

pytestmark = pytest.mark.django_db

MEMBERS = ("german", "soviet", "referee", "observer")
NOTE = "none of this game's weathers"


def write_weather(campaign, text):
    """The calendar's weather for the current turn, as typed (the calendar form took any text)."""
    CampaignDay.objects.filter(campaign=campaign, index=campaign.period_index).update(weather=text)


def on_turn(campaign, index):
    campaign.period_index = index
    campaign.save()


def weather_now(campaign):
    game = short_games.setup_of(campaign)
    return turn_steps.weather_now(campaign, turn_steps.current_day(campaign), game)


def turn_page(client, campaign):
    return client.get(reverse("shortgames:turn", args=[campaign.pk]))


@pytest.fixture
def dr_random(people):
    """Defiant Russia with random weather, on turn 3 (August): the weather is rolled."""
    campaign = make_game(people, "defiant_russia", "full-game", "axis")
    short_games.start(campaign, by=people["german"], options=["random_weather"])
    on_turn(campaign, 2)
    return campaign


@pytest.mark.parametrize(
    ("typed", "key"),
    [("Mud", "mud"), ("light mud", "light_mud"), ("Light Mud", "light_mud"), ("泥濘", "mud")],
)
def test_typed_weather_is_the_games_weather(dr_started, client_as, typed, key):
    write_weather(dr_started, typed)
    assert weather_now(dr_started) == key
    for persona in MEMBERS:
        response = turn_page(client_as(persona), dr_started)
        assert response.status_code == 200
        assert response.context["weather"] == key
        assert NOTE not in unescape(response.content.decode())


def test_typed_mud_gives_the_mud_limits(dr_started, client_as):
    write_weather(dr_started, "Mud")
    html = turn_page(client_as("observer"), dr_started).content.decode()
    assert "Mud: every movement allowance is halved" in html


def test_the_cherkassy_weather_as_typed(cp_started, client_as):
    write_weather(cp_started, "降雪")
    assert weather_now(cp_started) == "snow"
    assert turn_page(client_as("soviet"), cp_started).status_code == 200


def test_unknown_weather_counts_as_not_recorded_with_a_note(dr_random, client_as):
    write_weather(dr_random, "foggy")
    assert weather_now(dr_random) is None  # turn 3 is rolled: nothing the rules fix
    for persona in MEMBERS:
        response = turn_page(client_as(persona), dr_random)
        assert response.status_code == 200
        html = unescape(response.content.decode())
        assert "“foggy”" in html and NOTE in html
        assert response.context["limits"] == []  # the limits wait for the weather


def test_the_note_speaks_japanese(dr_random, client_as):
    write_weather(dr_random, "foggy")
    client = client_as("referee")
    client.cookies["django_language"] = "ja"
    html = turn_page(client, dr_random).content.decode()
    assert "このゲームの天候" in html and "泥濘" in html


def test_the_weather_roll_replaces_text_that_is_no_weather(dr_random, people):
    write_weather(dr_random, "foggy")
    with dice.use_roller(Loaded(6)):
        roll = turn_rolls.roll_table(
            dr_random,
            index=2,
            side="soviet",
            step_id="weather",
            table_id="dr.weather-august",
            by=people["soviet"],
        )
    assert turn_steps.current_day(dr_random).weather == roll.result["weather"]
    assert weather_now(dr_random) == roll.result["weather"]


def test_a_typed_weather_is_recorded_and_not_rolled_again(dr_random, people):
    write_weather(dr_random, "Light Mud")
    with pytest.raises(turn_steps.TurnError, match="already recorded"):
        turn_rolls.roll_table(
            dr_random,
            index=2,
            side="soviet",
            step_id="weather",
            table_id="dr.weather-august",
            by=people["soviet"],
        )
    assert turn_steps.current_day(dr_random).weather == "Light Mud"


def test_the_rules_weather_is_written_over_text_that_is_no_weather(dr_started, people):
    write_weather(dr_started, "sunny-ish")
    assert weather_now(dr_started) == "clear"  # turn 1's historical weather
    turn_marks.mark(dr_started, index=0, side="soviet", step_id="weather", by=people["soviet"])
    assert turn_steps.current_day(dr_started).weather == "clear"


# Anything a person may have typed (the calendar field holds 30 characters), and the spellings
# that once broke the page.
TYPED = st.one_of(
    st.sampled_from(["Mud", "Snow", "light mud", "Light Mud", "泥濘", "mud٣", "٣", "Ｍｕｄ", " "]),
    st.text(
        st.characters(exclude_categories=("Cs",), exclude_characters="\x00"),
        max_size=30,
    ),
)


@settings(
    max_examples=25,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(typed=TYPED)
def test_any_typed_weather_renders_the_turn_pages_for_every_member(
    dr_started, dr_random, cp_started, client_as, typed
):
    clients = {persona: client_as(persona) for persona in MEMBERS}
    for campaign in (dr_started, dr_random, cp_started):
        write_weather(campaign, typed)
        for persona, client in clients.items():
            assert turn_page(client, campaign).status_code == 200, (campaign.module, persona)
