import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


def url(campaign):
    return reverse("campaigns:detail", args=[campaign.pk])


@pytest.mark.parametrize("persona", ["german", "soviet", "referee", "observer"])
def test_every_member_sees_the_overview(campaign, client_as, persona):
    response = client_as(persona).get(url(campaign))
    assert response.status_code == 200
    html = response.content.decode()
    assert campaign.name in html
    assert "RB CG I" in html and "Into the Factory" in html
    assert "17 Oct 1942 – 29 Oct 1942" in html
    for username in ("german", "soviet", "referee", "observer"):
        assert username in html


def test_an_outsider_gets_404(campaign, client_as):
    assert client_as("outsider").get(url(campaign)).status_code == 404


def test_an_anonymous_visitor_is_asked_to_sign_in(campaign, client):
    assert client.get(url(campaign)).status_code == 302


def test_the_overview_does_not_show_invitation_links(campaign, client_as):
    token = campaign.invitations.first().token
    for persona in ("german", "soviet", "referee", "observer"):
        assert token not in client_as(persona).get(url(campaign)).content.decode()
