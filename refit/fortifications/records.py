"""The Fortification Purchase Record (RF 11.621 / 12.3, SaP 11.619 / 11.3) of one side, as plain
rows.

Shared by the fortification page (refit.fortifications.situation) and the printed sheet
(rosters.builders.fortifications): keep the signature
``fortification_record(campaign, side) -> FortificationRecord`` stable. The page passes the
side's reading it already holds, so the FPP ledger is read once per request; the builder then
reads one query more (the CVP per day), whatever the size of the campaign. Access is not checked
here: callers go through campaigns.access first (the record is secret to the side and the
referee).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from django.db.models import Sum
from django.utils.translation import get_language

from campaigns.games.registry import localized
from campaigns.models import Campaign, CvpEntry
from campaigns.records.cvp_counts import rules_for
from campaigns.roster.ledger import Movement, fpp_days
from refit.fortifications import services as fortifications


@dataclass(frozen=True)
class FortificationLine:
    pk: int
    index: int
    day: str
    item: str  # the purchase table's item id
    name: str
    detail: str  # size, factors, unit type, detonating unit …
    quantity: int
    fpp: int
    under_construction: bool
    hexes: str  # SaP under construction: the recorded hexes
    location: str  # written at set-up
    version: int
    lost: bool = False  # Under Construction, a hex no longer qualified at placement
    placed_in: str = ""  # Under Construction: the time frame it is placed in (SaP 11.6191)


@dataclass(frozen=True)
class FortificationDay:
    index: int
    day: str
    available: int
    spent: int
    lost: int


@dataclass
class FortificationRecord:
    lines: list[FortificationLine] = field(default_factory=list)
    days: list[FortificationDay] = field(default_factory=list)
    # What is still to be placed, per item (the pencilled "Total #" boxes).
    totals: dict[str, int] = field(default_factory=dict)
    # The CVP Tally Box: CVP the side suffered per CG day (11.12), and the running total.
    cvp_by_day: list[tuple[str, int, int]] = field(default_factory=list)


def fortification_record(
    campaign: Campaign, side: str, reading: fortifications.SideReading | None = None
) -> FortificationRecord:
    """The side's fortification purchases, FPP per day and CVP tally (from ``reading`` when the
    caller has read the side already)."""
    if reading is None:
        reading = fortifications.read_side(campaign, side)
    periods = campaign.cg.periods
    language = get_language()
    labels = [period.label.in_language(language) for period in periods]
    movements = [Movement(*row) for row in reading.fpp_rows]
    record = FortificationRecord()
    for day in fpp_days(len(periods), movements):
        if day.available or day.spent:
            record.days.append(
                FortificationDay(day.index, labels[day.index], day.available, day.spent, day.lost)
            )
    items = {item["id"]: item for item in fortification_items(campaign)}
    totals: Counter[str] = Counter()
    for purchase in reading.purchases:
        name = items.get(purchase.item, {}).get("name")
        record.lines.append(
            FortificationLine(
                pk=purchase.pk,
                index=purchase.index,
                day=labels[purchase.index] if purchase.index < len(labels) else "",
                item=purchase.item,
                name=localized(name, language) or purchase.item,
                detail=purchase.detail,
                quantity=purchase.quantity,
                fpp=purchase.fpp,
                under_construction=purchase.under_construction,
                hexes=purchase.hexes,
                location=purchase.location,
                version=purchase.version,
                lost=bool(purchase.details.get("lost")),
                placed_in=labels[purchase.index + 1]
                if purchase.under_construction and purchase.index + 1 < len(labels)
                else "",
            )
        )
        if not purchase.location and not purchase.details.get("lost"):
            totals[purchase.item] += purchase.quantity
    record.totals = dict(totals)
    tallied = CvpEntry.objects.filter(campaign=campaign, side=side, no_cvp=False)
    if not rules_for(campaign.module).uncontrolled_exits_add_cvp:
        tallied = tallied.exclude(exited_uncontrolled=True)  # SaP CG11: no CVP
    cvp = dict(tallied.values("index").annotate(total=Sum("cvp")).values_list("index", "total"))
    running = 0
    for index, label in enumerate(labels):
        if index in cvp:
            running += cvp[index]
            record.cvp_by_day.append((label, cvp[index], running))
    return record


def fortification_items(campaign: Campaign) -> list[dict]:
    """Every item of the module's Fortification Purchase Table, in the table's order."""
    return fortifications.items(campaign)
