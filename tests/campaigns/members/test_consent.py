"""Nobody gives themselves sight of the other side — not through a second account, a link of
any role, a role change, or a removal and re-invitation (issue 21)."""

import json

import pytest
from django.urls import reverse

from campaigns.members import services
from campaigns.members.consent import Seat, consent_missing, consent_needed
from campaigns.models import CampaignEvent, Membership, Role

pytestmark = pytest.mark.django_db

SIDES = ("german", "soviet")


# --- the pure rule ---------------------------------------------------------------------------

TABLE = [Seat(1, "player", "german"), Seat(2, "player", "soviet"), Seat(3, "observer")]


@pytest.mark.parametrize(
    ("applicant", "role", "side", "needed"),
    [
        (Seat(9, "observer"), "referee", "", {"german", "soviet"}),
        (Seat(9, "observer"), "player", "soviet", {"soviet"}),
        (Seat(9, "observer"), "observer", "", set()),
        # The German player asking to referee needs only the Soviet side: he sees his own.
        (Seat(1, "player", "german"), "referee", "", {"soviet"}),
        # The only Soviet player moving to referee: nobody else plays the Soviet side.
        (Seat(2, "player", "soviet"), "referee", "", {"german"}),
        (Seat(3, "observer"), "player", "german", {"german"}),
    ],
)
def test_a_seat_needs_each_side_it_would_newly_see_that_someone_else_plays(
    applicant, role, side, needed
):
    assert consent_needed(applicant, role, side, TABLE, SIDES) == needed


def test_a_side_nobody_plays_has_nobody_to_ask():
    seats = [Seat(1, "player", "german")]
    assert consent_needed(Seat(9, "observer"), "referee", "", seats, SIDES) == {"german"}
    assert consent_needed(Seat(9, "observer"), "player", "soviet", seats, SIDES) == set()


def test_an_agreement_counts_only_from_a_current_player_of_that_side():
    needed = {"german", "soviet"}
    assert consent_missing(needed, {"german": 1, "soviet": 2}, TABLE, applicant=9) == set()
    # One over: the German agreeing for the Soviet side does not count.
    assert consent_missing(needed, {"german": 1, "soviet": 1}, TABLE, applicant=9) == {"soviet"}
    # The applicant's own agreement never counts.
    assert consent_missing({"soviet"}, {"soviet": 2}, TABLE, applicant=2) == {"soviet"}
    # An agreement lapses when its giver no longer plays the side.
    moved = [Seat(1, "player", "german"), Seat(2, "observer"), Seat(4, "player", "soviet")]
    assert consent_missing({"soviet"}, {"soviet": 2}, moved, applicant=9) == {"soviet"}


# --- the attack of the issue, through the pages --------------------------------------------


def soviet_secret_urls(campaign):
    return [
        reverse("campaigns:ledger", args=[campaign.pk, "soviet"]),
        reverse("campaigns:orbat", args=[campaign.pk, "soviet"]),
        reverse("campaigns:roster", args=[campaign.pk, "soviet"]),
        reverse("purchases:page", args=[campaign.pk, "soviet"]),
    ]


def sees_soviet_secrets(client, campaign) -> bool:
    codes = {client.get(url).status_code for url in soviet_secret_urls(campaign)}
    assert codes <= {200, 404}, codes
    answer = client.get(reverse("campaigns:export", args=[campaign.pk]))
    export = json.loads(b"".join(answer.streaming_content))
    return codes == {200} and export["scope"] != "public"


@pytest.fixture
def second_account(django_user_model, client):
    """The German creator's second account."""
    user = django_user_model.objects.create_user(username="hans-too", password="pw-123456789")
    client.force_login(user)
    return user, client


def agree_url(campaign, membership):
    return reverse("campaigns:member_agree", args=[campaign.pk, membership.pk])


@pytest.mark.parametrize("role_value", ["referee", "player:soviet"])
def test_the_creators_second_account_cannot_read_the_other_side_through_a_link(
    campaign, client_as, people, second_account, role_value
):
    user, client = second_account
    german = client_as("german")
    german.post(reverse("campaigns:invitation_create", args=[campaign.pk]), {"role": role_value})
    invitation = campaign.invitations.latest("id")
    assert client.post(reverse("campaigns:join", args=[invitation.token])).status_code == 302
    membership = Membership.objects.get(campaign=campaign, user=user)
    assert membership.role == Role.OBSERVER
    assert not sees_soviet_secrets(client, campaign)
    # Neither the second account nor the German creator can open the seat.
    assert client.post(agree_url(campaign, membership)).status_code == 403
    german.post(agree_url(campaign, membership))
    membership.refresh_from_db()
    assert membership.role == Role.OBSERVER
    assert not sees_soviet_secrets(client, campaign)
    # The Soviet player sees who asks, and can turn it down.
    members_page = client_as("soviet").get(reverse("campaigns:members", args=[campaign.pk]))
    assert "hans-too asks to become" in members_page.content.decode()
    client_as("soviet").post(reverse("campaigns:member_decline", args=[campaign.pk, membership.pk]))
    membership.refresh_from_db()
    assert (membership.role, membership.requested_role) == (Role.OBSERVER, "")
    assert not sees_soviet_secrets(client, campaign)
    assert CampaignEvent.objects.filter(action="member.seat_declined", actor=people["soviet"])


def test_with_the_soviets_consent_the_seat_opens_and_the_history_says_who_agreed(
    campaign, client_as, people, second_account
):
    user, client = second_account
    invitation = services.create_invitation(campaign, by=people["german"], role="referee", side="")
    membership, _created = services.accept_invitation(invitation, user=user)
    client_as("german").post(agree_url(campaign, membership))
    client_as("soviet").post(agree_url(campaign, membership))
    membership.refresh_from_db()
    assert membership.role == Role.REFEREE
    assert sees_soviet_secrets(client, campaign)
    [opened] = [
        event
        for event in CampaignEvent.objects.filter(campaign=campaign, action="member.seat_opened")
        if event.data["user"] == "hans-too"
    ]
    assert opened.data["consenting_sides"] == ["german", "soviet"]
    assert opened.data["consenting_users"] == ["german", "soviet"]
    history = client_as("observer").get(reverse("campaigns:history", args=[campaign.pk]))
    assert "agreed by german for the German side, soviet for the Soviet side" in (
        history.content.decode()
    )


@pytest.mark.parametrize("role_value", ["referee", "player:soviet"])
def test_the_creator_cannot_turn_a_member_into_a_seat_that_sees_the_other_side(
    campaign, client_as, people, role_value
):
    observer = campaign.memberships.get(user=people["observer"])
    client_as("german").post(
        reverse("campaigns:member_role", args=[campaign.pk, observer.pk]), {"role": role_value}
    )
    observer.refresh_from_db()
    assert observer.role == Role.OBSERVER
    assert not sees_soviet_secrets(client_as("observer"), campaign)
    client_as("soviet").post(agree_url(campaign, observer))
    observer.refresh_from_db()
    assert observer.role == role_value.partition(":")[0]
    assert sees_soviet_secrets(client_as("observer"), campaign)


def test_the_soviet_creator_is_held_to_the_same_rule(people, client_as, django_user_model):
    from campaigns.games.registry import get_module
    from tests.seats import join

    campaign = services.create_campaign(
        user=people["soviet"],
        name="Mirror",
        module=get_module("red_factories"),
        cg_key="rb-cg-1",
        role=Role.PLAYER,
        side="soviet",
    )
    join(
        services.create_invitation(campaign, by=people["soviet"], role="player", side="german"),
        people["german"],
    )
    sock = django_user_model.objects.create_user(username="ivan-too")
    membership, _created = services.accept_invitation(
        services.create_invitation(campaign, by=people["soviet"], role="player", side="german"),
        user=sock,
    )
    assert membership.role == Role.OBSERVER
    assert services.consent_missing(membership) == {"german"}
    with pytest.raises(services.MembershipError):
        services.agree(membership, by=people["soviet"])
    german_seat = campaign.memberships.get(user=people["german"])
    # Moving the German side's only player away would empty the side for the creator's second
    # account: the German seat is not the Soviet creator's to move.
    with pytest.raises(services.SideRefused):
        services.change_role(german_seat, by=people["soviet"], role="referee", side="")
    german_seat.refresh_from_db()
    assert (german_seat.role, german_seat.side) == ("player", "german")


def test_leaving_and_re_invitation_waits_again(campaign, people, client_as):
    services.leave(campaign.memberships.get(user=people["referee"]))
    invitation = services.create_invitation(campaign, by=people["german"], role="referee", side="")
    membership, _created = services.accept_invitation(invitation, user=people["referee"])
    assert membership.role == Role.OBSERVER
    assert services.consent_missing(membership) == {"german", "soviet"}
    assert not sees_soviet_secrets(client_as("referee"), campaign)


def test_a_member_following_another_link_keeps_their_pending_request(campaign, people):
    observer = campaign.memberships.get(user=people["observer"])
    services.change_role(observer, by=people["german"], role="referee", side="")
    link = services.create_invitation(campaign, by=people["german"], role="player", side="soviet")
    membership, created = services.accept_invitation(link, user=people["observer"])
    assert not created
    assert (membership.role, membership.requested_role) == (Role.OBSERVER, Role.REFEREE)


@pytest.mark.parametrize(
    ("persona", "status"),
    [("german", 403), ("soviet", 302), ("referee", 403), ("observer", 403), ("outsider", 404)],
)
def test_who_may_agree_to_a_pending_referee(campaign, client_as, people, persona, status):
    observer = campaign.memberships.get(user=people["observer"])
    # The creator's choice stands for the German side; the Soviet side is still to agree.
    services.change_role(observer, by=people["german"], role="referee", side="")
    assert client_as(persona).post(agree_url(campaign, observer)).status_code == status
    observer.refresh_from_db()
    assert observer.role == (Role.REFEREE if status == 302 else Role.OBSERVER)


@pytest.mark.parametrize(
    ("persona", "status"),
    [("german", 302), ("soviet", 302), ("referee", 403), ("observer", 403), ("outsider", 404)],
)
def test_who_may_turn_down_a_pending_seat(campaign, client_as, people, persona, status):
    observer = campaign.memberships.get(user=people["observer"])
    services.change_role(observer, by=people["german"], role="player", side="soviet")
    url = reverse("campaigns:member_decline", args=[campaign.pk, observer.pk])
    assert client_as(persona).post(url).status_code == status
    observer.refresh_from_db()
    assert observer.is_pending == (status != 302)


@pytest.mark.parametrize("persona", ["german", "soviet", "referee", "observer"])
def test_every_member_sees_who_sees_each_side_and_since_when(campaign, client_as, persona):
    response = client_as(persona).get(reverse("campaigns:members", args=[campaign.pk]))
    rows = {member.user.username: seen for member, _form, seen in response.context["members"]}
    assert rows == {
        "german": ["German"],
        "soviet": ["Soviet"],
        "referee": ["German", "Soviet"],
        "observer": [],
    }
    html = response.content.decode()
    assert html.count("<time datetime=") >= 4


def test_the_join_page_says_who_already_sees_the_side(campaign, client_as, people):
    link = services.create_invitation(campaign, by=people["german"], role="player", side="soviet")
    html = client_as("outsider").get(reverse("campaigns:join", args=[link.token])).content.decode()
    assert "soviet — Soviet player" in html
    assert "referee — Referee" in html
    assert "german — German player" not in html


@pytest.mark.parametrize(
    ("persona", "asked"),
    [("german", False), ("soviet", True), ("referee", False), ("observer", False)],
)
def test_the_overview_tells_the_side_still_to_agree(campaign, client_as, people, persona, asked):
    observer = campaign.memberships.get(user=people["observer"])
    services.change_role(observer, by=people["german"], role="referee", side="")
    html = client_as(persona).get(reverse("campaigns:detail", args=[campaign.pk])).content.decode()
    assert ("observer asks to become Referee." in html) == asked
    assert ('id="asking"' in html) == asked


def test_the_overview_notice_answers_and_comes_back_to_the_overview(campaign, client_as, people):
    """No JavaScript: the Soviet player agrees from the notice itself and lands on the
    overview again; the notice links the members page's waiting list too."""
    observer = campaign.memberships.get(user=people["observer"])
    services.change_role(observer, by=people["german"], role="referee", side="")
    detail = reverse("campaigns:detail", args=[campaign.pk])
    soviet = client_as("soviet")
    html = soviet.get(detail).content.decode()
    agree = agree_url(campaign, observer)
    assert f'action="{agree}"' in html
    assert f'name="next" value="{detail}"' in html
    assert reverse("campaigns:members", args=[campaign.pk]) + "#waiting-for-consent" in html
    members = soviet.get(reverse("campaigns:members", args=[campaign.pk])).content.decode()
    assert 'id="waiting-for-consent"' in members
    response = soviet.post(agree, {"next": detail})
    assert response.status_code == 302 and response.url == detail
    observer.refresh_from_db()
    assert observer.role == Role.REFEREE
    assert 'id="asking"' not in soviet.get(detail).content.decode()


def test_the_notice_can_turn_down_and_next_never_leaves_the_site(campaign, client_as, people):
    observer = campaign.memberships.get(user=people["observer"])
    services.change_role(observer, by=people["german"], role="player", side="soviet")
    url = reverse("campaigns:member_decline", args=[campaign.pk, observer.pk])
    response = client_as("soviet").post(url, {"next": "https://evil.example/"})
    assert response.status_code == 302
    assert response.url == reverse("campaigns:members", args=[campaign.pk])
    observer.refresh_from_db()
    assert not observer.is_pending
