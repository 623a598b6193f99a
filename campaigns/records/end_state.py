"""Whether a scenario's end is recorded well enough for what follows it (pure: plain data in, a
``Reason`` or None out; issue 15).

The scenario phase's finish ("Scenario over") is refused while the end the next Refit Phase reads
is missing; otherwise the RePh opens and its first roll that reads the end (RF 11.611: the MMC and
leader battle-hardening tables' "won" DRM) refuses, far from where the end is recorded.

- No scenario recorded for the day (RF's later scenarios come from 11.623's chits; a phase
  played without one): record it first.
- The game's RePh reads the winner (any dice table with a ``won`` modifier — Red Factories
  11.611): a winner must be recorded, by the VC or by the players.
- Otherwise (Slaughter at Ponyri: no per-time-frame VC, no ``won`` DRM): the end must have been
  saved once (a winner, a count, or the players' "no winner", ``end["winner_by"]``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from campaigns.games.rules import Reason

# The modifier id of the tables that read who won the scenario just completed (RF 11.611).
WON_MODIFIER = "won"


def reads_winner(dice_tables: Iterable[Mapping[str, Any]]) -> bool:
    """Whether any of a game's dice tables has a DRM for the side that won the scenario."""
    return any(
        modifier.get("id") == WON_MODIFIER
        for table in dice_tables
        for modifier in table.get("modifiers") or ()
    )


def end_missing(
    *,
    exists: bool,
    winner: str,
    end: Mapping[str, Any] | None,
    locations: Mapping[str, Any] | None,
    needs_winner: bool,
) -> Reason | None:
    """Why the scenario phase cannot be finished yet (None: it can)."""
    if not exists:
        return Reason("no_scenario", "11.623")
    if needs_winner:
        return None if winner else Reason("no_winner", "11.6031")
    if winner or end or locations:
        return None
    return Reason("end_not_recorded", "11.6031")
