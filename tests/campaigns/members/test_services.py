import pytest

from campaigns.games.registry import get_module
from campaigns.members import services
from campaigns.models import Campaign, CampaignEvent, Membership, Role

pytestmark = pytest.mark.django_db


def test_creating_a_campaign_records_the_data_version_and_the_creator_as_member(people):
    campaign = services.create_campaign(
        user=people["referee"],
        name="Ponyri",
        module=get_module("slaughter_at_ponyri"),
        cg_key="timetable-disrupted",
        role=Role.REFEREE,
        side="",
    )
    assert campaign.data_version == get_module("slaughter_at_ponyri").version
    assert campaign.current_period.key == "CG-1"
    membership = Membership.objects.get(campaign=campaign)
    assert (membership.user, membership.role, membership.side) == (people["referee"], "referee", "")
    assert list(campaign.events.values_list("action", flat=True).order_by("id")) == [
        "campaign.created",
        "member.joined",
    ]


def test_a_side_the_game_does_not_have_is_refused(people):
    with pytest.raises(ValueError, match="not a side"):
        services.create_campaign(
            user=people["german"],
            name="x",
            module=get_module("slaughter_at_ponyri"),
            cg_key="timetable-disrupted",
            role=Role.PLAYER,
            side="soviet",  # SaP's sides are german and russian
        )
    assert not Campaign.objects.exists()


def test_a_campaign_game_the_module_does_not_have_is_refused(people):
    with pytest.raises(KeyError):
        services.create_campaign(
            user=people["german"],
            name="x",
            module=get_module("red_factories"),
            cg_key="rb-cg-9",
            role=Role.REFEREE,
            side="",
        )
    assert not Campaign.objects.exists()


def test_several_users_share_a_side_through_one_link(campaign, django_user_model, people):
    invitation = services.create_invitation(
        campaign, by=people["german"], role=Role.PLAYER, side="soviet"
    )
    for name in ("chuikov", "batyuk"):
        user = django_user_model.objects.create_user(username=name)
        services.accept_invitation(invitation, user=user)
    # Each new Soviet waits for a Soviet player's consent.
    assert not campaign.memberships.filter(user__username__in=["chuikov", "batyuk"]).exclude(
        role="observer"
    )
    for membership in campaign.memberships.filter(requested_side="soviet"):
        assert services.agree(membership, by=people["soviet"])
    soviets = campaign.memberships.filter(side="soviet").values_list("user__username", flat=True)
    assert sorted(soviets) == ["batyuk", "chuikov", "soviet"]


def test_a_member_following_another_link_keeps_their_role(campaign, people):
    invitation = services.create_invitation(
        campaign, by=people["german"], role=Role.REFEREE, side=""
    )
    membership, created = services.accept_invitation(invitation, user=people["observer"])
    assert not created
    assert (membership.role, membership.side) == ("observer", "")


def test_a_revoked_link_cannot_be_used(campaign, people):
    invitation = services.create_invitation(
        campaign, by=people["german"], role=Role.OBSERVER, side=""
    )
    services.revoke_invitation(invitation, by=people["german"])
    with pytest.raises(services.MembershipError):
        services.accept_invitation(invitation, user=people["outsider"])
    assert not campaign.memberships.filter(user=people["outsider"]).exists()


def test_changing_a_role_records_before_and_after(campaign, people):
    # A German teammate: the German creator sees what that seat sees, so he may move it alone.
    membership = campaign.memberships.create(
        user=people["outsider"], role=Role.PLAYER, side="german"
    )
    assert (
        services.change_role(membership, by=people["german"], role=Role.OBSERVER, side="")
        == services.CHANGED
    )
    event = CampaignEvent.objects.filter(action="member.role_changed").get()
    assert event.actor == people["german"]
    assert event.data == {
        "user": "outsider",
        "role": "observer",
        "side": "",
        "previous_role": "player",
        "previous_side": "german",
    }


def test_changing_to_the_same_role_records_nothing(campaign, people):
    membership = campaign.memberships.get(user=people["observer"])
    assert (
        services.change_role(membership, by=people["german"], role=Role.OBSERVER, side="")
        == services.UNCHANGED
    )
    assert not CampaignEvent.objects.filter(action="member.role_changed").exists()


def test_a_referee_has_no_side(campaign, people):
    membership = campaign.memberships.get(user=people["observer"])
    with pytest.raises(ValueError, match="only players"):
        services.change_role(membership, by=people["german"], role=Role.REFEREE, side="german")


def test_the_creator_cannot_be_removed(campaign, people):
    with pytest.raises(services.MembershipError):
        services.remove_member(campaign.memberships.get(user=people["german"]), by=people["german"])


def test_removing_a_member_is_recorded(campaign, people):
    services.remove_member(campaign.memberships.get(user=people["observer"]), by=people["german"])
    assert not campaign.memberships.filter(user=people["observer"]).exists()
    event = CampaignEvent.objects.get(action="member.removed")
    assert event.data == {"user": "observer", "role": "observer", "side": ""}


def test_the_database_refuses_a_player_without_a_side(campaign, people):
    from django.db import IntegrityError, transaction

    with pytest.raises(IntegrityError), transaction.atomic():
        Membership.objects.create(
            campaign=campaign, user=people["outsider"], role=Role.PLAYER, side=""
        )
