"""What an RG costs on the side's RG chart with the options chosen (RF 11.6194, SaP 11.6174),
and the chart data the purchase rules read.

Plain Python over the module's ``rg_charts.json``. No Django.

Red Factories: on-map +2 Soviet / +3 German for A-/I- RGs (free for the RGs the rule and note a
name), Reserve −1 for I- RGs, Soviet dug-in AFV at half cost rounded up; pre-registered hexes +1
each, at most 2 (note p); the Stuka for 2 CPP (note b).

Slaughter at Ponyri: on-map +1 Russian / +2 German for I/V RGs (free with note a and for the
Russian I4), Reserve ("C", cloaked) −1 for I RGs; neither in the Daytime RePh.

Which RGs may be bought now, and why not, is ``refit.rules.purchase``.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

RF = "red_factories"
SAP = "slaughter_at_ponyri"

# Placement options. The RG Purchase Record's on-board column shows their letter.
REINFORCEMENT = ""
ON_MAP = "on_map"
RESERVE = "reserve"
DUG_IN = "dug_in"
PLACEMENTS = (REINFORCEMENT, ON_MAP, RESERVE, DUG_IN)

RF_INITIAL_REPH = "before_initial"
SAP_DAYTIME_REPH = "daytime"


@dataclass(frozen=True)
class Options:
    placement: str = REINFORCEMENT
    pre_registered_hexes: int = 0
    stuka_two_cpp: bool = False
    map_group: str = ""


@dataclass(frozen=True)
class Price:
    base: int
    cost: int
    parts: tuple[tuple[str, int], ...]  # (what, CPP) — e.g. ("on_map", 3)


# --- the data --------------------------------------------------------------------------------


def chart_side(charts: Mapping[str, Any], side: str) -> Mapping[str, Any]:
    return charts.get("sides", {}).get(side, {})


def group_by_id(charts: Mapping[str, Any], side: str, rg_id: str) -> Mapping[str, Any] | None:
    return next((g for g in chart_side(charts, side).get("groups", []) if g["id"] == rg_id), None)


def note_restrictions(chart: Mapping[str, Any], letters: Sequence[str]) -> list[Mapping[str, Any]]:
    """The restrictions the chart's notes ``letters`` carry."""
    notes = chart.get("notes", {})
    return [r for letter in letters for r in notes.get(letter, {}).get("restrictions", [])]


def purchase_limits(module: str, charts: Mapping[str, Any], side: str) -> Mapping[str, Any]:
    """The chart's ``purchase_limits`` (RF: one for both sides; SaP: per side)."""
    if module == RF:
        return charts.get("purchase_limits", {})
    return chart_side(charts, side).get("purchase_limits", {})


def fpp_of(group: Mapping[str, Any]) -> int:
    """The FPP a fortification RG gives (SaP prints ``fpp``; RF only in the unit text)."""
    if group.get("fpp"):
        return int(group["fpp"])
    match = re.search(r"(\d+)\s*FPP", group.get("units", ""))
    return int(match.group(1)) if match else 0


# --- cost --------------------------------------------------------------------------------------


def placements_for(
    module: str, group: Mapping[str, Any], side: str, limits: Mapping[str, Any], reph_kind: str
) -> tuple[str, ...]:
    """The placements the rules offer for this RG (the first is always "reinforcement")."""
    rg_id = group["id"]
    offered = [REINFORCEMENT]
    if module == RF:
        if rg_id[:1] in limits.get("on_map_option", {}).get("applies_to_id_prefixes", ["A", "I"]):
            offered.append(ON_MAP)
        if rg_id[:1] in limits.get("reserve_option", {}).get("applies_to_id_prefixes", ["I"]):
            offered.append(RESERVE)
        dug_in = limits.get("dug_in_option", {})
        if side == dug_in.get("side") and rg_id[:1] in dug_in.get("applies_to_id_prefixes", []):
            offered.append(DUG_IN)
        return tuple(offered)
    if reph_kind == SAP_DAYTIME_REPH:
        return tuple(offered)  # 11.6174: no cost variations in the Daytime RePh
    if group.get("rg_class") in limits.get("on_map_surcharge", {}).get("rg_classes", []):
        offered.append(ON_MAP)
    if group.get("rg_class") in limits.get("reserve_discount", {}).get("rg_classes", []):
        offered.append(RESERVE)
    return tuple(offered)


def _rf_on_map_surcharge(
    group: Mapping[str, Any], side: str, limits: Mapping[str, Any], chart: Mapping[str, Any]
) -> int:
    option = limits.get("on_map_option", {})
    if group["id"] in option.get("free_rgs", {}).get(side, []):
        return 0
    if any(
        r.get("kind") == "no_on_map_surcharge" for r in note_restrictions(chart, group["notes"])
    ):
        return 0
    return int(option.get("surcharge", {}).get(side, 0))


def _sap_on_map_surcharge(group: Mapping[str, Any], limits: Mapping[str, Any]) -> int:
    option = limits.get("on_map_surcharge", {})
    if group["id"] in option.get("exempt_rgs", []):
        return 0
    if set(group.get("notes", [])) & set(option.get("exempt_notes", [])):
        return 0
    return int(option.get("cpp", 0))


def pre_registration(chart: Mapping[str, Any], group: Mapping[str, Any]) -> tuple[int, int]:
    """(CPP per pre-registered hex, most hexes) the RG's notes allow; (0, 0) when none."""
    for restriction in note_restrictions(chart, group.get("notes", [])):
        if restriction.get("kind") == "per_item_surcharge":
            return int(restriction["cpp"]), int(restriction["max_items"])
        if restriction.get("kind") == "pre_registered_hexes":
            return int(restriction["cpp_each"]), int(restriction["max_per_module"])
    return 0, 0


def alternative_cost(chart: Mapping[str, Any], group: Mapping[str, Any]) -> int | None:
    """The RG's second price (the RF Stuka's 2 CPP, note b); None when it has none."""
    letters = [*group.get("notes", []), *group.get("cost_notes", [])]
    for restriction in note_restrictions(chart, letters):
        if restriction.get("kind") == "alternative_cost":
            return int(restriction["cpp"])
    return None


def pre_registered_hex_limit(charts: Mapping[str, Any], side: str, group: Mapping[str, Any]) -> int:
    """How many pre-registered hexes may be bought with this RG (note p; 0 = none)."""
    return pre_registration(chart_side(charts, side), group)[1]


def has_alternative_cost(charts: Mapping[str, Any], side: str, group: Mapping[str, Any]) -> bool:
    """Whether the RG has a second price (the RF Stuka's 2 CPP, note b)."""
    return alternative_cost(chart_side(charts, side), group) is not None


def price(
    module: str,
    charts: Mapping[str, Any],
    side: str,
    group: Mapping[str, Any],
    options: Options,
) -> Price:
    """The CPP an RG costs with the options chosen (options the RG does not have are refused
    by ``refit.rules.purchase.check``, not here)."""
    chart = chart_side(charts, side)
    limits = purchase_limits(module, charts, side)
    base = int(group["cpp_cost"])
    parts: list[tuple[str, int]] = []
    cost = base
    if options.stuka_two_cpp:
        alternative = alternative_cost(chart, group)
        if alternative is not None:
            parts.append(("stuka_two_cpp", alternative - base))
            cost = alternative
    if options.placement == ON_MAP:
        surcharge = (
            _rf_on_map_surcharge(group, side, limits, chart)
            if module == RF
            else _sap_on_map_surcharge(group, limits)
        )
        parts.append((ON_MAP, surcharge))
        cost += surcharge
    elif options.placement == RESERVE:
        discount = (
            int(limits.get("reserve_option", {}).get("cost_change", -1))
            if module == RF
            else int(limits.get("reserve_discount", {}).get("cpp", -1))
        )
        parts.append((RESERVE, discount))
        cost += discount
    elif options.placement == DUG_IN:
        # 11.6194c: 50 %, fractions rounded up (A3: 5 → 3). The dug-in AFV sets up on the map,
        # so no on-map surcharge is added (rules decision, spec Q40).
        halved = math.ceil(cost / 2)
        parts.append((DUG_IN, halved - cost))
        cost = halved
    if options.pre_registered_hexes:
        each, _most = pre_registration(chart, group)
        parts.append(("pre_registered_hexes", each * options.pre_registered_hexes))
        cost += each * options.pre_registered_hexes
    return Price(base=base, cost=max(cost, 0), parts=tuple(parts))


def onboard_code(module: str, placement: str) -> str:
    """The RG Purchase Record's on-board letter: RF O / R (Reserve) / D (dug-in); SaP O / R
    (reinforcement) / C (cloaked Reserve)."""
    if module == RF:
        return {ON_MAP: "O", RESERVE: "R", DUG_IN: "D"}.get(placement, "")
    return {ON_MAP: "O", RESERVE: "C"}.get(placement, "R")
