import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("persona", ["german", "outsider", None])
def test_anyone_may_browse_the_games(client, people, persona):
    if persona:
        client.force_login(people[persona])
    html = client.get(reverse("campaigns:games")).content.decode()
    for name in ("Red Factories", "Slaughter at Ponyri", "Defiant Russia", "Cherkassy Pocket"):
        assert name in html


def test_a_game_page_shows_every_campaign_game_and_its_calendar(client):
    html = client.get(reverse("campaigns:game", args=["red_factories"])).content.decode()
    assert html.count("<section>") == 8
    assert "RO CG III — A Party in Our Street" in html
    assert "30 Dec 1942" in html


def test_game_pages_speak_japanese(client):
    html = client.get(
        reverse("campaigns:game", args=["slaughter_at_ponyri"]), headers={"Accept-Language": "ja"}
    ).content.decode()
    assert "妨害された予定表" in html and "CG-6：1943年7月9日 午後" in html


def test_an_unknown_game_is_not_found(client):
    assert client.get(reverse("campaigns:game", args=["squad_leader"])).status_code == 404
