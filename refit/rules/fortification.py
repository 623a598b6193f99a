"""Fortification purchase costs (RF 11.621, SaP 11.619 / 11.6191): plain Python over the
module's purchase table (the ``tables.json`` chart of kind ``purchase_costs`` or
``fortification_costs``).

RF footnotes: foxholes 3/2/1 by capacity; minefields per factor (German 1 / 3, Soviet 3 / 9) and
no more than 90 FPP of them per CG day (spec Q16); pillbox (capacity + CA + NCA) × 3; HIP per
unit type (AFV only for the Soviet); booby traps raise the level one step (C → B → A); a Set DC
names its detonating unit; "R" items are Soviet only; RB CG I/III's initial RePh lets the German
buy only "?" (SSR I.2). The seed has no trench discount and no minefield doubling.
SaP: the trench variants (5 connected, 4 replacing a 3S foxhole), Mine Belts by strength
(doubled for 12 A-P / 4 A-T), pillbox × 1.5 FRU (halved in 7 July AM, FRU), Russian-only items,
Under Construction at 50 % FRU per item with recorded hexes (Russian only), no Hidden Mine Belts
in the Daytime RePh, the German buys only "?" in 7 July AM.
The HIP 10 % limit concerns set-up (how many squads set up on the map) and is checked there.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from campaigns.games.rules import Reason
from refit.rules.purchase_costs import RF, RF_INITIAL_REPH, SAP_DAYTIME_REPH

RF_MINEFIELD_DAY_CAP = 90
BOOBY_TRAP_LEVELS = ("C", "B", "A")


@dataclass(frozen=True)
class FortificationOrder:
    item: str
    quantity: int = 1
    size: int | None = None  # foxhole capacity in squads
    factors: int | None = None  # RF minefield factors
    capacity: int | None = None  # pillbox
    ca_drm: int | None = None
    nca_drm: int | None = None
    unit: str = ""  # HIP: afv/vehicle, squad, hs, crew, smc
    connected: bool = False  # SaP trench next to an on-map trench
    replaces_foxhole: bool = False  # SaP trench replacing a 3S foxhole
    belt: str = ""  # SaP Mine Belt: ap_6, at_2, ap_12, at_4
    detonating_unit: str = ""
    under_construction: bool = False
    hexes: str = ""


@dataclass(frozen=True)
class Moment:
    module: str
    side: str
    cg: str
    period_key: str
    reph_kind: str
    ssr_effects: Sequence[Mapping[str, Any]] = ()  # RF: the CG's SSR effects for this side
    minefield_fpp_today: int = 0
    booby_trap_level: str = "C"
    booby_traps_today: int = 0


def purchase_table(tables: Mapping[str, Any]) -> Mapping[str, Any]:
    kinds = ("purchase_costs", "fortification_costs")
    return next((c for c in tables.get("charts", []) if c.get("kind") in kinds), {})


def _item(table: Mapping[str, Any], item_id: str) -> Mapping[str, Any] | None:
    return next((i for i in table.get("items", []) if i["id"] == item_id), None)


def _rf_unit_cost(item: Mapping[str, Any], order: FortificationOrder, side: str) -> int | None:
    item_id = item["id"]
    if "sizes" in item:
        by_size = {s["squads"]: s["fpp"] for s in item["sizes"]}
        return by_size.get(order.size or 0)
    if "fpp_per_factor" in item:
        return None if not order.factors else item["fpp_per_factor"][side] * order.factors
    if "fpp_formula" in item:
        terms = (order.capacity, order.ca_drm, order.nca_drm)
        if any(term is None for term in terms):
            return None
        return sum(terms) * item["fpp_formula"]["multiplier"]  # type: ignore[arg-type]
    if "fpp_per_unit" in item:
        return item["fpp_per_unit"].get(order.unit)
    del item_id
    return item.get("fpp")


def _sap_unit_cost(
    item: Mapping[str, Any], order: FortificationOrder, moment: Moment, table: Mapping[str, Any]
) -> int | None:
    cost = item.get("cost")
    if item["id"] == "trench":
        variants = {v["id"]: v["cost"] for v in item.get("variants", [])}
        if order.replaces_foxhole:
            return variants.get("replaces_3s_foxhole", cost)
        if order.connected:
            return variants.get("connected", cost)
        return cost
    if item["id"] == "pillbox":
        terms = (order.capacity, order.ca_drm, order.nca_drm)
        if any(term is None for term in terms):
            return None
        formula = item["cost_formula"]
        value = math.ceil(sum(terms) * formula["multiplier"])  # type: ignore[arg-type]
        halved = table.get("period_rules", {}).get(moment.period_key, {})
        if halved.get("pillbox_cost_multiplier"):
            value = math.ceil(value * halved["pillbox_cost_multiplier"])  # FRU (rules decision)
        return value
    if isinstance(cost, dict):
        key = order.belt or ({1: "1S", 2: "2S", 3: "3S"}.get(order.size or 0, "")) or order.unit
        return cost.get(key)
    return cost


def item_refusals(
    table: Mapping[str, Any], moment: Moment, item: Mapping[str, Any]
) -> list[Reason]:
    """Why ``item`` of the purchase ``table`` cannot be bought at all at ``moment``, whatever
    its size, variant or quantity: another side's item (RF "R", SaP ``sides``), only "?" in
    RB CG I/III's initial RePh (SSR I.2) or SaP's 7 July AM (CG-1.4), no Hidden Mine Belts in
    a SaP Daytime RePh. ``cost`` judges every order on it; the page shows it before the form."""
    rule = table.get("rule", "11.621")
    side = moment.side
    reasons: list[Reason] = []
    if moment.module == RF:
        only = [e for e in moment.ssr_effects if e.get("kind") == "fortifications_only"]
        if moment.reph_kind == RF_INITIAL_REPH and only:
            allowed = {"?": "concealment"}
            if item["id"] not in {allowed.get(i, i) for i in only[0].get("items", [])}:
                reasons.append(Reason("only_concealment", "SSR I.2", {}))
        sides = table.get("flags", {}).get("R", {}).get("sides", [])
        if "R" in item.get("flags", []) and side not in sides:
            reasons.append(Reason("soviet_only", rule, {}))
        return reasons
    if side not in item.get("sides", []):
        reasons.append(Reason("soviet_only", rule, {}))
    period = table.get("period_rules", {}).get(moment.period_key, {})
    allowed = period.get(f"{side}_allowed_items")
    if allowed is not None and item["id"] not in allowed:
        reasons.append(Reason("only_concealment", "CG-1.4", {}))
    daytime = table.get("daytime_reph", {})
    if (
        moment.reph_kind == SAP_DAYTIME_REPH
        and item["id"] == "hidden_mine_belt"
        and daytime.get("hidden_mine_belt_purchase") is False
    ):
        reasons.append(Reason("no_hidden_belts_daytime", rule, {}))
    return reasons


def cost(
    tables: Mapping[str, Any], moment: Moment, order: FortificationOrder
) -> tuple[int | None, list[Reason]]:
    """The FPP an order costs (all its items), and every rule it breaks."""
    table = purchase_table(tables)
    rule = table.get("rule", "11.621")
    item = _item(table, order.item)
    if item is None:
        return None, [Reason("unknown_fortification", rule, {"item": order.item})]
    reasons: list[Reason] = []
    if order.quantity < 1:
        reasons.append(Reason("quantity", rule, {}))
    module, side = moment.module, moment.side
    if module == RF:
        reasons += item_refusals(table, moment, item)
        if (
            order.item == "hip"
            and order.unit == "afv"
            and side not in item.get("afv_hip_sides", [])
        ):
            reasons.append(Reason("hip_afv_soviet_only", rule, {}))
        each = _rf_unit_cost(item, order, side)
    else:
        reasons += item_refusals(table, moment, item)
        each = _sap_unit_cost(item, order, moment, table)
    if each is None:
        return None, [*reasons, Reason("choose_variant", rule, {})]
    if order.under_construction:
        construction = table.get("under_construction") or {}
        if module == RF or side not in construction.get("sides", []):
            reasons.append(Reason("no_under_construction", construction.get("rule", rule), {}))
        elif not item.get("under_construction_ok"):
            reasons.append(Reason("no_under_construction", construction["rule"], {}))
        elif not order.hexes.strip():
            reasons.append(Reason("hexes_needed", construction["rule"], {}))
        each = math.ceil(each * construction.get("cost", {}).get("fraction", 0.5))
    if order.item in ("set-dc", "set_dc") and not order.detonating_unit.strip():
        reasons.append(Reason("detonating_unit", rule, {}))
    total = each * max(order.quantity, 0)
    minefield = module == RF and order.item in ("ap-minefield", "at-minefield")
    if minefield and moment.minefield_fpp_today + total > RF_MINEFIELD_DAY_CAP:
        reasons.append(
            Reason(
                "minefield_cap",
                rule,
                {"max": RF_MINEFIELD_DAY_CAP, "spent": moment.minefield_fpp_today},
            )
        )
    if order.item in ("booby-trap", "booby_trap"):
        level = BOOBY_TRAP_LEVELS.index(moment.booby_trap_level)
        if level + moment.booby_traps_today + order.quantity > len(BOOBY_TRAP_LEVELS) - 1:
            reasons.append(Reason("booby_trap_max", rule, {}))
    return total, reasons


def booby_trap_level_after(level: str, increases: int) -> str:
    """C → B → A, one step per purchase."""
    index = min(BOOBY_TRAP_LEVELS.index(level) + increases, len(BOOBY_TRAP_LEVELS) - 1)
    return BOOBY_TRAP_LEVELS[index]


def booby_trap_level(changes: Sequence[tuple[int, int]], before_index: int) -> str:
    """The booby-trap level with every change that holds by CG day / time frame
    ``before_index``.

    ``changes`` are (index from which it holds, +1 per level bought / −1 per 11.6123 drop);
    the level starts at C (RF15, SaP8), never falls below C nor rises above A. On one day the
    drop (11.6123, early in the RePh) comes before that day's purchases (11.621 / SaP 11.619).
    Passed the day's own purchases, it is the level in force for that day's scenario; without
    them, the level the day's purchases start from.
    """
    level = 0
    for index, change in sorted(changes):
        if index <= before_index:
            level = max(0, min(level + change, len(BOOBY_TRAP_LEVELS) - 1))
    return BOOBY_TRAP_LEVELS[level]


# --- the grey "Total #" boxes of the Fortification Purchase Record ----------------------------

MINEFIELD_KINDS = {"ap-minefield": "ap", "at-minefield": "at"}
HIP_UNITS = ("afv", "vehicle", "squad", "hs", "crew", "smc")


@dataclass(frozen=True)
class Pending:
    """Items bought and not yet set up: ``quantity`` × ``item`` with the purchase's order data
    (``factors``, ``unit``, ``belt``, ``size`` as the purchase stored them)."""

    item: str
    quantity: int
    order: Mapping[str, Any]


def record_totals(pending: Sequence[Pending]) -> dict[str, tuple[tuple[str, int], ...]]:
    """What each column's grey Total # box holds (RF 11.621, its example; SaP 11.619).

    A minefield column holds its total factors by kind — one 6-factor A-P minefield is written
    "A-P 6", so two of them are ("ap", 12). HIP is counted per unit type, apart ("squad" 2,
    "hs" 2, "crew" 1, "smc" 1), in the table's order. SaP Mine Belts are counted per belt
    ("ap_6" 2), foxholes per size ("3S" 1); any other column holds a plain count under "".
    """
    totals: dict[str, dict[str, int]] = {}
    for line in pending:
        counts = totals.setdefault(line.item, {})
        order = line.order
        if line.item in MINEFIELD_KINDS and order.get("factors"):
            key = MINEFIELD_KINDS[line.item]
            counts[key] = counts.get(key, 0) + int(order.get("factors") or 0) * line.quantity
            continue
        if order.get("unit"):
            key = str(order["unit"])
        elif order.get("belt"):
            key = str(order["belt"])
        elif order.get("size"):
            key = f"{order['size']}S"
        else:
            key = ""
        counts[key] = counts.get(key, 0) + line.quantity
    ranked = {unit: n for n, unit in enumerate(HIP_UNITS)}
    return {
        item: tuple(
            sorted(
                ((key, n) for key, n in counts.items() if n),
                key=lambda pair: (ranked.get(pair[0], len(ranked)), pair[0]),
            )
        )
        for item, counts in totals.items()
        if any(counts.values())
    }


def order_detail(order: FortificationOrder) -> str:
    """The variant bought, as the Fortification Purchase Record writes it (not translated:
    ASL notation)."""
    parts = []
    if order.size:
        parts.append(f"{order.size}S")
    if order.factors:
        parts.append(f"{order.factors} FP")
    if order.capacity is not None:
        parts.append(f"{order.capacity}+{order.ca_drm or 0}+{order.nca_drm or 0}")
    if order.unit:
        parts.append(order.unit.upper() if order.unit in ("afv", "hs", "smc") else order.unit)
    if order.belt:
        kind, strength = order.belt.split("_", 1)
        parts.append(f"{strength}-FP {'A-P' if kind == 'ap' else 'A-T'}")
    if order.connected:
        parts.append("connected")
    if order.replaces_foxhole:
        parts.append("replaces 3S")
    if order.detonating_unit:
        parts.append(f"DC: {order.detonating_unit.strip()}")
    return ", ".join(parts)
