"""Which hexes of a short game break its stacking limits (pure, no Django): the units on the map
grouped by hex, each hex read by its own game's rules — Defiant Russia 6.2, Cherkassy Pocket
8.1–8.4 (``defiant_russia.stacking_warnings``, ``cherkassy.stacking_warnings``)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from campaigns.games.rules import Reason
from campaigns.shortgames.rules.cherkassy import stacking as cp
from campaigns.shortgames.rules.defiant_russia import stacking as dr

# Cherkassy's artillery never stacks with another unit (8.4).
CP_ARTILLERY_TYPES = ("artillery", "motorized_artillery", "rocket_artillery")


@dataclass(frozen=True)
class Counter:
    """A unit on the map as stacking sees it. ``key``: its name as the rules spell their ids
    (Defiant Russia's "stalin" lets two Soviet armies stack)."""

    hex: str
    side: str
    unit_type: str
    nationality: str = ""
    key: str = ""
    unit_id: str = ""


@dataclass(frozen=True)
class HexWarning:
    """A hex over its game's limits and the rule it breaks (the ``Reason``, words ready-made)."""

    hex: str
    reason: Reason


def by_hex(counters: Iterable[Counter]) -> dict[str, list[Counter]]:
    """The counters of each hex, in the order given; a counter without a hex is in none."""
    stacks: dict[str, list[Counter]] = {}
    for counter in counters:
        if counter.hex:
            stacks.setdefault(counter.hex, []).append(counter)
    return stacks


def _hex_rules(module: str, stack: list[Counter], game: Mapping[str, Any]) -> list[Reason]:
    if module == "defiant_russia":
        return dr.stacking_warnings(
            [dr.StackUnit(c.side, c.nationality, c.unit_type, c.key) for c in stack], game
        )
    return cp.stacking_warnings(
        [
            cp.StackUnit(c.side, artillery=c.unit_type in CP_ARTILLERY_TYPES, unit_id=c.unit_id)
            for c in stack
        ],
        game,
    )


def stacking_warnings(
    module: str, counters: Iterable[Counter], game: Mapping[str, Any]
) -> list[HexWarning]:
    """Every hex over its game's limits, in hex order, with the rule each breaks."""
    return [
        HexWarning(hex_, reason)
        for hex_, stack in sorted(by_hex(counters).items())
        for reason in _hex_rules(module, stack, game)
    ]
