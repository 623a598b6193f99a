"""Strength lost, both short games (pure, no Django): how many steps a unit lost when its
state changed, counted for the after-action report's "strength lost per turn".

A unit's strength is its steps on the map: a full unit has all its steps (1 or 2, DR 5.1,
CP 11.10), a reduced one 1, a unit off the map none. A change of state loses the difference
when the unit ends reduced, eliminated (in or out of supply), eligible for reconstitution or in
a Recovery box (CP 11.10, 12.1); "removed from play" (a withdrawal) and "awaiting
reinforcement" are not losses (docs/rules-decisions.md). A gain (a restore, a rebuild, an
arrival) is not a negative loss: replacement points are counted on their own.
"""

from __future__ import annotations

from dataclasses import dataclass

FULL = "full"
REDUCED = "reduced"
# The states a unit ends in when it lost strength.
LOSS_STATES = (
    "reduced",
    "eliminated",
    "eliminated_oos",
    "reconstitution",
    "recovery_1",
    "recovery_2",
)
# The states in which the unit is gone from the map by a loss (counted as eliminated).
ELIMINATED_STATES = ("eliminated", "eliminated_oos", "reconstitution", "recovery_1", "recovery_2")


@dataclass(frozen=True)
class Loss:
    steps: int  # steps lost, ≥ 1
    eliminated: bool  # the unit left the map by it


def strength(steps: int, state: str) -> int:
    """The unit's steps on the map in this state."""
    if state == FULL:
        return steps
    if state == REDUCED:
        return min(steps, 1)
    return 0


def step_loss(steps: int, before: str, after: str) -> Loss | None:
    """What the change of state from ``before`` to ``after`` lost, or None when it lost
    nothing (a gain, no change, a withdrawal)."""
    if after not in LOSS_STATES:
        return None
    lost = strength(steps, before) - strength(steps, after)
    if lost <= 0:
        return None
    return Loss(steps=lost, eliminated=after in ELIMINATED_STATES)
