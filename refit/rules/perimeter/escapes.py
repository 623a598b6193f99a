"""Escape from isolated areas (11.6063–11.6065): the facts of one attempt, its DRMs, what the
Escape Table row does to the stack, and the board once the units have left it."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from campaigns.games.rules import Drm
from refit.rules.hexgrid import distance
from refit.rules.perimeter.board import SMC, Board, Result, Unit


@dataclass(frozen=True)
class EscapeAttempt:
    """One stack (or one AFV) trying to escape, with the facts the players give."""

    units: tuple[Unit, ...]
    afv: bool = False
    leader_drm: int = 0  # the (armor) leader's or hero's DRM (never for a lone SMC)
    hs_equivalents: int = 1  # half-squad equivalents making the same DR
    pp_over_ipc: int = 0
    encircled: bool = False
    captured_afv: bool = False
    wounded: bool = False  # a lone SMC that is wounded gets no −1


# The Escape Table's DRMs by what they are; each module's table names them its own way.
ESCAPE_DRMS = {
    "red_factories": {
        "leader": "leader",
        "nationality": "soviet",
        "lone_smc": "lone-smc",
        "within_2": "within-2-hexes",
        "adjacent": "adjacent",
        "extra_hs": "extra-hs",
        "over_ipc": "over-ipc",
        "encircled": "encircled",
        "captured": "captured-afv",
    },
    "slaughter_at_ponyri": {
        "leader": "leader",
        "nationality": "russian",
        "lone_smc": "lone-smc",
        "within_2": "within-2",
        "adjacent": "adjacent",
        "extra_hs": "extra-hs",
        "over_ipc": "portage",
        "encircled": "encircled",
        "captured": "captured-vehicle",
    },
}


ESCAPE_RULE = "11.6063"


def escape_modifiers(
    result: Result, attempt: EscapeAttempt, soviet_sides: Sequence[str] = ("soviet", "russian")
) -> list[Drm]:
    """The DRMs of 11.6063, each ``Drm(value, rule="11.6063", id=what)``, ``what`` a key of
    ``ESCAPE_DRMS`` (the service words the reason from the module's table). "Within 2 hexes"
    and "adjacent" both apply next to a friendly hex (spec Q26: literal reading)."""
    unit = attempt.units[0]
    side, h = unit.side, unit.hex
    found: list[tuple[str, int]] = []
    lone_smc = len(attempt.units) == 1 and unit.kind == SMC
    if attempt.leader_drm and not lone_smc:
        found.append(("leader", attempt.leader_drm))
    if side in soviet_sides and not attempt.afv:
        found.append(("nationality", -1))
    if lone_smc and not attempt.wounded:
        found.append(("lone_smc", -1))
    isolated = result.isolated
    friendly = [n for n, s in result.control.items() if s == side and n not in isolated]
    if any(distance(h, n) <= 2 for n in friendly):
        found.append(("within_2", -1))
    if any(distance(h, n) == 1 for n in friendly):
        found.append(("adjacent", -1))
    if not attempt.afv:
        if attempt.hs_equivalents > 1:
            found.append(("extra_hs", attempt.hs_equivalents - 1))
        if attempt.pp_over_ipc > 0:
            found.append(("over_ipc", attempt.pp_over_ipc))
        if attempt.encircled:
            found.append(("encircled", 2))
    if attempt.captured_afv:
        found.append(("captured", 2))
    return [Drm(value, rule=ESCAPE_RULE, id=what) for what, value in found]


@dataclass(frozen=True)
class EscapeOutcome:
    escaped: bool  # leaves the map (Retained)
    eliminated: bool
    abandoned: bool = False  # an AFV left in its hex and CA
    replaced: bool = False
    casualty_reduced: bool = False
    heat_of_battle: bool = False
    crew: str = ""  # AFV crew: escapes / eliminated


def escape_outcome(original: int, row: Mapping[str, Any], afv: bool) -> EscapeOutcome:
    """What the Escape Table row (the looked-up result of the final DR) does to the stack.
    RF's table names its flags (escapes, replaced …), SaP's (escape, replacement …) and gives
    its AFV column as text only."""
    if afv:
        cell = row["mobile_afv"]
        text = str(cell.get("en") or cell.get("text", {}).get("en", "")).lower()
        if "escapes" in cell or "abandoned" in cell:
            escaped = bool(cell.get("escapes"))
            abandoned = bool(cell.get("abandoned"))
            eliminated = bool(cell.get("destroyed"))
        else:
            escaped = text.startswith("escape")
            abandoned = text.startswith("abandoned")
            eliminated = not escaped and not abandoned
        return EscapeOutcome(
            escaped=escaped,
            eliminated=eliminated,
            abandoned=abandoned,
            crew=str(cell.get("crew", "" if escaped else "eliminated")),
        )
    cell = row["infantry"]
    escaped = bool(cell.get("escapes", cell.get("escape")))
    return EscapeOutcome(
        escaped=escaped,
        eliminated=bool(cell.get("eliminated", not escaped)),
        replaced=bool(cell.get("replaced", cell.get("replacement"))),
        casualty_reduced=bool(cell.get("casualty_reduced", cell.get("casualty_reduction"))),
        heat_of_battle=original == 2 and escaped,
    )


def after_escapes(board: Board, leaving: Iterable[Unit]) -> Board:
    """The board once the units that escaped or were eliminated have left it (11.6064); the
    evaluation of this board re-types the isolated areas (11.6065)."""
    gone = set(leaving)
    return replace(board, units=tuple(u for u in board.units if u not in gone))
