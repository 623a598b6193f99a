import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


def url(campaign, invitation):
    return reverse("campaigns:invitation_revoke", args=[campaign.pk, invitation.pk])


def test_the_creator_revokes_a_link_and_it_stops_working(campaign, client_as):
    invitation = campaign.invitations.create(role="observer", created_by=campaign.created_by)
    assert client_as("german").post(url(campaign, invitation)).status_code == 302
    invitation.refresh_from_db()
    assert invitation.revoked_at is not None
    join = reverse("campaigns:join", args=[invitation.token])
    assert client_as("outsider").get(join).status_code == 404


@pytest.mark.parametrize("persona", ["soviet", "referee", "observer"])
def test_other_members_may_not_revoke(campaign, client_as, persona):
    invitation = campaign.invitations.create(role="observer")
    assert client_as(persona).post(url(campaign, invitation)).status_code == 403
    invitation.refresh_from_db()
    assert invitation.revoked_at is None


def test_an_outsider_gets_404(campaign, client_as):
    invitation = campaign.invitations.create(role="observer")
    assert client_as("outsider").post(url(campaign, invitation)).status_code == 404


def test_a_link_of_another_campaign_is_not_found(campaign, client_as, people):
    from campaigns.games.registry import get_module
    from campaigns.members import services

    other = services.create_campaign(
        user=people["german"],
        name="Other",
        module=get_module("defiant_russia"),
        cg_key="full-game",
        role="player",
        side="axis",
    )
    invitation = other.invitations.create(role="observer")
    assert client_as("german").post(url(campaign, invitation)).status_code == 404


def test_with_htmx_it_returns_the_invitations_section_without_the_link(campaign, client_as):
    invitation = campaign.invitations.create(role="observer")
    html = (
        client_as("german")
        .post(url(campaign, invitation), headers={"HX-Request": "true"})
        .content.decode()
    )
    assert html.lstrip().startswith('<section id="invitations">')
    assert invitation.token not in html
