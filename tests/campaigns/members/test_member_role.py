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
    # The Soviet side has a player: the move waits for their consent.
    assert (membership.role, membership.requested_role) == ("observer", "player")
    client_as("soviet").post(reverse("campaigns:member_agree", args=[campaign.pk, membership.pk]))
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
    assert (membership.role, membership.requested_role) == ("observer", "referee")


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


def test_the_creator_cannot_change_their_own_role(campaign, client_as, people):
    """Otherwise a player could become referee, read the other side's secrets, and switch back."""
    own = campaign.memberships.get(user=people["german"])
    response = client_as("german").post(url(campaign, own), {"role": "referee"}, follow=True)
    own.refresh_from_db()
    assert (own.role, own.side) == ("player", "german")
    assert "You cannot change your own role." in response.content.decode()


def test_the_creator_is_not_offered_a_role_form_for_themself(campaign, client_as, people):
    own = campaign.memberships.get(user=people["german"])
    other = campaign.memberships.get(user=people["observer"])
    html = client_as("german").get(reverse("campaigns:members", args=[campaign.pk])).content
    assert url(campaign, own).encode() not in html
    assert url(campaign, other).encode() in html


def test_with_htmx_the_outcome_is_shown_in_the_swapped_section(campaign, client_as, people):
    client = client_as("german")
    membership = campaign.memberships.get(user=people["observer"])
    html = client.post(
        url(campaign, membership), {"role": "referee"}, headers={"HX-Request": "true"}
    ).content.decode()
    assert "observer becomes Referee once the players" in html
    # … and it is not left in the session to pop up on the next page.
    assert "observer becomes Referee" not in client.get("/").content.decode()


def test_with_htmx_an_expired_session_sends_the_whole_page_to_sign_in(campaign, client, people):
    membership = campaign.memberships.get(user=people["observer"])
    response = client.post(
        url(campaign, membership), {"role": "referee"}, headers={"HX-Request": "true"}
    )
    assert response.status_code == 200
    assert response["HX-Redirect"].startswith(reverse("login"))
