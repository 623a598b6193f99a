import pytest
from django.urls import reverse

from campaigns.models import Invitation

pytestmark = pytest.mark.django_db


def url(campaign):
    return reverse("campaigns:invitation_create", args=[campaign.pk])


def test_the_creator_makes_a_link_for_a_side(campaign, client_as):
    before = set(Invitation.objects.values_list("pk", flat=True))
    response = client_as("german").post(url(campaign), {"role": "player:soviet"})
    assert response.status_code == 302
    invitation = Invitation.objects.exclude(pk__in=before).get()
    assert (invitation.role, invitation.side, invitation.revoked_at) == ("player", "soviet", None)
    assert campaign.events.filter(action="invitation.created", target_id=invitation.pk).exists()


def test_with_htmx_it_returns_the_invitations_section(campaign, client_as):
    response = client_as("german").post(
        url(campaign), {"role": "referee"}, headers={"HX-Request": "true"}
    )
    html = response.content.decode()
    assert html.lstrip().startswith('<section id="invitations">')
    newest = Invitation.objects.latest("id")
    assert f"/join/{newest.token}/" in html
    assert "<html" not in html


@pytest.mark.parametrize("persona", ["soviet", "referee", "observer"])
def test_other_members_may_not_make_links(campaign, client_as, persona):
    count = Invitation.objects.count()
    assert client_as(persona).post(url(campaign), {"role": "referee"}).status_code == 403
    assert Invitation.objects.count() == count


def test_an_outsider_gets_404(campaign, client_as):
    assert client_as("outsider").post(url(campaign), {"role": "referee"}).status_code == 404


def test_a_role_outside_the_game_is_refused(campaign, client_as):
    count = Invitation.objects.count()
    response = client_as("german").post(url(campaign), {"role": "player:russian"}, follow=True)
    assert Invitation.objects.count() == count
    assert "Choose a role for the invitation." in response.content.decode()


def test_get_is_not_allowed(campaign, client_as):
    assert client_as("german").get(url(campaign)).status_code == 405


def test_with_htmx_a_bad_role_is_reported_in_the_swapped_section(campaign, client_as):
    client = client_as("german")
    html = client.post(
        url(campaign), {"role": "player:russian"}, headers={"HX-Request": "true"}
    ).content.decode()
    assert "Choose a role for the invitation." in html
    assert "Choose a role for the invitation." not in client.get("/").content.decode()
