"""Everything the fortification page of one side shows, from one reading of the side.

``fortification_situation(viewer, side)`` reads the open RePh, the side's marks, its FPP ledger
rows and purchases once (``services.read_side``), the booby-trap drops and the CVP tally, and
returns the FPP box, the Fortification Purchase Record and the table's lines with the fields
each item's form asks. The view adds the URLs and the form token and renders it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils.translation import get_language
from django.utils.translation import gettext as _

from campaigns.access import Viewer
from campaigns.games.registry import LocalizedText, localized
from campaigns.models import Campaign, RefitPhase
from refit.fortifications import services as fortifications
from refit.fortifications.records import (
    FortificationRecord,
    belt_words,
    fortification_record,
    unit_words,
)
from refit.rules.fortification import item_refusals
from refit.rules.purchase_costs import RF
from refit.walker import services as walker


@dataclass(frozen=True)
class ItemInputs:
    """Which variant fields an item's form shows (the rest stay out of the way)."""

    sizes: tuple[int, ...] = ()
    factors: bool = False
    pillbox: bool = False
    units: tuple[tuple[str, str], ...] = ()  # (value, words)
    belts: tuple[tuple[str, str], ...] = ()  # (value, words): ("ap_6", "6-FP A-P")
    trench_variants: bool = False
    detonating_unit: bool = False
    under_construction: bool = False


@dataclass(frozen=True)
class ItemRow:
    """One line of the Fortification Purchase Table the side may buy from."""

    item: dict
    name: str
    price: str
    inputs: ItemInputs
    flags: str
    # Why the item cannot be bought now (SSR I.2, CG-1.4 …), as sentences naming the rule;
    # ``offered``: the form is shown all the same (no refusal, or the referee may buy past it).
    refusals: tuple[str, ...] = ()
    offered: bool = True


@dataclass(frozen=True)
class FortificationSituation:
    reph: RefitPhase | None  # None: the campaign game is over
    rule: str  # the fortification step (RF 11.621, SaP 11.619)
    record: FortificationRecord
    can_edit: bool  # may write set-up Locations
    # The rest is about the open RePh (empty when there is none).
    day: LocalizedText | None = None
    in_reph: bool = False  # the open RePh has the fortification step
    step_done: bool = False  # the side has marked it: purchases are final
    can_buy: bool = False
    fpp: fortifications.FppState | None = None
    booby_trap_level: str = ""
    has_booby_traps: bool = False  # the side may buy booby traps at all
    items: tuple[ItemRow, ...] = ()


def fortification_situation(viewer: Viewer, side: str) -> FortificationSituation:
    """The fortification page of ``side`` as ``viewer`` sees it; the side's FPP ledger is read
    once, and the number of queries does not grow with the campaign."""
    campaign = viewer.campaign
    reading = fortifications.read_side(campaign, side)
    reph = walker.open_reph(campaign)
    rule = fortifications.fortification_rule(campaign)
    record = fortification_record(campaign, side, reading, reph.index if reph else None)
    can_edit = viewer.can_act_for_side(side)
    if reph is None:
        return FortificationSituation(reph=None, rule=rule, record=record, can_edit=can_edit)
    marks = walker.marked_rules(reph, side)
    in_reph = any(step.rule == rule for step in walker.steps(campaign, reph))
    can_buy = in_reph and viewer.can_act_for_side(side) and rule not in marks
    side_items = [
        item
        for item in fortifications.items(campaign)
        if fortifications.item_for_side(campaign, item, side)
    ]
    return FortificationSituation(
        reph=reph,
        rule=rule,
        record=record,
        can_edit=can_edit,
        day=campaign.cg.periods[reph.index].label,
        in_reph=in_reph,
        step_done=rule in marks,
        can_buy=can_buy,
        fpp=reading.fpp(reph.index),
        booby_trap_level=record.booby_trap_level,
        has_booby_traps=any(item["id"] in fortifications.BOOBY_TRAP_ITEMS for item in side_items),
        items=_item_rows(viewer, side, side_items, reph, reading) if can_buy else (),
    )


def _item_rows(
    viewer: Viewer,
    side: str,
    side_items: list[dict[str, Any]],
    reph: RefitPhase,
    reading: fortifications.SideReading,
) -> tuple[ItemRow, ...]:
    campaign = viewer.campaign
    table = fortifications.table(campaign)
    moment = fortifications.moment(campaign, side, reph, reading)
    rows = []
    for item in side_items:
        refusals = item_refusals(table, moment, item)
        flags = item.get("flags_printed") or item.get("type_marks") or []
        rows.append(
            ItemRow(
                item=item,
                name=localized(item.get("name"), get_language()),
                price=price_text(item, side),
                inputs=inputs_for(campaign, item, side),
                flags=" ".join(flag for flag in flags if flag in ("F", "I", "FI", "R", "T")),
                refusals=tuple(fortifications.reason_text(r) for r in refusals),
                offered=not refusals
                or (
                    viewer.can_overrule
                    and all(r.code in fortifications.OVERRIDABLE for r in refusals)
                ),
            )
        )
    return tuple(rows)


# --- what the purchase form of an item asks -------------------------------------------------


def inputs_for(campaign: Campaign, item: dict[str, Any], side: str) -> ItemInputs:
    cost = item.get("cost")
    by_size = {"3S": 3, "2S": 2, "1S": 1}
    sizes: tuple[int, ...] = ()
    units: tuple[str, ...] = ()
    belts: tuple[str, ...] = ()
    if "sizes" in item:
        sizes = tuple(s["squads"] for s in item["sizes"])
    elif isinstance(cost, dict) and set(cost) <= set(by_size):
        sizes = tuple(by_size[key] for key in cost)
    if "fpp_per_unit" in item:
        units = tuple(
            unit
            for unit in item["fpp_per_unit"]
            if unit != "afv" or side in item.get("afv_hip_sides", [])
        )
    elif item["id"] == "hip" and isinstance(cost, dict):
        units = tuple(cost)
    if item["id"].endswith("mine_belt") and isinstance(cost, dict):
        belts = tuple(cost)
    construction = fortifications.table(campaign).get("under_construction") or {}
    return ItemInputs(
        sizes=sizes,
        factors="fpp_per_factor" in item,
        pillbox="fpp_formula" in item or "cost_formula" in item,
        units=tuple((unit, unit_words(unit)) for unit in units),
        belts=tuple((belt, belt_words(belt)) for belt in belts),
        trench_variants=bool(item.get("variants")),
        detonating_unit=item["id"] in ("set-dc", "set_dc"),
        under_construction=campaign.module != RF
        and bool(item.get("under_construction_ok"))
        and side in construction.get("sides", []),
    )


def price_text(item: dict[str, Any], side: str) -> str:
    """The table's price of an item for ``side``, as printed ("3 / 2 / 1", "3 per factor")."""
    if "sizes" in item:
        return " / ".join(str(s["fpp"]) for s in item["sizes"])
    if "fpp_per_factor" in item:
        return _("%(fpp)s per factor") % {"fpp": item["fpp_per_factor"].get(side, "?")}
    formula = item.get("fpp_formula") or item.get("cost_formula")
    if formula:
        return f"(a + b + c) × {formula.get('multiplier')}"
    per_unit = item.get("fpp_per_unit") or (item.get("cost") if item["id"] == "hip" else None)
    if isinstance(per_unit, dict):
        return " / ".join(f"{unit_words(unit)} {fpp}" for unit, fpp in per_unit.items())
    cost = item.get("cost", item.get("fpp"))
    if isinstance(cost, dict):
        return " / ".join(str(value) for value in cost.values())
    text = str(cost)
    for variant in item.get("variants", []):
        text += f" / {variant['cost']}"
    return text
