"""Undoing a fortification purchase or its take-back from the history checks what buying and
taking back checked (``refit.fortifications.services``): the side's fortification step of that
day is open and not marked done, and a purchase made again by an undo is still within the
limits (minefield FPP per day, the booby-trap level …). Its FPP are checked by
campaigns.roster.books, as every undo's are. A referee undoing a change of a finished phase,
with a reason, is past the step's timing; the books still hold.
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any

from django.utils.translation import gettext as _

from campaigns.history import services as history
from campaigns.models import CampaignEvent, FortificationPurchase
from refit.fortifications import services as fortifications
from refit.rules import fortification as rules

PURCHASE_ROW = FortificationPurchase._meta.label_lower
ORDER_FIELDS = {field.name for field in fields(rules.FortificationOrder)}


def purchase_row(event: CampaignEvent) -> dict[str, Any]:
    for step in event.data.get("undo", []):
        if step["model"] == PURCHASE_ROW:
            return step["after"] or step["before"] or {}
    raise history.UndoError(_("That change cannot be undone."))


def _step_open(event: CampaignEvent, row: dict[str, Any]) -> Any:
    try:
        reph = fortifications.open_fortification_reph(event.campaign, row.get("side", ""))
    except fortifications.FortificationError as error:
        raise history.UndoError(str(error)) from None
    if reph.index != row.get("index"):
        raise history.UndoError(
            _("Only purchases of the current Refit Phase can be undone; ask the referee.")
        )
    return reph


def _undo_purchase(event: CampaignEvent, overruled: bool) -> None:
    if not overruled:
        _step_open(event, purchase_row(event))


def _undo_take_back(event: CampaignEvent, overruled: bool) -> None:
    if overruled:
        return
    row = purchase_row(event)
    reph = _step_open(event, row)
    details = row.get("details") or {}
    if details.get("override"):
        return  # bought past a limit by the referee, whose reason stands with the purchase
    order_data = {k: v for k, v in (details.get("order") or {}).items() if k in ORDER_FIELDS}
    order = rules.FortificationOrder(
        **{
            **order_data,
            "item": row["item"],
            "quantity": row["quantity"],
            "hexes": row.get("hexes", ""),
        }
    )
    campaign = event.campaign
    side = row["side"]
    reading = fortifications.read_side(campaign, side, lock=True)
    tables = campaign.game.files.get("tables", {})
    _total, reasons = rules.cost(
        tables, fortifications.moment(campaign, side, reph, reading), order
    )
    # FPP are the books' check; the Under Construction hexes were confirmed when bought.
    refused = [reason for reason in reasons if reason.code not in ("fpp", "hexes_unconfirmed")]
    if refused:
        raise history.UndoError(" ".join(fortifications.reason_text(r) for r in refused))


history.UNDO_GUARDS["fortification.purchased"] = _undo_purchase
history.UNDO_GUARDS["fortification.removed"] = _undo_take_back
