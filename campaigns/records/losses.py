"""What happened to an OB line at a scenario's end, and the CVP it is worth (pure; RF/SaP 11.12,
11.6031, RF CG13, SaP CG11, ASL A26.2).

Each outcome says where the line goes on the Chapter O divider (11.15), whether it is a loss
worth CVP, and what flag its CVP entry carries:

- ``eliminated``: to the Casualties box, its CVP counted (11.12);
- ``captured``: a prisoner, to the Casualties box, its CVP counted; the status "captured" kept
  for the RePh's prisoner step (11.608);
- ``wreck``: an AFV wrecked, to the Casualties box, its CVP counted, the counter staying on the
  map ("stays on the map", 11.12);
- ``exited_uncontrolled``: exited from a hex its side did not control (RF CG13 / SaP CG11):
  eliminated; RF counts its CVP for victory only, SaP not at all (cvp_counts);
- ``wounded``: a wounded leader, to the Wounded leaders box (11.610): no CVP;
- ``immobilized`` / ``abandoned``: an AFV's status for the RePh (11.613, 11.614): it stays where
  it is, no CVP.

The CVP a unit is worth is ASL's (A26.2), not in the module's rules: the app knows it only for
what it can tell from the unit's type — a squad 2, a half-squad or crew 1 (the game's RG charts
name which types are half-squads and crews), a leader 1 plus its negative leadership modifier.
Anything else (vehicles, Guns, heroes, commissars, armor leaders, weapons) the player types.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True)
class Outcome:
    key: str
    box: str  # the divider box the line goes to ("" = it stays where it is)
    loss: bool  # worth CVP (a CVP entry is made)
    status: str = ""  # a status the line gains
    manual: bool = False  # the counter stays on the map (a wreck)
    exited_uncontrolled: bool = False


CASUALTIES, WOUNDED = "casualties", "wounded"
OUTCOMES: dict[str, Outcome] = {
    outcome.key: outcome
    for outcome in (
        Outcome("eliminated", CASUALTIES, True),
        Outcome("captured", CASUALTIES, True, status="captured"),
        Outcome("wreck", CASUALTIES, True, manual=True),
        Outcome("exited_uncontrolled", CASUALTIES, True, exited_uncontrolled=True),
        Outcome("wounded", WOUNDED, False, status="wounded"),
        Outcome("immobilized", "", False, status="immobilized"),
        Outcome("abandoned", "", False, status="abandoned"),
    )
}
# Which outcomes fit which kind of OB line.
KIND_OUTCOMES: dict[str, tuple[str, ...]] = {
    "infantry": ("eliminated", "captured", "exited_uncontrolled"),
    "leader": ("eliminated", "captured", "exited_uncontrolled", "wounded"),
    "vehicle_or_gun": (
        "eliminated",
        "captured",
        "wreck",
        "exited_uncontrolled",
        "immobilized",
        "abandoned",
    ),
    "support_weapon": ("eliminated", "captured", "exited_uncontrolled"),
    "fortification": ("eliminated",),
    "other": ("eliminated", "captured", "exited_uncontrolled"),
}

MMC = re.compile(r"^(\d-\d-\d)(?: (HS|crew|squad|AE|sapper|assault engineer))?$", re.IGNORECASE)
PLAIN_LEADER = re.compile(r"^(10|[5-9])([-+])(\d)(?: leader)?$", re.IGNORECASE)


def outcomes_for(kind: str) -> tuple[str, ...]:
    return KIND_OUTCOMES.get(kind, KIND_OUTCOMES["other"])


@dataclass(frozen=True)
class SquadTypes:
    """The MMC types a game's data names: half-squads and crews (1 CVP) and the rest (2)."""

    halves: frozenset[str]
    squads: frozenset[str]


def squad_types(texts: Iterable[str]) -> SquadTypes:
    """Read the MMC types a game's RG charts and initial OBs name ("3-2-8 HS", "1-2-7 crew",
    "4-6-7")."""
    halves, squads = set(), set()
    for text in texts:
        for rating, word in re.findall(r"\b(\d-\d-\d)\b(?: (HS|crew))?", text):
            (halves if word else squads).add(rating)
    return SquadTypes(frozenset(halves), frozenset(squads - halves))


def known_cvp(unit_type: str, kind: str, types: SquadTypes) -> int | None:
    """The CVP one unit of ``unit_type`` is worth when the app can tell (A26.2), else None."""
    text = " ".join(unit_type.split())
    if kind == "infantry":
        match = MMC.match(text)
        if match is None:
            return None
        rating, word = match.group(1), (match.group(2) or "").casefold()
        if word in ("hs", "crew") or rating in types.halves:
            return 1
        if rating in types.squads:
            return 2
        return None
    if kind == "leader":
        match = PLAIN_LEADER.match(text)
        if match is None:
            return None
        modifier = int(match.group(3)) if match.group(2) == "-" else 0
        return 1 + modifier
    return None
