"""An RG's life cycle (issue 15), as plain rules over plain data: no Django.

bought → rolled → awaiting entry → in the scenario → retained → … → withdrawn / eliminated /
expended. The statuses are the keys of ``campaigns.models.RgStatus``; the readings of the rules
are in docs/rules-decisions.md, "RG life cycle (issue 15)":

* **rolled**: the RG's rolls (RF 11.620, SaP 11.618) are made; an RG with nothing to roll (a
  Stuka, an FPP or sniper RG) goes straight on when its Refit Phase finishes.
* **awaiting entry**: its Refit Phase is over; it waits in its divider box (11.15) for a scenario.
* **in the scenario** (``on_map``): a scenario is being played on or after its CG day; every RG
  waiting or retained is at the player's disposal (11.6244 set-up, CG9 entry from off board).
* **retained**: the scenario is over and the RG was not eliminated, withdrawn or expended — an RG
  or part of one that did not enter stays usable (CG10), as do the survivors (11.6244).
* **expended**: the German air support (Stukas, RG type ``air``) after the scenario of its day,
  or at the end of its day when no scenario was played (RF RG chart note b, 11.602j, CG10's
  exception); an OBA RG the player marks used (an FFE:1 placed, CG10; the spec's default Q35).
* **withdrawn**: RF 11.6142 (an AFV platoon that has been on the map), SaP "Recalled" (CG10 of
  SaP; the Stavka specifics are issue 16's) — set by the player or the referee.
* **eliminated**: set by the player or the referee when nothing of the RG is left.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

BOUGHT = "bought"
ROLLED = "rolled"
AWAITING_ENTRY = "awaiting_entry"
ON_MAP = "on_map"
RETAINED = "retained"
WITHDRAWN = "withdrawn"
ELIMINATED = "eliminated"
EXPENDED = "expended"

STATUSES = (BOUGHT, ROLLED, AWAITING_ENTRY, ON_MAP, RETAINED, WITHDRAWN, ELIMINATED, EXPENDED)
# The RG has left the campaign: nothing of it comes back.
ENDED = frozenset({WITHDRAWN, ELIMINATED, EXPENDED})
# Not yet in any scenario: the divider keeps a box for it (11.15 "RG awaiting entry").
WAITING = frozenset({BOUGHT, ROLLED, AWAITING_ENTRY})
# What a player or the referee sets by hand; the others follow from the Refit Phases.
MANUAL = (WITHDRAWN, ELIMINATED, EXPENDED)

RF = "red_factories"
SAP = "slaughter_at_ponyri"
AIR = "air"
OBA = "oba"
AFV_PLATOON = "afv_platoon"
SCENARIO = "scenario"


@dataclass(frozen=True)
class Rg:
    """What the rules read of one RG."""

    status: str
    index: int  # the CG day (time frame) it was bought for, or 0 for the initial OB
    rg_type: str = ""  # the RG chart's type: "infantry_company", "afv_platoon", "oba", "air" …
    entered: bool = False  # it has been in a scenario at least once
    to_roll: bool = True  # it has rolls to make (or SaP units to receive) before it is complete


@dataclass(frozen=True)
class Phase:
    """A Refit Phase or a scenario (``kind == "scenario"``) of the campaign's walk."""

    kind: str
    index: int


def after_rolls(rg: Rg) -> str | None:
    """The status once the RG's rolls are made: bought → rolled (None: no change)."""
    return ROLLED if rg.status == BOUGHT else None


def on_finish(rg: Rg, finished: Phase, following: Phase | None) -> str | None:
    """The status the RG moves to when ``finished`` ends and ``following`` opens (None when the
    campaign game is over); None when it does not change."""
    status = rg.status
    if status in ENDED:
        return None
    # The Refit Phase it was bought in is over: it waits for its scenario.
    complete = status == ROLLED or (status == BOUGHT and not rg.to_roll)
    if finished.kind != SCENARIO and rg.index <= finished.index and complete:
        status = AWAITING_ENTRY
    if finished.kind == SCENARIO and status == ON_MAP:
        status = EXPENDED if rg.rg_type == AIR else RETAINED
    if (
        following is not None
        and following.kind == SCENARIO
        and status in (AWAITING_ENTRY, RETAINED)
        and rg.index <= following.index
    ):
        status = ON_MAP
    if (
        rg.rg_type == AIR
        and status in WAITING
        and status != BOUGHT
        and (following is None or following.index > rg.index)
    ):
        # A Stuka's day ended without a scenario (an Idle Day): it is lost (RF RG note b).
        status = EXPENDED
    return status if status != rg.status else None


def manual_targets(rg: Rg, module: str) -> list[str]:
    """The statuses a player or the referee may set this RG to now, in the rules' order."""
    if rg.status not in (ON_MAP, RETAINED):
        return []
    targets = []
    if module == SAP or (rg.rg_type == AFV_PLATOON and rg.entered):
        targets.append(WITHDRAWN)
    targets.append(ELIMINATED)
    if rg.rg_type == OBA:
        targets.append(EXPENDED)
    return targets


def why_not(rg: Rg, module: str, target: str) -> str | None:
    """Why ``target`` cannot be set by hand now, as a key for the caller's words; None if it can.

    ``"unknown"``: not a status; ``"automatic"``: the app sets it from the Refit Phases;
    ``"not_in_play"``: the RG has not been in a scenario or has left the campaign;
    ``"not_afv"``: RF withdraws only AFV platoons that have been on the map (11.6142);
    ``"not_oba"``: only an OBA RG is expended by hand (CG10).
    """
    if target not in STATUSES:
        return "unknown"
    if target not in MANUAL:
        return "automatic"
    if rg.status not in (ON_MAP, RETAINED):
        return "not_in_play"
    if target in manual_targets(rg, module):
        return None
    return "not_afv" if target == WITHDRAWN else "not_oba"


def replay(rg: Rg, walk: Sequence[Phase], finished: int) -> str:
    """The status the automatic rules give an RG over a campaign's walk: ``walk`` is every
    Refit Phase and scenario in order, the first ``finished`` of them over (the rest is the open
    one). Used for rows made before the life cycle existed (the data migration, older export
    files): the RG starts as ``rg.status`` at the first phase of its CG day."""
    current = rg
    for n, phase in enumerate(walk[:finished]):
        if phase.index < rg.index:
            continue
        following = walk[n + 1] if n + 1 < len(walk) else None
        moved = on_finish(current, phase, following)
        if moved is not None:
            current = Rg(moved, rg.index, rg.rg_type, rg.entered, rg.to_roll)
    if current.status in WAITING and rg.entered:
        return RETAINED  # it entered play (the flag set by hand or by an older app)
    return current.status


def legacy_status(
    *, rolled: bool, entered: bool, index: int, rg_type: str, walk: Iterable[Phase], finished: int
) -> str:
    """The status of an RG recorded before statuses: rolled (or not) at its Refit Phase, then
    the automatic rules replayed; its Refit Phase over, an RG that was never rolled counts as
    complete (it can no longer be rolled for)."""
    start = Rg(ROLLED if rolled else BOUGHT, index, rg_type, entered, to_roll=False)
    return replay(start, list(walk), finished)


def counts(statuses: Iterable[str]) -> dict[str, int]:
    """How many RGs in each status, every status present (0 for none)."""
    tally = dict.fromkeys(STATUSES, 0)
    for status in statuses:
        tally[status] = tally.get(status, 0) + 1
    return tally
