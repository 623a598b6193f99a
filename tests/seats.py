"""Test set-up: join through a link, the seated players agreeing to the seat at once."""

from campaigns.members import services
from campaigns.models import Membership, Role


def join(invitation, user) -> Membership:
    """``user`` joins through ``invitation``; a player of each side the seat must ask agrees
    (as the people at the table would), so the member ends in the invitation's role."""
    membership, _created = services.accept_invitation(invitation, user=user)
    while membership.is_pending:
        side = sorted(services.consent_missing(membership))[0]
        consenter = (
            Membership.objects.filter(
                campaign_id=membership.campaign_id, role=Role.PLAYER, side=side
            )
            .exclude(user=user)
            .select_related("user")
            .first()
        )
        services.agree(membership, by=consenter.user)
        membership.refresh_from_db()
    return membership
