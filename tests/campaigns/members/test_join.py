import pytest
from django.urls import reverse

from campaigns.models import Invitation, Membership

pytestmark = pytest.mark.django_db


@pytest.fixture
def soviet_link(campaign, people):
    invitation = campaign.invitations.create(
        role="player", side="soviet", created_by=people["german"]
    )
    return reverse("campaigns:join", args=[invitation.token])


def test_an_anonymous_visitor_is_sent_to_sign_in_and_back(client, soviet_link):
    response = client.get(soviet_link)
    assert response.status_code == 302
    assert response["Location"] == f"{reverse('login')}?next={soviet_link}"


def test_it_says_which_campaign_and_role_before_joining(client_as, campaign, soviet_link):
    html = client_as("outsider").get(soviet_link).content.decode()
    assert campaign.name in html
    assert "Soviet player" in html
    assert not Membership.objects.filter(campaign=campaign, user__username="outsider").exists()


def test_joining_makes_me_a_player_of_that_side(client_as, campaign, people, soviet_link):
    response = client_as("outsider").post(soviet_link)
    assert response.status_code == 302
    assert response["Location"] == reverse("campaigns:detail", args=[campaign.pk])
    membership = Membership.objects.get(campaign=campaign, user=people["outsider"])
    # The Soviet side already has a player: the seat waits for them (campaigns.members.consent).
    assert (membership.role, membership.side) == ("observer", "")
    assert (membership.requested_role, membership.requested_side) == ("player", "soviet")
    client_as("soviet").post(reverse("campaigns:member_agree", args=[campaign.pk, membership.pk]))
    membership.refresh_from_db()
    assert (membership.role, membership.side) == ("player", "soviet")


def test_joining_a_side_nobody_plays_opens_the_seat_at_once(client_as, campaign, people):
    from campaigns.members import services

    # The Soviet player leaves (the German creator may not remove him): his side is empty.
    services.leave(campaign.memberships.get(user=people["soviet"]))
    link = Invitation.objects.create(campaign=campaign, role="player", side="soviet")
    client_as("outsider").post(reverse("campaigns:join", args=[link.token]))
    membership = Membership.objects.get(campaign=campaign, user=people["outsider"])
    assert (membership.role, membership.side, membership.requested_role) == (
        "player",
        "soviet",
        "",
    )


def test_a_member_is_told_they_are_already_in(client_as, campaign, people, soviet_link):
    response = client_as("observer").get(soviet_link)
    assert "You are already in this campaign as Observer" in response.content.decode()
    response = client_as("observer").post(soviet_link, follow=True)
    assert campaign.memberships.get(user=people["observer"]).role == "observer"
    assert "You are already in this campaign as Observer." in response.content.decode()


@pytest.mark.parametrize("token", ["not-a-token", "x" * 32])
def test_an_unknown_link_is_not_found(client_as, token):
    response = client_as("outsider").get(reverse("campaigns:join", args=[token]))
    assert response.status_code == 404
    assert "does not work" in response.content.decode()
