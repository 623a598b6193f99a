"""The pages beyond the walker that follow the live poll (issue 19): the RG purchases, the
scenarios, a scenario's end and the short games' turn page. Each carries the poll and a refresh
element naming blocks its own page (as fetched again by HTMX) holds, so that what another
device changed shows within a poll without a reload; the poll itself is tested in test_poll."""

import re

import pytest
from django.urls import reverse

from campaigns.models import Scenario
from refit.walker import services as walker
from tests.campaigns.shortgames.conftest import make_game
from tests.refit.builders import finish_phase
from tests.refit.walker.test_services import walk_all

pytestmark = pytest.mark.django_db


def refreshed_blocks(html: str) -> list[str]:
    """The ids the page's refresh element swaps (its hx-select and hx-select-oob)."""
    element = re.search(r'<div hidden class="live-refresh"[^>]*>', html)
    assert element, "no refresh element"
    tag = element.group(0)
    first = re.search(r'hx-select="#([\w-]+)"', tag).group(1)
    others = re.search(r'hx-select-oob="([^"]*)"', tag)
    return [first, *(re.findall(r"#([\w-]+)", others.group(1)) if others else [])]


def check_live(client, url, *, must_hold=()):
    page = client.get(url)
    assert page.status_code == 200
    html = page.content.decode()
    assert 'id="live-poll"' in html
    blocks = refreshed_blocks(html)
    refresh = re.search(r'<div hidden class="live-refresh"[^>]*hx-get="([^"]*)"', html).group(1)
    again = client.get(refresh.replace("&amp;", "&"), HTTP_HX_REQUEST="true")
    assert again.status_code == 200
    fetched = again.content.decode()
    for block in blocks:
        assert f'id="{block}"' in html, block
        assert f'id="{block}"' in fetched, block
    for block in must_hold:
        assert block in blocks
    return blocks


@pytest.mark.parametrize("persona", ["german", "referee"])
def test_the_purchase_page_follows_the_cpp_and_this_rephs_rgs(campaign, client_as, persona):
    walker.open_reph(campaign)
    url = reverse("purchases:page", args=[campaign.pk, "german"])
    check_live(client_as(persona), url, must_hold=("cpp", "this-reph"))


@pytest.mark.parametrize("persona", ["soviet", "observer", "outsider"])
def test_the_purchase_page_stays_secret_to_the_others(campaign, client_as, persona):
    walker.open_reph(campaign)
    url = reverse("purchases:page", args=[campaign.pk, "german"])
    assert client_as(persona).get(url).status_code == 404


@pytest.mark.parametrize("persona", ["german", "soviet", "referee", "observer"])
def test_the_scenarios_page_follows_the_list(campaign, client_as, persona):
    check_live(
        client_as(persona),
        reverse("campaigns:scenarios", args=[campaign.pk]),
        must_hold=("scenario-list",),
    )


@pytest.mark.parametrize("persona", ["german", "soviet", "referee", "observer"])
def test_a_scenarios_end_follows_the_cvp_and_the_verdict(campaign, client_as, people, persona):
    reph = walker.open_reph(campaign)
    walk_all(campaign, reph, people)
    finish_phase(campaign, reph, by=people["referee"])
    scenario = Scenario.objects.filter(campaign=campaign).first()
    assert scenario is not None
    url = reverse("campaigns:scenario_end", args=[campaign.pk, scenario.pk])
    check_live(client_as(persona), url, must_hold=("end-cvp", "verdict-text"))


@pytest.mark.parametrize("persona", ["german", "soviet", "referee", "observer"])
def test_the_short_games_turn_page_follows_the_steps(people, client_as, persona):
    from campaigns.shortgames import services as short_games

    game = make_game(people, "defiant_russia", "full-game", "axis")
    short_games.start(game, by=people["german"], options=[])
    url = reverse("shortgames:turn", args=[game.pk])
    check_live(client_as(persona), url, must_hold=("steps", "weather"))
