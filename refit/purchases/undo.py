"""Undoing a purchase or its take-back from the history checks what buying and taking back
checked: the side's purchase step of that day is open and not marked done, and what an undo buys
again is still within every limit. (Its points are checked by campaigns.roster.books, as every
undo's are.) A referee undoing a change of a finished phase, with a reason, is past the step's
timing; the books still hold.

``register`` serves the RG purchases here and the fortifications (refit.fortifications.undo).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.utils.translation import gettext as _

from campaigns.history import services as history
from campaigns.models import CampaignEvent, RefitPhase, ReinforcementGroup
from campaigns.state import StateError
from refit.purchases import services as purchases
from refit.purchases.reading import cg_definition, read_side
from refit.rules import purchase as rules
from refit.rules import purchase_costs as costs

# The limits a purchase made again would break, in words ("" when it breaks none).
Recheck = Callable[[CampaignEvent, dict[str, Any], RefitPhase], str]


def register(
    *,
    bought: str,
    taken_back: str,
    model: type,
    open_step: Callable[[Any, str], RefitPhase],
    recheck: Recheck,
) -> None:
    """Guard the undo of ``bought`` (it takes the purchase back) and of ``taken_back`` (it buys
    again) for purchases stored as ``model`` in a step that ``open_step`` opens or refuses."""
    label = model._meta.label_lower

    def row_of(event: CampaignEvent) -> dict[str, Any]:
        for step in event.data.get("undo", []):
            if step["model"] == label:
                return step["after"] or step["before"] or {}
        raise history.UndoError(_("That change cannot be undone."))

    def step_open(event: CampaignEvent, row: dict[str, Any]) -> RefitPhase:
        try:
            reph = open_step(event.campaign, row.get("side", ""))
        except StateError as error:
            raise history.UndoError(str(error)) from None
        if reph.index != row.get("index"):
            raise history.UndoError(
                _("Only purchases of the current Refit Phase can be undone; ask the referee.")
            )
        return reph

    def undo_purchase(event: CampaignEvent, overruled: bool) -> None:
        if not overruled:
            step_open(event, row_of(event))

    def undo_take_back(event: CampaignEvent, overruled: bool) -> None:
        if overruled:
            return
        row = row_of(event)
        reph = step_open(event, row)
        if (row.get("details") or {}).get("override"):
            return  # bought past a limit by the referee, whose reason stands with it
        refused = recheck(event, row, reph)
        if refused:
            raise history.UndoError(refused)

    history.UNDO_GUARDS[bought] = undo_purchase
    history.UNDO_GUARDS[taken_back] = undo_take_back


def _recheck_rg(event: CampaignEvent, row: dict[str, Any], reph: RefitPhase) -> str:
    campaign = event.campaign
    details = row.get("details") or {}
    options = costs.Options(
        placement=row.get("option") or costs.REINFORCEMENT,
        pre_registered_hexes=int(details.get("pre_registered_hexes") or 0),
        stuka_two_cpp=bool(details.get("stuka_two_cpp")),
        map_group=details.get("map_group", ""),
    )
    reading = read_side(campaign, row["side"], reph.index, lock=True)
    _price, reasons = rules.check(
        campaign.game.files["rg_charts"],
        cg_definition(campaign),
        reading.facts(reph),
        row["rg_id"],
        options,
    )
    # CPP are the books' check; every other refusal would refuse the purchase itself.
    return " ".join(purchases.reason_text(campaign, r) for r in reasons if r.code != "cpp")


register(
    bought="rg.purchased",
    taken_back="rg.purchase_removed",
    model=ReinforcementGroup,
    open_step=purchases.open_purchase_reph,
    recheck=_recheck_rg,
)
