import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


def url(campaign, membership):
    return reverse("campaigns:member_remove", args=[campaign.pk, membership.pk])


def test_the_creator_removes_a_member_who_then_sees_nothing(campaign, client_as, people):
    membership = campaign.memberships.get(user=people["observer"])
    assert client_as("german").post(url(campaign, membership)).status_code == 302
    assert not campaign.memberships.filter(user=people["observer"]).exists()
    detail = reverse("campaigns:detail", args=[campaign.pk])
    assert client_as("observer").get(detail).status_code == 404


def test_the_creator_cannot_remove_themself(campaign, client_as, people):
    membership = campaign.memberships.get(user=people["german"])
    response = client_as("german").post(url(campaign, membership), follow=True)
    assert campaign.memberships.filter(user=people["german"]).exists()
    assert "cannot be removed" in response.content.decode()


@pytest.mark.parametrize("persona", ["soviet", "referee", "observer"])
def test_other_members_may_not_remove_anyone(campaign, client_as, people, persona):
    membership = campaign.memberships.get(user=people["observer"])
    assert client_as(persona).post(url(campaign, membership)).status_code == 403
    assert campaign.memberships.filter(user=people["observer"]).exists()


def test_an_outsider_gets_404(campaign, client_as, people):
    membership = campaign.memberships.get(user=people["observer"])
    assert client_as("outsider").post(url(campaign, membership)).status_code == 404


def test_a_removed_member_cannot_come_back_through_a_link_they_saw(campaign, client_as, people):
    soviet_link = campaign.invitations.create(role="player", side="soviet")
    referee_link = campaign.invitations.create(role="referee")
    membership = campaign.memberships.get(user=people["observer"])
    response = client_as("german").post(url(campaign, membership), follow=True)
    assert "Every open invitation link was revoked" in response.content.decode()
    for link in (soviet_link, referee_link):
        join = reverse("campaigns:join", args=[link.token])
        assert client_as("observer").post(join).status_code == 404
    assert not campaign.memberships.filter(user=people["observer"]).exists()
