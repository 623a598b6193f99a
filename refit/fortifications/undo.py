"""A fortification purchase or its take-back undone from the history: as an RG's
(refit.purchases.undo) — the fortification step open, and a purchase made again by an undo still
within the limits (minefield FPP per day, the booby-trap level …)."""

from __future__ import annotations

from dataclasses import fields
from typing import Any

from campaigns.models import CampaignEvent, FortificationPurchase, RefitPhase
from refit.fortifications import services as fortifications
from refit.purchases.undo import register
from refit.rules import fortification as rules

ORDER_FIELDS = {field.name for field in fields(rules.FortificationOrder)}


def _recheck(event: CampaignEvent, row: dict[str, Any], reph: RefitPhase) -> str:
    stored = (row.get("details") or {}).get("order") or {}
    order = rules.FortificationOrder(
        **{k: v for k, v in stored.items() if k in ORDER_FIELDS},
        item=row["item"],
        quantity=row["quantity"],
        hexes=row.get("hexes", ""),
    )
    campaign = event.campaign
    reading = fortifications.read_side(campaign, row["side"], lock=True)
    moment = fortifications.moment(campaign, row["side"], reph, reading)
    _total, reasons = rules.cost(campaign.game.files.get("tables", {}), moment, order)
    # FPP are the books' check; the Under Construction hexes were confirmed when bought.
    return " ".join(
        fortifications.reason_text(r) for r in reasons if r.code not in ("fpp", "hexes_unconfirmed")
    )


register(
    bought="fortification.purchased",
    taken_back="fortification.removed",
    model=FortificationPurchase,
    open_step=fortifications.open_fortification_reph,
    recheck=_recheck,
)
