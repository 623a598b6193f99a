"""SaP CG9's armor-leader rolls before the CG (pure) [seed 004 L471, L473, L487–504].

Before the CG starts, the German rolls once per AFV platoon of the German Armor Reserve and of
the 9 July AM AFVs (CG7.21); the Russian once per platoon of the Stavka AFVs (8 July AM and PM)
and of the 9 July AM dug-in T-34 M41s (CG7.22). An AFV platoon is 3 (FRD) AFVs of identical type,
ignoring AAMG; in 8 July PM the SU-152s count as Valentines. DRMs: German −1, StuG III G /
StuH 42 −2, dug-in +1 (the table's modifiers).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

PLATOON = 3
STUG = ("StuG III G", "StuH 42")
AAMG = " (with AAMG)"
DUG_IN = " (dug-in)"


@dataclass(frozen=True)
class Platoon:
    """One roll: ``n``-th platoon of ``vehicle_type`` (from 1), where its vehicles come from."""

    source: str  # "reserve", or the time frame of arrival ("CG-3", "CG-4", "CG-5")
    vehicle_type: str
    n: int
    dug_in: bool = False


def platoon_type(text: str, period: str) -> str:
    """The type a vehicle counts as for platoons: AAMG ignored, "(dug-in)" dropped, SU-152 as a
    Valentine in 8 July PM (CG9's exception; the OB prints Valentine VIII(b))."""
    name = text.replace(AAMG, "").replace(DUG_IN, "")
    if period == "CG-4" and name == "SU-152":
        return "Valentine VIII(b)"
    return name


def platoons(vehicles: Iterable[tuple[str, int]], source: str, *, dug_in: bool = False) -> list:
    """(type, how many) → one Platoon per 3 identical AFVs, rounded down, in the given order."""
    counts: dict[str, int] = {}
    for text, count in vehicles:
        name = platoon_type(text, source)
        counts[name] = counts.get(name, 0) + count
    return [
        Platoon(source, name, n, dug_in)
        for name, count in counts.items()
        for n in range(1, count // PLATOON + 1)
    ]


def drm_ids(side: str, platoon: Platoon) -> list[str]:
    """The table's modifier ids that apply (``sap.armor-leader``)."""
    ids = []
    if side == "german":
        if platoon.vehicle_type in STUG:
            ids.append("stug")
        ids.append("german")
    if platoon.dug_in:
        ids.append("dug-in")
    return ids


def to_roll(cg: Mapping[str, Any], side: str) -> list[Platoon]:
    """Every platoon ``side`` rolls for before the CG, from the CG definition."""
    frames = cg.get("time_frames") or {}
    found: list[Platoon] = []
    if side == "german":
        pool = (cg.get("german_armor_reserve") or {}).get("initial_pool") or []
        found += platoons(((row["type"], row["count"]) for row in pool), "reserve")
    for period, frame in frames.items():
        for group in (frame.get("reinforcements") or {}).get(side) or []:
            units = [
                u
                for u in group.get("units") or []
                if u.get("kind") != "armor_reserve_draw" and u.get("count")
            ]
            if side == "german" and period != "CG-5":
                continue
            if side == "russian" and not any(u.get("stavka") or u.get("dug_in") for u in units):
                continue
            dug_in = any(u.get("dug_in") for u in units)
            found += platoons(((u["text"], u["count"]) for u in units), period, dug_in=dug_in)
    return found
