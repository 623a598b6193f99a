"""What a Refit Phase roll's result does to the order-of-battle lines it concerns (RF / SaP).

Plain Python over plain data (no Django): an OB line is a ``Line``; a result is the dice table's
result row (``DiceRoll.result``); the answer is an ``Outcome``: a result key (rendered into words
by the caller, in the reader's language) and the ``LineChange``s to make. When the rules leave a
choice to the owner that the app cannot make (which squad type a half-squad becomes…), the
outcome says so in ``choose`` and changes nothing: the app never invents a unit type.

Tables, by family:

* wounded leader (RF 11.610, SaP 11.6111): one dr per wounded leader;
* leader battle hardening (11.6113): the table names a rating; that Retained infantry leader
  hardens, else the lowest-rated Retained unwounded one; Soviet 9-0 → 10-0 and 8-1 → 9-1;
* weapon repair (RF 11.6132, SaP 11.6132): one dr per malfunctioned weapon;
* AFV platoon withdrawal (RF 11.6142): one dr per platoon; withdrawn → every surviving
  non-isolated AFV of the platoon and its armor leader are eliminated;
* fortification removal (11.615): one dr per fortification type per Location;
* escape (11.6063): per unit, from the perimeter page.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

RETAINED = "retained"
CASUALTIES = "casualties"
WOUNDED = "wounded"
PENDING = "pending"

# The table families whose result lands on OB lines, by dice table id.
FAMILIES = {
    "rf.wounded-leader": "wounded_leader",
    "sap.wounded-leader": "wounded_leader",
    "rf.leader-battle-hardening-german": "leader_hardening",
    "rf.leader-battle-hardening-soviet": "leader_hardening",
    "sap.leader-battle-hardening-german": "leader_hardening",
    "sap.leader-battle-hardening-russian": "leader_hardening",
    "rf.weapon-repair": "repair",
    "sap.weapon-repair": "repair",
    "rf.afv-withdrawal": "afv_withdrawal",
    "rf.fortification-removal": "fortification_removal",
    "sap.fortification-removal": "fortification_removal",
}

# Families where the player names the line before rolling (leader hardening: the table does).
PICKED = {"wounded_leader", "repair", "afv_withdrawal", "fortification_removal"}

# The ASL leader ratings in order, lowest first (A18 leader counters; a Soviet 9-0 / 10-0
# commissar sits after the 8-1 / 9-2 of the same morale for "lowest-rated", see
# docs/rules-decisions.md).
RATING_ORDER = ("6+1", "7-0", "8-0", "8-1", "9-0", "9-1", "9-2", "10-0", "10-1", "10-2", "10-3")

# Battle hardening of a leader: the next leader counter of the ladder (A18.3 / A15.3).
PROMOTION = {
    "6+1": "7-0",
    "7-0": "8-0",
    "8-0": "8-1",
    "8-1": "9-1",
    "9-1": "9-2",
    "9-2": "10-2",
    "10-2": "10-3",
}
SOVIET_PROMOTION = {**PROMOTION, "9-0": "10-0", "8-1": "9-1"}  # footnotes * and †

RATING = re.compile(r"^(10|[5-9])[-+]\d")


@dataclass(frozen=True)
class Line:
    """An OB line as the rules see it."""

    id: int
    unit_type: str
    kind: str
    quantity: int = 1
    box: str = RETAINED
    statuses: tuple[str, ...] = ()
    origin_rg: str = ""

    @property
    def rating(self) -> str:
        match = RATING.match(self.unit_type)
        return match.group(0) if match else ""

    @property
    def is_armor_leader(self) -> bool:
        return "armor" in self.unit_type.casefold() or self.unit_type.startswith("+")


@dataclass(frozen=True)
class LineChange:
    """What happens to ``count`` counters of line ``line`` (the whole line when count equals
    its quantity, else that many are split off into a new line)."""

    line: int
    count: int = 1
    box: str | None = None
    unit_type: str | None = None
    add_statuses: tuple[str, ...] = ()
    remove_statuses: tuple[str, ...] = ()
    remove: bool = False  # the counters leave the order of battle


@dataclass(frozen=True)
class Outcome:
    key: str  # the result, as data: "leader_eliminated", "repaired", "withdrawn" …
    changes: tuple[LineChange, ...] = ()
    choose: str = ""  # a choice the owner must make by hand ("" = none)
    detail: Mapping[str, Any] = field(default_factory=dict)


class ResultError(ValueError):
    """The line cannot take this table's result; ``key`` says why (the caller words it)."""

    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


# --- which lines a table concerns -----------------------------------------------------------


def eligible(family: str, line: Line) -> bool:
    """May the player name ``line`` for a roll of ``family``?"""
    if family == "wounded_leader":
        return line.kind == "leader" and (line.box == WOUNDED or "wounded" in line.statuses)
    if family == "repair":
        return (
            line.kind in ("support_weapon", "vehicle_or_gun")
            and "captured" not in line.statuses
            and ("malfunctioned" in line.statuses or line.box == PENDING)
        )
    if family == "afv_withdrawal":
        return (
            line.kind == "vehicle_or_gun"
            and line.box in (RETAINED, PENDING)
            and "isolated" not in line.statuses
            and "dug_in" not in line.statuses
        )
    if family == "fortification_removal":
        return line.kind == "fortification" and line.box != CASUALTIES
    return False


def _one(line: Line, **change: Any) -> LineChange:
    return LineChange(line=line.id, count=1, **change)


# --- wounded leaders (RF 11.610, SaP 11.6111) -----------------------------------------------


def wounded_leader(line: Line, result: Mapping[str, Any]) -> Outcome:
    """dr ≤ 2: stays wounded and Retained (in the Wounded Leaders box); 3+: eliminated."""
    if not eligible("wounded_leader", line):
        raise ResultError("not_wounded_leader")
    eliminated = result.get("leader") == "eliminated" or result.get("eliminated") is True
    if eliminated:
        return Outcome("leader_eliminated", (_one(line, box=CASUALTIES),))
    if line.box == WOUNDED and "wounded" in line.statuses:
        return Outcome("leader_stays_wounded")
    return Outcome("leader_stays_wounded", (_one(line, box=WOUNDED, add_statuses=("wounded",)),))


# --- leader battle hardening (11.6113) ------------------------------------------------------


def promoted(unit_type: str, *, soviet: bool) -> str | None:
    """The leader counter ``unit_type`` hardens to ("8-0 leader" → "8-1 leader"), or None
    when the ladder has no next counter (10-3, or a rating the ladder does not hold)."""
    match = RATING.match(unit_type)
    if not match:
        return None
    ladder = SOVIET_PROMOTION if soviet else PROMOTION
    new = ladder.get(match.group(0))
    if new is None:
        return None
    return new + unit_type[match.end() :]


def _rank(rating: str) -> int:
    return RATING_ORDER.index(rating) if rating in RATING_ORDER else len(RATING_ORDER)


def hardening_leader(rating: str, lines: Iterable[Line]) -> Line | None:
    """The Retained infantry leader the table's ``rating`` battle hardens: one of that rating,
    else the lowest-rated Retained unwounded leader; None when no leader is Retained."""
    leaders = [
        line
        for line in lines
        if line.kind == "leader"
        and line.box == RETAINED
        and not line.is_armor_leader
        and "wounded" not in line.statuses
        and line.rating
    ]
    for line in leaders:
        if line.rating == rating:
            return line
    if not leaders:
        return None
    return min(leaders, key=lambda line: (_rank(line.rating), line.id))


def leader_hardening(result: Mapping[str, Any], lines: Iterable[Line], *, soviet: bool) -> Outcome:
    line = hardening_leader(str(result.get("leader", "")), list(lines))
    if line is None:
        return Outcome("no_leader")
    new = result.get("hardens_to") if result.get("leader") == line.rating else None
    if new:
        new = str(new) + line.unit_type[len(line.rating) :]
    else:
        new = promoted(line.unit_type, soviet=soviet)
    if new is None:
        return Outcome("leader_top", choose="leader_type", detail={"line": line.id})
    return Outcome(
        "leader_hardened",
        (_one(line, unit_type=new),),
        detail={"from": line.unit_type, "to": new, "line": line.id},
    )


# --- MMC battle hardening (11.6112) ---------------------------------------------------------

# A squad or half-squad type: what a battle-hardened MMC may become (the owner names it; the
# app does not know each nationality's next class, spec Q51).
MMC_TYPE = re.compile(r"^\d-\d-\d( (AE|sapper|assault engineer))?$", re.IGNORECASE)


def mmc_eligible(line: Line) -> bool:
    """A Retained infantry MMC, not a crew (11.6112) and not a hero."""
    folded = line.unit_type.casefold()
    return (
        line.kind == "infantry"
        and line.box == RETAINED
        and "crew" not in folded
        and "hero" not in folded
    )


def mmc_hardening(
    picks: Iterable[tuple[Line, int, str]], allowed: int, already: int = 0
) -> Outcome:
    """The MMC the owner chose to battle harden: ``picks`` are (line, how many, the type they
    become). Each becomes the type named; an Elite MMC (no type named) becomes Fanatic for the
    next scenario only. No more than the table's ``allowed`` in the RePh (``already`` done)."""
    changes = []
    total = 0
    for line, count, becomes in picks:
        if count == 0:
            continue
        if not mmc_eligible(line):
            raise ResultError("not_mmc")
        if not 1 <= count <= line.quantity:
            raise ResultError("count")
        if becomes and not MMC_TYPE.match(becomes):
            raise ResultError("not_mmc_type")
        total += count
        if becomes:
            changes.append(LineChange(line=line.id, count=count, unit_type=becomes))
        else:
            changes.append(LineChange(line=line.id, count=count, add_statuses=("fanatic",)))
    if not changes:
        raise ResultError("none_picked")
    if already + total > allowed:
        raise ResultError("too_many")
    return Outcome("mmc_hardened", tuple(changes), detail={"count": total})


# --- weapon repair (11.6132) ----------------------------------------------------------------


def repair(line: Line, result: Mapping[str, Any]) -> Outcome:
    """Repaired: back to Retained, no longer malfunctioned. Not repaired: a support weapon is
    eliminated; a vehicle's weapon is Disabled instead (the vehicle stays; a Recall when it is
    the MA is the owner's to mark, the app does not know which weapon it was)."""
    if not eligible("repair", line):
        raise ResultError("not_malfunctioned")
    if result.get("repaired"):
        box = RETAINED if line.box == PENDING else None
        return Outcome("repaired", (_one(line, box=box, remove_statuses=("malfunctioned",)),))
    if line.kind == "vehicle_or_gun":
        return Outcome(
            "weapon_disabled",
            (_one(line, add_statuses=("disabled",), remove_statuses=("malfunctioned",)),),
            choose="recall_if_ma",
        )
    return Outcome("weapon_eliminated", (_one(line, box=CASUALTIES),))


# --- AFV platoon withdrawal (RF 11.6142) ----------------------------------------------------


def afv_withdrawal(line: Line, lines: Iterable[Line], result: Mapping[str, Any]) -> Outcome:
    """Withdrawn: every surviving non-isolated AFV of the platoon (the lines from the same RG,
    abandoned or immobilized ones too) and any armor leader that entered with it go to the
    eliminated box. A line without its RG is the platoon alone."""
    if not eligible("afv_withdrawal", line):
        raise ResultError("not_afv")
    if not result.get("withdrawn"):
        return Outcome("afv_retained")
    platoon = [line]
    if line.origin_rg:
        platoon = [
            other
            for other in lines
            if other.origin_rg == line.origin_rg
            and other.box in (RETAINED, PENDING)
            and "isolated" not in other.statuses
            and (
                other.kind == "vehicle_or_gun" or (other.kind == "leader" and other.is_armor_leader)
            )
        ]
        if line.id not in {other.id for other in platoon}:
            platoon.insert(0, line)
    return Outcome(
        "withdrawn",
        tuple(LineChange(line=other.id, count=other.quantity, box=CASUALTIES) for other in platoon),
    )


# --- fortification removal (11.615) ---------------------------------------------------------


def fortification_removal(line: Line, result: Mapping[str, Any]) -> Outcome:
    """Removed: one counter of the line leaves the order of battle (a Known minefield takes
    every minefield of its Location with it: the owner names those lines; footnote *)."""
    if not eligible("fortification_removal", line):
        raise ResultError("not_fortification")
    if not result.get("removed"):
        return Outcome("no_effect")
    choose = "other_minefields" if "minefield" in line.unit_type.casefold() else ""
    return Outcome("fortification_removed", (_one(line, remove=True),), choose=choose)


# --- escapes (11.6063) ----------------------------------------------------------------------

ESCAPE_KEYS = ("escaped", "replaced", "casualty_reduced", "eliminated", "abandoned", "destroyed")


def escape(line: Line, outcome: str, count: int = 1) -> Outcome:
    """An escape roll's outcome for ``count`` units of ``line``: escaped → stays as it is;
    eliminated / destroyed → to the eliminated box; abandoned → the AFV stays on the map
    abandoned (its crew per the table); replaced / casualty reduced → the owner names the
    unit it becomes (the app does not know a unit's lower type), nothing changes here."""
    if outcome not in ESCAPE_KEYS:
        raise ResultError("unknown_escape")
    if not 1 <= count <= line.quantity:
        raise ResultError("count")
    if outcome in ("eliminated", "destroyed"):
        return Outcome(outcome, (LineChange(line=line.id, count=count, box=CASUALTIES),))
    if outcome == "abandoned":
        abandoned = LineChange(line=line.id, count=count, add_statuses=("abandoned",))
        return Outcome(outcome, (abandoned,))
    if outcome in ("replaced", "casualty_reduced"):
        return Outcome(outcome, choose="reduced_type")
    return Outcome(outcome)


def escape_outcome(result: Mapping[str, Any], column: str) -> str:
    """The key of an escape roll's result for one unit: RF's and SaP's result rows read alike."""
    cell = result.get(column) or {}
    if column == "mobile_afv":
        if cell.get("destroyed"):
            return "destroyed"
        if cell.get("abandoned"):
            return "abandoned"
        return "escaped"
    if cell.get("eliminated"):
        return "eliminated"
    if cell.get("casualty_reduced") or cell.get("casualty_reduction"):
        return "casualty_reduced"
    if cell.get("replaced") or cell.get("replacement"):
        return "replaced"
    return "escaped"


# --- applying changes to the lines (shared by the booking service and the tests) -------------


@dataclass(frozen=True)
class Applied:
    """A line after a change: its new values, and the part split off (if any)."""

    line: Line
    split: Line | None = None  # the counters that changed, when not the whole line
    removed: bool = False  # the whole line left the OB


def apply(line: Line, change: LineChange) -> Applied:
    """The line after ``change`` (``split`` has id 0: a new line)."""
    if not 1 <= change.count <= line.quantity:
        raise ResultError("count")
    statuses = [s for s in line.statuses if s not in change.remove_statuses]
    statuses += [s for s in change.add_statuses if s not in statuses]
    changed = Line(
        id=line.id,
        unit_type=change.unit_type or line.unit_type,
        kind=line.kind,
        quantity=change.count,
        box=change.box or line.box,
        statuses=tuple(statuses),
        origin_rg=line.origin_rg,
    )
    whole = change.count == line.quantity
    if change.remove:
        if whole:
            return Applied(line, removed=True)
        return Applied(_with_quantity(line, line.quantity - change.count))
    if whole:
        return Applied(changed)
    rest = _with_quantity(line, line.quantity - change.count)
    return Applied(rest, split=Line(**{**changed.__dict__, "id": 0}))


def _with_quantity(line: Line, quantity: int) -> Line:
    return Line(**{**line.__dict__, "quantity": quantity})
