"""Rolls whose DRMs the app works out from the campaign state, with their results booked."""

from __future__ import annotations

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction
from django.db.models import Sum
from django.utils.translation import gettext as _

from campaigns import state
from campaigns.models import Campaign, CvpEntry, DiceRoll, LedgerEntry, LedgerKind, SideDay
from refit import dice
from refit.rules.balance import scenario_balance_drm
from refit.rules.cpp import UnknownValue, cpp_replenishment_drms

CPP_TABLE = "rf.cpp-replenishment"


class AutomaticRollError(ValueError):
    """The roll cannot be made (yet); the message says why, for the user."""


def _first_day_chits(campaign: Campaign) -> dict[str, str]:
    definitions = campaign.game.files.get("campaign_games", {}).get("campaign_games", {})
    chits = (definitions.get(campaign.campaign_game) or {}).get("first_day_chits") or {}
    return {side: chits.get(side, "") for side in campaign.game.side_keys}


def cpp_replenishment_modifiers(campaign: Campaign, side: str, index: int) -> list[dice.Modifier]:
    """11.616's DRMs for ``side`` on CG day ``index``, each with the reason shown to players."""
    if index == 0:
        raise AutomaticRollError(_("There is no CPP replenishment on the first CG day (11.5)."))
    side_day = SideDay.objects.get(campaign=campaign, index=index, side=side)
    previous = SideDay.objects.get(campaign=campaign, index=index - 1, side=side)
    chit = previous.initiative_chit or (_first_day_chits(campaign)[side] if index == 1 else "")
    cvp = (
        CvpEntry.objects.filter(campaign=campaign, side=side, index=index - 1)
        .exclude(exited_uncontrolled=True)
        .exclude(no_cvp=True)
        .aggregate(total=Sum("cvp"))["total"]
        or 0
    )
    winners = list(
        campaign.scenarios.exclude(winner="")
        .order_by("index", "sequence")
        .values_list("winner", flat=True)
    )
    try:
        drms = cpp_replenishment_drms(
            hist_drm=side_day.hist_drm,
            cvp_suffered=cvp,
            attack_chit_previous_day=chit == "attack",
            balance_drm=scenario_balance_drm(winners, side),
        )
    except UnknownValue:
        raise AutomaticRollError(
            _(
                "The Historical DRM for this day is unknown: the referee enters it on the roster "
                "first (11.6161)."
            )
        ) from None
    reasons = {
        "historical": _("Historical DRM (11.6161)"),
        "cvp": _("%(cvp)s CVP suffered: −1 per 20 (11.616)") % {"cvp": cvp},
        "attack-chit": _("Attack chit on the previous CG day (11.616)"),
        "balance": _("CG Scenario Balance (11.32)"),
    }
    return [dice.Modifier(drm.value, reasons[drm.id]) for drm in drms]


@transaction.atomic
def roll_cpp_replenishment(
    campaign: Campaign, *, side: str, index: int, by: AbstractBaseUser
) -> DiceRoll:
    """Roll 11.616 for a side, secretly, and book the CPP as that day's Repl."""
    if campaign.module != "red_factories":
        raise AutomaticRollError(_("This roll belongs to Red Factories."))
    already = LedgerEntry.objects.select_for_update().filter(
        campaign=campaign,
        side=side,
        ledger=LedgerEntry.CPP,
        index=index,
        kind=LedgerKind.REPLENISHMENT,
    )
    if already.exists():
        raise AutomaticRollError(
            _(
                "The CPP replenishment of this day is already booked; a referee voids the roll "
                "and the entry is undone before rolling again."
            )
        )
    roll = dice.roll(
        campaign,
        by=by,
        kind="DR",
        step="11.616",
        index=index,
        side=side,
        visibility=side,
        modifiers=cpp_replenishment_modifiers(campaign, side, index),
        table=campaign.game.dice_table(CPP_TABLE),
    )
    state.add_ledger_entry(
        campaign,
        by=by,
        side=side,
        ledger=LedgerEntry.CPP,
        index=index,
        kind=LedgerKind.REPLENISHMENT,
        amount=roll.result["cpp"],
        note=_("CPP replenishment DR %(final)s") % {"final": roll.final},
    )
    return roll
