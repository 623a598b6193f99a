"""Changes to campaigns and their members. Each runs in one transaction and records an event."""

from __future__ import annotations

from typing import NoReturn

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction
from django.utils import timezone

from campaigns import state
from campaigns.games.registry import GameModule
from campaigns.history import services as history
from campaigns.members import consent
from campaigns.models import Campaign, Invitation, Membership, Role


class MembershipError(ValueError):
    """A membership change the rules of the app do not allow; the message is for the user."""


class SideRefused(MembershipError):
    """Removing or moving a member whose seat sees sides the one acting does not see: only those
    sides may (see ``consent.unseat_refused``). The refusal is in the history."""

    def __init__(self, sides: frozenset[str]) -> None:
        super().__init__("side")
        self.sides = sides


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
    Membership.objects.create(
        campaign=campaign, user=user, role=role, side=side, seated_at=campaign.created_at
    )
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

    A role that would see a side someone else plays waits for that side's consent: the new
    member joins as an observer until then (see ``campaigns.members.consent``).
    Returns the membership and whether it was created now.
    """
    invitation = Invitation.objects.select_for_update(of=("self",)).get(pk=invitation.pk)
    if invitation.revoked_at is not None:
        raise MembershipError("revoked")
    campaign = Campaign.objects.select_for_update(of=("self",)).get(pk=invitation.campaign_id)
    if Membership.objects.filter(campaign=campaign, user=user).exists():
        return Membership.objects.get(campaign=campaign, user=user), False
    needed = consent.consent_needed(
        consent.Seat(user.pk, Role.OBSERVER),
        invitation.role,
        invitation.side,
        _seats(campaign),
        campaign.game.side_keys,
    )
    role, side = (Role.OBSERVER, "") if needed else (invitation.role, invitation.side)
    membership = Membership.objects.create(
        campaign=campaign, user=user, role=role, side=side, seated_at=timezone.now()
    )
    history.record(
        campaign,
        user,
        "member.joined",
        target=membership,
        user=user.get_username(),
        role=role,
        side=side,
        invitation=invitation.pk,
    )
    if needed:
        _ask(membership, by=user, role=invitation.role, side=invitation.side, needed=needed)
    return membership, True


def _seats(campaign: Campaign) -> list[consent.Seat]:
    return [
        consent.Seat(user, role, side)
        for user, role, side in campaign.memberships.values_list("user_id", "role", "side")
    ]


def _ask(
    membership: Membership, *, by: AbstractBaseUser, role: str, side: str, needed: frozenset[str]
) -> None:
    membership.requested_role, membership.requested_side = role, side
    membership.requested_at = timezone.now()
    membership.consents = {}
    membership.save(update_fields=["requested_role", "requested_side", "requested_at", "consents"])
    history.record(
        membership.campaign,
        by,
        "member.seat_requested",
        target=membership,
        user=membership.user.get_username(),
        role=role,
        side=side,
        sides=sorted(needed),
    )


def _clear_request(membership: Membership) -> None:
    membership.requested_role = membership.requested_side = ""
    membership.requested_at = None
    membership.consents = {}


def consent_missing(membership: Membership) -> frozenset[str]:
    """The sides still to agree to ``membership``'s pending seat (empty when none is pending)."""
    if not membership.is_pending:
        return frozenset()
    seats = _seats(membership.campaign)
    needed = consent.consent_needed(
        consent.Seat(membership.user_id, membership.role, membership.side),
        membership.requested_role,
        membership.requested_side,
        seats,
        membership.campaign.game.side_keys,
    )
    return consent.consent_missing(
        needed,
        {side: int(user) for side, user in membership.consents.items()},
        seats,
        applicant=membership.user_id,
    )


def may_answer(membership: Membership, user: AbstractBaseUser) -> bool:
    """May ``user`` agree to (or turn down) ``membership``'s pending seat: a seated player of a
    side still to agree."""
    seats = _seats(membership.campaign)
    return any(
        user.pk in consent.consenters(side, seats, applicant=membership.user_id)
        for side in consent_missing(membership)
    )


def _seat(membership: Membership, role: str, side: str) -> None:
    """The member takes the seat now; any request of theirs is settled by it."""
    membership.role, membership.side = role, side
    membership.seated_at = timezone.now()
    _clear_request(membership)
    membership.save(
        update_fields=[
            "role",
            "side",
            "seated_at",
            "requested_role",
            "requested_side",
            "requested_at",
            "consents",
        ]
    )


def _open_seat(membership: Membership, *, by: AbstractBaseUser) -> None:
    previous_role, previous_side = membership.role, membership.side
    role, side = membership.requested_role, membership.requested_side
    consents = dict(membership.consents)
    _seat(membership, role, side)
    names = dict(
        membership.campaign.memberships.filter(
            user_id__in=[int(u) for u in consents.values()]
        ).values_list("user_id", "user__username")
    )
    history.record(
        membership.campaign,
        by,
        "member.seat_opened",
        target=membership,
        user=membership.user.get_username(),
        role=role,
        side=side,
        previous_role=previous_role,
        previous_side=previous_side,
        consenting_sides=sorted(consents),
        consenting_users=[names.get(int(consents[s]), "") for s in sorted(consents)],
    )


def _locked(membership: Membership) -> Membership:
    Campaign.objects.select_for_update(of=("self",)).get(pk=membership.campaign_id)
    return (
        Membership.objects.select_for_update(of=("self",))
        .select_related("campaign", "user")
        .get(pk=membership.pk)
    )


@transaction.atomic
def agree(membership: Membership, *, by: AbstractBaseUser) -> bool:
    """``by`` agrees, for their side, to ``membership``'s pending seat; the seat opens when
    every side has agreed. Returns whether it opened."""
    membership = _locked(membership)
    missing = consent_missing(membership)
    seats = _seats(membership.campaign)
    sides = [
        side
        for side in sorted(missing)
        if by.pk in consent.consenters(side, seats, applicant=membership.user_id)
    ]
    if not sides:
        raise MembershipError("not asked")
    for side in sides:
        membership.consents[side] = by.pk
        history.record(
            membership.campaign,
            by,
            "member.seat_consented",
            target=membership,
            user=membership.user.get_username(),
            role=membership.requested_role,
            side=membership.requested_side,
            consenting_side=side,
        )
    membership.save(update_fields=["consents"])
    if consent_missing(membership):
        return False
    _open_seat(membership, by=by)
    return True


@transaction.atomic
def decline(membership: Membership, *, by: AbstractBaseUser) -> None:
    """``by`` (a side still to agree, or the campaign's creator) turns the pending seat down;
    the member keeps the role they have."""
    membership = _locked(membership)
    if not membership.is_pending:
        raise MembershipError("not asked")
    if not (may_answer(membership, by) or membership.campaign.created_by_id == by.pk):
        raise MembershipError("not asked")
    role, side = membership.requested_role, membership.requested_side
    _clear_request(membership)
    membership.save(update_fields=["requested_role", "requested_side", "requested_at", "consents"])
    history.record(
        membership.campaign,
        by,
        "member.seat_declined",
        target=membership,
        user=membership.user.get_username(),
        role=role,
        side=side,
    )


CHANGED, ASKED, UNCHANGED = "changed", "asked", "unchanged"


def unseat_refused(membership: Membership, by: AbstractBaseUser) -> frozenset[str]:
    """The sides that would have to agree before ``by`` removes ``membership`` or changes its
    role (empty: ``by`` may do it alone; see ``consent.unseat_refused``)."""
    actor = next((s for s in _seats(membership.campaign) if s.user == by.pk), None)
    return consent.unseat_refused(
        actor or consent.Seat(by.pk, Role.OBSERVER),
        consent.Seat(membership.user_id, membership.role, membership.side),
        membership.campaign.game.side_keys,
    )


def _refuse(membership: Membership, *, by: AbstractBaseUser, action: str, **data: str) -> NoReturn:
    """Record, in its own transaction, that ``by`` was refused ``action`` on ``membership``;
    then raise ``SideRefused`` (the caller's transaction has changed nothing)."""
    sides = unseat_refused(membership, by)
    with transaction.atomic():
        history.record(
            membership.campaign,
            by,
            action,
            target=membership,
            user=membership.user.get_username(),
            role=membership.role,
            side=membership.side,
            sides=sorted(sides),
            **data,
        )
    raise SideRefused(sides)


def change_role(membership: Membership, *, by: AbstractBaseUser, role: str, side: str) -> str:
    """As ``_change_role``; refused (``SideRefused``, recorded) when the member's seat sees a
    side ``by`` does not see."""
    with transaction.atomic():
        locked = _locked(membership)
        if locked.user_id == by.pk or not unseat_refused(locked, by):
            return _change_role(locked, by=by, role=role, side=side)
    _refuse(
        locked, by=by, action="member.role_change_refused", requested_role=role, requested_side=side
    )


@transaction.atomic
def _change_role(membership: Membership, *, by: AbstractBaseUser, role: str, side: str) -> str:
    """Give a member another role: at once (``CHANGED``) when the new role sees no side the
    member does not see yet, or nobody else plays it; otherwise the seat waits for those sides'
    consent (``ASKED``; the creator's own side agrees by choosing). ``UNCHANGED`` when the member
    already has the role (a pending request for another one is withdrawn)."""
    membership = _locked(membership)
    campaign = membership.campaign
    check_role(campaign.game, role, side)
    if membership.user_id == by.pk:
        # Nobody changes their own role: a player could otherwise become referee, read the
        # other side's secrets, and switch back.
        raise MembershipError("own role")
    if (membership.role, membership.side) == (role, side):
        if membership.is_pending:
            decline(membership, by=by)
        return UNCHANGED
    needed = consent.consent_needed(
        consent.Seat(membership.user_id, membership.role, membership.side),
        role,
        side,
        _seats(campaign),
        campaign.game.side_keys,
    )
    if needed:
        _ask(membership, by=by, role=role, side=side, needed=needed)
        if by.pk in {
            user
            for s in needed
            for user in consent.consenters(s, _seats(campaign), applicant=membership.user_id)
        }:
            return CHANGED if agree(membership, by=by) else ASKED
        return ASKED
    previous_role, previous_side = membership.role, membership.side
    _seat(membership, role, side)
    history.record(
        campaign,
        by,
        "member.role_changed",
        target=membership,
        user=membership.user.get_username(),
        role=role,
        side=side,
        previous_role=previous_role,
        previous_side=previous_side,
    )
    return CHANGED


def remove_member(membership: Membership, *, by: AbstractBaseUser) -> int:
    """Remove a member and revoke every open link (they may have seen any of them).

    Refused (``MembershipError``) for the campaign's creator, and (``SideRefused``, recorded in
    the history) when the member's seat sees a side ``by`` does not see: that side's player
    leaves themselves (``leave``). Returns how many links were revoked, so the creator can be
    told to make new ones.
    """
    with transaction.atomic():
        locked = _locked(membership)
        campaign = locked.campaign
        if locked.user_id == campaign.created_by_id:
            raise MembershipError("creator")
        if not unseat_refused(locked, by):
            open_links = list(
                campaign.invitations.select_for_update(of=("self",)).filter(revoked_at__isnull=True)
            )
            for invitation in open_links:
                revoke_invitation(invitation, by=by)
            history.record(
                campaign,
                by,
                "member.removed",
                user=locked.user.get_username(),
                role=locked.role,
                side=locked.side,
            )
            locked.delete()
            return len(open_links)
    _refuse(locked, by=by, action="member.removal_refused")


def may_leave(membership: Membership) -> bool:
    """Every member may leave, except the campaign's creator (who manages the members)."""
    return membership.user_id != membership.campaign.created_by_id


def last_of_side(membership: Membership) -> bool:
    """Is ``membership`` the only player of their side (nobody else to ask for it)?"""
    return membership.role == Role.PLAYER and not consent.consenters(
        membership.side, _seats(membership.campaign), applicant=membership.user_id
    )


@transaction.atomic
def leave(membership: Membership) -> None:
    """The member leaves the campaign. A player leaving is that side's consent to whatever the
    side then becomes: when they were its last player the side has nobody left to ask, so the
    next seat on it opens without waiting (as on a side nobody has played yet)."""
    membership = _locked(membership)
    if not may_leave(membership):
        raise MembershipError("creator")
    history.record(
        membership.campaign,
        membership.user,
        "member.left",
        user=membership.user.get_username(),
        role=membership.role,
        side=membership.side,
        last_of_side=int(last_of_side(membership)),
    )
    membership.delete()
