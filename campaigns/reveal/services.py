"""The reveal at the campaign's end (issue 22): the referee's, or each side's agreement.

``reveal`` is the one change that opens both sides to every member (``Campaign.revealed_at``,
read by ``campaigns.access``) and closes the campaign to changes other than notes
(``campaigns.history.services.check_writable``). It also reveals every dice seed still held
(verifiable dice). Each step is a public history event: ``campaign.reveal_agreed`` (a side's
player agreed, without a referee), ``campaign.revealed``.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from campaigns.access import PUBLIC, Viewer
from campaigns.dice import services as dice
from campaigns.history import services as history
from campaigns.members.consent import Seat
from campaigns.models import Campaign, RefitPhase, Scenario
from campaigns.reveal import rules


class RevealError(ValueError):
    """The reveal is refused; the message is for the user."""


def cg_over(campaign: Campaign) -> bool:
    """Is the campaign game over (``rules.cg_over``, the one reading the reveal and the CG
    victory page share)? Three queries at most."""
    has_refit = "refit_steps" in campaign.game.files
    phases = open_phases = 0
    last_day_won = False
    if has_refit:
        rephs = RefitPhase.objects.filter(campaign=campaign)
        phases = rephs.count()
        open_phases = rephs.filter(finished_at__isnull=True).count() if phases else 0
        if not open_phases:
            last_day_won = (
                Scenario.objects.filter(campaign=campaign, index__gte=len(campaign.cg.periods) - 1)
                .exclude(winner="")
                .exists()
            )
    return rules.cg_over(
        has_refit=has_refit,
        phases=phases,
        open_phases=open_phases,
        turn=campaign.period_index,
        turns=len(campaign.cg.periods),
        last_day_won=last_day_won,
    )


def _seats(campaign: Campaign) -> list[Seat]:
    return [
        Seat(user, role, side)
        for user, role, side in campaign.memberships.values_list("user_id", "role", "side")
    ]


def sides_missing(campaign: Campaign) -> frozenset[str]:
    """Without a referee: the sides whose player has not agreed to the reveal yet."""
    return rules.sides_missing(
        campaign.game.side_keys, campaign.reveal_consents or {}, _seats(campaign)
    )


@dataclass(frozen=True)
class Outcome:
    revealed: bool
    missing: frozenset[str] = frozenset()


@transaction.atomic
def reveal(viewer: Viewer) -> Outcome:
    """The viewer reveals the campaign (the referee) or agrees to its reveal (a player, without a
    referee; the campaign is revealed once a player of every side has agreed)."""
    campaign = Campaign.objects.select_for_update(of=("self",)).get(pk=viewer.campaign.pk)
    by = viewer.membership.user
    if campaign.revealed_at is not None:
        raise RevealError(_("The campaign is already revealed."))
    if not Viewer(campaign, viewer.membership).can_reveal:
        raise RevealError(_("Only the referee reveals this campaign."))
    if not cg_over(campaign):
        raise RevealError(
            _(
                "The campaign game is not over yet: it is revealed at its end (its last day "
                "finished, or CG victory recorded)."
            )
        )
    if not viewer.is_referee:
        consents = {**(campaign.reveal_consents or {}), viewer.side: by.pk}
        campaign.reveal_consents = consents
        campaign.save(update_fields=["reveal_consents"])
        missing = sides_missing(campaign)
        if missing:
            history.record(
                campaign, by, "campaign.reveal_agreed", visibility=PUBLIC, side=viewer.side
            )
            return Outcome(revealed=False, missing=missing)
    campaign.revealed_at = timezone.now()
    campaign.revealed_by = by
    campaign.save(update_fields=["revealed_at", "revealed_by"])
    dice.reveal_commitments(campaign)
    history.record(campaign, by, "campaign.revealed", visibility=PUBLIC, side=viewer.side)
    viewer.campaign.revealed_at = campaign.revealed_at
    return Outcome(revealed=True)
