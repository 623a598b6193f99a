"""What a SaP CG time frame brings each side (pure): SaP 11.5 CG-2 … CG-6 [seed 004 L646–778].

The data is ``campaign_games.json`` → ``time_frames[<period>].reinforcements[<side>]``: groups,
each with its entry (turn, edge, "regardless of Russian units"), its RGs (rolled like any RG in
11.618) and its units (Stavka AFVs, CG7.22; the dug-in T-34 M41s, CG7.23; the 9 July AM German
AFVs). A draw from the German Armor Reserve ("mobile AFVs from the German Armor Reserve") is not
an arrival: those AFVs are in the reserve already (CG7.21).

Numbers checked against the seed (tests/refit/rules/test_arrivals.py):
CG-2 German I1 ×2, I3 ×3, I6 ×1; CG-3 Russian (east) I2 ×4, T-34 M43 ×30, (south) I2 ×2,
KV-1 M42 ×11, KV-1 M42 with AAMG ×4; CG-4 Russian T-70 ×15, T-34 M43 ×5, Valentine VIII(b) ×10,
SU-152 ×2; CG-5 Russian T-34 M41 dug-in ×6 (+1 LMG each, CG7.23), German I1 ×3, I4 ×2,
PzKpfw III L ×3, PzKpfw IV F1 ×3, PzKpfw IV F2 ×3; CG-6 Russian I2 ×2 (turn 3+).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from campaigns.games.rules import Reason

RESERVE_DRAW = "armor_reserve_draw"
_TURN = re.compile(r"\bTurn (\d+) or later\b")
# CG-4.2 [L720]: 「少なくともソ連の AFV × 10 が南端を通って進入しなければならない」.
SOUTH_EDGE_MINIMUM = 10
# CG-3.1 / CG-3.2 / CG-4.1: the designated units enter on turn 2.
DESIGNATED_TURN = 2


@dataclass(frozen=True)
class ArrivingUnit:
    text: str  # the counter as printed ("T-34 M43", "KV-1 M42 (with AAMG)")
    count: int
    stavka: bool = False  # CG7.22: removed at the end of the time frame it entered
    dug_in: bool = False  # CG7.23: never mobile, BMG unusable, +1 LMG each


@dataclass(frozen=True)
class Arrival:
    """One OB group of a time frame's reinforcements."""

    period: str  # "CG-3"
    group: str  # "r1", "g2" …: the data's group key
    side: str
    turn: int | None  # the first game turn it may enter; None: it sets up (CG-5 dug-in T-34s)
    rgs: tuple[tuple[str, int], ...]  # (RG id, how many)
    units: tuple[ArrivingUnit, ...]

    @property
    def rg_count(self) -> int:
        return sum(n for _rg, n in self.rgs)

    @property
    def unit_count(self) -> int:
        return sum(unit.count for unit in self.units)


def entry_turn(entry: Mapping[str, Any]) -> int | None:
    """The first turn the group enters, read from its printed entry ("Turn 3 or later …");
    None when it sets up instead of entering."""
    found = _TURN.search(str(entry.get("en", "")))
    return int(found.group(1)) if found else None


def arrivals(time_frames: Mapping[str, Any], period: str, side: str) -> list[Arrival]:
    """The groups that arrive for ``side`` when time frame ``period`` opens (none for CG-1: its
    forces are the initial OB)."""
    frame = time_frames.get(period) or {}
    found = []
    for group in (frame.get("reinforcements") or {}).get(side) or []:
        units = tuple(
            ArrivingUnit(
                str(unit["text"]),
                int(unit["count"]),
                stavka=bool(unit.get("stavka")),
                dug_in=bool(unit.get("dug_in")),
            )
            for unit in group.get("units") or []
            if unit.get("kind") != RESERVE_DRAW and unit.get("count")
        )
        rgs = tuple((str(rg["rg"]), int(rg.get("count") or 1)) for rg in group.get("rgs") or [])
        if not rgs and not units:
            continue
        found.append(
            Arrival(
                period, str(group["group"]), side, entry_turn(group.get("entry") or {}), rgs, units
            )
        )
    return found


def dug_in_lmg(units: Iterable[ArrivingUnit]) -> int:
    """CG7.23 [L481]: the Russian may add 1 LMG to the OB for each T-34 M41 received dug in
    (「ソ連が受け取る T-34 M41 (だけ) 毎に… 1 個の LMG」)."""
    return sum(u.count for u in units if u.dug_in and u.text.startswith("T-34 M41"))


def designation_problems(
    arrivals_: Iterable[Arrival],
    *,
    turn_two: Mapping[str, int],
    south: int | None,
    south_rule: bool,
) -> list[Reason]:
    """What is wrong with the Russian's designations for a Stavka time frame.

    ``turn_two``: per unit text, how many are designated to enter on turn 2 (CG-3.1/3.2/4.1);
    ``south``: how many AFVs enter via the south edge (None: not yet said); ``south_rule``:
    CG-4.2 applies (at least 10 via the south edge)."""
    available: dict[str, int] = {}
    for arrival in arrivals_:
        for unit in arrival.units:
            available[unit.text] = available.get(unit.text, 0) + unit.count
        for rg, n in arrival.rgs:
            available[rg] = available.get(rg, 0) + n
    reasons = []
    for text, n in turn_two.items():
        if n < 0 or n > available.get(text, 0):
            reasons.append(
                Reason(
                    "designation_over",
                    "CG-3.1",
                    {"unit": text, "n": n, "max": available.get(text, 0)},
                )
            )
    afvs = sum(n for text, n in available.items() if not _is_rg(text))
    if south_rule:
        if south is None or south < SOUTH_EDGE_MINIMUM:
            reasons.append(
                Reason("south_edge_minimum", "CG-4.2", {"n": south, "min": SOUTH_EDGE_MINIMUM})
            )
        elif south > afvs:
            reasons.append(Reason("south_edge_over", "CG-4.2", {"n": south, "max": afvs}))
    return reasons


# CG7.22's exceptions: a captured Stavka AFV (11.6136) and a wreck in a terrain Blaze stay.
STAVKA_STAYS = frozenset({"captured", "blaze_wreck"})


def stavka_leaves(statuses: Iterable[str]) -> bool:
    """CG7.22 [L473]: an OB line of Stavka armor leaves the CG at the end of the time frame it
    entered (immobile ones and wrecks too), unless captured or a wreck in a terrain Blaze."""
    marks = set(statuses)
    return "stavka" in marks and not marks & STAVKA_STAYS


def _is_rg(text: str) -> bool:
    return bool(re.fullmatch(r"[A-Z]\d+", text))


# --- Where the time frame's arriving units go (issue 16) --------------------------------------

# SaP 11.2 "Retained" [L379]: every unit of the side's OB usable for set-up or entry in the coming
# time frame; units that do not set up on the map, or enter other than by set-up, are kept in the
# divider's "Retained" box. So the Stavka AFVs (entering per CG7/7.1 and the designations), the
# dug-in T-34 M41s and their LMG (set up inside the perimeter in 11.621) and the AFVs drawn from
# the German Armor Reserve all go there for 11.621. CG-5's German AFVs wait in the arriving box
# instead: those still there when 9 July AM ends were left off-map (CG-5.2).
CG5_2 = "CG-5.2"
TURN_TWO = "turn_two"  # an OB line's status: designated to enter on turn 2 (CG-3.1/3.2/4.1)


@dataclass(frozen=True)
class ArrivingLine:
    """What the placement reads of one OB line in the arriving box."""

    id: int
    text: str
    quantity: int
    kind: str = "vehicle_or_gun"


@dataclass(frozen=True)
class Placement:
    """A part of an arriving line going to the Retained box."""

    line: int
    count: int
    turn_two: bool  # designated to enter on turn 2 (CG-3.1/3.2/4.1)
    note: str  # the rule it enters by: the designation's ("CG-3.1") or the time frame's ("CG-3")


def waits_off_map(side: str, special_rules: Iterable[str]) -> bool:
    """CG-5.2 [L756]: the 9 July AM German group's AFVs stay awaiting entry; those left off-map
    at the end of the time frame join the German Armor Reserve."""
    return side == "german" and CG5_2 in set(special_rules)


def designation_rule(entry_text: str, special_rules: Iterable[str]) -> str | None:
    """The turn-2 designation rule a group enters by (CG-3.1 east, CG-3.2 south, CG-4.1), read
    from its printed entry; None when it has none."""
    for rule in special_rules:
        if rule in TURN_TWO_RULE_KEYS and rule in entry_text:
            return rule
    return None


TURN_TWO_RULE_KEYS = frozenset({"CG-3.1", "CG-3.2", "CG-4.1"})


def placements(
    lines: Iterable[ArrivingLine],
    *,
    turn_two: Mapping[str, int],
    rule_of: Mapping[str, str],
    period: str,
) -> list[Placement]:
    """Every arriving line to the Retained box; of each unit the designated number (``turn_two``,
    per unit text) split off to enter on turn 2 by its group's rule (``rule_of``, per unit text).
    Lines of one text are taken in order; a designation beyond the lines is ignored (the
    designation was checked against what arrives when it was recorded)."""
    left = {text: max(0, n) for text, n in turn_two.items()}
    found = []
    for line in lines:
        n = min(left.get(line.text, 0), line.quantity) if line.kind == "vehicle_or_gun" else 0
        if n:
            left[line.text] -= n
            found.append(Placement(line.id, n, True, rule_of.get(line.text, period)))
        if line.quantity - n:
            found.append(Placement(line.id, line.quantity - n, False, period))
    return found


def dug_in_refusal(before: Iterable[str], after: Iterable[str]) -> Reason | None:
    """CG7.23 [L481]: a dug-in AFV may never be made mobile: a line marked dug in keeps the
    mark (「埋設 AFV は決して走行可能にしてはならない」)."""
    if "dug_in" in set(before) and "dug_in" not in set(after):
        return Reason("dug_in_never_mobile", "CG7.23", {})
    return None
