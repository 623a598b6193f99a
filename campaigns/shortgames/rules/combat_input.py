"""What the combat helpers read from a player (pure, no Django): the units and strengths as typed
or printed, in the terms the rules' combat functions take.

Defiant Russia: "6a, 4m, 3o" is three units by strength with their letters (7.11, 9.0).
Cherkassy Pocket: a counter's printed line "6-8-12" gives its attack and defence (11.6), and a
total typed by hand is added to the units chosen. Every function raises ValueError for what
cannot be read; the forms turn that into the page's sentence.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

from campaigns.shortgames.rules.defiant_russia.combat import CombatUnit

# --- Defiant Russia ---------------------------------------------------------------------------

DR_ROLES = ("attacker", "defender")
DR_TERRAIN = ("clear", "rough", "forest", "swamp", "city", "major_city", "fortress")
DR_LEADERS = ("guderian", "stalin", "zhukov")
DR_MAX_UNITS = 12  # the most units the helper counts for one side of a combat

_UNIT_FLAGS = {
    "a": "armor",
    "m": "mountain",
    "o": "out_of_supply",
    "r": "river",
    "k": "kerch_strait",
    "c": "cavalry",
    "s": "shock",
}
_UNIT = re.compile(r"(\d{1,2})([amorkcs]*)")


def parse_combat_units(text: str, nationality: str) -> list[CombatUnit]:
    """ "6a, 4m, 3o" → units: a = armor, m = mountain, o = out of supply, r / k = attacking
    across a river / the Kerch Strait, c = cavalry, s = shock army (what may attack in
    breakthrough combat, 6.6). A Japanese comma separates units as well."""
    units = []
    for part in text.replace("、", ",").split(","):
        part = part.strip().lower()
        if not part:
            continue
        match = _UNIT.fullmatch(part)
        if not match:
            raise ValueError(part)
        flags = {_UNIT_FLAGS[flag] for flag in match.group(2)}
        across = (
            "river" if "river" in flags else "kerch_strait" if "kerch_strait" in flags else None
        )
        units.append(
            CombatUnit(
                strength=int(match.group(1)),
                armor="armor" in flags,
                nationality=nationality,
                mountain="mountain" in flags,
                across=across,
                out_of_supply="out_of_supply" in flags,
                cavalry="cavalry" in flags,
                shock="shock" in flags,
            )
        )
    if not units or len(units) > DR_MAX_UNITS:
        raise ValueError(text)
    return units


def air_points(value: str) -> int:
    """The air points typed for a combat (none when empty); more than one combat may use is
    refused by the rules (11.7), not cut here."""
    number = int(value or 0)
    if not 0 <= number <= 99:
        raise ValueError(value)
    return number


# --- Cherkassy Pocket -------------------------------------------------------------------------

CP_MAX_TYPED_STRENGTH = 200
_COUNTER_LINE = re.compile(r"^(\d{1,2})-(\d{1,2})(?:-(\d{1,2}))?$")


def cp_attack_defense(full: str, reduced: str, *, reduced_now: bool) -> tuple[int, int] | None:
    """The attack and defence a counter shows now: "6-8-12" (attack-defence-movement) on its
    full or reduced side; a two-number line gives its first number to both. None for a line
    without strengths (artillery, a line not entered)."""
    line = reduced if reduced_now and reduced else full
    match = _COUNTER_LINE.match(line or "")
    if not match:
        return None
    if match.group(3) is None:
        return int(match.group(1)), int(match.group(1))
    return int(match.group(1)), int(match.group(2))


def typed_strength(value: str) -> int:
    """A strength typed by hand, added to the units chosen: a whole number from 0 to 200, or
    nothing (0)."""
    value = (value or "").strip()
    if not value:
        return 0
    number = int(value)
    if not 0 <= number <= CP_MAX_TYPED_STRENGTH:
        raise ValueError(value)
    return number


def cp_totals(
    *,
    attack: int,
    defense: int,
    attackers: Iterable[int],
    defenders: Iterable[int],
    strengths: Mapping[int, tuple[int, int] | None],
) -> tuple[int, int]:
    """The attack and defence of a combat: what was typed plus the chosen units' printed
    strengths (a unit without strengths, or not on the map, adds nothing)."""
    attacking = [strengths.get(pk) for pk in attackers]
    defending = [strengths.get(pk) for pk in defenders]
    attack += sum(strength[0] for strength in attacking if strength)
    defense += sum(strength[1] for strength in defending if strength)
    return attack, defense
