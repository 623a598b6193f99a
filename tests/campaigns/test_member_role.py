import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


def url(campaign, membership):
    return reverse("campaigns:member_role", args=[campaign.pk, membership.pk])


def test_the_creator_moves_the_observer_to_the_soviet_side(campaign, client_as, people):
    membership = campaign.memberships.get(user=people["observer"])
    response = client_as("german").post(url(campaign, membership), {"role": "player:soviet"})
    assert response.status_code == 302
    membership.refresh_from_db()
    assert (membership.role, membership.side) == ("player", "soviet")


def test_with_htmx_it_returns_the_member_list(campaign, client_as, people):
    membership = campaign.memberships.get(user=people["observer"])
    response = client_as("german").post(
        url(campaign, membership), {"role": "referee"}, headers={"HX-Request": "true"}
    )
    html = response.content.decode()
    assert html.lstrip().startswith('<section id="member-list">')
    membership.refresh_from_db()
    assert membership.role == "referee"


@pytest.mark.parametrize("persona", ["soviet", "referee", "observer"])
def test_other_members_may_not_change_roles(campaign, client_as, people, persona):
    membership = campaign.memberships.get(user=people["observer"])
    response = client_as(persona).post(url(campaign, membership), {"role": "player:german"})
    assert response.status_code == 403
    membership.refresh_from_db()
    assert membership.role == "observer"


def test_an_outsider_gets_404(campaign, client_as, people):
    membership = campaign.memberships.get(user=people["observer"])
    assert (
        client_as("outsider").post(url(campaign, membership), {"role": "referee"}).status_code
        == 404
    )


def test_an_unknown_role_changes_nothing(campaign, client_as, people):
    membership = campaign.memberships.get(user=people["observer"])
    response = client_as("german").post(
        url(campaign, membership), {"role": "player:axis"}, follow=True
    )
    membership.refresh_from_db()
    assert membership.role == "observer"
    assert "Choose one of the roles offered." in response.content.decode()
