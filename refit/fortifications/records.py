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

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Sum
from django.utils.translation import get_language, gettext_lazy
from django.utils.translation import gettext as _

from campaigns.games.registry import localized
from campaigns.models import Campaign, CvpEntry, FortificationPurchase
from campaigns.paging import LazyRows
from campaigns.records.cvp_counts import rules_for
from campaigns.roster.ledger import Movement, fpp_days
from refit.fortifications import services as fortifications
from refit.rules import fortification as rules


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
    initial: bool = False  # given in the initial OB (Fortified Building Locations), not bought


@dataclass(frozen=True)
class FortificationDay:
    index: int
    day: str
    available: int
    spent: int
    lost: int


@dataclass
class FortificationRecord:
    # One line per purchase, made when read (``LazyRows``): a page of the record makes its 50.
    lines: Sequence[FortificationLine] = field(default_factory=list)
    days: list[FortificationDay] = field(default_factory=list)
    # What is still to be placed, per item (the pencilled "Total #" boxes), as the form writes
    # it in the reader's language: "A-P 6", "squad 2, HS 2, crew 1, SMC 1", "1".
    totals: dict[str, str] = field(default_factory=dict)
    # The same boxes in the table's order with the item's name, for the page.
    pending: list[tuple[str, str]] = field(default_factory=list)
    # The booby-trap level in force for the current day's scenario (its purchases included);
    # "" for a side that has no booby traps.
    booby_trap_level: str = ""
    # The CVP Tally Box: CVP the side suffered per CG day (11.12), and the running total.
    cvp_by_day: list[tuple[str, int, int]] = field(default_factory=list)


def fortification_record(
    campaign: Campaign,
    side: str,
    reading: fortifications.SideReading | None = None,
    index: int | None = None,
) -> FortificationRecord:
    """The side's fortification purchases, FPP per day and CVP tally (from ``reading`` when the
    caller has read the side already); the booby-trap level is that of day ``index``'s scenario
    (default: the campaign's current day)."""
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

    def line(purchase: FortificationPurchase) -> FortificationLine:
        name = items.get(purchase.item, {}).get("name")
        initial = bool(purchase.details.get("initial"))
        return FortificationLine(
            pk=purchase.pk,
            index=purchase.index,
            day=_("Initial OB")
            if initial
            else (labels[purchase.index] if purchase.index < len(labels) else ""),
            item=purchase.item,
            name=localized(name, language) or item_words(purchase.item),
            detail=describe_order(purchase.details.get("order") or {}) or purchase.detail,
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
            initial=initial,
        )

    record.lines = LazyRows(reading.purchases, line)
    # The Total # boxes: every purchase not yet set up, summed per item and variant in SQL.
    pending = reading.pending
    record.totals = {
        item: ", ".join(total_words(key, n) for key, n in counts)
        for item, counts in rules.record_totals(pending).items()
    }
    record.pending = [
        (localized(item.get("name"), language) or item_words(item_id), record.totals[item_id])
        for item_id, item in items.items()
        if item_id in record.totals
    ]
    if any(
        item["id"] in fortifications.BOOBY_TRAP_ITEMS
        and fortifications.item_for_side(campaign, item, side)
        for item in items.values()
    ):
        day = min(campaign.period_index, len(periods) - 1) if index is None else index
        record.booby_trap_level = fortifications.booby_trap_level_in_force(
            campaign, side, day, reading
        )
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


# --- the data's keys in the reader's words ----------------------------------------------------

UNIT_WORDS = {
    "afv": gettext_lazy("AFV"),
    "vehicle": gettext_lazy("vehicle"),
    "squad": gettext_lazy("squad"),
    "hs": gettext_lazy("HS"),
    "crew": gettext_lazy("crew"),
    "smc": gettext_lazy("SMC"),
}
MINE_WORDS = {"ap": "A-P", "at": "A-T"}


def unit_words(unit: str) -> str:
    """A HIP unit type (``squad``, ``hs`` …) as the reader says it."""
    return str(UNIT_WORDS.get(unit, unit.upper()))


def belt_words(belt: str) -> str:
    """A Mine Belt key (``ap_6``) as the record writes it: "6-FP A-P" (ASL notation)."""
    kind, _sep, strength = belt.partition("_")
    return f"{strength}-FP {MINE_WORDS.get(kind, kind.upper())}" if strength else belt


def item_words(item: str) -> str:
    """An item id the table does not name (an old or imported purchase), made readable."""
    return item.replace("_", " ").replace("-", " ")


def total_words(key: str, n: int) -> str:
    """One part of a Total # box: "A-P 6" (factors), "squad 2", "2 × 6-FP A-P", "2 × 3S", "1"."""
    if key in MINE_WORDS:
        return f"{MINE_WORDS[key]} {n}"
    if key in UNIT_WORDS:
        return f"{unit_words(key)} {n}"
    if "_" in key:
        return f"{n} × {belt_words(key)}"
    if key:
        return f"{n} × {key}"
    return str(n)


def describe_order(order: Mapping[str, Any]) -> str:
    """The variant bought (the record's "Which"), from the purchase's order data, in the
    reader's language; ASL notation (3S, 6 FP, 1+2+3, A-P) stays as printed."""
    parts = []
    if order.get("size"):
        parts.append(f"{order['size']}S")
    if order.get("factors"):
        parts.append(f"{order['factors']} FP")
    if order.get("capacity") is not None:
        parts.append(f"{order['capacity']}+{order.get('ca_drm') or 0}+{order.get('nca_drm') or 0}")
    if order.get("unit"):
        parts.append(unit_words(str(order["unit"])))
    if order.get("belt"):
        parts.append(belt_words(str(order["belt"])))
    if order.get("connected"):
        parts.append(_("connected to an on-map trench"))
    if order.get("replaces_foxhole"):
        parts.append(_("replacing an on-map 3S foxhole"))
    if order.get("detonating_unit"):
        parts.append(_("DC: %(unit)s") % {"unit": str(order["detonating_unit"]).strip()})
    return ", ".join(parts)
