"""Undoing an RG purchase or its take-back from the history checks what buying and taking back
checked (``refit.purchases.services``): the side's purchase step of that day is open and not
marked done, and an RG bought again by an undo is still within every limit. (Its CPP are
checked by campaigns.roster.books, as every undo's are.) A referee undoing a change of a finished
phase, with a reason, is past the step's timing; the books still hold.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from campaigns.history import services as history
from campaigns.models import CampaignEvent, ReinforcementGroup
from refit.purchases import services as purchases
from refit.purchases.reading import cg_definition, read_side
from refit.rules import purchase as rules
from refit.rules import purchase_costs as costs

RG_ROW = ReinforcementGroup._meta.label_lower


def rg_row(event: CampaignEvent) -> dict[str, Any]:
    """The RG as the event's undo steps hold it (after a purchase, before a take-back)."""
    for step in event.data.get("undo", []):
        if step["model"] == RG_ROW:
            return step["after"] or step["before"] or {}
    raise history.UndoError(_("That change cannot be undone."))


def _step_open(event: CampaignEvent, row: dict[str, Any]) -> Any:
    """The open RePh whose purchase step the side has not marked, on the RG's own day."""
    try:
        reph = purchases.open_purchase_reph(event.campaign, row.get("side", ""))
    except purchases.PurchaseError as error:
        raise history.UndoError(str(error)) from None
    if reph.index != row.get("index"):
        raise history.UndoError(
            _("Only purchases of the current Refit Phase can be undone; ask the referee.")
        )
    return reph


def _undo_purchase(event: CampaignEvent, overruled: bool) -> None:
    """Undoing a purchase takes the RG back: only while its purchase step is open."""
    if not overruled:
        _step_open(event, rg_row(event))


def _undo_take_back(event: CampaignEvent, overruled: bool) -> None:
    """Undoing a take-back buys the RG again: its step is open and the limits still allow it."""
    if overruled:
        return
    row = rg_row(event)
    reph = _step_open(event, row)
    details = row.get("details") or {}
    if details.get("override"):
        return  # bought past a limit by the referee, whose reason stands with the RG
    campaign = event.campaign
    side = row["side"]
    options = costs.Options(
        placement=row.get("option") or costs.REINFORCEMENT,
        pre_registered_hexes=int(details.get("pre_registered_hexes") or 0),
        stuka_two_cpp=bool(details.get("stuka_two_cpp")),
        map_group=details.get("map_group", ""),
    )
    reading = read_side(campaign, side, reph.index, lock=True)
    _price, reasons = rules.check(
        campaign.game.files["rg_charts"],
        cg_definition(campaign),
        reading.facts(reph),
        row["rg_id"],
        options,
    )
    # CPP are the books' check; every other refusal would refuse the purchase itself.
    refused = [reason for reason in reasons if reason.code != "cpp"]
    if refused:
        raise history.UndoError(
            " ".join(purchases.reason_text(campaign, reason) for reason in refused)
        )


history.UNDO_GUARDS["rg.purchased"] = _undo_purchase
history.UNDO_GUARDS["rg.purchase_removed"] = _undo_take_back
