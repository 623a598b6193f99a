import pytest
from django.urls import reverse

from campaigns.games.registry import get_module
from campaigns.members import services
from campaigns.models import Role

pytestmark = pytest.mark.django_db
URL = reverse("campaigns:list")


def test_it_asks_an_anonymous_visitor_to_sign_in(client):
    response = client.get(URL)
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


@pytest.mark.parametrize(
    ("persona", "role_text"),
    [
        ("german", "German player"),
        ("soviet", "Soviet player"),
        ("referee", "Referee"),
        ("observer", "Observer"),
    ],
)
def test_it_lists_the_campaign_with_my_role_game_and_cg_day(
    campaign, client_as, persona, role_text
):
    response = client_as(persona).get(URL)
    assert response.status_code == 200
    row = next(r for r in response.context["memberships"] if r.campaign_id == campaign.pk)
    assert row.role in ("player", "referee", "observer")
    html = response.content.decode()
    assert campaign.name in html
    assert role_text in html
    assert "Red Factories" in html and "RB CG I" in html
    assert "17 Oct 1942" in html


def test_an_outsider_does_not_see_the_campaign(campaign, client_as):
    response = client_as("outsider").get(URL)
    assert campaign.name not in response.content.decode()


def test_it_speaks_japanese(campaign, client_as, people):
    people["soviet"].language = "ja"
    people["soviet"].save()
    html = client_as("soviet").get(URL).content.decode()
    assert "1942年10月17日" in html
    assert "ソ連軍" in html


def test_the_number_of_queries_does_not_grow_with_the_number_of_campaigns(
    campaign, client_as, people, django_assert_max_num_queries
):
    client = client_as("german")
    with django_assert_max_num_queries(6) as few:
        client.get(URL)
    for n in range(15):
        services.create_campaign(
            user=people["german"],
            name=f"CG {n}",
            module=get_module("defiant_russia"),
            cg_key="full-game",
            role=Role.PLAYER,
            side="axis",
        )
    with django_assert_max_num_queries(len(few.captured_queries)):
        response = client.get(URL)
    assert len(response.context["memberships"]) == 16
