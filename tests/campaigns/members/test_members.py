import pytest
from django.urls import reverse

from campaigns.models import Invitation

pytestmark = pytest.mark.django_db


def url(campaign):
    return reverse("campaigns:members", args=[campaign.pk])


@pytest.mark.parametrize("persona", ["german", "soviet", "referee", "observer"])
def test_every_member_sees_who_plays_what(campaign, client_as, persona):
    response = client_as(persona).get(url(campaign))
    rows = {member.user.username: form for member, form, _seen in response.context["members"]}
    assert set(rows) == {"german", "soviet", "referee", "observer"}
    html = response.content.decode()
    for username, role in [
        ("german", "German player"),
        ("soviet", "Soviet player"),
        ("referee", "Referee"),
        ("observer", "Observer"),
    ]:
        # The role column, not the options of a role form, says who plays what.
        assert f"<td>{role}</td>" in html, (username, role)


def test_only_the_creator_sees_the_invitation_links(campaign, client_as):
    live = Invitation.objects.create(campaign=campaign, role="player", side="soviet")
    creator_html = client_as("german").get(url(campaign)).content.decode()
    assert f"/join/{live.token}/" in creator_html
    for persona in ("soviet", "referee", "observer"):
        html = client_as(persona).get(url(campaign)).content.decode()
        assert live.token not in html
        assert "Make invitation link" not in html
        assert "Save role" not in html


def test_revoked_links_are_not_listed(campaign, client_as):
    revoked = campaign.invitations.first()
    assert revoked.revoked_at is None
    revoked.revoked_at = revoked.created_at
    revoked.save()
    assert revoked.token not in client_as("german").get(url(campaign)).content.decode()


def test_an_outsider_gets_404(campaign, client_as):
    assert client_as("outsider").get(url(campaign)).status_code == 404


def test_an_anonymous_visitor_is_asked_to_sign_in(campaign, client):
    assert client.get(url(campaign)).status_code == 302


def test_the_number_of_queries_does_not_grow_with_members(
    campaign, client_as, django_user_model, django_assert_max_num_queries
):
    client = client_as("german")
    with django_assert_max_num_queries(20) as before:
        client.get(url(campaign))
    invitation = campaign.invitations.create(role="observer")
    for n in range(12):
        user = django_user_model.objects.create_user(username=f"kibitzer{n}")
        campaign.memberships.create(user=user, role="observer")
    campaign.invitations.create(role="referee")
    del invitation
    with django_assert_max_num_queries(len(before.captured_queries)):
        client.get(url(campaign))
