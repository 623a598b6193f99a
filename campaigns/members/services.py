"""Changes to campaigns and their members. Each runs in one transaction and records an event."""

from __future__ import annotations

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction
from django.utils import timezone

from campaigns import state
from campaigns.games.registry import GameModule
from campaigns.history import services as history
from campaigns.models import Campaign, Invitation, Membership, Role


class MembershipError(ValueError):
    """A membership change the rules of the app do not allow; the message is for the user."""


def check_role(module: GameModule, role: str, side: str) -> None:
    if role not in Role.values:
        raise ValueError(f"unknown role {role!r}")
    if role == Role.PLAYER and side not in module.side_keys:
        raise ValueError(f"{side!r} is not a side of {module.key}")
    if role != Role.PLAYER and side:
        raise ValueError("only players have a side")


@transaction.atomic
def create_campaign(
    *, user: AbstractBaseUser, name: str, module: GameModule, cg_key: str, role: str, side: str
) -> Campaign:
    module.campaign_game(cg_key)  # KeyError for a campaign game the module does not have
    check_role(module, role, side)
    campaign = Campaign.objects.create(
        name=name,
        module=module.key,
        campaign_game=cg_key,
        data_version=module.version,
        created_by=user,
    )
    Membership.objects.create(campaign=campaign, user=user, role=role, side=side)
    state.initialize(campaign, user)
    history.record(
        campaign, user, "campaign.created", name=name, module=module.key, campaign_game=cg_key
    )
    history.record(campaign, user, "member.joined", user=user.get_username(), role=role, side=side)
    return campaign


@transaction.atomic
def create_invitation(
    campaign: Campaign, *, by: AbstractBaseUser, role: str, side: str
) -> Invitation:
    check_role(campaign.game, role, side)
    invitation = Invitation.objects.create(campaign=campaign, role=role, side=side, created_by=by)
    history.record(campaign, by, "invitation.created", target=invitation, role=role, side=side)
    return invitation


@transaction.atomic
def revoke_invitation(invitation: Invitation, *, by: AbstractBaseUser) -> None:
    if invitation.revoked_at is not None:
        return
    invitation.revoked_at = timezone.now()
    invitation.save(update_fields=["revoked_at"])
    history.record(
        invitation.campaign,
        by,
        "invitation.revoked",
        target=invitation,
        role=invitation.role,
        side=invitation.side,
    )


@transaction.atomic
def accept_invitation(invitation: Invitation, *, user: AbstractBaseUser) -> tuple[Membership, bool]:
    """Join the campaign in the invitation's role; an existing member keeps their role.

    Returns the membership and whether it was created now.
    """
    invitation = Invitation.objects.select_for_update(of=("self",)).get(pk=invitation.pk)
    if invitation.revoked_at is not None:
        raise MembershipError("revoked")
    membership, created = Membership.objects.get_or_create(
        campaign_id=invitation.campaign_id,
        user=user,
        defaults={"role": invitation.role, "side": invitation.side},
    )
    if created:
        history.record(
            invitation.campaign,
            user,
            "member.joined",
            target=membership,
            user=user.get_username(),
            role=invitation.role,
            side=invitation.side,
            invitation=invitation.pk,
        )
    return membership, created


@transaction.atomic
def change_role(membership: Membership, *, by: AbstractBaseUser, role: str, side: str) -> bool:
    """Give a member another role; returns False when nothing changed."""
    membership = (
        Membership.objects.select_for_update(of=("self",))
        .select_related("campaign", "user")
        .get(pk=membership.pk)
    )
    check_role(membership.campaign.game, role, side)
    if membership.user_id == by.pk:
        # Nobody changes their own role: a player could otherwise become referee, read the
        # other side's secrets, and switch back.
        raise MembershipError("own role")
    if (membership.role, membership.side) == (role, side):
        return False
    previous_role, previous_side = membership.role, membership.side
    membership.role, membership.side = role, side
    membership.save(update_fields=["role", "side"])
    history.record(
        membership.campaign,
        by,
        "member.role_changed",
        target=membership,
        user=membership.user.get_username(),
        role=role,
        side=side,
        previous_role=previous_role,
        previous_side=previous_side,
    )
    return True


@transaction.atomic
def remove_member(membership: Membership, *, by: AbstractBaseUser) -> int:
    """Remove a member and revoke every open link (they may have seen any of them).

    Returns how many links were revoked, so the creator can be told to make new ones.
    """
    campaign = membership.campaign
    if membership.user_id == campaign.created_by_id:
        raise MembershipError("creator")
    open_links = list(
        campaign.invitations.select_for_update(of=("self",)).filter(revoked_at__isnull=True)
    )
    for invitation in open_links:
        revoke_invitation(invitation, by=by)
    history.record(
        campaign,
        by,
        "member.removed",
        user=membership.user.get_username(),
        role=membership.role,
        side=membership.side,
    )
    membership.delete()
    return len(open_links)
