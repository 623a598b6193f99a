"""The German Armor Reserve of SaP (CG7.21, pure) [seed 004 L463–471, L618–628, L756].

* At the CG start it holds 48 AFVs: StuG III G ×21, StuH 42 ×9, StuPz IV ×6, PzJg Tiger ×6,
  Marder III(t) H ×6 (``campaign_games.json`` → ``german_armor_reserve.initial_pool``).
* It shrinks each time an AFV enters play, and AFVs retained off-map go back into it, those under
  repair (11.6131 e–f) included; the 9 July AM group's AFVs left off-map join it (CG-5.2).
* In 11.6132 every reserve AFV has its malfunctioned weapons repaired and is re-crewed.
* What may enter: in 7 July AM (CG-1) up to 20 StuG III G / StuH 42 / Marder III(t) H (group g3,
  L618–620) and up to 6 StuPz IV / PzJg Tiger (g4, L626–628); from 7 July PM on any mobile AFV
  (``ob_draws``). An immobile AFV or a wreck under repair is not mobile.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from campaigns.games.rules import Reason
from refit.rules.armor_leaders import PLATOON

IN_RESERVE = "reserve"
IN_PLAY = "in_play"
STATES = (IN_RESERVE, IN_PLAY)

# Repair states of a reserve AFV: "" ready; a malfunctioned weapon (repaired in 11.6132);
# immobilized / a wreck under repair (11.6131 e–f, not mobile).
READY = ""
MALFUNCTIONED = "malfunctioned"
IMMOBILIZED = "immobilized"
WRECK_UNDER_REPAIR = "wreck_under_repair"
REPAIRS = (READY, MALFUNCTIONED, IMMOBILIZED, WRECK_UNDER_REPAIR)
NOT_MOBILE = frozenset({IMMOBILIZED, WRECK_UNDER_REPAIR})

INITIAL = "initial"
CG5 = "cg5"  # CG-5.2: a 9 July AM AFV left off-map


@dataclass(frozen=True)
class Vehicle:
    serial: int
    vehicle_type: str
    state: str = IN_RESERVE
    repair: str = READY
    entered_index: int | None = None


def initial_pool(reserve: Mapping[str, Any]) -> list[tuple[str, int]]:
    """(type, how many) at the CG start, as printed."""
    return [(str(row["type"]), int(row["count"])) for row in reserve.get("initial_pool") or []]


def cg5_types(time_frames: Mapping[str, Any]) -> frozenset[str]:
    """The AFV types of CG-5's German group, which join the reserve when left off-map."""
    groups = ((time_frames.get("CG-5") or {}).get("reinforcements") or {}).get("german") or []
    return frozenset(
        str(unit["text"])
        for group in groups
        for unit in group.get("units") or []
        if unit.get("kind") != "armor_reserve_draw" and unit.get("count")
    )


def after_11_6132(repair: str) -> str:
    """11.6132: a reserve AFV's malfunctioned weapons are repaired automatically; immobilized
    AFVs and wrecks under repair wait for their own rolls (11.6131 e–f)."""
    return READY if repair == MALFUNCTIONED else repair


def _draws(reserve: Mapping[str, Any], period: str) -> list[Mapping[str, Any]]:
    return [d for d in reserve.get("ob_draws") or [] if d.get("period") == period]


def entry_refusals(
    reserve: Mapping[str, Any],
    period: str,
    index: int,
    chosen: Iterable[Vehicle],
    pool: Iterable[Vehicle],
) -> list[Reason]:
    """Why these reserve AFVs may not enter play in time frame ``period`` (index ``index``);
    empty when they may. ``pool`` is every vehicle of the reserve's record (to count those that
    already entered this time frame against the CG-1 limits)."""
    chosen = list(chosen)
    reasons = []
    for vehicle in chosen:
        if vehicle.state != IN_RESERVE:
            reasons.append(Reason("not_in_reserve", "CG7.21", {"serial": vehicle.serial}))
        elif vehicle.repair in NOT_MOBILE:
            reasons.append(Reason("not_mobile", "CG7.21", {"serial": vehicle.serial}))
    draws = _draws(reserve, period)
    if not draws:
        reasons.append(Reason("no_draw", "CG7.21", {"period": period}))
        return reasons
    limited = [d for d in draws if isinstance(d.get("types"), list)]
    if not limited:
        return reasons  # "any mobile AFV", no number
    chosen_serials = {v.serial for v in chosen}
    entered = [
        v
        for v in pool
        if v.state == IN_PLAY and v.entered_index == index and v.serial not in chosen_serials
    ]
    for vehicle in chosen:
        if not any(vehicle.vehicle_type in d["types"] for d in limited):
            reasons.append(
                Reason("type_not_allowed", "CG-1", {"type": vehicle.vehicle_type, "period": period})
            )
    for draw in limited:
        if draw.get("max") is None:
            continue
        n = sum(1 for v in [*entered, *chosen] if v.vehicle_type in draw["types"])
        if n > draw["max"]:
            reasons.append(
                Reason(
                    "over_max",
                    "CG-1",
                    {"n": n, "max": draw["max"], "types": ", ".join(draw["types"])},
                )
            )
    return reasons


def counts(vehicles: Iterable[Vehicle]) -> dict[str, dict[str, int]]:
    """type → {state: how many}, every state present."""
    tally: dict[str, dict[str, int]] = {}
    for vehicle in vehicles:
        row = tally.setdefault(vehicle.vehicle_type, dict.fromkeys(STATES, 0))
        row[vehicle.state] += 1
    return tally


def cg5_period(time_frames: Mapping[str, Any]) -> str | None:
    """The time frame whose German AFVs join the reserve when left off-map (CG-5.2)."""
    for period, frame in time_frames.items():
        if "CG-5.2" in (frame.get("special_rules") or []):
            return str(period)
    return None


def leader_carriers(
    results: Iterable[Mapping[str, Any]], joined: Mapping[str, int], period: str
) -> list[tuple[str, int, str]]:
    """CG9's armor leaders of ``period``'s platoons that follow their AFVs into the reserve:
    (type, which joined AFV of that type carries him (0-based), rating), for every platoon whose
    three AFVs all joined (``joined``: type → how many of that type joined, in the platoons'
    order). A platoon that partly joined keeps its leader in the OB."""
    found = []
    for result in results:
        if result.get("source") != period or not result.get("leader"):
            continue
        first = (int(result["n"]) - 1) * PLATOON
        if joined.get(str(result["type"]), 0) >= first + PLATOON:
            found.append((str(result["type"]), first, str(result["leader"])))
    return found
