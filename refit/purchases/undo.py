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

from django.db import models
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
        row = row_of(event)
        # A referee overruling is past the step's timing, and a purchase the referee made past
        # a limit keeps the reason it was made with; the limits are checked again otherwise.
        if not overruled:
            reph = step_open(event, row)
            if not (row.get("details") or {}).get("override"):
                refused = recheck(event, row, reph)
                if refused:
                    raise history.UndoError(refused)
        if _taken_again(model, row):
            # Its number went to a purchase made since (A6 #1 taken back, A6 bought again as
            # #1): putting it back would hold two of one number, whoever asks.
            raise history.UndoError(_("It was bought again since: take that purchase back first."))

    history.UNDO_GUARDS[bought] = undo_purchase
    history.UNDO_GUARDS[taken_back] = undo_take_back


def _taken_again(model: type, row: dict[str, Any]) -> bool:
    """Would putting ``row`` back break one of ``model``'s unique constraints?"""
    for constraint in model._meta.constraints:
        if not isinstance(constraint, models.UniqueConstraint) or constraint.condition:
            continue
        names = [model._meta.get_field(name).attname for name in constraint.fields]
        if names and all(name in row for name in names):
            same = model.objects.filter(**{name: row[name] for name in names})
            if same.exclude(pk=row.get(model._meta.pk.attname)).exists():
                return True
    return False


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
