"""Quick entry of order-of-battle lines at the table: "14 × 4-6-7", "9-1 leader", "2 x LMG",
"StuG III B of platoon A1#2". Rules over plain data (only Django's gettext for messages).

A unit type is accepted when it is an ASL infantry unit (4-6-7, 8-3-8 AE), a leader (9-1,
10-0 commissar, +1 armor leader), a support weapon, a fortification counter, or a vehicle or gun
named in this game's RG charts or initial OBs (a longer designation such as "StuG III B" matches
the chart's "StuG III").
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from django.utils.translation import gettext as _

INFANTRY = re.compile(r"^\d-\d-\d( (AE|sapper|assault engineer))?( hero)?$", re.IGNORECASE)
LEADER = re.compile(
    r"^((10|[5-9])[-+]\d|\+[1-3])( (leader|commissar|armor leader))?$", re.IGNORECASE
)
SUPPORT_WEAPONS = (
    "LMG",
    "MMG",
    "HMG",
    ".50cal HMG",
    ".50-cal HMG",
    "FT",
    "DC",
    "ATR",
    "PSK",
    "PIAT",
    "BAZ",
    "MOL-P",
    "ATMM",
    "radio",
    "field phone",
    "MTR",
)
MORTAR = re.compile(r"^\d{2,3}mm MTR$", re.IGNORECASE)
FORTIFICATIONS = (
    "foxhole",
    "trench",
    "A-T ditch",
    "A-P minefield",
    "A-T minefield",
    "minefield",
    "roadblock",
    "wire",
    "pillbox",
    "tunnel",
    "fortified building",
    "? counter",
    "Set DC",
    "booby trap",
    "cave",
    "entrenchment",
    "dummy",
)
QUANTITY = re.compile(r"^\s*(\d+)\s*(?:×|x|X|\*)\s*(.+)$")
ORIGIN = re.compile(r"^(.*?)\s+(?:of platoon|of|from RG|from)\s+([A-Z]\d+(?:#\d+)?)\s*$")


class UnitEntryError(ValueError):
    """The text cannot be read as OB lines; the message says why, for the user."""


@dataclass(frozen=True)
class UnitLine:
    quantity: int
    unit_type: str
    kind: str
    origin_rg: str = ""


def vehicle_and_gun_names(unit_texts: Iterable[str]) -> tuple[str, ...]:
    """The names a chart's "units" column gives, without counts and remarks."""
    names = set()
    for text in unit_texts:
        text = re.sub(r"\([^)]*\)", "", text)
        for part in re.split(r"[,;&]", text):
            name = re.sub(r"\s*[×x]\s*[\d/*]+.*$", "", part).strip()
            if name and not INFANTRY.match(name) and not re.search(r"\bFPP\b|\bOBA\b|SAN", name):
                names.add(name)
    return tuple(sorted(names, key=len, reverse=True))


def classify(unit_type: str, vehicles: tuple[str, ...]) -> str | None:
    """The kind of a unit type, or None when it is not one this game knows."""
    folded = unit_type.casefold()
    if INFANTRY.match(unit_type):
        return "infantry"
    if LEADER.match(unit_type):
        return "leader"
    if MORTAR.match(unit_type) or any(folded == sw.casefold() for sw in SUPPORT_WEAPONS):
        return "support_weapon"
    if any(folded == f.casefold() or folded.startswith(f.casefold() + " ") for f in FORTIFICATIONS):
        return "fortification"
    for name in vehicles:
        known = name.casefold()
        if folded == known or folded.startswith(known + " ") or folded.startswith(known + "("):
            return "vehicle_or_gun"
    return None


def parse_line(text: str, vehicles: tuple[str, ...]) -> UnitLine:
    text = " ".join(text.split())
    if not text:
        raise UnitEntryError(_("Enter a unit, e.g. “14 × 4-6-7”."))
    quantity = 1
    match = QUANTITY.match(text)
    if match:
        quantity, text = int(match.group(1)), match.group(2).strip()
    elif re.match(r"^-\s*\d", text):
        raise UnitEntryError(_("A quantity must be 1 or more."))
    if quantity < 1:
        raise UnitEntryError(_("A quantity must be 1 or more."))
    if quantity > 999:
        raise UnitEntryError(_("That is more counters than the game has."))
    origin = ""
    match = ORIGIN.match(text)
    if match:
        text, origin = match.group(1).strip(), match.group(2)
    if len(text) > 60:
        raise UnitEntryError(_("A unit type is at most 60 characters."))
    kind = classify(text, vehicles)
    if kind is None:
        raise UnitEntryError(
            _(
                "Unknown unit type “%(unit)s”: enter an infantry unit such as 4-6-7, a leader "
                "such as 9-1, a support weapon such as LMG, a fortification, or a vehicle or gun "
                "of this game's RG charts."
            )
            % {"unit": text}
        )
    return UnitLine(quantity=quantity, unit_type=text, kind=kind, origin_rg=origin)


def parse_entry(text: str, vehicles: tuple[str, ...]) -> list[UnitLine]:
    """Several lines at once, separated by new lines or semicolons."""
    parts = [part for part in re.split(r"[;\n]", text) if part.strip()]
    if not parts:
        raise UnitEntryError(_("Enter a unit, e.g. “14 × 4-6-7”."))
    return [parse_line(part, vehicles) for part in parts]
