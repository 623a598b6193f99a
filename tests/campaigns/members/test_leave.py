"""Leaving a campaign, and the loophole it closes: nobody empties the other side of its players
(removing or moving them) to seat a second account there with nobody left to ask (issue 21)."""

import html

import pytest
from django.urls import reverse
from django.utils import translation

from campaigns.games.registry import get_module
from campaigns.members import services
from campaigns.members.consent import Seat, unseat_refused
from campaigns.models import CampaignEvent, Membership, Role
from tests.seats import join

pytestmark = pytest.mark.django_db

SIDES = ("german", "soviet")


# --- the pure rule ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("actor", "member", "refused"),
    [
        # The German player may not touch the Soviet player's seat nor the referee's.
        (Seat(1, "player", "german"), Seat(2, "player", "soviet"), {"soviet"}),
        (Seat(1, "player", "german"), Seat(3, "referee"), {"soviet"}),
        # A teammate (he sees the side) or an observer (sees nothing): alone.
        (Seat(1, "player", "german"), Seat(5, "player", "german"), set()),
        (Seat(1, "player", "german"), Seat(4, "observer"), set()),
        # The referee sees every side: he may move anyone.
        (Seat(3, "referee"), Seat(2, "player", "soviet"), set()),
        (Seat(3, "referee"), Seat(1, "player", "german"), set()),
        # An observer managing the campaign: no seat that sees a side.
        (Seat(4, "observer"), Seat(3, "referee"), {"german", "soviet"}),
        (Seat(4, "observer"), Seat(6, "observer"), set()),
    ],
)
def test_a_seat_is_moved_or_removed_alone_only_by_someone_who_sees_what_it_sees(
    actor, member, refused
):
    assert unseat_refused(actor, member, SIDES) == refused


# --- the leave page, five personas -----------------------------------------------------------


def leave_url(campaign):
    return reverse("campaigns:leave", args=[campaign.pk])


@pytest.mark.parametrize("persona", ["soviet", "referee", "observer"])
def test_a_member_leaves_after_confirming_and_then_sees_nothing(
    campaign, client_as, people, persona
):
    client = client_as(persona)
    page = client.get(leave_url(campaign))
    assert page.status_code == 200
    html = page.content.decode()
    assert 'method="post"' in html and "Leave this campaign" in html
    assert campaign.memberships.filter(user=people[persona]).exists()  # GET changes nothing
    response = client.post(leave_url(campaign))
    assert response.status_code == 302 and response.url == reverse("campaigns:list")
    assert not campaign.memberships.filter(user=people[persona]).exists()
    assert client.get(reverse("campaigns:detail", args=[campaign.pk])).status_code == 404
    event = CampaignEvent.objects.get(campaign=campaign, action="member.left")
    assert event.actor == people[persona]
    assert event.data["user"] == persona


def test_the_creator_cannot_leave(campaign, client_as, people):
    client = client_as("german")
    assert client.get(leave_url(campaign)).status_code == 403
    assert client.post(leave_url(campaign)).status_code == 403
    assert campaign.memberships.filter(user=people["german"]).exists()
    members = client.get(reverse("campaigns:members", args=[campaign.pk])).content.decode()
    assert leave_url(campaign) not in members


def test_an_outsider_gets_404(campaign, client_as):
    assert client_as("outsider").get(leave_url(campaign)).status_code == 404
    assert client_as("outsider").post(leave_url(campaign)).status_code == 404


@pytest.mark.parametrize("persona", ["soviet", "referee", "observer"])
def test_the_members_page_offers_leaving(campaign, client_as, persona):
    page = client_as(persona).get(reverse("campaigns:members", args=[campaign.pk]))
    assert leave_url(campaign) in page.content.decode()


def test_the_last_player_of_a_side_is_told_the_side_is_given_up(campaign, client_as, people):
    html = client_as("soviet").get(leave_url(campaign)).content.decode()
    assert "last player" in html
    assert "last player" not in client_as("observer").get(leave_url(campaign)).content.decode()
    client_as("soviet").post(leave_url(campaign))
    event = CampaignEvent.objects.get(campaign=campaign, action="member.left")
    assert event.data["last_of_side"] == 1
    history = client_as("observer").get(reverse("campaigns:history", args=[campaign.pk]))
    assert "soviet left the campaign" in history.content.decode()


# --- the attack: empty the other side, then seat a second account -----------------------------


def remove_url(campaign, membership):
    return reverse("campaigns:member_remove", args=[campaign.pk, membership.pk])


def role_url(campaign, membership):
    return reverse("campaigns:member_role", args=[campaign.pk, membership.pk])


@pytest.fixture
def soviet_creator_campaign(people):
    """RB CG I created by the Soviet player; the others joined through links."""
    campaign = services.create_campaign(
        user=people["soviet"],
        name="Mirror",
        module=get_module("red_factories"),
        cg_key="rb-cg-1",
        role=Role.PLAYER,
        side="soviet",
    )
    for persona, role, side in (
        ("german", "player", "german"),
        ("referee", "referee", ""),
        ("observer", "observer", ""),
    ):
        join(
            services.create_invitation(campaign, by=people["soviet"], role=role, side=side),
            people[persona],
        )
    return campaign


ATTACKS = [
    # (creator, the other side's player, the other side)
    ("german", "soviet", "soviet"),
    ("soviet", "german", "german"),
]


REMOVE_REFUSED = (
    "You cannot remove %(user)s: their seat sees the secrets of %(sides)s, which you "
    "do not see, so only that side may. %(user)s can leave the campaign themselves."
)
ROLE_REFUSED = (
    "You cannot change the role of %(user)s: their seat sees the secrets of %(sides)s, "
    "which you do not see, so only that side may. %(user)s can leave the campaign "
    "themselves."
)


def assert_told(response, language, msgid, user, campaign, side):
    from campaigns.history.labels import side_label

    with translation.override(language):
        text = translation.gettext(msgid) % {
            "user": user,
            "sides": side_label(campaign, side),
        }
    if language == "ja":
        assert text != msgid % {"user": user, "sides": side_label(campaign, side)}
    assert text in html.unescape(response.content.decode())


def the_campaign(request, creator):
    return request.getfixturevalue("campaign" if creator == "german" else "soviet_creator_campaign")


@pytest.mark.parametrize(("creator", "victim", "side"), ATTACKS)
@pytest.mark.parametrize("language", ["en", "ja"])
def test_the_creator_cannot_remove_the_other_sides_player(
    request, client_as, people, creator, victim, side, language
):
    campaign = the_campaign(request, creator)
    membership = campaign.memberships.get(user=people[victim])
    client = client_as(creator)
    client.cookies["django_language"] = language
    response = client.post(
        remove_url(campaign, membership), follow=True, headers={"Accept-Language": language}
    )
    assert campaign.memberships.filter(user=people[victim], role="player", side=side).exists()
    assert_told(response, language, REMOVE_REFUSED, victim, campaign, side)
    refused = CampaignEvent.objects.get(campaign=campaign, action="member.removal_refused")
    assert refused.actor == people[creator]
    assert refused.data["sides"] == [side]
    history = client_as("observer").get(reverse("campaigns:history", args=[campaign.pk]))
    assert f"Tried to remove {victim}" in history.content.decode()


@pytest.mark.parametrize(("creator", "victim", "side"), ATTACKS)
@pytest.mark.parametrize("role_value", ["observer", "referee", "player:german", "player:soviet"])
def test_the_creator_cannot_move_the_other_sides_player(
    request, client_as, people, creator, victim, side, role_value
):
    campaign = the_campaign(request, creator)
    membership = campaign.memberships.get(user=people[victim])
    response = client_as(creator).post(
        role_url(campaign, membership), {"role": role_value}, follow=True
    )
    membership.refresh_from_db()
    assert (membership.role, membership.side, membership.requested_role) == ("player", side, "")
    if role_value != f"player:{side}":
        assert_told(response, "en", ROLE_REFUSED, victim, campaign, side)
    assert CampaignEvent.objects.filter(
        campaign=campaign, action="member.role_change_refused", actor=people[creator]
    ).exists()


@pytest.mark.parametrize("creator", ["german", "soviet"])
@pytest.mark.parametrize("action", ["remove", "observer"])
def test_the_creator_cannot_remove_or_move_the_referee(request, client_as, people, creator, action):
    campaign = the_campaign(request, creator)
    referee = campaign.memberships.get(user=people["referee"])
    client = client_as(creator)
    if action == "remove":
        client.post(remove_url(campaign, referee))
    else:
        client.post(role_url(campaign, referee), {"role": "observer"})
    referee.refresh_from_db()
    assert referee.role == Role.REFEREE


@pytest.mark.parametrize(("creator", "victim", "side"), ATTACKS)
def test_once_the_other_side_leaves_its_next_player_needs_nobodys_consent(
    request, client_as, people, django_user_model, creator, victim, side
):
    """The decision: a player leaving gives up his side; the next one takes it at once. The
    creator's second account then plays it — in the open, after the side's own player left."""
    campaign = the_campaign(request, creator)
    # Before: the second account waits for the other side.
    sock = django_user_model.objects.create_user(username="sock")
    link = services.create_invitation(campaign, by=people[creator], role="player", side=side)
    waiting, _created = services.accept_invitation(link, user=sock)
    assert (waiting.role, services.consent_missing(waiting)) == ("observer", {side})
    assert client_as(victim).post(leave_url(campaign)).status_code == 302
    # Nobody plays the side now: the creator asks again and the seat opens.
    assert services.change_role(waiting, by=people[creator], role="player", side=side) == (
        services.CHANGED
    )
    waiting.refresh_from_db()
    assert (waiting.role, waiting.side) == ("player", side)
    # A newcomer through a link too.
    newcomer = django_user_model.objects.create_user(username="newcomer")
    joined, _created = services.accept_invitation(
        services.create_invitation(campaign, by=people[creator], role="player", side=side),
        user=newcomer,
    )
    # The side has a player again (the second account), who is asked: not the creator.
    assert joined.role == Role.OBSERVER
    assert services.consent_missing(joined) == {side}
    assert not services.may_answer(joined, people[creator])


@pytest.mark.parametrize(("creator", "victim", "side"), ATTACKS)
def test_a_teammate_of_the_other_side_still_consents_after_one_leaves(
    request, people, django_user_model, creator, victim, side
):
    campaign = the_campaign(request, creator)
    mate = django_user_model.objects.create_user(username="mate")
    join(services.create_invitation(campaign, by=people[creator], role="player", side=side), mate)
    services.leave(campaign.memberships.get(user=people[victim]))
    sock = django_user_model.objects.create_user(username="sock")
    joined, _created = services.accept_invitation(
        services.create_invitation(campaign, by=people[creator], role="player", side=side),
        user=sock,
    )
    assert joined.role == Role.OBSERVER
    assert services.may_answer(joined, mate)
    event = CampaignEvent.objects.get(campaign=campaign, action="member.left")
    assert event.data["last_of_side"] == 0


def test_a_referee_creator_may_remove_a_player(people):
    """The referee sees every side: removing a player shows him nothing new."""
    campaign = services.create_campaign(
        user=people["referee"],
        name="Refereed",
        module=get_module("red_factories"),
        cg_key="rb-cg-1",
        role=Role.REFEREE,
        side="",
    )
    for persona in ("german", "soviet"):
        join(
            services.create_invitation(campaign, by=people["referee"], role="player", side=persona),
            people[persona],
        )
    soviet = campaign.memberships.get(user=people["soviet"])
    services.remove_member(soviet, by=people["referee"])
    assert not Membership.objects.filter(pk=soviet.pk).exists()
    german = campaign.memberships.get(user=people["german"])
    assert services.change_role(german, by=people["referee"], role="observer", side="") == (
        services.CHANGED
    )


def test_leaving_and_refusals_travel_in_the_export(campaign, people):
    from tests.campaigns.transfer.test_services import round_trip

    with pytest.raises(services.SideRefused):
        services.remove_member(campaign.memberships.get(user=people["soviet"]), by=people["german"])
    with pytest.raises(services.SideRefused):
        services.change_role(
            campaign.memberships.get(user=people["referee"]),
            by=people["german"],
            role="observer",
            side="",
        )
    services.leave(campaign.memberships.get(user=people["soviet"]))
    first, _copy, second = round_trip(campaign, people["referee"], people["outsider"])
    actions = ("member.left", "member.removal_refused", "member.role_change_refused")
    kept = [e["data"] for e in first["history"] if e["action"] in actions]
    assert len(kept) == 3
    assert [e["data"] for e in second["history"] if e["action"] in actions] == kept
