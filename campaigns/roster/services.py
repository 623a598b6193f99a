"""Changes to a side's secret sheets: its CG Roster rows (side days) and its CPP/FPP ledgers.

Each change runs in one transaction and records a history event scoped to the side (the
shared core is campaigns.state). Side days are versioned; ledger entries are append-only, and a
purchase may not spend more than the side has that day.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction
from django.utils.translation import gettext as _

from campaigns.history import services as history
from campaigns.models import Campaign, LedgerEntry, LedgerKind, SideDay
from campaigns.models.state import CPP_KINDS, FPP_KINDS
from campaigns.roster.ledger import Movement, cpp_days, fpp_days
from campaigns.said import in_every_language, is_said
from campaigns.state import StateError, check_day, check_side, edit_row, split_map_groups


@transaction.atomic
def update_side_day(
    campaign: Campaign, side_day: SideDay, *, by: AbstractBaseUser, version: int, **fields: Any
) -> None:
    edit_row(
        campaign,
        side_day,
        by=by,
        version=version,
        fields=fields,
        action="side_day.updated",
        visibility=side_day.side,
        index=side_day.index,
        side=side_day.side,
    )


# What a day has once: the replenishment the RePh rolls and books (a manual entry of it may not
# stand beside the rolled one, nor a second manual one) — in RF CG I once per map group (11.58).
BOOKED_ONCE_A_DAY = {LedgerKind.REPLENISHMENT}


def _check_map_group(campaign: Campaign, kind: str, map_group: str) -> None:
    """RF CG I (11.58): a replenishment names one of the CG's map groups, nothing else does; in
    a campaign game on one map group nothing names one."""
    groups = split_map_groups(campaign)
    if not map_group:
        if groups and kind == LedgerKind.REPLENISHMENT:
            raise StateError(
                _("Name the map group of this replenishment (%(groups)s): one DR each (11.58).")
                % {"groups": ", ".join(groups)}
            )
        return
    if kind != LedgerKind.REPLENISHMENT or map_group not in groups:
        raise StateError(_("Only a CPP replenishment of RF CG I names a map group (11.58)."))


@transaction.atomic
def add_ledger_entry(
    campaign: Campaign,
    *,
    by: AbstractBaseUser,
    side: str,
    ledger: str,
    index: int,
    kind: str,
    amount: int,
    rg: str = "",
    note: Any = "",
    locations: int | None = None,
    map_group: str = "",
) -> LedgerEntry:
    """``note``: typed words, or the app's own (``campaigns.said.said``), then stored in every
    language and read in the reader's."""
    note_words = in_every_language(note) if is_said(note) else {}
    note = str(note)
    check_side(campaign, side)
    check_day(campaign, index)
    _check_map_group(campaign, kind, map_group)
    kinds = CPP_KINDS if ledger == LedgerEntry.CPP else FPP_KINDS
    if kind not in kinds:
        raise StateError(_("That kind of entry does not belong in this ledger."))
    sign = kinds[kind]
    if amount == 0 or (sign and amount * sign < 0):
        raise StateError(
            _("A gain must be more than 0, a cost less than 0.")
            if sign
            else _("An adjustment cannot be 0.")
        )
    if abs(amount) > 999:
        raise StateError(_("That is more points than a campaign sees."))
    if kind == LedgerKind.REPLENISHMENT and index == 0:
        raise StateError(
            _(
                "There is no CPP replenishment on the first CG day (11.5); its CPP come from "
                "the initial OB."
            )
        )
    if (
        kind in BOOKED_ONCE_A_DAY
        and LedgerEntry.objects.filter(
            campaign=campaign,
            side=side,
            ledger=ledger,
            index=index,
            kind=kind,
            map_group=map_group,
        ).exists()
    ):
        if map_group:
            raise StateError(
                _(
                    "This day's CPP replenishment for %(group)s is already on the ledger (11.58: "
                    "one roll per map group). A correction is a referee adjustment with its "
                    "reason."
                )
                % {"group": map_group}
            )
        raise StateError(
            _(
                "This day's CPP replenishment is already on the ledger (11.616: one roll a day). "
                "A correction is a referee adjustment with its reason."
            )
        )
    if locations is not None and (kind != LedgerKind.RECON or not 0 <= locations <= 99):
        raise StateError(_("Only a recon payment carries a number of Locations (0 to 99)."))
    if kind == LedgerKind.ADJUSTMENT and not note.strip():
        raise StateError(_("Give the reason for the adjustment."))
    chart = campaign.game.files.get("rg_charts", {}).get("sides", {}).get(side)
    if (
        kind == LedgerKind.RG_PURCHASE
        and chart is not None
        and rg not in {group["id"] for group in chart.get("groups", [])}
    ):
        raise StateError(_("%(rg)s is not on this side's RG chart.") % {"rg": rg or "—"})
    if amount < 0 and kind != LedgerKind.ADJUSTMENT:
        _check_affordable(campaign, side, ledger, index, -amount)
    entry = LedgerEntry.objects.create(
        campaign=campaign,
        side=side,
        ledger=ledger,
        index=index,
        kind=kind,
        amount=amount,
        rg=rg,
        note=note.strip(),
        note_words=note_words,
        locations=locations,
        map_group=map_group,
        created_by=by,
    )
    history.record_change(
        campaign,
        by,
        "ledger.added",
        visibility=side,
        changes=[(entry, None, history.snapshot(entry))],
        ledger=ledger,
        kind=kind,
        amount=amount,
        index=index,
        side=side,
        referee_only=kind == LedgerKind.ADJUSTMENT,
    )
    return entry


def _check_affordable(campaign: Campaign, side: str, ledger: str, index: int, cost: int) -> None:
    """A purchase may not spend more than the side has that day (11.619, 11.621, 11.622)."""
    # Lock the side's ledger rows: two players of one side cannot spend the same points at once.
    rows = (
        LedgerEntry.objects.select_for_update(of=("self",))
        .filter(campaign=campaign, side=side, ledger=ledger)
        .values_list("index", "kind", "amount", "rg", "locations")
    )
    movements = [Movement(*row) for row in rows]
    days = len(campaign.cg.periods)
    if ledger == LedgerEntry.FPP:
        available = fpp_days(days, movements)[index].lost
    else:
        day = cpp_days(days, movements)[index]
        available = day.left  # recon already paid is off Left (11.622)
    if cost > available:
        raise StateError(
            _("That costs %(cost)s but only %(left)s are left that day.")
            % {"cost": cost, "left": max(available, 0)}
        )
