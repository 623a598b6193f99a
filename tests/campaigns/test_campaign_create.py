import pytest
from django.urls import reverse

from campaigns.models import Campaign, Membership

pytestmark = pytest.mark.django_db
URL = reverse("campaigns:create")


def test_it_asks_an_anonymous_visitor_to_sign_in(client):
    assert client.get(URL).status_code == 302
    assert client.post(URL, {"name": "x"}).status_code == 302
    assert not Campaign.objects.exists()


def test_the_form_offers_every_game_and_campaign_game(client_as):
    html = client_as("outsider").get(URL).content.decode()
    for value in (
        "red_factories/rb-cg-1",
        "red_factories/rf-cg-1",
        "red_factories/ro-cg-3",
        "slaughter_at_ponyri/timetable-disrupted",
        "defiant_russia/full-game",
        "cherkassy_pocket/scenario-4",
    ):
        assert f'value="{value}"' in html


def test_it_creates_a_campaign_and_makes_me_a_member(client_as, people):
    response = client_as("outsider").post(
        URL,
        {
            "name": "Ponyri weekends",
            "game": "slaughter_at_ponyri/timetable-disrupted",
            "my_role": "player:russian",
        },
    )
    campaign = Campaign.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("campaigns:members", args=[campaign.pk])
    assert (campaign.module, campaign.campaign_game, campaign.created_by) == (
        "slaughter_at_ponyri",
        "timetable-disrupted",
        people["outsider"],
    )
    membership = Membership.objects.get(campaign=campaign)
    assert (membership.user, membership.role, membership.side) == (
        people["outsider"],
        "player",
        "russian",
    )


def test_a_side_from_another_game_is_refused_with_a_message(client_as):
    response = client_as("outsider").post(
        URL,
        {
            "name": "Mixed up",
            "game": "slaughter_at_ponyri/timetable-disrupted",
            "my_role": "player:axis",
        },
    )
    assert response.status_code == 200
    assert not Campaign.objects.exists()
    assert "has no such side" in response.content.decode()


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"name": "   ", "game": "red_factories/rb-cg-1", "my_role": "referee"}, "name"),
        ({"name": "x", "game": "red_factories/rb-cg-9", "my_role": "referee"}, "game"),
        ({"name": "x", "game": "", "my_role": "referee"}, "game"),
        ({"name": "x", "game": "red_factories/rb-cg-1", "my_role": "general"}, "my_role"),
        ({"name": "x" * 101, "game": "red_factories/rb-cg-1", "my_role": "referee"}, "name"),
    ],
)
def test_bad_input_is_refused_and_named(client_as, data, field):
    response = client_as("outsider").post(URL, data)
    assert response.status_code == 200
    assert field in response.context["form"].errors
    assert not Campaign.objects.exists()


def test_with_htmx_choosing_a_game_returns_only_its_roles(client_as):
    response = client_as("outsider").get(
        URL, {"game": "defiant_russia/full-game"}, headers={"HX-Request": "true"}
    )
    html = response.content.decode()
    assert response["Vary"] and "HX-Request" in response["Vary"]
    assert html.lstrip().startswith('<div class="field" id="role-field">')
    assert "<html" not in html
    assert 'value="player:axis"' in html and 'value="player:soviet"' in html
    assert 'value="player:german"' not in html


def test_without_javascript_every_games_sides_are_offered(client_as):
    html = client_as("outsider").get(URL).content.decode()
    for value in ("player:german", "player:soviet", "player:russian", "player:axis"):
        assert f'value="{value}"' in html


def _role_options(html):
    import re

    select = re.search(r'<select name="my_role".*?</select>', html, re.S).group(0)
    groups = re.findall(r'<optgroup label="([^"]+)"', select)
    return groups, re.findall(r'<option value="([^"]*)"[^>]*>([^<]*)</option>', select)


def test_without_javascript_the_roles_are_grouped_by_game(client_as):
    """Before a game is chosen, every game's roles are offered under its own name."""
    groups, options = _role_options(client_as("outsider").get(URL).content.decode())
    assert groups == [
        "Red Factories",
        "Slaughter at Ponyri",
        "Defiant Russia",
        "Cherkassy Pocket: Encirclement at Korsun",
    ]
    assert len(options) == 16


def test_without_javascript_a_button_narrows_the_roles_to_the_chosen_game(client_as):
    game = "slaughter_at_ponyri/timetable-disrupted"
    html = client_as("outsider").get(URL).content.decode()
    assert '<noscript><button type="submit" name="roles"' in html
    response = client_as("outsider").post(URL, {"name": "Ponyri", "game": game, "roles": "1"})
    assert response.status_code == 200
    assert not Campaign.objects.exists()
    html = response.content.decode()
    groups, options = _role_options(html)
    assert groups == []
    assert [value for value, _label in options] == [
        "player:german",
        "player:russian",
        "referee",
        "observer",
    ]
    assert "Soviet player" not in html
    assert f'<option value="{game}" selected>' in html and 'value="Ponyri"' in html
    assert not response.context["form"].errors


def test_a_refused_form_is_shown_again_with_only_the_chosen_games_roles(client_as):
    """One "German player" marked chosen, not one per game; the server's check stays."""
    response = client_as("outsider").post(
        URL,
        {"name": "", "game": "slaughter_at_ponyri/timetable-disrupted", "my_role": "player:german"},
    )
    assert "name" in response.context["form"].errors
    html = response.content.decode()
    _groups, options = _role_options(html)
    assert len(options) == 4
    assert html.count('value="player:german" selected') == 1
    refused = client_as("outsider").post(
        URL,
        {
            "name": "x",
            "game": "slaughter_at_ponyri/timetable-disrupted",
            "my_role": "player:soviet",
        },
    )
    assert "my_role" in refused.context["form"].errors
    assert not Campaign.objects.exists()
